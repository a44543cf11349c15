#pragma once
// The row reductions' driver, shared by the translation units that instantiate it per element type
// (rows*.cu): validation (no CUDA call), the workspace check, the plan (rows/plan.hpp) for the
// current device, and the launch of the plan's path. GPUPRIMS_INSTANTIATE_ROWS(T) instantiates the
// public entry points of reduce_rows.hpp for T.
#include <gpuprims/reduce_rows.hpp>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "common/src/cuda_check.hpp"
#include "common/src/device_buffer.hpp"
#include "common/src/device_info.hpp"
#include "common/src/math.hpp"
#include "reduce/src/rows/block_per_row.cuh"
#include "reduce/src/rows/lane_group.cuh"
#include "reduce/src/rows/plan.hpp"
#include "reduce/src/rows/row_ops.cuh"
#include "reduce/src/rows/split_row.cuh"

namespace gpuprims::reduce::detail {

// Everything but the workspace; no CUDA call.
template <class T, class Out>
Status validate_rows(const T* in, std::int64_t rows, std::int64_t cols, std::int64_t ld, const Out* out) {
  using ::gpuprims::detail::checked_mul;
  using ::gpuprims::detail::is_aligned;
  if (rows < 0 || cols < 0 || ld < 0) return Status::invalid_argument;
  if (ld < (cols > 1 ? cols : 1)) return Status::invalid_argument;
  if (rows > 0 && out == nullptr) return Status::invalid_argument;
  const bool reads = rows > 0 && cols > 0;
  if (reads && in == nullptr) return Status::invalid_argument;
  constexpr std::int64_t kMax = INT64_MAX;
  if (rows > kMax / static_cast<std::int64_t>(sizeof(Out))) return Status::invalid_argument;
  if (reads) {
    std::int64_t span = 0;  // elements from the first to one past the last read: (rows - 1) * ld + cols
    if (!checked_mul(rows - 1, ld, &span) || span > kMax - cols) return Status::invalid_argument;
    if (span + cols > kMax / static_cast<std::int64_t>(sizeof(T))) return Status::invalid_argument;
  }
  if (in != nullptr && !is_aligned(in, alignof(T))) return Status::misaligned_pointer;
  if (out != nullptr && !is_aligned(out, alignof(Out))) return Status::misaligned_pointer;
  return Status::success;
}

// Sizes the workspace query accepts (the others get 0).
inline bool valid_sizes(std::int64_t rows, std::int64_t cols) { return rows >= 0 && cols >= 0; }

// What Op does with each element (rows/plan.hpp's RowWork).
template <class Op>
inline constexpr RowWork kRowWorkOf =
    std::is_same_v<Op, Top2RowOp>                                     ? RowWork::top2
    : std::is_same_v<Op, ::gpuprims::device::Sum<typename Op::Input>> ? RowWork::sum
                                                                      : RowWork::select;

// The plan of Op's call on this device (sm_count <= 0: the largest).
template <class Op>
RowPlan row_plan_for(std::int64_t rows, std::int64_t cols, int sm_count) {
  return make_row_plan(rows, cols, sizeof(typename Op::Acc), sm_count, kRowWorkOf<Op>, sizeof(typename Op::Input));
}

template <class Op>
std::size_t workspace_for(std::int64_t rows, std::int64_t cols) {
  if (!valid_sizes(rows, cols)) return 0;
  return row_plan_for<Op>(rows, cols, 0).workspace;
}

// The explicit-workspace call of any operator.
template <class Op>
Status run_rows(const Op& op, const typename Op::Input* in, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                typename Op::Output* out, void* ws, std::size_t ws_bytes, cudaStream_t stream) {
  GPUPRIMS_TRY(validate_rows(in, rows, cols, ld, out));
  const std::size_t needed = workspace_for<Op>(rows, cols);
  if (needed > 0) {
    if (ws == nullptr || ws_bytes < needed) return Status::invalid_argument;
    if (!::gpuprims::detail::is_aligned(ws, 16)) return Status::misaligned_pointer;
  }
  if (rows == 0) return Status::success;  // nothing to write: no CUDA call
  const ::gpuprims::detail::DeviceInfo* dev = nullptr;
  GPUPRIMS_TRY(::gpuprims::detail::current_device_info(&dev));
  const RowPlan p = row_plan_for<Op>(rows, cols, dev->sm_count);
  switch (p.path) {
    case RowPath::none: return Status::success;
    case RowPath::lane_group: return launch_rows_lane_group(op, in, rows, cols, ld, out, p, stream);
    case RowPath::block_per_row: return launch_rows_block(op, in, rows, cols, ld, out, p.threads, p.grid, stream);
    case RowPath::split_row:
      // p.workspace <= needed (the query plans for the largest device).
      return launch_rows_split(op, in, rows, cols, ld, p.splits, p.split_cols, static_cast<typename Op::Acc*>(ws), out,
                               stream);
  }
  return Status::invalid_argument;
}

// The stream-ordered call of any operator.
template <class Op>
Status run_rows_scratch(const Op& op, const typename Op::Input* in, std::int64_t rows, std::int64_t cols,
                        std::int64_t ld, typename Op::Output* out, cudaStream_t stream) {
  GPUPRIMS_TRY(validate_rows(in, rows, cols, ld, out));
  if (rows == 0) return Status::success;
  GPUPRIMS_TRY(::gpuprims::detail::require_device());
  const std::size_t bytes = workspace_for<Op>(rows, cols);
  ::gpuprims::detail::StreamScratch scratch(stream);
  GPUPRIMS_TRY(scratch.allocate(bytes));
  return run_rows(op, in, rows, cols, ld, out, scratch.get(), bytes, stream);
}

}  // namespace gpuprims::reduce::detail

