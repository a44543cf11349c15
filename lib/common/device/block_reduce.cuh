#pragma once
// The block reduction now lives in the public tree (gpuprims/device/block_reduce.cuh, namespace
// gpuprims::device); the library's kernels keep naming it from gpuprims::detail.
#include <gpuprims/device/block_reduce.cuh>

#include "common/device/warp_reduce.cuh"

namespace gpuprims::detail {

using ::gpuprims::device::block_reduce;

}  // namespace gpuprims::detail
