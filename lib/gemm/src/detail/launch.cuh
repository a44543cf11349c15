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

template <EpilogueMode kMode>
using ModeTag = std::integral_constant<EpilogueMode, kMode>;

// Calls f(mode tag) for the call's epilogue instantiation.
template <class F>
void with_epilogue_mode(const GemmCall& c, F&& f) {
  switch (c.mode) {
    case EpilogueMode::store: f(ModeTag<EpilogueMode::store>{}); break;
    case EpilogueMode::top2_packed: f(ModeTag<EpilogueMode::top2_packed>{}); break;
    case EpilogueMode::top2_wide: f(ModeTag<EpilogueMode::top2_wide>{}); break;
  }
}

// launch(mode) for rungs whose loads have no float4 form.
template <class F>
Status launch_by_epilogue(const GemmCall& c, F&& launch) {
  with_epilogue_mode(c, launch);
  GPUPRIMS_LAUNCH_CHECK();
  return Status::success;
}

// launch(kVec, mode) for rungs with float4 operand loads: the vector form only when the call's
// pointers and leading dimensions allow it, else the scalar fallback for the whole call.
template <class F>
Status launch_by_vec_and_epilogue(const GemmCall& c, F&& launch) {
  with_epilogue_mode(c, [&](auto mode) {
    if (c.ab_vec4) launch(True{}, mode);
    else launch(False{}, mode);
  });
  GPUPRIMS_LAUNCH_CHECK();
  return Status::success;
}

}  // namespace gpuprims::detail
