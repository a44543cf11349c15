#!/usr/bin/env bash
# The GPU check for a machine with a CUDA GPU (e.g. a lent H100/H200): builds for sm_90 with
# everything on, prints the ptxas register/spill figures of our kernels, runs the whole ctest suite
# (GPU tests included; a skipped test fails the run), runs the GPU tests again under compute-sanitizer
# (memcheck, racecheck, synccheck, initcheck), reads shared-memory bank conflicts of SGEMM rungs 6 and 7
# with ncu, and runs the benchmarks. Logs and JSON go under $OUT when it is set (else gpu-check-out/).
# Ends with a summary table; exits non-zero on any failure or sanitizer finding.
#
#   scripts/gpu-check.sh [--stages build,test,sanitize,ncu,autotune,bench] [--quick-bench]
# Stages default to all but autotune. A warm build directory (build-gpu) is reused between calls.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
stages="build,test,sanitize,ncu,bench"
quick_bench=""
while [ $# -gt 0 ]; do
  case "$1" in
    --stages) stages="$2"; shift 2 ;;
    --quick-bench) quick_bench="--quick"; shift ;;
    *) echo "gpu-check: unknown option $1" >&2; exit 64 ;;
  esac
done
has() { [[ ",$stages," == *",$1,"* ]]; }

out=${OUT:-$root/gpu-check-out}
mkdir -p "$out"
logs=$root/build-gpu/gpu-check-logs
mkdir -p "$logs"
build=$root/build-gpu
jobs=$(nproc)
summary=()
failed=0
record() {  # stage, status, detail
  summary+=("$(printf '%-12s %-6s %s' "$1" "$2" "$3")")
  [ "$2" = "FAIL" ] && failed=1
  return 0
}
stamp() { date +%s; }

if ! nvidia-smi -L >/dev/null 2>&1; then
  echo "gpu-check: no NVIDIA GPU found on this machine; this script is for a GPU host (CPU tests: scripts/test.sh)"
  exit 2
fi
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv | tee "$logs/gpu.txt"

if has build; then
  t0=$(stamp)
  prefix_path=""
  [ -d "$root/.deps/rapidcheck" ] && prefix_path="-DCMAKE_PREFIX_PATH=$root/.deps/rapidcheck"
  generator=""
  command -v ninja >/dev/null && generator="-GNinja"
  if cmake -S . -B "$build" $generator -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
      -DGPUPRIMS_PTXAS_VERBOSE=ON $prefix_path >"$logs/configure.log" 2>&1 &&
     cmake --build "$build" -j "$jobs" >"$logs/build.log" 2>&1; then
    # ptxas: one line per kernel of ours with registers, stack frame and spills.
    awk '/Compiling entry function/ { match($0, /_Z[A-Za-z0-9_]+/); fn=substr($0, RSTART, RLENGTH) }
         /bytes stack frame/ { stack=$0 }
         /Used [0-9]+ registers/ { if (fn ~ /gpuprims/) print fn "\t" stack "\t" $0 }' "$logs/build.log" |
      c++filt | sed -E 's/ptxas info +: //g; s/gpuprims::(detail|reduce::detail|test)::|\(anonymous namespace\):://g' |
      sort -u >"$logs/ptxas.txt"
    spills=$(grep -c -E '[1-9][0-9]* bytes spill (stores|loads)' "$logs/ptxas.txt" || true)
    echo "== ptxas (registers / spills) =="
    sed -E 's/\t+/ | /g' "$logs/ptxas.txt" | cut -c1-230
    record build PASS "$(( $(stamp) - t0 ))s; $(wc -l <"$logs/ptxas.txt") kernels, $spills with spills"
  else
    tail -40 "$logs/configure.log" "$logs/build.log"
    record build FAIL "see build.log"
  fi
fi

if has test && [ ! -d "$build/tests" ]; then record ctest FAIL "not built (add the build stage)"; fi
if has test && [ $failed -eq 0 ] && [ -d "$build/tests" ]; then
  t0=$(stamp)
  ctest --test-dir "$build" --output-on-failure -j 8 --timeout 900 >"$logs/ctest.log" 2>&1
  rc=$?
  total=$(grep -Eo 'out of [0-9]+' "$logs/ctest.log" | tail -1 | grep -Eo '[0-9]+')
  skipped=$(grep -c -E '\*\*\*Skipped|Not Run' "$logs/ctest.log" || true)
  tail -25 "$logs/ctest.log"
  if [ $rc -eq 0 ] && [ "$skipped" -eq 0 ]; then
    record ctest PASS "$(( $(stamp) - t0 ))s; ${total:-?} tests, 0 skipped"
  else
    grep -E 'Failed|\*\*\*|Skipped' "$logs/ctest.log" | head -30
    record ctest FAIL "rc $rc, $skipped skipped of ${total:-?}"
  fi
fi

