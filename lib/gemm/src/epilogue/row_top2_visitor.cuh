#pragma once
// The fused per-row top-2 (gemm::sgemm_row_top2_argmin): the two smallest entries of every row of the
// result, for the ratio-test kNN. Each row owns one 16-byte slot of two packed (order key, 32-bit
// column) words in the workspace. A thread ranks the results it visits into a packed pair for the row
// it is on, having read the row's second word when it came to the row; when it moves to another row
// (and at finish) it is done at once unless some lane's pair beats what it read (past the first tiles
// of a row, almost never); else the lanes of its warp on the same row merge their pairs by shuffles
// and one lane pushes the pair into the row's slot by integer atomics. Exact and order-free.
// A persistent kernel names each tile's row before the tile's main loop (begin_tile), so the row's
// second word is in by the tile's visits; then four results above both it and the thread's own
// second entry are skipped with one float compare each. The one-tile-per-block kernels' interior
// tiles read the words of all a thread's rows at the start of the epilogue (row_word) and hand over
// the thread's run of each row at once (take_row) with its word: a run whose least value is above
// the word is skipped; another is ranked as floats and only its two winners are packed.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include <gpuprims/status.hpp>
#include <gpuprims/top2.hpp>

#include "common/device/top2_order.hpp"
#include "common/device/warp_reduce.cuh"
#include "gemm/src/epilogue/float_run_top2.cuh"
#include "gemm/src/epilogue/visitor_args.hpp"

namespace gpuprims::detail {

// Host steps of the per-row slots (row_top2.cu): begin sets every slot to empty (all ones), end turns
// the slots into one Top2 per row.
Status row_top2_begin(void* workspace, std::int64_t rows, cudaStream_t stream, RowTop2Args* args);
Status row_top2_end(const RowTop2Args& args, Top2* d_out, std::int64_t rows, cudaStream_t stream);

// Why the slot merge is exact. A slot holds words (first, second), both ~0 (empty) at the start; every
// entry of the row is a distinct word (order_key << 32 | column: distinct columns, and no entry is ~0
// because columns stay below 2^32 - 1), and word order is the entry order (key, then lower column).
// A pair (w0 < w1) enters by   old = atomicMin(first, w0);  atomicMin(second, min(max(old, w0), w1))
// (top2_second_candidate). Take the atomics on `first` in the order the hardware ran them, over every
// entry pushed, x the smallest entry and y the next:
//  - every value sent to `second` is >= y: it is w1 (>= y, it exceeds w0), or max(old, w0), where old
//    and w0 are two different entries (or old is ~0), so the larger of them is not x;
//  - y is sent: x is always a pair's w0. If y is that pair's w1, min(max(old, x), y) = y, since
//    max(old, x) is not x. Else y is a w0 too (a w1 of a pair without x has its w0 below it, which
//    only x is): if x ran first, y finds old = x and sends max(x, y) = y; if y ran first, x finds
//    old = y (nothing else is below y) and sends max(y, x) = y; a pair's w1 is above its w0, so the
//    min keeps y.
// So `first` ends as x and `second` as y, whatever the interleaving. A pair whose w0 is not below a
// value once read from `second` is skipped: that value is ~0 (nothing is skipped) or at least two
// different pushed entries (see above), so both words of the pair rank after two entries and cannot
// be in the result. A thread's or a warp's pair drops only entries that two of its own entries beat,
// which cannot be in the result either.
class RowTop2Visitor {
 public:
  using Args = RowTop2Args;
  static constexpr bool kVotesPerTile = false;
  static constexpr bool kRanksRowRuns = true;
  static constexpr unsigned kTileForms = TileForms::whole_unstored;  // the matching form: distances not kept
  static constexpr bool kPrefetchAfterLoop = false;

