#pragma once
// Rung 4, add_during_load: each thread first adds its whole share (warp chunks of 16-byte loads) of the input while
// loading it (16-byte loads, several in flight), so a block runs the rung-3 tree once instead of once
// per tile of kThreads items: far fewer barriers and shared-memory round trips per item, and loads
// wide and deep enough to saturate DRAM.
#include <cstdint>

#include "reduce/src/kernels/03_no_bank_conflict.cuh"
#include "reduce/src/kernels/thread_load.cuh"
#include "reduce/src/plan.hpp"

namespace gpuprims::reduce::detail {

template <int kThreads>
__global__ void __launch_bounds__(kThreads)
    sum_add_during_load(const float* __restrict__ in, std::int64_t n, float* __restrict__ out) {
  __shared__ float sdata[kThreads];
  const int tid = static_cast<int>(threadIdx.x);
  const std::int64_t nthreads = static_cast<std::int64_t>(gridDim.x) * kThreads;
  const std::int64_t gtid = static_cast<std::int64_t>(blockIdx.x) * kThreads + tid;
  sdata[tid] = thread_sum<vector_unroll(Algorithm::add_during_load)>(in, n, gtid, nthreads);
  __syncthreads();
  tree_sequential<kThreads>(sdata, tid);
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

}  // namespace gpuprims::reduce::detail
