#pragma once
// Bounds-checked loads of operand tiles, written once for every rung. Anything outside the matrix
// reads as 0, so edge tiles need no special code in the compute loops (0 * 0 adds nothing; rows or
// columns past the edge are never stored or ranked).
#include <cstdint>

namespace gpuprims::detail {

// Element (row, col) of a rows x cols row-major matrix with stride ld, or 0 outside it.
__device__ __forceinline__ float load_or_zero(const float* M, std::int64_t ld, std::int64_t row, std::int64_t col,
                                              std::int64_t rows, std::int64_t cols) {
  return (row < rows && col < cols) ? M[row * ld + col] : 0.0f;
}

// How many of a vector's four elements exist when `left` elements of its row (or k range) remain from
// its first one: 0 when none (left <= 0), 4 when all.
__device__ __forceinline__ int valid_in_vec4(std::int64_t left) {
  return static_cast<int>(left < 0 ? 0 : (left > 4 ? 4 : left));
}

// Four consecutive elements p[0..3] of one row, of which the first `valid` exist (valid <= 0: none;
// >= 4: all); row_ok false means the row does not exist. With kVec (16-byte aligned p: base aligned,
// ld % 4 == 0, column % 4 == 0) a full vector is one 16-byte load; otherwise, and at the edge, each
// element is loaded (or zeroed) on its own.
template <bool kVec>
__device__ __forceinline__ float4 load4_valid(const float* p, bool row_ok, std::int64_t valid) {
  if (!row_ok || valid <= 0) return make_float4(0.f, 0.f, 0.f, 0.f);
  if (kVec && valid >= 4) return *reinterpret_cast<const float4*>(p);
  float4 r;
  r.x = p[0];
  r.y = valid > 1 ? p[1] : 0.f;
  r.z = valid > 2 ? p[2] : 0.f;
  r.w = valid > 3 ? p[3] : 0.f;
  return r;
}

}  // namespace gpuprims::detail
