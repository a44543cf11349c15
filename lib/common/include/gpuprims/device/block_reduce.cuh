#pragma once
//! \file
//! Block-level reduction (nvcc only) built on the warp reduction: each warp reduces, warp results meet
//! in shared memory, and the first warp reduces those. The result is valid in thread 0. Every thread
//! of the block must call it; it ends with a barrier, so it may be called again right away.
#include <gpuprims/device/warp_reduce.cuh>

namespace gpuprims::device {

//! kThreads is the block size, a power-of-two multiple of 32; tid the thread's linear index; op a
//! binary functor (a from the lower thread). A fixed tree: reproducible.
template <int kThreads, class T, class Op>
__device__ __forceinline__ T block_reduce(T value, Op op, int tid) {
  static_assert(kThreads % kWarpSize == 0, "whole warps");
  constexpr int kWarps = kThreads / kWarpSize;
  static_assert((kWarps & (kWarps - 1)) == 0, "power-of-two warp count");
  // Raw storage: T may have a default constructor, which a __shared__ variable may not run.
  __shared__ __align__(16) unsigned char warp_storage[kWarps * sizeof(T)];
  T* warp_results = reinterpret_cast<T*>(warp_storage);

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

}  // namespace gpuprims::device
