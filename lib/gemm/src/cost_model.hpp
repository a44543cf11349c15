#pragma once
// The tuned rung's pick: every path that fits the shape, with every split count worth trying, is
// given a predicted time, and the fastest prediction wins. The model is small and physical, so it
// carries over to shapes nobody measured:
//
//   blocks  = blocks_x(path, m, n) * splits            q = ceil(blocks / SMs), the busiest SM's share
//   compute = block_us * ceil(q / occupancy) + step_us * steps * max(q, alone)
//             (step_us times whole_tiles_step when no tile has an edge: whole_tiles)
//   memory  = bytes moved through device memory / (dram_gbs * bandwidth)
//   time    = launch_us + max(compute, memory)  [+ launch_us + reduce_us + partials / dram_gbs]
//                                               [or + cluster_us: splits summed in the launch]
//                                               [or stream-K: + launch_us + partial tiles / dram_gbs]
//
// A stream-K plan (whole tiles, then the last waves' k slabs shared evenly by a wave of blocks) counts q = blocks / SMs
// without rounding up, and block_us once more per block (the pieces at the ends of its run).
//
// where steps = k_split / k_step (a block's main-loop steps), occupancy is read off the device at
// run time, and block_us (a block's fixed cost), step_us (one step's share of an SM when the SM is
// busy), alone (how many blocks' worth of an SM one block needs even when it is alone there: its
// latency floor) and bandwidth (the share of the copy bandwidth the path reaches when bound by it)
// are per-path constants that bench/sgemm_autotune fits to timings on a real GPU and writes to
// model_constants.inc. Plain host code, tested on the CPU.
#include <cstdint>

#include <gpuprims/status.hpp>

#include "gemm/src/detail/tile_index.hpp"
#include "gemm/src/plan.hpp"

