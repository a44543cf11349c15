// SGEMM benchmark: every rung of the ladder and cublasSgemm (FP32, pedantic: no TF32) on the standard
// shapes, then the tuned rung on the held-out suite (gemm_shapes.hpp: shapes the cost model was never
// fitted to, by class), in one process through one event timer (L2 flushed before each run, median of
// 25). Writes JSON (TFLOP/s, ratio to cuBLAS; held-out records carry "suite", "class", the plan the
// pick chose and its predicted time). Each output is checked against cuBLAS once before timing.
//   sgemm_bench [--out sgemm.json] [--quick] [--suite standard|heldout]
//   sgemm_bench --single ALGO M N K     one call, for ncu
#include <gpuprims/gemm.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "gemm/src/gemm_internal.hpp"
#include "gemm_shapes.hpp"
#include "harness.hpp"
#include "testkit/cublas.hpp"
#include "testkit/random.hpp"

namespace {

using namespace gpuprims::bench;
namespace tk = gpuprims::testkit;
using gpuprims::gemm::Algorithm;
using tk::GemmShape;
using tk::shape_name;

const GemmShape kShapes[] = {{256, 256, 256},    {512, 512, 512},    {1024, 1024, 1024}, {2048, 2048, 2048},
                             {4096, 4096, 4096}, {8192, 8192, 8192}, {4095, 4095, 4095}, {1000, 3000, 500},
                             {8192, 8192, 128},  {16384, 16384, 64}, {128, 8192, 8192},  {4096, 4096, 1024}};
const GemmShape kQuickShapes[] = {{1024, 1024, 1024}, {4096, 4096, 4096}, {16384, 16384, 64}};

// A rung that takes longer than this for one run is timed only at the headline shape (4096^3).
constexpr double kSlowRunMs = 150.0;

// Largest |ours - cuBLAS| relative to the largest |cuBLAS| entry, over the whole output.
double max_rel_diff(const std::vector<float>& ours, const std::vector<float>& ref) {
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    const double d = std::fabs(static_cast<double>(ours[i]) - ref[i]);
    diff = std::isnan(d) ? INFINITY : std::max(diff, d);
    scale = std::max(scale, std::fabs(static_cast<double>(ref[i])));
  }
  return diff / std::max(scale, 1e-30);
}

int run_single(int argc, char** argv) {
  if (argc < 6) return 64;
  const std::string algo_name = argv[2];
  const std::int64_t m = std::atoll(argv[3]), n = std::atoll(argv[4]), k = std::atoll(argv[5]);
  Algorithm algo = Algorithm::tuned;
  for (Algorithm a : gpuprims::gemm::kAllAlgorithms)
    if (algo_name == gpuprims::gemm::name(a)) algo = a;
  const auto A = device_buffer<float>(m * k, "A"), B = device_buffer<float>(k * n, "B"),
             C = device_buffer<float>(m * n, "C");
  BENCH_CUDA(tk::fill_uniform(A.get(), m * k, 1));
  BENCH_CUDA(tk::fill_uniform(B.get(), k * n, 2));
  const gpuprims::Status st = gpuprims::gemm::sgemm(m, n, k, 1.0f, A.get(), k, B.get(), n, 0.0f, C.get(), n, algo);
  BENCH_CUDA(cudaDeviceSynchronize());
  std::printf("%s %s: %s\n", gpuprims::gemm::name(algo), shape_name({m, n, k}).c_str(), gpuprims::to_string(st));
  return st == gpuprims::Status::success ? 0 : 1;
}

