// Benchmark of reduce::sum: every variant of the ladder and cub::DeviceReduce::Sum side by side in one
// process, through the same event timer (warm-up, L2 flushed outside the timed region, median of 25),
// on random floats, n = 2^16, 2^20, 2^24, 2^28 (n = 2^16 is the latency case: header field
// latency_n). Then the typed reductions: every operator x type (sum, min, max, argmin, argmax over
// float, double, half, bfloat16, int32, uint32, int64) at n = 2^24 and 2^28 beside
// cub::DeviceReduce::{Sum, Min, Max, ArgMin, ArgMax} (records with "variant" (the operator) and
// "dtype" fields, identity fields of scripts/perf_gate.py; GB/s of input read). Scratch for both is allocated once,
// outside timing; ours goes through the explicit-workspace overloads. Each result is checked once against CUB's before
// it is timed. Writes JSON (default reduce.json, --out FILE) and prints tables.
#include <cub/device/device_reduce.cuh>

#include <gpuprims/reduce.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "harness.hpp"
#include "reduce/src/plan.hpp"
#include "testkit/random.hpp"
#include "typed_bench.cuh"

namespace {

using gpuprims::reduce::Algorithm;
namespace bench = gpuprims::bench;
namespace rd = gpuprims::reduce::detail;

// sum |x| in double, for the error bound of the cross-check (not timed; atomics are fine here).
__global__ void abs_sum_double(const float* x, std::int64_t n, double* out) {
  __shared__ double partial[256];
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  double a = 0.0;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    a += fabs(static_cast<double>(x[i]));
  partial[threadIdx.x] = a;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, partial[0]);
}

double device_abs_sum(const float* x, std::int64_t n) {
  const auto d = bench::device_buffer<double>(1, "abs sum");
  BENCH_CUDA(cudaMemset(d.get(), 0, sizeof(double)));
  abs_sum_double<<<1024, 256>>>(x, n, d.get());
  BENCH_CUDA(cudaGetLastError());
  double h = 0.0;
  BENCH_CUDA(cudaMemcpy(&h, d.get(), sizeof h, cudaMemcpyDeviceToHost));
  return h;
}

float read_scalar(const float* d) {
  float h = 0.0f;
  BENCH_CUDA(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
  return h;
}

struct Row {
  std::string algorithm;
  std::int64_t n;
  double time_ms, gbs, ratio;
  bool mismatch;
};

}  // namespace

