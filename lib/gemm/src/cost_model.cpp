#include "gemm/src/cost_model.hpp"

#include <cmath>
#include <cstring>
#include <mutex>

#include "common/src/cuda_check.hpp"
#include "common/src/device_info.hpp"

namespace gpuprims::detail {
namespace {

struct NamedCost {
  const char* path;
  PathCost cost;
};
struct NamedFactor {
  const char* path;  // nullptr: the list's leading placeholder (a list may have no other entry)
  double factor;
};

// model_constants.inc: GPUPRIMS_MODEL_GLOBALS(dram_gbs, launch_us, reduce_us) once, then
// GPUPRIMS_MODEL_PATH(name, block_us, step_us, alone, bandwidth) per tuned path, as sgemm_autotune
// writes them, GPUPRIMS_MODEL_WHOLE_TILES(name, whole_tiles_step) per path whose factor was fitted,
// GPUPRIMS_MODEL_CLUSTER(cluster_us) when its sweep timed cluster plans and
// GPUPRIMS_MODEL_STREAM_K(factor) when it timed stream-K plans. Each pass below takes one kind of line.
#define GPUPRIMS_MODEL_CLUSTER(us)
#define GPUPRIMS_MODEL_STREAM_K(factor)
#define GPUPRIMS_MODEL_WHOLE_TILES(name, factor)
#define GPUPRIMS_MODEL_GLOBALS(dram, launch, reduce)
#define GPUPRIMS_MODEL_PATH(name, block, step, alone, bandwidth) \
  NamedCost{name, PathCost{block, step, alone, bandwidth}},
constexpr NamedCost kFittedPaths[] = {
#include "gemm/src/model_constants.inc"
};
#undef GPUPRIMS_MODEL_PATH
#define GPUPRIMS_MODEL_PATH(name, block, step, alone, bandwidth)
#undef GPUPRIMS_MODEL_WHOLE_TILES
#define GPUPRIMS_MODEL_WHOLE_TILES(name, factor) NamedFactor{name, factor},
constexpr NamedFactor kFittedWholeTiles[] = {
    NamedFactor{nullptr, 1.0},
#include "gemm/src/model_constants.inc"
};
#undef GPUPRIMS_MODEL_WHOLE_TILES
#define GPUPRIMS_MODEL_WHOLE_TILES(name, factor)
#undef GPUPRIMS_MODEL_GLOBALS
#define GPUPRIMS_MODEL_GLOBALS(dram, launch, reduce) constexpr double kFitted[3] = {dram, launch, reduce};
#include "gemm/src/model_constants.inc"
#undef GPUPRIMS_MODEL_GLOBALS
#undef GPUPRIMS_MODEL_CLUSTER
#undef GPUPRIMS_MODEL_STREAM_K
// The optional constants the file has; -1 where it has none (the prior stays).
struct OptionalConstants {
  double cluster_us = -1.0;
  double stream_k_factor = -1.0;
};
constexpr OptionalConstants kFittedOptional = [] {
  OptionalConstants o;
#define GPUPRIMS_MODEL_GLOBALS(dram, launch, reduce)
#define GPUPRIMS_MODEL_CLUSTER(us) o.cluster_us = us;
#define GPUPRIMS_MODEL_STREAM_K(factor) o.stream_k_factor = factor;
#include "gemm/src/model_constants.inc"
  return o;
}();
#undef GPUPRIMS_MODEL_PATH
#undef GPUPRIMS_MODEL_WHOLE_TILES
#undef GPUPRIMS_MODEL_GLOBALS
#undef GPUPRIMS_MODEL_CLUSTER
#undef GPUPRIMS_MODEL_STREAM_K

ModelConstants build_fitted() {
  ModelConstants m;
  m.dram_gbs = kFitted[0];
  m.launch_us = kFitted[1];
  m.reduce_us = kFitted[2];
  m.cluster_fitted = kFittedOptional.cluster_us >= 0.0;
  if (m.cluster_fitted) m.cluster_us = kFittedOptional.cluster_us;
  m.stream_k_fitted = kFittedOptional.stream_k_factor >= 0.0;
  if (m.stream_k_fitted) m.stream_k_factor = kFittedOptional.stream_k_factor;
  m.complete = true;
  const auto& paths = tuned_paths();
  for (int i = 0; i < kNumTunedPaths; ++i) {
    bool found = false;
    for (const NamedCost& nc : kFittedPaths)
      if (std::strcmp(nc.path, paths[i]->name) == 0) {
        m.paths[i] = nc.cost;
        found = true;
      }
    for (const NamedFactor& w : kFittedWholeTiles)
      if (w.path != nullptr && std::strcmp(w.path, paths[i]->name) == 0) m.paths[i].whole_tiles_step = w.factor;
    m.complete = m.complete && found;
  }
  return m;
}

constexpr int kMaxDevices = 64;
struct ShapeCache {
  std::mutex mutex;
  bool filled[kMaxDevices] = {};
  DeviceShape shape[kMaxDevices];
};

}  // namespace

const ModelConstants& fitted_constants() {
  static const ModelConstants model = build_fitted();
  return model;
}

const ModelConstants& constants_for(PickFor call) {
  static const ModelConstants top2 = [] {
    ModelConstants m = fitted_constants();
    const auto& paths = tuned_paths();
    for (int i = 0; i < kNumTunedPaths; ++i)
      if (paths[i]->kind == PathKind::tile && paths[i]->bm == 256 && paths[i]->bn == 128)
        m.paths[i].whole_tiles_step = 1.0;
    return m;
  }();
  static const ModelConstants row_top2 = [] {
    ModelConstants m = fitted_constants();
    for (PathCost& c : m.paths) c.whole_tiles_step = 1.0;
    return m;
  }();
  switch (call) {
    case PickFor::top2: return top2;
    case PickFor::row_top2: return row_top2;
    case PickFor::plain: break;
  }
  return fitted_constants();
}

int resident_blocks_per_sm(const DeviceShape& device, const RungEntry* path) noexcept {
  const auto& paths = tuned_paths();
  for (int i = 0; i < kNumTunedPaths; ++i)
    if (paths[i] == path) return device.occupancy[i];
  return 0;
}

Status current_device_shape(const DeviceShape** out) noexcept {
  const DeviceInfo* info = nullptr;
  GPUPRIMS_TRY(current_device_info(&info));
  if (info->ordinal < 0 || info->ordinal >= kMaxDevices) return Status::unsupported;
  static ShapeCache cache;
  std::lock_guard<std::mutex> lock(cache.mutex);
  DeviceShape& s = cache.shape[info->ordinal];
  if (!cache.filled[info->ordinal]) {
    s.sm_count = info->sm_count;
    s.dependent_launch = info->dependent_launch;
    s.clusters = info->clusters;
    const auto& paths = tuned_paths();
    for (int i = 0; i < kNumTunedPaths; ++i) {
      GPUPRIMS_TRY(paths[i]->occupancy(&s.occupancy[i]));
      if (s.clusters && paths[i]->cluster_usable != nullptr) GPUPRIMS_TRY(paths[i]->cluster_usable(&s.clusters));
    }
    cache.filled[info->ordinal] = true;
  }
  *out = &s;
  return Status::success;
}

double predict_us(int path_index, const GemmPlan& plan, std::int64_t m, std::int64_t n, std::int64_t k, bool store_c,
                  const DeviceShape& device, const ModelConstants& model) {
  const RungEntry& p = *plan.path;
  const PathCost& c = model.paths[path_index];
  const double sms = max_of(device.sm_count, 1);
  const double occupancy = max_of(device.occupancy[path_index], 1);
  const double blocks = static_cast<double>(plan_blocks_x(p, m, n)) * plan.splits;
  const double steps = std::ceil(static_cast<double>(plan.k_split) / p.k_step);
  const bool stream_k = plan.stream_k_blocks > 0;
  const double step_us = c.step_us * (whole_tiles(p, m, n, k) ? c.whole_tiles_step : 1.0);
  // Stream-K: the busiest SM's share is the tiles over the SMs, with no last wave rounded up, and a
  // block pays its fixed cost once more for the pieces at the ends of its run.
  const double q = stream_k ? blocks / sms : std::ceil(blocks / sms);
  const double compute =
      (c.block_us * (std::ceil(q / occupancy) + (stream_k ? 1.0 : 0.0)) + step_us * steps * max_of(q, c.alone)) *
      (stream_k ? model.stream_k_factor : 1.0);

  const double md = static_cast<double>(m), nd = static_cast<double>(n), kd = static_cast<double>(k);
  const double bytes_per_us = model.dram_gbs * 1e3;
  const bool two_launches = plan.splits > 1 && !plan.cluster;
  const double partials = two_launches ? static_cast<double>(partials_bytes(plan, m, n)) : 0.0;
  const double out_bytes = store_c ? 4.0 * md * nd : 0.0;
  const double main_bytes = 4.0 * (md * kd + kd * nd) + (two_launches ? partials : out_bytes);
  double t = model.launch_us + max_of(compute, main_bytes / (bytes_per_us * c.bandwidth));
  if (two_launches) t += model.launch_us + model.reduce_us + (partials + out_bytes) / bytes_per_us;
  if (plan.cluster) t += model.cluster_us;
  // Stream-K: the tickets' memset, and about one partial tile per block written and read back at the
  // end of the runs.
  if (stream_k) t += model.launch_us + 2.0 * plan.stream_k_blocks * 4.0 * p.bm * p.bn / bytes_per_us;
  return t;
}

GemmPlan pick_plan(std::int64_t m, std::int64_t n, std::int64_t k, bool store_c, const DeviceShape& device,
                   const ModelConstants& model) {
  GemmPlan best = make_plan(*tuned_paths()[0], k, 1);
  double best_us = INFINITY;
  for_each_candidate(m, n, k, device, [&](int i, const GemmPlan& plan) {
    const double t = predict_us(i, plan, m, n, k, store_c, device, model);
    if (t < best_us) {
      best_us = t;
      best = plan;
    }
  });
  return best;
}

}  // namespace gpuprims::detail
