#!/usr/bin/env bash
# The test command: installs what this machine lacks (Debian/Ubuntu: RapidCheck, GoogleTest,
# matplotlib for the report test), configures with the ci preset of CMakePresets.json (Release, sm_80
# and sm_90, warnings are errors: GPUPRIMS_WERROR=ON), builds everything and runs the whole ctest
# suite. Without a GPU, GPU tests are reported as skipped with the reason; with one, they run (and a
# GPU test that skips fails the run).
#
#   scripts/test.sh [--build-dir DIR] [-- extra cmake arguments]
#     --build-dir   [build-test, the ci preset's]
#     -- ARGS       passed to the configure step after the preset's, e.g. -- -DGPUPRIMS_WERROR=OFF
#                   with a compiler that warns about things this one does not
# Environment: CUDA_ARCHS (CMAKE_CUDA_ARCHITECTURES; default: the ci preset's 80;90), JOBS,
# CMAKE_GENERATOR (default for a new build dir: Ninja when installed, else CMake's default).
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-test
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build-dir) build="$2"; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    *) echo "test.sh: unknown option $1 (try --build-dir DIR or -- CMAKE_ARGS)" >&2; exit 64 ;;
  esac
done

# What the build needs beyond the CUDA toolkit, GoogleTest and CMake: RapidCheck, and matplotlib for
# the report test. Installed with apt when missing and possible; otherwise say what is missing.
missing=()
dpkg -s librapidcheck-dev >/dev/null 2>&1 || missing+=(librapidcheck-dev)
dpkg -s libgtest-dev >/dev/null 2>&1 || missing+=(libgtest-dev)
/usr/bin/python3 -c 'import matplotlib' >/dev/null 2>&1 || missing+=(python3-matplotlib)
if [ ${#missing[@]} -gt 0 ]; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
    echo "test.sh: installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "test.sh: missing ${missing[*]}; install them (apt-get install ${missing[*]}) and rerun" >&2
    exit 1
  fi
fi
command -v nvcc >/dev/null 2>&1 || export PATH="$PATH:/usr/local/cuda/bin"

arch=()
[ -n "${CUDA_ARCHS:-}" ] && arch=(-DCMAKE_CUDA_ARCHITECTURES="$CUDA_ARCHS")
# Ninja for a new build dir when installed (scripts/cmake-generator.sh): the tests' and benchmarks'
# objects compile while the library's longest device compiles run.
# shellcheck source=scripts/cmake-generator.sh
source scripts/cmake-generator.sh
generator=()
ninja_for "$build" && generator=(-G Ninja)
jobs=${JOBS:-$(nproc)}
cmake --preset ci -B "$build" "${generator[@]}" "${arch[@]}" "${extra[@]}"
cmake --build "$build" -j "$jobs"
ctest --test-dir "$build" --output-on-failure -j "$jobs"
