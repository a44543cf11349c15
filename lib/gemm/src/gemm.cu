// The SGEMM module's host side: names, the one dispatch table (Algorithm -> rung), the scale-only and
// empty cases, the top-2 workspace, and the public entry points.
#include <gpuprims/gemm.hpp>

#include "common/src/cuda_check.hpp"
#include "common/src/device_buffer.hpp"
#include "common/src/device_info.hpp"
#include "common/src/math.hpp"
#include "gemm/src/detail/tile_index.hpp"
#include "gemm/src/gemm_internal.hpp"
#include "gemm/src/tuned_pick.hpp"
#include "reduce/src/block/top2_atomic.cuh"
#include "reduce/src/block/top2_grid.cuh"
#include "reduce/src/top2_internal.hpp"

namespace gpuprims {
namespace detail {
namespace {

// The scale-only path (k == 0 or alpha == 0: C = beta * C) never reads A or B; it runs the coalesced
// kernel with k = 0 and alpha = 0, whatever the algorithm.
const RungEntry& scale_only_rung() { return kCoalescedRung; }

std::int64_t blocks_of(std::int64_t m, std::int64_t n, const RungEntry& r) { return tile_count(m, n, r.bm, r.bn); }

}  // namespace

const RungEntry& rung_for(gemm::Algorithm algo, std::int64_t m, std::int64_t n, std::int64_t k, bool top2_only) {
  using gemm::Algorithm;
  switch (algo) {
    case Algorithm::naive: return kNaiveRung;
    case Algorithm::coalesced: return kCoalescedRung;
    case Algorithm::shared_tiled: return kSharedTiledRung;
    case Algorithm::blocktile_1d: return kBlockTile1DRung;
    case Algorithm::blocktile_2d: return kBlockTile2DRung;
    case Algorithm::vectorized: return kVectorizedRung;
    case Algorithm::bank_conflict_free: return kBankConflictFreeRung;
    case Algorithm::warptile: return kWarptileRung;
    case Algorithm::double_buffered: return kDoubleBufferedRung;
    case Algorithm::tuned: break;
  }
  return kTunedConfigs[tuned_pick(m, n, k, top2_only)];
}

std::size_t top2_workspace_for(std::int64_t m, std::int64_t n, const RungEntry& rung) {
  if (m <= 0 || n <= 0) return top2_grid_workspace_bytes(0);
  // Enough for either path (with or without the product term), so the query needs no alpha.
  return top2_grid_workspace_bytes(max_of(blocks_of(m, n, rung), blocks_of(m, n, scale_only_rung())));
}

Status sgemm_run(const SgemmArgs& a, const RungEntry* forced, void* workspace, std::size_t workspace_bytes,
                 cudaStream_t stream) {
  GPUPRIMS_TRY(validate_sgemm(a));
  const bool any_output = a.m > 0 && a.n > 0;
  const bool product = has_product(a);
  // Nothing to compute and nothing to report: no CUDA call at all (as cuBLAS's quick return).
  if (!a.want_top2 && (!any_output || (!product && a.beta == 1.0f))) return Status::success;

  const RungEntry& rung = forced ? *forced : rung_for(a.algo, a.m, a.n, a.k, a.want_top2 && a.C == nullptr);
  if (a.want_top2) {
    if (workspace == nullptr || workspace_bytes < top2_workspace_for(a.m, a.n, rung)) return Status::invalid_argument;
    if (!is_aligned(workspace, 16)) return Status::misaligned_pointer;
  }
  const DeviceInfo* device = nullptr;
  GPUPRIMS_TRY(current_device_info(&device));
  if (!any_output) return write_empty_top2(a.top2, stream);

  GemmCall c{};
  c.op = GemmOperands{a.m, a.n, product ? a.k : 0, a.A, a.lda, a.B, a.ldb};
  c.ab_vec4 = is_aligned(a.A, 16) && is_aligned(a.B, 16) && a.lda % 4 == 0 && a.ldb % 4 == 0;
  c.mode = !a.want_top2 ? EpilogueMode::store
           : (!a.force_wide_index && a.m * a.n <= std::int64_t{0xffffffff}) ? EpilogueMode::top2_packed
                                                                           : EpilogueMode::top2_wide;
  c.epi.C = a.C;
  c.epi.ldc = a.ldc;
  c.epi.alpha = product ? a.alpha : 0.0f;
  c.epi.beta = a.beta;
  c.epi.m = a.m;
  c.epi.n = a.n;
  c.epi.store = a.C != nullptr;
  c.epi.c_vec4 = a.C == nullptr || (is_aligned(a.C, 16) && a.ldc % 4 == 0);
  c.stream = stream;
  const RungEntry& run = product ? rung : scale_only_rung();
  if (c.mode == EpilogueMode::top2_packed) {
    // The workspace's first 16 bytes are the atomic merge's two words (top2_atomic.cuh).
    c.epi.top2_atomic.words = static_cast<unsigned long long*>(workspace);
    GPUPRIMS_TRY(top2_atomic_begin(c.epi.top2_atomic.words, stream));
    GPUPRIMS_TRY(run.run(c));
    return top2_atomic_end(c.epi.top2_atomic.words, a.top2, a.n, stream);
  }
  if (c.mode == EpilogueMode::top2_wide) {
    GPUPRIMS_CUDA_TRY(cudaMemsetAsync(workspace, 0, sizeof(unsigned int), stream));
    c.epi.top2 = top2_grid_args(workspace, a.top2, a.n);
  }
  return run.run(c);
}

}  // namespace detail

namespace gemm {

const char* name(Algorithm algo) noexcept {
  switch (algo) {
    case Algorithm::naive: return "naive";
    case Algorithm::coalesced: return "coalesced";
    case Algorithm::shared_tiled: return "shared_tiled";
    case Algorithm::blocktile_1d: return "blocktile_1d";
    case Algorithm::blocktile_2d: return "blocktile_2d";
    case Algorithm::vectorized: return "vectorized";
    case Algorithm::bank_conflict_free: return "bank_conflict_free";
    case Algorithm::warptile: return "warptile";
    case Algorithm::double_buffered: return "double_buffered";
    case Algorithm::tuned: return "tuned";
  }
  return "unknown";
}

Status sgemm(std::int64_t m, std::int64_t n, std::int64_t k, float alpha, const float* A, std::int64_t lda,
             const float* B, std::int64_t ldb, float beta, float* C, std::int64_t ldc, Algorithm algo,
             cudaStream_t stream) {
  const detail::SgemmArgs a{m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, algo, nullptr, false};
  return detail::sgemm_run(a, nullptr, nullptr, 0, stream);
}

std::size_t top2_workspace_bytes(std::int64_t m, std::int64_t n, std::int64_t k, Algorithm algo) noexcept {
  if (m < 0 || n < 0 || k < 0 || static_cast<int>(algo) < 0 || algo > Algorithm::tuned) return 0;
  // Enough for the configuration picked with C and the one picked without it.
  return detail::max_of(detail::top2_workspace_for(m, n, detail::rung_for(algo, m, n, k, false)),
                        detail::top2_workspace_for(m, n, detail::rung_for(algo, m, n, k, true)));
}

Status sgemm_top2_argmin(std::int64_t m, std::int64_t n, std::int64_t k, float alpha, const float* A,
                         std::int64_t lda, const float* B, std::int64_t ldb, float beta, float* C, std::int64_t ldc,
                         Top2* d_top2, void* d_workspace, std::size_t workspace_bytes, Algorithm algo,
                         cudaStream_t stream) {
  const detail::SgemmArgs a{m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, algo, d_top2, true};
  return detail::sgemm_run(a, nullptr, d_workspace, workspace_bytes, stream);
}

Status sgemm_top2_argmin(std::int64_t m, std::int64_t n, std::int64_t k, float alpha, const float* A,
                         std::int64_t lda, const float* B, std::int64_t ldb, float beta, float* C, std::int64_t ldc,
                         Top2* d_top2, Algorithm algo, cudaStream_t stream) {
  const detail::SgemmArgs a{m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, algo, d_top2, true};
  GPUPRIMS_TRY(detail::validate_sgemm(a));  // bad input: a Status before any allocation
  const detail::DeviceInfo* device = nullptr;
  GPUPRIMS_TRY(detail::current_device_info(&device));
  const std::size_t bytes = top2_workspace_bytes(m, n, k, algo);
  detail::StreamScratch scratch(stream);
  GPUPRIMS_TRY(scratch.allocate(bytes));
  return detail::sgemm_run(a, nullptr, scratch.get(), bytes, stream);
}

}  // namespace gemm
}  // namespace gpuprims
