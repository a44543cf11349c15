#pragma once
// The tensor-core rungs (11 tf32, 12 tf32x3) come in two forms: mma.sync (kernels/11_tf32.cuh, sm_80
// and up) and, on a compute capability 9.0 device, warpgroup MMAs over operands packed by a pass
// before the GEMM (kernels/tensor_core_wgmma.cuh, sm_90a code, built when the architecture list has
// 90). Both rungs take the same form for the same call (wgmma_form_runs). The registry (ladder.cu)
// calls the dispatchers below; the tests pin either form through the hook.
#include <gpuprims/gemm.hpp>
#include <gpuprims/status.hpp>

#include <cstddef>
#include <cstdint>

#include "gemm/src/detail/gemm_call.hpp"
#include "gemm/src/tuning.hpp"

namespace gpuprims::detail {

enum class TensorCoreForm {
  automatic,  // wgmma on a compute capability 9.0 device when it was built and the shape pays for
              // its packing pass (wgmma_form_runs), else mma.sync
  mma_sync,   // the sm_80 form everywhere (tests of that form on a Hopper GPU)
  wgmma,      // the wgmma form for every shape where it is built and the device is 9.0 (tests)
};

//! Test hook: which form the dispatchers below take from now on (process-wide).
void set_tensor_core_form(TensorCoreForm form) noexcept;

//! Whether this build has the wgmma form (its architecture list had 90).
bool wgmma_form_built() noexcept;

//! Test hook: the wgmma form's cluster shape from now on (process-wide; {0, 0}: wgmma_cluster_shape's
//! pick, tuning.hpp). A pinned shape a call cannot take gives way to the pick (wgmma_cluster_for).
void pin_wgmma_cluster_shape(WgmmaClusterShape shape) noexcept;

//! The wgmma form's cluster for an m x n x k call of tf32x3 (three_products) or tf32 on the current
//! device, plain or with a top-2 epilogue (fused): the pinned shape where its sides divide the tile
//! grid's and the rung has kernels for it (clusters of 8 only for tf32x3), else wgmma_cluster_shape's
//! pick. The launcher and the split rules (through the resident-block count, for the plain product)
//! both ask here; the fused product's pick differs only in clusters of 8, on grids of 12 or more tiles
//! per SM, which no split plan reaches.
WgmmaClusterShape wgmma_cluster_for(bool three_products, bool fused, std::int64_t m, std::int64_t n,
                                    std::int64_t k) noexcept;

//! Whether the tensor-core rungs can run their wgmma form on the current device (built, device 9.0,
//! and the form not pinned to mma.sync).
bool wgmma_form_runs() noexcept;

//! Whether an m x n x k product of the rung gains from the wgmma form: its packing pass moves 8
//! (tf32) or 12 (tf32x3) bytes per element of A and B, which a product with a short side (tf32x3 at
//! 128 x 8192 x 8192 spent as long in the pass as in the product) or a small product does not win
//! back. The form is persistent (a block's next tile loads while a tile's results go out) and its pass
//! is one launch that the GEMM overlaps (a programmatic dependent), so the size of the product decides,
//! whatever k: tf32x3 from 2^28.5 multiply-adds; tf32, whose GEMM is three times cheaper, from k = 256
//! or 2^30 multiply-adds. Fitted to sgemm_bench --suite tc_splits on an H100 (session 20, run AC),
//! each form pinned: tf32x3 at 512 x 4096 x 128 (2^28) 0.019 ms on mma.sync against 0.026 on wgmma,
//! at 2048^2 x 128 (2^29) 0.032 against 0.031, at 3000^2 x 64 0.048 against 0.036; tf32 at 2048^2 x
//! 128 0.019 against 0.022, at 4096^2 x 64 (2^30) 0.043 against 0.042, at 8192^2 x 32 0.149 against
//! 0.121.
constexpr bool wgmma_form_pays_off(gemm::Algorithm rung, std::int64_t m, std::int64_t n, std::int64_t k) {
  const bool x3 = rung != gemm::Algorithm::tf32;
  const double work = static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
  return (m < n ? m : n) >= 512 && (x3 ? work >= 0x1.6a09e6p28 /* 2^28.5 */ : k >= 256 || work >= 0x1p30);
}

//! A split plan runs the wgmma form (tf32x3 only) with splits at least this deep: its per-block start
//! (packed slabs through three stages, cluster barriers) outweighs its speed on a few slabs (H100,
//! sgemm_bench --suite tc_splits: 512^3 in 8 splits of 64, 0.50x cuBLAS against mma.sync's 1.03x;
//! 768^3 in 3 of 256, 1.06x against mma.sync's best, 0.93x in 2).
inline constexpr std::int64_t kWgmmaMinSplitDepth = 256;

//! How far past a side of A a box of tf32's tensor copies may reach (its launcher's check,
//! tensor_copy_reads in detail/tma_descriptor.hpp): the copies' coordinates are 32-bit and signed.
inline constexpr std::int64_t kWgmmaTf32CopyMargin = 256;
//! tf32's wgmma form takes m and k up to this: A's sides, or those of its aligned copy (rounded up to
//! whole tiles and slabs, tensor_core_wgmma.cuh), plus the boxes' margin, fit the coordinates.
inline constexpr std::int64_t kWgmmaTf32MaxSide = 2147483647 - 2 * kWgmmaTf32CopyMargin;
static_assert(WgmmaTf32Config::kTileRows - 1 <= kWgmmaTf32CopyMargin && WgmmaTf32Config::BK - 1 <= kWgmmaTf32CopyMargin,
              "the aligned copy's rounding up of m and k stays within the second margin");

//! Whether a call of the rung, with k in `splits` ranges k_split deep, runs the wgmma form: the
//! device can, tf32's m and k are at most kWgmmaTf32MaxSide, and the shape pays off; unsplit, where
//! the mma.sync form would not split either, or (tf32x3) where its own split rule would not split
//! (its tiles fill more than half of the blocks its clusters keep resident); split (tf32x3 only), in
//! ranges at least kWgmmaMinSplitDepth deep and no more blocks than its clusters keep resident.
//! Pinned to wgmma: always where the device can (and tf32's sides fit).
bool wgmma_form_runs(gemm::Algorithm rung, std::int64_t m, std::int64_t n, std::int64_t k, int splits,
                     std::int64_t k_split) noexcept;

//! The tensor-core rungs' split rules (RungEntry::ladder_splits, plan.hpp's fill_splits): enough
//! splits to fill the blocks the form keeps resident at once: one per SM for mma.sync; tf32x3, where
//! its wgmma form pays off, takes that form's plan: unsplit when its own rule does not split (its
//! clusters hold 2 to 8 SMs of one GPC, so on an H100 fewer than 132 blocks of 2 x 2 clusters run
//! together), else its split plan where wgmma_form_runs accepts it, else mma.sync's.
int tf32_splits(std::int64_t m, std::int64_t n, std::int64_t k, int sm_count);
int tf32x3_splits(std::int64_t m, std::int64_t n, std::int64_t k, int sm_count);

Status launch_tf32_rung(const GemmCall& c);
Status launch_tf32x3_rung(const GemmCall& c);

//! Workspace of a call on the current device: the packed operands of the wgmma form when it runs
//! (kernels/tensor_core_wgmma.cuh), else none.
std::size_t tf32_workspace_bytes(std::int64_t m, std::int64_t n, std::int64_t k, int splits, std::int64_t k_split);
std::size_t tf32x3_workspace_bytes(std::int64_t m, std::int64_t n, std::int64_t k, int splits, std::int64_t k_split);

// The wgmma form's launchers, workspace and resident blocks (rungs/tensor_core_sm90a.cu), present when
// GPUPRIMS_HAVE_WGMMA_FORM is 1.
Status launch_tf32_wgmma(const GemmCall& c);
Status launch_tf32x3_wgmma(const GemmCall& c);
std::size_t tf32_wgmma_workspace_bytes(std::int64_t m, std::int64_t n, std::int64_t k);
std::size_t tf32x3_wgmma_workspace_bytes(std::int64_t m, std::int64_t n, std::int64_t k);
//! Blocks of tf32x3's wgmma kernel resident at once on the current device in the clusters an m x n x
//! k call takes (wgmma_cluster_for; 0 when the query fails).
int tf32x3_wgmma_resident_blocks(std::int64_t m, std::int64_t n, std::int64_t k);

}  // namespace gpuprims::detail
