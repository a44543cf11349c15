#pragma once
// The warp-level building blocks now live in the public tree (gpuprims/device/warp_reduce.cuh,
// namespace gpuprims::device); the library's kernels keep naming them from gpuprims::detail.
#include <gpuprims/device/warp_reduce.cuh>

namespace gpuprims::detail {

using ::gpuprims::device::kFullMask;
using ::gpuprims::device::kWarpSize;
using ::gpuprims::device::shfl_down;
using ::gpuprims::device::warp_reduce;

}  // namespace gpuprims::detail
