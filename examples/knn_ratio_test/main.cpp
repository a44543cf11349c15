// Descriptor matching with Lowe's ratio test, through one fused call: for every query, its two
// nearest references by squared Euclidean distance, from gemm::sgemm_row_top2_argmin with the
// distance matrix never stored. The distances come from one GEMM by appending a column:
//   |q - r|^2 = |q|^2 + (|r|^2 - 2 q.r)  and  |r|^2 - 2 q.r = [q, 1] . [-2 r ; |r|^2],
// so A is the queries with a column of ones (m x (d + 1)) and B is -2 R^T with the references'
// squared norms as one more row ((d + 1) x n). |q|^2 is the same for a query's every reference, so
// the row's two smallest entries are its two nearest references; adding it back gives their squared
// distances, and the test keeps a match when d1 < ratio * d2.
// Three quarters of the queries are references plus a little noise (each should match its
// reference), the rest are random points (ambiguous: the test rejects nearly all of them). Every result is
// checked against a double-precision brute force on the host, with the FP32 GEMM's error bound
// (docs/ERROR-BOUNDS.md) deciding which near ties either answer may take. Without a device it says so
// and exits 0 (the call returns Status::unsupported). Usage: knn_ratio_test [seed].
#include <cuda_runtime_api.h>

#include <gpuprims/gpuprims.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace {

constexpr int kQueries = 1024;
constexpr int kReferences = 8192;
constexpr int kDims = 64;
constexpr int kK = kDims + 1;   // the GEMM's depth: the dimensions and the appended column
constexpr double kRatio = 0.8;  // Lowe's threshold on d1 / d2
constexpr double kNoise = 0.05;

struct Host {
  std::vector<float> refs, queries;  // row-major, kDims floats a point
  std::vector<int> source;           // a query's reference, or -1 for a random query
};

Host make_points(std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::normal_distribution<float> noise(0.0f, static_cast<float>(kNoise));
  std::uniform_int_distribution<int> pick(0, kReferences - 1);
  Host h;
  h.refs.resize(std::size_t{kReferences} * kDims);
  for (float& x : h.refs) x = uniform(rng);
  h.queries.resize(std::size_t{kQueries} * kDims);
  h.source.resize(kQueries);
  for (int q = 0; q < kQueries; ++q) {
    const bool planted = q % 4 != 3;
    h.source[q] = planted ? pick(rng) : -1;
    for (int i = 0; i < kDims; ++i)
      h.queries[std::size_t(q) * kDims + i] =
          planted ? h.refs[std::size_t(h.source[q]) * kDims + i] + noise(rng) : uniform(rng);
  }
  return h;
}

double dist2(const Host& h, int q, int r) {
  double d2 = 0;
  for (int i = 0; i < kDims; ++i) {
    const double diff = double(h.queries[std::size_t(q) * kDims + i]) - h.refs[std::size_t(r) * kDims + i];
    d2 += diff * diff;
  }
  return d2;
}

// The exact squared distance, and a bound on how far the call's value (|r|^2 - 2 q.r in FP32, plus
// |q|^2) may be from it: the FP32 GEMM bound (k + 2) u sum|a b| over the k terms, doubled for
// margin, plus |r|^2's rounding to float and |q|^2's.
struct Exact {
  double dist2, slack;
};
Exact exact(const Host& h, int q, int r) {
  double d2 = 0, q2 = 0, r2 = 0, cross = 0;
  for (int i = 0; i < kDims; ++i) {
    const double a = h.queries[std::size_t(q) * kDims + i], b = h.refs[std::size_t(r) * kDims + i];
    d2 += (a - b) * (a - b);
    q2 += a * a;
    r2 += b * b;
    cross += std::fabs(2 * a * b);
  }
  const double u = std::ldexp(1.0, -24);
  return {d2, 2 * (kK + 2) * u * (cross + r2) + 4 * u * (r2 + q2)};
}

}  // namespace

