#pragma once
// The GEMM epilogue every rung shares: v = alpha * acc (+ beta * C when beta != 0; C is never read
// when beta == 0, so NaN in C cannot leak), stored to C when requested, then handed to the kernel's
// visitor (store_visitor.cuh lists the interface; visitors.cuh all of them), which may rank it, count
// it, reduce it. The mainloop hands over accumulators and knows nothing of what the visitor does.
// Kernels call prefetch() before their main loop, so a visitor's read of global state (the top-2's
// current bound) is in flight while they compute, and construct the epilogue after it (rung 9's tile
// kernels call it after the loop where blocks share an SM and the visitor allows it,
// Visitor::kPrefetchAfterLoop: double_buffered_tile says why).
#include <cstdint>
#include <limits>
#include <type_traits>

#include "common/src/math.hpp"
#include "gemm/src/epilogue/output.hpp"
#include "gemm/src/epilogue/visitors.cuh"

namespace gpuprims::detail {

// What an interior tile votes with (a voting visitor's may_take): the least of the thread's values by
// fminf, which drops NaN, so a thread of NaN only votes with +inf. Both tile epilogues that vote fold
// their values into one.
struct VoteLeast {
  float value = std::numeric_limits<float>::infinity();
  __device__ __forceinline__ void add(float4 v) { value = fminf(value, fminf(fminf(v.x, v.y), fminf(v.z, v.w))); }
};

template <class Visitor>
class Epilogue {
 public:
  __device__ static float prefetch(const EpilogueParams<Visitor>& params) { return Visitor::prefetch(params.visit); }
  // What a kernel that reads nothing ahead constructs the epilogue with: NaN, no bound (every result
  // may enter a top-2 visitor's pair until its own second entry bounds it).
  static constexpr float kNothingPrefetched = std::numeric_limits<float>::quiet_NaN();

  __device__ Epilogue(const EpilogueParams<Visitor>& params, float prefetched)
      : out_(params.out), visitor_(params.visit, params.out.n, prefetched) {}

  // One result at (r, c); ignored outside the m x n window.
  __device__ __forceinline__ void apply1(std::int64_t r, std::int64_t c, float acc) {
    if (r >= out_.m || c >= out_.n) return;
    float* dst = out_.C + r * out_.ldc + c;
    float v = out_.alpha * acc;
    if (out_.beta != 0.0f) v = fmaf(out_.beta, *dst, v);
    if (out_.store) *dst = v;
    visitor_.visit(v, r, c);
  }

  // Whether the call stores C (without it, beta == 0: validation allows no C only then).
  __device__ __forceinline__ bool stores_c() const { return out_.store; }

  // Whether C takes 16-byte accesses (aligned, ldc % 4 == 0; always true when C is not stored).
  __device__ __forceinline__ bool vector_c() const { return out_.c_vec4; }

  // Whether a block's whole bm x bn tile lies inside C and C takes 16-byte accesses: then the block
  // may use apply4_vec in a fixed form (with_interior_form), whose code is a small fraction of the
  // checked path.
  __device__ __forceinline__ bool interior(std::int64_t row0, std::int64_t col0, int bm, int bn) const {
    return out_.c_vec4 && row0 + bm <= out_.m && col0 + bn <= out_.n;
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
    if (!out_.store) f(F0{}, F0{});
    else if (out_.beta == 0.0f) f(T{}, F0{});
    else f(T{}, T{});
  }

  // Four results at (r, c..c+3) with one 16-byte access and no bounds checks. store / beta: whether C
  // is stored, whether beta != 0. Interior tiles pass the constants with_interior_form chose, so the
  // tests fold away; edge tiles pass the call's values.
  __device__ __forceinline__ void apply4_vec(std::int64_t r, std::int64_t c, float4 acc, bool store, bool beta) {
    visitor_.visit4(r, c, value4(r, c, acc, store, beta));
  }

