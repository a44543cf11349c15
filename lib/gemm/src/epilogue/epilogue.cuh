#pragma once
// The GEMM epilogue every rung shares: v = alpha * acc (+ beta * C when beta != 0; C is never read
// when beta == 0, so NaN in C cannot leak), stored to C when requested, and - in the top-2
// instantiations - ranked into the thread's top-2, which finish() merges into the grid's result:
// packed words merged by atomics (top2_atomic.cuh), or for outputs of 2^32+ entries the warp/block/
// last-block-done merge (top2_grid.cuh). Kernels call prefetch() before their main loop, so the read
// of the grid's current bound (packed mode) is in flight while they compute, and construct the
// epilogue after it.
#include <cstdint>
#include <type_traits>

#include "gemm/src/detail/gemm_call.hpp"
#include "reduce/src/block/top2_atomic.cuh"
#include "reduce/src/block/top2_grid.cuh"
#include "reduce/src/block/top2_op.hpp"

namespace gpuprims::detail {

template <EpilogueMode kMode>
class Epilogue {
  static constexpr bool kTop2 = kMode != EpilogueMode::store;
  static constexpr bool kPacked = kMode == EpilogueMode::top2_packed;

 public:
  // What a kernel reads at its start, so the read's latency passes during its main loop: in packed
  // mode the grid's current bound (0 and no read otherwise).
  __device__ static float prefetch(const EpilogueParams& params) {
    if constexpr (kPacked) return top2_atomic_bound(params.top2_atomic);
    return 0.0f;
  }

  __device__ Epilogue(const EpilogueParams& params, float prefetched) : p_(params), bound_(prefetched) {
    if constexpr (kMode == EpilogueMode::top2_wide) best_ = Top2Partial::empty();
  }

  // One result at (r, c); ignored outside the m x n window.
  __device__ __forceinline__ void apply1(std::int64_t r, std::int64_t c, float acc) {
    if (r >= p_.m || c >= p_.n) return;
    float* dst = p_.C + r * p_.ldc + c;
    float v = p_.alpha * acc;
    if (p_.beta != 0.0f) v = fmaf(p_.beta, *dst, v);
    if (p_.store) *dst = v;
    rank(v, r, c);
  }

  // Whether C takes 16-byte accesses (aligned, ldc % 4 == 0; always true when C is not stored).
  __device__ __forceinline__ bool vector_c() const { return p_.c_vec4; }

  // Whether a block's whole bm x bn tile lies inside C and C takes 16-byte accesses: then the block
  // may use apply4_vec in a fixed form (with_interior_form), whose code is a small fraction of the
  // checked path.
  __device__ __forceinline__ bool interior(std::int64_t row0, std::int64_t col0, int bm, int bn) const {
    return p_.c_vec4 && row0 + bm <= p_.m && col0 + bn <= p_.n;
  }

  // Calls f(kStore, kBeta) (std::integral_constant<bool, ...>) with the call's fixed choices: C stored
  // or not, beta == 0 or not (validation allows no C only with beta == 0). An interior tile runs its
  // whole epilogue under one such call, so its code is one straight run with no per-vector branches:
  // the epilogue's instructions come from a cold cache once per tile, and with short k (many small
  // tiles) their fetch stalled the SM more than their execution (ncu: "no instruction").
  template <class F>
  __device__ __forceinline__ void with_interior_form(F&& f) const {
    using T = std::true_type;
    using F0 = std::false_type;
    if (!p_.store) f(F0{}, F0{});
    else if (p_.beta == 0.0f) f(T{}, F0{});
    else f(T{}, T{});
  }

  // Four results at (r, c..c+3) with one 16-byte access and no bounds checks. store / beta: whether C
  // is stored, whether beta != 0. Interior tiles pass the constants with_interior_form chose, so the
  // tests fold away; edge tiles pass the call's values.
  __device__ __forceinline__ void apply4_vec(std::int64_t r, std::int64_t c, float4 acc, bool store, bool beta) {
    const float4 v = value4(r, c, acc, store, beta);
    if constexpr (kPacked) {
      // One vote per four results: past the first blocks almost no warp has a candidate, so the
      // ranking is skipped as a whole (a warp-uniform branch, not predicated code).
      if (__any_sync(__activemask(), may_enter4(v))) rank4_packed(r, c, v);
    } else {
      rank(v.x, r, c);
      rank(v.y, r, c + 1);
      rank(v.z, r, c + 2);
      rank(v.w, r, c + 3);
    }
  }

