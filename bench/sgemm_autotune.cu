// Autotune harness for the tuned rung: times every candidate plan the pick considers (cost_model.hpp:
// each path, unsplit and split) on the tuning shapes (gemm_shapes.hpp, never the held-out suite) on
// the present GPU, fits the cost model's constants to those times, and writes them as
// model_constants.inc, so the pick is measured, not guessed, and generalizes through the model rather
// than through a table lookup. It also reports how well the fitted pick does: in-sample, and with
// 5-fold cross-validation over the shapes (fit on four fifths, score on the rest).
//   sgemm_autotune [--out autotune.json] [--constants model_constants.inc] [--quick]
//   sgemm_autotune --from-json autotune.json [--constants F]   refit a stored sweep (no GPU needed)
//   ... [--fit-only whole-tiles]   fit only the whole-tile factors (cost_model.hpp, whole_tiles_step),
//       keeping every other constant as built in
//   sgemm_autotune --explain M N K   every candidate's measured and predicted time for one shape
//   sgemm_autotune --explain-top2 M N K [--only PLAN]   every candidate (or one) timed plain, fused
//       with and without C, and per-row without C
//   sgemm_autotune --score-only [--suite heldout] [--out F | --from-json F]
//       no fit: how the constants built in pick on a sweep (each shape's pick beside its fastest plan);
//       --suite heldout sweeps the held-out shapes instead, to judge the pick, never to fit it; --suite
//       aligned the second held-out set (multiples of 64, gemm_shapes.hpp) the same way
#include <gpuprims/gemm.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <ctime>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "gemm/src/gemm_internal.hpp"
#include "gemm/tools/model_fit.hpp"
#include "gemm_shapes.hpp"
#include "harness.hpp"
#include "testkit/cublas.hpp"
#include "testkit/random.hpp"

