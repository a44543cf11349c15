#pragma once
// Split-K, kernel side: a grid of several block rows (gridDim.y) gives row y the k range
// [y * k_split, min(k, (y + 1) * k_split)) and its own slice of the output, C + y * split_stride, where
// it writes its partial product; kernels/split_k_reduce.cuh sums the slices in order afterwards. With
// one block row (no split) nothing moves: k_split == k and y == 0. The first block also sets the words
// the reduction's visitor left to this kernel (OutputParams::reset): the reduction waits for this
// grid to complete before it reads them (it is launched after it, as its programmatic dependent on
// sm_90), and a call's kernels all follow the previous call's.
#include <cstdint>

#include "common/src/math.hpp"
#include "gemm/src/detail/gemm_call.hpp"
#include "gemm/src/epilogue/output.hpp"

namespace gpuprims::detail {

__device__ __forceinline__ void take_k_range(GemmOperands& op, OutputParams& out) {
  const std::int64_t y = blockIdx.y;
  const std::int64_t k0 = y * op.k_split;
  op.A += k0;
  op.B += k0 * op.ldb;
  op.k = min_of(op.k_split, op.k - k0);
  out.C += y * out.split_stride;
  if (out.reset != nullptr && blockIdx.x == 0 && y == 0 && static_cast<int>(threadIdx.x) < out.reset_count)
    out.reset[threadIdx.x] = ~0ull;
}

}  // namespace gpuprims::detail
