#pragma once
// Medium rows, and long rows when there are enough of them to fill the GPU: one block per row, each
// thread taking 16-byte vectors of the row (a scalar head up to the row's first 16-byte boundary, so
// padded and odd leading dimensions still load in vectors), then a block tree; thread 0 writes the row.
// The plan picks the block size (RowPlan::threads, row_block_threads: for sums 64 to 512 by the row's
// bytes and 1024 from 64 KiB, for the other operators 64 to 256 by row length, 512 and 1024 on long
// rows).
// A block takes one row and no more: a loop over rows past the grid kept the row's 64-bit state live
// across the whole scan (float argmin 47 registers a thread, 38 without; float sum 40-42, 32), which
// left an SM fewer blocks; on an H200 float argmin at 3072 columns took 3.6% less time without it
// (results/nvidia-h200/README.md, runs CG and CH). Rows past one grid (RowPlan::grid) take further
// launches.
// The result is stored plainly. An L2 evict_last hint on it kept the results' write-backs out of the
// read stream and made float argmin at 2048 columns 0.7% faster on an H100 alone, 0.2% in a sequence of
// calls (results/nvidia-h100-80gb-hbm3/README.md, runs BO-BQ): the write-backs it defers fall on the
// caller's next kernel, and such lines outlive the call at raised priority. Loads under evict_first
// were slower, and so were blocks of two to eight rows storing their results at once (run CG).
#include <cstdint>

#include <cuda_runtime_api.h>

#include <gpuprims/device/reduce_ops.hpp>
#include <gpuprims/status.hpp>

#include "common/device/block_reduce.cuh"
#include "common/src/cuda_check.hpp"
#include "reduce/src/rows/plan.hpp"
#include "reduce/src/rows/row_ops.cuh"

namespace gpuprims::reduce::detail {

// Row first + blockIdx.x of the matrix (the launch covers rows first to first + gridDim.x).
template <int kThreads, class Col, class Op>
__global__ void __launch_bounds__(kThreads)
    rows_block_kernel(Op op, const typename Op::Input* in, std::int64_t first, std::int64_t cols, std::int64_t ld,
                      typename Op::Output* out) {
  const int tid = static_cast<int>(threadIdx.x);
  const std::int64_t r = first + blockIdx.x;
  typename Op::Acc acc = thread_range<kThreads>(op, in + r * ld, Col{0}, static_cast<Col>(cols), tid, op.identity());
  acc = row_block_reduce<kThreads>(op, acc, tid, cols);
  if (tid == 0) out[r] = row_result(op, acc, r);
}

// One launch of at most `grid` blocks for every `grid` rows.
template <int kThreads, class Col, class Op>
void launch_rows_block_kernel(const Op& op, const typename Op::Input* in, std::int64_t rows, std::int64_t cols,
                              std::int64_t ld, typename Op::Output* out, std::int64_t grid, cudaStream_t stream) {
  for (std::int64_t first = 0; first < rows; first += grid) {
    const auto blocks = static_cast<unsigned>(min_of(rows - first, grid));
    rows_block_kernel<kThreads, Col, Op><<<blocks, kThreads, 0, stream>>>(op, in, first, cols, ld, out);
  }
}

template <class Op>
Status launch_rows_block(const Op& op, const typename Op::Input* in, std::int64_t rows, std::int64_t cols,
                         std::int64_t ld, typename Op::Output* out, int threads, std::int64_t grid,
                         cudaStream_t stream) {
  if (grid < 1) return Status::invalid_argument;
  using Narrow = std::int32_t;  // columns below RowTuning::kMaxInt32Cols, which only very long rows pass
  switch (threads) {
    case 64: launch_rows_block_kernel<64, Narrow>(op, in, rows, cols, ld, out, grid, stream); break;
    case 128: launch_rows_block_kernel<128, Narrow>(op, in, rows, cols, ld, out, grid, stream); break;
    case RowTuning::kThreads:
      launch_rows_block_kernel<RowTuning::kThreads, Narrow>(op, in, rows, cols, ld, out, grid, stream);
      break;
    case RowTuning::kLongThreads:
      launch_rows_block_kernel<RowTuning::kLongThreads, Narrow>(op, in, rows, cols, ld, out, grid, stream);
      break;
    case RowTuning::kVeryLongThreads:
      if (cols <= RowTuning::kMaxInt32Cols) {
        launch_rows_block_kernel<RowTuning::kVeryLongThreads, Narrow>(op, in, rows, cols, ld, out, grid, stream);
      } else {
        launch_rows_block_kernel<RowTuning::kVeryLongThreads, std::int64_t>(op, in, rows, cols, ld, out, grid, stream);
      }
      break;
    default: return Status::invalid_argument;  // not a row_block_threads size
  }
  GPUPRIMS_LAUNCH_CHECK();
  return Status::success;
}

}  // namespace gpuprims::reduce::detail
