#pragma once
//! \file
//! The reduction operators of libgpuprims — sum, min, max, argmin, argmax — as host- and
//! device-callable objects over float, double, int32, uint32, int64, half and bfloat16. The library's
//! device-wide and row-wise reductions are built from them, and nvcc users may pass them (or their
//! own operator of the same shape) to the device templates in this folder. Plain C++17 when compiled
//! by a host compiler, so CPU code and tests can use the same algebra.
//!
//! An operator has this shape (the engine never needs more):
//! \code
//!   struct Op {
//!     using Input  = ...;   // the element type read
//!     using Acc    = ...;   // what is carried between combines (trivially copyable, size % 4 == 0)
//!     using Output = ...;   // what is written
//!     Acc    identity() const;                        // combine(identity(), a) == a
//!     Acc    lift(Input x, std::int64_t index) const; // one element at its (linear) index
//!     Acc    combine(Acc a, Acc b) const;             // associative; a covers lower indices than b
//!     Output finish(Acc a) const;                     // identity() here means "no element"
//!   };
//! \endcode
//! Determinism: min, max, argmin and argmax combine exactly (integer keys, ties by index), so their
//! result never depends on the combine order. Integer sums are exact (two's complement, wrapping).
//! Floating-point sums depend on the order; the engines fix it by (n, grid, alignment).
//!
//! Order of floating-point values (the top-2 order, gpuprims/top2.hpp): -inf < ... < +inf < NaN.
//! - min / max: -0.0 < +0.0 (as IEEE 754-2019 minimum / maximum), so min of {+0, -0} is -0 and max
//!   is +0 whatever the order; min ignores NaN unless every element is NaN, max returns NaN when any
//!   element is NaN; a NaN result is the canonical quiet NaN.
//! - argmin / argmax: -0.0 == +0.0 (as in top-2); ties go to the lowest index; the value is reported
//!   as a number (-0.0 as +0.0, any NaN as the canonical quiet NaN), as MinEntry reports it.
//! - Empty input: sum 0; min +inf (largest value for integers); max -inf (lowest value for
//!   integers); argmin / argmax {index -1, value as min / max of nothing}.
//! half and bfloat16 compare as their float values and sum in float.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

#if defined(__CUDACC__)
#define GPUPRIMS_OPS_HD __host__ __device__ __forceinline__
#else
#define GPUPRIMS_OPS_HD inline
#endif