namespace gpuprims::reduce {

template <class T>
std::size_t row_workspace_bytes(Operator op, std::int64_t rows, std::int64_t cols) noexcept {
  using namespace ::gpuprims::device;
  switch (op) {
    case Operator::sum: return detail::workspace_for<Sum<T>>(rows, cols);
    case Operator::min: return detail::workspace_for<Min<T>>(rows, cols);
    case Operator::max: return detail::workspace_for<Max<T>>(rows, cols);
    case Operator::argmin: return detail::workspace_for<ArgMin<T>>(rows, cols);
    case Operator::argmax: return detail::workspace_for<ArgMax<T>>(rows, cols);
  }
  return 0;
}

template <class T>
reducible_status_t<T> row_sum(const T* d_in, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                              sum_type_t<T>* d_out, void* d_ws, std::size_t ws_bytes, cudaStream_t stream) {
  return detail::run_rows(device::Sum<T>{}, d_in, rows, cols, ld, d_out, d_ws, ws_bytes, stream);
}
template <class T>
reducible_status_t<T> row_min(const T* d_in, std::int64_t rows, std::int64_t cols, std::int64_t ld, T* d_out,
                              void* d_ws, std::size_t ws_bytes, cudaStream_t stream) {
  return detail::run_rows(device::Min<T>{}, d_in, rows, cols, ld, d_out, d_ws, ws_bytes, stream);
}
template <class T>
reducible_status_t<T> row_max(const T* d_in, std::int64_t rows, std::int64_t cols, std::int64_t ld, T* d_out,
                              void* d_ws, std::size_t ws_bytes, cudaStream_t stream) {
  return detail::run_rows(device::Max<T>{}, d_in, rows, cols, ld, d_out, d_ws, ws_bytes, stream);
}
template <class T>
reducible_status_t<T> row_argmin(const T* d_in, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                                 ArgResult<T>* d_out, void* d_ws, std::size_t ws_bytes, cudaStream_t stream) {
  return detail::run_rows(device::ArgMin<T>{}, d_in, rows, cols, ld, d_out, d_ws, ws_bytes, stream);
}
template <class T>
reducible_status_t<T> row_argmax(const T* d_in, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                                 ArgResult<T>* d_out, void* d_ws, std::size_t ws_bytes, cudaStream_t stream) {
  return detail::run_rows(device::ArgMax<T>{}, d_in, rows, cols, ld, d_out, d_ws, ws_bytes, stream);
}

template <class T>
reducible_status_t<T> row_sum(const T* d_in, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                              sum_type_t<T>* d_out, cudaStream_t stream) {
  return detail::run_rows_scratch(device::Sum<T>{}, d_in, rows, cols, ld, d_out, stream);
}
template <class T>
reducible_status_t<T> row_min(const T* d_in, std::int64_t rows, std::int64_t cols, std::int64_t ld, T* d_out,
                              cudaStream_t stream) {
  return detail::run_rows_scratch(device::Min<T>{}, d_in, rows, cols, ld, d_out, stream);
}
template <class T>
reducible_status_t<T> row_max(const T* d_in, std::int64_t rows, std::int64_t cols, std::int64_t ld, T* d_out,
                              cudaStream_t stream) {
  return detail::run_rows_scratch(device::Max<T>{}, d_in, rows, cols, ld, d_out, stream);
}
template <class T>
reducible_status_t<T> row_argmin(const T* d_in, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                                 ArgResult<T>* d_out, cudaStream_t stream) {
  return detail::run_rows_scratch(device::ArgMin<T>{}, d_in, rows, cols, ld, d_out, stream);
}
template <class T>
reducible_status_t<T> row_argmax(const T* d_in, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                                 ArgResult<T>* d_out, cudaStream_t stream) {
  return detail::run_rows_scratch(device::ArgMax<T>{}, d_in, rows, cols, ld, d_out, stream);
}

}  // namespace gpuprims::reduce

