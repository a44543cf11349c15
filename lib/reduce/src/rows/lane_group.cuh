#pragma once
// Short rows (cols <= group_max_cols: 256 columns, or 32 lanes of four 16-byte vectors - 1024 halves,
// 512 floats - for 2- and 4-byte elements; and cols == 0): a group of kLanes lanes (1-32) per row, 256 / kLanes rows
// per block; the group's lane 0 writes the row. A block strides over rows past the grid. Rows the
// plan reads in vectors (group_reads_vectors) are read as a block per row of kLanes threads reads
// them (thread_range: a scalar head, 16-byte vectors, up to four a lane as the plan sizes the groups,
// a scalar tail; head and tail looped in groups narrower than a vector); the others one element at a
// time, each lane striding over its row so a warp's loads cover consecutive columns (group_lanes and
// RowTuning say why).
#include <cstdint>

#include <cuda_runtime_api.h>

#include <gpuprims/device/reduce_ops.hpp>
#include <gpuprims/status.hpp>

#include "common/device/warp_reduce.cuh"
#include "common/src/cuda_check.hpp"
#include "reduce/src/rows/plan.hpp"
#include "reduce/src/rows/row_ops.cuh"

namespace gpuprims::reduce::detail {

template <int kLanes, bool kVectors, class Op>
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
      if constexpr (kVectors) {
        acc = thread_range<kLanes>(op, row, std::int32_t{0}, static_cast<std::int32_t>(cols), lane, acc);
      } else {
#pragma unroll 4  // several loads in flight per lane
        for (std::int64_t c = lane; c < cols; c += kLanes) acc = accumulate(op, acc, row[c], c);
      }
    }
    acc = ::gpuprims::detail::warp_reduce<kLanes>(acc, ::gpuprims::device::CombineWith<Op>{op});
    if (lane == 0 && r < rows) out[r] = row_result(op, acc, r);
  }
}

template <int kLanes, bool kVectors, class Op>
void launch_rows_lane_group_kernel(const Op& op, const typename Op::Input* in, std::int64_t rows, std::int64_t cols,
                                   std::int64_t ld, typename Op::Output* out, std::int64_t grid, cudaStream_t stream) {
  rows_lane_group_kernel<kLanes, kVectors, Op>
      <<<static_cast<unsigned>(grid), RowTuning::kThreads, 0, stream>>>(op, in, rows, cols, ld, out);
}

// The lane-group kernel of p.lanes lanes (kVectors: reading 16-byte vectors).
template <bool kVectors, class Op>
Status launch_rows_lane_group_of(const Op& op, const typename Op::Input* in, std::int64_t rows, std::int64_t cols,
                                 std::int64_t ld, typename Op::Output* out, const RowPlan& p, cudaStream_t stream) {
  switch (p.lanes) {
    case 1: launch_rows_lane_group_kernel<1, kVectors>(op, in, rows, cols, ld, out, p.grid, stream); break;
    case 2: launch_rows_lane_group_kernel<2, kVectors>(op, in, rows, cols, ld, out, p.grid, stream); break;
    case 4: launch_rows_lane_group_kernel<4, kVectors>(op, in, rows, cols, ld, out, p.grid, stream); break;
    case 8: launch_rows_lane_group_kernel<8, kVectors>(op, in, rows, cols, ld, out, p.grid, stream); break;
    case 16: launch_rows_lane_group_kernel<16, kVectors>(op, in, rows, cols, ld, out, p.grid, stream); break;
    case 32: launch_rows_lane_group_kernel<32, kVectors>(op, in, rows, cols, ld, out, p.grid, stream); break;
    default: return Status::invalid_argument;  // not a group_lanes count
  }
  GPUPRIMS_LAUNCH_CHECK();
  return Status::success;
}

// The lane-group kernel of plan p (RowPath::lane_group).
template <class Op>
Status launch_rows_lane_group(const Op& op, const typename Op::Input* in, std::int64_t rows, std::int64_t cols,
                              std::int64_t ld, typename Op::Output* out, const RowPlan& p, cudaStream_t stream) {
  if (!p.group_vectors) return launch_rows_lane_group_of<false>(op, in, rows, cols, ld, out, p, stream);
  if constexpr (group_vector_element(sizeof(typename Op::Input))) {
    return launch_rows_lane_group_of<true>(op, in, rows, cols, ld, out, p, stream);
  } else {
    return Status::invalid_argument;  // not a plan for this element type
  }
}

}  // namespace gpuprims::reduce::detail
