#include "dist/src/validate.hpp"

#include "common/src/cuda_check.hpp"
#include "common/src/math.hpp"
#include "gemm/src/validate.hpp"

namespace gpuprims::dist::detail {

using ::gpuprims::detail::checked_mul;
using ::gpuprims::detail::float_aligned;
using ::gpuprims::detail::is_aligned;

Status check_split(std::int64_t m, const RowSplit& split) noexcept {
  if (split.counts == nullptr) return Status::success;
  if (split.size < 1) return Status::invalid_argument;
  std::int64_t total = 0;
  for (int r = 0; r < split.size; ++r) {
    const std::int64_t c = split.counts[r];
    if (c < 0 || c > m - total) return Status::invalid_argument;  // total <= m: no overflow
    total += c;
  }
  return total == m ? Status::success : Status::invalid_argument;
}

Status check_sgemm_local(const SgemmArgs& a, bool want_top2, const Top2* d_top2) noexcept {
  if (a.m < 0 || a.n < 0 || a.k < 0 || a.m_local < 0 || a.m_local > a.m) return Status::invalid_argument;
  GPUPRIMS_TRY(check_split(a.m, a.split));
  const bool broadcast = a.b_source.kind == BSource::Kind::broadcast;
  if (!broadcast && a.b_source.kind != BSource::Kind::replicated) return Status::invalid_argument;
  if (broadcast && a.b_source.root < 0) return Status::invalid_argument;
  // The local call, as gemm::sgemm(_top2_argmin) will check it: leading dimensions, pointers that
  // the local product needs, alignment, extents within int64, the algorithm.
  const ::gpuprims::detail::SgemmArgs local{a.m_local,
                                            a.n,
                                            a.k,
                                            a.alpha,
                                            a.A_local,
                                            a.lda,
                                            a.B,
                                            a.ldb,
                                            a.beta,
                                            a.C_local,
                                            a.ldc,
                                            a.algo,
                                            const_cast<Top2*>(d_top2),
                                            want_top2};
  GPUPRIMS_TRY(::gpuprims::detail::validate_sgemm(local));
  // A broadcast writes every rank's B, rows or not; the core only needs B where it multiplies.
  if (broadcast && a.k > 0 && a.n > 0 && a.B == nullptr) return Status::invalid_argument;
  std::int64_t entries = 0;
  if (want_top2 && !checked_mul(a.m, a.n, &entries)) return Status::invalid_argument;
  return Status::success;
}

Status check_sgemm_ranked(const SgemmArgs& a, int nranks, int rank, RowRange* range) noexcept {
  if (a.split.counts != nullptr && a.split.size != nranks) return Status::invalid_argument;
  if (a.b_source.kind == BSource::Kind::broadcast && a.b_source.root >= nranks) return Status::invalid_argument;
  GPUPRIMS_TRY(row_range(a.m, a.split, nranks, rank, range));
  return a.m_local == range->count ? Status::success : Status::invalid_argument;
}

Status check_sum_local(const float* d_in_local, std::int64_t n_local, const float* d_out,
                       reduce::Algorithm algo) noexcept {
  if (!valid_algorithm(algo)) return Status::invalid_argument;
  if (n_local < 0 || d_out == nullptr || (d_in_local == nullptr && n_local > 0)) return Status::invalid_argument;
  if (!float_aligned(d_out) || (d_in_local != nullptr && !float_aligned(d_in_local))) return Status::misaligned_pointer;
  return Status::success;
}

Status check_workspace(const void* d_workspace, std::size_t bytes, std::size_t needed) noexcept {
  if (needed == 0) return Status::success;
  if (d_workspace == nullptr || bytes < needed) return Status::invalid_argument;
  return is_aligned(d_workspace, 16) ? Status::success : Status::misaligned_pointer;
}

}  // namespace gpuprims::dist::detail