  // The pieces of apply4_vec, for an interior tile that votes once for all its results (packed mode,
  // see warp_tile_epilogue): the values (stored when C is), whether any may enter the grid's result,
  // and their ranking.
  __device__ __forceinline__ float4 value4(std::int64_t r, std::int64_t c, float4 acc, bool store, bool beta) {
    float* dst = p_.C + r * p_.ldc + c;
    float4 v = make_float4(p_.alpha * acc.x, p_.alpha * acc.y, p_.alpha * acc.z, p_.alpha * acc.w);
    if (beta) {
      const float4 old = *reinterpret_cast<const float4*>(dst);
      v.x = fmaf(p_.beta, old.x, v.x);
      v.y = fmaf(p_.beta, old.y, v.y);
      v.z = fmaf(p_.beta, old.z, v.z);
      v.w = fmaf(p_.beta, old.w, v.w);
    }
    if (store) *reinterpret_cast<float4*>(dst) = v;
    return v;
  }
  __device__ __forceinline__ bool may_enter4(float4 v) const {
    return top2_may_enter(v.x, bound_) | top2_may_enter(v.y, bound_) | top2_may_enter(v.z, bound_) |
           top2_may_enter(v.w, bound_);
  }
  __device__ __forceinline__ void rank4_packed(std::int64_t r, std::int64_t c, float4 v) {
    static_assert(kPacked, "packed mode only");
    const std::uint32_t index = packed_index(r, c);
    packed_.add(PackedTop2::pack(order_key(v.x), index));
    packed_.add(PackedTop2::pack(order_key(v.y), index + 1));
    packed_.add(PackedTop2::pack(order_key(v.z), index + 2));
    packed_.add(PackedTop2::pack(order_key(v.w), index + 3));
  }

  // Four results at (r, c..c+3), c a multiple of 4: one 16-byte access when C allows it.
  __device__ __forceinline__ void apply4(std::int64_t r, std::int64_t c, float4 acc) {
    if (r >= p_.m) return;
    if (p_.c_vec4 && c + 3 < p_.n) {
      apply4_vec(r, c, acc, p_.store, p_.beta != 0.0f);
    } else {
      apply1(r, c, acc.x);
      apply1(r, c + 1, acc.y);
      apply1(r, c + 2, acc.z);
      apply1(r, c + 3, acc.w);
    }
  }

  // Every thread of every block calls this once, after its last apply, with its warp converged.
  // kThreads is the block size.
  template <int kThreads>
  __device__ __forceinline__ void finish(int tid) {
    if constexpr (kPacked) {
      top2_atomic_push_warp(packed_, p_.top2_atomic);
    } else if constexpr (kTop2) {
      top2_grid_finish<kThreads>(best_, p_.top2, tid, blockIdx.x, gridDim.x);
    }
  }

 private:
  // Outputs with fewer than 2^32 entries (any GEMM up to 65535 x 65535) rank entries that may still
  // enter the grid's result with the branch-free packed form; larger ones with the exact insertion,
  // forming the 64-bit index only for entries that can enter the thread's pair.
  __device__ __forceinline__ void rank(float v, std::int64_t r, std::int64_t c) {
    if constexpr (kPacked) {
      if (top2_may_enter(v, bound_)) packed_.add(PackedTop2::pack(order_key(v), packed_index(r, c)));
    } else if constexpr (kMode == EpilogueMode::top2_wide) {
      const std::uint32_t key = order_key(v);
      if (best_.may_enter(key)) best_.insert_keyed(key, r * p_.n + c);
    }
  }

  // Row-major linear index; exact in 32 bits because packed mode has fewer than 2^32 outputs.
  __device__ __forceinline__ std::uint32_t packed_index(std::int64_t r, std::int64_t c) const {
    return static_cast<std::uint32_t>(r) * static_cast<std::uint32_t>(p_.n) + static_cast<std::uint32_t>(c);
  }

  EpilogueParams p_;
  Top2Partial best_;   // top2_wide
  PackedTop2 packed_;  // top2_packed
  float bound_;        // top2_packed: entries above it cannot enter the grid's result
};

}  // namespace gpuprims::detail