// Every public entry point of reduce_rows.hpp for element type T (at namespace scope).
#define GPUPRIMS_INSTANTIATE_ROWS(T)                                                                                   \
  namespace gpuprims::reduce {                                                                                         \
  template GPUPRIMS_API std::size_t row_workspace_bytes<T>(Operator, std::int64_t, std::int64_t) noexcept;             \
  template GPUPRIMS_API Status row_sum<T>(const T*, std::int64_t, std::int64_t, std::int64_t, sum_type_t<T>*, void*,   \
                                          std::size_t, cudaStream_t);                                                  \
  template GPUPRIMS_API Status row_min<T>(const T*, std::int64_t, std::int64_t, std::int64_t, T*, void*, std::size_t,  \
                                          cudaStream_t);                                                               \
  template GPUPRIMS_API Status row_max<T>(const T*, std::int64_t, std::int64_t, std::int64_t, T*, void*, std::size_t,  \
                                          cudaStream_t);                                                               \
  template GPUPRIMS_API Status row_argmin<T>(const T*, std::int64_t, std::int64_t, std::int64_t, ArgResult<T>*, void*, \
                                             std::size_t, cudaStream_t);                                               \
  template GPUPRIMS_API Status row_argmax<T>(const T*, std::int64_t, std::int64_t, std::int64_t, ArgResult<T>*, void*, \
                                             std::size_t, cudaStream_t);                                               \
  template GPUPRIMS_API Status row_sum<T>(const T*, std::int64_t, std::int64_t, std::int64_t, sum_type_t<T>*,          \
                                          cudaStream_t);                                                               \
  template GPUPRIMS_API Status row_min<T>(const T*, std::int64_t, std::int64_t, std::int64_t, T*, cudaStream_t);       \
  template GPUPRIMS_API Status row_max<T>(const T*, std::int64_t, std::int64_t, std::int64_t, T*, cudaStream_t);       \
  template GPUPRIMS_API Status row_argmin<T>(const T*, std::int64_t, std::int64_t, std::int64_t, ArgResult<T>*,        \
                                             cudaStream_t);                                                            \
  template GPUPRIMS_API Status row_argmax<T>(const T*, std::int64_t, std::int64_t, std::int64_t, ArgResult<T>*,        \
                                             cudaStream_t);                                                            \
  }
