#pragma once
// The typed part of reduce_bench: every operator x type of gpuprims/reduce_typed.hpp beside
// cub::DeviceReduce::{Sum, Min, Max, ArgMin, ArgMax} on the same input, through the same timer. The
// input is made on the device (floats uniform in [-1, 1), integers over their whole range, so there are
// no NaNs and ties are rare); GB/s counts the input read once. Each pair's results are compared once
// (exact for integers, min, max and the arg* indices; sums within a relative 1e-4 of sum |x| for float
// accumulators, 1e-12 for double) and a disagreement is recorded as "mismatch". Included by
// reduce_bench.cu only.
#include <cub/device/device_reduce.cuh>

#include <gpuprims/reduce.hpp>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "harness.hpp"

namespace gpuprims::bench {
namespace typed {

__device__ __forceinline__ std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

template <class T>
__global__ void fill_kernel(T* p, std::int64_t n, std::uint64_t seed) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const std::uint64_t h = mix64(seed ^ static_cast<std::uint64_t>(i));
    const double u = static_cast<double>(h >> 11) * 0x1.0p-53 * 2.0 - 1.0;  // [-1, 1)
    if constexpr (std::is_same_v<T, __half>) p[i] = __float2half_rn(static_cast<float>(u));
    else if constexpr (std::is_same_v<T, __nv_bfloat16>) p[i] = __float2bfloat16_rn(static_cast<float>(u));
    else if constexpr (std::is_floating_point_v<T>) p[i] = static_cast<T>(u);
    else p[i] = static_cast<T>(h);
  }
}

template <class T>
const char* type_name() {
  if constexpr (std::is_same_v<T, float>) return "float";
  else if constexpr (std::is_same_v<T, double>) return "double";
  else if constexpr (std::is_same_v<T, __half>) return "half";
  else if constexpr (std::is_same_v<T, __nv_bfloat16>) return "bfloat16";
  else if constexpr (std::is_same_v<T, std::int32_t>) return "int32";
  else if constexpr (std::is_same_v<T, std::uint32_t>) return "uint32";
  else return "int64";
}

template <class V>
V read_back(const void* d) {
  V h;
  BENCH_CUDA(cudaMemcpy(&h, d, sizeof(V), cudaMemcpyDeviceToHost));
  return h;
}

template <class V>
double as_double(V v) {
  if constexpr (std::is_same_v<V, __half>) return static_cast<double>(__half2float(v));
  else if constexpr (std::is_same_v<V, __nv_bfloat16>) return static_cast<double>(__bfloat162float(v));
  else return static_cast<double>(v);
}

template <class V>
bool same_bits(V a, V b) {
  return std::memcmp(&a, &b, sizeof(V)) == 0;
}

// Sums |x| of the input in double on the host side of a copy (once per type and size; not timed).
template <class T>
double host_abs_sum(const T* d, std::int64_t n) {
  std::vector<T> h(static_cast<std::size_t>(n));
  BENCH_CUDA(cudaMemcpy(h.data(), d, sizeof(T) * h.size(), cudaMemcpyDeviceToHost));
  double s = 0.0;
  for (const T& v : h) s += std::fabs(as_double(v));
  return s;
}

// half / bfloat16 sums in float for CUB too: cuda::std::plus<> has no (float, __half) overload, so
// CUB's Sum does not compile for them; Reduce with this functor and a float 0 reads the same input and
// accumulates as ours does.
struct WideningPlus {
  template <class A, class B>
  __host__ __device__ float operator()(A a, B b) const {
    return static_cast<float>(a) + static_cast<float>(b);
  }
};

template <class T, class S>
cudaError_t cub_sum(void* temp, std::size_t& bytes, const T* in, S* out, std::int64_t n, cudaStream_t stream) {
  if constexpr (std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>)
    return cub::DeviceReduce::Reduce(temp, bytes, in, out, n, WideningPlus{}, 0.0f, stream);
  else return cub::DeviceReduce::Sum(temp, bytes, in, out, n, stream);
}

struct Pair {
  std::string op;
  double ours_ms, cub_ms;
  bool mismatch;
};

