#pragma once
// Few long rows (too few to fill the GPU with a block each): `splits` blocks per row, block s taking
// columns [s * split_cols, (s + 1) * split_cols) like the block-per-row kernel and writing its partial
// accumulator to the workspace; then a combine kernel, one block per row, reduces the row's partials
// in a fixed order (thread t chains partials t, t + 256, ... in split order, then a block tree). No
// atomics: the result never depends on which block finishes first.
#include <cstdint>

#include <cuda_runtime_api.h>

#include <gpuprims/device/reduce_ops.hpp>
#include <gpuprims/status.hpp>

#include "common/device/block_reduce.cuh"
#include "common/src/cuda_check.hpp"
#include "reduce/src/rows/plan.hpp"
#include "reduce/src/rows/row_ops.cuh"

namespace gpuprims::reduce::detail {

template <class Col, class Op>
__global__ void __launch_bounds__(RowTuning::kThreads)
    rows_split_kernel(Op op, const typename Op::Input* in, std::int64_t cols, std::int64_t ld, std::int64_t splits,
                      std::int64_t split_cols, typename Op::Acc* partials) {
  constexpr int kThreads = RowTuning::kThreads;
  const int tid = static_cast<int>(threadIdx.x);
  const std::int64_t b = blockIdx.x;
  const std::int64_t r = b / splits;
  const std::int64_t c0 = (b % splits) * split_cols;
  const std::int64_t c1 = c0 + split_cols < cols ? c0 + split_cols : cols;
  typename Op::Acc acc = op.identity();
  if (c0 < c1) acc = thread_range<kThreads>(op, in + r * ld, static_cast<Col>(c0), static_cast<Col>(c1), tid, acc);
  acc = row_block_reduce<kThreads>(op, acc, tid, cols);
  if (tid == 0) partials[b] = acc;
}

template <class Op>
__global__ void __launch_bounds__(RowTuning::kThreads)
    rows_combine_kernel(Op op, const typename Op::Acc* partials, std::int64_t splits, typename Op::Output* out) {
  constexpr int kThreads = RowTuning::kThreads;
  const int tid = static_cast<int>(threadIdx.x);
  const std::int64_t r = blockIdx.x;
  typename Op::Acc acc = op.identity();
  for (std::int64_t s = tid; s < splits; s += kThreads) acc = op.combine(acc, partials[r * splits + s]);
  acc = ::gpuprims::detail::block_reduce<kThreads>(acc, ::gpuprims::device::CombineWith<Op>{op}, tid);
  if (tid == 0) out[r] = row_result(op, acc, r);
}

template <class Op>
Status launch_rows_split(const Op& op, const typename Op::Input* in, std::int64_t rows, std::int64_t cols,
                         std::int64_t ld, std::int64_t splits, std::int64_t split_cols, typename Op::Acc* partials,
                         typename Op::Output* out, cudaStream_t stream) {
  const auto blocks = static_cast<unsigned>(rows * splits);
  if (cols <= RowTuning::kMaxInt32Cols) {
    rows_split_kernel<std::int32_t, Op>
        <<<blocks, RowTuning::kThreads, 0, stream>>>(op, in, cols, ld, splits, split_cols, partials);
  } else {
    rows_split_kernel<std::int64_t, Op>
        <<<blocks, RowTuning::kThreads, 0, stream>>>(op, in, cols, ld, splits, split_cols, partials);
  }
  GPUPRIMS_LAUNCH_CHECK();
  rows_combine_kernel<Op><<<static_cast<unsigned>(rows), RowTuning::kThreads, 0, stream>>>(op, partials, splits, out);
  GPUPRIMS_LAUNCH_CHECK();
  return Status::success;
}

}  // namespace gpuprims::reduce::detail
