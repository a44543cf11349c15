#pragma once
// Argmin / argmax and min / max of float rows in the block-per-row and split kernels, at about the cost
// of a plain load. The generic path keys every element (argmin / argmax: a (key, 64-bit index) combine
// per vector, a 16-byte accumulator in the block tree; ncu put it at twice the instructions of CUB's
// kernel) and takes a branch per vector for min / max's ±0 and NaN.
// - Argmin / argmax: a thread meets its vectors in column order, so a vector can only take over the
//   thread's best by ranking strictly before it: its best by native min / max and one compare against
//   the best so far; the vector is kept, and its column found once, at the end. Ties keep the earlier
//   vector, as the lowest-index rule asks. Vectors the native instructions cannot rank go to the
//   thread's exact accumulator instead (argmin: all four NaN; argmax: any NaN, which ranks above
//   +inf); the two are combined at the end.
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

#include <gpuprims/device/device_reduce.cuh>
#include <gpuprims/device/reduce_ops.hpp>

#include "common/device/block_reduce.cuh"

namespace gpuprims::reduce::detail {

template <class Op>
inline constexpr bool kFloatArg =
    std::is_same_v<Op, ::gpuprims::device::ArgMin<float>> || std::is_same_v<Op, ::gpuprims::device::ArgMax<float>>;
template <class Op>
inline constexpr bool kFloatMinMax =
    std::is_same_v<Op, ::gpuprims::device::Min<float>> || std::is_same_v<Op, ::gpuprims::device::Max<float>>;

using ::gpuprims::device::reduce_detail::native_best;

// The best of four floats by device_reduce.cuh's native_best: argmin's fminf is NaN only when all four
// are; argmax's max.NaN.f32 is NaN when any is.
template <bool kMax>
__device__ __forceinline__ float best_of_four(const float (&x)[4]) {
  return native_best<kMax>(native_best<kMax>(x[0], x[1]), native_best<kMax>(x[2], x[3]));
}

// One thread's best vector among those it has taken, in column order; Col holds a column.
template <class Op, class Col>
struct FloatArgScan {
  static constexpr bool kMax = std::is_same_v<Op, ::gpuprims::device::ArgMax<float>>;
  // The best vector's best element (NaN before the first), its first column (-1: none taken), and it.
  float best = ::gpuprims::device::bit_cast<float>(0x7fffffffu);
  Col first = -1;
  float kept[4] = {0.0f, 0.0f, 0.0f, 0.0f};

  // The vector `raw` whose first column is c, after every vector taken so far. acc: the exact
  // accumulator, for the vectors the native instructions cannot rank.
  __device__ __forceinline__ void take(const Op& op, typename Op::Acc& acc, const uint4& raw, Col c) {
    float x[4];
    std::memcpy(x, &raw, sizeof x);
    const float m = best_of_four<kMax>(x);
    if (m != m) {
      acc = ::gpuprims::device::combine_run<4>(op, acc, x, c);
      return;
    }
    // best is NaN only before the first vector, which then always takes over (m is never NaN here).
    const bool ahead = kMax ? !(m <= best) : !(m >= best);
    best = ahead ? m : best;
    first = ahead ? c : first;
#pragma unroll
    for (int k = 0; k < 4; ++k) kept[k] = ahead ? x[k] : kept[k];
  }

  // acc combined with the best vector's first element equal to its best (-0 == +0, as the arg
  // operators rank them).
  __device__ __forceinline__ typename Op::Acc finish(const Op& op, typename Op::Acc acc) const {
    if (first < 0) return acc;
    int j = 3;
#pragma unroll
    for (int k = 2; k >= 0; --k) j = kept[k] == best ? k : j;
    return op.combine(acc, op.at(op.key_of(best), first + j));
  }
};

// One thread's min / max over the vectors it has taken, by the native instructions.
template <class Op>
struct FloatMinMaxScan {
  static constexpr bool kMax = std::is_same_v<Op, ::gpuprims::device::Max<float>>;
  // min: NaN, which min.f32 passes over, so a thread of NaN only stays NaN; max: -inf.
  float best = ::gpuprims::device::bit_cast<float>(kMax ? 0xff800000u : 0x7fffffffu);

  __device__ __forceinline__ void take(const uint4& raw) {
    float x[4];
    std::memcpy(x, &raw, sizeof x);
    best = native_best<kMax>(best, best_of_four<kMax>(x));
  }
  // False when the best is ±0, whose sign the native instructions may not have chosen as the order
  // keys do (-0 < +0): the caller then takes the vectors again on the exact path.
  __device__ __forceinline__ bool exact() const { return best != 0.0f; }
  // acc combined with the best (at least one vector taken, exact()).
  __device__ __forceinline__ typename Op::Acc finish(const Op& op, typename Op::Acc acc) const {
    return op.combine(acc, op.lift(best, 0));
  }
};

// The packed form of an argmin / argmax accumulator whose index is a column below kPackedNone.
inline constexpr std::uint32_t kPackedNone = 0xffffffffu;

template <class Op>
__device__ __forceinline__ std::uint64_t pack_arg(const typename Op::Acc& a) {
  constexpr bool kMax = std::is_same_v<Op, ::gpuprims::device::ArgMax<float>>;
  // argmax: larger keys win, so invert them; its empty key (0) becomes the largest word, as argmin's is.
  const std::uint32_t key = kMax ? ~a.key : a.key;
  const std::uint32_t col = a.index == ::gpuprims::device::kNoIndex ? kPackedNone : static_cast<std::uint32_t>(a.index);
  return (std::uint64_t{key} << 32) | col;
}

template <class Op>
__device__ __forceinline__ typename Op::Acc unpack_arg(const Op& op, std::uint64_t w) {
  constexpr bool kMax = std::is_same_v<Op, ::gpuprims::device::ArgMax<float>>;
  const auto hi = static_cast<std::uint32_t>(w >> 32);
  const auto col = static_cast<std::uint32_t>(w);
  if (col == kPackedNone) return op.identity();
  return op.at(kMax ? ~hi : hi, std::int64_t{col});
}

struct MinWord {
  __device__ __forceinline__ std::uint64_t operator()(std::uint64_t a, std::uint64_t b) const { return b < a ? b : a; }
};

// The block's combined accumulator (valid in thread 0) of a row whose columns are below `cols`: the
// packed tree for float argmin / argmax where every column fits 32 bits, the operator's own otherwise.
// (A warp step of one or two redux.sync instead of the shuffle tree, for these words and for min / max
// keys, measured the same on an H100: probe of session 21.)
template <int kThreads, class Op>
__device__ __forceinline__ typename Op::Acc row_block_reduce(const Op& op, typename Op::Acc acc, int tid,
                                                             std::int64_t cols) {
  if constexpr (kFloatArg<Op>) {
    if (cols < std::int64_t{kPackedNone}) {
      const std::uint64_t w = ::gpuprims::detail::block_reduce<kThreads>(pack_arg<Op>(acc), MinWord{}, tid);
      return unpack_arg(op, w);
    }
  }
  return ::gpuprims::detail::block_reduce<kThreads>(acc, ::gpuprims::device::CombineWith<Op>{op}, tid);
}

}  // namespace gpuprims::reduce::detail
