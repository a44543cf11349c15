#pragma once
// Medium rows, and long rows when there are enough of them to fill the GPU: one block per row, each
// thread taking 16-byte vectors of the row (a scalar head up to the row's first 16-byte boundary, so
// padded and odd leading dimensions still load in vectors), then a block tree; thread 0 writes the row.
// The plan picks the block size (RowPlan::threads: 256, or 512 on long rows).
#include <cstdint>

#include <cuda_runtime_api.h>

#include <gpuprims/device/reduce_ops.hpp>
#include <gpuprims/status.hpp>

#include "common/device/block_reduce.cuh"
#include "common/src/cuda_check.hpp"
#include "reduce/src/rows/plan.hpp"
#include "reduce/src/rows/row_ops.cuh"

namespace gpuprims::reduce::detail {

template <int kThreads, class Op>
__global__ void __launch_bounds__(kThreads)
    rows_block_kernel(Op op, const typename Op::Input* in, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                      typename Op::Output* out) {
  const int tid = static_cast<int>(threadIdx.x);
  for (std::int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    typename Op::Acc acc = thread_range<kThreads>(op, in + r * ld, 0, cols, tid, op.identity());
    acc = ::gpuprims::detail::block_reduce<kThreads>(acc, ::gpuprims::device::CombineWith<Op>{op}, tid);
    if (tid == 0) out[r] = row_result(op, acc, r);
  }
}

template <class Op>
Status launch_rows_block(const Op& op, const typename Op::Input* in, std::int64_t rows, std::int64_t cols,
                         std::int64_t ld, typename Op::Output* out, int threads, std::int64_t grid,
                         cudaStream_t stream) {
  const auto blocks = static_cast<unsigned>(grid);
  if (threads == RowTuning::kLongThreads) {
    rows_block_kernel<RowTuning::kLongThreads, Op>
        <<<blocks, RowTuning::kLongThreads, 0, stream>>>(op, in, rows, cols, ld, out);
  } else {
    rows_block_kernel<RowTuning::kThreads, Op><<<blocks, RowTuning::kThreads, 0, stream>>>(op, in, rows, cols, ld, out);
  }
  GPUPRIMS_LAUNCH_CHECK();
  return Status::success;
}

}  // namespace gpuprims::reduce::detail
