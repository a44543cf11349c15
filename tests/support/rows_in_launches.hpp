#pragma once
// The block-per-row path of the row-wise reductions (reduce/src/rows/block_per_row.cuh) called with a
// grid the test chooses, so that rows past one launch (RowPlan::grid, 2^30 blocks in the library,
// beyond any matrix a test can allocate) take several launches here on a few rows. Compiled in
// rows_in_launches.cu; host-callable from the .cpp tests.
#include <cuda_runtime_api.h>

#include <cstdint>

#include <gpuprims/device/reduce_ops.hpp>
#include <gpuprims/status.hpp>
#include <gpuprims/top2.hpp>

namespace gpuprims::test {

// row_argmin / row_sum / row_top2_argmin of float rows on the block-per-row path (blocks of
// `threads`, whatever the plan would pick), in launches of at most `grid` rows each.
Status row_argmin_in_launches(const float* d_in, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                              ArgResult<float>* d_out, int threads, std::int64_t grid, cudaStream_t stream = nullptr);
Status row_sum_in_launches(const float* d_in, std::int64_t rows, std::int64_t cols, std::int64_t ld, float* d_out,
                           int threads, std::int64_t grid, cudaStream_t stream = nullptr);
Status row_top2_in_launches(const float* d_in, std::int64_t rows, std::int64_t cols, std::int64_t ld, Top2* d_out,
                            int threads, std::int64_t grid, cudaStream_t stream = nullptr);

}  // namespace gpuprims::test
