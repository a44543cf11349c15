// Benchmark of gpuprims::dist: one GPU (the core call) against every visible GPU (the dist call,
// driven by one thread through the array forms), on the workloads of issue 13:
//   sgemm  16384^3, B broadcast from rank 0 inside the timed call (1 GiB)       target 1.9x
//   top2   fused SGEMM + top-2 argmin, 32768 x 32768 x 64, C not stored        target 1.9x
//          (B replicated: 8 MiB every rank has; a broadcast variant is recorded too, untargeted)
//   sum    2^31 floats per GPU (one GPU sums them all: 2^32 with two GPUs)      target 1.8x
// Timing (dist_timer.hpp): CUDA events per rank from a common start, the multi-GPU time being the
// largest rank's; L2 flushed on every rank before every run; warm-up, then the median of 25 runs,
// 7 for the 16384^3 SGEMM (about 90-180 ms per call: 7 runs take 2-3 s and vary well under 1%).
// Each workload's result is checked once (C on sampled entries against a double reference, the
// top-2 against the one-GPU call, the sum bit for bit against the per-shard sums in rank order).
// NCCL_NVLS_ENABLE=0 is set before NCCL starts: NVLink multicast stays off on the lent machines.
// Writes JSON (default dist.json, --out FILE); --quick runs smaller shapes for a smoke test.
#include <gpuprims/dist.hpp>
#include <gpuprims/gemm.hpp>
#include <gpuprims/reduce.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "dist/src/combine.hpp"
#include "dist_timer.hpp"
#include "harness.hpp"
#include "testkit/random.hpp"

