#pragma once
// Rung 6, shuffle: the block tree runs in registers. Each warp reduces with __shfl_down_sync (no shared
// memory, no barrier), warp sums meet in shared memory (one word per warp, one barrier), and the first
// warp shuffles those. Shared-memory traffic drops from one word per thread per step to one per warp.
// The default variant. It also keeps twice rung 5's 16-byte loads in flight (vector_unroll: 8, with
// a minimum of resident blocks so that ptxas issues them all before the first add; plan.hpp).
#include <cstdint>

#include "common/device/block_reduce.cuh"
#include "reduce/src/block/sum_op.hpp"
#include "reduce/src/kernels/thread_load.cuh"
#include "reduce/src/plan.hpp"

namespace gpuprims::reduce::detail {

template <int kThreads>
__global__ void __launch_bounds__(kThreads, ReduceTuning::kShuffleMinBlocksPerSm)
    sum_shuffle(const float* __restrict__ in, std::int64_t n, float* __restrict__ out) {
  const int tid = static_cast<int>(threadIdx.x);
  const std::int64_t nthreads = static_cast<std::int64_t>(gridDim.x) * kThreads;
  const std::int64_t gtid = static_cast<std::int64_t>(blockIdx.x) * kThreads + tid;
  const float v = thread_sum<vector_unroll(Algorithm::shuffle)>(in, n, gtid, nthreads);
  const float s = ::gpuprims::detail::block_reduce<kThreads>(v, ::gpuprims::detail::SumOp{}, tid);
  if (tid == 0) out[blockIdx.x] = s;
}

}  // namespace gpuprims::reduce::detail
