#!/usr/bin/env bash
# On a lent GPU machine, from the repository root: where one plan's tile kernel spends its time, plain
# and fused. For each M:N:K:PLAN, ncu profiles the tile kernel (rung 9's double_buffered_kernel) of
# one plain call and of one fused top-2 call with C that `sgemm_autotune --explain-top2 M N K --only
# PLAN` makes (its 28th and 29th launches: the plain call's last timed run, the fused call's first
# warm-up), with the source counters and warp states, then splits each kernel's SASS into the code
# its warps run many times and the code they run about once (scripts/ncu_sass_regions.py). Prints
# each kernel's time, cycles, registers and occupancy and the two regions' stall samples by reason
# (no_inst: waiting for an instruction fetch), and leaves the text in $OUT/ncu-regions.tgz (the
# reports themselves are too large to bring back).
#
#   scripts/ncu-plan-regions.sh CARRY_DIR M:N:K:PLAN...     e.g. 40000:1000:64:db_64x128x16_w32x64
#
# CARRY_DIR: a scripts/carry-binaries.sh pack (or any binaries.tar.xz holding bench/sgemm_autotune).
set -u
cd "$(dirname "$0")/.." || exit 2
carry=${1:?"ncu-plan-regions.sh CARRY_DIR M:N:K:PLAN..."}
shift
export PATH="$PATH:/usr/local/cuda/bin"
mkdir -p build-gpu && xz -dc "$carry/binaries.tar.xz" | tar -C build-gpu -xf -
out=${OUT:-$PWD/ncu-regions-out}
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader >"$w/gpu.txt"
for spec in "$@"; do
  IFS=: read -r m n k plan <<<"$spec"
  tag=${m}x${n}x${k}-${plan}
  timeout 200 ncu --clock-control none --kernel-name regex:double_buffered_kernel --launch-skip 27 --launch-count 2 \
    --section SourceCounters --section WarpStateStats --section SpeedOfLight --section LaunchStats --section Occupancy \
    -o "$w/$tag" build-gpu/bench/sgemm_autotune --explain-top2 "$m" "$n" "$k" --only "$plan" >"$w/$tag.log" 2>&1
  echo "ncu $tag rc=$?"
  ncu -i "$w/$tag.ncu-rep" --page details >"$w/$tag-details.txt" 2>&1
  ncu -i "$w/$tag.ncu-rep" --page source --csv --print-source sass >"$w/$tag-sass.csv" 2>/dev/null
  python3 scripts/ncu_sass_regions.py --top 15 "$w/$tag-sass.csv" >"$w/$tag-regions.txt" 2>&1
  grep -E 'Duration|Registers Per|Achieved Occupancy|Elapsed Cycles|SM Active Cycles|Warp Cycles Per Issued' \
    "$w/$tag-details.txt"
  grep -E 'sass.csv:|  loop|  once  |  never' "$w/$tag-regions.txt" | cut -c1-400
  rm -f "$w/$tag-sass.csv" "$w/$tag.ncu-rep"
done
mkdir -p "$out"
tar -C "$w" -czf "$out/ncu-regions.tgz" . && rm -rf "$w"
