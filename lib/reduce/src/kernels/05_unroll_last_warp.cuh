#pragma once
// Rung 5, unroll_last_warp: the rung-4 tree stops at stride 64; the first warp finishes the last six
// steps unrolled, synchronizing with __syncwarp() (a warp-level barrier and memory fence) instead of
// block-wide __syncthreads(), so the last steps cost no block barriers and no loop overhead. Reads and
// writes of each step are split by __syncwarp(), which keeps it correct under independent thread
// scheduling (Volta and later) and clean under racecheck.
#include <cstdint>

#include "reduce/src/kernels/thread_load.cuh"
#include "reduce/src/plan.hpp"

namespace gpuprims::reduce::detail {

// Reduces sdata[0, kThreads) to a value valid in thread 0.
template <int kThreads>
__device__ __forceinline__ float tree_unrolled_last_warp(float* sdata, int tid) {
  static_assert(kThreads >= 64, "the last warp starts from 64 values");
  for (int s = kThreads / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  float v = 0.0f;
  if (tid < 32) {
    // sdata[0, 64) was last written before the barrier above. In every step all 32 lanes first read
    // (lanes >= s compute values nobody uses), then all write, with __syncwarp() between.
    v = sdata[tid] + sdata[tid + 32];
#pragma unroll
    for (int s = 16; s > 0; s >>= 1) {
      sdata[tid] = v;
      __syncwarp();
      v += sdata[tid + s];
      __syncwarp();
    }
  }
  return v;
}

template <int kThreads>
__global__ void __launch_bounds__(kThreads)
    sum_unroll_last_warp(const float* __restrict__ in, std::int64_t n, float* __restrict__ out) {
  __shared__ float sdata[kThreads];
  const int tid = static_cast<int>(threadIdx.x);
  const std::int64_t nthreads = static_cast<std::int64_t>(gridDim.x) * kThreads;
  const std::int64_t gtid = static_cast<std::int64_t>(blockIdx.x) * kThreads + tid;
  sdata[tid] = thread_sum<vector_unroll(Algorithm::unroll_last_warp)>(in, n, gtid, nthreads);
  __syncthreads();
  const float s = tree_unrolled_last_warp<kThreads>(sdata, tid);
  if (tid == 0) out[blockIdx.x] = s;
}

}  // namespace gpuprims::reduce::detail