namespace gpuprims::detail {

struct PathCost {
  double block_us = 2.0;
  double step_us = 1.0;
  double alone = 1.0;
  double bandwidth = 1.0;
  // step_us's factor for a tile path when no tile has an edge (whole_tiles): every block then runs
  // the main loop without edge tests (rung 9's kNoEdge copy), which takes fewer instructions a step
  // than the checked loop that edge tiles run. Fitted with the rest where the sweep timed such shapes
  // (GPUPRIMS_MODEL_WHOLE_TILES lines); 1 where model_constants.inc has none.
  double whole_tiles_step = 1.0;
};

struct ModelConstants {
  double dram_gbs = 3000.0;  // device memory bandwidth, bytes read + written per second / 1e9
  double launch_us = 2.5;    // one kernel in a stream: launch to first block, and the gap after it
  double reduce_us = 1.0;    // the split-K reduction's fixed cost beyond its launch
  // A cluster plan's in-kernel sum of the splits (two cluster barriers, the partial tiles read from
  // the cluster's shared memory). Fitted when the sweep timed cluster plans; else this prior.
  double cluster_us = 1.0;
  bool cluster_fitted = false;  // cluster_us came from timings (model_constants.inc has it)
  // A stream-K plan's compute term is scaled by this. Fitted when the sweep timed stream-K plans; else
  // this prior, set by hand from run DQ on session 39's form, whose blocks ran slower than the plain
  // kernel's per tile (H200: 2500^3 in 128 x 128 tiles 0.820 ms measured against 0.791 predicted,
  // 1500^3 0.196 against 0.186, while the plain and split plans there came in 3-10% under their
  // predictions). Session 41's form runs faster than that prior says (docs/SGEMM-TUNED.md).
  double stream_k_factor = 1.08;
  bool stream_k_fitted = false;  // stream_k_factor came from timings (model_constants.inc has it)
  PathCost paths[kNumTunedPaths];
  bool complete = false;  // every tuned path has fitted constants (a CPU test insists on it)
};

// The fitted constants of model_constants.inc, in tuned_paths() order.
const ModelConstants& fitted_constants();

// The call a plan is picked for. The whole-tile factors were fitted to plain calls; the fused
// epilogues gave back part of what some tiles' main loops gain (H200, runs FR and FS in
// results/nvidia-h200/README.md):
// - the global top-2 on 256 x 128 tiles at 4096^3 took 2.811 ms, against 2.750 on 128 x 256 (the plain
//   call 2.712 against 2.747); on 64 x 128 tiles it gained as the plain call did (16384^2 x 64 0.881
//   against 0.943 ms, 8192^2 x 128 0.398 against 0.427). So top2 ranks without 256 x 128's factor.
// - the per-row top-2 on 64 x 128 tiles at 65536^2 x 128 took 32.6 ms, against 28.6 on 128 x 256, and
//   0.578 against 0.555 at 8192^2 x 128. So row_top2 ranks without any of them.
enum class PickFor { plain, top2, row_top2 };
const ModelConstants& constants_for(PickFor call);

// What the model needs of the device.
struct DeviceShape {
  int sm_count = 1;
  bool dependent_launch = false;       // programmatic dependent launch (compute capability 9.0+)
  bool clusters = false;               // every path's cluster form runs here (cluster_usable)
  int occupancy[kNumTunedPaths] = {};  // resident blocks per SM of each tuned path's kernel
};

// Resident blocks per SM of `path`'s kernel on `device` (its occupancy); 0 for a path that is not one
// of the tuned paths (the ladder rungs), whose occupancy is not queried.
int resident_blocks_per_sm(const DeviceShape& device, const RungEntry* path) noexcept;

// The current device's shape (occupancies queried once per device).
Status current_device_shape(const DeviceShape** out) noexcept;

// Whether no tile of an m x n x k product on `path` has an edge: tiles cover m and n exactly and k is
// whole slabs (the kernel's slab_has_no_edge, for operands that take 16-byte loads, as packed ones do
// then). Tile paths only.
inline bool whole_tiles(const RungEntry& path, std::int64_t m, std::int64_t n, std::int64_t k) {
  return path.kind == PathKind::tile && path.bm > 0 && path.bn > 0 && path.k_step > 0 &&
         tiles_cover_exactly(m, n, k, path.bm, path.bn, path.k_step);
}

// Predicted time in microseconds of plan (on tuned path `path_index`) for an m x n x k product; store_c:
// the product is written to C (false only for a top-2 call without C).
double predict_us(int path_index, const GemmPlan& plan, std::int64_t m, std::int64_t n, std::int64_t k, bool store_c,
                  const DeviceShape& device, const ModelConstants& model);

// The split counts the pick tries for a path (before make_plan trims them to k).
inline constexpr int kSplitCandidates[] = {1,  2,  3,  4,  5,  6,  8,   10,  12,  16,  20,  24,
                                           32, 40, 48, 64, 80, 96, 128, 160, 192, 256, 384, 512};

// Calls f(path_index, plan) for every plan the pick considers for the shape: each tuned path whose
// shape limits allow it, unsplit, and split while every split stays at least two main-loop steps
// deep and the grid stays under 8 full waves (past that a split cannot pay); on a device with
// clusters, the same splits up to kMaxClusterSplits again in their cluster form while the grid has at
// most a block per SM. That is the latency-bound regime the form is for; past it the cluster form ran
// 10-50% slower than the two-launch split on an H100 (sgemm_bench held-out, e.g. 128 x 3000 x 3000,
// 384 blocks: 0.105 against 0.071 ms), a cost the model's per-block terms do not capture. And a
// tile path's stream-K form over one wave, when its tiles overrun a whole number of waves. Shared by
// the pick and the autotuner, which times exactly these.
template <class F>
void for_each_candidate(std::int64_t m, std::int64_t n, std::int64_t k, const DeviceShape& device, F&& f) {
  const auto& paths = tuned_paths();
  for (int i = 0; i < kNumTunedPaths; ++i) {
    const RungEntry& p = *paths[i];
    if (p.kind == PathKind::few_rows && m > p.bm) continue;
    if (p.kind == PathKind::few_cols && n > p.bn) continue;
    const std::int64_t blocks_x = plan_blocks_x(p, m, n);
    const std::int64_t wave = static_cast<std::int64_t>(device.sm_count) * max_of(device.occupancy[i], 1);
    const auto worth_splitting = [&](const GemmPlan& plan) {
      return plan.k_split >= 2 * static_cast<std::int64_t>(p.k_step) && blocks_x * plan.splits <= 8 * wave;
    };
    int last_splits = 0;
    for (int s : kSplitCandidates) {
      const GemmPlan plan = make_plan(p, k, s);
      if (plan.splits == last_splits) continue;
      if (plan.splits > 1 && !worth_splitting(plan)) break;
      last_splits = plan.splits;
      f(i, plan);
    }
    // Stream-K over one wave, for a tile path with that form whose tiles fill a wave and then part
    // of another (whole waves leave nothing to balance).
    if (p.run_stream_k != nullptr && blocks_x > wave && blocks_x % wave != 0 && wave <= kMaxStreamKBlocks &&
        k >= 2 * static_cast<std::int64_t>(p.k_step))
      f(i, make_stream_k_plan(p, k, static_cast<int>(wave)));
    if (!device.clusters || p.run_cluster == nullptr) continue;
    last_splits = 1;
    for (int s = 2; s <= kMaxClusterSplits; ++s) {
      const GemmPlan plan = make_cluster_plan(p, k, s);
      if (plan.splits == last_splits) continue;
      if (!plan.cluster || !worth_splitting(plan) || blocks_x * plan.splits > device.sm_count) break;
      last_splits = plan.splits;
      f(i, plan);
    }
  }
}

// Whether the tuned rung takes the outer-product path (kOuterProductPath, kernels/outer_product.cuh)
// for an m x n x k product instead of the plan with the lowest predicted time: 1 <= k <= 4, C stored,
// and either C without 16-byte accesses (c_vec4 false: ldc % 4 != 0 or C not 16-byte aligned) and at
// least OuterProductShape::kMinOutputs results, or - for a plain call or a fused top-2, not the
// per-row one - a C with them, at least kMinVectorColumns columns and kMinVectorOutputs results. A
// rule beside the model rather than a path in it: the model does not see C's alignment, which is what
// sets the tile paths' time apart here (tuning.hpp has the measurements).
inline bool outer_product_serves(std::int64_t m, std::int64_t n, std::int64_t k, bool store_c, bool c_vec4,
                                 PickFor call = PickFor::plain) {
  using S = OuterProductShape;
  if (!store_c || k < 1 || k > S::kMaxK || n <= 0) return false;
  if (!c_vec4) return m >= ceil_div<std::int64_t>(S::kMinOutputs, n);
  return call != PickFor::row_top2 && n >= S::kMinVectorColumns && m >= ceil_div<std::int64_t>(S::kMinVectorOutputs, n);
}

// The plan with the lowest predicted time.
GemmPlan pick_plan(std::int64_t m, std::int64_t n, std::int64_t k, bool store_c, const DeviceShape& device,
                   const ModelConstants& model);

}  // namespace gpuprims::detail
