#pragma once
// Rung 2, no_divergence: the same pairs as rung 1, but step s gives pair k to thread k (index = 2*s*t),
// so the active threads are contiguous: whole warps retire early instead of every warp running with
// most lanes masked off, and there is no %. Strided shared-memory addressing now causes bank conflicts.
#include <cstdint>

#include "reduce/src/kernels/thread_load.cuh"

namespace gpuprims::reduce::detail {

template <int kThreads>
__device__ __forceinline__ void tree_strided(float* sdata, int tid) {
  for (int s = 1; s < kThreads; s *= 2) {
    const int index = 2 * s * tid;
    if (index < kThreads) sdata[index] += sdata[index + s];
    __syncthreads();
  }
}

template <int kThreads>
__global__ void __launch_bounds__(kThreads)
    sum_no_divergence(const float* __restrict__ in, std::int64_t n, float* __restrict__ out) {
  __shared__ float sdata[kThreads];
  const float s = tiled_block_sum<kThreads>(in, n, sdata, [](float* sd, int t) { tree_strided<kThreads>(sd, t); });
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}

}  // namespace gpuprims::reduce::detail
