#pragma once
// The fused top-2 for outputs with fewer than 2^32 entries (any GEMM up to 65535 x 65535): each thread
// ranks its results into a pair of packed (order key, 32-bit index) words with branch-free min/max
// (interior tiles rank their values as floats first, take_run), and warps push their pairs into the
// grid's two words by atomics (common/device/top2_atomic_merge.cuh). Values above the grid's bound -
// read at kernel start, so the read's latency passes during the main loop - or above the thread's own
// second entry cannot enter the result and are skipped. A persistent kernel pushes after each tile
// and reads the bound again before the next tile's main loop, so its blocks, which start together,
// still skip most values. A grid of about one wave writes the result from its last block
// (top2_atomic_finish), saving a launch.
#include <cstddef>
#include <cstdint>

#include <gpuprims/status.hpp>

#include "common/device/top2_atomic_merge.cuh"
#include "common/device/top2_order.hpp"
#include "gemm/src/epilogue/float_run_top2.cuh"
#include "gemm/src/epilogue/output.hpp"
#include "gemm/src/epilogue/visitor_args.hpp"

namespace gpuprims::detail {

class Top2PackedVisitor {
 public:
  using Args = Top2AtomicMerge::Args;
  static constexpr bool kVotesPerTile = true;
  static constexpr bool kRanksRowRuns = false;

  static std::size_t workspace_bytes(std::int64_t) { return Top2AtomicMerge::workspace_bytes(); }
  // With a kernel before the epilogue's, that kernel sets the three words instead of a memset (one
  // node less in the stream: a few microseconds, a tenth of a small split-K GEMM).
  static Status begin(const EpilogueStart& s, VisitorArgs* args) {
    GPUPRIMS_TRY(Top2AtomicMerge::begin(s.workspace, s.top2, s.cols, s.one_wave, !s.kernel_before, s.stream,
                                        &args->top2_packed));
    if (s.kernel_before) {
      args->reset = args->top2_packed.words;
      args->reset_count = Top2AtomicMerge::kWords;
    }
    return Status::success;
  }
  static Status end(const EpilogueStart& s, const VisitorArgs& args) {
    return Top2AtomicMerge::end(args.top2_packed, s.top2, s.stream);
  }
  static Args args_of(const VisitorArgs& args) { return args.top2_packed; }

  __device__ static float prefetch(const Args& args) { return top2_atomic_bound(args); }
  __device__ Top2PackedVisitor(const Args& args, std::int64_t n, float prefetched)
      : args_(args), n_(static_cast<std::uint32_t>(n)), bound_(prefetched) {}

  __device__ __forceinline__ void visit(float v, std::int64_t r, std::int64_t c) {
    refresh();
    if (top2_may_enter(v, bound_)) {
      pair_.add(PackedTop2::pack(order_key(v), index(r, c)));
      tighten();
    }
  }
  // One vote per four results: past the first blocks almost no warp has a candidate, so the ranking
  // is skipped as a whole (a warp-uniform branch, not predicated code).
  __device__ __forceinline__ void visit4(std::int64_t r, std::int64_t c, float4 v) {
    refresh();
    const bool may = top2_may_enter(v.x, bound_) | top2_may_enter(v.y, bound_) | top2_may_enter(v.z, bound_) |
                     top2_may_enter(v.w, bound_);
    if (__any_sync(__activemask(), may)) {
      const std::uint32_t i = index(r, c);
      pair_.add(PackedTop2::pack(order_key(v.x), i));
      pair_.add(PackedTop2::pack(order_key(v.y), i + 1));
      pair_.add(PackedTop2::pack(order_key(v.z), i + 2));
      pair_.add(PackedTop2::pack(order_key(v.w), i + 3));
      tighten();
    }
  }
  // The vote of an interior tile (kVotesPerTile): `least` is the smallest of the thread's values by
  // fminf, which drops NaN (+inf when all are NaN). Exact all the same: while the bound is a number
  // the grid holds two entries that are not NaN, and a NaN ranks after both. Not const: the first
  // call after begin_tile turns the grid's word it read into the bound.
  __device__ __forceinline__ bool may_take(float least) {
    refresh();
    return top2_may_enter(least, bound_);
  }
  // The thread's values of an interior tile that passed the vote: value(s) at cell(s) (an
  // OutputCell), s = 0..kCount-1 in increasing row-major position. Every warp of a one-wave grid gets
  // here (no bound exists yet), so the cost is per value: ranked as floats first (float_run_top2),
  // and only the two winners are packed; where floats cannot tell the entries apart, every value is
  // ranked exactly.
  template <int kCount, class Value, class Cell>
  __device__ __forceinline__ void take_run(const Value& value, const Cell& cell) {
    FloatRunTop2 run;
    if (float_run_top2<kCount>(value, &run)) {
      const OutputCell c1 = cell(run.s1), c2 = cell(run.s2);
      pair_.add(PackedTop2::pack(order_key(run.m1), index(c1.row, c1.col)));
      pair_.add(PackedTop2::pack(order_key(run.m2), index(c2.row, c2.col)));
    } else {
#pragma unroll
      for (int s = 0; s < kCount; ++s) {
        const OutputCell c = cell(s);
        pair_.add(PackedTop2::pack(order_key(value(s)), index(c.row, c.col)));
      }
    }
    tighten();
  }
  template <int kThreads>
  __device__ __forceinline__ void finish(int tid) {
    top2_atomic_finish<kThreads>(pair_, args_, tid);
  }
  // The grid's word is read here and turned into a bound at the tile's first visit, after the main
  // loop: used at once, the read would hold the thread (and its warpgroup's MMAs) for its latency.
  __device__ __forceinline__ void begin_tile(std::int64_t) {
    second_ = top2_atomic_second(args_);
    fresh_ = true;
  }
  __device__ __forceinline__ void end_tile() {
    top2_atomic_push_warp(pair_, args_);
    pair_ = PackedTop2{};
  }

 private:
  // Row-major linear index; exact in 32 bits because the output has fewer than 2^32 entries.
  __device__ __forceinline__ std::uint32_t index(std::int64_t r, std::int64_t c) const {
    return static_cast<std::uint32_t>(r) * n_ + static_cast<std::uint32_t>(c);
  }

  __device__ __forceinline__ void refresh() {
    if (!fresh_) return;
    bound_ = top2_bound_of(second_);
    fresh_ = false;
  }
  // The thread's own second entry bounds what can still enter its pair (a NaN bound lets all in).
  __device__ __forceinline__ void tighten() {
    const float own = top2_bound_of(pair_.w1);
    if (!isnan(own) && !(own >= bound_)) bound_ = own;
  }

  Args args_;
  std::uint32_t n_;
  float bound_;  // entries above it cannot enter the grid's result
  PackedTop2 pair_;
  unsigned long long second_ = 0;  // the grid's word read by begin_tile, for refresh()
  bool fresh_ = false;             // second_ is newer than bound_
};

}  // namespace gpuprims::detail
