#pragma once
// CPU references of the typed reductions (sum, min, max, argmin, argmax over every reducible type),
// written from the rules of gpuprims/device/reduce_ops.hpp's header comment and not from its order
// keys, so tests compare two independent derivations. Values are compared as numbers (half and
// bfloat16 as their float values); NaN, ±0, ties and empty inputs follow the stated rules; results are
// returned as the bits the library must write. Float and double sums come with the bound of
// docs/ERROR-BOUNDS.md. Header-only, host-only.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include <gpuprims/device/device_reduce_plan.hpp>
#include <gpuprims/device/reduce_ops.hpp>

#include "reduce/src/typed_policy.hpp"

namespace gpuprims::test {

template <class T>
inline constexpr bool is_float_like_v =
    std::is_floating_point_v<T> || std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>;

// The value of an element as a double (exact for every reducible type but int64, which the references
// never convert: integers compare as integers).
template <class T>
double to_double(T x) {
  if constexpr (std::is_same_v<T, __half>) return static_cast<double>(__half2float(x));
  else if constexpr (std::is_same_v<T, __nv_bfloat16>) return static_cast<double>(__bfloat162float(x));
  else return static_cast<double>(x);
}

// An element from a double (rounded to nearest for half / bfloat16 / float).
template <class T>
T from_double(double v) {
  if constexpr (std::is_same_v<T, __half>) return __float2half_rn(static_cast<float>(v));
  else if constexpr (std::is_same_v<T, __nv_bfloat16>) return __float2bfloat16_rn(static_cast<float>(v));
  else return static_cast<T>(v);
}

template <class T>
bool is_nan(T x) {
  if constexpr (is_float_like_v<T>) return std::isnan(to_double(x));
  else return false;
}
template <class T>
bool is_negative_zero(T x) {
  if constexpr (is_float_like_v<T>) return to_double(x) == 0.0 && std::signbit(to_double(x));
  else return false;
}

// Bits of a value, widened to 64 (half / bfloat16: 16 bits), for exact comparisons.
template <class T>
std::uint64_t bits_of(T x) {
  if constexpr (sizeof(T) == 2) {
    std::uint16_t b;
    std::memcpy(&b, &x, 2);
    return b;
  } else if constexpr (sizeof(T) == 4) {
    std::uint32_t b;
    std::memcpy(&b, &x, 4);
    return b;
  } else {
    std::uint64_t b;
    std::memcpy(&b, &x, 8);
    return b;
  }
}

// Special values of T: the canonical quiet NaN, ±inf (integers: their extremes).
template <class T>
T canonical_nan() {
  if constexpr (std::is_same_v<T, __half>) {
    __half_raw r{};
    r.x = 0x7e00u;
    return __half(r);
  } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    __nv_bfloat16_raw r{};
    r.x = 0x7fc0u;
    return __nv_bfloat16(r);
  } else if constexpr (std::is_same_v<T, float>) {
    const std::uint32_t b = 0x7fc00000u;
    float f;
    std::memcpy(&f, &b, 4);
    return f;
  } else {
    const std::uint64_t b = 0x7ff8000000000000ull;
    double d;
    std::memcpy(&d, &b, 8);
    return d;
  }
}
template <class T>
T largest() {
  if constexpr (is_float_like_v<T>) return from_double<T>(std::numeric_limits<double>::infinity());
  else return std::numeric_limits<T>::max();
}
template <class T>
T lowest() {
  if constexpr (is_float_like_v<T>) return from_double<T>(-std::numeric_limits<double>::infinity());
  else return std::numeric_limits<T>::lowest();
}

// a before b in the min / max order: -inf < ... < -0 < +0 < ... < +inf < NaN (NaN == NaN). With
// merge_zeros (argmin / argmax) -0 == +0.
template <class T>
bool value_less(T a, T b, bool merge_zeros) {
  if constexpr (is_float_like_v<T>) {
    if (is_nan(b)) return !is_nan(a);
    if (is_nan(a)) return false;
    const double x = to_double(a), y = to_double(b);
    if (x == 0.0 && y == 0.0) return !merge_zeros && std::signbit(x) && !std::signbit(y);
    return x < y;
  } else {
    return a < b;
  }
}