  // The values of apply4_vec (stored when C is), not yet visited: for an interior tile whose visitor
  // votes once for the whole tile (Visitor::kVotesPerTile, see warp_tile_epilogue).
  __device__ __forceinline__ float4 value4(std::int64_t r, std::int64_t c, float4 acc, bool store, bool beta) {
    float* dst = out_.C + r * out_.ldc + c;
    float4 v = make_float4(out_.alpha * acc.x, out_.alpha * acc.y, out_.alpha * acc.z, out_.alpha * acc.w);
    if (beta) {
      const float4 old = *reinterpret_cast<const float4*>(dst);
      v.x = fmaf(out_.beta, old.x, v.x);
      v.y = fmaf(out_.beta, old.y, v.y);
      v.z = fmaf(out_.beta, old.z, v.z);
      v.w = fmaf(out_.beta, old.w, v.w);
    }
    // __stwb (st.global.wb.v4: one 16-byte store, the default write-back policy) rather than a float4
    // assignment, which nvcc split into four 4-byte stores in the beta == 0 form (sm_90 SASS of the
    // tuned kernels: STG.E x 4 per float4 there, STG.E.128 in the beta form; 327 x 2364 x 16 on
    // db_64x64x16 took 9.5 us with the split stores, 6.8 with one store per float4).
    if (store) __stwb(reinterpret_cast<float4*>(dst), v);
    return v;
  }

  // Four results at (r, c..c+3), c a multiple of 4: one 16-byte access when C allows it.
  __device__ __forceinline__ void apply4(std::int64_t r, std::int64_t c, float4 acc) {
    if (r >= out_.m) return;
    if (out_.c_vec4 && c + 3 < out_.n) {
      apply4_vec(r, c, acc, out_.store, out_.beta != 0.0f);
    } else {
      apply1(r, c, acc.x);
      apply1(r, c + 1, acc.y);
      apply1(r, c + 2, acc.z);
      apply1(r, c + 3, acc.w);
    }
  }

  // C read ahead, for kernels compiled for beta != 0 (warp_tile_epilogue's kReadsC). apply1 and
  // value4 read each entry of C right before the store that overwrites it, and nvcc may not move a
  // read of C above an earlier store to C that it cannot prove lies elsewhere (an entry of another
  // row), so a thread that reads and stores in turn waits a whole trip to memory per read: on an H200
  // such calls took up to 2.65x the time of the form below (runs FB and FC). That form reads a group
  // of entries first (read1 / read4 / read4_checked) and hands them to apply1 / apply4 / apply4_vec
  // with `old`, so the group's reads are in flight together. Kernels for beta == 0 keep the forms
  // above: the read-ahead code in the same kernel made them slower (run FA: 2% at 4096^3).

  // C at (r, c) for the beta term: 0 outside the m x n window and when beta == 0 (C is then never
  // read, so NaN in it cannot leak).
  __device__ __forceinline__ float read1(std::int64_t r, std::int64_t c) const {
    return out_.beta != 0.0f && r < out_.m && c < out_.n ? out_.C[r * out_.ldc + c] : 0.0f;
  }

  // C at (r, c..c+3) in one 16-byte read, unchecked: an interior tile's (see interior).
  __device__ __forceinline__ float4 read4(std::int64_t r, std::int64_t c) const {
    return *reinterpret_cast<const float4*>(out_.C + r * out_.ldc + c);
  }

  // C at (r, c..c+3) as apply4 reads it (one 16-byte read when C allows it), read1's zeros elsewhere.
  __device__ __forceinline__ float4 read4_checked(std::int64_t r, std::int64_t c) const {
    if (out_.beta == 0.0f || r >= out_.m) return make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (out_.c_vec4 && c + 3 < out_.n) return read4(r, c);
    return make_float4(read1(r, c), read1(r, c + 1), read1(r, c + 2), read1(r, c + 3));
  }

  // Asks L2 for the lines of C that a bm x bn tile at (row0, col0) reads (inside the m x n window),
  // the block's threads sharing the rows: one prefetch per 128 bytes of a row and one at its last
  // entry, so every line the row touches gets one whatever C's alignment. For the staged read-ahead
  // epilogue (warp_tile.cuh), whose groups each wait for their reads; issued before the first, it
  // puts the later groups' trips in L2, not device memory. A prefetch loads nothing into registers
  // and none is issued outside the window.
  template <int kBM, int kBN, int kThreads>
  __device__ __forceinline__ void prefetch_tile_l2(std::int64_t row0, std::int64_t col0, int tid) const {
    constexpr int kPerRow = kBN / 32 + 1;  // a 32-float step is one 128-byte line
    if (col0 >= out_.n) return;
    const std::int64_t last = min_of<std::int64_t>(col0 + kBN, out_.n) - 1;
    for (int i = tid; i < kBM * kPerRow; i += kThreads) {
      const std::int64_t r = row0 + i / kPerRow;
      const int step = i % kPerRow;
      const std::int64_t c = step == kPerRow - 1 || col0 + 32 * step > last ? last : col0 + 32 * step;
      if (r < out_.m) asm volatile("prefetch.global.L2 [%0];" ::"l"(out_.C + r * out_.ldc + c));
    }
  }

