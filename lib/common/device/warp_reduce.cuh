#pragma once
// Warp-level building blocks of the shared device layer: a shuffle that moves any trivially copyable
// value, and a warp reduction with any associative operator. reduce's shuffle rung, the grid merges of
// the top-2 (this folder) and gemm's narrow paths and split-K reduction build on it.
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace gpuprims::detail {

inline constexpr int kWarpSize = 32;
inline constexpr unsigned kFullMask = 0xffffffffu;

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

template <>
__device__ __forceinline__ float shfl_down<float>(float value, int delta) {
  return __shfl_down_sync(kFullMask, value, delta);
}

// Reduces over the first kLanes lanes of a full warp (kLanes a power of two, <= 32); lane 0 holds the
// result. All 32 lanes must call it.
template <int kLanes = kWarpSize, class T, class Op>
__device__ __forceinline__ T warp_reduce(T value, Op op) {
  static_assert(kLanes > 0 && kLanes <= kWarpSize && (kLanes & (kLanes - 1)) == 0, "power of two lanes");
#pragma unroll
  for (int offset = kLanes / 2; offset > 0; offset /= 2) value = op(value, shfl_down(value, offset));
  return value;
}

}  // namespace gpuprims::detail
