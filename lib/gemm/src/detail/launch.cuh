#pragma once
// Host-side launch plumbing shared by every rung: the 1D grid of output tiles, and picking the kernel
// instantiation (float4 operand loads or not; plain or top-2 epilogue) that fits the call.
#include <climits>
#include <type_traits>

#include <gpuprims/status.hpp>

#include "common/src/cuda_check.hpp"
#include "gemm/src/detail/gemm_call.hpp"
#include "gemm/src/detail/tile_index.hpp"

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

// launch(kTop2) for rungs whose loads have no float4 form.
template <class F>
Status launch_by_epilogue(const GemmCall& c, F&& launch) {
  if (c.top2) launch(True{});
  else launch(False{});
  GPUPRIMS_LAUNCH_CHECK();
  return Status::success;
}

// launch(kVec, kTop2) for rungs with float4 operand loads: the vector form only when the call's
// pointers and leading dimensions allow it, else the scalar fallback for the whole call.
template <class F>
Status launch_by_vec_and_epilogue(const GemmCall& c, F&& launch) {
  if (c.ab_vec4) {
    if (c.top2) launch(True{}, True{});
    else launch(True{}, False{});
  } else {
    if (c.top2) launch(False{}, True{});
    else launch(False{}, False{});
  }
  GPUPRIMS_LAUNCH_CHECK();
  return Status::success;
}

}  // namespace gpuprims::detail
