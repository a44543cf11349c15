# shellcheck shell=bash
# Sourced by scripts/test.sh, scripts/gpu-check.sh, scripts/run-benchmarks.sh and .ci/run: the one
# rule for the generator a build folder is configured with.
#
#   generator=(); ninja_for "$build_dir" && generator=(-G Ninja)
# succeeds when the folder is not configured yet, CMAKE_GENERATOR names no generator and ninja is
# installed. Ninja compiles every target's objects as soon as their sources allow, where Make starts
# a target only after the targets it links. A configured folder keeps its generator: configuring it
# again without -G reuses the cached one, and with another -G fails.
ninja_for() {
  [ ! -f "$1/CMakeCache.txt" ] && [ -z "${CMAKE_GENERATOR:-}" ] && command -v ninja >/dev/null 2>&1
}
