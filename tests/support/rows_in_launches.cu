// The library's block-per-row launcher with a grid of the test's choosing (see rows_in_launches.hpp).
#include "support/rows_in_launches.hpp"

#include "reduce/src/rows/block_per_row.cuh"
#include "reduce/src/rows/row_ops.cuh"

namespace gpuprims::test {

namespace rd = ::gpuprims::reduce::detail;

Status row_argmin_in_launches(const float* d_in, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                              ArgResult<float>* d_out, int threads, std::int64_t grid, cudaStream_t stream) {
  return rd::launch_rows_block(device::ArgMin<float>{}, d_in, rows, cols, ld, d_out, threads, grid, stream);
}

Status row_sum_in_launches(const float* d_in, std::int64_t rows, std::int64_t cols, std::int64_t ld, float* d_out,
                           int threads, std::int64_t grid, cudaStream_t stream) {
  return rd::launch_rows_block(device::Sum<float>{}, d_in, rows, cols, ld, d_out, threads, grid, stream);
}

Status row_top2_in_launches(const float* d_in, std::int64_t rows, std::int64_t cols, std::int64_t ld, Top2* d_out,
                            int threads, std::int64_t grid, cudaStream_t stream) {
  return rd::launch_rows_block(rd::Top2RowOp{}, d_in, rows, cols, ld, d_out, threads, grid, stream);
}

}  // namespace gpuprims::test
