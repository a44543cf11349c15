#include "support/gemm_check.hpp"

#include <cuda_runtime_api.h>

#include <cmath>
#include <cstring>
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
