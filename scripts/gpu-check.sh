#!/usr/bin/env bash
# The GPU check for a machine with a CUDA GPU (e.g. a lent H100/H200): builds for sm_90 with
# everything on, prints the ptxas register/spill figures of our kernels, runs the whole ctest suite
# (GPU tests spread over the GPUs by ctest resource groups; a skipped test fails the run; JUnit XML),
# runs every GPU test again under compute-sanitizer (memcheck, racecheck, synccheck, initcheck) with
# GPUPRIMS_SANITIZER=1 (the tests shrink their large cases), reads shared-memory bank conflicts of
# SGEMM rungs 6-8 with ncu, runs the benchmarks, and gates their ratios to CUB/cuBLAS against the
# committed results of this GPU model (scripts/perf_gate.py). Logs and JSON go under $OUT when it is
# set (else gpu-check-out/). Ends with a summary table; exits non-zero on any failure, sanitizer
# finding, sanitizer timeout or performance drop.
#
#   scripts/gpu-check.sh [--stages build,test,sanitize,ncu,autotune,bench,gate,dist] [--quick-bench]
#                        [--sanitizers memcheck,racecheck,synccheck,initcheck] [--shard I/N]
# Stages default to all but autotune and dist. A warm build directory (build-gpu) is reused between
# calls. The dist stage is gpuprims::dist on every GPU of the machine (meant for two), on its own:
#   scripts/gpu-check.sh --stages dist
# builds only libgpuprims, libgpuprims_dist, dist_gpu_tests and dist_bench, runs the multi-GPU tests,
# runs dist_bench (one GPU against all) and draws dist.png, then runs the tests again under
# compute-sanitizer memcheck; JSON, plot, logs and JUnit go to $OUT/dist/, and the JSON, plot and summary also to
# results/<gpu>-x<count>/. The test stage leaves the multigpu tests out on a machine with one GPU
# (they would skip there), and the sanitize stage always does: the dist stage sanitizes them.
# The sanitize stage runs every test of every GPU test binary (scripts/gpu_test_commands.py lists
# them from ctest; no list is kept by hand), split into GoogleTest shards: --shard I/N runs shard I
# (1..N) of N for each selected tool, one call that fits a 10-minute limit; without --shard every
# shard of every tool runs, N per tool from the SANITIZE_SHARDS_* variables below. Each tool and
# shard has its own timeout and summary line (tests run, findings, slowest test).
#
# Environment (defaults in brackets):
#   SANITIZE_SHARDS_MEMCHECK [2] SANITIZE_SHARDS_RACECHECK [4] SANITIZE_SHARDS_SYNCCHECK [2]
#   SANITIZE_SHARDS_INITCHECK [2]   shards per tool without --shard; tune them from a GPU run
#   SANITIZE_SHARD_TIMEOUT [540]    seconds for one tool and shard (all binaries together)
#   SANITIZE_JOBS [1]               without --shard, run this many shards of one tool at once (on one
#                                   GPU: the sanitizers spend most of their time on the host)
#   GPU_TEST_LIST                   the sanitize stage's list of GPU tests (gpu_test_commands.py's
#                                   format) instead of asking ctest: for test binaries built elsewhere
#                                   and carried to the GPU machine (their paths as they are there)
#   GPU_TEST_SLOTS [8]              GPU tests at once on each GPU in the test stage
#   GPU_BENCHES [reduce sgemm top2 segmented]   the benchmarks the bench stage runs
#   GATE_TOLERANCE [0.05]           largest allowed drop of a ratio to CUB/cuBLAS
#   GATE_RERUNS [1]                 when the gate fails, rerun the failing benchmarks this often and
#                                   gate on each record's best run (noise must repeat to fail)
#   DIST_BUDGET [540]               seconds the dist stage keeps to (it shortens its memcheck run)
#   DIST_SANITIZE_TIMEOUT [240]     at most this long for the multi-GPU tests under memcheck
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
stages="build,test,sanitize,ncu,bench,gate"
quick_bench=""
sanitizers="memcheck,racecheck,synccheck,initcheck"
shard=""
while [ $# -gt 0 ]; do
  case "$1" in
    --stages) stages="$2"; shift 2 ;;
    --quick-bench) quick_bench="--quick"; shift ;;
    --sanitizers) sanitizers="$2"; shift 2 ;;
    --shard) shard="$2"; shift 2 ;;
    *) echo "gpu-check: unknown option $1" >&2; exit 64 ;;
  esac
