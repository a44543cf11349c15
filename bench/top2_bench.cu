// Top-2 argmin benchmark: the fused GEMM epilogue against what a user would otherwise write:
//   cublas+cub_argmin_x2   cublasSgemm, cub::DeviceReduce::ArgMin, mask the minimum, ArgMin again
//   ours_sgemm+ours_top2   our tuned sgemm, then reduce::top2_argmin over C (the unfused twin)
//   fused                  sgemm_top2_argmin storing C
//   fused_no_store         sgemm_top2_argmin with C == nullptr (only A and B are read)
//   fused_no_store_tf32x3  the same with Algorithm::tf32x3 (tensor cores, FP32-class accuracy), at
//                          kTensorCoreShape only; its agreement fields are its own: fused == its unfused
//                          twin (tf32x3 sgemm, then reduce::top2_argmin), positions == cuBLAS FP32 + CUB
//   ours_sgemm_plain / cublas_sgemm_plain   the GEMM alone, for reference
// The per-row form (sgemm_row_top2_argmin: each row's two smallest entries, the ratio-test kNN) at
// kRowShapes (65536 x 65536 x 128 and 8192 x 8192 x 128; --quick: the smaller), records with
// "form": "per_row":
//   cublas+row_top2_pass  cublasSgemm storing C, then row_top2_pass below (one warp per row): the baseline
//   ours_sgemm+row_top2_pass  our tuned sgemm, then the same pass (the unfused twin)
//   row_fused / row_fused_no_store   sgemm_row_top2_argmin storing C / with C == nullptr
//   row_fused_no_store_tf32x3 / row_fused_no_store_tf32   the same with Algorithm::tf32x3 / tf32, C not
//                          stored (compute capability 8.0+); their agreement fields are their own: ==
//                          that rung's sgemm + the pass, rows whose positions equal cuBLAS FP32 + the
//                          pass (tf32 rounds its operands, so fewer rows agree)
//   ours_sgemm_plain / cublas_sgemm_plain   the GEMM alone
// Every per-row path that finds rows also records "rows_positions_equal_exact": its rows whose two
// columns are the exact product's (a double-precision reference, double_reference_rows), so each
// precision's neighbours are judged against the truth and not only against cuBLAS's FP32.
// A 65536 x 65536 C is 16 GiB: the paths that store C run only when the device has room (else
// "skipped"), and every allocation is checked against the free memory first.
// --single M N K [nostore] [tf32x3] [rows | plain] [config=NAME] makes one call (for ncu; see run_single).
// --configs adds fused_no_store@<config> and row_fused_no_store@<config> rows: the fused kernel of
// either form forced onto each tuned configuration (unsplit).
// --beta B (B != 0): every call of the global form's shapes, ours and the vendor's, with beta B, so each
// reads C (C = A B + B C, the update form); C starts from one random matrix before each agreement
// check, the paths that do not store C (beta must then be 0) and the per-row form are left out, and
// the records carry "beta". Without it, beta is 0.
// Same process, same timer (L2 flushed, median of 25). JSON with speedups over cublas+cub.
#include <cub/device/device_reduce.cuh>
#include <gpuprims/gemm.hpp>
#include <gpuprims/reduce.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "common/device/top2_order.hpp"
#include "common/device/warp_reduce.cuh"
#include "gemm/src/gemm_internal.hpp"
#include "harness.hpp"
#include "testkit/cublas.hpp"
#include "testkit/random.hpp"
#include "testkit/shapes.hpp"