namespace {

using namespace gpuprims::bench;
namespace tk = gpuprims::testkit;
using tk::GemmShape;
using tk::shape_name;
namespace d = gpuprims::detail;

std::string utc_date() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

int path_index(const std::string& name) {
  for (int i = 0; i < d::kNumTunedPaths; ++i)
    if (name == d::tuned_paths()[i]->name) return i;
  return -1;
}

// One shape's operands on the device: A and B random (never zeros, fixed seeds), C for the output.
struct ShapeOperands {
  gpuprims::detail::DeviceBuffer<float> A, B, C;
  explicit ShapeOperands(const GemmShape& s)
      : A(device_buffer<float>(s.m * s.k, "A")),
        B(device_buffer<float>(s.k * s.n, "B")),
        C(device_buffer<float>(s.m * s.n, "C")) {
    BENCH_CUDA(tk::fill_uniform(A.get(), s.m * s.k, 21));
    BENCH_CUDA(tk::fill_uniform(B.get(), s.k * s.n, 22));
  }
};

// The most workspace any candidate plan of the shape needs: for plain calls, or (top2) for the global
// and the per-row top-2 as well.
std::size_t candidates_workspace_bytes(const GemmShape& s, const d::DeviceShape& device, bool top2) {
  std::size_t bytes = 16;
  d::for_each_candidate(s.m, s.n, s.k, device, [&](int, const d::GemmPlan& plan) {
    bytes = std::max({bytes, d::call_workspace_bytes(plan, s.m, s.n, top2, device.sm_count),
                      top2 ? d::call_workspace_bytes(plan, s.m, s.n, true, device.sm_count, true) : 0});
  });
  return bytes;
}

// Every candidate plan for one shape, timed on the present GPU.
std::vector<d::TimedPlan> time_candidates(const GemmShape& s, const ShapeOperands& ops, const d::DeviceShape& device,
                                          Timer& timer, const TimingOptions& opt) {
  std::vector<d::TimedPlan> samples;
  const std::size_t ws_bytes = candidates_workspace_bytes(s, device, false);
  const auto ws_buf = device_buffer<unsigned char>(ws_bytes, "workspace");
  void* ws = ws_buf.get();
  d::for_each_candidate(s.m, s.n, s.k, device, [&](int path, const d::GemmPlan& plan) {
    const d::SgemmArgs a{s.m,         s.n,  s.k,  1.0f,        ops.A.get(), s.k,
                         ops.B.get(), s.n,  0.0f, ops.C.get(), s.n,         gpuprims::gemm::Algorithm::tuned,
                         nullptr,     false};
    const Timing t = timer.time(
        [&] {
      if (d::sgemm_run(a, &plan, ws, ws_bytes, timer.stream()) != gpuprims::Status::success) std::exit(1);
        },
        opt);
    samples.push_back({s.m, s.n, s.k, true, path, plan, t.median_ms * 1e3});
    progress(shape_name(s.m, s.n, s.k) + " " + d::plan_label(plan), t.median_ms);
  });
  return samples;
}

// Every candidate on every tuning shape.
std::vector<d::TimedPlan> sweep(const std::vector<GemmShape>& shapes, const d::DeviceShape& device, Timer& timer,
                                const TimingOptions& opt) {
  std::vector<d::TimedPlan> samples;
  for (const GemmShape& s : shapes) {
    const ShapeOperands ops(s);
    const std::vector<d::TimedPlan> one = time_candidates(s, ops, device, timer, opt);
    samples.insert(samples.end(), one.begin(), one.end());
  }
  return samples;
}

// One shape on the present GPU as the --explain modes time it: the GPU, its shape for the model, an
// event timer, the benchmark's timing options and the shape's operands. on_gpu gives none without a
// GPU or its shape.
struct ShapeOnGpu {
  ShapeOnGpu(const GpuInfo& g, const d::DeviceShape* dev, const GemmShape& s)
      : gpu(g), device(dev), timer(gpu), ops(s) {}
  GpuInfo gpu;
  const d::DeviceShape* device;
  Timer timer;
  TimingOptions opt;
  ShapeOperands ops;
};
std::unique_ptr<ShapeOnGpu> on_gpu(const GemmShape& s) {
  GpuInfo gpu;
  const d::DeviceShape* device = nullptr;
  if (!gpu_info(&gpu) || d::current_device_shape(&device) != gpuprims::Status::success) return nullptr;
  return std::make_unique<ShapeOnGpu>(gpu, device, s);
}

// --explain M N K: why the pick chose what it chose for one shape. Times every candidate (as the sweep
// does, median of 25) and cuBLAS's FP32 SGEMM (pedantic math) on the same operands in the same
// process, and prints each plan's measured and predicted time, marking the pick (the lowest
// prediction, as pick_plan takes it over the same candidates) and the fastest. For reading, not fitting.
int explain(const GemmShape& s) {
  const auto run = on_gpu(s);
  if (!run) return 2;
  const std::vector<d::TimedPlan> samples = time_candidates(s, run->ops, *run->device, run->timer, run->opt);
  const tk::CublasHandle cublas(CUBLAS_PEDANTIC_MATH, run->timer.stream());
  BENCH_CUBLAS(cublas.status());
  const Timing vendor = run->timer.time(
      [&] {
    BENCH_CUBLAS(tk::sgemm_rowmajor(cublas.get(), s.m, s.n, s.k, 1.0f, run->ops.A.get(), s.k, run->ops.B.get(), s.n,
                                    0.0f, run->ops.C.get(), s.n));
      },
      run->opt);
  // One shape: score_pick's only entry names the pick and the fastest plan, by the pick's own rule.
  const d::ShapePick marks = d::score_pick(samples, *run->device, d::fitted_constants()).per_shape.front();
  std::printf("%s on %s: cuBLAS FP32 %.4f ms\n", shape_name(s.m, s.n, s.k).c_str(), run->gpu.name.c_str(),
              vendor.median_ms);
  std::printf("%-34s %10s %10s %9s\n", "plan", "ms", "predicted", "x cuBLAS");
  for (const d::TimedPlan& t : samples) {
    const double predicted_us = d::predict_us(t.path, t.plan, t.m, t.n, t.k, true, *run->device, d::fitted_constants());
    std::printf("%-34s %10.4f %10.4f %9.3f%s%s\n", d::plan_label(t.plan).c_str(), t.us * 1e-3, predicted_us * 1e-3,
                vendor.median_ms / (t.us * 1e-3), &t == marks.picked ? "  <- pick" : "",
                &t == marks.fastest ? "  <- fastest" : "");
  }
  return 0;
}

// --explain-top2 M N K: the fused top-2's plans beside the plain call's. Times every candidate plan
// four ways (the plain call; the global top-2 with C stored and without C; the per-row top-2 without
// C; median of 25 each, L2 flushed) and marks the plan each call's pick takes (plan_for: the plain
// call by the fitted constants, the fused ones by constants_for(PickFor::top2 or row_top2)), so that a
// fused call whose pick is not its fastest plan shows. For reading.
int explain_top2(const GemmShape& s, const std::string& only) {
  const auto run = on_gpu(s);
  if (!run) return 2;
  const ShapeOperands& ops = run->ops;
  const std::size_t ws_bytes = candidates_workspace_bytes(s, *run->device, true);
  const auto ws_buf = device_buffer<unsigned char>(ws_bytes, "workspace");
  const auto top2 = device_buffer<gpuprims::Top2>(static_cast<std::size_t>(s.m), "top2");  // one a row
  const bool c_vec4 = s.n % 4 == 0;  // C is the buffer's start, ldc = n
  const auto label_of = [&](bool store_c, d::PickFor call) {
    return d::plan_label(
        d::plan_for(gpuprims::gemm::Algorithm::tuned, s.m, s.n, s.k, store_c, *run->device, c_vec4, call));
  };
  const std::string plain_pick = label_of(true, d::PickFor::plain);
  const std::string fused_pick = label_of(true, d::PickFor::top2);
  const std::string nostore_pick = label_of(false, d::PickFor::top2);
  const std::string row_pick = label_of(false, d::PickFor::row_top2);
  // One call's median in ms, or a negative number where the plan is refused for it.
  const auto time_call = [&](const d::GemmPlan& plan, bool want_top2, bool store_c, bool per_row = false) {
    d::SgemmArgs a{s.m,         s.n,      s.k,  1.0f,    ops.A.get(), s.k,
                   ops.B.get(), s.n,      0.0f, nullptr, s.n,         gpuprims::gemm::Algorithm::tuned,
                   nullptr,     want_top2};
    a.C = store_c ? ops.C.get() : nullptr;
    a.top2 = want_top2 ? top2.get() : nullptr;
    a.per_row = per_row;
    bool refused = false;
    const Timing t = run->timer.time(
        [&] {
      if (!refused && d::sgemm_run(a, &plan, ws_buf.get(), ws_bytes, run->timer.stream()) != gpuprims::Status::success)
        refused = true;
        },
        run->opt);
    return refused ? -1.0 : t.median_ms;
  };
  struct Row {
    std::string label;
    double plain, fused, nostore, row;
  };
  std::vector<Row> rows;
  double plain_pick_ms = -1;
  d::for_each_candidate(s.m, s.n, s.k, *run->device, [&](int, const d::GemmPlan& plan) {
    std::string label = d::plan_label(plan);
    if (!only.empty() && label != only) return;
    Row r{std::move(label), time_call(plan, false, true), time_call(plan, true, true), time_call(plan, true, false),
          time_call(plan, true, false, true)};
    if (r.label == plain_pick) plain_pick_ms = r.plain;
    progress(shape_name(s.m, s.n, s.k) + " " + r.label, r.fused);
    rows.push_back(r);
  });
  if (!only.empty() && rows.empty()) {
    std::fprintf(stderr, "[bench] --only %s: no candidate plan of %s has that label\n", only.c_str(),
                 shape_name(s.m, s.n, s.k).c_str());
    return 2;
  }
  std::printf("%s on %s: plain pick %s, fused pick %s, fused without C pick %s, per-row without C pick %s\n",
              shape_name(s.m, s.n, s.k).c_str(), run->gpu.name.c_str(), plain_pick.c_str(), fused_pick.c_str(),
              nostore_pick.c_str(), row_pick.c_str());
  std::printf("%-34s %10s %10s %10s %10s %12s %12s\n", "plan", "plain ms", "fused ms", "no C ms", "row no C",
              "fused/pick", "no C/pick");
  for (const Row& r : rows) {
    std::printf("%-34s %10.4f %10.4f %10.4f %10.4f %12.3f %12.3f%s%s%s%s\n", r.label.c_str(), r.plain, r.fused,
                r.nostore, r.row, r.fused / plain_pick_ms, r.nostore / plain_pick_ms,
                r.label == plain_pick ? "  <- plain pick" : "", r.label == fused_pick ? "  <- fused pick" : "",
                r.label == nostore_pick ? "  <- no-C pick" : "", r.label == row_pick ? "  <- row no-C pick" : "");
  }
  if (plain_pick_ms < 0)
    std::printf(
        "(the plain pick is not among the candidates: a rule beside the model, e.g. the outer-product "
        "path; fused/pick reads against -1)\n");
  return 0;
}

// A stored sweep: its samples, device shape and copy bandwidth.
bool load_sweep(const std::string& path, std::vector<d::TimedPlan>* samples, d::DeviceShape* device, double* copy_gbs,
                std::string* gpu_name) {
  FlatRecord header;
  std::vector<FlatRecord> records;
  if (!read_report(path, &header, &records) || !header.count("occupancy")) {
    std::fprintf(stderr, "[bench] %s: not an sgemm_autotune file with the device's occupancy\n", path.c_str());
    return false;
  }
  device->sm_count = std::stoi(header["sm_count"]);
  // One occupancy per tuned path, in this build's path order: a sweep of another path table would
  // give its occupancies to the wrong paths.
  std::istringstream occ(header["occupancy"]);
  std::string item;
  int paths = 0;
  for (; std::getline(occ, item, ','); ++paths)
    if (paths < d::kNumTunedPaths) device->occupancy[paths] = std::stoi(item);
  if (paths != d::kNumTunedPaths) {
    std::fprintf(stderr, "[bench] %s: a sweep of %d tuned paths; this build has %d: sweep again\n", path.c_str(), paths,
                 d::kNumTunedPaths);
    return false;
  }
  *copy_gbs = std::stod(header["copy_gbs"]);
  *gpu_name = header["gpu"];
  for (FlatRecord& r : records) {
    const int i = path_index(r["path"]);
    if (i < 0) continue;
    const std::int64_t k = std::stoll(r["k"]);
    const d::RungEntry& path = *d::tuned_paths()[i];
    const bool cluster = r.count("cluster") && r["cluster"] == "true";
    if (cluster) device->clusters = true;
    const int splits = std::stoi(r["splits"]);
    const int stream_k = r.count("stream_k_blocks") ? std::stoi(r["stream_k_blocks"]) : 0;
    const d::GemmPlan plan = stream_k > 0 ? d::make_stream_k_plan(path, k, stream_k)
                             : cluster    ? d::make_cluster_plan(path, k, splits)
                                          : d::make_plan(path, k, splits);
    samples->push_back({std::stoll(r["m"]), std::stoll(r["n"]), k, true, i, plan, std::stod(r["time_ms"]) * 1e3});
  }
  return true;
}

// The sweep as JSON: every timing with its prediction by `model`, the device's occupancies and the
// given summary figures.
bool write_sweep(const std::string& path, const GpuInfo& gpu, const TimingOptions& opt,
                 const std::vector<d::TimedPlan>& samples, const d::DeviceShape& device, const d::ModelConstants& model,
                 const std::vector<std::pair<std::string, double>>& figures) {
  Report report("sgemm_autotune", gpu, opt);
  for (const d::TimedPlan& t : samples)
    report.add({{"m", t.m},
                {"n", t.n},
                {"k", t.k},
                {"path", std::string(t.plan.path->name)},
                {"splits", std::int64_t{t.plan.splits}},
                {"cluster", t.plan.cluster},
                {"stream_k_blocks", std::int64_t{t.plan.stream_k_blocks}},
                {"k_split", t.plan.k_split},
                {"time_ms", t.us * 1e-3},
                {"predicted_ms", d::predict_us(t.path, t.plan, t.m, t.n, t.k, true, device, model) * 1e-3}});
  std::string occupancy;
  for (int i = 0; i < d::kNumTunedPaths; ++i) occupancy += (i ? "," : "") + std::to_string(device.occupancy[i]);
  report.set("occupancy", occupancy);
  report.set("copy_gbs", model.dram_gbs);
  for (const auto& [name, value] : figures) report.set(name, value);
  return report.write(path);
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--explain") == 0 || std::strcmp(argv[i], "--explain-top2") == 0) {
      // Anything but three positive sizes is refused: falling through would run the whole sweep and
      // overwrite model_constants.inc.
      const GemmShape s = i + 3 < argc
                              ? GemmShape{std::atoll(argv[i + 1]), std::atoll(argv[i + 2]), std::atoll(argv[i + 3])}
                              : GemmShape{0, 0, 0};
      if (s.m < 1 || s.n < 1 || s.k < 1) {
        std::fprintf(stderr, "[bench] %s takes three sizes M N K, each at least 1\n", argv[i]);
        return 64;
      }
      // --explain-top2 M N K --only PLAN: that plan alone (its label as printed), e.g. under a profiler.
      const std::string only = i + 5 < argc && std::strcmp(argv[i + 4], "--only") == 0 ? argv[i + 5] : "";
      return std::strcmp(argv[i], "--explain") == 0 ? explain(s) : explain_top2(s, only);
    }
  const Args args = parse_args(argc, argv, "autotune.json");
  std::string constants_path = "model_constants.inc", from_json, suite = "tuning", fit_only;
  bool score_only = false;
  for (int i = 1; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    if (has_value && std::strcmp(argv[i], "--constants") == 0) constants_path = argv[i + 1];
    if (has_value && std::strcmp(argv[i], "--from-json") == 0) from_json = argv[i + 1];
    if (has_value && std::strcmp(argv[i], "--suite") == 0) suite = argv[i + 1];
    if (std::strcmp(argv[i], "--score-only") == 0) score_only = true;
    if (has_value && std::strcmp(argv[i], "--fit-only") == 0) fit_only = argv[i + 1];
  }
  if (!fit_only.empty() && fit_only != "whole-tiles") {
    std::fprintf(stderr, "[bench] --fit-only takes whole-tiles\n");
    return 64;
  }
  const d::FitScope scope = fit_only.empty() ? d::FitScope::all : d::FitScope::whole_tiles;
  // The held-out shapes judge the pick; a fit to them would leave nothing to judge it on.
  if ((suite != "tuning" && suite != "heldout" && suite != "aligned") || (suite != "tuning" && !score_only)) {
    std::fprintf(stderr, "[bench] --suite takes tuning, heldout or aligned, and the last two only with --score-only\n");
    return 64;
  }
  TimingOptions opt;
  opt.reps = 10;  // a fit over thousands of timings; the benchmark itself uses 25
  d::ModelConstants model = d::fitted_constants();
  d::DeviceShape device;
  std::vector<d::TimedPlan> samples;
  std::string gpu_name;
  int sm_count = 0;
  std::vector<GemmShape> shapes = suite == "heldout"   ? heldout_suite()
                                  : suite == "aligned" ? aligned_suite()
                                                       : tuning_shapes();
  if (args.quick) shapes.resize(std::min<std::size_t>(shapes.size(), 12));

