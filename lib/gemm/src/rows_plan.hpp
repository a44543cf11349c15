#pragma once
// Some rows of a larger product computed exactly as the call on the whole product computes them:
// the plan (kernel, tile shape, split of k) is the one the whole m_whole-row call takes, applied to
// the rows given. gpuprims::dist runs each rank's share of a fused top-2 this way, so that every
// entry, and so the global top-2, is bit for bit the one-GPU call's. Exported from the shared
// library for the dist component; not part of the public API.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include <gpuprims/export.hpp>
#include <gpuprims/gemm.hpp>

#include "gemm/src/validate.hpp"

namespace gpuprims::detail {

// Workspace of sgemm_top2_rows for m_rows rows of an m_whole x n x k product (C given or not), on
// the current device. 0 for sizes no call would accept.
GPUPRIMS_API std::size_t top2_rows_workspace_bytes(std::int64_t m_whole, std::int64_t m_rows, std::int64_t n,
                                                   std::int64_t k, gemm::Algorithm algo) noexcept;

// gemm::sgemm_top2_argmin's explicit-workspace form on the a.m rows of `a` (a.want_top2 set, a.top2
// the result), with the plan of the same call on m_whole >= a.m rows.
GPUPRIMS_API Status sgemm_top2_rows(std::int64_t m_whole, const SgemmArgs& a, void* d_workspace,
                                    std::size_t workspace_bytes, cudaStream_t stream);

}  // namespace gpuprims::detail
