#pragma once
// Rung 3, no_bank_conflict: sequential addressing. The stride starts at kThreads/2 and halves; thread t
// adds sdata[t + s] into sdata[t]. Active threads stay contiguous (as in rung 2) and a warp now reads
// 32 consecutive words, one per bank, so the shared-memory bank conflicts of rung 2 are gone.
#include <cstdint>

#include "reduce/src/kernels/thread_load.cuh"

namespace gpuprims::reduce::detail {

// Also the tree of rung 4, which changes only the loading.
template <int kThreads>
__device__ __forceinline__ void tree_sequential(float* sdata, int tid) {
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
}

template <int kThreads>
__global__ void __launch_bounds__(kThreads)
    sum_no_bank_conflict(const float* __restrict__ in, std::int64_t n, float* __restrict__ out) {
  __shared__ float sdata[kThreads];
  const float s = tiled_block_sum<kThreads>(in, n, sdata, [](float* sd, int t) { tree_sequential<kThreads>(sd, t); });
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}

}  // namespace gpuprims::reduce::detail
