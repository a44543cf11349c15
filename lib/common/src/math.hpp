#pragma once
// Small integer helpers shared by launch arithmetic everywhere. Host and device.
#include <cstdint>

#include "common/src/host_device.hpp"

namespace gpuprims::detail {

template <class T>
GPUPRIMS_HD constexpr T ceil_div(T a, T b) {
  return (a + b - 1) / b;
}

template <class T>
GPUPRIMS_HD constexpr T round_up(T a, T multiple) {
  return ceil_div(a, multiple) * multiple;
}

template <class T>
GPUPRIMS_HD constexpr T min_of(T a, T b) {
  return a < b ? a : b;
}

template <class T>
GPUPRIMS_HD constexpr T max_of(T a, T b) {
  return a < b ? b : a;
}

// Alignment of a pointer, in bytes.
inline bool is_aligned(const void* p, std::uintptr_t bytes) { return reinterpret_cast<std::uintptr_t>(p) % bytes == 0; }

// A float pointer the API accepts: 4-byte aligned (null is checked separately).
inline bool float_aligned(const void* p) { return is_aligned(p, alignof(float)); }

// a * b without signed overflow; false when the product does not fit in int64.
inline bool checked_mul(std::int64_t a, std::int64_t b, std::int64_t* out) {
  return !__builtin_mul_overflow(a, b, out);
}

}  // namespace gpuprims::detail
