#pragma once
// gpuprims::gemm — single-precision GEMM, row-major, with every rung of the classic optimization
// ladder selectable, and fused top-2 argmin epilogues (over the whole result, or per row). Plain C++17
// header.
#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>
#include <cstdint>

#include <gpuprims/export.hpp>
#include <gpuprims/status.hpp>
#include <gpuprims/top2.hpp>

namespace gpuprims::gemm {

//! The rungs of the SGEMM ladder, each selectable (docs/ARCHITECTURE.md says what each adds). `tuned`
//! is the default and the fastest FP32 one: a cost model picks, per shape, among tile shapes, k splits
//! and narrow-output kernels. The rungs before it are the ladder's steps, kept for study and
//! comparison. The two after it run on tensor cores (compute capability 8.0+; Status::unsupported
//! below): `tf32x3` keeps FP32-class accuracy (docs/ERROR-BOUNDS.md) at tensor-core speed on large
//! products; `tf32` is lossy (about 1e-3 relative to the magnitudes of the products), opt-in only.
enum class Algorithm {
  naive,               //!< one thread per output, uncoalesced
  coalesced,           //!< one thread per output, coalesced
  shared_tiled,        //!< 32 x 32 tiles through shared memory
  blocktile_1d,        //!< each thread computes 8 outputs of a column
  blocktile_2d,        //!< each thread computes an 8 x 8 register tile
  vectorized,          //!< 16-byte loads and stores
  bank_conflict_free,  //!< swizzled shared layout
  warptile,            //!< warp tiles
  double_buffered,     //!< two shared-memory stages
  tuned,               //!< the cost model's pick (split-K, narrow paths); the default
  tf32,                //!< tensor cores, operands rounded to TF32: lossy (~1e-3 relative), opt-in
  tf32x3,              //!< tensor cores, three TF32 products per product: FP32-class accuracy
};

//! Every rung, in ladder order (every enum value from naive to tf32x3, which stays last).
inline constexpr auto kAllAlgorithms = [] {
  std::array<Algorithm, static_cast<std::size_t>(Algorithm::tf32x3) + 1> all{};
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<Algorithm>(i);
  return all;
}();

//! "naive", "coalesced", ...; "unknown" for a value outside the enum.
GPUPRIMS_API const char* name(Algorithm algo) noexcept;

//! Row-major: C[m x n] = alpha * A[m x k] * B[k x n] + beta * C. lda, ldb, ldc are row strides in
//! elements (lda >= max(1, k), ldb >= max(1, n), ldc >= max(1, n)). beta == 0 never reads C (NaN in C
//! does not leak). k == 0 or alpha == 0 gives C = beta * C without reading A or B. All pointers are
//! device pointers, 4-byte aligned; pointers that no element is read from or written to may be null.
//! The tuned algorithm, and tf32 and tf32x3 where their 128 x 128 tiles leave more than half of the
//! multiprocessors idle, may split k over several blocks for outputs too small to fill the GPU; the
//! partial products are then summed in a fixed order, so results stay bitwise reproducible. tf32x3
//! on a compute capability 9.0 GPU first splits A and B into TF32 parts in scratch (8 bytes per
//! element of each, padded to 128-row and 32-deep tiles). The scratch comes from the stream-ordered
//! allocator (cudaMallocAsync) in this form.
GPUPRIMS_API Status sgemm(std::int64_t m, std::int64_t n, std::int64_t k, float alpha, const float* A, std::int64_t lda,
                          const float* B, std::int64_t ldb, float beta, float* C, std::int64_t ldc,
                          Algorithm algo = Algorithm::tuned, cudaStream_t stream = nullptr);

//! Scratch an sgemm call of this shape and algorithm may need (0 when it needs none): enough for any
//! alpha and beta. Depends on the current device (the tuned pick reads its multiprocessor count).
GPUPRIMS_API std::size_t sgemm_workspace_bytes(std::int64_t m, std::int64_t n, std::int64_t k,
                                               Algorithm algo = Algorithm::tuned) noexcept;

//! Explicit-workspace form: no allocation, no synchronization. d_workspace (16-byte aligned device
//! memory, may be null when the query says 0) of at least sgemm_workspace_bytes(m, n, k, algo) bytes;
//! less than the call needs is Status::invalid_argument, before any launch.
GPUPRIMS_API Status sgemm(std::int64_t m, std::int64_t n, std::int64_t k, float alpha, const float* A, std::int64_t lda,
                          const float* B, std::int64_t ldb, float beta, float* C, std::int64_t ldc, void* d_workspace,
                          std::size_t workspace_bytes, Algorithm algo = Algorithm::tuned,
                          cudaStream_t stream = nullptr);

//! The top-2 result types (top2.hpp), also reachable as gemm::MinEntry and gemm::Top2.
using MinEntry = gpuprims::MinEntry;
using Top2 = gpuprims::Top2;  //!< see gpuprims::Top2

//! The same product, and the two smallest entries of the result with their positions, found in the
//! GEMM epilogue on the GPU (no host-side or separate full pass over C). d_top2 is device memory.
//! C may be nullptr when beta == 0: the product is then not stored at all. Scratch comes from the
//! stream-ordered allocator.
GPUPRIMS_API Status sgemm_top2_argmin(std::int64_t m, std::int64_t n, std::int64_t k, float alpha, const float* A,
                                      std::int64_t lda, const float* B, std::int64_t ldb, float beta, float* C,
                                      std::int64_t ldc, Top2* d_top2, Algorithm algo = Algorithm::tuned,
                                      cudaStream_t stream = nullptr);

//! Explicit-workspace form: no allocation, no synchronization. The query covers C given or not and any
//! alpha; a workspace smaller than the call needs is Status::invalid_argument, before any launch.
GPUPRIMS_API std::size_t top2_workspace_bytes(std::int64_t m, std::int64_t n, std::int64_t k,
                                              Algorithm algo = Algorithm::tuned) noexcept;
//! The fused call with the caller's workspace (at least top2_workspace_bytes(m, n, k, algo) bytes).
GPUPRIMS_API Status sgemm_top2_argmin(std::int64_t m, std::int64_t n, std::int64_t k, float alpha, const float* A,
                                      std::int64_t lda, const float* B, std::int64_t ldb, float beta, float* C,
                                      std::int64_t ldc, Top2* d_top2, void* d_workspace, std::size_t workspace_bytes,
                                      Algorithm algo = Algorithm::tuned, cudaStream_t stream = nullptr);

//! The same product, and for every row r of the result its two smallest entries (row = r, col = the
//! column): d_out[r] for r < m, device memory of m Top2. The order and tie rules are the global
//! form's (NaN after +inf, ties to the lower column, -0 reported as +0, any NaN as the canonical quiet
//! NaN, `reserved` 0, every byte written); a row of one column gets a missing second entry {+inf, -1,
//! -1}, and n == 0 gives every row {missing, missing}; m == 0 writes nothing. Found in the GEMM
//! epilogue (after the fixed-order split-K reduction when k is split): exact and deterministic. C may
//! be nullptr when beta == 0 (the product is then not stored). Columns are packed in 32 bits: n >=
//! 2^32 - 1 is Status::unsupported. Scratch comes from the stream-ordered allocator. The ratio-test
//! kNN: queries x references with distances from one GEMM.
GPUPRIMS_API Status sgemm_row_top2_argmin(std::int64_t m, std::int64_t n, std::int64_t k, float alpha, const float* A,
                                          std::int64_t lda, const float* B, std::int64_t ldb, float beta, float* C,
                                          std::int64_t ldc, Top2* d_out, Algorithm algo = Algorithm::tuned,
                                          cudaStream_t stream = nullptr);

//! Workspace of the per-row form's explicit-workspace call (16 bytes a row, plus any split-K
//! partials); covers C given or not and any alpha.
GPUPRIMS_API std::size_t row_top2_workspace_bytes(std::int64_t m, std::int64_t n, std::int64_t k,
                                                  Algorithm algo = Algorithm::tuned) noexcept;
//! The per-row call with the caller's workspace (at least row_top2_workspace_bytes(m, n, k, algo)
//! bytes, 16-byte aligned): no allocation, no synchronization; less is Status::invalid_argument.
GPUPRIMS_API Status sgemm_row_top2_argmin(std::int64_t m, std::int64_t n, std::int64_t k, float alpha, const float* A,
                                          std::int64_t lda, const float* B, std::int64_t ldb, float beta, float* C,
                                          std::int64_t ldc, Top2* d_out, void* d_workspace, std::size_t workspace_bytes,
                                          Algorithm algo = Algorithm::tuned, cudaStream_t stream = nullptr);

}  // namespace gpuprims::gemm