namespace {

using namespace gpuprims::bench;
namespace dist = gpuprims::dist;
using gpuprims::Status;

void ok(Status s, const char* what) {
  if (s == Status::success) return;
  std::fprintf(stderr, "[bench] %s: %s\n", what, gpuprims::to_string(s));
  std::exit(2);
}

template <class T>
T* alloc_on(int device, std::size_t count) {
  BENCH_CUDA(cudaSetDevice(device));
  void* p = nullptr;
  BENCH_CUDA(cudaMalloc(&p, count * sizeof(T)));
  return static_cast<T*>(p);
}

struct Ctx {
  std::vector<ncclComm_t> comms;
  std::vector<int> devices;
  MultiTimer* timer = nullptr;
  Report* report = nullptr;
  int nranks() const { return static_cast<int>(devices.size()); }
};

std::vector<dist::RowRange> even_split(std::int64_t m, int nranks) {
  std::vector<dist::RowRange> out(static_cast<std::size_t>(nranks));
  for (int r = 0; r < nranks; ++r) ok(dist::even_row_range(m, nranks, r, &out[static_cast<std::size_t>(r)]), "split");
  return out;
}

// A copy of rows [begin, begin + rows) of a row-major matrix on device 0 into a new buffer on `device`.
float* rows_to(int device, const float* src, std::int64_t begin, std::int64_t rows, std::int64_t ld) {
  float* dst = alloc_on<float>(device, static_cast<std::size_t>(std::max<std::int64_t>(rows * ld, 1)));
  if (rows > 0) BENCH_CUDA(cudaMemcpyPeer(dst, device, src + begin * ld, 0, static_cast<std::size_t>(rows * ld) * 4));
  return dst;
}

void record(Ctx& c, const std::string& workload, JsonRecord shape, const std::string& impl, int gpus, const Timing& t,
            JsonRecord extra) {
  JsonRecord rec = {{"workload", workload}, {"impl", impl}, {"gpus", std::int64_t{gpus}}};
  rec.insert(rec.end(), shape.begin(), shape.end());
  rec.push_back({"time_ms", t.median_ms});
  rec.push_back({"min_ms", t.min_ms});
  rec.push_back({"max_ms", t.max_ms});
  rec.push_back({"reps", std::int64_t{t.reps}});
  rec.insert(rec.end(), extra.begin(), extra.end());
  c.report->add(std::move(rec));
}

// ---- SGEMM -------------------------------------------------------------------------------------

// A sampled entry of C against a double reference from A's row and B's column (copied from device 0).
bool sampled_ok(const float* A, const float* B, std::int64_t n, std::int64_t k, std::int64_t i, std::int64_t j,
                float got, double* worst_ratio) {
  std::vector<float> a(static_cast<std::size_t>(k)), b(static_cast<std::size_t>(k));
  BENCH_CUDA(cudaSetDevice(0));
  BENCH_CUDA(cudaMemcpy(a.data(), A + i * k, static_cast<std::size_t>(k) * 4, cudaMemcpyDeviceToHost));
  BENCH_CUDA(cudaMemcpy2D(b.data(), 4, B + j, static_cast<std::size_t>(n) * 4, 4, static_cast<std::size_t>(k),
                          cudaMemcpyDeviceToHost));
  double sum = 0, mag = 0;
  for (std::int64_t p = 0; p < k; ++p) {
    sum += static_cast<double>(a[static_cast<std::size_t>(p)]) * b[static_cast<std::size_t>(p)];
    mag += std::fabs(static_cast<double>(a[static_cast<std::size_t>(p)]) * b[static_cast<std::size_t>(p)]);
  }
  const double bound = 2.0 * static_cast<double>(k + 2) * std::ldexp(1.0, -24) * mag;  // docs/ERROR-BOUNDS.md
  const double err = std::fabs(static_cast<double>(got) - sum);
  *worst_ratio = std::max(*worst_ratio, err / bound);
  return err <= bound;
}

float read_at(int device, const float* p) {
  float v = 0;
  BENCH_CUDA(cudaSetDevice(device));
  BENCH_CUDA(cudaMemcpy(&v, p, sizeof v, cudaMemcpyDeviceToHost));
  return v;
}

void bench_sgemm(Ctx& c, std::int64_t s, int reps) {
  const std::int64_t m = s, n = s, k = s;
  const int G = c.nranks();
  const double flops = 2.0 * m * n * k;
  // One GPU: the whole problem on device 0. B there is also rank 0's B (the broadcast's root).
  float* A = alloc_on<float>(0, static_cast<std::size_t>(m * k));
  float* B = alloc_on<float>(0, static_cast<std::size_t>(k * n));
  float* C = alloc_on<float>(0, static_cast<std::size_t>(m * n));
  BENCH_CUDA(gpuprims::testkit::fill_uniform(A, m * k, 101));
  BENCH_CUDA(gpuprims::testkit::fill_uniform(B, k * n, 103));
  BENCH_CUDA(cudaDeviceSynchronize());
  TimingOptions opt;
  opt.warmup = 1;
  opt.reps = reps;
  const Timing one = c.timer->time(
      1,
      [&] {
    ok(gpuprims::gemm::sgemm(m, n, k, 1.0f, A, k, B, n, 0.0f, C, n, gpuprims::gemm::Algorithm::tuned,
                             c.timer->stream(0)),
       "gemm::sgemm");
      },
      opt);
  progress("sgemm " + std::to_string(s) + "^3 one GPU", one.median_ms);

  // All GPUs: rows split evenly; rank 0's A rows are the first rows of A in place, the others copies.
  const auto split = even_split(m, G);
  std::vector<float*> a_local, b_local, c_local;
  for (int r = 0; r < G; ++r) {
    const auto& rr = split[static_cast<std::size_t>(r)];
    a_local.push_back(r == 0 ? A : rows_to(c.devices[static_cast<std::size_t>(r)], A, rr.begin, rr.count, k));
    b_local.push_back(
        r == 0 ? B : alloc_on<float>(c.devices[static_cast<std::size_t>(r)], static_cast<std::size_t>(k * n)));
    c_local.push_back(alloc_on<float>(c.devices[static_cast<std::size_t>(r)],
                                      static_cast<std::size_t>(std::max<std::int64_t>(rr.count * n, 1))));
  }
  std::vector<dist::SgemmCall> calls(static_cast<std::size_t>(G));
  for (int r = 0; r < G; ++r) {
    dist::SgemmCall& call = calls[static_cast<std::size_t>(r)];
    call.comm = c.comms[static_cast<std::size_t>(r)];
    call.stream = c.timer->stream(r);
    call.args.m = m, call.args.n = n, call.args.k = k;
    call.args.m_local = split[static_cast<std::size_t>(r)].count;
    call.args.A_local = a_local[static_cast<std::size_t>(r)], call.args.lda = k;
    call.args.B = b_local[static_cast<std::size_t>(r)], call.args.ldb = n;
    call.args.C_local = c_local[static_cast<std::size_t>(r)], call.args.ldc = n;
    call.args.b_source = dist::BSource::broadcast_from(0);
  }
  const Timing multi = c.timer->time(
      G, [&] { ok(dist::sgemm(calls.data(), G), "dist::sgemm"); }, opt);
  progress("sgemm " + std::to_string(s) + "^3 on " + std::to_string(G) + " GPUs", multi.median_ms);

  // Check: a few entries of every rank's rows, and the same entries of the one-GPU C.
  bool good = true;
  double worst = 0.0;
  for (int r = 0; r < G; ++r) {
    const auto& rr = split[static_cast<std::size_t>(r)];
    for (std::int64_t li : {std::int64_t{0}, rr.count / 2, rr.count - 1}) {
      if (li < 0 || rr.count == 0) continue;
      for (std::int64_t j : {std::int64_t{0}, n / 3, n - 1}) {
        const float got =
            read_at(c.devices[static_cast<std::size_t>(r)], c_local[static_cast<std::size_t>(r)] + li * n + j);
        const float single = read_at(0, C + (rr.begin + li) * n + j);
        good = sampled_ok(A, B, n, k, rr.begin + li, j, got, &worst) && good;
        good = sampled_ok(A, B, n, k, rr.begin + li, j, single, &worst) && good;
      }
    }
  }
  if (!good) std::fprintf(stderr, "[bench] WARNING: sgemm result outside the FP32 bound (worst %.3g x bound)\n", worst);
  const JsonRecord shape = {{"m", m}, {"n", n}, {"k", k}};
  record(c, "sgemm", shape, "one_gpu", 1, one, {{"tflops", flops / one.median_ms / 1e9}});
  JsonRecord extra = {{"tflops", flops / multi.median_ms / 1e9},
                      {"b_source", std::string("broadcast")},
                      {"speedup", one.median_ms / multi.median_ms},
                      {"target_speedup", 1.9},
                      {"worst_error_to_bound", worst}};
  if (!good) extra.push_back({"mismatch", true});
  record(c, "sgemm", shape, "dist", G, multi, extra);

  for (int r = 0; r < G; ++r) {
    BENCH_CUDA(cudaSetDevice(c.devices[static_cast<std::size_t>(r)]));
    if (r > 0) BENCH_CUDA(cudaFree(a_local[static_cast<std::size_t>(r)]));
    if (r > 0) BENCH_CUDA(cudaFree(b_local[static_cast<std::size_t>(r)]));
    BENCH_CUDA(cudaFree(c_local[static_cast<std::size_t>(r)]));
  }
  BENCH_CUDA(cudaSetDevice(0));
  BENCH_CUDA(cudaFree(A));
  BENCH_CUDA(cudaFree(B));
  BENCH_CUDA(cudaFree(C));
}

// ---- Fused top-2 -------------------------------------------------------------------------------

gpuprims::Top2 read_top2(int device, const gpuprims::Top2* p) {
  gpuprims::Top2 t;
  BENCH_CUDA(cudaSetDevice(device));
  BENCH_CUDA(cudaMemcpy(&t, p, sizeof t, cudaMemcpyDeviceToHost));
  return t;
}

void bench_top2(Ctx& c, std::int64_t m, std::int64_t n, std::int64_t k) {
  const int G = c.nranks();
  float* A = alloc_on<float>(0, static_cast<std::size_t>(m * k));
  float* B = alloc_on<float>(0, static_cast<std::size_t>(k * n));
  auto* top2 = alloc_on<gpuprims::Top2>(0, 1);
  BENCH_CUDA(gpuprims::testkit::fill_uniform(A, m * k, 201));
  BENCH_CUDA(gpuprims::testkit::fill_uniform(B, k * n, 203));
  BENCH_CUDA(cudaDeviceSynchronize());
  TimingOptions opt;
  const Timing one = c.timer->time(
      1,
      [&] {
    ok(gpuprims::gemm::sgemm_top2_argmin(m, n, k, 1.0f, A, k, B, n, 0.0f, nullptr, n, top2,
                                         gpuprims::gemm::Algorithm::tuned, c.timer->stream(0)),
       "gemm::sgemm_top2_argmin");
      },
      opt);
  progress("top2 one GPU", one.median_ms);
  const gpuprims::Top2 want = read_top2(0, top2);

  const auto split = even_split(m, G);
  std::vector<float*> a_local, b_local;
  std::vector<gpuprims::Top2*> t_local;
  for (int r = 0; r < G; ++r) {
    const int dev = c.devices[static_cast<std::size_t>(r)];
    const auto& rr = split[static_cast<std::size_t>(r)];
    a_local.push_back(r == 0 ? A : rows_to(dev, A, rr.begin, rr.count, k));
    b_local.push_back(r == 0 ? B : rows_to(dev, B, 0, k, n));  // replicated: every rank has B
    t_local.push_back(alloc_on<gpuprims::Top2>(dev, 1));
  }
  const JsonRecord shape = {{"m", m}, {"n", n}, {"k", k}};
  record(c, "top2", shape, "one_gpu", 1, one, {{"c_stored", false}});
  for (bool broadcast : {false, true}) {
    std::vector<dist::SgemmCall> calls(static_cast<std::size_t>(G));
    for (int r = 0; r < G; ++r) {
      dist::SgemmCall& call = calls[static_cast<std::size_t>(r)];
      call.comm = c.comms[static_cast<std::size_t>(r)];
      call.stream = c.timer->stream(r);
      call.args.m = m, call.args.n = n, call.args.k = k;
      call.args.m_local = split[static_cast<std::size_t>(r)].count;
      call.args.A_local = a_local[static_cast<std::size_t>(r)], call.args.lda = k;
      call.args.B = b_local[static_cast<std::size_t>(r)], call.args.ldb = n;
      call.args.C_local = nullptr, call.args.ldc = n;
      call.args.b_source = broadcast ? dist::BSource::broadcast_from(0) : dist::BSource::replicated();
      call.d_top2 = t_local[static_cast<std::size_t>(r)];
    }
    const Timing multi = c.timer->time(
        G, [&] { ok(dist::sgemm_top2_argmin(calls.data(), G), "dist::sgemm_top2_argmin"); }, opt);
    progress(std::string("top2 on ") + std::to_string(G) + " GPUs, B " + (broadcast ? "broadcast" : "replicated"),
             multi.median_ms);
    bool same_on_every_rank = true, equal_to_one_gpu = true;
    const gpuprims::Top2 first = read_top2(c.devices[0], t_local[0]);
    for (int r = 0; r < G; ++r) {
      const gpuprims::Top2 got =
          read_top2(c.devices[static_cast<std::size_t>(r)], t_local[static_cast<std::size_t>(r)]);
      same_on_every_rank = same_on_every_rank && std::memcmp(&got, &first, sizeof got) == 0;
      equal_to_one_gpu = equal_to_one_gpu && std::memcmp(&got, &want, sizeof got) == 0;
    }
    if (!same_on_every_rank) std::fprintf(stderr, "[bench] WARNING: top-2 differs between ranks\n");
    if (!equal_to_one_gpu)
      std::fprintf(stderr,
                   "[bench] note: top-2 differs from the one-GPU call (a different plan for the local rows?)\n");
    JsonRecord extra = {{"c_stored", false},
                        {"b_source", std::string(broadcast ? "broadcast" : "replicated")},
                        {"speedup", one.median_ms / multi.median_ms},
                        {"equal_to_one_gpu", equal_to_one_gpu}};
    if (!broadcast) extra.push_back({"target_speedup", 1.9});
    if (!same_on_every_rank) extra.push_back({"mismatch", true});
    record(c, broadcast ? "top2_b_broadcast" : "top2", shape, "dist", G, multi, extra);
  }
  for (int r = 0; r < G; ++r) {
    BENCH_CUDA(cudaSetDevice(c.devices[static_cast<std::size_t>(r)]));
    if (r > 0) BENCH_CUDA(cudaFree(a_local[static_cast<std::size_t>(r)]));
    if (r > 0) BENCH_CUDA(cudaFree(b_local[static_cast<std::size_t>(r)]));
    BENCH_CUDA(cudaFree(t_local[static_cast<std::size_t>(r)]));
  }
  BENCH_CUDA(cudaSetDevice(0));
  BENCH_CUDA(cudaFree(A));
  BENCH_CUDA(cudaFree(B));
  BENCH_CUDA(cudaFree(top2));
}

// ---- Sum -------------------------------------------------------------------------------------

void bench_sum(Ctx& c, std::int64_t per_gpu) {
  const int G = c.nranks();
  const std::int64_t total = per_gpu * G;
  // One GPU: the whole array on device 0; rank 0's shard is its first part, in place.
  float* x = alloc_on<float>(0, static_cast<std::size_t>(total));
  float* out = alloc_on<float>(0, 1);
  BENCH_CUDA(gpuprims::testkit::fill_uniform(x, total, 301));
  BENCH_CUDA(cudaDeviceSynchronize());
  const std::size_t ws_bytes = gpuprims::reduce::workspace_bytes(total);
  void* ws = alloc_on<unsigned char>(0, std::max<std::size_t>(ws_bytes, 1));
  TimingOptions opt;
  const Timing one = c.timer->time(
      1,
      [&] {
    ok(gpuprims::reduce::sum(x, total, out, ws, ws_bytes, gpuprims::reduce::Algorithm::shuffle, c.timer->stream(0)),
       "reduce::sum");
      },
      opt);
  progress("sum one GPU", one.median_ms);
  const float single = read_at(0, out);

  std::vector<float*> shard, d_out;
  std::vector<void*> d_ws;
  std::vector<dist::SumCall> calls(static_cast<std::size_t>(G));
  for (int r = 0; r < G; ++r) {
    const int dev = c.devices[static_cast<std::size_t>(r)];
    shard.push_back(r == 0 ? x : rows_to(dev, x, r, 1, per_gpu));  // the r-th shard of the array
    d_out.push_back(alloc_on<float>(dev, 1));
    const std::size_t bytes = dist::sum_workspace_bytes(per_gpu, G);
    d_ws.push_back(alloc_on<unsigned char>(dev, bytes));
    dist::SumCall& call = calls[static_cast<std::size_t>(r)];
    call.comm = c.comms[static_cast<std::size_t>(r)];
    call.d_in_local = shard.back();
    call.n_local = per_gpu;
    call.d_out = d_out.back();
    call.d_workspace = d_ws.back();
    call.workspace_bytes = bytes;
    call.stream = c.timer->stream(r);
  }
  const Timing multi = c.timer->time(
      G, [&] { ok(dist::sum(calls.data(), G), "dist::sum"); }, opt);
  progress("sum on " + std::to_string(G) + " GPUs", multi.median_ms);

  // Check: every rank holds the per-shard sums added in rank order, bit for bit.
  std::vector<float> partials;
  for (int r = 0; r < G; ++r) {
    const int dev = c.devices[static_cast<std::size_t>(r)];
    BENCH_CUDA(cudaSetDevice(dev));
    float* p = alloc_on<float>(dev, 1);
    ok(gpuprims::reduce::sum(shard[static_cast<std::size_t>(r)], per_gpu, p), "reduce::sum shard");
    BENCH_CUDA(cudaDeviceSynchronize());
    partials.push_back(read_at(dev, p));
    BENCH_CUDA(cudaFree(p));
  }
  const float want = dist::detail::sum_in_rank_order(partials.data(), G);
  bool bitwise = true;
  for (int r = 0; r < G; ++r) {
    const float got = read_at(c.devices[static_cast<std::size_t>(r)], d_out[static_cast<std::size_t>(r)]);
    bitwise = bitwise && std::memcmp(&got, &want, sizeof got) == 0;
  }
  if (!bitwise) std::fprintf(stderr, "[bench] WARNING: dist::sum is not the rank-order sum of the shards' sums\n");
  const double bytes = static_cast<double>(total) * 4;
  record(c, "sum", {{"n", total}, {"n_per_gpu", per_gpu}}, "one_gpu", 1, one,
         {{"gbs", bytes / (one.median_ms * 1e-3) / 1e9}, {"value", static_cast<double>(single)}});
  JsonRecord extra = {{"gbs", bytes / (multi.median_ms * 1e-3) / 1e9},
                      {"speedup", one.median_ms / multi.median_ms},
                      {"target_speedup", 1.8},
                      {"value", static_cast<double>(want)},
                      {"bitwise_rank_order", bitwise}};
  if (!bitwise) extra.push_back({"mismatch", true});
  record(c, "sum", {{"n", total}, {"n_per_gpu", per_gpu}}, "dist", G, multi, extra);

  for (int r = 0; r < G; ++r) {
    BENCH_CUDA(cudaSetDevice(c.devices[static_cast<std::size_t>(r)]));
    if (r > 0) BENCH_CUDA(cudaFree(shard[static_cast<std::size_t>(r)]));
    BENCH_CUDA(cudaFree(d_out[static_cast<std::size_t>(r)]));
    BENCH_CUDA(cudaFree(d_ws[static_cast<std::size_t>(r)]));
  }
  BENCH_CUDA(cudaSetDevice(0));
  BENCH_CUDA(cudaFree(x));
  BENCH_CUDA(cudaFree(out));
  BENCH_CUDA(cudaFree(ws));
}

}  // namespace

