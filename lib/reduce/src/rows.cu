// The row-wise reductions' entry points (reduce_rows.hpp): row_top2_argmin here, and the typed
// operators for float; the other element types are instantiated in rows_*.cu from the same driver
// (rows/entry.cuh), one file per type family so they compile in parallel.
#include <gpuprims/reduce_rows.hpp>

#include "reduce/src/rows/entry.cuh"

GPUPRIMS_INSTANTIATE_ROWS(float)

namespace gpuprims::reduce {

std::size_t row_top2_workspace_bytes(std::int64_t rows, std::int64_t cols) noexcept {
  return detail::workspace_for<detail::Top2RowOp>(rows, cols);
}

Status row_top2_argmin(const float* d_in, std::int64_t rows, std::int64_t cols, std::int64_t ld, Top2* d_out,
                       void* d_ws, std::size_t ws_bytes, cudaStream_t stream) {
  return detail::run_rows(detail::Top2RowOp{}, d_in, rows, cols, ld, d_out, d_ws, ws_bytes, stream);
}

Status row_top2_argmin(const float* d_in, std::int64_t rows, std::int64_t cols, std::int64_t ld, Top2* d_out,
                       cudaStream_t stream) {
  return detail::run_rows_scratch(detail::Top2RowOp{}, d_in, rows, cols, ld, d_out, stream);
}

}  // namespace gpuprims::reduce