done
has() { [[ ",$stages," == *",$1,"* ]]; }
if [ -n "$shard" ] && ! [[ "$shard" =~ ^([1-9][0-9]*)/([1-9][0-9]*)$ && ${BASH_REMATCH[1]} -le ${BASH_REMATCH[2]} ]]; then
  echo "gpu-check: --shard takes I/N with 1 <= I <= N, e.g. --shard 2/4" >&2
  exit 64
fi
for tool in ${sanitizers//,/ }; do
  case "$tool" in memcheck | racecheck | synccheck | initcheck) ;;
    *) echo "gpu-check: unknown sanitizer $tool (memcheck, racecheck, synccheck, initcheck)" >&2; exit 64 ;;
  esac
done

# Shards per tool when --shard is not given. Racecheck is by far the slowest tool, so it gets the
# most; every shard must fit one 10-minute call with room to spare (its line in the summary says
# how long it took and which test was the slowest).
declare -A shards=([memcheck]=${SANITIZE_SHARDS_MEMCHECK:-2} [racecheck]=${SANITIZE_SHARDS_RACECHECK:-4}
                   [synccheck]=${SANITIZE_SHARDS_SYNCCHECK:-2} [initcheck]=${SANITIZE_SHARDS_INITCHECK:-2})
shard_timeout=${SANITIZE_SHARD_TIMEOUT:-540}
sanitize_jobs=${SANITIZE_JOBS:-1}
test_slots=${GPU_TEST_SLOTS:-8}
gate_tolerance=${GATE_TOLERANCE:-0.05}
gate_reruns=${GATE_RERUNS:-1}
dist_budget=${DIST_BUDGET:-540}
dist_sanitize_timeout=${DIST_SANITIZE_TIMEOUT:-240}

out=${OUT:-$root/gpu-check-out}
mkdir -p "$out"
logs=$root/build-gpu/gpu-check-logs
mkdir -p "$logs"
build=$root/build-gpu
jobs=$(nproc)
summary=()
failed=0
record() {  # stage, status, detail
  summary+=("$(printf '%-15s %-6s %s' "$1" "$2" "$3")")
  [ "$2" = "FAIL" ] && failed=1
  return 0
}
stamp() { date +%s; }
command -v compute-sanitizer >/dev/null 2>&1 || export PATH="$PATH:/usr/local/cuda/bin"

if ! nvidia-smi -L >/dev/null 2>&1; then
  echo "gpu-check: no NVIDIA GPU found on this machine; this script is for a GPU host (CPU tests: scripts/test.sh)"
  exit 2
fi
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv | tee "$logs/gpu.txt"

# One configuration for every stage that builds (build, dist), so they share build-gpu's objects.
# The gpu-check preset (CMakePresets.json): Release, sm_90, GPUPRIMS_PTXAS_VERBOSE, RapidCheck from
# .deps/rapidcheck when scripts/gpu-deps.sh put it there. Ninja for a new build dir when installed.
# shellcheck source=scripts/cmake-generator.sh
source scripts/cmake-generator.sh
configure() {
  local generator=()
  ninja_for "$build" && generator=(-G Ninja)
  cmake --preset gpu-check -B "$build" "${generator[@]}" >"$logs/configure.log" 2>&1
}