  GpuInfo gpu;
  if (!from_json.empty()) {
    if (!load_sweep(from_json, &samples, &device, &model.dram_gbs, &gpu_name)) return 2;
    sm_count = device.sm_count;
  } else {
    if (!gpu_info(&gpu)) return 2;
    const d::DeviceShape* shape = nullptr;
    if (d::current_device_shape(&shape) != gpuprims::Status::success) return 2;
    device = *shape;
    gpu_name = gpu.name;
    sm_count = gpu.sm_count;
    Timer timer(gpu);
    model.dram_gbs = measure_copy_gbs(timer, std::size_t{1} << 30);
    std::fprintf(stderr, "[bench] copy bandwidth %.0f GB/s\n", model.dram_gbs);
    samples = sweep(shapes, device, timer, opt);
  }

  // The constants built into this binary, scored on the same timings: whether a new fit would pick
  // better than the one in use.
  const d::PickScore built_in = d::score_pick(samples, device, d::fitted_constants());
  std::fprintf(stderr, "[bench] built-in constants on this sweep: pick vs best measured geomean %.3f worst %.3f (%s)\n",
               built_in.geomean, built_in.worst, built_in.worst_shape.c_str());
  if (score_only) {
    std::printf("%-22s %-34s %10s %-34s %10s %7s\n", "shape", "pick", "ms", "fastest", "ms", "ratio");
    for (const d::ShapePick& p : built_in.per_shape)
      std::printf("%-22s %-34s %10.4f %-34s %10.4f %7.3f\n", shape_name(p.picked->m, p.picked->n, p.picked->k).c_str(),
                  d::plan_label(p.picked->plan).c_str(), p.picked->us * 1e-3, d::plan_label(p.fastest->plan).c_str(),
                  p.fastest->us * 1e-3, p.fastest->us / p.picked->us);
    if (!from_json.empty()) return 0;
    return write_sweep(args.out, gpu, opt, samples, device, model,
                       {{"pick_geomean", built_in.geomean}, {"pick_worst", built_in.worst}})
               ? 0
               : 1;
  }

