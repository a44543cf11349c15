#pragma once
// Argmin / argmax and min / max of float, half and bfloat16 rows in the lane-group, block-per-row and
// split kernels, at about the cost of a plain load. The generic path keys every element (argmin /
// argmax: a (key, 64-bit index) combine per vector, a 16-byte accumulator in the block tree; ncu put it
// at twice the instructions of CUB's kernel) and takes a branch per vector for min / max's ±0 and NaN.
// - Argmin / argmax: a thread meets its vectors in column order, so a vector can only take over the
//   thread's best by ranking strictly before it: its best by native min / max (paired for half and
//   bfloat16, compared as floats, which hold them exactly) and one compare against the best so far;
//   the vector is kept, and its column found once, at the end. Ties keep the earlier vector, as the
//   lowest-index rule asks. Vectors the native instructions cannot rank go to the thread's exact
//   accumulator instead (argmin: all NaN; argmax: any NaN, which ranks above +inf); the two are
//   combined at the end.
// - Min / max: the native instructions over every element, keyed once at the end. They rank every
//   value as the order keys do but -0 against +0, so a thread whose best is ±0 reads its vectors again
//   on the exact path.
// - The block tree of argmin / argmax combines one 64-bit word per thread, key << 32 | column (argmax:
//   the key inverted), whose smallest value is the winner, lowest column first: a 64-bit min and two
//   shuffles a level.
// The library builds without -ftz: a subnormal is kept, so a non-NaN native best equals one of the
// elements.
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <gpuprims/device/device_reduce.cuh>
#include <gpuprims/device/reduce_ops.hpp>

#include "common/device/block_reduce.cuh"

namespace gpuprims::reduce::detail {

namespace dev = ::gpuprims::device;

// The element types whose vectors the native min / max instructions rank, and the operators the scans
// below take.
// Half and bfloat16 need the paired min / max of sm_80 (__hmax2_nan), as device_reduce.cuh's
// combine_vector does; older targets take the generic path.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
inline constexpr bool kPairedMinMax = false;
#else
inline constexpr bool kPairedMinMax = true;
#endif
template <class T>
inline constexpr bool kNativeElement = std::is_same_v<T, float> ||
                                       (kPairedMinMax &&
                                        (std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>));
template <class Op, class T = typename Op::Input>
inline constexpr bool kScannedArg = kNativeElement<T> &&
                                    (std::is_same_v<Op, dev::ArgMin<T>> || std::is_same_v<Op, dev::ArgMax<T>>);
template <class Op, class T = typename Op::Input>
inline constexpr bool kScannedMinMax = kNativeElement<T> &&
                                       (std::is_same_v<Op, dev::Min<T>> || std::is_same_v<Op, dev::Max<T>>);
template <class Op>
inline constexpr bool kArgMax = std::is_same_v<Op, dev::ArgMax<typename Op::Input>>;

using ::gpuprims::device::reduce_detail::native_best;
using ::gpuprims::device::reduce_detail::paired_best;
using ::gpuprims::device::reduce_detail::paired_first_equal;

// The best of four floats by device_reduce.cuh's native_best: argmin's fminf is NaN only when all four
// are; argmax's max.NaN.f32 is NaN when any is.
template <bool kMax>
__device__ __forceinline__ float best_of_four(const float (&x)[4]) {
  return native_best<kMax>(native_best<kMax>(x[0], x[1]), native_best<kMax>(x[2], x[3]));
}

// One 16-byte vector of T as the scans see it: its best element as a float (NaN as best_of_four /
// paired_best make it), the position of its first element equal to a value it holds, and T <-> float.
template <class T>
struct NativeVector {
  using T2 = std::conditional_t<std::is_same_v<T, __half>, __half2, __nv_bfloat162>;
  static constexpr int kCount = 8;
  __device__ __forceinline__ static float to_float(T x) {
    if constexpr (std::is_same_v<T, __half>) return __half2float(x);
    else return __bfloat162float(x);
  }
  __device__ __forceinline__ static T from_float(float x) {  // exact: x came from a T
    if constexpr (std::is_same_v<T, __half>) return __float2half_rn(x);
    else return __float2bfloat16_rn(x);
  }
  template <bool kMax>
  __device__ __forceinline__ static float best(const uint4& raw) {
    T2 w[4];
    std::memcpy(w, &raw, sizeof w);
    return to_float(paired_best<kMax>(w));
  }
  // -0 == +0; v must be one of the elements.
  __device__ __forceinline__ static int first_equal(const uint4& raw, float v) {
    T2 w[4];
    std::memcpy(w, &raw, sizeof w);
    return paired_first_equal(w, from_float(v));
  }
};
template <>
struct NativeVector<float> {
  static constexpr int kCount = 4;
  __device__ __forceinline__ static float to_float(float x) { return x; }
  __device__ __forceinline__ static float from_float(float x) { return x; }
  template <bool kMax>
  __device__ __forceinline__ static float best(const uint4& raw) {
    float x[4];
    std::memcpy(x, &raw, sizeof x);
    return best_of_four<kMax>(x);
  }
  __device__ __forceinline__ static int first_equal(const uint4& raw, float v) {
    float x[4];
    std::memcpy(x, &raw, sizeof x);
    return ::gpuprims::device::reduce_detail::first_equal(x, v);
  }
};

// One thread's best vector among those it has taken, in column order; Col holds a column.
template <class Op, class Col>
struct ArgScan {
  using T = typename Op::Input;
  using V = NativeVector<T>;
  static constexpr bool kMax = kArgMax<Op>;
  // The best vector's best element (NaN before the first), its first column (-1: none taken), and it.
  float best = dev::bit_cast<float>(0x7fffffffu);
  Col first = -1;
  uint4 kept = {0u, 0u, 0u, 0u};

