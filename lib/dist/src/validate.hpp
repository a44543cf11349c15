#pragma once
// Argument checks of the dist calls, all made before the first collective. Split in two so that
// most of them need neither CUDA nor NCCL (CPU-tested): those that need no communicator, and those
// against the communicator's size and the calling rank's index (given as plain ints).
#include <cstddef>
#include <cstdint>

#include <gpuprims/dist.hpp>

namespace gpuprims::dist::detail {

// The parts of a RowSplit that need no rank count: an explicit split has at least one entry, none
// negative, summing to m.
Status check_split(std::int64_t m, const RowSplit& split) noexcept;

// One rank's SGEMM arguments without the communicator: sizes, the split, the B source, and the
// local gemm::sgemm(_top2_argmin) call's own rules (the core's validation, on m_local rows); B on
// every rank when it is broadcast; m * n within int64 for the top-2's global indices.
Status check_sgemm_local(const SgemmArgs& a, bool want_top2, const Top2* d_top2) noexcept;

// Against the communicator: the explicit split has nranks entries, the root is a rank, and m_local
// is this rank's share. *range receives the rank's rows.
Status check_sgemm_ranked(const SgemmArgs& a, int nranks, int rank, RowRange* range) noexcept;

inline bool valid_algorithm(reduce::Algorithm algo) noexcept {
  const int v = static_cast<int>(algo);
  return v >= static_cast<int>(reduce::Algorithm::baseline) && v <= static_cast<int>(reduce::Algorithm::shuffle);
}

// One rank's sum arguments (no communicator needed).
Status check_sum_local(const float* d_in_local, std::int64_t n_local, const float* d_out,
                       reduce::Algorithm algo) noexcept;

// An explicit workspace against what the call needs: large enough, 16-byte aligned.
Status check_workspace(const void* d_workspace, std::size_t bytes, std::size_t needed) noexcept;

// Whether a call passed an explicit workspace (else the library's pool is used): any non-null
// pointer or non-zero size.
inline bool has_explicit_workspace(const void* d_workspace, std::size_t bytes) noexcept {
  return d_workspace != nullptr || bytes != 0;
}

}  // namespace gpuprims::dist::detail