// One shape's operands on the device: A and B random (never zeros: seeds per shape), C for our output
// and R holding cuBLAS's product, freed when it goes out of scope.
struct DeviceProblem {
  gpuprims::detail::DeviceBuffer<float> A, B, C, R;
  DeviceProblem(cublasHandle_t cublas, std::int64_t m, std::int64_t n, std::int64_t k, std::uint64_t seed_a,
                std::uint64_t seed_b)
      : A(device_buffer<float>(m * k, "A")),
        B(device_buffer<float>(k * n, "B")),
        C(device_buffer<float>(m * n, "C")),
        R(device_buffer<float>(m * n, "R")) {
    BENCH_CUDA(tk::fill_uniform(A.get(), m * k, seed_a));
    BENCH_CUDA(tk::fill_uniform(B.get(), k * n, seed_b));
    BENCH_CUBLAS(tk::sgemm_rowmajor(cublas, m, n, k, 1.0f, A.get(), k, B.get(), n, 0.0f, R.get(), n));
  }
};

// The plan the tuned rung picks for a row-major m x n x k call that stores C, and its predicted time.
std::string tuned_plan(std::int64_t m, std::int64_t n, std::int64_t k, double* predicted_ms) {
  namespace d = gpuprims::detail;
  const d::DeviceShape* device = nullptr;
  *predicted_ms = 0;
  if (d::current_device_shape(&device) != gpuprims::Status::success) return "?";
  const d::GemmPlan plan = d::plan_for(Algorithm::tuned, m, n, k, true, *device);
  const auto& paths = d::tuned_paths();
  for (int i = 0; i < d::kNumTunedPaths; ++i)
    if (paths[i] == plan.path)
      *predicted_ms = d::predict_us(i, plan, m, n, k, true, *device, d::fitted_constants()) * 1e-3;
  return std::string(plan.path->name) + (plan.splits > 1 ? " split " + std::to_string(plan.splits) : "");
}

