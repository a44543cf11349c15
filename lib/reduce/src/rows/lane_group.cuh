#pragma once
// Short rows (cols <= RowTuning::kGroupMaxCols, and cols == 0): a group of kLanes lanes (1-32) per
// row, 256 / kLanes rows per block, each lane striding over its row so a warp's loads cover
// consecutive columns; the group's lane 0 writes the row. A block strides over rows past the grid.
#include <cstdint>

#include <cuda_runtime_api.h>

#include <gpuprims/device/reduce_ops.hpp>
#include <gpuprims/status.hpp>

#include "common/device/warp_reduce.cuh"
#include "common/src/cuda_check.hpp"
#include "reduce/src/rows/plan.hpp"
#include "reduce/src/rows/row_ops.cuh"

namespace gpuprims::reduce::detail {

template <int kLanes, class Op>
__global__ void __launch_bounds__(RowTuning::kThreads)
    rows_lane_group_kernel(Op op, const typename Op::Input* in, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                           typename Op::Output* out) {
  constexpr int kGroups = RowTuning::kThreads / kLanes;
  const int lane = static_cast<int>(threadIdx.x) % kLanes;
  const int group = static_cast<int>(threadIdx.x) / kLanes;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * kGroups;
  // The loop bound is the same for the whole block, so every lane of a warp reaches the shuffles.
  for (std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * kGroups; base < rows; base += stride) {
    const std::int64_t r = base + group;
    typename Op::Acc acc = op.identity();
    if (r < rows) {
      const typename Op::Input* row = in + r * ld;
#pragma unroll 4  // several loads in flight per lane
      for (std::int64_t c = lane; c < cols; c += kLanes) acc = accumulate(op, acc, row[c], c);
    }
    acc = ::gpuprims::detail::warp_reduce<kLanes>(acc, ::gpuprims::device::CombineWith<Op>{op});
    if (lane == 0 && r < rows) out[r] = row_result(op, acc, r);
  }
}

template <int kLanes, class Op>
Status launch_rows_lane_group(const Op& op, const typename Op::Input* in, std::int64_t rows, std::int64_t cols,
                              std::int64_t ld, typename Op::Output* out, std::int64_t grid, cudaStream_t stream) {
  rows_lane_group_kernel<kLanes, Op>
      <<<static_cast<unsigned>(grid), RowTuning::kThreads, 0, stream>>>(op, in, rows, cols, ld, out);
  GPUPRIMS_LAUNCH_CHECK();
  return Status::success;
}

}  // namespace gpuprims::reduce::detail
