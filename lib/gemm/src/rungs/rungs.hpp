#pragma once
// What dispatch knows of a kernel: its launcher and its output tile shape (the tile shape sizes the
// top-2 workspace: one partial per block), and for the tuned rung's paths what its pick
// (cost_model.hpp) needs to know of each kernel. The ladder registry (rungs/ladder.cu) holds one per
// public algorithm; the tuned rung's paths are listed by tuned_paths().
#include <array>
#include <cstddef>
#include <cstdint>

#include <gpuprims/gemm.hpp>
#include <gpuprims/status.hpp>

#include "gemm/src/detail/gemm_call.hpp"
#include "gemm/src/tuning.hpp"

namespace gpuprims::detail {

// How a path's blocks cover C: bm x bn tiles of any m x n (tile); at most bm rows, in bn columns per
// block (few_rows: m <= bm); bm rows per block, at most bn columns (few_cols: n <= bn); bm rows per
// block in windows of bn columns placed on each row's 128-byte lines, k at most k_step
// (outer_product: OuterProductShape::windows per row).
enum class PathKind { tile, few_rows, few_cols, outer_product };

struct RungEntry {
  const char* name;
  Status (*run)(const GemmCall&);
  int bm;  // output rows one block covers
  int bn;  // output columns one block covers
  // The tuned rung's paths fill these; ladder rungs keep the defaults (one k range, never picked).
  PathKind kind = PathKind::tile;
  bool splits_k = false;  // honours GemmCall::splits and GemmOperands::k_split (detail/k_range.cuh)
  int k_align = 1;        // a k split starts at a multiple of this, so 16-byte loads along k stay aligned
  int k_step = 1;         // k covered by one step of a block's main loop: the cost model's unit of work
  Status (*occupancy)(int* blocks_per_sm) = nullptr;  // resident blocks per SM (store-mode kernel)
  // The cluster split-K form (kernels/cluster_split_k.cuh; GemmCall::splits = 2..kMaxClusterSplits
  // blocks per tile), and whether it runs on the current device; nullptr for paths without one.
  Status (*run_cluster)(const GemmCall&) = nullptr;
  Status (*cluster_usable)(bool* usable) = nullptr;
  // Workspace the launcher needs for itself on the current device (GemmCall::rung_workspace, 16-byte
  // aligned) for a plan of `splits` ranges k_split deep; nullptr for paths that need none.
  std::size_t (*workspace_bytes)(std::int64_t m, std::int64_t n, std::int64_t k, int splits,
                                 std::int64_t k_split) = nullptr;
  // A ladder rung's split rule (plan_for): how many k splits an m x n x k product gets on a GPU of
  // sm_count SMs; nullptr: one k range.
  int (*ladder_splits)(std::int64_t m, std::int64_t n, std::int64_t k, int sm_count) = nullptr;
  // The stream-K form (kernels/stream_k.cuh; GemmCall::stream_k), for tile paths that have one.
  Status (*run_stream_k)(const GemmCall&) = nullptr;
};

// A line of the ladder registry (rungs/ladder.cu): a public algorithm and the path it runs (for
// tuned, a path without a launcher: the cost model picks among tuned_paths()).
struct LadderRung {
  gemm::Algorithm algo;
  RungEntry path;
};

// The registry line of algo; nullptr for a value outside the enum.
const LadderRung* ladder_rung(gemm::Algorithm algo);

// The tuned rung's paths: rung 9's kernel in several tile shapes, and the narrow-output kernels.
extern const RungEntry kTunedConfigs[kNumTunedConfigs];
extern const RungEntry kFewRowsPaths[kNumFewRowsPaths];
extern const RungEntry kFewColsPaths[kNumFewColsPaths];
// The outer-product path (k <= 4): not one of tuned_paths(), which the cost model ranks, but taken
// instead of its pick where outer_product_serves (cost_model.hpp) says.
extern const RungEntry kOuterProductPath;

inline constexpr int kNumTunedPaths = kNumTunedConfigs + kNumFewRowsPaths + kNumFewColsPaths;
// All of them in one list (tile configurations first, in kTunedConfigs order): what the cost model
// ranks, the autotuner times, and the tests force one by one.
const std::array<const RungEntry*, kNumTunedPaths>& tuned_paths();

}  // namespace gpuprims::detail
