#pragma once
// Block-level reduction built on the warp reduction: each warp reduces, warp results meet in shared
// memory, and the first warp reduces those. The result is valid in thread 0. Every thread of the block
// must call it; it ends with a barrier, so it may be called again right away.
#include "common/device/warp_reduce.cuh"

namespace gpuprims::detail {

// kThreads is the block size, a power-of-two multiple of 32; tid the thread's linear index.
template <int kThreads, class T, class Op>
__device__ __forceinline__ T block_reduce(T value, Op op, int tid) {
  static_assert(kThreads % kWarpSize == 0, "whole warps");
  constexpr int kWarps = kThreads / kWarpSize;
  static_assert((kWarps & (kWarps - 1)) == 0, "power-of-two warp count");
  __shared__ T warp_results[kWarps];

  value = warp_reduce(value, op);
  if (tid % kWarpSize == 0) warp_results[tid / kWarpSize] = value;
  __syncthreads();
  if constexpr (kWarps > 1) {
    if (tid < kWarpSize) {
      value = warp_results[tid < kWarps ? tid : 0];
      value = warp_reduce<kWarps>(value, op);
    }
  }
  __syncthreads();
  return value;
}

}  // namespace gpuprims::detail
