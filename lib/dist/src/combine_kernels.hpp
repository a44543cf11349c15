#pragma once
// Launchers of the three one-thread kernels that finish a distributed call on each rank (the
// functions they run are in combine.hpp). Each enqueues on `stream` and checks the launch.
#include <cuda_runtime_api.h>

#include <cstdint>

#include <gpuprims/status.hpp>
#include <gpuprims/top2.hpp>

namespace gpuprims::dist::detail {

// *out = sum_in_rank_order(gathered, count).
Status launch_sum_in_rank_order(const float* gathered, int count, float* out, cudaStream_t stream);
// *t = globalize_rows(*t, row_begin), in place.
Status launch_globalize_rows(Top2* t, std::int64_t row_begin, cudaStream_t stream);
// *out = merge_in_rank_order(gathered, count, cols).
Status launch_merge_in_rank_order(const Top2* gathered, int count, std::int64_t cols, Top2* out, cudaStream_t stream);

}  // namespace gpuprims::dist::detail
