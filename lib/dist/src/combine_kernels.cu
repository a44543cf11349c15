// The kernels that finish a distributed call: each is one thread over a handful of values (one per
// rank), so a launch costs more than the work; what matters is that it runs on the device, after the
// gather, in the stream order, with no host read in between.
#include "dist/src/combine_kernels.hpp"

#include "common/src/cuda_check.hpp"
#include "dist/src/combine.hpp"

namespace gpuprims::dist::detail {
namespace {

__global__ void sum_in_rank_order_kernel(const float* gathered, int count, float* out) {
  *out = sum_in_rank_order(gathered, count);
}

__global__ void globalize_rows_kernel(Top2* t, std::int64_t row_begin) { *t = globalize_rows(*t, row_begin); }

__global__ void merge_in_rank_order_kernel(const Top2* gathered, int count, std::int64_t cols, Top2* out) {
  *out = merge_in_rank_order(gathered, count, cols);
}

}  // namespace

Status launch_sum_in_rank_order(const float* gathered, int count, float* out, cudaStream_t stream) {
  sum_in_rank_order_kernel<<<1, 1, 0, stream>>>(gathered, count, out);
  GPUPRIMS_LAUNCH_CHECK();
  return Status::success;
}

Status launch_globalize_rows(Top2* t, std::int64_t row_begin, cudaStream_t stream) {
  globalize_rows_kernel<<<1, 1, 0, stream>>>(t, row_begin);
  GPUPRIMS_LAUNCH_CHECK();
  return Status::success;
}

Status launch_merge_in_rank_order(const Top2* gathered, int count, std::int64_t cols, Top2* out, cudaStream_t stream) {
  merge_in_rank_order_kernel<<<1, 1, 0, stream>>>(gathered, count, cols, out);
  GPUPRIMS_LAUNCH_CHECK();
  return Status::success;
}

}  // namespace gpuprims::dist::detail