if has build; then
  t0=$(stamp)
  if configure && cmake --build "$build" -j "$jobs" >"$logs/build.log" 2>&1; then
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
  # GPU tests hold a "gpus" resource each: at most $test_slots at once on one GPU, spread over all.
  spec=$build/gpu-resources.json
  rm -f "$spec"
  scripts/gpu-resource-spec.sh --slots "$test_slots" --out "$spec" 2>"$logs/ctest.log"
  gpus=$(grep -c '"id"' "$spec" 2>/dev/null || echo 1)
  parallel=$(( test_slots * gpus > 8 ? test_slots * gpus : 8 ))
  # The multigpu tests need two GPUs: on a one-GPU machine they would only skip, so leave them out.
  only_one_gpu=()
  left_out=""
  if [ "$gpus" -lt 2 ]; then only_one_gpu=(-LE multigpu); left_out=", multigpu tests left out (1 GPU)"; fi
  ctest --test-dir "$build" --output-on-failure -j "$parallel" --timeout 900 --resource-spec-file "$spec" \
    "${only_one_gpu[@]}" --output-junit "$out/ctest-junit.xml" >>"$logs/ctest.log" 2>&1
  rc=$?
  total=$(grep -Eo 'out of [0-9]+' "$logs/ctest.log" | tail -1 | grep -Eo '[0-9]+')
  skipped=$(grep -c -E '\*\*\*Skipped|Not Run' "$logs/ctest.log" || true)
  # Every test labelled gpu ran: the label summary's count against ctest's own list.
  listed_gpu=$(ctest --test-dir "$build" -N -L gpu "${only_one_gpu[@]}" | sed -n 's/^Total Tests: //p')
  ran_gpu=$(grep -E '^gpu +=' "$logs/ctest.log" | grep -Eo '[0-9]+ tests?\)' | grep -Eo '[0-9]+')
  tail -25 "$logs/ctest.log"
  if [ $rc -eq 0 ] && [ "$skipped" -eq 0 ] && [ "${ran_gpu:-x}" = "${listed_gpu:-y}" ]; then
    record ctest PASS "$(( $(stamp) - t0 ))s; ${total:-?} tests (gpu: ${ran_gpu} of ${listed_gpu} listed) on $gpus GPU(s), 0 skipped$left_out; JUnit ctest-junit.xml"
  else
    grep -E 'Failed|\*\*\*|Skipped' "$logs/ctest.log" | head -30
    record ctest FAIL "rc $rc, $skipped skipped of ${total:-?}; gpu tests run ${ran_gpu:-?} of ${listed_gpu:-?} listed"
  fi
fi

