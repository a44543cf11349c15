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

// How a load uses the caches. keep: the default, for operands several blocks read. stream: an operand
// each element of which one block reads once (the few-rows kernel's B, the few-columns kernel's A),
// loaded evict-first (ld.global.cs, __ldcs). On an H200 the few-rows kernel alone read B about 10%
// faster so (1 x 4096 x 4096: 25.7-25.9 against 22.9-23.0 us; 4 x 8192 x 4096: 43.7-43.9 against
// 39.7; results/nvidia-h200/probe-fewrows-ld-run-DM.txt), where the read-only path (__ldg) changed
// nothing; whole calls of both kernels took 5-14% less time (4096 x 1 x 4096: 30.8 against 26.4 us;
// results/nvidia-h200/README.md, session 38, run DO).
enum class LoadPolicy { keep, stream };

// One load of *p under the policy.
template <LoadPolicy kPolicy, class T>
__device__ __forceinline__ T load_with(const T* p) {
  if constexpr (kPolicy == LoadPolicy::stream) return __ldcs(p);
  else return *p;
}

// Four consecutive elements p[0..3] of one row, of which the first `valid` exist (valid <= 0: none;
// >= 4: all); row_ok false means the row does not exist. With kVec (16-byte aligned p: base aligned,
// ld % 4 == 0, column % 4 == 0) a full vector is one 16-byte load; otherwise, and at the edge, each
// element is loaded (or zeroed) on its own.
template <bool kVec, LoadPolicy kPolicy = LoadPolicy::keep>
__device__ __forceinline__ float4 load4_valid(const float* p, bool row_ok, std::int64_t valid) {
  if (!row_ok || valid <= 0) return make_float4(0.f, 0.f, 0.f, 0.f);
  if (kVec && valid >= 4) return load_with<kPolicy>(reinterpret_cast<const float4*>(p));
  float4 r;
  r.x = load_with<kPolicy>(p);
  r.y = valid > 1 ? load_with<kPolicy>(p + 1) : 0.f;
  r.z = valid > 2 ? load_with<kPolicy>(p + 2) : 0.f;
  r.w = valid > 3 ? load_with<kPolicy>(p + 3) : 0.f;
  return r;
}

// p[0..3] as one 16-byte load when `pred`, else zeros, without a branch: the registers are zeroed and
// the load is predicated off (p must be 16-byte aligned whenever pred holds). A branch around each
// load, as load4_valid has, costs an edge tile's k loop its convergence barriers and jumps on every
// slab; in SASS this is one predicated LDG.E.128.
__device__ __forceinline__ float4 load4_if(const float* p, bool pred) {
  float4 r;
  asm volatile(
      "{\n"
      "  .reg .pred q;\n"
      "  setp.ne.b32 q, %5, 0;\n"
      "  mov.b32 %0, 0;\n"
      "  mov.b32 %1, 0;\n"
      "  mov.b32 %2, 0;\n"
      "  mov.b32 %3, 0;\n"
      "  @q ld.global.v4.f32 {%0, %1, %2, %3}, [%4];\n"
      "}\n"
      : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w)
      : "l"(p), "r"(static_cast<int>(pred)));
  return r;
}

}  // namespace gpuprims::detail