  // apply1 with C's entry read ahead (read1).
  __device__ __forceinline__ void apply1(std::int64_t r, std::int64_t c, float acc, float old) {
    if (r >= out_.m || c >= out_.n) return;
    float v = out_.alpha * acc;
    if (out_.beta != 0.0f) v = fmaf(out_.beta, old, v);
    if (out_.store) out_.C[r * out_.ldc + c] = v;
    visitor_.visit(v, r, c);
  }

  // value4 for a call with beta != 0 (so C is stored), C's entries read ahead (read4): stored, not
  // yet visited (for a voting visitor's interior tile, as value4 above).
  __device__ __forceinline__ float4 value4(std::int64_t r, std::int64_t c, float4 acc, float4 old) {
    float4 v = make_float4(out_.alpha * acc.x, out_.alpha * acc.y, out_.alpha * acc.z, out_.alpha * acc.w);
    v = make_float4(fmaf(out_.beta, old.x, v.x), fmaf(out_.beta, old.y, v.y), fmaf(out_.beta, old.z, v.z),
                    fmaf(out_.beta, old.w, v.w));
    __stwb(reinterpret_cast<float4*>(out_.C + r * out_.ldc + c), v);
    return v;
  }

  // apply4_vec for a call with beta != 0 (so C is stored), C's entries read ahead (read4).
  __device__ __forceinline__ void apply4_vec(std::int64_t r, std::int64_t c, float4 acc, float4 old) {
    visitor_.visit4(r, c, value4(r, c, acc, old));
  }

  // apply4 with C's entries read ahead (read4_checked).
  __device__ __forceinline__ void apply4(std::int64_t r, std::int64_t c, float4 acc, float4 old) {
    if (r >= out_.m) return;
    if (out_.c_vec4 && c + 3 < out_.n && out_.beta != 0.0f) {
      apply4_vec(r, c, acc, old);
    } else {
      apply1(r, c, acc.x, old.x);
      apply1(r, c + 1, acc.y, old.y);
      apply1(r, c + 2, acc.z, old.z);
      apply1(r, c + 3, acc.w, old.w);
    }
  }

  // apply1 for a kernel that places its threads on the output itself: (r, c) inside the m x n
  // window, dst = &C[r * ldc + c] when C is stored (unused otherwise), C's entry read ahead into `old`
  // when beta != 0. No bounds checks and no address arithmetic. store / beta: with_interior_form's
  // constants, so the tests fold away.
  __device__ __forceinline__ void apply1_at(float* dst, std::int64_t r, std::int64_t c, float acc, float old,
                                            bool store, bool beta) {
    float v = out_.alpha * acc;
    if (beta) v = fmaf(out_.beta, old, v);
    if (store) *dst = v;
    visitor_.visit(v, r, c);
  }

  __device__ __forceinline__ Visitor& visitor() { return visitor_; }

  // A persistent kernel's tile boundaries (store_visitor.cuh): before a tile's main loop, with the
  // row the thread visits in it; after the tile's visits, the warp converged.
  __device__ __forceinline__ void begin_tile(std::int64_t r) {
    if (r < out_.m) visitor_.begin_tile(r);  // an edge tile's rows past m are never visited
  }
  __device__ __forceinline__ void end_tile() { visitor_.end_tile(); }

  // Every thread of every block calls this once, after its last apply, with its warp converged.
  // kThreads is the block size.
  template <int kThreads>
  __device__ __forceinline__ void finish(int tid) {
    visitor_.template finish<kThreads>(tid);
  }

 private:
  OutputParams out_;
  Visitor visitor_;
};

}  // namespace gpuprims::detail
