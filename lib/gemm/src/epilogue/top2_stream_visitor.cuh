#pragma once
// The packed top-2 (top2_packed_visitor.cuh) for kernels whose threads visit their results one at a
// time, each thread in increasing row-major position: the outer-product path, whose threads see
// about 32 results each and whose first wave starts before any block has pushed a bound. Ranking a
// value into packed (order key, index) words takes about 30 instructions (key, pack, two 64-bit
// min/max, the bound's update). Here a thread keeps its two smallest finite values as floats beside
// their 32-bit positions: strict compares in visiting order keep the lower position among equal
// values, and +0 equals -0 as their shared order key has it, so an insertion is two compares and six
// selects, cheap enough to run for every value with no bound and no vote. +inf and NaN, which those
// compares cannot order, are ranked exactly in a packed pair of their own (rare outside degenerate
// data); both become packed words once, at finish. The fused call at 2339 x 7091 x 1 on an H200 (run
// GK, beside the plain call's 20.4 us): 37.8 us ranking packed words, 36.0 with this insertion behind
// a warp vote on a bound, 34.2 behind a branch per thread, 33.3 with no test at all.
#include <cstddef>
#include <cstdint>

#include <gpuprims/status.hpp>

#include "common/device/top2_atomic_merge.cuh"
#include "common/device/top2_order.hpp"
#include "gemm/src/epilogue/top2_packed_visitor.cuh"
#include "gemm/src/epilogue/visitor_args.hpp"

namespace gpuprims::detail {

class Top2StreamVisitor {
 public:
  using Args = Top2PackedVisitor::Args;
  static constexpr bool kVotesPerTile = false;
  static constexpr bool kRanksRowRuns = false;
  static constexpr unsigned kTileForms = 0;
  static constexpr bool kPrefetchAfterLoop = false;

  // The host side and the grid's words are the packed visitor's.
  static std::size_t workspace_bytes(std::int64_t blocks) { return Top2PackedVisitor::workspace_bytes(blocks); }
  static Status begin(const EpilogueStart& s, VisitorArgs* args) { return Top2PackedVisitor::begin(s, args); }
  static Status end(const EpilogueStart& s, const VisitorArgs& args) { return Top2PackedVisitor::end(s, args); }
  static Args args_of(const VisitorArgs& args) { return Top2PackedVisitor::args_of(args); }

  // No bound: every value is ranked, so nothing is read at kernel start.
  __device__ static float prefetch(const Args&) { return 0.0f; }
  __device__ Top2StreamVisitor(const Args& args, std::int64_t n, float)
      : args_(args), n_(static_cast<std::uint32_t>(n)) {}

  // One result; the thread's earlier visits were at lower row-major positions.
  __device__ __forceinline__ void visit(float v, std::int64_t r, std::int64_t c) {
    const std::uint32_t i = static_cast<std::uint32_t>(r) * n_ + static_cast<std::uint32_t>(c);
    const bool first = v < m1_, second = v < m2_;
    m2_ = first ? m1_ : (second ? v : m2_);
    i2_ = first ? i1_ : (second ? i : i2_);
    m1_ = first ? v : m1_;
    i1_ = first ? i : i1_;
    if (!(v < kInf())) specials_.add(PackedTop2::pack(order_key(v), i));
  }
  __device__ __forceinline__ void visit4(std::int64_t r, std::int64_t c, float4 v) {
    visit(v.x, r, c);
    visit(v.y, r, c + 1);
    visit(v.z, r, c + 2);
    visit(v.w, r, c + 3);
  }
  template <int kThreads>
  __device__ __forceinline__ void finish(int tid) {
    top2_atomic_finish<kThreads>(pair(), args_, tid);
  }
  // A persistent kernel's tiles: nothing to read before a tile (no bound); after it, the thread's
  // pair is pushed and the thread starts afresh.
  __device__ __forceinline__ void begin_tile(std::int64_t) {}
  __device__ __forceinline__ void end_tile() {
    top2_atomic_push_warp(pair(), args_);
    *this = Top2StreamVisitor(args_, n_, 0.0f);
  }

 private:
  __device__ static float kInf() { return __int_as_float(0x7f800000); }

  // The thread's entries as one packed pair: the finite ones (m1_ and m2_ are finite once set) merged
  // with the specials.
  __device__ __forceinline__ PackedTop2 pair() const {
    PackedTop2 p = specials_;
    if (m1_ < kInf()) p.add(PackedTop2::pack(order_key(m1_), i1_));
    if (m2_ < kInf()) p.add(PackedTop2::pack(order_key(m2_), i2_));
    return p;
  }

  Args args_;
  std::uint32_t n_;
  float m1_ = kInf(), m2_ = kInf();  // the thread's two smallest finite values so far
  std::uint32_t i1_ = 0, i2_ = 0;    // their row-major positions
  PackedTop2 specials_;              // its +inf and NaN entries
};

// The form of visitor V for a kernel whose threads visit their results one at a time in increasing
// row-major position (the outer-product path): the packed top-2 streams; every other visitor is
// itself.
template <class V>
struct StreamingForm {
  using type = V;
};
template <>
struct StreamingForm<Top2PackedVisitor> {
  using type = Top2StreamVisitor;
};

}  // namespace gpuprims::detail
