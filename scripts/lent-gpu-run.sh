#!/usr/bin/env bash
# One call on a lent GPU machine, over binaries built here and carried (scripts/carry-binaries.sh
# pack): every GPU test once, then compute-sanitizer over chosen tests (all at once: the tools spend
# their time on the host), then benchmarks one after another (alone on the GPU, so their timings are
# not disturbed). Everything it writes goes to one folder, packed at the end into $OUT/run.tgz (the
# device tool brings back at most 8 files); the summary lines also go to $OUT/summary.txt and stdout.
#
#   scripts/lent-gpu-run.sh [--carry DIR] [--budget S] STEP...
#     tests                            carry-binaries.sh test: every GPU test once (a skip fails it)
#     san:TOOL:BINARY:FILTER[:SHARDS[:LIMIT]]
#                                      compute-sanitizer --tool TOOL over build-gpu/tests/BINARY with
#                                      --gtest_filter=FILTER ('+' between its patterns, for GoogleTest's
#                                      ':'), in SHARDS GoogleTest shards (1), each
#                                      with LIMIT seconds (300); GPUPRIMS_SANITIZER=1 as in gpu-check.sh
#     bench:NAME[:ARG,ARG...]          build-gpu/bench/NAME ARG... --out NAME[-ARGS].json (commas
#                                      separate the arguments; NAME may be a path below build-gpu/bench,
#                                      e.g. ../bench-old/top2_bench for a second build's binary)
#     ncu:NAME:REGEX[:ARG,ARG...]      ncu kernel times (gpu__time_duration; launch and occupancy
#                                      sections in the log) of kernels matching REGEX in one run of
#                                      build-gpu/bench/NAME ARG...
#     run:NAME[:ARG,ARG...]            build-gpu/bench/NAME ARG... as it is (e.g. sgemm_autotune
#                                      --explain M N K); its last 12 lines go to the summary
# Sanitizer steps start together after the tests; benchmark and ncu steps run after them, in order.
# --budget: seconds after which no further benchmark starts (the device tool stops a call at 600).
# NCU_SECTIONS: the ncu steps' sections or metrics besides the kernel time (default: --section
# LaunchStats --section Occupancy).
# Exits non-zero when a test fails, a sanitizer reports anything or times out, or a benchmark fails.
set -uo pipefail
cd "$(dirname "$0")/.."
carry=build-carry
budget=560
while [ $# -gt 0 ]; do
  case "$1" in
    --carry) carry=$2; shift 2 ;;
    --budget) budget=$2; shift 2 ;;
    *) break ;;
  esac
done
start=$(date +%s)
out=${OUT:-$PWD/lent-gpu-out}
work=$(mktemp -d)
mkdir -p "$out" "$work/logs"
summary=$work/summary.txt
failed=0
note() { echo "$*" | tee -a "$summary"; }
elapsed() { echo $(( $(date +%s) - start )); }
export PATH="$PATH:/usr/local/cuda/bin"

nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv,noheader |
  sed 's/^/gpu: /' | tee -a "$summary"
# Unpack once; the tests step unpacks again, to the same place.
mkdir -p build-gpu && xz -dc "$carry/binaries.tar.xz" | tar -C build-gpu -xf -

tests=0
sans=()
rest=()
for step in "$@"; do
  case "$step" in
    tests) tests=1 ;;
    san:*) sans+=("$step") ;;
    bench:* | ncu:* | run:*) rest+=("$step") ;;
    *) echo "lent-gpu-run: unknown step '$step'" >&2; exit 64 ;;
  esac
done

if [ "$tests" = 1 ]; then
  t0=$(date +%s)
  scripts/carry-binaries.sh test "$carry" >"$work/logs/tests.txt" 2>&1
  rc=$?
  [ $rc -ne 0 ] && failed=1
  cp -r build-gpu/carry-logs "$work/logs/" 2>/dev/null
  note "tests rc=$rc ($(( $(date +%s) - t0 )) s): $(grep -E '^carry-binaries: [0-9]+ of' "$work/logs/tests.txt" | tail -1)"
  grep -E 'FAILED' "$work/logs/tests.txt" | head -20 | tee -a "$summary"
fi