// Times ours and CUB's for one operator; both callables enqueue on the timer's stream.
template <class Ours, class Cub>
Pair time_pair(Timer& timer, const TimingOptions& opt, const std::string& op, const char* tname, std::int64_t n,
               std::size_t elem_bytes, bool mismatch, Ours ours, Cub cub, Report* report) {
  const Timing to = timer.time(ours, opt);
  const Timing tc = timer.time(cub, opt);
  const double bytes = static_cast<double>(n) * static_cast<double>(elem_bytes);
  const double gbs_ours = bytes / (to.median_ms * 1e-3) / 1e9, gbs_cub = bytes / (tc.median_ms * 1e-3) / 1e9;
  for (int which = 0; which < 2; ++which) {
    const bool is_ours = which == 0;
    JsonRecord rec = {{"variant", op},
                      {"dtype", std::string(tname)},
                      {"impl", std::string(is_ours ? "ours" : "cub")},
                      {"n", n},
                      {"bytes", static_cast<std::int64_t>(bytes)},
                      {"time_ms", is_ours ? to.median_ms : tc.median_ms},
                      {"gbs", is_ours ? gbs_ours : gbs_cub},
                      {"ratio_to_cub", is_ours ? gbs_ours / gbs_cub : 1.0}};
    if (is_ours && mismatch) rec.emplace_back("mismatch", true);
    report->add(std::move(rec));
  }
  progress(op + "<" + tname + "> n=" + std::to_string(n), to.median_ms,
           std::to_string(gbs_ours) + " GB/s, " + std::to_string(gbs_ours / gbs_cub) + " x cub");
  return {op, to.median_ms, tc.median_ms, mismatch};
}

template <class T>
void run_type(Timer& timer, const TimingOptions& opt, const std::vector<std::int64_t>& sizes, void* d_raw,
              Report* report, std::vector<Pair>* table) {
  using S = sum_type_t<T>;
  namespace rdc = ::gpuprims::reduce;
  cudaStream_t stream = timer.stream();
  const char* tname = type_name<T>();
  const std::int64_t max_n = sizes.back();
  T* d_in = static_cast<T*>(d_raw);
  fill_kernel<T><<<2048, 256, 0, stream>>>(d_in, max_n, 0x7e9edull + sizeof(T));
  BENCH_CUDA(cudaGetLastError());
  BENCH_CUDA(cudaStreamSynchronize(stream));

  const auto out = device_buffer<unsigned char>(64, "typed outputs");
  auto* o_ours = out.get();
  auto* o_cub = out.get() + 16;
  auto* o_idx = reinterpret_cast<std::int64_t*>(out.get() + 32);

  for (std::int64_t n : sizes) {
    std::size_t ws_bytes = 0;
    for (rdc::Operator op :
         {rdc::Operator::sum, rdc::Operator::min, rdc::Operator::max, rdc::Operator::argmin, rdc::Operator::argmax})
      ws_bytes = std::max(ws_bytes, rdc::workspace_bytes<T>(op, n));
    const auto ws = device_buffer<unsigned char>(std::max<std::size_t>(ws_bytes, 1), "typed workspace");
    void* const d_ws = ws.get();
    // CUB's temporary storage: the most any of its five calls asks for.
    std::size_t cub_bytes = 0, b = 0;
    BENCH_CUDA(cub_sum(nullptr, b, d_in, reinterpret_cast<S*>(o_cub), n, stream));
    cub_bytes = std::max(cub_bytes, b);
    BENCH_CUDA(cub::DeviceReduce::Min(nullptr, b, d_in, reinterpret_cast<T*>(o_cub), n, stream));
    cub_bytes = std::max(cub_bytes, b);
    BENCH_CUDA(cub::DeviceReduce::Max(nullptr, b, d_in, reinterpret_cast<T*>(o_cub), n, stream));
    cub_bytes = std::max(cub_bytes, b);
    BENCH_CUDA(cub::DeviceReduce::ArgMin(nullptr, b, d_in, reinterpret_cast<T*>(o_cub), o_idx, n, stream));
    cub_bytes = std::max(cub_bytes, b);
    BENCH_CUDA(cub::DeviceReduce::ArgMax(nullptr, b, d_in, reinterpret_cast<T*>(o_cub), o_idx, n, stream));
    cub_bytes = std::max(cub_bytes, b);
    const auto temp = device_buffer<unsigned char>(std::max<std::size_t>(cub_bytes, 1), "cub temp");
    void* const d_temp = temp.get();
    auto ok = [](Status st, const char* what) {
      if (st != Status::success) {
        std::fprintf(stderr, "[bench] reduce::%s failed: %s\n", what, to_string(st));
        std::exit(2);
      }
    };
    const double abs_sum = std::is_integral_v<T> ? 0.0 : host_abs_sum(d_in, n);

    // sum
    {
      auto ours = [&] { ok(rdc::sum<T>(d_in, n, reinterpret_cast<S*>(o_ours), d_ws, ws_bytes, stream), "sum"); };
      auto cub_call = [&] {
        std::size_t tb = cub_bytes;
        BENCH_CUDA(cub_sum(d_temp, tb, d_in, reinterpret_cast<S*>(o_cub), n, stream));
      };
      ours();
      cub_call();
      BENCH_CUDA(cudaStreamSynchronize(stream));
      const S a = read_back<S>(o_ours), c = read_back<S>(o_cub);
      bool mismatch = false;
      if constexpr (std::is_integral_v<S>) {
        mismatch = a != c;
      } else {
        const double tol = (std::is_same_v<S, double> ? 1e-12 : 1e-4) * abs_sum;
        mismatch = !(std::fabs(static_cast<double>(a) - static_cast<double>(c)) <= tol);
      }
      table->push_back(time_pair(timer, opt, "sum", tname, n, sizeof(T), mismatch, ours, cub_call, report));
    }
    // min, max
    for (bool want_max : {false, true}) {
      auto ours = [&] {
        ok(want_max ? rdc::max<T>(d_in, n, reinterpret_cast<T*>(o_ours), d_ws, ws_bytes, stream)
                    : rdc::min<T>(d_in, n, reinterpret_cast<T*>(o_ours), d_ws, ws_bytes, stream),
           want_max ? "max" : "min");
      };
      auto cub_call = [&] {
        std::size_t tb = cub_bytes;
        if (want_max) BENCH_CUDA(cub::DeviceReduce::Max(d_temp, tb, d_in, reinterpret_cast<T*>(o_cub), n, stream));
        else BENCH_CUDA(cub::DeviceReduce::Min(d_temp, tb, d_in, reinterpret_cast<T*>(o_cub), n, stream));
      };
      ours();
      cub_call();
      BENCH_CUDA(cudaStreamSynchronize(stream));
      const bool mismatch = !(as_double(read_back<T>(o_ours)) == as_double(read_back<T>(o_cub)));
      table->push_back(
          time_pair(timer, opt, want_max ? "max" : "min", tname, n, sizeof(T), mismatch, ours, cub_call, report));
    }
    // argmin, argmax (CUB 3.x: value and index to separate outputs)
    for (bool want_max : {false, true}) {
      auto ours = [&] {
        auto* r = reinterpret_cast<ArgResult<T>*>(o_ours);
        ok(want_max ? rdc::argmax<T>(d_in, n, r, d_ws, ws_bytes, stream)
                    : rdc::argmin<T>(d_in, n, r, d_ws, ws_bytes, stream),
           want_max ? "argmax" : "argmin");
      };
      auto cub_call = [&] {
        std::size_t tb = cub_bytes;
        if (want_max)
          BENCH_CUDA(cub::DeviceReduce::ArgMax(d_temp, tb, d_in, reinterpret_cast<T*>(o_cub), o_idx, n, stream));
        else BENCH_CUDA(cub::DeviceReduce::ArgMin(d_temp, tb, d_in, reinterpret_cast<T*>(o_cub), o_idx, n, stream));
      };
      ours();
      cub_call();
      BENCH_CUDA(cudaStreamSynchronize(stream));
      const auto mine = read_back<ArgResult<T>>(o_ours);
      const bool mismatch =
          mine.index != read_back<std::int64_t>(o_idx) || !(as_double(mine.value) == as_double(read_back<T>(o_cub)));
      table->push_back(
          time_pair(timer, opt, want_max ? "argmax" : "argmin", tname, n, sizeof(T), mismatch, ours, cub_call, report));
    }
  }
}

}  // namespace typed