  // Per row, not per block (the interface's argument is the call's m here): two words a row.
  static std::size_t workspace_bytes(std::int64_t rows) {
    return rows <= 0 ? 0 : static_cast<std::size_t>(rows) * 2 * sizeof(unsigned long long);
  }
  static Status begin(const EpilogueStart& s, VisitorArgs* args) {
    return row_top2_begin(s.workspace, s.rows, s.stream, &args->row_top2);
  }
  static Status end(const EpilogueStart& s, const VisitorArgs& args) {
    return row_top2_end(args.row_top2, s.top2, s.rows, s.stream);
  }
  static Args args_of(const VisitorArgs& args) { return args.row_top2; }

  __device__ static float prefetch(const Args&) { return 0.0f; }
  __device__ RowTop2Visitor(const Args& args, std::int64_t, float) : slots_(args.slots) {}

  __device__ __forceinline__ void visit(float v, std::int64_t r, std::int64_t c) {
    if (r != row_) switch_row(r);
    pair_.add(PackedTop2::pack(order_key(v), static_cast<std::uint32_t>(c)));
  }
  __device__ __forceinline__ void visit4(std::int64_t r, std::int64_t c, float4 v) {
    if (r != row_) switch_row(r);
    // Only with the row's word read before the main loop (begin_tile): read at a row switch in the
    // epilogue, waiting for it would stall the thread on every switch, and the thread's own pair
    // alone, started afresh at each switch, filters too little to pay for the test (the SIMT rungs).
    if (bound_early_) {
      if (limit_stale_) {
        limit_ = top2_bound_of(bound_ < pair_.w1 ? bound_ : pair_.w1);  // NaN (nothing yet) lets all in
        limit_stale_ = false;
      }
      if (v.x > limit_ && v.y > limit_ && v.z > limit_ && v.w > limit_) return;
      limit_stale_ = true;
    }
    const auto col = static_cast<std::uint32_t>(c);
    pair_.add(PackedTop2::pack(order_key(v.x), col));
    pair_.add(PackedTop2::pack(order_key(v.y), col + 1));
    pair_.add(PackedTop2::pack(order_key(v.z), col + 2));
    pair_.add(PackedTop2::pack(order_key(v.w), col + 3));
  }
  // Row r's second word, read for an interior tile's take_row: the tile epilogue reads the words of all
  // the thread's rows at its start (TileRowRun::begin), so they arrive while the first rows are
  // stored and ranked, and each row's test waits for nothing.
  __device__ __forceinline__ unsigned long long row_word(std::int64_t r) const { return load_second(r); }

  // A thread's run of row r in an interior tile (kRanksRowRuns): values[s] at column col(s), s in
  // increasing column order; word: row r's second word read at the start of the tile's epilogue
  // (row_word). The run is skipped when its least value is above the word, as it is for every row
  // once the row's first tiles are in: H200, results/nvidia-h200 session 58, run IL: 7.0% less time
  // at 65536^2 x 128 on 128 x 256 tiles than reading the word on coming to the row and using it only
  // at the row's flush. Else it is ranked as floats (float_run_top2: about 5 instructions a value,
  // where the packed insertion of visit4 took about 22; ncu at 8192^2 x 128 on 128 x 256 tiles, run
  // GP), then its two winners enter the pair; where floats cannot tell entries apart, every value does.
  template <int kCount, class Col>
  __device__ __forceinline__ void take_row(std::int64_t r, const float (&values)[kCount], const Col& col,
                                           unsigned long long word) {
    if (r != row_) switch_row(r, word);
    float least = values[0];
#pragma unroll
    for (int s = 1; s < kCount; ++s) least = fminf(least, values[s]);
    // fminf drops NaN: a run of NaN and values above the word leaves nothing that can enter; a NaN word
    // (empty, or a NaN entry second) skips nothing.
    if (least > top2_bound_of(word)) return;
    FloatRunTop2 run;
    if (float_run_top2<kCount>([&](int s) { return values[s]; }, &run)) {
      pair_.add(PackedTop2::pack(order_key(run.m1), static_cast<std::uint32_t>(col(run.s1))));
      pair_.add(PackedTop2::pack(order_key(run.m2), static_cast<std::uint32_t>(col(run.s2))));
    } else {
#pragma unroll
      for (int s = 0; s < kCount; ++s)
        pair_.add(PackedTop2::pack(order_key(values[s]), static_cast<std::uint32_t>(col(s))));
    }
  }
  template <int kThreads>
  __device__ __forceinline__ void finish(int) {
    flush();
  }
  __device__ __forceinline__ void begin_tile(std::int64_t r) {
    if (r != row_) switch_row(r);
    bound_early_ = true;
  }
  __device__ __forceinline__ void end_tile() {}

