#pragma once
//! \file
//! Warp-level building blocks (nvcc only): a shuffle that moves any trivially copyable value, and a
//! warp reduction with any associative operator. The block reduction (block_reduce.cuh), the
//! device-wide reduction (device_reduce.cuh) and the library's own kernels build on them.
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace gpuprims::device {

//! Threads per warp.
inline constexpr int kWarpSize = 32;
//! Every lane of a warp, for the *_sync intrinsics.
inline constexpr unsigned kFullMask = 0xffffffffu;

//! __shfl_down_sync for any trivially copyable value whose size is a multiple of 4 bytes (moved as
//! 32-bit words). Every lane of the warp must call it.
template <class T>
__device__ __forceinline__ T shfl_down(T value, int delta) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) % 4 == 0, "shuffled in 32-bit words");
  constexpr int kWords = sizeof(T) / 4;
  std::uint32_t words[kWords];
  std::memcpy(words, &value, sizeof(T));
#pragma unroll
  for (int w = 0; w < kWords; ++w) words[w] = __shfl_down_sync(kFullMask, words[w], delta);
  T out;
  std::memcpy(&out, words, sizeof(T));
  return out;
}

//! float: one native shuffle.
template <>
__device__ __forceinline__ float shfl_down<float>(float value, int delta) {
  return __shfl_down_sync(kFullMask, value, delta);
}

//! Reduces over the first kLanes lanes of a full warp (kLanes a power of two, <= 32) with the binary
//! functor op (op(a, b), a from the lower lane); lane 0 holds the result. All 32 lanes must call it.
//! The combine tree is fixed, so the result is reproducible.
template <int kLanes = kWarpSize, class T, class Op>
__device__ __forceinline__ T warp_reduce(T value, Op op) {
  static_assert(kLanes > 0 && kLanes <= kWarpSize && (kLanes & (kLanes - 1)) == 0, "power of two lanes");
#pragma unroll
  for (int offset = kLanes / 2; offset > 0; offset /= 2) value = op(value, shfl_down(value, offset));
  return value;
}

}  // namespace gpuprims::device
