#!/usr/bin/env bash
# clang-tidy 14 (the checks in .clang-tidy) over our host C++: the .cpp files under lib/ (the library's
# host code and lib/gemm/tools), tests/support, tests/unit/cpu, tests/property/cpu and bench/, with the
# compile commands of a configured build (CMAKE_EXPORT_COMPILE_COMMANDS, on in every preset). CUDA
# sources are not analysed. Any finding fails (exit 1) and is printed once, with the check's name.
#
#   scripts/tidy.sh [--build-dir DIR] [FILE...]
#     --build-dir   build whose compile_commands.json to use [build-test: the ci preset's, which
#                   scripts/test.sh builds; it has every host file, the benchmarks' included]. When it
#                   has none, DIR is configured (not built) with the ci preset first.
#     FILE...       only these files (default: all of the above that git knows)
# Environment: CLANG_TIDY (default: clang-tidy-14, else clang-tidy), JOBS [nproc]. Installs
# clang-tidy-14 with apt when none is found and this is a root shell on Debian/Ubuntu, as test.sh does.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=build-test
files=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build-dir) build="$2"; shift 2 ;;
    -h | --help) sed -n '2,13p' "$0"; exit 0 ;;
    -*) echo "tidy.sh: unknown option $1 (--build-dir DIR, or file names)" >&2; exit 64 ;;
    *) files+=("$1"); shift ;;
  esac
done
jobs=${JOBS:-$(nproc)}
command -v nvcc >/dev/null 2>&1 || export PATH="$PATH:/usr/local/cuda/bin"

# shellcheck source=scripts/llvm-tool.sh
source scripts/llvm-tool.sh
ct=$(llvm_tool clang-tidy "${CLANG_TIDY:-}" tidy.sh) || exit 2

db="$build/compile_commands.json"
if [ ! -s "$db" ]; then
  if [ -f "$build/CMakeCache.txt" ]; then
    echo "tidy.sh: $db missing; reconfiguring $build with CMAKE_EXPORT_COMPILE_COMMANDS=ON"
    cmake -S . -B "$build" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
  else
    echo "tidy.sh: $db missing; configuring $build with the ci preset (no build needed)"
    cmake --preset ci -B "$build" >/dev/null
  fi
fi

if [ ${#files[@]} -eq 0 ]; then
  mapfile -t files < <(git ls-files -- 'lib/*.cpp' 'tests/support/*.cpp' 'tests/unit/cpu/*.cpp' \
                                       'tests/property/cpu/*.cpp' 'tests/dist/cpu/*.cpp' 'testkit/*.cpp' 'bench/*.cpp' | sort)
fi
# Only files the build compiles (bench/ is absent from a build without benchmarks).
todo=()
for f in "${files[@]}"; do
  if grep -q "\"file\": \"$root/$f\"" "$db"; then todo+=("$f")
  else echo "tidy.sh: $f is not in $db (not built in $build); skipped"; fi
done

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
export ct root logs
echo "tidy.sh: $ct on ${#todo[@]} files, $jobs at a time ($build/compile_commands.json)"
start=$(date +%s)
# One process per file; its output (findings and the compiler's own errors) into its own log.
printf '%s\n' "${todo[@]}" | xargs -P "$jobs" -I{} bash -c '
  log="$logs/$(echo "{}" | tr / _).log"
  if "$ct" -p "'"$build"'" --quiet --header-filter="^$root/(lib|testkit|tests|bench|examples)/" \
       --extra-arg=-Wno-unknown-warning-option "{}" >"$log" 2>&1; then
    echo "ok   {}"
  else
    echo "FAIL {}"; touch "$log.failed"
  fi'
failed=$(find "$logs" -name '*.failed' | wc -l)
# Each finding once (a header's is reported from every file that includes it), with its context.
cat "$logs"/*.log | grep -v -E '^[0-9]+ (warnings?|errors?) (generated|treated as errors)\.?$|^Suppressed [0-9]+ warnings|^Use -header-filter|^Error while processing' |
  awk '/: (warning|error): / { key = $0; seen_block = (key in seen); seen[key] = 1 } !seen_block { print }' || true
echo "tidy.sh: ${#todo[@]} files in $(( $(date +%s) - start ))s; $failed with findings or errors"
[ "$failed" -eq 0 ]