namespace {

using namespace gpuprims::bench;
namespace tk = gpuprims::testkit;

using tk::GemmShape;

const GemmShape kWideIndexShape = {65536, 65536, 128};

// The classic shapes, then shapes the tuned rung serves with its other paths (split-K on a small
// output with a long k, few rows, few columns, one short side, k = 1 with an odd ldc:
// testkit::path_exemplars), where the fused call must stay close to the plain one too; last an output
// of 2^32 entries (65536^2 x 128, C 16 GiB), whose fused call takes the 64-bit-index top-2.
std::vector<GemmShape> top2_shapes() {
  std::vector<GemmShape> s = {{4096, 4096, 4096}, {16384, 16384, 64}, {8192, 8192, 128}, {1000, 3000, 500}};
  const std::vector<GemmShape> others = tk::path_exemplars();
  s.insert(s.end(), others.begin(), others.end());
  s.push_back(kWideIndexShape);
  return s;
}
const GemmShape kQuickShapes[] = {{4096, 4096, 4096}, {16384, 16384, 64}};
// Where the tf32x3 fused call is timed too: the short-k shape the fused epilogue is for (C never
// stored, the product cheap next to reading A and B and searching 2^28 entries).
const GemmShape kTensorCoreShape = {16384, 16384, 64};

// The user's masking step between the two ArgMin calls: C[first] = +inf (saved, restored after).
__global__ void mask_min(float* c, const std::int64_t* index, float* saved) {
  *saved = c[*index];
  c[*index] = INFINITY;
}
__global__ void unmask_min(float* c, const std::int64_t* index, const float* saved) { c[*index] = *saved; }

void ok(gpuprims::Status s, const char* what) {
  if (s == gpuprims::Status::success) return;
  std::fprintf(stderr, "[bench] %s: %s\n", what, gpuprims::to_string(s));
  std::exit(1);
}

// ---- The per-row form ----

const GemmShape kRowShapes[] = {{65536, 65536, 128}, {8192, 8192, 128}};

// What a user would write after a stored GEMM to get each row's two smallest entries: one warp per
// row, each lane the top-2 of its strided columns (16-byte loads when the rows allow them, streamed:
// C is read once), then a warp merge (Top2Merge, exact and order-free). Same order and reporting
// rules as the library (order_key: NaN last, -0 as +0, ties to the lower column), so its result is
// the fused call's unfused twin byte for byte.
constexpr int kRowPassThreads = 256;
constexpr int kRowPassWarps = kRowPassThreads / 32;

__device__ gpuprims::MinEntry row_pass_entry(std::uint32_t key, std::int64_t col, std::int64_t row) {
  namespace d = gpuprims::detail;
  if (col == d::kNoIndex) return gpuprims::MinEntry{INFINITY, -1, -1};
  return gpuprims::MinEntry{d::value_from_key(key), row, col};
}

__global__ void __launch_bounds__(kRowPassThreads)
    row_top2_pass(const float* c, std::int64_t m, std::int64_t n, std::int64_t ldc, bool vec4, gpuprims::Top2* out) {
  namespace d = gpuprims::detail;
  const int lane = static_cast<int>(threadIdx.x % 32);
  const std::int64_t step = static_cast<std::int64_t>(gridDim.x) * kRowPassWarps;
  for (std::int64_t r = static_cast<std::int64_t>(blockIdx.x) * kRowPassWarps + threadIdx.x / 32; r < m; r += step) {
    const float* row = c + r * ldc;
    d::Top2Partial best = d::Top2Partial::empty();
    std::int64_t tail = 0;
    if (vec4) {
      tail = n / 4 * 4;
      for (std::int64_t j = 4 * lane; j < tail; j += 128) {
        const float4 v = __ldcs(reinterpret_cast<const float4*>(row + j));
        best.insert(v.x, j);
        best.insert(v.y, j + 1);
        best.insert(v.z, j + 2);
        best.insert(v.w, j + 3);
      }
    }
    for (std::int64_t j = tail + lane; j < n; j += 32) best.insert(__ldcs(row + j), j);
    best = d::warp_reduce(best, d::Top2Merge{});
    if (lane == 0) out[r] = gpuprims::Top2{row_pass_entry(best.k0, best.i0, r), row_pass_entry(best.k1, best.i1, r)};
  }
}

void launch_row_pass(const float* c, std::int64_t m, std::int64_t n, std::int64_t ldc, gpuprims::Top2* out,
                     cudaStream_t stream) {
  const std::int64_t blocks = std::min<std::int64_t>((m + kRowPassWarps - 1) / kRowPassWarps, 65535);
  const bool vec4 = ldc % 4 == 0 && reinterpret_cast<std::uintptr_t>(c) % 16 == 0;
  row_top2_pass<<<static_cast<unsigned>(std::max<std::int64_t>(blocks, 1)), kRowPassThreads, 0, stream>>>(c, m, n, ldc,
                                                                                                          vec4, out);
  BENCH_CUDA(cudaGetLastError());
}

// The per-row top-2 of the exact product, for judging each precision's neighbours (not timed). Each
// product of two floats is exact in double and a row's k of them sum with a relative error near
// k * 2^-53, so two entries swap order only where they differ by about that much: the double order
// stands for the exact one. A block takes kRefRows rows (A's as doubles in shared memory); a thread
// runs over columns j = tid, tid + kRefThreads, ..., keeping each row's two smallest (value, column)
// with strict compares (ties to the lower column), then the block merges its threads' pairs per row.
// Only the columns are compared (rows_with_same_positions), so -0 against +0 and NaN (absent from
// uniform data) need no rule here; the values are the double sums rounded to float.
constexpr int kRefRows = 8;
constexpr int kRefThreads = 256;

struct RefPair {
  double v0, v1;
  std::int64_t c0, c1;
  __device__ void insert(double v, std::int64_t c) {  // c above every column inserted before
    if (v < v0) {
      v1 = v0;
      c1 = c0;
      v0 = v;
      c0 = c;
    } else if (v < v1) {
      v1 = v;
      c1 = c;
    }
  }
  __device__ void insert_any(double v, std::int64_t c) {  // any column: ties to the lower one
    const bool before0 = v < v0 || (v == v0 && c < c0);
    const bool before1 = v < v1 || (v == v1 && c < c1);
    if (before0) {
      v1 = v0;
      c1 = c0;
      v0 = v;
      c0 = c;
    } else if (before1) {
      v1 = v;
      c1 = c;
    }
  }
};

__global__ void __launch_bounds__(kRefThreads)
    row_top2_double_reference(const float* a, const float* b, std::int64_t m, std::int64_t n, std::int64_t k,
                              gpuprims::Top2* out) {
  extern __shared__ double a_rows[];  // kRefRows x k
  __shared__ RefPair pairs[kRefRows][kRefThreads / 32];
  const std::int64_t row0 = static_cast<std::int64_t>(blockIdx.x) * kRefRows;
  const int rows = static_cast<int>(m - row0 < kRefRows ? m - row0 : kRefRows);
  for (std::int64_t i = threadIdx.x; i < kRefRows * k; i += kRefThreads)
    a_rows[i] = i / k < rows ? static_cast<double>(a[(row0 + i / k) * k + i % k]) : 0.0;
  __syncthreads();
  RefPair best[kRefRows];
  for (RefPair& p : best) p = RefPair{INFINITY, INFINITY, -1, -1};
  for (std::int64_t j = threadIdx.x; j < n; j += kRefThreads) {
    double acc[kRefRows] = {};
    for (std::int64_t p = 0; p < k; ++p) {
      const double bv = static_cast<double>(b[p * n + j]);
#pragma unroll
      for (int r = 0; r < kRefRows; ++r) acc[r] = fma(a_rows[r * k + p], bv, acc[r]);
    }
#pragma unroll
    for (int r = 0; r < kRefRows; ++r) best[r].insert(acc[r], j);
  }
  const int lane = static_cast<int>(threadIdx.x % 32), warp = static_cast<int>(threadIdx.x / 32);
#pragma unroll
  for (int r = 0; r < kRefRows; ++r) {
    for (int offset = 16; offset > 0; offset /= 2) {
      const double v0 = __shfl_down_sync(~0u, best[r].v0, offset), v1 = __shfl_down_sync(~0u, best[r].v1, offset);
      const auto c0 = static_cast<std::int64_t>(__shfl_down_sync(~0u, static_cast<long long>(best[r].c0), offset));
      const auto c1 = static_cast<std::int64_t>(__shfl_down_sync(~0u, static_cast<long long>(best[r].c1), offset));
      if (c0 >= 0) best[r].insert_any(v0, c0);
      if (c1 >= 0) best[r].insert_any(v1, c1);
    }
    if (lane == 0) pairs[r][warp] = best[r];
  }
  __syncthreads();
  if (threadIdx.x >= static_cast<unsigned>(rows)) return;
  RefPair row = pairs[threadIdx.x][0];
  for (int w = 1; w < kRefThreads / 32; ++w) {
    const RefPair& o = pairs[threadIdx.x][w];
    if (o.c0 >= 0) row.insert_any(o.v0, o.c0);
    if (o.c1 >= 0) row.insert_any(o.v1, o.c1);
  }
  const std::int64_t r = row0 + threadIdx.x;
  out[r] = gpuprims::Top2{gpuprims::MinEntry{static_cast<float>(row.v0), r, row.c0},
                          gpuprims::MinEntry{static_cast<float>(row.v1), r, row.c1}};
}

// Each row's two smallest entries of the exact product A B (row-major A m x k, B k x n, packed).
std::vector<gpuprims::Top2> double_reference_rows(const float* a, const float* b, std::int64_t m, std::int64_t n,
                                                  std::int64_t k, cudaStream_t stream) {
  const auto rows = device_buffer<gpuprims::Top2>(static_cast<std::size_t>(m), "reference rows");
  const std::size_t smem = static_cast<std::size_t>(kRefRows * k) * sizeof(double);
  BENCH_CUDA(cudaFuncSetAttribute(row_top2_double_reference, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  static_cast<int>(smem)));
  row_top2_double_reference<<<static_cast<unsigned>((m + kRefRows - 1) / kRefRows), kRefThreads, smem, stream>>>(
      a, b, m, n, k, rows.get());
  BENCH_CUDA(cudaGetLastError());
  std::vector<gpuprims::Top2> h(static_cast<std::size_t>(m));
  BENCH_CUDA(cudaMemcpyAsync(h.data(), rows.get(), h.size() * sizeof(gpuprims::Top2), cudaMemcpyDeviceToHost, stream));
  BENCH_CUDA(cudaStreamSynchronize(stream));
  return h;
}

// Rows of `got` whose positions (first and second column) equal `want`'s.
std::int64_t rows_with_same_positions(const std::vector<gpuprims::Top2>& got, const std::vector<gpuprims::Top2>& want) {
  std::int64_t same = 0;
  for (std::size_t r = 0; r < got.size(); ++r)
    same += got[r].first.col == want[r].first.col && got[r].second.col == want[r].second.col ? 1 : 0;
  return same;
}

void bench_per_row(const GemmShape& s, Timer& timer, const TimingOptions& opt, const tk::CublasHandle& cublas,
                   bool per_config, Report& report) {
  const std::int64_t m = s.m, n = s.n, k = s.k;
  cudaStream_t stream = timer.stream();
  const std::size_t ab_bytes = static_cast<std::size_t>(m * k + k * n) * sizeof(float);
  const std::size_t rows_bytes = 2 * static_cast<std::size_t>(m) * sizeof(gpuprims::Top2);
  // tf32x3 needs tensor cores (compute capability 8.0+); on an older GPU its path is left out.
  int device = 0, cc_major = 0;
  BENCH_CUDA(cudaGetDevice(&device));
  BENCH_CUDA(cudaDeviceGetAttribute(&cc_major, cudaDevAttrComputeCapabilityMajor, device));
  const bool tensor_cores = cc_major >= 8;
  using gpuprims::gemm::Algorithm;
  // The tensor-core rungs timed per row, each with its own agreement fields (below).
  struct TensorCoreRung {
    Algorithm algo;
    const char* path;
    const char* name;
    bool twin_agrees = false;
    std::int64_t cublas_rows_same = -1;
    std::int64_t exact_rows_same = -1;
  };
  std::vector<TensorCoreRung> tc_rungs;
  if (tensor_cores)
    tc_rungs = {{Algorithm::tf32x3, "row_fused_no_store_tf32x3", "tf32x3"},
                {Algorithm::tf32, "row_fused_no_store_tf32", "tf32"}};
  std::size_t ws_bytes = gpuprims::gemm::row_top2_workspace_bytes(m, n, k);
  for (const TensorCoreRung& tc : tc_rungs)
    ws_bytes = std::max(ws_bytes, gpuprims::gemm::row_top2_workspace_bytes(m, n, k, tc.algo));
  namespace d = gpuprims::detail;
  if (per_config) {  // --configs forces each unsplit plan; only their workspaces need the GPU's shape
    const d::DeviceShape* gpu_shape = nullptr;
    if (d::current_device_shape(&gpu_shape) != gpuprims::Status::success) {
      std::fprintf(stderr, "[bench] per-row --configs: no device shape (current_device_shape failed): skipped\n");
      return;
    }
    for (const d::RungEntry& cfg : d::kTunedConfigs)
      ws_bytes =
          std::max(ws_bytes, d::call_workspace_bytes(d::make_plan(cfg, k, 1), m, n, true, gpu_shape->sm_count, true));
  }
  const std::size_t c_bytes = static_cast<std::size_t>(m) * static_cast<std::size_t>(n) * sizeof(float);
  std::size_t free_bytes = 0, total_bytes = 0;
  BENCH_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::size_t margin = std::size_t{1} << 30;  // cuBLAS's and the allocator's own needs
  const std::string shape = tk::shape_name(m, n, k);
  if (ab_bytes + rows_bytes + ws_bytes + margin > free_bytes) {
    std::fprintf(stderr, "[bench] per-row %s: needs %zu MiB, %zu MiB free: skipped\n", shape.c_str(),
                 (ab_bytes + rows_bytes + ws_bytes) >> 20, free_bytes >> 20);
    return;
  }
  const bool store_fits = ab_bytes + rows_bytes + ws_bytes + c_bytes + margin <= free_bytes;
  if (!store_fits)
    std::fprintf(stderr, "[bench] per-row %s: C (%zu MiB) does not fit in %zu MiB free: stored paths skipped\n",
                 shape.c_str(), c_bytes >> 20, free_bytes >> 20);
  const auto a_buf = device_buffer<float>(static_cast<std::size_t>(m * k), "A"),
             b_buf = device_buffer<float>(static_cast<std::size_t>(k * n), "B");
  const auto c_buf = device_buffer<float>(store_fits ? c_bytes / sizeof(float) : 0, "C");
  const auto fused_buf = device_buffer<gpuprims::Top2>(static_cast<std::size_t>(m), "per-row top-2"),
             twin_buf = device_buffer<gpuprims::Top2>(static_cast<std::size_t>(m), "per-row twin");
  const auto ws_buf = device_buffer<unsigned char>(ws_bytes, "per-row workspace");
  const float *A = a_buf.get(), *B = b_buf.get();
  float* C = c_buf.get();
  gpuprims::Top2 *rows = fused_buf.get(), *twin = twin_buf.get();
  BENCH_CUDA(tk::fill_uniform(a_buf.get(), m * k, 41 + m));
  BENCH_CUDA(tk::fill_uniform(b_buf.get(), k * n, 43 + n));

  auto fused = [&](float* c_out, Algorithm algo = Algorithm::tuned) {
    ok(gpuprims::gemm::sgemm_row_top2_argmin(m, n, k, 1.0f, A, k, B, n, 0.0f, c_out, n, rows, ws_buf.get(), ws_bytes,
                                             algo, stream),
       "sgemm_row_top2_argmin");
  };
  auto ours_sgemm = [&](Algorithm algo = Algorithm::tuned) {
    ok(gpuprims::gemm::sgemm(m, n, k, 1.0f, A, k, B, n, 0.0f, C, n, algo, stream), "sgemm");
  };
  auto cublas_sgemm = [&] { BENCH_CUBLAS(tk::sgemm_rowmajor(cublas.get(), m, n, k, 1.0f, A, k, B, n, 0.0f, C, n)); };
  auto download = [&](const gpuprims::Top2* d_rows) {
    std::vector<gpuprims::Top2> h(static_cast<std::size_t>(m));
    BENCH_CUDA(cudaMemcpyAsync(h.data(), d_rows, h.size() * sizeof(gpuprims::Top2), cudaMemcpyDeviceToHost, stream));
    BENCH_CUDA(cudaStreamSynchronize(stream));
    return h;
  };

  // Agreement, once: the fused rows (C stored) == our sgemm + the pass, every byte; C not stored ==
  // C stored; positions against cuBLAS (FP32) + the pass, as a count of rows (near ties may order
  // otherwise under another summation order).
  // Each precision's rows against the exact product's neighbours (double_reference_rows): ours
  // (FP32, C stored or not: the same bits), cuBLAS FP32 + the pass, and the tensor-core rungs.
  bool twin_agrees = false, no_store_agrees = false;
  std::int64_t cublas_rows_same = -1, vendor_exact_rows = -1;
  const std::vector<gpuprims::Top2> exact = double_reference_rows(A, B, m, n, k, stream);
  fused(nullptr);
  const std::vector<gpuprims::Top2> bare = download(rows);
  const std::int64_t fp32_exact_rows = rows_with_same_positions(bare, exact);
  if (!store_fits)
    for (TensorCoreRung& rung : tc_rungs) {
      fused(nullptr, rung.algo);
      rung.exact_rows_same = rows_with_same_positions(download(rows), exact);
    }
  if (store_fits) {
    fused(C);
    const std::vector<gpuprims::Top2> stored = download(rows);
    ours_sgemm();
    launch_row_pass(C, m, n, n, twin, stream);
    const std::vector<gpuprims::Top2> ours = download(twin);
    cublas_sgemm();
    launch_row_pass(C, m, n, n, twin, stream);
    const std::vector<gpuprims::Top2> vendor = download(twin);
    twin_agrees = std::memcmp(stored.data(), ours.data(), stored.size() * sizeof(gpuprims::Top2)) == 0;
    no_store_agrees = std::memcmp(stored.data(), bare.data(), stored.size() * sizeof(gpuprims::Top2)) == 0;
    cublas_rows_same = rows_with_same_positions(stored, vendor);
    vendor_exact_rows = rows_with_same_positions(vendor, exact);
    if (!twin_agrees) std::fprintf(stderr, "[bench] WARNING per-row fused and unfused top-2 disagree\n");
    for (TensorCoreRung& rung : tc_rungs) {
      fused(nullptr, rung.algo);
      const std::vector<gpuprims::Top2> tc = download(rows);
      ours_sgemm(rung.algo);
      launch_row_pass(C, m, n, n, twin, stream);
      const std::vector<gpuprims::Top2> tc_twin = download(twin);
      rung.twin_agrees = std::memcmp(tc.data(), tc_twin.data(), tc.size() * sizeof(gpuprims::Top2)) == 0;
      rung.cublas_rows_same = rows_with_same_positions(tc, vendor);
      rung.exact_rows_same = rows_with_same_positions(tc, exact);
      if (!rung.twin_agrees)
        std::fprintf(stderr, "[bench] WARNING per-row fused and unfused %s top-2 disagree\n", rung.name);
    }
  }

  struct Path {
    const char* name;
    std::function<void()> run;
    bool needs_c;
    const TensorCoreRung* tensor_core = nullptr;  // a tensor-core rung: its own agreement fields
  };
  std::vector<Path> paths = {{"cublas+row_top2_pass",
                              [&] {
    cublas_sgemm();
    launch_row_pass(C, m, n, n, twin, stream);
                              },
                              true},
                             {"ours_sgemm+row_top2_pass",
                              [&] {
    ours_sgemm();
    launch_row_pass(C, m, n, n, twin, stream);
                              },
                              true},
                    {"row_fused", [&] { fused(C); }, true}, {"row_fused_no_store", [&] { fused(nullptr); }, false},
                    {"ours_sgemm_plain", [&] { ours_sgemm(); }, true}, {"cublas_sgemm_plain", cublas_sgemm, true}};
  for (std::size_t i = 0; i < tc_rungs.size(); ++i) {
    const TensorCoreRung* rung = &tc_rungs[i];
    paths.insert(paths.begin() + 4 + static_cast<std::ptrdiff_t>(i),
                 Path{rung->path, [&fused, rung] { fused(nullptr, rung->algo); }, false, rung});
  }
  std::vector<std::string> forced_names;  // the Path records keep a name's pointer
  if (per_config)
    for (const d::RungEntry& cfg : d::kTunedConfigs)
      forced_names.push_back(std::string("row_fused_no_store@") + cfg.name);
  for (std::size_t i = 0; i < forced_names.size(); ++i)
    paths.push_back({forced_names[i].c_str(),
                     [&, plan = d::make_plan(d::kTunedConfigs[i], k, 1)] {
      d::SgemmArgs a{m, n, k, 1.0f, A, k, B, n, 0.0f, nullptr, n, Algorithm::tuned, rows, true};
      a.per_row = true;
      ok(d::sgemm_run(a, &plan, ws_buf.get(), ws_bytes, stream), "forced per-row");
                     },
                     false});
  double baseline_ms = 0, plain_ms = 0, no_store_ms = 0;
  for (const Path& p : paths) {
    JsonRecord rec{{"path", std::string(p.name)}, {"form", std::string("per_row")}, {"m", m}, {"n", n}, {"k", k}};
    if (p.tensor_core != nullptr) rec.emplace_back("algorithm", std::string(p.tensor_core->name));
    if (p.needs_c && !store_fits) {
      rec.emplace_back("skipped", std::string("C does not fit in device memory"));
      report.add(rec);
      continue;
    }
    const Timing t = timer.time(p.run, opt);
    if (std::strcmp(p.name, "cublas+row_top2_pass") == 0) baseline_ms = t.median_ms;
    if (std::strcmp(p.name, "ours_sgemm_plain") == 0) plain_ms = t.median_ms;
    if (std::strcmp(p.name, "row_fused_no_store") == 0) no_store_ms = t.median_ms;
    progress("top2 per-row " + shape + " " + p.name, t.median_ms);
    std::printf("%-18s %-26s %10.4f ms", shape.c_str(), p.name, t.median_ms);
    if (baseline_ms > 0) std::printf("  %6.2fx vs cublas+row_top2_pass", baseline_ms / t.median_ms);
    std::printf("\n");
    rec.emplace_back("time_ms", t.median_ms);
    if (baseline_ms > 0) rec.emplace_back("speedup_vs_cublas_row_pass", baseline_ms / t.median_ms);
    // Rows whose two columns are the exact product's: ours and the tensor-core rungs, and cuBLAS's.
    // The GEMM-alone paths find no rows.
    const bool vendor_path = std::strncmp(p.name, "cublas", 6) == 0;
    const bool finds_rows = std::strstr(p.name, "_plain") == nullptr;
    const std::int64_t exact_rows = p.tensor_core != nullptr ? p.tensor_core->exact_rows_same
                                    : vendor_path            ? vendor_exact_rows
                                                             : fp32_exact_rows;
    if (finds_rows && exact_rows >= 0) rec.emplace_back("rows_positions_equal_exact", exact_rows);
    if (store_fits && p.tensor_core != nullptr) {
      rec.emplace_back("fused_equals_unfused", p.tensor_core->twin_agrees);
      rec.emplace_back("rows_positions_equal_cublas", p.tensor_core->cublas_rows_same);
    } else if (store_fits) {
      rec.emplace_back("fused_equals_unfused", twin_agrees);
      rec.emplace_back("no_store_equals_stored", no_store_agrees);
      rec.emplace_back("rows_positions_equal_cublas", cublas_rows_same);
    }
    report.add(rec);
  }
  if (plain_ms > 0 && no_store_ms > 0)
    std::printf("%-18s per-row fused, C not stored / our SGEMM alone (C stored): %.3fx\n", shape.c_str(),
                no_store_ms / plain_ms);
  std::printf("%-18s rows whose two columns are the exact product's (of %lld): FP32 %lld, cuBLAS FP32 %lld",
              shape.c_str(), static_cast<long long>(m), static_cast<long long>(fp32_exact_rows),
              static_cast<long long>(vendor_exact_rows));
  for (const TensorCoreRung& rung : tc_rungs)
    std::printf(", %s %lld", rung.name, static_cast<long long>(rung.exact_rows_same));
  std::printf("\n");
}

// --single M N K [nostore] [tf32x3] [rows | plain] [config=NAME]: one call, for ncu. rows: the
// per-row form; plain: sgemm alone; config=NAME: that tuned configuration forced, unsplit (so two
// forms can be profiled on the same tile).
int run_single(int argc, char** argv) {
  if (argc < 5) return 64;
  const std::int64_t m = std::atoll(argv[2]), n = std::atoll(argv[3]), k = std::atoll(argv[4]);
  bool store = true, per_row = false, plain = false;
  const char* config = nullptr;
  auto algo = gpuprims::gemm::Algorithm::tuned;
  for (int i = 5; i < argc; ++i) {
    if (std::strcmp(argv[i], "nostore") == 0) store = false;
    if (std::strcmp(argv[i], "tf32x3") == 0) algo = gpuprims::gemm::Algorithm::tf32x3;
    if (std::strcmp(argv[i], "rows") == 0) per_row = true;
    if (std::strcmp(argv[i], "plain") == 0) plain = true;
    if (std::strncmp(argv[i], "config=", 7) == 0) config = argv[i] + 7;
  }
  if (plain && (per_row || !store)) return 64;
  namespace d = gpuprims::detail;
  const d::RungEntry* forced = nullptr;
  for (const d::RungEntry& cfg : d::kTunedConfigs)
    if (config != nullptr && std::strcmp(cfg.name, config) == 0) forced = &cfg;
  if (config != nullptr && forced == nullptr) {
    std::fprintf(stderr, "[bench] --single: no tuned configuration named %s\n", config);
    return 64;
  }
  const d::DeviceShape* device = nullptr;
  if (d::current_device_shape(&device) != gpuprims::Status::success) return 2;
  const auto A = device_buffer<float>(m * k, "A"), B = device_buffer<float>(k * n, "B"),
             C = device_buffer<float>(m * n, "C");
  const auto top2 = device_buffer<gpuprims::Top2>(per_row ? m : 1, "top2");
  BENCH_CUDA(tk::fill_uniform(A.get(), m * k, 31 + m));
  BENCH_CUDA(tk::fill_uniform(B.get(), k * n, 37 + n));
  std::size_t bytes = per_row ? gpuprims::gemm::row_top2_workspace_bytes(m, n, k, algo)
                              : gpuprims::gemm::top2_workspace_bytes(m, n, k, algo);
  const d::GemmPlan plan = forced != nullptr ? d::make_plan(*forced, k, 1) : d::GemmPlan{};
  if (forced != nullptr)
    bytes = std::max(bytes, d::call_workspace_bytes(plan, m, n, !plain, device->sm_count, per_row));
  const auto ws = device_buffer<unsigned char>(bytes, "workspace");
  d::SgemmArgs a{
      m,     n, k, 1.0f, A.get(), k, B.get(), n, 0.0f, store ? C.get() : nullptr, n, algo, plain ? nullptr : top2.get(),
      !plain};
  a.per_row = per_row;
  namespace g = gpuprims::gemm;
  float* c_out = store ? C.get() : nullptr;
  const gpuprims::Status st = forced != nullptr ? d::sgemm_run(a, &plan, ws.get(), bytes, nullptr)
                              : plain           ? g::sgemm(m, n, k, 1.0f, A.get(), k, B.get(), n, 0.0f, c_out, n, algo)
                              : per_row ? g::sgemm_row_top2_argmin(m, n, k, 1.0f, A.get(), k, B.get(), n, 0.0f, c_out,
                                                                   n, top2.get(), ws.get(), bytes, algo)
                                        : g::sgemm_top2_argmin(m, n, k, 1.0f, A.get(), k, B.get(), n, 0.0f, c_out, n,
                                                               top2.get(), ws.get(), bytes, algo);
  BENCH_CUDA(cudaDeviceSynchronize());
  std::printf("%s %lldx%lldx%lld%s%s: %s\n",
              plain     ? "sgemm"
              : per_row ? "sgemm_row_top2_argmin"
                        : "sgemm_top2_argmin",
              static_cast<long long>(m), static_cast<long long>(n), static_cast<long long>(k),
              store ? "" : " (C not stored)", config != nullptr ? (std::string(" on ") + config).c_str() : "",
              gpuprims::to_string(st));
  return st == gpuprims::Status::success ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--single") == 0) return run_single(argc, argv);
  const Args args = parse_args(argc, argv, "top2.json");
  bool per_config = false;
  for (int i = 1; i < argc; ++i) per_config = per_config || std::strcmp(argv[i], "--configs") == 0;
  float beta = 0.0f;
  if (!parse_beta(argc, argv, &beta)) return 64;
  const bool reads_c = beta != 0.0f;
  GpuInfo gpu;
  if (!gpu_info(&gpu)) return 2;
  TimingOptions opt;
  Timer timer(gpu);
  cudaStream_t stream = timer.stream();
  // FP32 pedantic (no TF32): the vendor's FP32 SGEMM, as sgemm_bench compares against.
  const tk::CublasHandle cublas(CUBLAS_PEDANTIC_MATH, stream);
  BENCH_CUBLAS(cublas.status());
  Report report("top2", gpu, opt);
  std::vector<GemmShape> shapes = top2_shapes();
  if (args.quick) shapes.assign(std::begin(kQuickShapes), std::end(kQuickShapes));

  for (const GemmShape& s : shapes) {
    const std::int64_t m = s.m, n = s.n, k = s.k, count = m * n;
    // This shape's buffers, freed at the end of the iteration (every timed run has synchronized).
    const auto a_buf = device_buffer<float>(m * k, "A"), b_buf = device_buffer<float>(k * n, "B"),
               c_buf = device_buffer<float>(count, "C"), min_val_buf = device_buffer<float>(2, "min_val"),
               saved_buf = device_buffer<float>(1, "saved");
    const auto min_idx_buf = device_buffer<std::int64_t>(2, "min_idx");
    const auto top2_buf = device_buffer<gpuprims::Top2>(1, "top2");
    float *A = a_buf.get(), *B = b_buf.get(), *C = c_buf.get(), *min_val = min_val_buf.get(), *saved = saved_buf.get();
    std::int64_t* min_idx = min_idx_buf.get();
    gpuprims::Top2* top2 = top2_buf.get();
    BENCH_CUDA(tk::fill_uniform(A, m * k, 31 + m));
    BENCH_CUDA(tk::fill_uniform(B, k * n, 37 + n));
    // beta != 0: C's starting values, copied into C before each agreement call (the timed calls
    // accumulate into C and so grow it).
    const auto c0_buf = device_buffer<float>(reads_c ? count : 0, "C0");
    if (reads_c) BENCH_CUDA(tk::fill_uniform(c0_buf.get(), count, 41 + m + n));
    auto restart_c = [&] {
      if (reads_c)
        BENCH_CUDA(cudaMemcpyAsync(C, c0_buf.get(), count * sizeof(float), cudaMemcpyDeviceToDevice, stream));
    };
    // Workspaces once, outside timing.
    std::size_t cub_bytes = 0;
    BENCH_CUDA(cub::DeviceReduce::ArgMin(nullptr, cub_bytes, C, min_val, min_idx, count, stream));
    const auto cub_ws_buf = device_buffer<unsigned char>(cub_bytes, "cub workspace");
    void* cub_ws = cub_ws_buf.get();
    namespace d = gpuprims::detail;
    const d::DeviceShape* device = nullptr;
    if (d::current_device_shape(&device) != gpuprims::Status::success) return 2;
    using gpuprims::gemm::Algorithm;
    // tf32x3 needs tensor cores (compute capability 8.0+); on an older GPU its row is left out.
    const bool tensor_core_shape =
        m == kTensorCoreShape.m && n == kTensorCoreShape.n && k == kTensorCoreShape.k && gpu.cc_major >= 8;
    std::size_t fused_bytes = gpuprims::gemm::top2_workspace_bytes(m, n, k);
    if (tensor_core_shape)
      fused_bytes = std::max(fused_bytes, gpuprims::gemm::top2_workspace_bytes(m, n, k, Algorithm::tf32x3));
    for (const d::RungEntry* path : d::tuned_paths())  // --per-config forces each unsplit plan
      fused_bytes =
          std::max(fused_bytes, d::call_workspace_bytes(d::make_plan(*path, k, 1), m, n, true, device->sm_count));
    const std::size_t twin_bytes = gpuprims::reduce::top2_argmin_workspace_bytes(m, n);
    const auto fused_ws_buf = device_buffer<unsigned char>(fused_bytes, "fused workspace"),
               twin_ws_buf = device_buffer<unsigned char>(twin_bytes, "twin workspace");
    void *fused_ws = fused_ws_buf.get(), *twin_ws = twin_ws_buf.get();

    auto cublas_cub = [&] {
      BENCH_CUBLAS(tk::sgemm_rowmajor(cublas.get(), m, n, k, 1.0f, A, k, B, n, beta, C, n));
      BENCH_CUDA(cub::DeviceReduce::ArgMin(cub_ws, cub_bytes, C, min_val, min_idx, count, stream));
      mask_min<<<1, 1, 0, stream>>>(C, min_idx, saved);
      BENCH_CUDA(cub::DeviceReduce::ArgMin(cub_ws, cub_bytes, C, min_val + 1, min_idx + 1, count, stream));
      unmask_min<<<1, 1, 0, stream>>>(C, min_idx, saved);
    };
    auto ours_unfused = [&] {
      ok(gpuprims::gemm::sgemm(m, n, k, 1.0f, A, k, B, n, beta, C, n, gpuprims::gemm::Algorithm::tuned, stream),
         "sgemm");
      ok(gpuprims::reduce::top2_argmin(C, m, n, n, top2, twin_ws, twin_bytes, stream), "top2_argmin");
    };
    auto fused = [&](float* c_out, Algorithm algo = Algorithm::tuned) {  // beta 0 when C is not stored
      ok(gpuprims::gemm::sgemm_top2_argmin(m, n, k, 1.0f, A, k, B, n, c_out != nullptr ? beta : 0.0f, c_out, n, top2,
                                           fused_ws, fused_bytes, algo, stream),
         "sgemm_top2_argmin");
    };

    // Agreement, once: fused == unfused twin exactly; positions vs cuBLAS+CUB recorded.
    gpuprims::Top2 f{}, u{};
    restart_c();
    fused(C);
    BENCH_CUDA(cudaMemcpyAsync(&f, top2, sizeof f, cudaMemcpyDeviceToHost, stream));
    BENCH_CUDA(cudaStreamSynchronize(stream));
    restart_c();
    ours_unfused();
    BENCH_CUDA(cudaMemcpyAsync(&u, top2, sizeof u, cudaMemcpyDeviceToHost, stream));
    restart_c();
    cublas_cub();
    std::int64_t cub_idx[2];
    BENCH_CUDA(cudaMemcpyAsync(cub_idx, min_idx, sizeof cub_idx, cudaMemcpyDeviceToHost, stream));
    BENCH_CUDA(cudaStreamSynchronize(stream));
    const bool twin_agrees = f.first.row == u.first.row && f.first.col == u.first.col && f.second.row == u.second.row &&
                             f.second.col == u.second.col;
    const bool cub_agrees =
        cub_idx[0] == f.first.row * n + f.first.col && cub_idx[1] == f.second.row * n + f.second.col;
    if (!twin_agrees) std::fprintf(stderr, "[bench] WARNING fused and unfused top-2 disagree\n");
    // The tf32x3 fused call (C not stored) against its own unfused twin, and its positions against
    // cuBLAS FP32 + CUB (cub_idx, above): tf32x3 rounds differently from cuBLAS, so a near tie may
    // legitimately order otherwise; the field records it.
    bool tf32x3_twin_agrees = false, tf32x3_cub_agrees = false;
    if (tensor_core_shape && !reads_c) {
      gpuprims::Top2 ft{}, ut{};
      fused(nullptr, Algorithm::tf32x3);
      BENCH_CUDA(cudaMemcpyAsync(&ft, top2, sizeof ft, cudaMemcpyDeviceToHost, stream));
      BENCH_CUDA(cudaStreamSynchronize(stream));
      ok(gpuprims::gemm::sgemm(m, n, k, 1.0f, A, k, B, n, 0.0f, C, n, Algorithm::tf32x3, stream), "sgemm tf32x3");
      ok(gpuprims::reduce::top2_argmin(C, m, n, n, top2, twin_ws, twin_bytes, stream), "top2_argmin");
      BENCH_CUDA(cudaMemcpyAsync(&ut, top2, sizeof ut, cudaMemcpyDeviceToHost, stream));
      BENCH_CUDA(cudaStreamSynchronize(stream));
      tf32x3_twin_agrees = ft.first.row == ut.first.row && ft.first.col == ut.first.col &&
                           ft.second.row == ut.second.row && ft.second.col == ut.second.col;
      tf32x3_cub_agrees =
          cub_idx[0] == ft.first.row * n + ft.first.col && cub_idx[1] == ft.second.row * n + ft.second.col;
      if (!tf32x3_twin_agrees) std::fprintf(stderr, "[bench] WARNING fused and unfused tf32x3 top-2 disagree\n");
    }

    struct Path {
      std::string name;
      std::function<void()> run;
      const char* algorithm = nullptr;  // set for a path whose agreement fields are its own (not tuned's)
      bool twin_agrees = false, cub_agrees = false;
    };
    std::vector<Path> paths = {{"cublas+cub_argmin_x2", cublas_cub},
                               {"ours_sgemm+ours_top2", ours_unfused},
                               {"fused", [&] { fused(C); }},
                               {"fused_no_store", [&] { fused(nullptr); }},
                               {"ours_sgemm_plain",
                                [&] {
      ok(gpuprims::gemm::sgemm(m, n, k, 1.0f, A, k, B, n, beta, C, n, gpuprims::gemm::Algorithm::tuned, stream),
         "sgemm");
                                }},
                               {"cublas_sgemm_plain", [&] {
                                  BENCH_CUBLAS(tk::sgemm_rowmajor(cublas.get(), m, n, k, 1.0f, A, k, B, n, beta, C, n));
                                }}};
    if (reads_c)  // fused_no_store: no C, so beta must be 0
      paths.erase(std::remove_if(paths.begin(), paths.end(), [](const Path& p) { return p.name == "fused_no_store"; }),
                  paths.end());
    if (tensor_core_shape && !reads_c)
      paths.insert(paths.begin() + 4, Path{"fused_no_store_tf32x3", [&] { fused(nullptr, Algorithm::tf32x3); },
                                           "tf32x3", tf32x3_twin_agrees, tf32x3_cub_agrees});
    if (per_config && !reads_c)
      for (const d::RungEntry& cfg : d::kTunedConfigs)
        paths.push_back({std::string("fused_no_store@") + cfg.name, [&, plan = d::make_plan(cfg, k, 1)] {
                           const d::SgemmArgs a{m,    n,   k,    1.0f,    A, k,
                                                B,    n,   0.0f, nullptr, n, gpuprims::gemm::Algorithm::tuned,
                                                top2, true};
                           ok(d::sgemm_run(a, &plan, fused_ws, fused_bytes, stream), "forced");
                         }});
    double vendor_ms = 0;
    const std::string shape = tk::shape_name(m, n, k);
    for (const Path& p : paths) {
      const Timing t = timer.time(p.run, opt);
      if (vendor_ms == 0) vendor_ms = t.median_ms;
      progress("top2 " + shape + " " + p.name, t.median_ms);
      std::printf("%-18s %-22s %10.4f ms  %6.2fx vs cublas+cub\n", shape.c_str(), p.name.c_str(), t.median_ms,
                  vendor_ms / t.median_ms);
      JsonRecord rec{{"path", p.name}};
      if (p.algorithm != nullptr) rec.emplace_back("algorithm", std::string(p.algorithm));
      rec.insert(rec.end(), {{"m", m},
                             {"n", n},
                             {"k", k},
                             {"beta", static_cast<double>(beta)},
                             {"time_ms", t.median_ms},
                             {"speedup_vs_cublas_cub", vendor_ms / t.median_ms},
                             {"fused_equals_unfused", p.algorithm != nullptr ? p.twin_agrees : twin_agrees},
                             {"positions_equal_cub", p.algorithm != nullptr ? p.cub_agrees : cub_agrees}});
      report.add(rec);
    }
  }
  for (const GemmShape& s : kRowShapes) {
    if (reads_c || (args.quick && s.m > 8192)) continue;
    bench_per_row(s, timer, opt, cublas, per_config, report);
  }
  return report.write(args.out) ? 0 : 1;
}
