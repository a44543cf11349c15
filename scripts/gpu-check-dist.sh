# The dist stage of scripts/gpu-check.sh (sourced by it, with its variables and functions: root,
# build, logs, out, jobs, configure, record, stamp, dist_sanitize_timeout, dist_budget):
# gpuprims::dist on every GPU of this machine, in one call that fits the 10-minute limit of a lent
# machine (the stage keeps to dist_budget seconds, DIST_BUDGET, 540 by default):
#   1. build only libgpuprims, libgpuprims_dist, dist_gpu_tests and dist_bench (sm_90);
#   2. the multi-GPU tests, one process driving all GPUs (JUnit dist/dist-tests.xml);
#   3. dist_bench (one GPU against all), dist.png and summary.md by bench/report.py, copied with the
#      JSON to results/<gpu slug>-x<GPU count>/;
#   4. compute-sanitizer memcheck (GPUPRIMS_SANITIZER=1 shrinks the large cases): first the tests
#      that need no NCCL (the combine kernels), then the whole binary, NCCL across the GPUs
#      included, in the time left (at most DIST_SANITIZE_TIMEOUT). If the whole run does not finish
#      (NCCL's kernels wait for each other across GPUs, which a tool that stalls launches can hold
#      up; instrumenting NCCL's many kernels also takes time) or crashes without a finding, the line
#      says so (PART); any finding fails.
dist_out="$out/dist"
mkdir -p "$dist_out"
dist_gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true)
dist_bin="$build/tests/dist_gpu_tests"
dist_start=$(stamp)
t0=$(stamp)
echo "== dist: gpuprims::dist on $dist_gpus GPU(s) =="
if configure && grep -q 'gpuprims::dist: NCCL' "$logs/configure.log" &&
   cmake --build "$build" -j "$jobs" --target gpuprims gpuprims_dist dist_gpu_tests dist_bench \
     >"$logs/dist-build.log" 2>&1; then
  record dist-build PASS "$(( $(stamp) - t0 ))s; $(grep -o 'gpuprims::dist: NCCL [^ ]*' "$logs/configure.log")"
else
  tail -30 "$logs/configure.log" "$logs/dist-build.log" 2>/dev/null
  grep -q 'gpuprims::dist: NCCL' "$logs/configure.log" ||
    echo "gpu-check: NCCL was not found (set NCCL_ROOT), so gpuprims::dist is not configured"
  record dist-build FAIL "see dist-build.log / configure.log"
fi

# 2. The tests, every visible GPU in one process (a skip fails unless there is a single GPU).
if [ -x "$dist_bin" ]; then
  t0=$(stamp)
  (cd "$build/tests" && "$dist_bin" --gtest_output="xml:$dist_out/dist-tests.xml") >"$logs/dist-tests.log" 2>&1
  rc=$?
  cp "$logs/dist-tests.log" "$dist_out/"
  ran=$(sed -nE 's/^\[==========\] ([0-9]+) tests? from .* ran\..*/\1/p' "$logs/dist-tests.log" | tail -1)
  skipped=$(sed -nE 's/^\[  SKIPPED \] ([0-9]+) tests?.*/\1/p' "$logs/dist-tests.log" | tail -1)
  detail="$(( $(stamp) - t0 ))s; ${ran:-0} tests on $dist_gpus GPU(s), ${skipped:-0} skipped"
  if [ $rc -eq 0 ] && [ "$dist_gpus" -ge 2 ]; then record dist-tests PASS "$detail; JUnit dist/dist-tests.xml"
  elif [ $rc -eq 0 ]; then record dist-tests PASS "$detail (the multi-GPU tests need 2 GPUs)"
  else
    grep -E '^\[  FAILED  \]|FAIL' "$logs/dist-tests.log" | head -20
    record dist-tests FAIL "$detail; rc $rc (dist/dist-tests.log)"
  fi
fi

