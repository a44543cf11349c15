#pragma once
// Rung 1, baseline: one item per thread per tile into shared memory, then a tree with interleaved
// addressing: in step s, thread t adds sdata[t + s] into sdata[t] when t % (2s) == 0. Every warp stays
// busy in every step although most of its threads idle (divergent warps), and % is slow. The ladder's
// starting point; a block loops over tiles and thread 0 adds the tile sums in order.
#include <cstdint>

#include "reduce/src/kernels/thread_load.cuh"

namespace gpuprims::reduce::detail {

template <int kThreads>
__device__ __forceinline__ void tree_interleaved(float* sdata, int tid) {
  for (int s = 1; s < kThreads; s *= 2) {
    if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
}

// out[blockIdx.x] = sum of the tiles this block owns. Launch with kThreads threads per block.
template <int kThreads>
__global__ void __launch_bounds__(kThreads)
    sum_baseline(const float* __restrict__ in, std::int64_t n, float* __restrict__ out) {
  __shared__ float sdata[kThreads];
  const float s = tiled_block_sum<kThreads>(in, n, sdata, [](float* sd, int t) { tree_interleaved<kThreads>(sd, t); });
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}

}  // namespace gpuprims::reduce::detail
