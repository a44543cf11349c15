#pragma once
// The GEMM epilogue every rung shares: v = alpha * acc (+ beta * C when beta != 0; C is never read
// when beta == 0, so NaN in C cannot leak), stored to C when requested, and - in the top-2
// instantiation - ranked into the thread's top-2, which finish() merges across the warp (shuffles),
// the block (shared memory) and the grid (last block done), reusing the reduce module's blocks.
#include <cstdint>

#include "gemm/src/detail/gemm_call.hpp"
#include "reduce/src/block/top2_grid.cuh"
#include "reduce/src/block/top2_op.hpp"

namespace gpuprims::detail {

template <EpilogueMode kMode>
class Epilogue {
  static constexpr bool kTop2 = kMode != EpilogueMode::store;

 public:
  __device__ explicit Epilogue(const EpilogueParams& params) : p_(params) {
    if constexpr (kTop2) best_ = Top2Partial::empty();
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

  // Whether a block's whole bm x bn tile lies inside C and C takes 16-byte accesses: then the block
  // may use apply4_interior, whose code is a small fraction of the checked path. The epilogue runs
  // once per block from a cold instruction cache, so the code it fetches, not its arithmetic, is
  // what it costs.
  __device__ __forceinline__ bool interior(std::int64_t row0, std::int64_t col0, int bm, int bn) const {
    return p_.c_vec4 && row0 + bm <= p_.m && col0 + bn <= p_.n;
  }

  // apply4 for a tile known to be interior (no bounds checks, always one 16-byte access).
  __device__ __forceinline__ void apply4_interior(std::int64_t r, std::int64_t c, float4 acc) {
    float* dst = p_.C + r * p_.ldc + c;
    float4 v = make_float4(p_.alpha * acc.x, p_.alpha * acc.y, p_.alpha * acc.z, p_.alpha * acc.w);
    if (p_.beta != 0.0f) {
      const float4 old = *reinterpret_cast<const float4*>(dst);
      v.x = fmaf(p_.beta, old.x, v.x);
      v.y = fmaf(p_.beta, old.y, v.y);
      v.z = fmaf(p_.beta, old.z, v.z);
      v.w = fmaf(p_.beta, old.w, v.w);
    }
    if (p_.store) *reinterpret_cast<float4*>(dst) = v;
    rank(v.x, r, c);
    rank(v.y, r, c + 1);
    rank(v.z, r, c + 2);
    rank(v.w, r, c + 3);
  }

  // Four results at (r, c..c+3), c a multiple of 4: one 16-byte access when C allows it.
  __device__ __forceinline__ void apply4(std::int64_t r, std::int64_t c, float4 acc) {
    if (r >= p_.m) return;
    if (p_.c_vec4 && c + 3 < p_.n) {
      apply4_interior(r, c, acc);
    } else {
      apply1(r, c, acc.x);
      apply1(r, c + 1, acc.y);
      apply1(r, c + 2, acc.z);
      apply1(r, c + 3, acc.w);
    }
  }

  // Every thread of every block calls this once, after its last apply. kThreads is the block size.
  template <int kThreads>
  __device__ __forceinline__ void finish(int tid) {
    if constexpr (kTop2) {
      packed_.merge_into(best_);
      top2_grid_finish<kThreads>(best_, p_.top2, tid, blockIdx.x, gridDim.x);
    }
  }

 private:
  // Outputs with fewer than 2^32 entries (any GEMM up to 65535 x 65535) rank with the branch-free
  // packed form; larger ones with the exact insertion, forming the 64-bit index only for entries
  // that can enter.
  __device__ __forceinline__ void rank(float v, std::int64_t r, std::int64_t c) {
    if constexpr (kMode == EpilogueMode::top2_packed) {
      const std::uint32_t index = static_cast<std::uint32_t>(r) * static_cast<std::uint32_t>(p_.n) +
                                  static_cast<std::uint32_t>(c);
      packed_.add(PackedTop2::pack(order_key(v), index));
    } else if constexpr (kMode == EpilogueMode::top2_wide) {
      const std::uint32_t key = order_key(v);
      if (best_.may_enter(key)) best_.insert_keyed(key, r * p_.n + c);
    }
  }

  EpilogueParams p_;
  Top2Partial best_;
  PackedTop2 packed_;
};

}  // namespace gpuprims::detail
