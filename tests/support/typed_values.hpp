#pragma once
// Test inputs for the typed reductions, host-only: the special values of every reducible type (±0,
// ±inf, NaNs with other payloads, extremes, subnormals), random values drawn from all bit patterns or
// from a small range (many ties), and the list of types as a GoogleTest type list.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "support/typed_reference.hpp"

namespace gpuprims::test {

using ReducibleTypes =
    ::testing::Types<float, double, __half, __nv_bfloat16, std::int32_t, std::uint32_t, std::int64_t>;

// An element with the given raw bits (the low sizeof(T) bytes).
template <class T>
T from_bits(std::uint64_t b) {
  T x;
  if constexpr (sizeof(T) == 2) {
    const auto v = static_cast<std::uint16_t>(b);
    std::memcpy(static_cast<void*>(&x), &v, 2);
  } else if constexpr (sizeof(T) == 4) {
    const auto v = static_cast<std::uint32_t>(b);
    std::memcpy(static_cast<void*>(&x), &v, 4);
  } else {
    std::memcpy(static_cast<void*>(&x), &b, 8);
  }
  return x;
}

// ±0, ±inf, NaNs (quiet, signalling-looking, negative), extremes, the smallest subnormal, ±1.
template <class T>
std::vector<T> special_values() {
  std::vector<T> v;
  if constexpr (is_float_like_v<T>) {
    const int bits = static_cast<int>(sizeof(T) * 8);
    const std::uint64_t sign = std::uint64_t{1} << (bits - 1);
    const std::uint64_t inf = bits_of(largest<T>());
    const std::uint64_t quiet = bits_of(canonical_nan<T>());
    for (std::uint64_t b : {std::uint64_t{0}, sign, inf, inf | sign, quiet, quiet | sign, inf + 1, (inf + 1) | sign,
                            quiet + 3, inf - 1, (inf - 1) | sign, std::uint64_t{1}, std::uint64_t{1} | sign})
      v.push_back(from_bits<T>(b));
    v.push_back(from_double<T>(1.0));
    v.push_back(from_double<T>(-1.0));
  } else {
    v = {std::numeric_limits<T>::lowest(),
         std::numeric_limits<T>::max(),
         T{0},
         T{1},
         static_cast<T>(-1),
         static_cast<T>(std::numeric_limits<T>::max() - 1),
         static_cast<T>(std::numeric_limits<T>::lowest() + 1)};
  }
  return v;
}

// Any bit pattern (floats: NaNs and infinities included), or a small integer value (ties).
template <class T>
T random_value(std::mt19937_64& rng, bool few_values) {
  if (few_values) {
    const int k = static_cast<int>(rng() % 7) - 3;
    if constexpr (std::is_unsigned_v<T>) return static_cast<T>(k + 3);
    else if constexpr (is_float_like_v<T>) return from_double<T>(static_cast<double>(k));
    else return static_cast<T>(k);
  }
  return from_bits<T>(rng());
}

// n values: random, with specials placed at random positions one time in eight.
template <class T>
std::vector<T> mixed_values(std::size_t n, std::mt19937_64& rng, bool few_values) {
  const std::vector<T> specials = special_values<T>();
  std::vector<T> x(n);
  for (auto& v : x) v = (rng() % 8 == 0) ? specials[rng() % specials.size()] : random_value<T>(rng, few_values);
  return x;
}

}  // namespace gpuprims::test
