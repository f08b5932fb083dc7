#!/usr/bin/env bash
# Speed and memory of the engine at another git revision against this checkout, measured side
# by side in one run: the full-size S3700 200GB consistency run, alternating old and new so
# machine noise falls on both. Prints a Markdown table for docs/BENCHMARKS.md.
#   bash scripts/bench-compare.sh REV [ROUNDS] [SECONDS]     e.g. bench-compare.sh 66ad147 3 2000
# With CALLGRIND=1 it also counts the instructions each executes (valgrind's callgrind: the same
# count on a loaded machine) on a 300 s run of a 1/8-size S3700 that reaches steady state.
set -euo pipefail
cd "$(dirname "$0")/.."

rev="${1:?usage: bench-compare.sh REV [ROUNDS] [SECONDS]}"
rounds="${2:-3}"
sim_seconds="${3:-2000}"
work="$(mktemp -d)"
trap 'git worktree remove --force "$work/old" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

git worktree add -q --detach "$work/old" "$rev"
(cd "$work/old" && cargo build --release -q -p ssdlab-cli --target-dir "$work/target")
cargo build --release -q -p ssdlab-cli
old="$work/target/release/ssdlab"
new="target/release/ssdlab"

run() { "$1" run --drive s3700-200 --seconds "$sim_seconds" --steady-from $((sim_seconds * 7 / 10)) --json; }
field() { grep -o "\"$1\": *[0-9.e+-]*" | head -1 | sed 's/.*: *//'; }

: > "$work/rates"
for i in $(seq "$rounds"); do
  for which in old new; do
    bin="$old"; [ "$which" = new ] && bin="$new"
    out="$(run "$bin")"
    echo "$which $(echo "$out" | field host_ios_per_wall_second) $(echo "$out" | field peak_memory_bytes) $(echo "$out" | field raw_bytes)" >> "$work/rates"
  done
done

if [ "${CALLGRIND:-0}" = 1 ]; then
  small=(run --drive s3700-200 --seconds 300 --steady-from 210 --set geometry.blocks_per_plane=256
    --set user_bytes=25000001536 --set gc.start_free_blocks=6 --set gc.boost_below_free_blocks=3
    --set gc.boost_until_free_blocks=5 --set gc.background_free_blocks=12)
  for which in old new; do
    bin="$old"; [ "$which" = new ] && bin="$new"
    ir=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "${small[@]}" 2>&1 >/dev/null | sed -n 's/.*refs: *//p' | tr -d ,)
    echo "$which-ir $ir" >> "$work/rates"
  done
fi

python3 - "$work/rates" "$rev" "$(git rev-parse --short HEAD)" "$rounds" "$sim_seconds" <<'PY'
import sys, statistics
path, rev, head, rounds, secs = sys.argv[1:]
rows = [l.split() for l in open(path)]
ir = {r[0][:-3]: float(r[1]) for r in rows if r[0].endswith('-ir')}
rows = [r for r in rows if not r[0].endswith('-ir')]
def of(w, i): return [float(r[i]) for r in rows if r[0] == w]
old, new = of('old', 1), of('new', 1)
raw = float(rows[0][3])
print(f"S3700 200GB consistency run, {secs} s simulated, {rounds} alternating rounds: {rev} (old) against {head} (new)")
print()
print("| measure | old | new | new / old |")
print("|---|---|---|---|")
mo, mn = statistics.median(old), statistics.median(new)
print(f"| host IOs per wall second (median) | {mo/1e6:.2f} M/s | {mn/1e6:.2f} M/s | {mn/mo:.3f} |")
print(f"| each round | {', '.join(f'{x/1e6:.2f}' for x in old)} | {', '.join(f'{x/1e6:.2f}' for x in new)} | |")
po, pn = max(of('old', 2)), max(of('new', 2))
if ir:
    print(f"| instructions, 300 s on a 1/8-size S3700 (callgrind) | {ir['old']/1e9:.3f} G | {ir['new']/1e9:.3f} G | {ir['new']/ir['old']:.4f} |")
print(f"| peak memory per raw 4 KiB | {po/(raw/4096):.2f} B | {pn/(raw/4096):.2f} B | {pn/po:.3f} |")
PY
