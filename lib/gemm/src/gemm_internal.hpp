#pragma once
// The SGEMM driver behind the public entry points, also used by the autotune harness to force one
// configuration.
#include <cuda_runtime_api.h>

#include <cstddef>

#include <gpuprims/status.hpp>

#include "gemm/src/rungs/rungs.hpp"
#include "gemm/src/validate.hpp"

namespace gpuprims::detail {

// The rung (or tuned configuration) that serves algo for an m x n x k product; top2_only: a top-2 call
// that does not store the product (the tuned rung has a table of its own for those).
const RungEntry& rung_for(gemm::Algorithm algo, std::int64_t m, std::int64_t n, std::int64_t k,
                          bool top2_only = false);

// Top-2 scratch for an m x n output served by rung: enough for the last-block-done merge (one partial
// per block of whichever kernel the call launches: the rung's, or the scale-only path's when k == 0 or
// alpha == 0), which outputs of 2^32+ entries take; smaller ones use its first 16 bytes (two packed
// words, top2_atomic.cuh).
std::size_t top2_workspace_for(std::int64_t m, std::int64_t n, const RungEntry& rung);

// Validates, then runs `forced` if given, else the rung algo selects. Workspace only for top-2.
Status sgemm_run(const SgemmArgs& a, const RungEntry* forced, void* workspace, std::size_t workspace_bytes,
                 cudaStream_t stream);

}  // namespace gpuprims::detail