 private:
  // The bound's load goes out here and is first used at the row's flush, so its latency passes
  // while the row's results are ranked.
  __device__ __forceinline__ void switch_row(std::int64_t r) { switch_row(r, load_second(r)); }
  // The thread's pair of its last row leaves it, and it starts on row r, whose second word is `word`.
  __device__ __forceinline__ void switch_row(std::int64_t r, unsigned long long word) {
    flush();
    row_ = r;
    pair_ = PackedTop2{};
    bound_ = word;
    bound_early_ = false;
    limit_stale_ = true;
  }

  // The row's pair leaves the thread. A lane whose pair does not beat the bound it read has nothing to
  // push; when no active lane has, that is all. Else the lanes that have, on the same row, form a group
  // (__match_any_sync); when the group is an aligned power-of-two run of lanes - the common case: a
  // warp tile's lanes of one row, or a whole warp - an xor butterfly merges its pairs (the sets merged
  // at each step are disjoint: they differ in one lane bit) and the group's lowest lane pushes. Any
  // other group pushes lane by lane. The other lanes take a key of their own and push nothing.
  __device__ __forceinline__ void flush() {
    const unsigned active = __activemask();
    const bool has_entry = row_ >= 0 && pair_.w0 < bound_;
    if (!__any_sync(active, has_entry)) return;
    unsigned lane;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    const auto key = has_entry ? static_cast<unsigned long long>(row_) : ~static_cast<unsigned long long>(lane);
    const unsigned group = __match_any_sync(active, key);
    const int size = __popc(group);
    const int leader = __ffs(static_cast<int>(group)) - 1;
    const unsigned run = size == 32 ? ~0u : ((1u << size) - 1u) << leader;
    const bool aligned = (size & (size - 1)) == 0 && (leader & (size - 1)) == 0 && group == run;
    const bool pushes = has_entry && (!aligned || static_cast<int>(lane) == leader);
    PackedTop2 mine = pair_;
    for (int offset = 1; offset < kWarpSize; offset *= 2) {
      const bool merge = aligned && offset < size;
      if (!__any_sync(active, merge)) break;
      PackedTop2 other;
      other.w0 = __shfl_xor_sync(active, static_cast<unsigned long long>(mine.w0), offset);
      other.w1 = __shfl_xor_sync(active, static_cast<unsigned long long>(mine.w1), offset);
      if (merge) mine = PackedTop2::merge(mine, other);
    }
    if (pushes) push(row_, mine);
  }

  // A relaxed read of the row's second word (other warps update it concurrently).
  __device__ __forceinline__ unsigned long long load_second(std::int64_t r) const {
    unsigned long long w;
    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(w) : "l"(slots_ + 2 * r + 1));
    return w;
  }

  __device__ __forceinline__ void push(std::int64_t r, const PackedTop2& p) const {
    unsigned long long* const slot = slots_ + 2 * r;
    const unsigned long long old = atomicMin(slot, static_cast<unsigned long long>(p.w0));
    const std::uint64_t candidate = top2_second_candidate(old, p.w0, p.w1);
    if (candidate != ~std::uint64_t{0}) atomicMin(slot + 1, static_cast<unsigned long long>(candidate));
  }

  unsigned long long* slots_;
  std::int64_t row_ = -1;  // the row pair_ belongs to; -1 before the first visit
  PackedTop2 pair_;
  unsigned long long bound_ = 0;  // row_'s second word when the thread came to it
  bool bound_early_ = false;      // bound_ was read before the tile's main loop (begin_tile)
  bool limit_stale_ = true;       // limit_ is to be worked out again before the next visit4
  float limit_ = 0.0f;            // values above it can enter neither the pair nor the row's result
};

}  // namespace gpuprims::detail
