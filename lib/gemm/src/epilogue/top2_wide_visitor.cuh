#pragma once
// The fused top-2 for outputs of 2^32 entries or more: 64-bit linear indices, so no packed word holds
// an entry and no 64-bit atomic merges them; blocks merge their threads' pairs and the last block
// merges the blocks' - or, for a grid of many waves, two short kernels after the grid do
// (common/device/top2_last_block_merge.cuh). It filters as the packed visitor does
// (top2_packed_visitor.cuh): each finished block publishes its pair's second key as the grid's bound,
// read at kernel start (its latency passes during the main loop); values above it or above the
// thread's own second entry cannot enter and are skipped; interior tiles vote once per warp and rank
// a thread's values as floats (take_run). Without the bound every value went through the exact
// insertion: at 65536^2 x 128 the fused kernel (C not stored, 128 x 256 tiles) took 41.5 ms under ncu
// against the per-row form's 28.2 (results/nvidia-h200/README.md, session 52, run GP).
#include <cstddef>
#include <cstdint>

#include <gpuprims/status.hpp>

#include "common/device/top2_last_block_merge.cuh"
#include "common/device/top2_order.hpp"
#include "common/src/math.hpp"
#include "gemm/src/epilogue/float_run_top2.cuh"
#include "gemm/src/epilogue/output.hpp"
#include "gemm/src/epilogue/visitor_args.hpp"

namespace gpuprims::detail {

class Top2WideVisitor {
 public:
  using Args = Top2LastBlockMerge::Args;
  static constexpr bool kVotesPerTile = true;
  static constexpr bool kRanksRowRuns = false;

  static std::size_t workspace_bytes(std::int64_t blocks) { return Top2LastBlockMerge::workspace_bytes(blocks); }
  // A grid of about one wave merges in its last block; a larger one leaves the merge to end().
  static Status begin(const EpilogueStart& s, VisitorArgs* args) {
    return Top2LastBlockMerge::begin(s.workspace, s.top2, s.cols, s.stream, &args->top2_wide, s.one_wave);
  }
  static Status end(const EpilogueStart& s, const VisitorArgs& args) {
    return Top2LastBlockMerge::end(args.top2_wide, s.top2, s.stream);
  }
  static Args args_of(const VisitorArgs& args) { return args.top2_wide; }

  __device__ static float prefetch(const Args& args) { return top2_bound_of_word(top2_bound_word(args)); }
  __device__ Top2WideVisitor(const Args& args, std::int64_t n, float prefetched)
      : args_(args), n_(n), bound_(prefetched) {}

  __device__ __forceinline__ void visit(float v, std::int64_t r, std::int64_t c) {
    refresh();
    if (top2_may_enter(v, bound_)) {
      best_.insert_keyed(order_key(v), r * n_ + c);
      tighten();
    }
  }
  // One vote per four results, as the packed visitor's.
  __device__ __forceinline__ void visit4(std::int64_t r, std::int64_t c, float4 v) {
    refresh();
    const bool may = top2_may_enter(v.x, bound_) | top2_may_enter(v.y, bound_) | top2_may_enter(v.z, bound_) |
                     top2_may_enter(v.w, bound_);
    if (__any_sync(__activemask(), may)) {
      const std::int64_t i = r * n_ + c;
      best_.insert_keyed(order_key(v.x), i);
      best_.insert_keyed(order_key(v.y), i + 1);
      best_.insert_keyed(order_key(v.z), i + 2);
      best_.insert_keyed(order_key(v.w), i + 3);
      tighten();
    }
  }
  // The vote of an interior tile on the least of the thread's values by fminf (exact for the reason
  // Top2PackedVisitor::may_take gives).
  __device__ __forceinline__ bool may_take(float least) {
    refresh();
    return top2_may_enter(least, bound_);
  }
  // A thread's values of an interior tile that passed the vote, value(s) at cell(s), s = 0..kCount-1
  // in increasing row-major position: the two smallest as floats (float_run_top2), then only they are
  // inserted; where floats cannot tell the entries apart, every value is.
  template <int kCount, class Value, class Cell>
  __device__ __forceinline__ void take_run(const Value& value, const Cell& cell) {
    FloatRunTop2 run;
    if (float_run_top2<kCount>(value, &run)) {
      const OutputCell c1 = cell(run.s1), c2 = cell(run.s2);
      best_.insert_keyed(order_key(run.m1), c1.row * n_ + c1.col);
      best_.insert_keyed(order_key(run.m2), c2.row * n_ + c2.col);
    } else {
#pragma unroll
      for (int s = 0; s < kCount; ++s) {
        const OutputCell c = cell(s);
        best_.insert_keyed(order_key(value(s)), c.row * n_ + c.col);
      }
    }
    tighten();
  }
  // The merge is per grid of one block row (blockIdx.x): split-K plans run it in their reduction.
  template <int kThreads>
  __device__ __forceinline__ void finish(int tid) {
    top2_last_block_finish<kThreads, true>(best_, args_, tid, blockIdx.x, gridDim.x);
  }
  // A persistent block keeps one partial over all its tiles and merges it at finish. Between tiles it
  // reads the grid's bound again (used after the next main loop, see refresh) and publishes the
  // warp's least second key: every lane's pair is two real entries.
  __device__ __forceinline__ void begin_tile(std::int64_t) {
    word_ = top2_bound_word(args_);
    fresh_ = true;
  }
  __device__ __forceinline__ void end_tile() {
    std::uint32_t least_second = best_.k1;  // shuffles, not __reduce_min_sync: that needs sm_80
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2)
      least_second = min_of(least_second, __shfl_xor_sync(kFullMask, least_second, offset));
    unsigned lane;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    if (lane == 0) top2_publish_bound(args_, least_second);
  }

 private:
  __device__ __forceinline__ void refresh() {
    if (!fresh_) return;
    bound_ = top2_bound_of_word(word_);
    fresh_ = false;
    tighten();
  }
  // The thread's own second entry bounds what can still enter its pair (NaN: no second entry yet, or
  // a NaN one, which bounds nothing).
  __device__ __forceinline__ void tighten() {
    const float own = value_from_key(best_.k1);
    if (!isnan(own) && !(own >= bound_)) bound_ = own;
  }

  Args args_;
  std::int64_t n_;
  float bound_;  // entries above it cannot enter the grid's result
  Top2Partial best_ = Top2Partial::empty();
  unsigned int word_ = 0;  // the grid's bound word read by begin_tile, for refresh()
  bool fresh_ = false;     // word_ is newer than bound_
};

}  // namespace gpuprims::detail
