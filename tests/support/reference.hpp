#pragma once
// Double-precision CPU references and the error bounds of docs/ERROR-BOUNDS.md.
#include <cstdint>
#include <vector>

#include <gpuprims/gemm.hpp>
#include <gpuprims/top2.hpp>

namespace gpuprims::test {

inline constexpr double kUnitRoundoff = 1.0 / 16777216.0;  // 2^-24

struct SumReference {
  double sum;      // sum in double
  double abs_sum;  // sum of |x|
};
SumReference reference_sum(const float* x, std::int64_t n);

// |s - ref| <= c * (items per thread + log2(threads) + passes + 2) * 2^-24 * sum|x|.
double sum_error_bound(double abs_sum, double items_per_thread, double log2_threads, double passes, double c = 2.0);

// Row-major reference product with leading dimensions, alpha and beta left out so one product serves
// every (alpha, beta): sum[i*n+j] = sum_p A[i,p] B[p,j] and mag[i*n+j] = sum_p |A[i,p]| |B[p,j]|.
struct ProductReference {
  std::int64_t m = 0, n = 0, k = 0;
  std::vector<double> sum;
  std::vector<double> mag;
};
ProductReference reference_product(std::int64_t m, std::int64_t n, std::int64_t k, const float* A, std::int64_t lda,
                                   const float* B, std::int64_t ldb);
// One entry of the same, for sampled checks of huge products.
void reference_product_entry(std::int64_t i, std::int64_t j, std::int64_t k, const float* A, std::int64_t lda,
                             const float* B, std::int64_t ldb, double* sum, double* mag);

// |C - ref| <= c * (k + 2) * 2^-24 * magnitude.
inline double gemm_error_bound(std::int64_t k, double magnitude, double c = 2.0) {
  return c * static_cast<double>(k + 2) * kUnitRoundoff * magnitude;
}

// The bound of one algorithm (docs/ERROR-BOUNDS.md): the FP32 bound above for the FP32 rungs; for
// tf32x3 the same once k >= 19, and (40 + k / 32) * 2^-24 * magnitude below (its split and its
// tensor-core sums cost a fixed few units that FP32's k + 2 does not cover for short k); for tf32 the
// FP32 bound plus the rounding of both operands to TF32, (2^-10 + 2^-22) * magnitude.
inline double gemm_error_bound(gemm::Algorithm algo, std::int64_t k, double magnitude) {
  const double fp32 = gemm_error_bound(k, magnitude);
  switch (algo) {
    case gemm::Algorithm::tf32x3: {
      const double split = (40.0 + static_cast<double>(k) / 32.0) * kUnitRoundoff * magnitude;
      return fp32 > split ? fp32 : split;
    }
    case gemm::Algorithm::tf32: return fp32 + (1.0 / 1024.0 + 1.0 / 4194304.0) * magnitude;
    default: return fp32;
  }
}

// The two smallest entries of a row-major rows x cols float matrix (ld-strided), by the library's
// order (value, NaN last, ties to the lower row-major index), by sorting. Exact reference.
Top2 reference_top2(const float* x, std::int64_t rows, std::int64_t cols, std::int64_t ld);

}  // namespace gpuprims::test