// Every operator x type at every size, beside CUB; records into report and a table on stdout.
inline void run_typed_benchmarks(Timer& timer, const TimingOptions& opt, const std::vector<std::int64_t>& sizes,
                                 Report* report) {
  const std::int64_t max_n = *std::max_element(sizes.begin(), sizes.end());
  const auto raw = device_buffer<unsigned char>(static_cast<std::size_t>(max_n) * 8, "typed input");
  std::vector<typed::Pair> table;
  std::vector<std::string> labels;
  auto run = [&](auto tag) {
    using T = decltype(tag);
    const std::size_t before = table.size();
    typed::run_type<T>(timer, opt, sizes, raw.get(), report, &table);
    for (std::size_t i = before; i < table.size(); ++i) labels.push_back(typed::type_name<T>());
  };
  run(float{});
  run(double{});
  run(__half{});
  run(__nv_bfloat16{});
  run(std::int32_t{});
  run(std::uint32_t{});
  run(std::int64_t{});
  std::printf("\ntyped reductions vs cub::DeviceReduce (median us; ratio = CUB time / ours)\n");
  std::printf("%-8s %-10s %12s %12s %8s\n", "op", "type", "ours (us)", "cub (us)", "ratio");
  for (std::size_t i = 0; i < table.size(); ++i)
    std::printf("%-8s %-10s %12.2f %12.2f %8.3f%s\n", table[i].op.c_str(), labels[i].c_str(), table[i].ours_ms * 1e3,
                table[i].cub_ms * 1e3, table[i].cub_ms / table[i].ours_ms, table[i].mismatch ? "  MISMATCH" : "");
}

}  // namespace gpuprims::bench
