#pragma once
// The part of the global top-2 that both of its visitors share: a thread's pair of entries behind a
// bound. Values above the bound - the grid's, or the thread's own second entry, whichever is tighter -
// cannot enter the grid's result and are skipped; edge tiles vote per four results, interior tiles
// once per warp (may_take), then rank a thread's run as floats (take_run). The visitors differ only in
// how a thread keeps its pair and how the grid's bound reaches it, which each says in an Entries
// policy beside it: packed (order key, 32-bit index) words for outputs under 2^32 entries
// (PackedEntries, top2_packed_visitor.cuh), a Top2Partial with 64-bit indices above (WideEntries,
// top2_wide_visitor.cuh). An Entries has Index and GridWord types, insert(key, index),
// second_value() (NaN with no second entry yet) and a static bound_of(GridWord).
#include <cstdint>

#include "common/device/top2_order.hpp"
#include "gemm/src/epilogue/float_run_top2.cuh"
#include "gemm/src/epilogue/output.hpp"

namespace gpuprims::detail {

//! The filter and ranking of a global top-2 visitor over an output of n columns (row-major linear
//! indices). The visitor derives from it, adds the grid's ends (finish, end_tile) around entries(),
//! and hands it the grid's bound: at construction (read at kernel start) and, in a persistent
//! kernel, before each tile (set_grid_word).
template <class Entries>
class Top2Filter {
 public:
  using Index = typename Entries::Index;

  __device__ Top2Filter(std::int64_t n, float bound) : n_(static_cast<Index>(n)), bound_(bound) {}

  __device__ __forceinline__ void visit(float v, std::int64_t r, std::int64_t c) {
    refresh();
    if (top2_may_enter(v, bound_)) {
      entries_.insert(order_key(v), index(r, c));
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
      const Index i = index(r, c);
      entries_.insert(order_key(v.x), i);
      entries_.insert(order_key(v.y), i + 1);
      entries_.insert(order_key(v.z), i + 2);
      entries_.insert(order_key(v.w), i + 3);
      tighten();
    }
  }
  // The vote of an interior tile (the visitor's kVotesPerTile): `least` is the smallest of the
  // thread's values by fminf, which drops NaN (+inf when all are NaN). Exact all the same: while the
  // bound is a number the grid holds two entries that are not NaN, and a NaN ranks after both. Not
  // const: the first call after a grid word arrives turns it into the bound.
  __device__ __forceinline__ bool may_take(float least) {
    refresh();
    return top2_may_enter(least, bound_);
  }
  // The thread's values of an interior tile that passed the vote: value(s) at cell(s) (an
  // OutputCell), s = 0..kCount-1 in increasing row-major position. Every warp of a one-wave grid gets
  // here (no bound exists yet), so the cost is per value: ranked as floats first (float_run_top2),
  // and only the two winners are inserted; where floats cannot tell the entries apart, every value is
  // inserted exactly.
  template <int kCount, class Value, class Cell>
  __device__ __forceinline__ void take_run(const Value& value, const Cell& cell) {
    FloatRunTop2 run;
    if (float_run_top2<kCount>(value, &run)) {
      const OutputCell c1 = cell(run.s1), c2 = cell(run.s2);
      entries_.insert(order_key(run.m1), index(c1.row, c1.col));
      entries_.insert(order_key(run.m2), index(c2.row, c2.col));
    } else {
#pragma unroll
      for (int s = 0; s < kCount; ++s) {
        const OutputCell c = cell(s);
        entries_.insert(order_key(value(s)), index(c.row, c.col));
      }
    }
    tighten();
  }

 protected:
  __device__ __forceinline__ Entries& entries() { return entries_; }
  // The grid's word, read before a tile's main loop and turned into the bound at the tile's first
  // visit: used at once, the read would hold the thread (and its warpgroup's MMAs) for its latency.
  __device__ __forceinline__ void set_grid_word(typename Entries::GridWord word) {
    word_ = word;
    fresh_ = true;
  }

 private:
  // Row-major linear index; exact in Index (32 bits only for outputs under 2^32 entries).
  __device__ __forceinline__ Index index(std::int64_t r, std::int64_t c) const {
    return static_cast<Index>(r) * n_ + static_cast<Index>(c);
  }
  __device__ __forceinline__ void refresh() {
    if (!fresh_) return;
    bound_ = Entries::bound_of(word_);
    fresh_ = false;
    tighten();  // a persistent block's pair may outlast a tile (the wide visitor keeps one per block)
  }
  // The thread's own second entry bounds what can still enter its pair (NaN: no second entry yet, or
  // a NaN one, which bounds nothing).
  __device__ __forceinline__ void tighten() {
    const float own = entries_.second_value();
    if (!isnan(own) && !(own >= bound_)) bound_ = own;
  }

  Entries entries_;
  Index n_;
  float bound_;                          // entries above it cannot enter the grid's result
  typename Entries::GridWord word_ = 0;  // the grid's word from set_grid_word, for refresh()
  bool fresh_ = false;                   // word_ is newer than bound_
};

}  // namespace gpuprims::detail
