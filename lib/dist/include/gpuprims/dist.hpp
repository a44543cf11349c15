#pragma once
//! @file
//! gpuprims::dist — the core primitives over several GPUs through NCCL: SGEMM with A and C split by
//! rows (B replicated, or broadcast from a root rank), the fused top-2 argmin of such a product, and
//! a sum whose result is the same bits on every rank and on every run. A separate library
//! (`gpuprims::dist`, libgpuprims_dist) so the core never needs NCCL. Plain C++17 header.
//!
//! Ranks and communicators
//! -----------------------
//! The caller owns the communicators (one `ncclComm_t` per rank, blocking mode, e.g. from
//! make_local_comms or ncclCommInitRank) and passes, on each rank, that rank's communicator and a
//! stream of the rank's device. Every call enqueues its work on that stream (the call may order a
//! second stream of its own against it) and returns without waiting for the device: it never
//! synchronizes the host and never reads device data on the host.
//!
//! Two ways to drive the ranks:
//!   - One thread (or process) per GPU: each calls the per-rank form (sgemm(comm, args, stream),
//!     sum(comm, ...), ...) with its own communicator. Do NOT wrap these calls in
//!     ncclGroupStart/ncclGroupEnd: inside a group NCCL defers a collective to ncclGroupEnd, while the
//!     call's device work that consumes the collective's result (the rank-order merge, the GEMM on a
//!     broadcast B) is enqueued at once and would run before the data arrived.
//!   - One thread driving several GPUs: call the array form (sgemm(calls, count), sum(calls, count),
//!     sgemm_top2_argmin(calls, count)) with one entry per rank. It validates every entry, runs each
//!     rank's local work, and issues each collective step for all ranks inside one
//!     ncclGroupStart/ncclGroupEnd that it makes itself, enqueueing what depends on a step only after
//!     its ncclGroupEnd. The thread never waits for a device; it must not be inside a group of its
//!     own either.
//!
//! Global and local arguments; errors
//! ----------------------------------
//! Arguments documented as global (shapes, alpha, beta, the row split, the B source and its root,
//! the algorithm, and ldb when B is broadcast) must be identical on every rank: they decide the
//! sequence of collectives, which NCCL requires every rank to issue identically. Every call checks
//! all of its arguments on the calling rank before its first collective and before it enqueues any
//! work (all but the workspace size and the stream's device before any CUDA or NCCL call at all),
//! and returns a Status without communicating when one is bad. A bad global argument is seen by
//! every rank alike, so all ranks return before any collective and nothing hangs. A bad local
//! argument seen by some ranks only (a null A_local on one rank) makes those ranks return while the
//! others enter the first collective and wait there for them: treat any Status other than success
//! as fatal for the communicator (ncclCommAbort it). The array forms check every entry before any
//! rank's work, so they return before any collective for any bad entry. A failure after the first
//! collective (a CUDA or NCCL error) is reported as cuda_error or communication_error; the
//! communicator is then in an unknown state.
#include <cuda_runtime_api.h>
#include <nccl.h>

#include <cstddef>
#include <cstdint>

#include <gpuprims/export.hpp>
#include <gpuprims/gemm.hpp>
#include <gpuprims/reduce.hpp>
#include <gpuprims/status.hpp>
#include <gpuprims/top2.hpp>

namespace gpuprims::dist {

// ---- Communicators ----------------------------------------------------------------------------

//! Creates one communicator per local GPU with ncclCommInitAll: comms[i] is rank i on device
//! devices[i] (devices == nullptr: devices 0 .. count-1). count >= 1, the devices distinct and
//! visible; comms has count entries. Status::invalid_argument for bad arguments (before any CUDA or
//! NCCL call), unsupported when a device does not exist, communication_error when NCCL fails (comms
//! then holds nulls). NCCL reads its environment here: set NCCL_* variables (e.g. NCCL_NVLS_ENABLE)
//! before the call.
GPUPRIMS_API Status make_local_comms(ncclComm_t* comms, int count, const int* devices = nullptr) noexcept;

//! Destroys count communicators made by make_local_comms (ncclCommDestroy; null entries are
//! skipped) and sets them to null. Waits for their outstanding work, like ncclCommDestroy.
GPUPRIMS_API Status destroy_local_comms(ncclComm_t* comms, int count) noexcept;

// ---- Row sharding (host arithmetic, no device) ------------------------------------------------

//! How the m rows of A and C are split over the ranks (a global argument).
struct RowSplit {
  //! Host array of `size` entries, counts[r] = the rows of rank r; nullptr: the even split (the first
  //! m % nranks ranks get one row more than the others; ranks may get zero rows).
  const std::int64_t* counts = nullptr;
  //! Entries in counts; must equal the communicator's rank count (ignored for the even split).
  int size = 0;