// What min / max / argmin / argmax report for an element: NaN as the canonical NaN; argmin / argmax
// report -0 as +0.
template <class T>
T reported(T x, bool merge_zeros) {
  if constexpr (is_float_like_v<T>) {
    if (is_nan(x)) return canonical_nan<T>();
    if (merge_zeros && is_negative_zero(x)) return from_double<T>(0.0);
  }
  return x;
}

// min: -0 < +0; NaN only when every element is NaN; +inf (largest) for nothing.
template <class T>
T reference_min(const std::vector<T>& x) {
  bool any = false;
  T best = largest<T>();
  for (const T& v : x) {
    if (is_nan(v)) continue;
    if (!any || value_less(v, best, false)) best = v;
    any = true;
  }
  if (!any && !x.empty()) return canonical_nan<T>();  // all NaN
  return best;
}

// max: -0 < +0; NaN when any element is NaN; -inf (lowest) for nothing.
template <class T>
T reference_max(const std::vector<T>& x) {
  T best = lowest<T>();
  for (const T& v : x) {
    if (is_nan(v)) return canonical_nan<T>();
    if (value_less(best, v, false)) best = v;
  }
  return best;
}

// argmin / argmax: -0 == +0, NaN after +inf, the lowest index on ties (a strict comparison while
// scanning in index order keeps the first).
template <class T>
ArgResult<T> reference_arg(const std::vector<T>& x, bool want_max) {
  ArgResult<T> r{};
  r.index = -1;
  r.value = want_max ? lowest<T>() : largest<T>();
  for (std::size_t i = 0; i < x.size(); ++i) {
    const bool better = r.index < 0 || (want_max ? value_less(r.value, x[i], true) : value_less(x[i], r.value, true));
    if (better) {
      r.index = static_cast<std::int64_t>(i);
      r.value = x[i];
    }
  }
  r.value = reported(r.value, true);
  return r;
}

// Integer sums: exact modulo 2^64 in sum_type_t<T>.
template <class T>
sum_type_t<T> reference_int_sum(const std::vector<T>& x) {
  std::uint64_t s = 0;
  for (const T& v : x) s += static_cast<std::uint64_t>(static_cast<sum_type_t<T>>(v));
  return static_cast<sum_type_t<T>>(s);
}

// Floating-point sums: the sum and the sum of magnitudes in long double (64-bit significand on x86,
// far finer than double's).
struct WideSum {
  long double sum = 0;
  long double abs_sum = 0;
};
template <class T>
WideSum reference_float_sum(const std::vector<T>& x) {
  WideSum r;
  for (const T& v : x) {
    const long double d = static_cast<long double>(to_double(v));
    r.sum += d;
    r.abs_sum += std::fabs(d);
  }
  return r;
}

// The bound of docs/ERROR-BOUNDS.md for a sum accumulated in Acc (float: u = 2^-24; double: 2^-53),
// c = 2: chains of `items` per thread, a tree of log2(threads), `passes` passes.
template <class Acc>
double typed_sum_error_bound(double abs_sum, double items, double log2_threads, double passes) {
  const double u = std::is_same_v<Acc, double> ? std::ldexp(1.0, -53) : std::ldexp(1.0, -24);
  return 2.0 * (items + log2_threads + passes + 2.0) * u * abs_sum;
}

// The `items` of that bound for a non-float typed sum of n elements of T (docs/ERROR-BOUNDS.md): pass 1
// over the fewest blocks a GPU of `sms` SMs may use, each thread's warp chunks
// (warp_chunk_vectors_bound) counted element by element plus the head, the tail and the accumulators'
// tree; pass 2 over the most partials. The unroll is the library's (TypedPolicy).
template <class T>
double typed_sum_chain_items(std::int64_t n, std::int64_t sms) {
  namespace dev = ::gpuprims::device;
  using P = ::gpuprims::reduce::detail::TypedPolicy<dev::Sum<T>>;
  const std::int64_t most = dev::reduce_max_blocks<P>(n, sizeof(T));
  const std::int64_t fewest = std::max<std::int64_t>(1, std::min<std::int64_t>(most, sms));
  const std::int64_t V = dev::vector_width(sizeof(T));
  const std::int64_t vectors = dev::warp_chunk_vectors_bound((n + V - 1) / V, fewest * P::kThreads, P::kUnroll);
  const std::int64_t pass2 = most > 1 ? (most + P::kThreads - 1) / P::kThreads : 0;
  return static_cast<double>(V * vectors + 2 + P::kUnroll + pass2);
}

}  // namespace gpuprims::test