int main(int argc, char** argv) {
  bench::GpuInfo gpu;
  if (!bench::gpu_info(&gpu)) return 1;
  const bench::Args args = bench::parse_args(argc, argv, "reduce.json");
  bench::TimingOptions opt;
  bench::Timer timer(gpu);
  bench::Report report("reduce", gpu, opt);
  cudaStream_t stream = timer.stream();

  const std::vector<std::int64_t> sizes =
      args.quick ? std::vector<std::int64_t>{1 << 16, 1 << 20}
                 : std::vector<std::int64_t>{1 << 16, 1 << 20, 1 << 24, std::int64_t{1} << 28};
  const std::int64_t max_n = sizes.back();

  // The memory ceiling: a copy far larger than L2 (1 GiB at least, also in --quick runs).
  const double copy_gbs =
      bench::measure_copy_gbs(timer, std::max(static_cast<std::size_t>(max_n) * sizeof(float), std::size_t{1} << 30));
  report.set("copy_gbs", copy_gbs);
  report.set("threads_per_block", std::int64_t{rd::ReduceTuning::kThreads});
  report.set("max_partials", std::int64_t{rd::ReduceTuning::kMaxPartials});
  report.set("unroll_float4", std::int64_t{rd::vector_unroll(gpuprims::reduce::Algorithm::shuffle)});
  report.set("unroll_float4_rungs_4_5", std::int64_t{rd::ReduceTuning::kUnroll});
  report.set("latency_n", std::int64_t{1} << 16);
  report.set("single_pass_max_n", rd::SinglePassTuning::kMaxItems);
  bench::progress("device-to-device copy (GB/s read+write)", 0.0, std::to_string(copy_gbs));

  const auto in = bench::device_buffer<float>(static_cast<std::size_t>(max_n), "input");
  const auto out = bench::device_buffer<float>(2, "output");
  float* const d_in = in.get();
  float* const d_out = out.get();
  BENCH_CUDA(gpuprims::testkit::fill_uniform(d_in, max_n, 0x5eedf00dull));  // uniform in [-1, 1)

  // Our workspace, once: the most any (n, variant) needs.
  std::size_t ws_bytes = 0;
  for (std::int64_t n : sizes)
    for (Algorithm a : gpuprims::reduce::kAllAlgorithms)
      ws_bytes = std::max(ws_bytes, gpuprims::reduce::workspace_bytes(n, a));
  const auto ws = bench::device_buffer<unsigned char>(ws_bytes, "workspace");  // none when ws_bytes == 0
  void* const d_ws = ws.get();

  std::vector<Row> rows;
  for (std::int64_t n : sizes) {
    const double bytes = static_cast<double>(n) * sizeof(float);
    const int n_int = static_cast<int>(n);

    // CUB, with its temporary storage allocated once outside timing.
    std::size_t temp_bytes = 0;
    BENCH_CUDA(cub::DeviceReduce::Sum(nullptr, temp_bytes, d_in, d_out + 1, n_int, stream));
    const auto temp = bench::device_buffer<unsigned char>(std::max<std::size_t>(temp_bytes, 1), "cub temp");
    void* const d_temp = temp.get();
    BENCH_CUDA(cub::DeviceReduce::Sum(d_temp, temp_bytes, d_in, d_out + 1, n_int, stream));
    BENCH_CUDA(cudaStreamSynchronize(stream));
    const float cub_sum = read_scalar(d_out + 1);
    const bench::Timing tc = timer.time(
        [&] { BENCH_CUDA(cub::DeviceReduce::Sum(d_temp, temp_bytes, d_in, d_out + 1, n_int, stream)); }, opt);
    const double cub_gbs = bytes / (tc.median_ms * 1e-3) / 1e9;
    bench::progress("cub n=" + std::to_string(n), tc.median_ms, std::to_string(cub_gbs) + " GB/s");
    report.add({{"algorithm", std::string("cub")},
                {"impl", std::string("cub")},
                {"n", n},
                {"bytes", static_cast<std::int64_t>(bytes)},
                {"time_ms", tc.median_ms},
                {"gbs", cub_gbs},
                {"ratio_to_cub", 1.0}});
    rows.push_back({"cub", n, tc.median_ms, cub_gbs, 1.0, false});

    const double abs_sum = device_abs_sum(d_in, n);
    for (Algorithm a : gpuprims::reduce::kAllAlgorithms) {
      const std::string name = gpuprims::reduce::name(a);
      const std::size_t wsb = gpuprims::reduce::workspace_bytes(n, a);
      auto run = [&] {
        const gpuprims::Status st = gpuprims::reduce::sum(d_in, n, d_out, d_ws, wsb, a, stream);
        if (st != gpuprims::Status::success) {
          std::fprintf(stderr, "[bench] reduce::sum(%s) failed: %s\n", name.c_str(), gpuprims::to_string(st));
          std::exit(2);
        }
      };
      // Check once against CUB: both within the bound of docs/ERROR-BOUNDS.md of the exact sum, so
      // within the sum of the bounds of each other (CUB's taken as ours).
      BENCH_CUDA(cudaMemsetAsync(d_out, 0xff, sizeof(float), stream));
      run();
      BENCH_CUDA(cudaStreamSynchronize(stream));
      const float ours = read_scalar(d_out);
      const double items = static_cast<double>(rd::bound_items_upper(n, a, gpu.sm_count));
      const double passes = rd::max_pass1_blocks(n, a) > 1 ? 2.0 : 1.0;
      const double bound =
          2.0 * 2.0 * (items + rd::bound_log2_threads(n, a) + passes + 2.0) * std::ldexp(1.0, -24) * abs_sum;
      const double diff = std::fabs(static_cast<double>(ours) - static_cast<double>(cub_sum));
      const bool mismatch = !(diff <= bound);
      if (mismatch)
        std::fprintf(stderr, "[bench] WARNING: %s n=%lld: sum %.9g vs cub %.9g (|diff| %.3g > bound %.3g)\n",
                     name.c_str(), static_cast<long long>(n), ours, cub_sum, diff, bound);

      const bench::Timing t = timer.time(run, opt);
      const double gbs = bytes / (t.median_ms * 1e-3) / 1e9;
      const double ratio = gbs / cub_gbs;
      bench::progress(name + " n=" + std::to_string(n), t.median_ms,
                      std::to_string(gbs) + " GB/s, " + std::to_string(ratio) + " x cub");
      bench::JsonRecord rec = {{"algorithm", name},
                               {"impl", std::string("ours")},
                               {"n", n},
                               {"bytes", static_cast<std::int64_t>(bytes)},
                               {"time_ms", t.median_ms},
                               {"gbs", gbs},
                               {"ratio_to_cub", ratio}};
      if (mismatch) rec.emplace_back("mismatch", true);
      report.add(std::move(rec));
      rows.push_back({name, n, t.median_ms, gbs, ratio, mismatch});
    }
  }

  std::printf("\nreduce::sum vs cub::DeviceReduce::Sum on %s (%d SMs), copy %.0f GB/s\n", gpu.name.c_str(),
              gpu.sm_count, copy_gbs);
  std::printf("%-18s %12s %12s %10s %9s\n", "algorithm", "n", "time (us)", "GB/s", "vs cub");
  for (const Row& r : rows)
    std::printf("%-18s %12lld %12.2f %10.1f %9.3f%s\n", r.algorithm.c_str(), static_cast<long long>(r.n),
                r.time_ms * 1e3, r.gbs, r.ratio, r.mismatch ? "  MISMATCH" : "");

  // The typed reductions beside CUB (typed_bench.cuh).
  const std::vector<std::int64_t> typed_sizes =
      args.quick ? std::vector<std::int64_t>{1 << 20} : std::vector<std::int64_t>{1 << 24, std::int64_t{1} << 28};
  bench::run_typed_benchmarks(timer, opt, typed_sizes, &report);

  return report.write(args.out) ? 0 : 1;
}
