#!/usr/bin/env bash
# Speed of every model variant on the full-size S3700 200GB (and the P3700 400GB), one run each.
# Prints a Markdown table for docs/BENCHMARKS.md.   npm run bench:variants   (SECONDS_SIM=600)
set -euo pipefail
cd "$(dirname "$0")/.."
sim_seconds="${SECONDS_SIM:-600}"
cargo build --release -q -p ssdlab-cli
bin=./target/release/ssdlab
field() { grep -o "\"$1\": *[0-9.e+-]*" | head -1 | sed 's/.*: *//'; }

echo "## Variants, $(date -u +%Y-%m-%d), ${sim_seconds} s simulated each, $(nproc) cores"
echo
echo "| variant | command arguments | wall s | host IOs | host IOs per wall s | steady IOPS (last 30 %) | steady WA |"
echo "|---|---|---|---|---|---|---|"
row() {
  local name="$1"; shift
  local out
  out=$("$bin" run --seconds "$sim_seconds" --steady-from $((sim_seconds * 7 / 10)) --json "$@")
  printf '| %s | `%s` | %.1f | %.1f M | %.2f M/s | %.0f | %.2f |\n' "$name" "$*" \
    "$(echo "$out" | field wall_seconds)" "$(echo "$out" | field host_ios | awk '{print $1/1e6}')" \
    "$(echo "$out" | field host_ios_per_wall_second | awk '{print $1/1e6}')" \
    "$(echo "$out" | field steady_iops_mean)" "$(echo "$out" | field steady_write_amplification)"
}
row "default (flat map, greedy, consistency-first)" --drive s3700-200
row "lazy GC" --drive s3700-200 --set gc.pacing=lazy
row "cost-benefit victims, hot-cold" --drive s3700-200 --workload hot-cold --set gc.victim=cost-benefit
row "greedy victims, hot-cold" --drive s3700-200 --workload hot-cold
row "FIFO victims" --drive s3700-200 --set gc.victim=fifo
row "cached map, whole table in DRAM" --drive s3700-200 --set map.scheme=cached --set map.cache_bytes=268435456
row "cached map, 8 MiB of DRAM" --drive s3700-200 --set map.scheme=cached --set map.cache_bytes=8388608
row "tree map (710-style)" --drive s3700-200 --set map.scheme=tree
row "write-through (no capacitors, no volatile cache)" --drive s3700-200 --set power.capacitors=false
row "volatile cache, 10 power cuts" --drive s3700-200 --set power.capacitors=false --set power.volatile_cache=true \
  $(for i in 1 2 3 4 5 6 7 8 9 10; do echo --power-cut-at $((sim_seconds * i / 11)); done)
row "static wear levelling eager (every 4 erases, spread 4)" --drive s3700-200 --workload hot-cold \
  --set wear.static_every_erases=4 --set wear.static_spread_threshold=4
row "SLC cells" --drive s3700-200 --set nand.cell=slc
row "TLC cells" --drive s3700-200 --set nand.cell=tlc
row "bursts with background GC (60 s on, 30 s idle)" --drive s3700-200 --burst-s 60 --idle-s 30
row "random read QD32" --drive s3700-200 --workload random-read
row "mixed 70/30 QD32" --drive s3700-200 --workload mixed-70-30
row "sequential write 128 KB" --drive s3700-200 --workload sequential-write
row "compressing controller, incompressible data" --drive s3700-200 --set controller.compression=true
row "compressing controller, data compresses 50 %" --drive s3700-200 --set controller.compression=true --compressibility 0.5
row "redo log (1.5 KB sequential QD1, read-modify-write)" --drive s3700-200 --workload redo-log
row "4 KB random writes aligned to 512 B" --drive s3700-200 --align-bytes 512
row "4 KB random writes on a map of 8 KB pages" --drive s3700-200 --set map.unit_bytes=8192
row "random writes with 10 % TRIM commands" --drive s3700-200 --workload write-trim
row "P3700 random read QD128" --drive p3700-400 --workload random-read --queue-depth 128
row "P3700 random read QD128, one 32-deep queue" --drive p3700-400 --workload random-read --queue-depth 128 \
  --set host.queues=1 --set host.max_queue_depth=32
row "P3700 consistency" --drive p3700-400