# One tool over one shard of every GPU test: each GoogleTest binary whole with GTEST_TOTAL_SHARDS /
# GTEST_SHARD_INDEX set (GoogleTest gives every test to exactly one shard), and the other GPU tests
# (consumer_example) in shard 1. Returns the number of tests run in $ran.
sanitize_shard() {  # tool, shard (1-based), shards
  local tool=$1 i=$2 n=$3 t0 deadline extra kind _count name workdir cmd log rc left tests found
  local findings=0 problems="" parts="" slowest="" slowest_ms=0
  t0=$(stamp)
  deadline=$(( t0 + shard_timeout ))
  ran=0
  extra=""
  [ "$tool" = memcheck ] && extra="--leak-check full"
  [ "$tool" = racecheck ] && extra="--racecheck-report hazard"
  while IFS=$'\t' read -r kind _count name workdir cmd; do
    [ "$kind" = command ] && [ "$i" -ne 1 ] && continue
    left=$(( deadline - $(stamp) ))
    if [ $left -le 0 ]; then problems+="; $name not run: the shard's ${shard_timeout}s were spent"; continue; fi
    eval "set -- $cmd"
    log="$logs/sanitize-$tool-$i-of-$n-$name.log"
    if [ "$kind" = gtest ]; then
      (cd "$workdir" && GPUPRIMS_SANITIZER=1 GTEST_TOTAL_SHARDS=$n GTEST_SHARD_INDEX=$(( i - 1 )) \
        timeout -k 30 "$left" compute-sanitizer --tool "$tool" $extra --error-exitcode 99 "$@") </dev/null >"$log" 2>&1
    else
      (cd "$workdir" && GPUPRIMS_SANITIZER=1 \
        timeout -k 30 "$left" compute-sanitizer --tool "$tool" $extra --error-exitcode 99 "$@") </dev/null >"$log" 2>&1
    fi
    rc=$?
    tests=$(sed -nE 's/^\[==========\] ([0-9]+) tests? from .* ran\..*/\1/p' "$log" | tail -1)
    [ "$kind" = command ] && [ $rc -eq 0 ] && tests=1
    ran=$(( ran + ${tests:-0} ))
    parts+="${parts:+, }$name ${tests:-0}"
    # ERROR SUMMARY (memcheck, synccheck, initcheck) or RACECHECK SUMMARY, one per process.
    found=$(grep -Eo '(ERROR SUMMARY: [0-9]+ error|RACECHECK SUMMARY: [0-9]+ hazard)' "$log" | grep -Eo '[0-9]+' |
            awk '{ s += $1 } END { print NR ? s : "none" }')
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then problems+="; $name timed out (${shard_timeout}s for the shard)"
    elif [ "$found" = none ]; then problems+="; $name: no sanitizer summary (rc $rc)"
    elif [ $rc -eq 99 ]; then problems+="; $name: findings"
    elif [ $rc -ne 0 ]; then problems+="; $name: rc $rc, $(grep -c '^\[  FAILED  \] .*ms)$' "$log") failed test(s)"; fi
    [ "$found" != none ] && findings=$(( findings + found ))
    while read -r ms test; do
      if [ "$ms" -gt "$slowest_ms" ]; then slowest_ms=$ms; slowest=$test; fi
    done < <(sed -nE 's/^\[       OK \] ([^ ]+) \(([0-9]+) ms\)$/\2 \1/p' "$log")
    [ $rc -ne 0 ] && tail -25 "$log"
  done <"$gpu_test_list"
  local detail="$(( $(stamp) - t0 ))s; $ran of $gpu_tests GPU tests ($parts); $findings findings"
  [ -n "$slowest" ] && detail+="; slowest $slowest $(( slowest_ms / 1000 ))s"
  if [ -z "$problems" ] && [ $findings -eq 0 ]; then record "$tool $i/$n" PASS "$detail"
  else record "$tool $i/$n" FAIL "$detail$problems"; fi
}