  //! The even split.
  static RowSplit even() noexcept { return RowSplit{}; }
  //! An explicit split: counts[r] >= 0 rows for rank r, nranks entries summing to m.
  static RowSplit explicit_counts(const std::int64_t* counts, int nranks) noexcept { return RowSplit{counts, nranks}; }
};

//! A rank's rows: global rows [begin, begin + count).
struct RowRange {
  std::int64_t begin = 0;  //!< first global row
  std::int64_t count = 0;  //!< rows of the rank (may be 0)
};

//! Rows of rank `rank` of `nranks` under `split` for an m-row matrix. Status::invalid_argument when
//! m < 0, nranks < 1, rank is outside [0, nranks), or (explicit split) split.size != nranks, an
//! entry is negative, or the entries do not sum to m.
GPUPRIMS_API Status row_range(std::int64_t m, const RowSplit& split, int nranks, int rank, RowRange* out) noexcept;

//! The even split's rows for rank `rank` of `nranks`: the first m % nranks ranks hold
//! m / nranks + 1 rows, the others m / nranks. Status::invalid_argument as for row_range.
GPUPRIMS_API Status even_row_range(std::int64_t m, int nranks, int rank, RowRange* out) noexcept;

// ---- SGEMM with A and C split by rows ----------------------------------------------------------

//! How each rank's B gets its contents (a global argument).
struct BSource {
  enum class Kind {
    replicated,  //!< every rank already holds the whole B in its buffer
    broadcast,   //!< rank `root` holds B; the call broadcasts it into every other rank's buffer
  };
  Kind kind = Kind::replicated;  //!< where B comes from
  int root = 0;                  //!< the rank that holds B (broadcast only); 0 <= root < nranks

