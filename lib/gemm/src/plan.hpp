#pragma once
// A GEMM plan: the kernel that computes the product (a ladder rung, or one of the tuned rung's paths)
// and how k is split over block rows. With splits > 1 the kernel writes one partial product per split
// into the workspace and kernels/split_k_reduce.cuh sums them in split order before the epilogue; a
// cluster plan (sm_90) sums them inside the one launch instead (kernels/cluster_split_k.cuh). A
// stream-K plan runs the whole tiles a block each, then one wave of blocks over the last waves' tiles
// and their k slabs (kernels/stream_k.cuh).
// The arithmetic of plans and of their workspace is plain host code, tested on the CPU.
#include <cstddef>
#include <cstdint>
#include <string>

#include "common/src/host_device.hpp"
#include "common/src/math.hpp"
#include "gemm/src/detail/tile_index.hpp"
#include "gemm/src/rungs/rungs.hpp"
#include "gemm/src/stream_k_schedule.hpp"

namespace gpuprims::detail {

struct GemmPlan {
  const RungEntry* path = nullptr;
  int splits = 1;
  std::int64_t k_split = 0;    // depth of every split but the last, which takes the rest (k when splits == 1)
  bool cluster = false;        // the splits meet in a thread-block cluster: one launch, no workspace
  std::size_t rung_bytes = 0;  // workspace the path's launcher needs for itself (RungEntry::workspace_bytes)
  int stream_k_blocks = 0;     // > 0: the stream-K form over this many blocks (no split: splits == 1)
};

// Most splits a cluster plan may have: the portable cluster size.
inline constexpr int kMaxClusterSplits = 8;

// Largest split count a plan may have: the grid's block rows (gridDim.y <= 65535), well above any
// count the cost model considers.
inline constexpr int kMaxSplits = 4096;

// The plan that runs path with k cut into about `splits` ranges: each range a multiple of the path's
// k alignment deep, and the count reduced so that no range is empty. One range for k <= 0 or a path
// that cannot split.
inline GemmPlan make_plan(const RungEntry& path, std::int64_t k, int splits) {
  GemmPlan p{&path, 1, k};
  if (!path.splits_k || splits <= 1 || k <= 0) return p;
  const std::int64_t align = path.k_align;
  p.k_split = round_up(ceil_div<std::int64_t>(k, splits), align);
  p.splits = static_cast<int>(ceil_div(k, p.k_split));
  if (p.splits == 1) p.k_split = k;
  return p;
}

// The cluster form of make_plan: at most kMaxClusterSplits ranges, reduced in one launch. A path
// without a cluster form, or a k that leaves one range, gives the plain plan.
inline GemmPlan make_cluster_plan(const RungEntry& path, std::int64_t k, int splits) {
  GemmPlan p = make_plan(path, k, min_of(splits, kMaxClusterSplits));
  p.cluster = path.run_cluster != nullptr && p.splits > 1;
  return p;
}

// Most blocks a stream-K plan may have (a wave of the largest GPU is well under it).
inline constexpr int kMaxStreamKBlocks = 1 << 16;

// The stream-K plan of path over `blocks` blocks: one k range, no split; the plain plan for a path
// without a stream-K form.
inline GemmPlan make_stream_k_plan(const RungEntry& path, std::int64_t k, int blocks) {
  GemmPlan p = make_plan(path, k, 1);
  if (path.run_stream_k != nullptr && blocks >= 1) p.stream_k_blocks = blocks;
  return p;
}

// What a stream-K plan's blocks share on an m x n x k product: the path's output tiles and its main
// loop's k steps (slabs) per tile. Written once for the schedule and for plan_fits' check of it.
struct StreamKWork {
  std::int64_t tiles;
  std::int64_t slabs;
};
inline StreamKWork stream_k_work(const RungEntry& path, std::int64_t m, std::int64_t n, std::int64_t k) {
  return StreamKWork{tile_count(m, n, path.bm, path.bn), ceil_div<std::int64_t>(k, path.k_step)};
}

// A stream-K plan's schedule for an m x n x k product.
inline StreamKSchedule stream_k_schedule_for(const GemmPlan& p, std::int64_t m, std::int64_t n, std::int64_t k) {
  const StreamKWork w = stream_k_work(*p.path, m, n, k);
  return make_stream_k_schedule(w.tiles, w.slabs, p.stream_k_blocks);
}

// "path", "path split S", "path cluster S" or "path stream-k B": how benchmarks and the autotuner
// name a plan.
inline std::string plan_label(const GemmPlan& p) {
  if (p.path == nullptr) return "none";
  if (p.stream_k_blocks > 0) return std::string(p.path->name) + " stream-k " + std::to_string(p.stream_k_blocks);
  if (p.splits <= 1) return p.path->name;
  return std::string(p.path->name) + (p.cluster ? " cluster " : " split ") + std::to_string(p.splits);
}

// Whether the plan can serve an m x n x k product: the path's shape limits, the grid's limits, and a
// split arithmetic that covers k exactly with no empty range.
inline bool plan_fits(const GemmPlan& p, std::int64_t m, std::int64_t n, std::int64_t k) {
  if (p.path == nullptr || m < 0 || n < 0 || k < 0) return false;
  if (p.path->kind == PathKind::few_rows && m > p.path->bm) return false;
  if (p.path->kind == PathKind::few_cols && n > p.path->bn) return false;
  if (p.path->kind == PathKind::outer_product && (k > p.path->k_step || p.splits != 1 || p.stream_k_blocks != 0))
    return false;
  if (p.stream_k_blocks != 0) {
    if (p.stream_k_blocks < 0 || p.stream_k_blocks > kMaxStreamKBlocks || p.path->run_stream_k == nullptr ||
        p.path->kind != PathKind::tile || p.splits != 1 || p.cluster || p.k_split != k || k <= 0)
      return false;
    const StreamKWork w = stream_k_work(*p.path, m, n, k);
    return stream_k_schedule_fits(w.tiles, w.slabs, p.stream_k_blocks);
  }
  if (p.splits == 1) return p.k_split == k && !p.cluster;
  if (p.cluster && (p.path->run_cluster == nullptr || p.splits > kMaxClusterSplits)) return false;
  if (!p.path->splits_k || p.splits < 1 || p.splits > kMaxSplits || k <= 0) return false;
  if (p.k_split <= 0 || p.k_split % p.path->k_align != 0) return false;
  return (p.splits - 1) * p.k_split < k && p.splits * p.k_split >= k;
}

// Blocks along the grid's x for the plan's kernel on an m x n output.
inline std::int64_t plan_blocks_x(const RungEntry& path, std::int64_t m, std::int64_t n) {
  switch (path.kind) {
    case PathKind::few_rows: return ceil_div<std::int64_t>(n, path.bn);
    case PathKind::few_cols: return ceil_div<std::int64_t>(m, path.bm);
    case PathKind::outer_product: return ceil_div<std::int64_t>(m, path.bm) * OuterProductShape::windows(n);
    case PathKind::tile: break;
  }
  return ceil_div<std::int64_t>(m, path.bm) * ceil_div<std::int64_t>(n, path.bn);
}

// The split rule of the ladder rungs that split k (RungEntry::ladder_splits: the tensor-core rungs;
// the tuned rung's pick has its own cost model): one split, unless `tiles` blocks leave more than half
// of the `resident` blocks the GPU holds at once idle; then as many as fill those about once, each at
// least kMinLadderSplitDepth deep (one 32-deep slab).
inline constexpr std::int64_t kMinLadderSplitDepth = 32;
inline int fill_splits(std::int64_t tiles, std::int64_t k, std::int64_t resident) {
  if (tiles <= 0 || k <= 0 || 2 * tiles > resident) return 1;
  const std::int64_t splits = min_of<std::int64_t>(resident / tiles, k / kMinLadderSplitDepth);
  return static_cast<int>(max_of<std::int64_t>(1, min_of<std::int64_t>(splits, kMaxSplits)));
}

// Split-K partial products: one m x ld slice per split, ld = n rounded up to 4 (each row starts
// 16-byte aligned, so the reduction reads float4).
inline std::int64_t partials_ld(std::int64_t n) { return round_up<std::int64_t>(max_of<std::int64_t>(n, 1), 4); }
// A stream-K plan's: kStreamKSlotsPerBlock partial tiles per block, then (from
// stream_k_tickets_offset, 256-byte aligned) a ticket per tile: every tile may be shared, as far as
// the workspace query knows.
inline std::size_t stream_k_tickets_offset(const GemmPlan& p) {
  const auto tile_bytes = static_cast<std::size_t>(p.path->bm) * static_cast<std::size_t>(p.path->bn) * sizeof(float);
  return round_up<std::size_t>(static_cast<std::size_t>(p.stream_k_blocks) * kStreamKSlotsPerBlock * tile_bytes, 256);
}
inline std::size_t stream_k_partials_bytes(const GemmPlan& p, std::int64_t m, std::int64_t n) {
  const std::int64_t tiles = tile_count(max_of<std::int64_t>(m, 1), max_of<std::int64_t>(n, 1), p.path->bm, p.path->bn);
  return stream_k_tickets_offset(p) + static_cast<std::size_t>(tiles) * sizeof(unsigned);
}
inline std::size_t partials_bytes(const GemmPlan& p, std::int64_t m, std::int64_t n) {
  if (p.stream_k_blocks > 0) return stream_k_partials_bytes(p, m, n);
  if (p.splits <= 1 || p.cluster) return 0;
  return static_cast<std::size_t>(p.splits) * static_cast<std::size_t>(m) * static_cast<std::size_t>(partials_ld(n)) *
         sizeof(float);
}

// The split-K reduction's shape. Each output (a float4 of a row, or one element when C takes no
// 16-byte accesses) gets `lanes` consecutive lanes that sum every lanes-th partial and then combine
// by shuffles: a fixed order, so the bits are the same every run, and a short serial chain even for
// hundreds of splits (a tiny output with a long k would otherwise leave a few threads walking them
// all). Host side too, because the top-2 workspace holds one partial per block of the reduction.
inline constexpr int kSplitKReduceThreads = 256;
GPUPRIMS_HD int split_k_reduce_lanes(int splits) {
  int lanes = 1;
  while (lanes < 32 && lanes * 8 < splits) lanes *= 2;  // at most 8 partials per lane (or 32 lanes)
  return lanes;
}
// Blocks: enough to cover the output once, at most 8 per SM (a grid-stride loop takes the rest). A lane
// group covers a float4 of a row when C takes 16-byte accesses (vector_c), else one element: sized for
// float4s, a C without them had a quarter of the groups it needs, each walking four outputs' partials
// one after another (15 x 61 x 1311, 41 splits: 8 blocks where 29 cover it).
GPUPRIMS_HD std::int64_t split_k_reduce_blocks(std::int64_t m, std::int64_t n, int splits, int sm_count,
                                               bool vector_c) {
  const std::int64_t outputs = vector_c ? m * ceil_div<std::int64_t>(n, 4) : m * n;
  const std::int64_t threads = outputs * split_k_reduce_lanes(splits);
  return max_of<std::int64_t>(1, min_of<std::int64_t>(ceil_div<std::int64_t>(threads, kSplitKReduceThreads),
                                                      std::int64_t{8} * max_of(sm_count, 1)));
}

// Blocks of the kernel that runs the epilogue: the plan's own kernel (a cluster plan's has a block per
// tile and split), or the reduction after a split, the most it launches for any C (workspace sizing).
inline std::int64_t epilogue_blocks(const GemmPlan& p, std::int64_t m, std::int64_t n, int sm_count) {
  if (p.stream_k_blocks > 0) {
    // Its grid, StreamKSchedule::grid(), with every sharing block counted (k may leave fewer).
    return stream_k_whole_tiles(plan_blocks_x(*p.path, m, n), p.stream_k_blocks) + p.stream_k_blocks;
  }
  if (p.cluster) return plan_blocks_x(*p.path, m, n) * p.splits;
  return p.splits > 1 ? split_k_reduce_blocks(m, n, p.splits, sm_count, false) : plan_blocks_x(*p.path, m, n);
}

// Whether the kernel that runs the epilogue is about one wave, so that its blocks run together and
// a ticket per block at their end costs little: then that kernel's last block finishes the fused
// top-2 (common/device/top2_atomic_merge.cuh) instead of a kernel launched after it. The split-K
// reduction always (its grid is capped at 8 blocks per SM); any other kernel when its blocks fit
// `resident_per_sm` per SM (the path's occupancy; 0 where unknown counts as 2).
// The outer-product path's kernel always: its grid is many short blocks of 256 threads (2205 at
// 2339 x 7091 x 1), and merging a block's pairs before one push costs less than a push from each of its
// eight warps, all of them atomics on the same two words.
inline bool epilogue_in_one_wave(const GemmPlan& p, std::int64_t m, std::int64_t n, int sm_count, int resident_per_sm) {
  if (p.splits > 1 && !p.cluster) return true;
  if (p.path->kind == PathKind::outer_product) return true;
  const std::int64_t per_sm = resident_per_sm > 0 ? resident_per_sm : 2;
  return epilogue_blocks(p, m, n, sm_count) <= per_sm * max_of(sm_count, 1);
}

// Whether a split-K plan's fused global top-2 ends without the last-block ticket: the reduction's
// warps push their pairs as they are, and a one-thread kernel launched as the reduction's programmatic
// dependent (dependent_launch.cuh) writes the result once that grid has completed. Only a small
// reduction grid, on a device with dependent launch: there the ticket's chain (the push's wait, the
// release, the ticket, the last block's read) is longer than the wait for a grid of a few blocks to
// complete, and eight pushes a block are few. On an H200 (run JJ, results/nvidia-h200/README.md), the
// top-2's time over the plain reduction: 4 blocks 1.33-1.43 us against the ticket's 1.63-1.77, 16
// blocks 1.68-1.73 against 1.99-2.03; at 128 blocks 2.35-2.58 against 2.02-2.10, 1024 warps'
// atomics on the same two words.
inline constexpr std::int64_t kDependentEndMaxBlocks = 16;
inline bool epilogue_ends_in_dependent(const GemmPlan& p, std::int64_t m, std::int64_t n, int sm_count, bool vector_c,
                                       bool dependent_launch) {
  if (!dependent_launch || p.splits <= 1 || p.cluster || p.stream_k_blocks > 0) return false;
  return split_k_reduce_blocks(m, n, p.splits, sm_count, vector_c) <= kDependentEndMaxBlocks;
}

// Where the parts of a call's workspace start: the top-2 part (when the call ranks), then the split
// partials, each 256-byte aligned.
inline constexpr std::size_t kWorkspaceAlign = 256;
inline std::size_t workspace_part(std::size_t bytes) { return round_up<std::size_t>(bytes, kWorkspaceAlign); }

}  // namespace gpuprims::detail