  // Cross-validation first (each fold from the same starting constants), then the fit on everything.
  // Folds are by shape, so a fold's shapes are never seen by its fit.
  const d::ModelConstants start = model;
  constexpr int kFolds = 5;
  std::vector<std::tuple<std::int64_t, std::int64_t, std::int64_t>> keys;
  for (const d::TimedPlan& t : samples)
    if (std::find(keys.begin(), keys.end(), std::make_tuple(t.m, t.n, t.k)) == keys.end())
      keys.emplace_back(t.m, t.n, t.k);
  double cv_log_sum = 0, cv_worst = 1;
  int cv_shapes = 0;
  for (int f = 0; f < kFolds; ++f) {
    std::vector<d::TimedPlan> train, test;
    for (const d::TimedPlan& t : samples) {
      const auto idx = std::find(keys.begin(), keys.end(), std::make_tuple(t.m, t.n, t.k)) - keys.begin();
      (idx % kFolds == f ? test : train).push_back(t);
    }
    d::ModelConstants m = start;
    d::fit_model(train, device, &m, scope);
    const d::PickScore sc = d::score_pick(test, device, m);
    cv_log_sum += std::log(sc.geomean) * sc.shapes;
    cv_shapes += sc.shapes;
    cv_worst = std::min(cv_worst, sc.worst);
  }
  const d::FitReport fit = d::fit_model(samples, device, &model, scope);
  const d::PickScore in_sample = d::score_pick(samples, device, model);
  const double cv_geomean = cv_shapes ? std::exp(cv_log_sum / cv_shapes) : 1.0;
  std::fprintf(stderr,
               "[bench] fit: %zu timings, %d shapes, rms log error %.3f; pick vs best measured: in-sample geomean "
               "%.3f worst %.3f (%s); 5-fold cross-validated geomean %.3f worst %.3f\n",
               samples.size(), in_sample.shapes, fit.rms_log_error, in_sample.geomean, in_sample.worst,
               in_sample.worst_shape.c_str(), cv_geomean, cv_worst);