if has sanitize && [ ! -x "$build/tests/unit_gpu_tests" ]; then record sanitize FAIL "not built (add the build stage)"; fi
if has sanitize && [ -x "$build/tests/unit_gpu_tests" ]; then
  # The tools slow kernels 10-100x, so they run a curated set that still reaches every kernel and
  # code path at small sizes: every rung on odd, tail-heavy shapes with padding and offsets, k = 0,
  # null operands, NaN/inf, every top-2 case, every reduce path; property tests with 10 cases per rung.
  small_gemm='Issue/GemmShapes.*/7x13x5:Issue/GemmShapes.*/127x129x131:Issue/GemmShapes.*/129x1x257'
  edges='GemmEdges.KZero*:GemmEdges.NullOperands*:GemmEdges.MZero*:GemmEdges.NanAndInf*'
  top2='Top2Fused.AllEqual*:Top2Fused.Infinities*:Top2Fused.BetaTimes*:Top2Fused.CNotStored*:Top2Reduce.*'
  reduce='ReduceGpu.SanitizerSizedAllPaths:ReduceGpu.BadInputsLaunchNothing:Every/TunedConfigs.*'
  unit_filter="$small_gemm:$edges:$top2:$reduce"
  race_filter='Every/TunedConfigs.*:Issue/GemmShapes.TightAndAligned/127x129x131:Issue/GemmShapes.PaddedAndOffsetByOneToThreeFloats/7x13x5:Top2Fused.AllEqual*:Top2Reduce.*:ReduceGpu.SanitizerSizedAllPaths'
  for spec in memcheck:unit_gpu_tests:130 memcheck:property_gpu_tests:80 racecheck:unit_gpu_tests:110 \
              synccheck:unit_gpu_tests:70 initcheck:unit_gpu_tests:70; do
    IFS=: read -r tool bin limit <<<"$spec"
    t0=$(stamp)
    f=$unit_filter
    [ "$tool" = racecheck ] && f=$race_filter
    [ "$bin" = property_gpu_tests ] && f='*'
    extra=""
    [ "$tool" = memcheck ] && extra="--leak-check full"
    [ "$tool" = racecheck ] && extra="--racecheck-report hazard"
    log="$logs/sanitize-$tool-$bin.log"
    RC_PARAMS="max_success=10" timeout "$limit" compute-sanitizer --tool "$tool" $extra --error-exitcode 99 \
      "$build/tests/$bin" --gtest_filter="$f" >"$log" 2>&1
    rc=$?
    ran=$(grep -Eo '[0-9]+ tests? from [0-9]+ test suites? ran' "$log" | tail -1)
    findings=$(grep -Eo '(ERROR|RACECHECK) SUMMARY: [0-9]+ (errors?|hazards?)[^)]*' "$log" | tail -1)
    if [ $rc -eq 0 ]; then record "$tool" PASS "$(( $(stamp) - t0 ))s $bin: ${ran:-?}; ${findings:-no findings}"
    elif [ $rc -eq 124 ]; then record "$tool" FAIL "$bin timed out after ${limit}s (not a finding)"
    else tail -25 "$log"; record "$tool" FAIL "$bin rc $rc: ${findings:-see log}"; fi
  done
fi

if has ncu && [ ! -x "$build/bench/sgemm_bench" ]; then record ncu FAIL "not built (add the build stage)"; fi
if has ncu && [ -x "$build/bench/sgemm_bench" ]; then
  t0=$(stamp)
  metrics=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
  ncu_log="$out/ncu-bank-conflicts.txt"
  : >"$ncu_log"
  for rung in vectorized bank_conflict_free warptile; do
    echo "== $rung 4096^3 ==" >>"$ncu_log"
    timeout 40 ncu --clock-control none --metrics "$metrics" -c 1 \
      -k regex:'(blocktile_2d|vectorized|warptile|double_buffered)_kernel' \
      "$build/bench/sgemm_bench" --single "$rung" 4096 4096 4096 >>"$ncu_log" 2>&1
  done
  grep -E '==|bank_conflicts|wavefronts' "$ncu_log"
  if grep -q bank_conflicts "$ncu_log"; then record ncu PASS "$(( $(stamp) - t0 ))s; bank conflicts read"
  else record ncu FAIL "no metrics read"; fi
fi

if has autotune && [ ! -x "$build/bench/sgemm_autotune" ]; then record autotune FAIL "not built (add the build stage)"; fi
if has autotune && [ -x "$build/bench/sgemm_autotune" ]; then
  t0=$(stamp)
  # Fits the tuned rung's cost model to this GPU, installs the constants in the tree and rebuilds, so
  # the bench stage below measures the fitted pick (commit lib/gemm/src/model_constants.inc after).
  if "$build/bench/sgemm_autotune" --out "$out/autotune.json" --constants "$out/model_constants.inc" \
       >"$logs/autotune.log" 2>&1 &&
     cp "$out/model_constants.inc" lib/gemm/src/model_constants.inc &&
     cmake --build "$build" -j "$jobs" >>"$logs/build.log" 2>&1; then
    grep -E 'copy bandwidth|fit:' "$logs/autotune.log"
    record autotune PASS "$(( $(stamp) - t0 ))s; $(grep -Eo 'pick vs best measured.*' "$logs/autotune.log" | head -1)"
  else tail -20 "$logs/autotune.log"; record autotune FAIL "see autotune.log"; fi
fi

if has bench && [ ! -x "$build/bench/sgemm_bench" ]; then record bench FAIL "not built (add the build stage)"; fi
if has bench && [ -x "$build/bench/sgemm_bench" ]; then
  for b in reduce sgemm top2; do
    t0=$(stamp)
    echo "== $b benchmark =="
    if "$build/bench/${b}_bench" $quick_bench --out "$out/$b.json" 2>"$logs/bench-$b.err" | tee "$logs/bench-$b.log"; then
      record "bench-$b" PASS "$(( $(stamp) - t0 ))s"
    else
      tail -20 "$logs/bench-$b.err"
      record "bench-$b" FAIL "see bench-$b.err"
    fi
  done
fi

tar -C "$build" -czf "$out/gpu-check-logs.tar.gz" gpu-check-logs 2>/dev/null
echo
echo "== gpu-check summary ($(head -2 "$logs/gpu.txt" | tail -1 | cut -d, -f1)) =="
printf '%s\n' "${summary[@]}" | tee "$out/summary.txt"
exit $failed