namespace gpuprims {

//! The result of argmin / argmax: the chosen element's linear index (-1 when there is none) and its
//! value. Every byte is a member (`reserved` fills what would be padding), so a result is initialized
//! in every byte and two results compare equal with memcmp exactly when their members are equal.
template <class T, bool kPadded = (sizeof(T) < 8)>
struct ArgResult {
  std::int64_t index;                     //!< position of the element, or -1 for an empty input
  T value;                                //!< its value (see the order notes above)
  unsigned char reserved[8 - sizeof(T)];  //!< always 0
};
//! 8-byte element types need no filler.
template <class T>
struct ArgResult<T, false> {
  std::int64_t index;  //!< position of the element, or -1 for an empty input
  T value;             //!< its value
};

//! The type a sum of T is accumulated in and returned as: float for float, half and bfloat16;
//! double for double; int64 for int32 and int64 (wrapping modulo 2^64); uint64 for uint32.
template <class T>
struct SumType;
template <>
struct SumType<float> {
  using type = float;  //!< float sums in float
};
template <>
struct SumType<double> {
  using type = double;  //!< double sums in double
};
template <>
struct SumType<__half> {
  using type = float;  //!< half sums in float
};
template <>
struct SumType<__nv_bfloat16> {
  using type = float;  //!< bfloat16 sums in float
};
template <>
struct SumType<std::int32_t> {
  using type = std::int64_t;  //!< int32 sums in int64
};
template <>
struct SumType<std::uint32_t> {
  using type = std::uint64_t;  //!< uint32 sums in uint64
};
template <>
struct SumType<std::int64_t> {
  using type = std::int64_t;  //!< int64 sums in int64, wrapping
};
//! The sum type of T.
template <class T>
using sum_type_t = typename SumType<T>::type;

//! The element types every operator of the library is precompiled for.
template <class T>
inline constexpr bool is_reducible_v =
    std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, __half> ||
    std::is_same_v<T, __nv_bfloat16> || std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::uint32_t> ||
    std::is_same_v<T, std::int64_t>;

namespace device {

//! Bit copy between same-sized trivially copyable types, host and device (half and bfloat16 go
//! through their __half_raw / __nv_bfloat16_raw forms instead).
template <class To, class From>
GPUPRIMS_OPS_HD To bit_cast(const From& from) {
  static_assert(sizeof(To) == sizeof(From), "same size");
  To to;
  std::memcpy(&to, &from, sizeof(To));
  return to;
}

//! Order keys: a monotone map from T to an unsigned integer of T's width, so that min, max and the
//! (key, index) order of argmin / argmax are integer comparisons. Two reserved keys: `kEmptyLow`
//! (0, below every element) and `kEmptyHigh` (all ones, above every element) stand for "no element"
//! in max and min; for floating-point types every NaN maps to `kNaN` (all ones - 1), after +inf. For
//! integer types the reserved keys are also the keys of the lowest and largest values, which are then
//! what min and max of nothing return anyway.
template <class T>
struct OrderKey;

namespace ops_detail {
template <class Bits>
struct FloatKeys {
  static constexpr Bits kSign = Bits{1} << (sizeof(Bits) * 8 - 1);
  static constexpr Bits kEmptyLow = 0;
  static constexpr Bits kEmptyHigh = static_cast<Bits>(~Bits{0});
  static constexpr Bits kNaN = static_cast<Bits>(~Bits{0} - 1);
  // abs_inf: the bits of +inf. merge_zeros: -0 and +0 share +0's key (argmin / argmax).
  GPUPRIMS_OPS_HD static constexpr Bits key(Bits u, Bits abs_inf, bool merge_zeros) {
    const Bits mag = static_cast<Bits>(u & ~kSign);
    if (mag > abs_inf) return kNaN;
    if (merge_zeros && mag == 0) u = 0;
    return (u & kSign) ? static_cast<Bits>(~u) : static_cast<Bits>(u | kSign);
  }
  // The bits a key stands for (NaN: canonical quiet NaN `qnan`; the empty keys: -inf / +inf).
  GPUPRIMS_OPS_HD static constexpr Bits bits(Bits k, Bits abs_inf, Bits qnan) {
    if (k == kNaN) return qnan;
    if (k == kEmptyHigh) return abs_inf;
    if (k == kEmptyLow) return static_cast<Bits>(abs_inf | kSign);
    return (k & kSign) ? static_cast<Bits>(k & ~kSign) : static_cast<Bits>(~k);
  }
};
}  // namespace ops_detail

//! float: 32-bit keys.
template <>
struct OrderKey<float> {
  using Key = std::uint32_t;  //!< key type
  using K = ops_detail::FloatKeys<Key>;
  static constexpr Key kEmptyLow = K::kEmptyLow, kEmptyHigh = K::kEmptyHigh;  //!< reserved keys
  //! Key for min / max (merge_zeros false) or argmin / argmax (true).
  GPUPRIMS_OPS_HD static Key key(float v, bool merge_zeros) {
    return K::key(bit_cast<Key>(v), 0x7f800000u, merge_zeros);
  }
  //! The value a key stands for.
  GPUPRIMS_OPS_HD static float value(Key k) { return bit_cast<float>(K::bits(k, 0x7f800000u, 0x7fc00000u)); }
};

//! double: 64-bit keys.
template <>
struct OrderKey<double> {
  using Key = std::uint64_t;  //!< key type
  using K = ops_detail::FloatKeys<Key>;
  static constexpr Key kEmptyLow = K::kEmptyLow, kEmptyHigh = K::kEmptyHigh;  //!< reserved keys
  //! Key for min / max (merge_zeros false) or argmin / argmax (true).
  GPUPRIMS_OPS_HD static Key key(double v, bool merge_zeros) {
    return K::key(bit_cast<Key>(v), 0x7ff0000000000000ull, merge_zeros);
  }
  //! The value a key stands for.
  GPUPRIMS_OPS_HD static double value(Key k) {
    return bit_cast<double>(K::bits(k, 0x7ff0000000000000ull, 0x7ff8000000000000ull));
  }
};

//! half: 16-bit keys (kept in 32 bits, the shuffle's word).
template <>
struct OrderKey<__half> {
  using Key = std::uint32_t;  //!< key type (values below 2^16)
  using K = ops_detail::FloatKeys<std::uint16_t>;
  static constexpr Key kEmptyLow = K::kEmptyLow, kEmptyHigh = K::kEmptyHigh;  //!< reserved keys
  //! Key for min / max (merge_zeros false) or argmin / argmax (true).
  GPUPRIMS_OPS_HD static Key key(__half v, bool merge_zeros) {
    return K::key(static_cast<__half_raw>(v).x, 0x7c00u, merge_zeros);
  }
  //! The value a key stands for.
  GPUPRIMS_OPS_HD static __half value(Key k) {
    __half_raw r{};
    r.x = K::bits(static_cast<std::uint16_t>(k), 0x7c00u, 0x7e00u);
    return __half(r);
  }
};

//! bfloat16: 16-bit keys (kept in 32 bits, the shuffle's word).
template <>
struct OrderKey<__nv_bfloat16> {
  using Key = std::uint32_t;  //!< key type (values below 2^16)
  using K = ops_detail::FloatKeys<std::uint16_t>;
  static constexpr Key kEmptyLow = K::kEmptyLow, kEmptyHigh = K::kEmptyHigh;  //!< reserved keys
  //! Key for min / max (merge_zeros false) or argmin / argmax (true).
  GPUPRIMS_OPS_HD static Key key(__nv_bfloat16 v, bool merge_zeros) {
    return K::key(static_cast<__nv_bfloat16_raw>(v).x, 0x7f80u, merge_zeros);
  }
  //! The value a key stands for.
  GPUPRIMS_OPS_HD static __nv_bfloat16 value(Key k) {
    __nv_bfloat16_raw r{};
    r.x = K::bits(static_cast<std::uint16_t>(k), 0x7f80u, 0x7fc0u);
    return __nv_bfloat16(r);
  }
};

namespace ops_detail {
template <class T, class Key>
struct IntKeys {
  using Unsigned = std::make_unsigned_t<T>;
  static constexpr Key kEmptyLow = 0;
  static constexpr Key kEmptyHigh = static_cast<Key>(std::numeric_limits<Unsigned>::max());
  static constexpr Unsigned kFlip = std::is_signed_v<T> ? Unsigned{1} << (sizeof(T) * 8 - 1) : Unsigned{0};
  GPUPRIMS_OPS_HD static Key key(T v, bool) { return static_cast<Key>(static_cast<Unsigned>(v) ^ kFlip); }
  GPUPRIMS_OPS_HD static T value(Key k) { return static_cast<T>(static_cast<Unsigned>(k) ^ kFlip); }
};
}  // namespace ops_detail

//! int32: the sign bit flipped.
template <>
struct OrderKey<std::int32_t> : ops_detail::IntKeys<std::int32_t, std::uint32_t> {
  using Key = std::uint32_t;  //!< key type
};
//! uint32: the value itself.
template <>
struct OrderKey<std::uint32_t> : ops_detail::IntKeys<std::uint32_t, std::uint32_t> {
  using Key = std::uint32_t;  //!< key type
};
//! int64: the sign bit flipped.
template <>
struct OrderKey<std::int64_t> : ops_detail::IntKeys<std::int64_t, std::uint64_t> {
  using Key = std::uint64_t;  //!< key type
};

//! Sum of T in sum_type_t<T>. Integer sums add as unsigned (wrapping, no undefined overflow).
template <class T>
struct Sum {
  using Input = T;               //!< element
  using Acc = sum_type_t<T>;     //!< accumulator
  using Output = sum_type_t<T>;  //!< result
  //! 0.
  GPUPRIMS_OPS_HD Acc identity() const { return Acc{0}; }
  //! The element, widened.
  GPUPRIMS_OPS_HD Acc lift(T x, std::int64_t) const {
    if constexpr (std::is_same_v<T, __half>) return __half2float(x);
    else if constexpr (std::is_same_v<T, __nv_bfloat16>) return __bfloat162float(x);
    else return static_cast<Acc>(x);
  }
  //! a + b.
  GPUPRIMS_OPS_HD Acc combine(Acc a, Acc b) const {
    if constexpr (std::is_integral_v<Acc>) {
      using U = std::make_unsigned_t<Acc>;
      return static_cast<Acc>(static_cast<U>(a) + static_cast<U>(b));
    } else {
      return a + b;
    }
  }
  //! The sum.
  GPUPRIMS_OPS_HD Output finish(Acc a) const { return a; }
};

//! Smallest element (-0 < +0, NaN after +inf); combines keys, so the order never matters.
template <class T>
struct Min {
  using Input = T;                        //!< element
  using Acc = typename OrderKey<T>::Key;  //!< its order key
  using Output = T;                       //!< result
  //! Above every key: min of nothing is +inf (the largest value for integers).
  GPUPRIMS_OPS_HD Acc identity() const { return OrderKey<T>::kEmptyHigh; }
  //! The element's key.
  GPUPRIMS_OPS_HD Acc lift(T x, std::int64_t) const { return OrderKey<T>::key(x, false); }
  //! The smaller key.
  GPUPRIMS_OPS_HD Acc combine(Acc a, Acc b) const { return b < a ? b : a; }
  //! Its value.
  GPUPRIMS_OPS_HD Output finish(Acc a) const { return OrderKey<T>::value(a); }
};

//! Largest element (-0 < +0, NaN after +inf, so any NaN wins).
template <class T>
struct Max {
  using Input = T;                        //!< element
  using Acc = typename OrderKey<T>::Key;  //!< its order key
  using Output = T;                       //!< result
  //! Below every key: max of nothing is -inf (the lowest value for integers).
  GPUPRIMS_OPS_HD Acc identity() const { return OrderKey<T>::kEmptyLow; }
  //! The element's key.
  GPUPRIMS_OPS_HD Acc lift(T x, std::int64_t) const { return OrderKey<T>::key(x, false); }
  //! The larger key.
  GPUPRIMS_OPS_HD Acc combine(Acc a, Acc b) const { return b > a ? b : a; }
  //! Its value.
  GPUPRIMS_OPS_HD Output finish(Acc a) const { return OrderKey<T>::value(a); }
};

//! (key, index) carried by argmin / argmax; index kNoIndex marks "no element".
template <class Key>
struct KeyIndex {
  std::int64_t index;  //!< linear index of the element
  Key key;             //!< its order key (argmin / argmax keys: -0 == +0)
  Key pad;             //!< 0 (keeps the size a multiple of 8 for the shuffle and every byte defined)
};
//! Index of "no element": larger than any real index, so it loses every tie.
inline constexpr std::int64_t kNoIndex = std::numeric_limits<std::int64_t>::max();

//! Position of the smallest element: (key, index) order, -0 == +0, NaN after +inf, lowest index on ties.
template <class T>
struct ArgMin {
  using Input = T;                                  //!< element
  using Acc = KeyIndex<typename OrderKey<T>::Key>;  //!< (key, index)
  using Output = ArgResult<T>;                      //!< {index, value}
  //! No element.
  GPUPRIMS_OPS_HD Acc identity() const { return Acc{kNoIndex, OrderKey<T>::kEmptyHigh, 0}; }
  //! The element at `index`.
  GPUPRIMS_OPS_HD Acc lift(T x, std::int64_t index) const { return Acc{index, OrderKey<T>::key(x, true), 0}; }
  //! An element's key (-0 and +0 share one).
  GPUPRIMS_OPS_HD typename OrderKey<T>::Key key_of(T x) const { return OrderKey<T>::key(x, true); }
  //! Key a wins over key b outright (equal keys fall to the index).
  GPUPRIMS_OPS_HD bool precedes(typename OrderKey<T>::Key a, typename OrderKey<T>::Key b) const { return a < b; }
  //! The accumulator of one element given by its key: lift(x, index) == at(key_of(x), index).
  GPUPRIMS_OPS_HD Acc at(typename OrderKey<T>::Key key, std::int64_t index) const { return Acc{index, key, 0}; }
  //! The smaller (key, index).
  GPUPRIMS_OPS_HD Acc combine(Acc a, Acc b) const {
    return (b.key < a.key || (b.key == a.key && b.index < a.index)) ? b : a;
  }
  //! {index, value}, or {-1, min of nothing}.
  GPUPRIMS_OPS_HD Output finish(Acc a) const {
    Output r{};
    const bool none = a.index == kNoIndex;
    r.index = none ? -1 : a.index;
    r.value = OrderKey<T>::value(none ? OrderKey<T>::kEmptyHigh : a.key);
    return r;
  }
};

//! Position of the largest element: -0 == +0, NaN after +inf (the first NaN wins), lowest index on ties.
template <class T>
struct ArgMax {
  using Input = T;                                  //!< element
  using Acc = KeyIndex<typename OrderKey<T>::Key>;  //!< (key, index)
  using Output = ArgResult<T>;                      //!< {index, value}
  //! No element.
  GPUPRIMS_OPS_HD Acc identity() const { return Acc{kNoIndex, OrderKey<T>::kEmptyLow, 0}; }
  //! The element at `index`.
  GPUPRIMS_OPS_HD Acc lift(T x, std::int64_t index) const { return Acc{index, OrderKey<T>::key(x, true), 0}; }
  //! An element's key (-0 and +0 share one).
  GPUPRIMS_OPS_HD typename OrderKey<T>::Key key_of(T x) const { return OrderKey<T>::key(x, true); }
  //! Key a wins over key b outright (equal keys fall to the index).
  GPUPRIMS_OPS_HD bool precedes(typename OrderKey<T>::Key a, typename OrderKey<T>::Key b) const { return a > b; }
  //! The accumulator of one element given by its key: lift(x, index) == at(key_of(x), index).
  GPUPRIMS_OPS_HD Acc at(typename OrderKey<T>::Key key, std::int64_t index) const { return Acc{index, key, 0}; }
  //! The larger key; the lower index on equal keys.
  GPUPRIMS_OPS_HD Acc combine(Acc a, Acc b) const {
    return (b.key > a.key || (b.key == a.key && b.index < a.index)) ? b : a;
  }
  //! {index, value}, or {-1, max of nothing}.
  GPUPRIMS_OPS_HD Output finish(Acc a) const {
    Output r{};
    const bool none = a.index == kNoIndex;
    r.index = none ? -1 : a.index;
    r.value = OrderKey<T>::value(none ? OrderKey<T>::kEmptyLow : a.key);
    return r;
  }
};

//! An operator ranked by a key with the index breaking ties (ArgMin, ArgMax: key_of, precedes, at).
template <class Op, class = void>
struct ranks_by_key : std::false_type {};
template <class Op>
struct ranks_by_key<
    Op, std::void_t<decltype(std::declval<const Op&>().precedes(
                        std::declval<const Op&>().key_of(std::declval<typename Op::Input>()),
                        std::declval<const Op&>().key_of(std::declval<typename Op::Input>()))),
                    decltype(std::declval<const Op&>().at(
                        std::declval<const Op&>().key_of(std::declval<typename Op::Input>()), std::int64_t{}))>>
    : std::true_type {};

//! acc combined with kCount consecutive elements, x[j] at index first + j: the same bits as kCount
//! combines of lift(x[j], first + j). For an operator ranked by key the run's best element is found on
//! keys alone (the first of equal keys has the lowest index) and combined once: a quarter of the work
//! for eight half or bfloat16 elements of a 16-byte load.
template <int kCount, class Op>
GPUPRIMS_OPS_HD typename Op::Acc combine_run(const Op& op, typename Op::Acc acc, const typename Op::Input* x,
                                             std::int64_t first) {
  static_assert(kCount >= 1, "a run has elements");
  if constexpr (ranks_by_key<Op>::value) {
    auto best = op.key_of(x[0]);
    int best_j = 0;
    for (int j = 1; j < kCount; ++j) {
      const auto key = op.key_of(x[j]);
      if (op.precedes(key, best)) {
        best = key;
        best_j = j;
      }
    }
    return op.combine(acc, op.at(best, first + best_j));
  } else {
    for (int j = 0; j < kCount; ++j) acc = op.combine(acc, op.lift(x[j], first + j));
    return acc;
  }
}

//! An operator's combine as a binary functor (what warp_reduce / block_reduce take).
template <class Op>
struct CombineWith {
  Op op;  //!< the operator
  //! op.combine(a, b).
  GPUPRIMS_OPS_HD typename Op::Acc operator()(typename Op::Acc a, typename Op::Acc b) const { return op.combine(a, b); }
};

}  // namespace device
}  // namespace gpuprims

#undef GPUPRIMS_OPS_HD
