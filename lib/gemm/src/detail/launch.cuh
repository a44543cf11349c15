#pragma once
// Host-side launch plumbing shared by every rung: the 1D grid of output tiles, cluster launches, and
// picking the kernel instantiation (float4 operand loads or not; the epilogue visitor) that fits the call.
#include <climits>
#include <cstddef>
#include <type_traits>

#include <gpuprims/device/dependent_launch.cuh>
#include <gpuprims/status.hpp>

#include "common/src/cuda_check.hpp"
#include "gemm/src/detail/gemm_call.hpp"
#include "gemm/src/detail/tile_index.hpp"
#include "gemm/src/epilogue/output.hpp"
#include "gemm/src/epilogue/visitors.cuh"

namespace gpuprims::detail {

using True = std::true_type;
using False = std::false_type;

// Blocks for bm x bn tiles; unsupported when the grid would not fit gridDim.x.
inline Status tile_grid(const GemmCall& c, int bm, int bn, unsigned* blocks) {
  const std::int64_t tiles = tile_count(c.op.m, c.op.n, bm, bn);
  if (tiles <= 0 || tiles > INT_MAX) return Status::unsupported;
  *blocks = static_cast<unsigned>(tiles);
  return Status::success;
}

// A cudaLaunchKernelEx configuration of `grid` blocks in clusters of `cluster_blocks` consecutive
// blocks along x, with the attributes it points at kept beside it (so it is not copyable). dependent:
// also a programmatic dependent of the stream's previous kernel (dependent_launch.cuh; the kernel
// waits for that grid before it reads what it wrote).
struct ClusterLaunch {
  cudaLaunchAttribute attributes[2]{};
  cudaLaunchConfig_t config{};
  ClusterLaunch(dim3 grid, int threads, int smem_bytes, int cluster_blocks, cudaStream_t stream,
                bool dependent = false) {
    attributes[0].id = cudaLaunchAttributeClusterDimension;
    attributes[0].val.clusterDim.x = static_cast<unsigned>(cluster_blocks);
    attributes[0].val.clusterDim.y = 1;
    attributes[0].val.clusterDim.z = 1;
    attributes[1] = ::gpuprims::device::dependent_launch_attribute();
    config.gridDim = grid;
    config.blockDim = dim3(static_cast<unsigned>(threads));
    config.dynamicSmemBytes = static_cast<std::size_t>(smem_bytes);
    config.stream = stream;
    config.attrs = attributes;
    config.numAttrs = dependent ? 2 : 1;
  }
  ClusterLaunch(const ClusterLaunch&) = delete;
  ClusterLaunch& operator=(const ClusterLaunch&) = delete;
};

// A kernel's epilogue arguments for visitor V: the call's output and V's own arguments.
template <class V>
EpilogueParams<V> epilogue_params(const GemmCall& c) {
  return EpilogueParams<V>{c.out, V::args_of(c.visit)};
}

// launch(visitor tag) for rungs whose loads have no float4 form: the kernel instantiated with the
// call's epilogue visitor (VisitorTag<V>, visitors.cuh).
template <class F>
Status launch_by_epilogue(const GemmCall& c, F&& launch) {
  with_visitor(c.epilogue, launch);
  GPUPRIMS_LAUNCH_CHECK();
  return Status::success;
}

// launch(kVec, visitor tag) for rungs with float4 operand loads: the vector form only when the call's
// pointers and leading dimensions allow it, else the scalar fallback for the whole call.
template <class F>
Status launch_by_vec_and_epilogue(const GemmCall& c, F&& launch) {
  with_visitor(c.epilogue, [&](auto visitor) {
    if (c.ab_vec4) launch(True{}, visitor);
    else launch(False{}, visitor);
  });
  GPUPRIMS_LAUNCH_CHECK();
  return Status::success;
}

}  // namespace gpuprims::detail