san_one() {  # tool binary filter shard shards limit log
  local t0=$(date +%s) rc
  GPUPRIMS_SANITIZER=1 GTEST_TOTAL_SHARDS=$5 GTEST_SHARD_INDEX=$4 timeout "$6" \
    compute-sanitizer --tool "$1" --error-exitcode 3 "build-gpu/tests/$2" --gtest_filter="$3" >"$7" 2>&1
  rc=$?
  echo "$1 $2 '$3' shard $4/$5 rc=$rc ($(( $(date +%s) - t0 )) s): $(grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  PASSED  \]|^\[  FAILED  \]' "$7" | tr -s ' ' | tr '\n' ' ')" >"$7.line"
  return $rc
}
if [ ${#sans[@]} -gt 0 ]; then
  pids=()
  n=0
  for step in "${sans[@]}"; do
    IFS=: read -r _ tool binary filter shards limit <<<"$step"
    filter=${filter//+/:}  # '+' separates the GoogleTest patterns (':' separates the step's fields)
    shards=${shards:-1}
    limit=${limit:-300}
    for ((i = 0; i < shards; i++)); do
      n=$((n + 1))
      san_one "$tool" "$binary" "$filter" "$i" "$shards" "$limit" "$work/logs/san-$n-$tool.txt" &
      pids+=("$!")
    done
  done
  for p in "${pids[@]}"; do wait "$p" || failed=1; done
  cat "$work"/logs/san-*.line | tee -a "$summary"
fi

declare -A seen=()
for step in "${rest[@]}"; do
  # A step given again writes beside its earlier runs: NAME-ARGS.json, then NAME-ARGS.2.json, ...
  seen[$step]=$(( ${seen[$step]:-0} + 1 ))
  again=""
  [ "${seen[$step]}" -gt 1 ] && again=".${seen[$step]}"
  if [ "$(elapsed)" -ge "$budget" ]; then
    note "$step: not started (budget of $budget s spent)"
    continue
  fi
  IFS=: read -r kind name a b <<<"$step"
  if [ "$kind" = bench ]; then
    args=${a:-}
    tag=${name//[^A-Za-z0-9]/_}${args:+-${args//[^A-Za-z0-9]/_}}$again
    t0=$(date +%s)
    # shellcheck disable=SC2086
    timeout $(( budget + 30 - $(elapsed) )) "build-gpu/bench/$name" ${args//,/ } --out "$work/$tag.json" \
      >"$work/logs/$tag.txt" 2>&1
    rc=$?
    [ $rc -ne 0 ] && failed=1
    note "bench $name ${args//,/ } rc=$rc ($(( $(date +%s) - t0 )) s) -> $tag.json"
  elif [ "$kind" = run ]; then
    args=${a:-}
    tag=run-${name//[^A-Za-z0-9]/_}${args:+-${args//[^A-Za-z0-9]/_}}$again
    # shellcheck disable=SC2086
    timeout 120 "build-gpu/bench/$name" ${args//,/ } >"$work/logs/$tag.txt" 2>&1
    note "run $name ${args//,/ } rc=$?:"
    tail -12 "$work/logs/$tag.txt" | tee -a "$summary"
  else
    regex=$a
    args=${b:-}
    tag=ncu-${name//[^A-Za-z0-9]/_}${args:+-${args//[^A-Za-z0-9]/_}}$again
    # shellcheck disable=SC2086
    # shellcheck disable=SC2086
    timeout 150 ncu --clock-control none --kernel-name "regex:$regex" --metrics gpu__time_duration.sum \
      ${NCU_SECTIONS:---section LaunchStats --section Occupancy} \
      "build-gpu/bench/$name" ${args//,/ } >"$work/logs/$tag.txt" 2>&1
    rc=$?
    # Each kernel's name (up to its argument list) and its time.
    note "ncu $name ${args//,/ } rc=$rc: $(awk '/^  [^ ].*\(/ { k = $1; sub(/\(.*/, "", k) }
      /gpu__time_duration/ { printf "%s %s %s; ", substr(k, 1, 60), $(NF), $(NF-1) }' "$work/logs/$tag.txt")"
  fi
done

note "lent-gpu-run: $(elapsed) s, failed=$failed"
cp "$summary" "$out/summary.txt"
tar -C "$work" -czf "$out/run.tgz" .
rm -rf "$work"
exit $failed
