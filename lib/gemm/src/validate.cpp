#include "gemm/src/validate.hpp"

#include "common/src/math.hpp"

namespace gpuprims::detail {

bool known_algorithm(gemm::Algorithm a) {
  for (gemm::Algorithm known : gemm::kAllAlgorithms)
    if (a == known) return true;
  return false;
}

namespace {

// The last element of a rows x cols matrix with stride ld must be addressable in int64.
bool extent_fits(std::int64_t rows, std::int64_t cols, std::int64_t ld) {
  if (rows == 0 || cols == 0) return true;
  std::int64_t span = 0;
  return checked_mul(rows - 1, ld, &span) && span <= INT64_MAX - cols;
}

}  // namespace

Status validate_sgemm(const SgemmArgs& a) noexcept {
  if (!known_algorithm(a.algo)) return Status::invalid_argument;
  if (a.m < 0 || a.n < 0 || a.k < 0) return Status::invalid_argument;
  const bool any_output = a.m > 0 && a.n > 0;
  const bool product = any_output && has_product(a);
  // Leading dimensions as BLAS states them (>= max(1, columns)); ldc is free only when C is not used.
  const bool c_used = a.C != nullptr || !a.want_top2;
  if (a.lda < max_of<std::int64_t>(1, a.k) || a.ldb < max_of<std::int64_t>(1, a.n)) return Status::invalid_argument;
  if (c_used && a.ldc < max_of<std::int64_t>(1, a.n)) return Status::invalid_argument;
  if (product && (a.A == nullptr || a.B == nullptr)) return Status::invalid_argument;
  if (any_output && a.C == nullptr && (!a.want_top2 || a.beta != 0.0f)) return Status::invalid_argument;
  if (a.want_top2 && a.top2 == nullptr) return Status::invalid_argument;
  if (!extent_fits(a.m, a.k, a.lda) || !extent_fits(a.k, a.n, a.ldb) || (c_used && !extent_fits(a.m, a.n, a.ldc)))
    return Status::invalid_argument;
  if ((a.A && !float_aligned(a.A)) || (a.B && !float_aligned(a.B)) || (a.C && !float_aligned(a.C)))
    return Status::misaligned_pointer;
  if (a.want_top2 && !is_aligned(a.top2, alignof(Top2))) return Status::misaligned_pointer;
  if (a.want_top2 && a.per_row && a.n > kRowTop2MaxCols) return Status::unsupported;
  return Status::success;
}

}  // namespace gpuprims::detail
