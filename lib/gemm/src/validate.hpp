#pragma once
// Argument validation for sgemm and sgemm_top2_argmin, done before any CUDA call. Plain host code,
// tested on the CPU.
#include <cstddef>
#include <cstdint>

#include <gpuprims/gemm.hpp>

namespace gpuprims::detail {

struct SgemmArgs {
  std::int64_t m, n, k;
  float alpha;
  const float* A;
  std::int64_t lda;
  const float* B;
  std::int64_t ldb;
  float beta;
  float* C;
  std::int64_t ldc;
  gemm::Algorithm algo;
  Top2* top2;  // non-null for sgemm_top2_argmin (one Top2) and sgemm_row_top2_argmin (m of them)
  bool want_top2;
  bool force_wide_index = false;  // tests: take the top-2's 64-bit-index path whatever the size
  bool per_row = false;           // with want_top2: sgemm_row_top2_argmin, a top-2 per row
};

// Columns the per-row top-2 can report: its packed words hold a column in 32 bits, and the all-ones
// word means empty, so n must stay below 2^32 - 1 (else Status::unsupported).
inline constexpr std::int64_t kRowTop2MaxCols = std::int64_t{0xffffffff} - 1;

// Exported from the shared library for gpuprims::dist, which checks every rank's GEMM arguments
// before its first collective (a rank that failed afterwards would leave the others waiting); not
// part of the public API.
GPUPRIMS_API Status validate_sgemm(const SgemmArgs& a) noexcept;

// Whether a is one of gemm::kAllAlgorithms (a value cast from outside the enum is not).
bool known_algorithm(gemm::Algorithm a);

// Whether the product term is computed at all (else C = beta * C and A, B are never read).
inline bool has_product(const SgemmArgs& a) { return a.k > 0 && a.alpha != 0.0f; }

}  // namespace gpuprims::detail