// The tuned rung against cuBLAS on every held-out shape; a summary by class at the end.
void run_heldout(Timer& timer, cublasHandle_t cublas, const TimingOptions& opt, bool quick, Report& report) {
  std::vector<GemmShape> shapes = heldout_suite();
  if (quick) {
    std::vector<GemmShape> few;
    for (std::size_t i = 0; i < shapes.size(); i += 6) few.push_back(shapes[i]);
    shapes = few;
  }
  struct ClassStats {
    double log_sum = 0, worst = 1e30;
    int count = 0;
    std::string worst_shape;
  };
  std::vector<std::pair<std::string, ClassStats>> classes{{"all", {}}};
  auto stats_of = [&](const std::string& cls) -> ClassStats& {
    for (auto& c : classes)
      if (c.first == cls) return c.second;
    classes.push_back({cls, {}});
    return classes.back().second;
  };
  std::printf("\nheld-out suite (%zu shapes, seed %llu)\n%-20s %-20s %-30s %10s %10s %8s\n", shapes.size(),
              static_cast<unsigned long long>(kHeldOutSeed), "shape", "class", "plan", "ms", "cuBLAS ms", "x cuBLAS");
  for (const GemmShape& s : shapes) {
    const std::int64_t m = s.m, n = s.n, k = s.k;
    const double flops = 2.0 * m * n * k;
    const DeviceProblem problem(cublas, m, n, k, 31 + m, 37 + n);
    float *A = problem.A.get(), *B = problem.B.get(), *C = problem.C.get(), *R = problem.R.get();
    auto call = [&] {
      const gpuprims::Status st =
          gpuprims::gemm::sgemm(m, n, k, 1.0f, A, k, B, n, 0.0f, C, n, Algorithm::tuned, timer.stream());
      if (st != gpuprims::Status::success) {
        std::fprintf(stderr, "[bench] tuned %s failed: %s\n", shape_name({m, n, k}).c_str(), gpuprims::to_string(st));
        std::exit(1);
      }
    };
    BENCH_CUDA(cudaMemsetAsync(C, 0xFF, m * n * 4, timer.stream()));
    call();
    BENCH_CUDA(cudaStreamSynchronize(timer.stream()));
    std::vector<float> ref(static_cast<std::size_t>(m * n)), ours(ref.size());
    BENCH_CUDA(cudaMemcpy(ref.data(), R, ref.size() * 4, cudaMemcpyDeviceToHost));
    BENCH_CUDA(cudaMemcpy(ours.data(), C, ours.size() * 4, cudaMemcpyDeviceToHost));
    const double rel = max_rel_diff(ours, ref);
    const bool mismatch = !(rel <= 1e-4);
    const Timing vendor =
        timer.time([&] { BENCH_CUBLAS(tk::sgemm_rowmajor(cublas, m, n, k, 1.0f, A, k, B, n, 0.0f, C, n)); }, opt);
    const Timing t = timer.time(call, opt);
    double predicted_ms = 0;
    const std::string plan = tuned_plan(m, n, k, &predicted_ms);
    const double ratio = vendor.median_ms / t.median_ms;
    progress("heldout " + shape_name({m, n, k}) + " tuned", t.median_ms, plan);
    std::printf("%-20s %-20s %-30s %10.4f %10.4f %8.3f%s\n", shape_name({m, n, k}).c_str(), s.cls.c_str(), plan.c_str(),
                t.median_ms, vendor.median_ms, ratio, mismatch ? "  MISMATCH" : "");
    report.add({{"suite", std::string("heldout")},
                {"class", s.cls},
                {"algorithm", std::string("cublas")},
                {"impl", std::string("cublas")},
                {"m", m},
                {"n", n},
                {"k", k},
                {"time_ms", vendor.median_ms},
                {"tflops", flops / (vendor.median_ms * 1e-3) / 1e12},
                {"ratio_to_cublas", 1.0}});
    JsonRecord rec{{"suite", std::string("heldout")},
                   {"class", s.cls},
                   {"algorithm", std::string("tuned")},
                   {"impl", std::string("ours")},
                   {"m", m},
                   {"n", n},
                   {"k", k},
                   {"time_ms", t.median_ms},
                   {"tflops", flops / (t.median_ms * 1e-3) / 1e12},
                   {"ratio_to_cublas", ratio},
                   {"plan", plan},
                   {"predicted_ms", predicted_ms},
                   {"max_rel_diff_vs_cublas", rel}};
    if (mismatch) rec.emplace_back("mismatch", true);
    report.add(rec);
    for (const std::string& cls : {std::string("all"), s.cls}) {
      ClassStats& c = stats_of(cls);
      c.log_sum += std::log(ratio);
      ++c.count;
      if (ratio < c.worst) {
        c.worst = ratio;
        c.worst_shape = shape_name({m, n, k});
      }
    }
  }
  std::printf("\n%-20s %6s %14s %10s  %s\n", "held-out class", "shapes", "geomean x cuBLAS", "worst", "worst shape");
  for (const auto& [cls, c] : classes)
    std::printf("%-20s %6d %14.3f %10.3f  %s\n", cls.c_str(), c.count, std::exp(c.log_sum / std::max(c.count, 1)),
                c.worst, c.worst_shape.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--single") == 0) return run_single(argc, argv);
  const Args args = parse_args(argc, argv, "sgemm.json");
  std::string suite = "all";
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--suite") == 0) suite = argv[i + 1];
  GpuInfo gpu;
  if (!gpu_info(&gpu)) return 2;
  TimingOptions opt;
  Timer timer(gpu);
  // FP32 pedantic (no TF32): the vendor's FP32 SGEMM, which the tuned rung is compared against.
  const tk::CublasHandle cublas(CUBLAS_PEDANTIC_MATH, timer.stream());
  BENCH_CUBLAS(cublas.status());
  Report report("sgemm", gpu, opt);

  std::vector<GemmShape> shapes(std::begin(kShapes), std::end(kShapes));
  if (args.quick) shapes.assign(std::begin(kQuickShapes), std::end(kQuickShapes));
  if (suite == "heldout") shapes.clear();
  std::printf("%-20s %-20s %10s %10s %8s\n", "shape", "algorithm", "ms", "TFLOP/s", "x cuBLAS");
  for (const GemmShape& s : shapes) {
    const std::int64_t m = s.m, n = s.n, k = s.k;
    const double flops = 2.0 * m * n * k;
    const DeviceProblem problem(cublas.get(), m, n, k, 11 + m, 13 + n);
    float *A = problem.A.get(), *B = problem.B.get(), *C = problem.C.get(), *R = problem.R.get();
    BENCH_CUDA(cudaStreamSynchronize(timer.stream()));
    std::vector<float> ref(static_cast<std::size_t>(m * n)), ours(ref.size());
    BENCH_CUDA(cudaMemcpy(ref.data(), R, ref.size() * 4, cudaMemcpyDeviceToHost));

    const Timing vendor =
        timer.time([&] { BENCH_CUBLAS(tk::sgemm_rowmajor(cublas.get(), m, n, k, 1.0f, A, k, B, n, 0.0f, C, n)); }, opt);
    const double vendor_tflops = flops / (vendor.median_ms * 1e-3) / 1e12;
    progress("sgemm " + shape_name(s) + " cublas", vendor.median_ms);
    std::printf("%-20s %-20s %10.4f %10.2f %8.3f\n", shape_name(s).c_str(), "cublas", vendor.median_ms, vendor_tflops,
                1.0);
    report.add({{"algorithm", std::string("cublas")},
                {"impl", std::string("cublas")},
                {"m", m},
                {"n", n},
                {"k", k},
                {"time_ms", vendor.median_ms},
                {"tflops", vendor_tflops},
                {"ratio_to_cublas", 1.0}});

    for (Algorithm algo : gpuprims::gemm::kAllAlgorithms) {
      const std::string name = gpuprims::gemm::name(algo);
      JsonRecord rec{{"algorithm", name}, {"impl", std::string("ours")}, {"m", m}, {"n", n}, {"k", k}};
      auto call = [&] {
        const gpuprims::Status st = gpuprims::gemm::sgemm(m, n, k, 1.0f, A, k, B, n, 0.0f, C, n, algo, timer.stream());
        if (st != gpuprims::Status::success) {
          std::fprintf(stderr, "[bench] %s failed: %s\n", name.c_str(), gpuprims::to_string(st));
          std::exit(1);
        }
      };
      // One run, checked against cuBLAS, and its time decides whether 25 more fit the budget.
      BENCH_CUDA(cudaMemset(C, 0xFF, m * n * 4));
      const Timing once = timer.time(call, TimingOptions{0, 1, true});
      BENCH_CUDA(cudaMemcpy(ours.data(), C, ours.size() * 4, cudaMemcpyDeviceToHost));
      const double rel = max_rel_diff(ours, ref);
      const bool mismatch = !(rel <= 1e-4);
      if (mismatch)
        std::fprintf(stderr, "[bench] WARNING %s %s differs from cuBLAS: %g\n", name.c_str(), shape_name(s).c_str(),
                     rel);
      const bool headline = (m == 4096 && n == 4096 && k == 4096);
      if (once.median_ms > kSlowRunMs && !headline) {
        rec.emplace_back("skipped", "one run took " + std::to_string(static_cast<int>(once.median_ms)) +
                                        " ms; timed only at 4096^3 to keep the benchmark short");
        report.add(rec);
        progress("sgemm " + shape_name(s) + " " + name, once.median_ms, "(skipped: slow)");
        continue;
      }
      const Timing t = timer.time(call, opt);
      const double tflops = flops / (t.median_ms * 1e-3) / 1e12;
      progress("sgemm " + shape_name(s) + " " + name, t.median_ms);
      std::printf("%-20s %-20s %10.4f %10.2f %8.3f%s\n", shape_name(s).c_str(), name.c_str(), t.median_ms, tflops,
                  tflops / vendor_tflops, mismatch ? "  MISMATCH" : "");
      rec.emplace_back("time_ms", t.median_ms);
      rec.emplace_back("tflops", tflops);
      rec.emplace_back("ratio_to_cublas", tflops / vendor_tflops);
      rec.emplace_back("max_rel_diff_vs_cublas", rel);
      if (mismatch) rec.emplace_back("mismatch", true);
      report.add(rec);
    }
  }
  if (suite != "standard") run_heldout(timer, cublas.get(), opt, args.quick, report);
  return report.write(args.out) ? 0 : 1;
}
