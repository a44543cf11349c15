// Benchmark of the row-wise reductions (reduce_rows.hpp) beside cub::DeviceSegmentedReduce in one
// process, through the same event timer (warm-up, L2 flushed outside the timed region, median of 25):
// row_sum / row_min / row_max / row_argmin on float and row_sum on int32, and one or two operators on each
// of the 2- and 8-byte types (sums of double, int64 and half, half argmin, bfloat16 min), rows of 16 to 2^20 elements
// (19 lengths, five of them between powers of two) with 2^27 elements in all (2^24 with --quick; the
// rows that fit where the length does not divide it), ld = cols. CUB gets its segment
// offsets r * cols as a counting iterator scaled on the fly (no offsets array to read). Our workspace
// and CUB's temporary storage are allocated once per case, outside timing; each of ours is checked
// once against CUB before it is timed (exact for min/max/argmin/int sums, within the sum bound for
// float sums). row_top2_argmin is timed too, without a baseline (CUB has no per-segment top-2; two
// ArgMin passes would not be the same work). Writes JSON (default segmented.json) and prints a table.
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <cub/device/device_segmented_reduce.cuh>

#include <gpuprims/reduce_rows.hpp>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "harness.hpp"
#include "reduce/src/rows/plan.hpp"
#include "testkit/random.hpp"

namespace {

namespace bench = gpuprims::bench;
namespace rd = gpuprims::reduce::detail;
using gpuprims::Status;

// Segment r starts at r * ld.
struct RowStart {
  std::int64_t ld;
  __host__ __device__ std::int64_t operator()(std::int64_t r) const { return r * ld; }
};
using Offsets = thrust::transform_iterator<RowStart, thrust::counting_iterator<std::int64_t>>;

__global__ void to_int32(const float* in, std::int64_t n, std::int32_t* out) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = static_cast<std::int32_t>(in[i] * 1e6f);
}

// The float input as T: half and bfloat16 rounded, double exact, int64 scaled by 1e12 (sums of 2^20
// stay far inside int64).
template <class T>
__global__ void from_float(const float* in, std::int64_t n, T* out) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    if constexpr (std::is_same_v<T, __half>) out[i] = __float2half_rn(in[i]);
    else if constexpr (std::is_same_v<T, __nv_bfloat16>) out[i] = __float2bfloat16_rn(in[i]);
    else if constexpr (std::is_same_v<T, std::int64_t>)
      out[i] = static_cast<std::int64_t>(static_cast<double>(in[i]) * 1e12);
    else out[i] = static_cast<T>(in[i]);
  }
}