int main(int argc, char** argv) {
  // Before any NCCL call: NVLink multicast (NVLS) stays off.
  setenv("NCCL_NVLS_ENABLE", "0", 1);
  const Args args = parse_args(argc, argv, "dist.json");
  GpuInfo gpu;
  if (!gpu_info(&gpu)) return 2;
  int count = 0;
  BENCH_CUDA(cudaGetDeviceCount(&count));
  if (count < 2) std::fprintf(stderr, "[bench] only %d GPU visible: the multi-GPU rows use 1 rank\n", count);
  Ctx c;
  for (int d = 0; d < count; ++d) c.devices.push_back(d);
  c.comms.assign(static_cast<std::size_t>(count), nullptr);
  ok(dist::make_local_comms(c.comms.data(), count), "make_local_comms");
  MultiTimer timer(c.devices, gpu.l2_bytes);
  TimingOptions opt;
  Report report("dist", gpu, opt);
  int nccl_version = 0;
  ncclGetVersion(&nccl_version);
  report.set("gpus", std::int64_t{count});
  report.set("nccl_version", std::int64_t{nccl_version});
  report.set("timing", std::string("CUDA events per GPU from a common start (all GPUs released together); the "
                                   "multi-GPU time is the slowest GPU's; median of 25 runs (7 for the largest "
                                   "SGEMM) after warm-up; L2 flushed on every GPU before every run"));
  report.set("nccl_nvls_enable", std::string("0"));
  c.timer = &timer;
  c.report = &report;

  const std::int64_t sgemm_size = args.quick ? 4096 : 16384;
  bench_sgemm(c, sgemm_size, args.quick ? 10 : 7);
  bench_top2(c, args.quick ? 8192 : 32768, args.quick ? 8192 : 32768, 64);
  bench_sum(c, args.quick ? (std::int64_t{1} << 26) : (std::int64_t{1} << 31));

  const bool written = report.write(args.out);
  ok(dist::destroy_local_comms(c.comms.data(), count), "destroy_local_comms");
  return written ? 0 : 1;
}
