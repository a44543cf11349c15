#pragma once
// Host-side launch plumbing shared by every rung: the 1D grid of output tiles, and picking the kernel
// instantiation (float4 operand loads or not; the epilogue visitor) that fits the call. Cluster
// launches (ClusterLaunch) are common/src/cluster_launch.cuh's.
#include <climits>
#include <cstddef>
#include <type_traits>

#include <gpuprims/status.hpp>

#include "common/src/cluster_launch.cuh"
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
