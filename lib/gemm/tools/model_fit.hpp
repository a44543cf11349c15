#pragma once
// Fits the tuned rung's cost model (gemm/src/cost_model.hpp) to measured times, and scores how well
// its pick does: the autotuner's half that needs no GPU. Not part of the installed library; the
// autotuner and the CPU tests link it.
#include <cstdint>
#include <string>
#include <vector>

#include "gemm/src/cost_model.hpp"

namespace gpuprims::detail {

// One timed candidate: a plan on tuned path `path` for an m x n x k product.
struct TimedPlan {
  std::int64_t m, n, k;
  bool store_c;
  int path;
  GemmPlan plan;
  double us;  // measured (median)
};

struct FitReport {
  double rms_log_error = 0;  // of the fitted model over the samples it was fitted to
  int sweeps = 0;
};

// Adjusts launch_us, reduce_us, cluster_us (when cluster plans were timed) and every measured path's block_us, step_us,
// alone (within [1, occupancy]), bandwidth (within [0.1, 1]) and, where shapes without edge tiles were timed,
// whole_tiles_step (within [0.5, 1.5]) to minimize the sum of squared log errors; dram_gbs stays as given (it is
// measured directly). Paths without samples keep their constants.
// scope whole_tiles: only the whole_tiles_step factors move, every other constant stays as given (a
// sweep's shapes without edge tiles then refine a model fitted before, without refitting it).
enum class FitScope { all, whole_tiles };
FitReport fit_model(const std::vector<TimedPlan>& samples, const DeviceShape& device, ModelConstants* model,
                    FitScope scope = FitScope::all);

// How the model's pick does on measured shapes: for each shape (samples with the same m, n, k and
// store_c), the measured time of the best candidate over the measured time of the candidate the model
// ranks first. geomean and worst over the shapes (1 = always the fastest measured candidate), and each
// shape's two candidates (sgemm_autotune --score-only prints them).
struct ShapePick {
  const TimedPlan* picked;   // the candidate the model ranks first
  const TimedPlan* fastest;  // the fastest measured candidate
};
struct PickScore {
  double geomean = 1, worst = 1;
  int shapes = 0;
  std::string worst_shape;
  std::vector<ShapePick> per_shape;  // in (m, n, k, store_c) order; points into the samples
};
PickScore score_pick(const std::vector<TimedPlan>& samples, const DeviceShape& device, const ModelConstants& model);

// The constants as model_constants.inc lines (the globals, then one line per tuned path).
std::string model_constants_inc(const ModelConstants& model, const std::string& header_comment);

}  // namespace gpuprims::detail
