#!/usr/bin/env bash
# Speed and memory of the engine against the floor tool (shared/bench/ftl_floor.c), measured in
# one run on this machine, then the page in Chromium (e2e/bench/page.spec.ts: first load, long
# tasks, redraws, clicks, first dot, the engine in the page against the native CLI). Prints
# Markdown tables for docs/BENCHMARKS.md.
#   npm run bench                 # the S3700 200GB consistency run (2000 s), floor with 20 M writes
#   SECONDS_SIM=600 npm run bench # a shorter run
#   npm run bench:page            # the page alone (SSDLAB_BENCH_SECONDS, SSDLAB_BENCH_ROUNDS: see the spec)
set -euo pipefail
cd "$(dirname "$0")/.."

# The page in Chromium, against the built app and the release CLI.
page_bench() {
  cargo build --release -q -p ssdlab-cli
  bash scripts/build-wasm.sh >/dev/null
  node_modules/.bin/vite build --logLevel warn
  node_modules/.bin/playwright test -c playwright.bench.config.ts
}
if [ "${1:-}" = page ]; then
  page_bench
  exit 0
fi

sim_seconds="${SECONDS_SIM:-2000}"
floor_src="../shared/bench/ftl_floor.c"
[ -f "$floor_src" ] || { echo "bench: $floor_src not found (the floor tool ships beside the repo in shared/)" >&2; exit 1; }

cargo build --release -q -p ssdlab-cli
floor_bin="$(mktemp -d)/ftl_floor"
cc -O2 -o "$floor_bin" "$floor_src"

field() { grep -o "\"$1\": *[0-9.e+-]*" | head -1 | sed 's/.*: *//'; }

echo "## $(date -u +%Y-%m-%d) on $(nproc) cores ($(uname -m)), ${sim_seconds} s simulated"
echo
# Same drive geometry as the preset: 186.26 GiB user, 264 GiB raw, 1024 4 KiB units per block.
floor_out=$("$floor_bin" 186.26 264 1024 20000000)
floor_rate=$(echo "$floor_out" | sed 's/.*host_writes_per_s=\([0-9]*\).*/\1/')
floor_wa=$(echo "$floor_out" | sed 's/.*write_amplification=\([0-9.]*\).*/\1/')

run_json=$(./target/release/ssdlab run --drive s3700-200 --workload consistency --seconds "$sim_seconds" \
  --steady-from $((sim_seconds * 7 / 10)) --json)
rate=$(echo "$run_json" | field host_ios_per_wall_second)
steady_rate=$(echo "$run_json" | field steady_host_ios_per_wall_second)
wall=$(echo "$run_json" | field wall_seconds)
peak=$(echo "$run_json" | field peak_memory_bytes)
raw=$(echo "$run_json" | field raw_bytes)
ios=$(echo "$run_json" | field host_ios)

# A second floor run after the engine, to bracket machine noise; and the floor as its README
# gives it for this drive (512 units per block: more, smaller blocks).
floor_rate2=$("$floor_bin" 186.26 264 1024 20000000 | sed 's/.*host_writes_per_s=\([0-9]*\).*/\1/')
floor_rate512=$("$floor_bin" 186.3 264 512 20000000 | sed 's/.*host_writes_per_s=\([0-9]*\).*/\1/')

python3 - "$rate" "$floor_rate" "$floor_rate2" "$wall" "$peak" "$raw" "$ios" "$floor_wa" "$steady_rate" "$floor_rate512" <<'PY'
import sys
rate, f1, f2, wall, peak, raw, ios, fwa, steady, f512 = map(float, sys.argv[1:])
floor = (f1 + f2) / 2
print("| measure | value |")
print("|---|---|")
print(f"| engine: S3700 200GB consistency run, wall time | {wall:.1f} s for {ios/1e6:.1f} M host IOs |")
print(f"| engine: host IOs per wall second | {rate/1e6:.2f} M/s |")
print(f"| floor tool (same geometry, 20 M writes, before / after) | {f1/1e6:.2f} / {f2/1e6:.2f} M/s (WA {fwa}) |")
print(f"| engine: host IOs per wall second in steady state (last 30 %, GC on every write) | {steady/1e6:.2f} M/s |")
print(f"| engine / floor, whole run | {rate/floor:.2f} (target >= 0.33) |")
print(f"| engine / floor, steady state only | {steady/floor:.2f} |")
print(f"| floor tool as its README runs it (512 units per block) | {f512/1e6:.2f} M/s; engine / that floor {rate/f512:.2f} |")
print(f"| peak resident memory (VmHWM) | {peak/2**20:.0f} MiB |")
print(f"| bytes per 4 KiB of raw NAND | {peak/(raw/4096):.2f} (target < 10) |")
PY

# The same engine compiled to wasm, as the browser runs it.
[ -f web/src/engine/pkg/ssdlab_wasm_bg.wasm ] || bash scripts/build-wasm.sh >/dev/null
node scripts/bench-wasm.mjs "$sim_seconds"

page_bench