  char header[800];
  std::snprintf(header, sizeof header,
                "// Generated by bench/sgemm_autotune%s%s on %s (%d SMs), %s:\n// the cost model's constants "
                "fitted to %zu timings of %d tuning shapes (median of %d runs, L2 flushed)%s;\n// rms log error "
                "%.3f; pick vs best measured: in-sample geomean %.3f, 5-fold cross-validated geomean\n// %.3f "
                "(worst %.3f). Do not edit by hand: rerun the autotuner.\n",
                from_json.empty() ? "" : (" --from-json " + from_json).c_str(),
                fit_only.empty() ? "" : (" --fit-only " + fit_only).c_str(), gpu_name.c_str(), sm_count,
                utc_date().c_str(), samples.size(), in_sample.shapes, opt.reps,
                fit_only.empty() ? "" : ",\n// the whole-tile factors only, every other constant as built in",
                fit.rms_log_error, in_sample.geomean, cv_geomean, cv_worst);
  std::ofstream inc(constants_path);
  inc << d::model_constants_inc(model, header);
  std::fprintf(stderr, "[bench] wrote %s\n", constants_path.c_str());
  if (!from_json.empty()) return static_cast<bool>(inc) ? 0 : 1;

  const bool written = write_sweep(args.out, gpu, opt, samples, device, model,
                                   {{"fit_rms_log_error", fit.rms_log_error},
                                    {"pick_in_sample_geomean", in_sample.geomean},
                                    {"pick_in_sample_worst", in_sample.worst},
                                    {"pick_cv_geomean", cv_geomean},
                                    {"pick_cv_worst", cv_worst}});
  return written && static_cast<bool>(inc) ? 0 : 1;
}
