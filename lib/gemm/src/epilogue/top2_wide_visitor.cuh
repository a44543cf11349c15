#pragma once
// The fused top-2 for outputs of 2^32 entries or more: 64-bit linear indices, so no packed word holds
// an entry and no 64-bit atomic merges them; blocks merge their threads' pairs and the last block
// merges the blocks' - or, for a grid of many waves, two short kernels after the grid do
// (common/device/top2_last_block_merge.cuh). It filters and ranks as the packed visitor does, with
// the code both share (Top2Filter, top2_filter.cuh): each finished block publishes its pair's second
// key as the grid's bound, read at kernel start (its latency passes during the main loop); values
// above it or above the thread's own second entry cannot enter and are skipped; interior tiles vote
// once per warp and rank a thread's values as floats (take_run). Without the bound every value went
// through the exact insertion: at 65536^2 x 128 the fused kernel (C not stored, 128 x 256 tiles) took
// 41.5 ms under ncu against the per-row form's 28.2 (results/nvidia-h200/README.md, session 52, run GP).
#include <cstddef>
#include <cstdint>

#include <gpuprims/status.hpp>

#include "common/device/top2_last_block_merge.cuh"
#include "common/device/top2_order.hpp"
#include "common/src/math.hpp"
#include "gemm/src/epilogue/top2_filter.cuh"
#include "gemm/src/epilogue/visitor_args.hpp"

namespace gpuprims::detail {

//! A thread's pair with 64-bit indices, the grid's bound read as the published bound word
//! (Top2Filter's Entries policy).
struct WideEntries {
  using Index = std::int64_t;
  using GridWord = unsigned int;
  Top2Partial pair = Top2Partial::empty();
  __device__ __forceinline__ void insert(std::uint32_t key, Index i) { pair.insert_keyed(key, i); }
  __device__ __forceinline__ float second_value() const { return value_from_key(pair.k1); }
  __device__ static float bound_of(GridWord word) { return top2_bound_of_word(word); }
};

class Top2WideVisitor : public Top2Filter<WideEntries> {
 public:
  using Args = Top2LastBlockMerge::Args;
  static constexpr bool kVotesPerTile = true;
  static constexpr bool kRanksRowRuns = false;
  static constexpr unsigned kTileForms = 0;  // outputs of 2^32 entries or more: one kernel for any call
  static constexpr bool kPrefetchAfterLoop = false;

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
      : Top2Filter(n, prefetched), args_(args) {}

  // visit, visit4, may_take and take_run: Top2Filter's.
  // The merge is per grid of one block row (blockIdx.x): split-K plans run it in their reduction.
  template <int kThreads>
  __device__ __forceinline__ void finish(int tid) {
    top2_last_block_finish<kThreads, true>(entries().pair, args_, tid, blockIdx.x, gridDim.x);
  }
  // A persistent block keeps one partial over all its tiles and merges it at finish. Between tiles it
  // reads the grid's bound again (used after the next main loop: Top2Filter::set_grid_word) and publishes the
  // warp's least second key: every lane's pair is two real entries.
  __device__ __forceinline__ void begin_tile(std::int64_t) { set_grid_word(top2_bound_word(args_)); }
  __device__ __forceinline__ void end_tile() {
    std::uint32_t least_second = entries().pair.k1;  // shuffles, not __reduce_min_sync: that needs sm_80
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2)
      least_second = min_of(least_second, __shfl_xor_sync(kFullMask, least_second, offset));
    unsigned lane;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    if (lane == 0) top2_publish_bound(args_, least_second);
  }

 private:
  Args args_;
};

}  // namespace gpuprims::detail
