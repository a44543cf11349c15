#include "support/gemm_check.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

namespace gpuprims::test {

std::string GemmLayout::describe() const {
  std::ostringstream os;
  os << m << "x" << n << "x" << k << " ld(" << lda << "," << ldb << "," << ldc << ") off(" << off_a << "," << off_b
     << "," << off_c << ")";
  return os.str();
}

GemmLayout make_layout(std::int64_t m, std::int64_t n, std::int64_t k, int pad_a, int pad_b, int pad_c, int off_a,
                       int off_b, int off_c) {
  GemmLayout l{m,
               n,
               k,
               std::max<std::int64_t>(1, k) + pad_a,
               std::max<std::int64_t>(1, n) + pad_b,
               std::max<std::int64_t>(1, n) + pad_c,
               off_a,
               off_b,
               off_c};
  return l;
}

GemmInputs special_inputs(const GemmLayout& l, SpecialData data, std::uint64_t seed) {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::nanf("");
  auto rng = make_rng(seed);
  GemmInputs in =
      make_inputs(l, rng, data == SpecialData::ties ? testkit::Dist::integers_small : testkit::Dist::uniform_pm1);
  auto a_at = [&](std::int64_t r, std::int64_t p) -> float& { return in.A[static_cast<std::size_t>(r * l.lda + p)]; };
  auto b_at = [&](std::int64_t p, std::int64_t c) -> float& { return in.B[static_cast<std::size_t>(p * l.ldb + c)]; };
  switch (data) {
    case SpecialData::ties: break;
    case SpecialData::nan_rows_and_infinities:
      for (std::int64_t r = 0; r < l.m; ++r) a_at(r, 0) = r % 5 == 1 ? nan : 0.5f;        // rows of NaN; a > 0
      for (const std::int64_t c : {std::int64_t{0}, l.n / 2, l.n - 1}) b_at(0, c) = inf;  // * alpha: -inf
      break;
    case SpecialData::all_nan: std::fill(in.A.begin(), in.A.end(), nan); break;
    case SpecialData::all_equal:
      std::fill(in.A.begin(), in.A.end(), 1.0f);
      std::fill(in.B.begin(), in.B.end(), 1.0f);
      break;
    case SpecialData::infinities_among_nan:  // +inf at rows {m / 3, m - 1} x columns {n / 4, n - 1}, NaN elsewhere
      for (std::int64_t r = 0; r < l.m; ++r)
        for (std::int64_t p = 0; p < l.k; ++p)
          a_at(r, p) = (r == l.m / 3 || r == l.m - 1) ? (p == 0 ? 1.0f : 0.0f) : nan;
      for (std::int64_t c = 0; c < l.n; ++c) {
        b_at(0, c) = c == l.n / 4 || c == l.n - 1 ? -inf : nan;  // * alpha: +inf
        for (std::int64_t p = 1; p < l.k; ++p) b_at(p, c) = 1.0f;
      }
      break;
    case SpecialData::signed_zeros:  // every product and sum +0 or -0
      for (std::int64_t r = 0; r < l.m; ++r)
        for (std::int64_t p = 0; p < l.k; ++p) a_at(r, p) = (r + p) % 3 == 1 ? -0.0f : 0.0f;
      break;
  }
  return in;
}

GemmInputs make_inputs(const GemmLayout& l, std::mt19937_64& rng, testkit::Dist dist) {
  GemmInputs in;
  in.A = testkit::random_vector(static_cast<std::size_t>(l.m * l.lda), rng, dist);
  in.B = testkit::random_vector(static_cast<std::size_t>(l.k * l.ldb), rng, dist);
  in.C = testkit::random_vector(static_cast<std::size_t>(l.m * l.ldc), rng, dist);
  return in;
}

GuardedOperands::GuardedOperands(const GemmLayout& l, const GemmInputs& in)
    : a(in.A.size(), l.off_a), b(in.B.size(), l.off_b), c(in.C.size(), l.off_c) {
  if (!ok()) return;  // the test reports the failed allocation
  a.upload(in.A);
  b.upload(in.B);
}

GemmRun run_sgemm(const GemmLayout& l, const GemmInputs& in, gemm::Algorithm algo, float alpha, float beta,
                  bool poison_c) {
  GemmRun run;
  GuardedOperands ops(l, in);
  if (!ops.ok()) {
    run.cuda_error = "allocation failed";
    return run;
  }
  if (poison_c) ops.c.poison();
  else ops.c.upload(in.C);
  run.status =
      gemm::sgemm(l.m, l.n, l.k, alpha, ops.a.data(), l.lda, ops.b.data(), l.ldb, beta, ops.c.data(), l.ldc, algo);
  cudaError_t err = cudaGetLastError();
  if (err == cudaSuccess) err = cudaDeviceSynchronize();
  if (err != cudaSuccess) run.cuda_error = cudaGetErrorString(err);
  run.C = ops.c.download();
  run.guard_damage = ops.guard_damage();
  return run;
}

std::string check_gemm(const GemmLayout& l, const ProductReference& ref, float alpha, float beta,
                       const std::vector<float>& c_in, const std::vector<float>& c_out, bool c_was_poisoned,
                       gemm::Algorithm algo) {
  std::ostringstream os;
  int problems = 0;
  for (std::int64_t i = 0; i < l.m && problems < 5; ++i) {
    for (std::int64_t j = 0; j < l.ldc && problems < 5; ++j) {
      const std::size_t at = static_cast<std::size_t>(i * l.ldc + j);
      const float got = c_out[at];
      if (j >= l.n) {  // padding: untouched
        const float before = c_was_poisoned ? std::nanf("") : c_in[at];
        // NOLINTNEXTLINE(bugprone-suspicious-memory-comparison): untouched means the same bits
        if (std::memcmp(&got, &before, sizeof got) != 0 && !(c_was_poisoned && std::isnan(got))) {
          os << "padding C[" << i << "," << j << "] changed to " << got << "; ";
          ++problems;
        }
        continue;
      }
      const std::size_t r = static_cast<std::size_t>(i * l.n + j);
      double want = static_cast<double>(alpha) * ref.sum[r];
      double mag = std::fabs(static_cast<double>(alpha)) * ref.mag[r];
      if (beta != 0.0f) {
        want += static_cast<double>(beta) * c_in[at];
        mag += std::fabs(static_cast<double>(beta) * c_in[at]);
      }
      const double err = std::fabs(static_cast<double>(got) - want);
      const double bound = gemm_error_bound(algo, l.k, mag);
      if (!(err <= bound)) {  // NaN fails
        os << "C[" << i << "," << j << "] = " << got << ", want " << want << " (err " << err << " > bound " << bound
           << "); ";
        ++problems;
      }
    }
  }
  return os.str();
}

}  // namespace gpuprims::test