  // The vector `raw` whose first column is c, after every vector taken so far. acc: the exact
  // accumulator, for the vectors the native instructions cannot rank.
  __device__ __forceinline__ void take(const Op& op, typename Op::Acc& acc, const uint4& raw, Col c) {
    const float m = V::template best<kMax>(raw);
    if (m != m) {
      T x[V::kCount];
      std::memcpy(static_cast<void*>(x), &raw, sizeof raw);
      acc = dev::combine_run<V::kCount>(op, acc, x, c);
      return;
    }
    // best is NaN only before the first vector, which then always takes over (m is never NaN here).
    const bool ahead = kMax ? !(m <= best) : !(m >= best);
    best = ahead ? m : best;
    first = ahead ? c : first;
    kept.x = ahead ? raw.x : kept.x;
    kept.y = ahead ? raw.y : kept.y;
    kept.z = ahead ? raw.z : kept.z;
    kept.w = ahead ? raw.w : kept.w;
  }

  // acc combined with the best vector's first element equal to its best (-0 == +0, as the arg
  // operators rank them).
  __device__ __forceinline__ typename Op::Acc finish(const Op& op, typename Op::Acc acc) const {
    if (first < 0) return acc;
    const int j = V::first_equal(kept, best);
    return op.combine(acc, op.at(op.key_of(V::from_float(best)), first + j));
  }
};

// One thread's min / max over the vectors it has taken, by the native instructions.
template <class Op>
struct MinMaxScan {
  using T = typename Op::Input;
  using V = NativeVector<T>;
  static constexpr bool kMax = std::is_same_v<Op, dev::Max<T>>;
  // min: NaN, which min.f32 passes over, so a thread of NaN only stays NaN; max: -inf.
  float best = dev::bit_cast<float>(kMax ? 0xff800000u : 0x7fffffffu);

  __device__ __forceinline__ void take(const uint4& raw) {
    best = native_best<kMax>(best, V::template best<kMax>(raw));
  }
  // False when the best is ±0, whose sign the native instructions may not have chosen as the order
  // keys do (-0 < +0): the caller then takes the vectors again on the exact path.
  __device__ __forceinline__ bool exact() const { return best != 0.0f; }
  // acc combined with the best (at least one vector taken, exact()).
  __device__ __forceinline__ typename Op::Acc finish(const Op& op, typename Op::Acc acc) const {
    return op.combine(acc, op.lift(V::from_float(best), 0));
  }
};

// The packed form of an argmin / argmax accumulator whose index is a column below kPackedNone.
inline constexpr std::uint32_t kPackedNone = 0xffffffffu;

template <class Op>
__device__ __forceinline__ std::uint64_t pack_arg(const typename Op::Acc& a) {
  static_assert(std::is_same_v<decltype(a.key), std::uint32_t>, "32-bit order keys (float, half, bfloat16)");
  constexpr bool kMax = kArgMax<Op>;
  // argmax: larger keys win, so invert them; its empty key (0) becomes the largest word, as argmin's is.
  const std::uint32_t key = kMax ? ~a.key : a.key;
  const std::uint32_t col = a.index == ::gpuprims::device::kNoIndex ? kPackedNone : static_cast<std::uint32_t>(a.index);
  return (std::uint64_t{key} << 32) | col;
}

template <class Op>
__device__ __forceinline__ typename Op::Acc unpack_arg(const Op& op, std::uint64_t w) {
  constexpr bool kMax = kArgMax<Op>;
  const auto hi = static_cast<std::uint32_t>(w >> 32);
  const auto col = static_cast<std::uint32_t>(w);
  if (col == kPackedNone) return op.identity();
  return op.at(kMax ? ~hi : hi, std::int64_t{col});
}

struct MinWord {
  __device__ __forceinline__ std::uint64_t operator()(std::uint64_t a, std::uint64_t b) const { return b < a ? b : a; }
};

// The block's combined accumulator (valid in thread 0) of a row whose columns are below `cols`: the
// packed tree for float, half and bfloat16 argmin / argmax where every column fits 32 bits, the
// operator's own otherwise.
// (A warp step of one or two redux.sync instead of the shuffle tree, for these words and for min / max
// keys, measured the same on an H100: probe of session 21.)
template <int kThreads, class Op>
__device__ __forceinline__ typename Op::Acc row_block_reduce(const Op& op, typename Op::Acc acc, int tid,
                                                             std::int64_t cols) {
  if constexpr (kScannedArg<Op>) {
    if (cols < std::int64_t{kPackedNone}) {
      const std::uint64_t w = ::gpuprims::detail::block_reduce<kThreads>(pack_arg<Op>(acc), MinWord{}, tid);
      return unpack_arg(op, w);
    }
  }
  return ::gpuprims::detail::block_reduce<kThreads>(acc, ::gpuprims::device::CombineWith<Op>{op}, tid);
}

}  // namespace gpuprims::reduce::detail