  //! B is already on every rank.
  static BSource replicated() noexcept { return BSource{}; }
  //! B is broadcast from `root` into every rank's B buffer as part of the call.
  static BSource broadcast_from(int root) noexcept { return BSource{Kind::broadcast, root}; }
};

//! One rank's arguments of sgemm / sgemm_top2_argmin: C = alpha * A * B + beta * C over the whole
//! m x n output, row-major as gemm::sgemm, each rank holding rows [begin, begin + m_local) of A and
//! of C (RowRange from row_range) and its own buffer for the whole k x n B.
//!
//! Global (identical on every rank): m, n, k, split, alpha, beta, b_source, algo, and ldb when B is
//! broadcast. Local: m_local, A_local, lda, B, C_local, ldc.
struct SgemmArgs {
  std::int64_t m = 0;  //!< global rows of A and C
  std::int64_t n = 0;  //!< columns of B and C
  std::int64_t k = 0;  //!< columns of A, rows of B
  RowSplit split{};    //!< how the m rows are split over the ranks
  //! Rows this rank holds in A_local and C_local; must equal row_range(m, split, nranks, rank).count
  //! (else Status::invalid_argument: a shard of the wrong size is caught before any collective).
  std::int64_t m_local = 0;
  float alpha = 1.0f;              //!< scales A * B
  const float* A_local = nullptr;  //!< m_local x k, row stride lda (device memory of this rank)
  std::int64_t lda = 0;            //!< >= max(1, k), as gemm::sgemm
  //! k x n, row stride ldb, device memory of this rank. Replicated: read only. Broadcast: read on the
  //! root; written on the other ranks, which receive the root's (k - 1) * ldb + n floats from B[0]
  //! on (so with ldb > n their padding between rows gets the root's padding too). Needed on every
  //! rank when k > 0 and n > 0, also by ranks without rows (they take part in the broadcast).
  float* B = nullptr;
  std::int64_t ldb = 0;      //!< >= max(1, n); global when B is broadcast (the broadcast's size uses it)
  float beta = 0.0f;         //!< beta == 0 never reads C (NaN in C does not leak), as gemm::sgemm
  float* C_local = nullptr;  //!< m_local x n, row stride ldc (device memory of this rank)
  std::int64_t ldc = 0;      //!< >= max(1, n), as gemm::sgemm
  BSource b_source{};        //!< B replicated, or broadcast from a root
  gemm::Algorithm algo = gemm::Algorithm::tuned;  //!< as gemm::sgemm's (the same on every rank)
};

//! Distributed SGEMM: each rank computes its m_local rows of C with gemm::sgemm (same alpha/beta/ld
//! rules and algorithm choice), after B reached it. k == 0 or alpha == 0 gives C = beta * C without
//! reading A or B (B is still broadcast when k * n > 0, so every rank's buffer holds it afterwards).
//!
//! Broadcast and compute overlap for large products (B of at least 64 MiB, k >= 1024, more than one
//! rank): B is broadcast in row blocks of k on a second, high-priority stream while this rank's
//! stream multiplies the blocks that have arrived, accumulating into C with beta = 1 after the
//! first block. That sums each output's k products in a few partial sums instead of one chain, so
//! results may differ from gemm::sgemm's in the last bits; the error stays within the FP32 bound of
//! docs/ERROR-BOUNDS.md (a handful of extra roundings against the (k + 2) u slack of c = 2). Smaller
//! products broadcast B first and make one gemm::sgemm call. Scratch comes from the library's
//! stream-ordered pool.
GPUPRIMS_API Status sgemm(ncclComm_t comm, const SgemmArgs& args, cudaStream_t stream = nullptr);

//! Scratch the explicit-workspace form of sgemm needs for these arguments (0 when none): the
//! largest gemm::sgemm_workspace_bytes of its local calls, on the current device. 0 for arguments
//! that no call would accept.
GPUPRIMS_API std::size_t sgemm_workspace_bytes(const SgemmArgs& args) noexcept;

//! Explicit-workspace form: no allocation. d_workspace (16-byte aligned device memory of this rank,
//! may be null when the query says 0) of at least sgemm_workspace_bytes(args) bytes; less is
//! Status::invalid_argument, before any collective.
GPUPRIMS_API Status sgemm(ncclComm_t comm, const SgemmArgs& args, void* d_workspace, std::size_t workspace_bytes,
                          cudaStream_t stream = nullptr);

//! The fused top-2 argmin of the distributed product: each rank runs gemm::sgemm_top2_argmin on its
//! rows (storing C_local unless it is null, which needs beta == 0), the ranks' results are gathered
//! (ncclAllGather) and every rank merges them in rank order on its device into *d_top2 (device
//! memory of this rank): the two smallest entries of the whole m x n product, rows global, ties to
//! the lower global row-major index, missing entries {+inf, -1, -1} as <gpuprims/top2.hpp> says.
//! Each rank's GEMM runs with the plan (kernel, tiles, split of k) that gemm::sgemm_top2_argmin takes
//! for all m rows, so every entry has the bits the one-GPU call computes, and the merge is exact:
//! every rank holds the same Top2, bit for bit the one-GPU call's on the same data and algorithm
//! (with the same C, alpha and beta; on GPUs of one model, as the tuned pick depends on it). B
//! broadcast (if asked for) completes before the GEMM: the top-2 needs whole entries. m * n must fit
//! in int64.
GPUPRIMS_API Status sgemm_top2_argmin(ncclComm_t comm, const SgemmArgs& args, Top2* d_top2,
                                      cudaStream_t stream = nullptr);

//! Scratch the explicit-workspace form of sgemm_top2_argmin needs on a communicator of nranks ranks.
//! 0 for arguments that no call would accept.
GPUPRIMS_API std::size_t top2_workspace_bytes(const SgemmArgs& args, int nranks) noexcept;

//! Explicit-workspace form: no allocation; less workspace than top2_workspace_bytes(args, nranks)
//! is Status::invalid_argument, before any collective. 16-byte aligned.
GPUPRIMS_API Status sgemm_top2_argmin(ncclComm_t comm, const SgemmArgs& args, Top2* d_top2, void* d_workspace,
                                      std::size_t workspace_bytes, cudaStream_t stream = nullptr);

// ---- Sum -------------------------------------------------------------------------------------

//! Distributed sum: each rank reduce::sum's its n_local floats of d_in_local into one float, the
//! ranks' partials are gathered (ncclAllGather) and every rank adds them on its device in rank
//! order, left to right ((p0 + p1) + p2 ...), into *d_out (device memory of this rank). The result
//! is the same bits on every rank and on every run (no reduction order is left to NCCL): equal,
//! bitwise, to reduce::sum of each rank's shard on one GPU of the same model, combined in rank order
//! like that. n_local may differ per rank and may be 0 (that rank's partial is +0.0); sizes are
//! 64-bit (past 2^31 elements per rank works). algo is global.
GPUPRIMS_API Status sum(ncclComm_t comm, const float* d_in_local, std::int64_t n_local, float* d_out,
                        cudaStream_t stream = nullptr, reduce::Algorithm algo = reduce::Algorithm::shuffle);

//! Scratch of the explicit-workspace form of sum on a communicator of nranks ranks (never 0: the
//! gathered partials live there). 0 for arguments that no call would accept.
GPUPRIMS_API std::size_t sum_workspace_bytes(std::int64_t n_local, int nranks,
                                             reduce::Algorithm algo = reduce::Algorithm::shuffle) noexcept;

//! Explicit-workspace form: no allocation; less than sum_workspace_bytes(n_local, nranks, algo) is
//! Status::invalid_argument, before any collective. 16-byte aligned.
GPUPRIMS_API Status sum(ncclComm_t comm, const float* d_in_local, std::int64_t n_local, float* d_out, void* d_workspace,
                        std::size_t workspace_bytes, cudaStream_t stream = nullptr,
                        reduce::Algorithm algo = reduce::Algorithm::shuffle);

// ---- One thread driving several ranks ----------------------------------------------------------

//! One rank's entry of the array form of sgemm / sgemm_top2_argmin.
struct SgemmCall {
  ncclComm_t comm = nullptr;        //!< this rank's communicator
  SgemmArgs args{};                 //!< this rank's arguments (global ones equal across entries)
  Top2* d_top2 = nullptr;           //!< sgemm_top2_argmin only: this rank's result
  void* d_workspace = nullptr;      //!< explicit workspace, or null with workspace_bytes 0: the pool's
  std::size_t workspace_bytes = 0;  //!< bytes at d_workspace (the query's value or more)
  cudaStream_t stream = nullptr;    //!< a stream of this rank's device (nullptr: its default stream)
};

//! One rank's entry of the array form of sum.
struct SumCall {
  ncclComm_t comm = nullptr;          //!< this rank's communicator
  const float* d_in_local = nullptr;  //!< this rank's shard (device memory of this rank)
  std::int64_t n_local = 0;           //!< floats in the shard (may be 0, may differ per rank)
  float* d_out = nullptr;             //!< this rank's result (device memory of this rank)
  void* d_workspace = nullptr;        //!< explicit workspace, or null with workspace_bytes 0: the pool's
  std::size_t workspace_bytes = 0;    //!< bytes at d_workspace (sum_workspace_bytes or more)
  cudaStream_t stream = nullptr;      //!< a stream of this rank's device (nullptr: its default stream)
  reduce::Algorithm algo = reduce::Algorithm::shuffle;  //!< the same on every rank
};

//! The array forms, for one thread driving `count` ranks (count >= 1, distinct communicators, e.g.
//! all of make_local_comms's): the same results as every rank calling the per-rank form. Every entry
//! is validated first (any bad entry: its Status, and no CUDA or NCCL work for any rank); then each
//! rank's local work is enqueued with the rank's device made current (the caller's current device is
//! restored), and each collective step is issued for all entries inside one ncclGroupStart/End.
//! Must not be called inside an NCCL group.
GPUPRIMS_API Status sgemm(const SgemmCall* calls, int count);
//! The array form of sgemm_top2_argmin (each entry's d_top2 receives the global result).
GPUPRIMS_API Status sgemm_top2_argmin(const SgemmCall* calls, int count);
//! The array form of sum.
GPUPRIMS_API Status sum(const SumCall* calls, int count);

}  // namespace gpuprims::dist
