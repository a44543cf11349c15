#!/usr/bin/env bash
# Builds once, tests on a GPU host elsewhere: packs the GPU test binaries, benchmarks (with the
# autotuner, whose --explain times one shape's plans) and examples of a configured and built build
# directory (stripped, one xz archive, small because the binaries share most of their kernels: 40 MB
# for session 39's sm_90 build without dist_bench, reduce_bench and segmented_bench) so that a GPU
# machine without time to build can run them.
#
#   scripts/carry-binaries.sh pack BUILD_DIR [CARRY_DIR]   here: BUILD_DIR -> CARRY_DIR (build-carry)
#   scripts/carry-binaries.sh test [CARRY_DIR]             on the GPU host, from the repository root:
#       unpacks into build-gpu/ (what gpu-check.sh reads), writes build-gpu/gpu-tests.txt (the test
#       list of gpu_test_commands.py with this host's paths) and runs every GPU test once, each
#       GoogleTest binary in 4 shards at once; exits non-zero on any failure. Then, for example:
#         GPU_TEST_LIST=$PWD/build-gpu/gpu-tests.txt SANITIZE_JOBS=24 SANITIZE_SHARDS_RACECHECK=24 \
#           scripts/gpu-check.sh --stages sanitize,bench,gate --sanitizers racecheck
#
# The GPU host needs the same CUDA major version (cuBLAS and the driver are linked dynamically) and an
# architecture the build was made for. The ctest suite itself (test stage) needs the build directory.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-}
case "$mode" in
  pack)
    build=${2:?"carry-binaries.sh pack BUILD_DIR [CARRY_DIR]"}
    carry=${3:-build-carry}
    build=$(cd "$build" && pwd)
    stage=$(mktemp -d)
    trap 'rm -rf "$stage"' EXIT
    list=$stage/gpu-tests.txt
    python3 scripts/gpu_test_commands.py --build-dir "$build" --exclude-label multigpu >"$stage/ctest-list.txt"
    # One line per executable, its path relative to the build directory: a wrapper command (e.g.
    # cmake -P run_on_assigned_gpus.cmake -- BINARY) becomes the binary it runs.
    while IFS=$'\t' read -r kind count name _workdir cmd; do
      bin=${cmd##* }
      rel=${bin#"$build"/}
      [ "$rel" = "$bin" ] && { echo "carry-binaries: $name runs $bin, outside $build" >&2; exit 1; }
      printf '%s\t%s\t%s\t%s\n' "$kind" "$count" "$name" "$rel" >>"$list"
      mkdir -p "$stage/files/$(dirname "$rel")"
      strip -o "$stage/files/$rel" "$bin"
    done <"$stage/ctest-list.txt"
    for bin in "$build"/bench/*_bench "$build"/bench/sgemm_autotune; do
      [ -x "$bin" ] || continue
      mkdir -p "$stage/files/bench"
      strip -o "$stage/files/bench/$(basename "$bin")" "$bin"
    done
    mkdir -p "$carry"
    cp "$list" "$carry/gpu-tests.txt"
    # One xz stream with a dictionary larger than the binaries put together (each is 45-60 MB, most
    # of it the same kernels): with xz -9's 64 MiB window only neighbouring files shared their
    # matches: 83 MB against 40 for session 39's sm_90 build (both without dist_bench, reduce_bench
    # and segmented_bench).
    # Unpacking then needs about 512 MiB of memory.
    tar -C "$stage/files" -cf - . | xz -T1 --lzma2=preset=9,dict=512MiB >"$carry/binaries.tar.xz"
    bytes=$(stat -c %s "$carry/binaries.tar.xz")
    echo "carry-binaries: $(wc -l <"$list") test executables and $(ls "$stage/files/bench" 2>/dev/null | wc -l) benchmarks in $carry/binaries.tar.xz ($(( bytes / 1048576 )) MiB)"
    ;;
  test)
    carry=${2:-build-carry}
    root=$PWD
    mkdir -p build-gpu
    xz -dc "$carry/binaries.tar.xz" | tar -C build-gpu -xf -
    : >build-gpu/gpu-tests.txt
    while IFS=$'\t' read -r kind count name rel; do
      printf '%s\t%s\t%s\t%s\t%s\n' "$kind" "$count" "$name" "$root/build-gpu/$(dirname "$rel")" "$root/build-gpu/$rel" \
        >>build-gpu/gpu-tests.txt
    done <"$carry/gpu-tests.txt"
    mkdir -p build-gpu/carry-logs
    failed=0
    pids=()
    while IFS=$'\t' read -r kind _count name workdir bin; do
      shards=1
      [ "$kind" = gtest ] && shards=4
      for ((i = 0; i < shards; i++)); do
        log=build-gpu/carry-logs/$name-$i.log
        (cd "$workdir" && GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i "$bin") >"$log" 2>&1 &
        pids+=("$!:$log")
      done
    done <build-gpu/gpu-tests.txt
    for entry in "${pids[@]}"; do
      if ! wait "${entry%%:*}"; then
        failed=1
        echo "carry-binaries: FAILED ${entry#*:}"
        grep -E '^\[  FAILED  \]' "${entry#*:}" || tail -5 "${entry#*:}"
      fi
    done
    # Every GoogleTest test passed, none skipped (a skipped test is not a pass: e.g. no GPU found).
    passed=$(cat build-gpu/carry-logs/*.log | sed -nE 's/^\[  PASSED  \] ([0-9]+) tests?\./\1/p' | awk '{ s += $1 } END { print s + 0 }')
    skipped=$(cat build-gpu/carry-logs/*.log | sed -nE 's/^\[  SKIPPED \] ([0-9]+) tests?,.*/\1/p' | awk '{ s += $1 } END { print s + 0 }')
    expected=$(awk -F'\t' '$1 == "gtest" { s += $2 } END { print s + 0 }' build-gpu/gpu-tests.txt)
    echo "carry-binaries: $passed of $expected GoogleTest tests passed, $skipped skipped; logs in build-gpu/carry-logs/"
    [ "$passed" -eq "$expected" ] && [ "$skipped" -eq 0 ] || failed=1
    exit $failed
    ;;
  *)
    echo "carry-binaries.sh pack BUILD_DIR [CARRY_DIR] | test [CARRY_DIR]" >&2
    exit 64
    ;;
esac