template <class T>
gpuprims::detail::DeviceBuffer<T> converted(const float* in, std::int64_t n, const char* what) {
  auto buf = gpuprims::bench::device_buffer<T>(static_cast<std::size_t>(n), what);
  from_float<<<1024, 256>>>(in, n, buf.get());
  BENCH_CUDA(cudaGetLastError());
  return buf;
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

struct Row {
  std::string op, type, impl;
  std::int64_t rows, cols;
  double time_ms, gbs, ratio;
  bool mismatch;
};

void ok(Status st, const char* what) {
  if (st != Status::success) {
    std::fprintf(stderr, "[bench] %s failed: %s\n", what, gpuprims::to_string(st));
    std::exit(2);
  }
}

template <class T>
std::vector<T> download(const T* d, std::int64_t n) {
  std::vector<T> h(static_cast<std::size_t>(n));
  BENCH_CUDA(cudaMemcpy(h.data(), d, h.size() * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

}  // namespace

int main(int argc, char** argv) {
  bench::GpuInfo gpu;
  if (!bench::gpu_info(&gpu)) return 1;
  const bench::Args args = bench::parse_args(argc, argv, "segmented.json");
  bench::TimingOptions opt;
  bench::Timer timer(gpu);
  bench::Report report("segmented", gpu, opt);
  cudaStream_t stream = timer.stream();

  const std::int64_t total = args.quick ? std::int64_t{1} << 24 : std::int64_t{1} << 27;
  // Every power of two from 2^4 to 2^14, then 2^16, 2^18, 2^20, and five lengths between powers (each
  // regime of rows/plan.hpp and each block size of block_threads, judged off its edges too: 384 and 768
  // on either side of the 4-byte lane groups' 512).
  const std::vector<std::int64_t> lengths = {16,   32,   64,   128,  256,  384,   512,   768,    1024,   1536,
                                             2048, 3072, 4096, 6144, 8192, 16384, 65536, 262144, 1048576};
  const double copy_gbs = bench::measure_copy_gbs(timer, std::size_t{1} << 30);
  report.set("copy_gbs", copy_gbs);
  report.set("total_elements", total);
  report.set("threads_per_block", std::int64_t{rd::RowTuning::kThreads});
  report.set("long_row_threads_per_block", std::int64_t{rd::RowTuning::kLongThreads});
  report.set("long_row_cols", rd::RowTuning::kLongCols);
  report.set("very_long_row_threads_per_block", std::int64_t{rd::RowTuning::kVeryLongThreads});
  report.set("very_long_row_cols", rd::RowTuning::kVeryLongCols);
  report.set("min_splits", rd::RowTuning::kMinSplits);

  const auto in = bench::device_buffer<float>(static_cast<std::size_t>(total), "input");
  const auto in_i = bench::device_buffer<std::int32_t>(static_cast<std::size_t>(total), "int input");
  BENCH_CUDA(gpuprims::testkit::fill_uniform(in.get(), total, 0x5e9aull));
  to_int32<<<1024, 256>>>(in.get(), total, in_i.get());
  BENCH_CUDA(cudaGetLastError());
  const auto in_d = converted<double>(in.get(), total, "double input");
  const auto in_l = converted<std::int64_t>(in.get(), total, "int64 input");
  const auto in_h = converted<__half>(in.get(), total, "half input");
  const auto in_b = converted<__nv_bfloat16>(in.get(), total, "bfloat16 input");
  const std::int64_t max_rows = total / lengths.front();
  const auto out =
      bench::device_buffer<unsigned char>(static_cast<std::size_t>(max_rows) * sizeof(gpuprims::Top2), "our output");
  const auto cub_out = bench::device_buffer<unsigned char>(static_cast<std::size_t>(max_rows) * 16, "cub output");

  std::vector<Row> table;
  for (std::int64_t cols : lengths) {
    const std::int64_t rows = total / cols;
    const Offsets begin(thrust::counting_iterator<std::int64_t>(0), RowStart{cols});
    const Offsets end = begin + 1;  // ld == cols: row r ends where row r + 1 starts

    // One case: ours (explicit workspace) and CUB (temporary storage), each checked, then timed.
    auto run_case = [&](const std::string& op, const std::string& type, std::size_t elem_bytes, std::size_t ws_bytes,
                        const std::function<void(void*)>& ours, const std::function<void(void*, std::size_t&)>& cub,
                        const std::function<bool()>& same) {
      const auto ws = bench::device_buffer<unsigned char>(std::max<std::size_t>(ws_bytes, 1), "workspace");
      std::size_t temp_bytes = 0;
      if (cub) cub(nullptr, temp_bytes);
      const auto temp = bench::device_buffer<unsigned char>(std::max<std::size_t>(temp_bytes, 1), "cub temp");
      bool mismatch = false;
      if (cub) {
        cub(temp.get(), temp_bytes);
        ours(ws.get());
        BENCH_CUDA(cudaStreamSynchronize(stream));
        mismatch = !same();
        if (mismatch)
          std::fprintf(stderr, "[bench] WARNING: %s %s %lld x %lld differs from cub\n", op.c_str(), type.c_str(),
                       static_cast<long long>(rows), static_cast<long long>(cols));
      }
      const double bytes = static_cast<double>(rows * cols) * static_cast<double>(elem_bytes);
      const bench::Timing t = timer.time([&] { ours(ws.get()); }, opt);
      const double gbs = bytes / (t.median_ms * 1e-3) / 1e9;
      double ratio = 0.0;
      if (cub) {
        const bench::Timing tc = timer.time([&] { cub(temp.get(), temp_bytes); }, opt);
        const double cub_gbs = bytes / (tc.median_ms * 1e-3) / 1e9;
        ratio = gbs / cub_gbs;
        report.add({{"algorithm", op},
                    {"dtype", type},
                    {"impl", std::string("cub")},
                    {"rows", rows},
                    {"cols", cols},
                    {"bytes", static_cast<std::int64_t>(bytes)},
                    {"time_ms", tc.median_ms},
                    {"gbs", cub_gbs},
                    {"ratio_to_cub", 1.0}});
        table.push_back({op, type, "cub", rows, cols, tc.median_ms, cub_gbs, 1.0, false});
        bench::progress("cub " + op + " " + type + " cols=" + std::to_string(cols), tc.median_ms,
                        std::to_string(cub_gbs) + " GB/s");
      }
      bench::JsonRecord rec = {{"algorithm", op},        {"dtype", type}, {"impl", std::string("ours")},
                               {"rows", rows},           {"cols", cols},  {"bytes", static_cast<std::int64_t>(bytes)},
                               {"time_ms", t.median_ms}, {"gbs", gbs}};
      if (cub) rec.emplace_back("ratio_to_cub", ratio);
      if (mismatch) rec.emplace_back("mismatch", true);
      // The plan this device gets (rows/plan.hpp): its path and its main kernel's block size (fields
      // the perf gate does not key records by, so records of other plans still meet).
      const rd::RowWork work = op == "top2_argmin" ? rd::RowWork::top2
                               : op == "sum"       ? rd::RowWork::sum
                                                   : rd::RowWork::select;
      const rd::RowPlan plan = rd::make_row_plan(rows, cols, 16, gpu.sm_count, work, elem_bytes);
      rec.emplace_back("row_plan", std::string(plan.path == rd::RowPath::lane_group      ? "lane_group"
                                               : plan.path == rd::RowPath::block_per_row ? "block_per_row"
                                                                                         : "split_row"));
      if (plan.path == rd::RowPath::lane_group) {
        rec.emplace_back("lanes", std::int64_t{plan.lanes});
        rec.emplace_back("lane_vectors", plan.group_vectors);
      } else rec.emplace_back("block_threads", std::int64_t{plan.threads});
      if (plan.path == rd::RowPath::split_row) rec.emplace_back("splits", plan.splits);
      report.add(std::move(rec));
      table.push_back({op, type, "ours", rows, cols, t.median_ms, gbs, ratio, mismatch});
      bench::progress("ours " + op + " " + type + " cols=" + std::to_string(cols), t.median_ms,
                      std::to_string(gbs) + " GB/s" + (cub ? ", " + std::to_string(ratio) + " x cub" : ""));
    };

    using gpuprims::reduce::Operator;
    using gpuprims::reduce::row_workspace_bytes;

    // A row sum of T into Acc, ours beside CUB's: exact for integers, within
    // tol a column for floating point (both sums of cols elements in some order); cub_fn(temp, bytes, in,
    // out) is CUB's.
    auto sum_case = [&](const char* type, const auto* xin, auto* o, auto* c, double tol, auto&& cub_fn) {
      using T = std::remove_cv_t<std::remove_pointer_t<decltype(xin)>>;
      using Acc = std::remove_pointer_t<decltype(o)>;
      const std::size_t ws_bytes = row_workspace_bytes<T>(Operator::sum, rows, cols);
      run_case(
          "sum", type, sizeof(T), ws_bytes,
          [&](void* ws) { ok(gpuprims::reduce::row_sum(xin, rows, cols, cols, o, ws, ws_bytes, stream), "row_sum"); },
          [&](void* t, std::size_t& b) { BENCH_CUDA(cub_fn(t, b, xin, c)); },
          [&] {
        const auto a = download(o, rows), r = download(c, rows);
        if constexpr (std::is_integral_v<Acc>) {
          return a == r;
        } else {
          for (std::size_t i = 0; i < a.size(); ++i)
            if (!(std::fabs(static_cast<double>(a[i]) - static_cast<double>(r[i])) <= tol * static_cast<double>(cols)))
              return false;
          return true;
        }
          });
    };
    // A row min or max of T, ours beside CUB's: the same bits (no NaN or -0 among the data, where the
    // two may differ by contract; ties between equal values leave the same bits).
    auto minmax_case = [&](const char* op, const char* type, const auto* xin, auto* o, auto* c) {
      using T = std::remove_cv_t<std::remove_pointer_t<decltype(xin)>>;
      const bool is_min = std::strcmp(op, "min") == 0;
      const Operator which = is_min ? Operator::min : Operator::max;
      const std::size_t ws_bytes = row_workspace_bytes<T>(which, rows, cols);
      run_case(
          op, type, sizeof(T), ws_bytes,
          [&](void* ws) {
        ok(is_min ? gpuprims::reduce::row_min(xin, rows, cols, cols, o, ws, ws_bytes, stream)
                  : gpuprims::reduce::row_max(xin, rows, cols, cols, o, ws, ws_bytes, stream),
           op);
          },
          [&](void* t, std::size_t& b) {
        BENCH_CUDA(is_min ? cub::DeviceSegmentedReduce::Min(t, b, xin, c, rows, begin, end, stream)
                          : cub::DeviceSegmentedReduce::Max(t, b, xin, c, rows, begin, end, stream));
      },
          [&] { return same_bits(download(o, rows), download(c, rows)); });
    };
    // A row argmin of T, ours (ArgResult) beside CUB's (KeyValuePair, index within the segment): the
    // same column and value bits (ties, frequent in 2-byte values, to the lower column in both).
    auto argmin_case = [&](const char* type, const auto* xin) {
      using T = std::remove_cv_t<std::remove_pointer_t<decltype(xin)>>;
      auto* o = reinterpret_cast<gpuprims::ArgResult<T>*>(out.get());
      auto* c = reinterpret_cast<cub::KeyValuePair<int, T>*>(cub_out.get());
      const std::size_t ws_bytes = row_workspace_bytes<T>(Operator::argmin, rows, cols);
      run_case(
          "argmin", type, sizeof(T), ws_bytes,
          [&](void* ws) {
        ok(gpuprims::reduce::row_argmin(xin, rows, cols, cols, o, ws, ws_bytes, stream), "row_argmin");
          },
          [&](void* t, std::size_t& b) {
        BENCH_CUDA(cub::DeviceSegmentedReduce::ArgMin(t, b, xin, c, rows, begin, end, stream));
      },
          [&] {
        const auto a = download(o, rows);
        const auto r = download(c, rows);
        for (std::size_t i = 0; i < a.size(); ++i)
          if (a[i].index != r[i].key || std::memcmp(&a[i].value, &r[i].value, sizeof(T)) != 0) return false;
        return true;
          });
    };
    // CUB's sum of a segment: Sum where it adds in the input's type; otherwise Reduce from init (the
    // integers through plus<> into int64, half through plus<float>).
    auto cub_sum = [&](void* t, std::size_t& b, const auto* xin, auto* c) {
      return cub::DeviceSegmentedReduce::Sum(t, b, xin, c, rows, begin, end, stream);
    };
    auto cub_sum_as = [&](auto init) {
      using Init = decltype(init);
      using Plus = std::conditional_t<std::is_integral_v<Init>, ::cuda::std::plus<>, ::cuda::std::plus<Init>>;
      return [&, init](void* t, std::size_t& b, const auto* xin, auto* c) {
        return cub::DeviceSegmentedReduce::Reduce(t, b, xin, c, rows, begin, end, Plus{}, init, stream);
      };
    };

    const float* x = in.get();
    float* of = reinterpret_cast<float*>(out.get());
    float* cf = reinterpret_cast<float*>(cub_out.get());
    auto* oi = reinterpret_cast<std::int64_t*>(out.get());
    auto* ci = reinterpret_cast<std::int64_t*>(cub_out.get());
    auto* od = reinterpret_cast<double*>(out.get());
    auto* cd = reinterpret_cast<double*>(cub_out.get());
    sum_case("float", x, of, cf, 1e-4, cub_sum);
    minmax_case("min", "float", x, of, cf);
    minmax_case("max", "float", x, of, cf);
    argmin_case("float", x);
    sum_case("int32", in_i.get(), oi, ci, 0.0, cub_sum_as(std::int64_t{0}));  // into int64: exact
    // The 8-byte types' sums: double within 1e-12 a column of each other (|x| < 1), int64 exact.
    sum_case("double", in_d.get(), od, cd, 1e-12, cub_sum);
    sum_case("int64", in_l.get(), oi, ci, 0.0, cub_sum_as(std::int64_t{0}));
    // The 2-byte types: a half sum into float (CUB adds in float too), half argmin and bfloat16 min.
    sum_case("half", in_h.get(), of, cf, 1e-4, cub_sum_as(0.0f));
    argmin_case("half", in_h.get());
    minmax_case("min", "bfloat16", in_b.get(), reinterpret_cast<__nv_bfloat16*>(out.get()),
                reinterpret_cast<__nv_bfloat16*>(cub_out.get()));
    // The per-row top-2: ours only (no equivalent baseline).
    auto* ot = reinterpret_cast<gpuprims::Top2*>(out.get());
    run_case(
        "top2_argmin", "float", sizeof(float), gpuprims::reduce::row_top2_workspace_bytes(rows, cols),
        [&](void* ws) {
      ok(gpuprims::reduce::row_top2_argmin(x, rows, cols, cols, ot, ws,
                                           gpuprims::reduce::row_top2_workspace_bytes(rows, cols), stream),
         "row_top2_argmin");
        },
        nullptr, nullptr);
  }

  std::printf("\nrow reductions vs cub::DeviceSegmentedReduce on %s (%d SMs), %lld elements, copy %.0f GB/s\n",
              gpu.name.c_str(), gpu.sm_count, static_cast<long long>(total), copy_gbs);
  std::printf("%-12s %-8s %-5s %10s %9s %11s %9s %8s\n", "op", "type", "impl", "rows", "cols", "time (us)", "GB/s",
              "vs cub");
  for (const Row& r : table)
    std::printf("%-12s %-8s %-5s %10lld %9lld %11.2f %9.1f %8.3f%s\n", r.op.c_str(), r.type.c_str(), r.impl.c_str(),
                static_cast<long long>(r.rows), static_cast<long long>(r.cols), r.time_ms * 1e3, r.gbs, r.ratio,
                r.mismatch ? "  MISMATCH" : "");
  return report.write(args.out) ? 0 : 1;
}