if has sanitize; then
  # One list per process: several sanitize calls (other tools or shards) may run at once on one GPU.
  gpu_test_list="$logs/gpu-tests-$$.txt"
  # The multigpu tests (NCCL over several GPUs in one process) are sanitized by the dist stage.
  if { if [ -n "${GPU_TEST_LIST:-}" ]; then cp "$GPU_TEST_LIST" "$gpu_test_list"
       else python3 scripts/gpu_test_commands.py --build-dir "$build" --exclude-label multigpu >"$gpu_test_list"; fi; } \
       2>"$logs/gpu-tests.err" &&
     [ -s "$gpu_test_list" ]; then
    gpu_tests=$(awk -F'\t' '{ s += $2 } END { print s }' "$gpu_test_list")
    echo "== sanitize: $gpu_tests GPU tests in $(wc -l <"$gpu_test_list") executables =="
    for tool in ${sanitizers//,/ }; do
      if [ -n "$shard" ]; then
        sanitize_shard "$tool" "${shard%/*}" "${shard#*/}"
      else
        all=0
        if [ "$sanitize_jobs" -le 1 ]; then
          for ((i = 1; i <= shards[$tool]; i++)); do
            sanitize_shard "$tool" "$i" "${shards[$tool]}"
            all=$(( all + ran ))
          done
        else
          # Shards at once: each runs in a subshell and leaves its summary line and test count in files.
          for ((i = 1; i <= shards[$tool]; i++)); do
            while [ "$(jobs -rp | wc -l)" -ge "$sanitize_jobs" ]; do wait -n; done
            ( summary=(); sanitize_shard "$tool" "$i" "${shards[$tool]}" >"$logs/shard-$tool-$i.out" 2>&1
              printf '%s\n' "${summary[@]}" >"$logs/shard-$tool-$i.rec"; echo "$ran" >"$logs/shard-$tool-$i.ran" ) &
          done
          wait
          for ((i = 1; i <= shards[$tool]; i++)); do
            cat "$logs/shard-$tool-$i.out" 2>/dev/null
            line=$(cat "$logs/shard-$tool-$i.rec" 2>/dev/null)
            if [ -z "$line" ]; then record "$tool $i/${shards[$tool]}" FAIL "the shard left no summary line"; continue; fi
            summary+=("$line")
            [[ "$line" == *" FAIL "* ]] && failed=1
            all=$(( all + $(cat "$logs/shard-$tool-$i.ran" 2>/dev/null || echo 0) ))
          done
        fi
        # The shards together ran every GPU test once.
        if [ "$all" -eq "$gpu_tests" ]; then record "$tool" PASS "all ${shards[$tool]} shards: $all of $gpu_tests GPU tests"
        else record "$tool" FAIL "all ${shards[$tool]} shards: $all of $gpu_tests GPU tests ran"; fi
      fi
    done
  else
    cat "$logs/gpu-tests.err"
    record sanitize FAIL "no GPU tests found in $build (add the build stage)"
  fi
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
  for b in ${GPU_BENCHES:-reduce sgemm top2 segmented}; do
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

if has gate && [ ! -s "$out/sgemm.json" ] && [ ! -s "$out/reduce.json" ] && [ ! -s "$out/top2.json" ]; then
  record gate FAIL "no benchmark JSON in $out (add the bench stage)"
elif has gate; then
  t0=$(stamp)
  # Ratios to CUB/cuBLAS against results/<this GPU>/; a drop must show again in a rerun of the
  # benchmark to fail (each record counts its best run).
  fresh=(--fresh "$out")
  python3 scripts/perf_gate.py "${fresh[@]}" --tolerance "$gate_tolerance" >"$logs/gate.log" 2>&1
  rc=$?
  for ((r = 1; r <= gate_reruns && rc == 1; r++)); do
    rerun="$out/bench-rerun-$r"
    mkdir -p "$rerun"
    for b in $(sed -nE 's/^FAIL +([a-z0-9_]+) .*/\1/p' "$logs/gate.log" | sort -u); do
      echo "== gate: rerunning the $b benchmark ($r of $gate_reruns) =="
      "$build/bench/${b}_bench" $quick_bench --out "$rerun/$b.json" >"$logs/bench-rerun-$r-$b.log" 2>&1
    done
    fresh+=(--fresh "$rerun")
    python3 scripts/perf_gate.py "${fresh[@]}" --tolerance "$gate_tolerance" >"$logs/gate.log" 2>&1
    rc=$?
  done
  cp "$logs/gate.log" "$out/perf-gate.txt"
  grep -E '^(FAIL|perf_gate: (FAIL|PASS|ERROR|reference|fresh))' "$logs/gate.log"
  dropped=$(grep -c '^FAIL ' "$logs/gate.log" || true)
  if [ $rc -eq 0 ]; then record gate PASS "$(( $(stamp) - t0 ))s; no ratio dropped more than ${gate_tolerance} (perf-gate.txt)"
  elif [ $rc -eq 1 ]; then record gate FAIL "$dropped ratio(s) dropped past the tolerance in every run (perf-gate.txt)"
  else record gate FAIL "$(grep -m1 'ERROR' "$logs/gate.log")"; fi
fi

if has dist; then
  source scripts/gpu-check-dist.sh
fi

tar -C "$build" -czf "$out/gpu-check-logs.tar.gz" gpu-check-logs 2>/dev/null
echo
echo "== gpu-check summary ($(head -2 "$logs/gpu.txt" | tail -1 | cut -d, -f1)) =="
printf '%s\n' "${summary[@]}" | tee "$out/summary.txt"
exit $failed
