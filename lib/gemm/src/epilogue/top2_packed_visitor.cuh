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
#include "gemm/src/epilogue/top2_filter.cuh"
#include "gemm/src/epilogue/visitor_args.hpp"

namespace gpuprims::detail {

//! A thread's pair as packed words, the grid's bound read as the grid's second word (Top2Filter's
//! Entries policy).
struct PackedEntries {
  using Index = std::uint32_t;
  using GridWord = unsigned long long;
  PackedTop2 pair;
  __device__ __forceinline__ void insert(std::uint32_t key, Index i) { pair.add(PackedTop2::pack(key, i)); }
  __device__ __forceinline__ float second_value() const { return top2_bound_of(pair.w1); }
  __device__ static float bound_of(GridWord second_word) { return top2_bound_of(second_word); }
};

class Top2PackedVisitor : public Top2Filter<PackedEntries> {
 public:
  using Args = Top2AtomicMerge::Args;
  static constexpr bool kVotesPerTile = true;
  static constexpr bool kRanksRowRuns = false;
  static constexpr unsigned kTileForms = TileForms::read_c_ahead | TileForms::whole_stored | TileForms::whole_unstored;
  static constexpr bool kPrefetchAfterLoop = true;

  static std::size_t workspace_bytes(std::int64_t) { return Top2AtomicMerge::workspace_bytes(); }
  // With a kernel before the epilogue's, that kernel sets the three words instead of a memset (one
  // node less in the stream: a few microseconds, a tenth of a small split-K GEMM).
  // A small split-K reduction's warps push and a dependent kernel writes the result (end_dependent).
  static Status begin(const EpilogueStart& s, VisitorArgs* args) {
    GPUPRIMS_TRY(Top2AtomicMerge::begin(s.workspace, s.top2, s.cols, s.one_wave && !s.end_dependent, !s.kernel_before,
                                        s.stream, &args->top2_packed));
    if (s.kernel_before) {
      args->reset = args->top2_packed.words;
      args->reset_count = Top2AtomicMerge::kWords;
    }
    return Status::success;
  }
  static Status end(const EpilogueStart& s, const VisitorArgs& args) {
    return Top2AtomicMerge::end(args.top2_packed, s.top2, s.end_dependent, s.stream);
  }
  static Args args_of(const VisitorArgs& args) { return args.top2_packed; }

  __device__ static float prefetch(const Args& args) { return top2_atomic_bound(args); }
  __device__ Top2PackedVisitor(const Args& args, std::int64_t n, float prefetched)
      : Top2Filter(n, prefetched), args_(args) {}

  // visit, visit4, may_take and take_run: Top2Filter's.
  template <int kThreads>
  __device__ __forceinline__ void finish(int tid) {
    top2_atomic_finish<kThreads>(entries().pair, args_, tid);
  }
  // A persistent kernel's tiles: the grid's second word is read before each tile's main loop (a bound
  // from the tile's first visit on), and the pair is pushed after the tile and starts afresh.
  __device__ __forceinline__ void begin_tile(std::int64_t) { set_grid_word(top2_atomic_second(args_)); }
  __device__ __forceinline__ void end_tile() {
    top2_atomic_push_warp(entries().pair, args_);
    entries().pair = PackedTop2{};
  }

 private:
  Args args_;
};

}  // namespace gpuprims::detail
