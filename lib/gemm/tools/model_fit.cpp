#include "gemm/tools/model_fit.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>

namespace gpuprims::detail {
namespace {

double log_error(const TimedPlan& s, const DeviceShape& device, const ModelConstants& model) {
  const double pred = predict_us(s.path, s.plan, s.m, s.n, s.k, s.store_c, device, model);
  return std::log(pred) - std::log(s.us);
}

double loss(const std::vector<const TimedPlan*>& samples, const DeviceShape& device, const ModelConstants& model) {
  double sum = 0;
  for (const TimedPlan* s : samples) {
    const double e = log_error(*s, device, model);
    sum += e * e;
  }
  return sum;
}

// Multiplicative coordinate descent on one parameter: the best of a few scalings of it, within
// [lo, hi], judged on the samples it affects.
bool improve(double* param, double lo, double hi, const std::vector<const TimedPlan*>& affected,
             const DeviceShape& device, ModelConstants* model) {
  static constexpr double kScales[] = {0.5, 0.8, 0.9, 0.97, 0.99, 1.01, 1.03, 1.1, 1.25, 2.0};
  const double start = *param;
  double best_value = start, best_loss = loss(affected, device, *model);
  const double start_loss = best_loss;
  for (double s : kScales) {
    *param = std::clamp(start * s, lo, hi);
    const double l = loss(affected, device, *model);
    if (l < best_loss) {
      best_loss = l;
      best_value = *param;
    }
  }
  *param = best_value;
  return best_loss < start_loss * (1 - 1e-9);
}

}  // namespace

FitReport fit_model(const std::vector<TimedPlan>& samples, const DeviceShape& device, ModelConstants* model,
                    FitScope scope) {
  FitReport report;
  std::vector<const TimedPlan*> all;
  std::vector<std::vector<const TimedPlan*>> by_path(kNumTunedPaths), whole_by_path(kNumTunedPaths);
  std::vector<const TimedPlan*> split, cluster, stream_k;
  for (const TimedPlan& s : samples) {
    all.push_back(&s);
    by_path[s.path].push_back(&s);
    if (whole_tiles(*tuned_paths()[s.path], s.m, s.n, s.k)) whole_by_path[s.path].push_back(&s);
    if (s.plan.splits > 1) (s.plan.cluster ? cluster : split).push_back(&s);
    if (s.plan.stream_k_blocks > 0) stream_k.push_back(&s);
  }
  model->cluster_fitted = model->cluster_fitted || !cluster.empty();
  model->stream_k_fitted = model->stream_k_fitted || !stream_k.empty();
  const bool everything = scope == FitScope::all;
  for (report.sweeps = 0; report.sweeps < 400; ++report.sweeps) {
    bool changed = false;
    if (everything) {
      changed |= improve(&model->launch_us, 0.2, 20.0, all, device, model);
      changed |= improve(&model->reduce_us, 0.01, 50.0, split, device, model);
      if (!cluster.empty()) changed |= improve(&model->cluster_us, 0.0, 50.0, cluster, device, model);
      if (!stream_k.empty()) changed |= improve(&model->stream_k_factor, 0.5, 3.0, stream_k, device, model);
    }
    for (int i = 0; i < kNumTunedPaths; ++i) {
      if (by_path[i].empty()) continue;
      PathCost& c = model->paths[i];
      if (everything) {
        const double occupancy = std::max(device.occupancy[i], 1);
        changed |= improve(&c.block_us, 1e-3, 1e3, by_path[i], device, model);
        changed |= improve(&c.step_us, 1e-5, 1e3, by_path[i], device, model);
        changed |= improve(&c.alone, 1.0, occupancy, by_path[i], device, model);
        changed |= improve(&c.bandwidth, 0.1, 1.0, by_path[i], device, model);
      }
      // Judged on the shapes it applies to only, as it changes nothing elsewhere.
      if (!whole_by_path[i].empty()) changed |= improve(&c.whole_tiles_step, 0.5, 1.5, whole_by_path[i], device, model);
    }
    if (!changed) break;
  }
  report.rms_log_error = all.empty() ? 0 : std::sqrt(loss(all, device, *model) / static_cast<double>(all.size()));
  return report;
}

PickScore score_pick(const std::vector<TimedPlan>& samples, const DeviceShape& device, const ModelConstants& model) {
  using Key = std::tuple<std::int64_t, std::int64_t, std::int64_t, bool>;
  std::map<Key, std::vector<const TimedPlan*>> shapes;
  for (const TimedPlan& s : samples) shapes[Key{s.m, s.n, s.k, s.store_c}].push_back(&s);
  PickScore score;
  double log_sum = 0;
  for (const auto& [key, shape] : shapes) {
    const TimedPlan* fastest = shape.front();
    const TimedPlan* picked = shape.front();
    double picked_pred = INFINITY;
    for (const TimedPlan* s : shape) {
      if (s->us < fastest->us) fastest = s;
      const double pred = predict_us(s->path, s->plan, s->m, s->n, s->k, s->store_c, device, model);
      if (pred < picked_pred) {
        picked_pred = pred;
        picked = s;
      }
    }
    const double ratio = fastest->us / picked->us;
    log_sum += std::log(ratio);
    if (ratio < score.worst) {
      score.worst = ratio;
      char buf[96];
      std::snprintf(buf, sizeof buf, "%lldx%lldx%lld%s", static_cast<long long>(std::get<0>(key)),
                    static_cast<long long>(std::get<1>(key)), static_cast<long long>(std::get<2>(key)),
                    std::get<3>(key) ? "" : " (C not stored)");
      score.worst_shape = buf;
    }
    score.per_shape.push_back({picked, fastest});
    ++score.shapes;
  }
  if (score.shapes > 0) score.geomean = std::exp(log_sum / score.shapes);
  return score;
}

std::string model_constants_inc(const ModelConstants& model, const std::string& header_comment) {
  std::string out = header_comment;
  char buf[256];
  std::snprintf(buf, sizeof buf, "GPUPRIMS_MODEL_GLOBALS(%.6g, %.6g, %.6g)\n", model.dram_gbs, model.launch_us,
                model.reduce_us);
  out += buf;
  const auto& paths = tuned_paths();
  for (int i = 0; i < kNumTunedPaths; ++i) {
    const PathCost& c = model.paths[i];
    std::snprintf(buf, sizeof buf, "GPUPRIMS_MODEL_PATH(\"%s\", %.6g, %.6g, %.6g, %.6g)\n", paths[i]->name, c.block_us,
                  c.step_us, c.alone, c.bandwidth);
    out += buf;
  }
  for (int i = 0; i < kNumTunedPaths; ++i) {
    if (model.paths[i].whole_tiles_step == 1.0) continue;
    std::snprintf(buf, sizeof buf, "GPUPRIMS_MODEL_WHOLE_TILES(\"%s\", %.6g)\n", paths[i]->name,
                  model.paths[i].whole_tiles_step);
    out += buf;
  }
  if (model.cluster_fitted) {
    std::snprintf(buf, sizeof buf, "GPUPRIMS_MODEL_CLUSTER(%.6g)\n", model.cluster_us);
    out += buf;
  }
  if (model.stream_k_fitted) {
    std::snprintf(buf, sizeof buf, "GPUPRIMS_MODEL_STREAM_K(%.6g)\n", model.stream_k_factor);
    out += buf;
  }
  return out;
}

}  // namespace gpuprims::detail