int main(int argc, char** argv) {
  using gpuprims::Status;
  using gpuprims::Top2;
  const auto seed = argc > 1 ? static_cast<std::uint32_t>(std::strtoul(argv[1], nullptr, 10))
                             : static_cast<std::uint32_t>(std::random_device{}());
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    float placeholder[4];
    Top2 out[1];
    const Status st =
        gpuprims::gemm::sgemm_row_top2_argmin(1, 1, 1, 1.0f, placeholder, 1, placeholder, 1, 0.0f, nullptr, 1, out);
    std::printf("knn_ratio_test: no usable CUDA device here; the call returned %s\n", gpuprims::to_string(st));
    return st == Status::unsupported ? EXIT_SUCCESS : EXIT_FAILURE;
  }

  const Host h = make_points(seed);
  // A = [queries | 1], B = [-2 R^T ; |r|^2], both row-major.
  std::vector<float> a(std::size_t{kQueries} * kK), b(std::size_t{kK} * kReferences);
  std::vector<double> query_norm2(kQueries, 0.0);
  for (int q = 0; q < kQueries; ++q) {
    for (int i = 0; i < kDims; ++i) {
      const float x = h.queries[std::size_t(q) * kDims + i];
      a[std::size_t(q) * kK + i] = x;
      query_norm2[q] += double(x) * x;
    }
    a[std::size_t(q) * kK + kDims] = 1.0f;
  }
  for (int r = 0; r < kReferences; ++r) {
    double norm2 = 0;
    for (int i = 0; i < kDims; ++i) {
      const float x = h.refs[std::size_t(r) * kDims + i];
      b[std::size_t(i) * kReferences + r] = -2.0f * x;
      norm2 += double(x) * x;
    }
    b[std::size_t(kDims) * kReferences + r] = static_cast<float>(norm2);
  }

  float *d_a = nullptr, *d_b = nullptr;
  Top2* d_rows = nullptr;
  std::vector<Top2> rows(kQueries);
  bool ok = cudaMalloc(reinterpret_cast<void**>(&d_a), sizeof(float) * a.size()) == cudaSuccess &&
            cudaMalloc(reinterpret_cast<void**>(&d_b), sizeof(float) * b.size()) == cudaSuccess &&
            cudaMalloc(reinterpret_cast<void**>(&d_rows), sizeof(Top2) * rows.size()) == cudaSuccess &&
            cudaMemcpy(d_a, a.data(), sizeof(float) * a.size(), cudaMemcpyHostToDevice) == cudaSuccess &&
            cudaMemcpy(d_b, b.data(), sizeof(float) * b.size(), cudaMemcpyHostToDevice) == cudaSuccess;
  if (!ok) {
    std::printf("knn_ratio_test: CUDA setup failed: %s\n", cudaGetErrorString(cudaGetLastError()));
    return EXIT_FAILURE;
  }
  // C = nullptr with beta = 0: the kQueries x kReferences distances are never written to memory.
  const Status st = gpuprims::gemm::sgemm_row_top2_argmin(kQueries, kReferences, kK, 1.0f, d_a, kK, d_b, kReferences,
                                                          0.0f, nullptr, kReferences, d_rows);
  ok = st == Status::success &&
       cudaMemcpy(rows.data(), d_rows, sizeof(Top2) * rows.size(), cudaMemcpyDeviceToHost) == cudaSuccess;
  cudaFree(d_a);
  cudaFree(d_b);
  cudaFree(d_rows);
  if (!ok) {
    std::printf("knn_ratio_test: sgemm_row_top2_argmin returned %s (%s)\n", gpuprims::to_string(st),
                cudaGetErrorString(cudaGetLastError()));
    return EXIT_FAILURE;
  }

  // Each query against the brute force: the reported neighbours are the exact two nearest, or within
  // the bound of them; the reported values are the exact distances within the bound; the test's
  // decision is the exact one unless d1^2 is within the bound of ratio^2 d2^2.
  int failures = 0, accepted = 0, accepted_right = 0, planted = 0, borderline = 0;
  for (int q = 0; q < kQueries; ++q) {
    int best = -1, next = -1;
    double best_d2 = INFINITY, next_d2 = INFINITY;
    for (int r = 0; r < kReferences; ++r) {
      const double d2 = dist2(h, q, r);
      if (d2 < best_d2) {
        next = best, next_d2 = best_d2;
        best = r, best_d2 = d2;
      } else if (d2 < next_d2) {
        next = r, next_d2 = d2;
      }
    }
    const Top2& t = rows[q];
    const bool cols_valid = t.first.row == q && t.second.row == q && t.first.col >= 0 && t.first.col < kReferences &&
                            t.second.col >= 0 && t.second.col < kReferences && t.first.col != t.second.col;
    if (!cols_valid) {
      if (++failures <= 5) std::printf("query %d: bad result row/col\n", q);
      continue;
    }
    const Exact got1 = exact(h, q, static_cast<int>(t.first.col)), got2 = exact(h, q, static_cast<int>(t.second.col));
    const Exact want1 = exact(h, q, best), want2 = exact(h, q, next);
    const double d1 = double(t.first.value) + query_norm2[q], d2 = double(t.second.value) + query_norm2[q];
    const bool values_ok = std::fabs(d1 - got1.dist2) <= got1.slack && std::fabs(d2 - got2.dist2) <= got2.slack;
    const bool first_ok = got1.dist2 <= best_d2 + got1.slack + want1.slack;
    const bool second_ok = got2.dist2 <= next_d2 + got2.slack + want2.slack;
    if (!values_ok || !first_ok || !second_ok) {
      if (++failures <= 5)
        std::printf("query %d: got (%lld, %.6g) (%lld, %.6g), exact (%d, %.6g) (%d, %.6g)\n", q,
                    static_cast<long long>(t.first.col), d1, static_cast<long long>(t.second.col), d2, best, best_d2,
                    next, next_d2);
      continue;
    }
    const double r2 = kRatio * kRatio;
    const bool accept = d1 < r2 * d2, accept_exact = best_d2 < r2 * next_d2;
    const double margin = want1.slack + r2 * want2.slack + got1.slack + r2 * got2.slack;
    if (std::fabs(best_d2 - r2 * next_d2) <= margin) {
      ++borderline;
    } else if (accept != accept_exact) {
      if (++failures <= 5) std::printf("query %d: ratio test %d, exact %d\n", q, accept, accept_exact);
    }
    planted += h.source[q] >= 0;
    accepted += accept;
    accepted_right += accept && t.first.col == h.source[q];
  }
  std::printf(
      "knn_ratio_test (seed %u): %d queries x %d references x %d dims; matches kept by the ratio test "
      "(d1 < %.1f d2): %d, of which %d are the query's own reference (%d queries were planted); "
      "%d near the threshold; %d disagreements with the double-precision brute force\n",
      seed, kQueries, kReferences, kDims, kRatio, accepted, accepted_right, planted, borderline, failures);
  // The planted queries sit 0.05 sqrt(64) = 0.4 from their reference and about 6.5 from any other:
  // every one must be kept and matched to it. A random query is usually about as far from its two
  // nearest and dropped, but not always (a seed of run IX kept one of the 256, as the brute force
  // did): whether each is kept is the exact decision's, checked above, not a count.
  if (accepted_right != planted) {
    std::printf("knn_ratio_test: expected the %d planted queries kept and matched\n", planted);
    return EXIT_FAILURE;
  }
  return failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