# 3. The benchmark, the plot, and the results folder of this machine (GPU model and count).
if [ -x "$build/bench/dist_bench" ] && [ "$dist_gpus" -ge 2 ]; then
  t0=$(stamp)
  if "$build/bench/dist_bench" --out "$dist_out/dist.json" >"$logs/dist-bench.log" 2>&1; then
    cp "$logs/dist-bench.log" "$dist_out/"
    # A python3 that has matplotlib: GPUPRIMS_PYTHON, python3 or the system's.
    plot_python=""
    for py in ${GPUPRIMS_PYTHON:-} python3 /usr/bin/python3; do
      if "$py" -c 'import matplotlib' >/dev/null 2>&1; then plot_python=$py; break; fi
    done
    if [ -z "$plot_python" ] ||
       ! MPLBACKEND=Agg "$plot_python" bench/report.py --input-dir "$dist_out" >>"$logs/dist-bench.log" 2>&1; then
      echo "gpu-check: bench/report.py could not draw dist.png (no python3 with matplotlib?); dist.json is kept"
    fi
    name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
    slug=$(printf '%s' "$name" | tr '[:upper:]' '[:lower:]' | sed -e 's/[^a-z0-9]\{1,\}/-/g' -e 's/^-//' -e 's/-$//')
    results="$root/results/${slug:-unknown-gpu}-x$dist_gpus"
    mkdir -p "$results"
    cp "$dist_out/dist.json" "$results/"
    for f in dist.png summary.md; do [ -f "$dist_out/$f" ] && cp "$dist_out/$f" "$results/"; done
    # One line per workload: speedup against its target.
    verdict=$(python3 - "$dist_out/dist.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
parts, short = [], 0
for r in doc["results"]:
    if r.get("impl") != "dist" or "speedup" not in r:
        continue
    t = r.get("target_speedup")
    ok = t is None or r["speedup"] >= t
    short += 0 if ok else 1
    flag = "" if t is None else (" >= " if ok else " < ") + "%.2fx" % t
    bad = " MISMATCH" if r.get("mismatch") else ""
    parts.append("%s %.2fx%s%s" % (r["workload"], r["speedup"], flag, bad))
print(("TARGETS MET: " if short == 0 else "%d BELOW TARGET: " % short) + "; ".join(parts))
PY
)
    echo "$verdict"
    grep -E '^\[bench\] (WARNING|note)' "$logs/dist-bench.log"
    # A wrong result fails the stage; a speedup under its target is reported (WARN), not failed.
    where="results/${results##*/results/}/"
    if grep -q 'MISMATCH' <<<"$verdict"; then record dist-bench FAIL "$(( $(stamp) - t0 ))s; $verdict"
    elif grep -q 'BELOW TARGET' <<<"$verdict"; then record dist-bench WARN "$(( $(stamp) - t0 ))s; $verdict; $where"
    else record dist-bench PASS "$(( $(stamp) - t0 ))s; $verdict; $where"; fi
  else
    tail -20 "$logs/dist-bench.log"
    record dist-bench FAIL "see dist-bench.log"
  fi
elif [ "$dist_gpus" -lt 2 ]; then
  record dist-bench SKIP "needs 2 GPUs, this machine has $dist_gpus"
fi

# 4. memcheck. No --leak-check here: NCCL keeps some device allocations until the process exits,
# which would be reported as ours; dist allocates only through the core's pool, whose leak checking
# the sanitize stage does on the core's tests. memcheck sets $mc_rc, $mc_found ("none" without a
# summary) and $mc_ran.
memcheck() {  # log, timeout, gtest filter, [extra compute-sanitizer options]
  (cd "$build/tests" && GPUPRIMS_SANITIZER=1 timeout -k 20 "$2" compute-sanitizer --tool memcheck \
     --error-exitcode 99 ${4:-} "$dist_bin" --gtest_filter="$3") </dev/null >"$1" 2>&1
  mc_rc=$?
  mc_found=$(grep -Eo 'ERROR SUMMARY: [0-9]+ error' "$1" | grep -Eo '[0-9]+' | awk '{ s += $1 } END { print NR ? s : "none" }')
  mc_ran=$(sed -nE 's/^\[==========\] ([0-9]+) tests? from .* ran\..*/\1/p' "$1" | tail -1)
  cp "$1" "$dist_out/"
}
mc_finding() { [ $mc_rc -eq 99 ] || { [ "$mc_found" != none ] && [ "$mc_found" -gt 0 ]; }; }
if [ -x "$dist_bin" ]; then
  t0=$(stamp)
  memcheck "$logs/dist-memcheck-no-nccl.log" 120 'DistKernels.*'
  no_nccl="the ${mc_ran:-?} NCCL-free tests: rc $mc_rc, ${mc_found} finding(s)"
  if mc_finding || [ $mc_rc -ne 0 ]; then
    grep -B2 -A12 -m3 '========= Invalid\|========= Program hit' "$logs/dist-memcheck-no-nccl.log" | head -40
    record dist-memcheck FAIL "$no_nccl (dist/dist-memcheck-no-nccl.log)"
  else
    left=$(( dist_budget - ($(stamp) - dist_start) - 20 ))
    limit=$(( left < dist_sanitize_timeout ? left : dist_sanitize_timeout ))
    if [ $limit -lt 60 ]; then
      record dist-memcheck PART "$no_nccl; no time left in DIST_BUDGET (${dist_budget}s) for the NCCL run"
    else
      t1=$(stamp)
      # API errors are not reported in this run: NCCL itself makes calls that fail by design and
      # clears them (cudaFuncGetAttributes on kernels not built for this GPU, peer access already
      # enabled): 110 such reports came from inside libnccl on 2 x H200, none from our code. Our own
      # CUDA calls are checked by the code and the tests' status assertions, and the NCCL-free run
      # above keeps API-error reporting on. Memory access errors are still reported here.
      memcheck "$logs/dist-memcheck.log" "$limit" '*' '--report-api-errors no'
      if [ $mc_rc -eq 0 ] && [ "$mc_found" = 0 ]; then
        record dist-memcheck PASS "$(( $(stamp) - t0 ))s; all ${mc_ran:-?} dist tests (NCCL across $dist_gpus GPU(s) included): 0 findings"
      elif mc_finding; then
        grep -B2 -A12 -m3 '========= Invalid\|========= Program hit' "$logs/dist-memcheck.log" | head -60
        record dist-memcheck FAIL "$mc_found finding(s) with NCCL (dist/dist-memcheck.log)"
      else
        record dist-memcheck PART "$no_nccl; the whole run did not finish under memcheck (rc $mc_rc after $(( $(stamp) - t1 ))s of ${limit}s, dist/dist-memcheck.log)"
      fi
    fi
  fi
fi
