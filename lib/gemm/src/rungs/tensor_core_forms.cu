// Which form of the tensor-core rungs runs (tensor_core_forms.hpp).
#include <atomic>

#include "common/src/device_info.hpp"
#include "common/src/math.hpp"
#include "gemm/src/detail/tile_index.hpp"
#include "gemm/src/kernels/12_tf32x3.cuh"
#include "gemm/src/plan.hpp"
#include "gemm/src/rungs/rungs.hpp"
#include "gemm/src/rungs/tensor_core_forms.hpp"
#include "gemm/src/tuning.hpp"

namespace gpuprims::detail {
namespace {

std::atomic<TensorCoreForm> g_form{TensorCoreForm::automatic};
std::atomic<int> g_pinned_cluster{0};  // the pinned cluster shape as 16 * m + n (0: none)

}  // namespace

static_assert(WgmmaTensorCoreConfig::BM == TensorCoreRungConfig::BM &&
                  WgmmaTensorCoreConfig::BN == TensorCoreRungConfig::BN,
              "one block tile for both forms: the registry's tile (and top-2 workspace) holds for either");

void set_tensor_core_form(TensorCoreForm form) noexcept { g_form.store(form, std::memory_order_relaxed); }

bool wgmma_form_built() noexcept { return GPUPRIMS_HAVE_WGMMA_FORM != 0; }

void pin_wgmma_cluster_shape(WgmmaClusterShape shape) noexcept {
  g_pinned_cluster.store(16 * shape.m + shape.n, std::memory_order_relaxed);
}

bool wgmma_form_runs() noexcept {
#if GPUPRIMS_HAVE_WGMMA_FORM
  const DeviceInfo* device = nullptr;
  return g_form.load(std::memory_order_relaxed) != TensorCoreForm::mma_sync &&
         current_device_info(&device) == Status::success && device->runs_sm90a();
#else
  return false;
#endif
}

namespace {

std::int64_t tensor_core_tiles(std::int64_t m, std::int64_t n) {
  return tile_count(m, n, TensorCoreRungConfig::BM, TensorCoreRungConfig::BN);
}

// The mma.sync form's split count (one block per SM resident).
int mma_sync_splits(std::int64_t m, std::int64_t n, std::int64_t k, int sm_count) {
  return fill_splits(tensor_core_tiles(m, n), k, sm_count);
}

int current_sm_count() {
  const DeviceInfo* device = nullptr;
  return current_device_info(&device) == Status::success ? device->sm_count : 1;
}

#if GPUPRIMS_HAVE_WGMMA_FORM
// tf32x3's wgmma form's split count by fill_splits over the blocks its clusters keep resident.
int wgmma_fill_splits(std::int64_t m, std::int64_t n, std::int64_t k, int sm_count) {
  const int resident = tf32x3_wgmma_resident_blocks(m, n, k);
  return fill_splits(tensor_core_tiles(m, n), k, resident > 0 ? min_of(resident, sm_count) : sm_count);
}
#endif

}  // namespace

WgmmaClusterShape wgmma_cluster_for(bool three_products, bool fused, std::int64_t m, std::int64_t n,
                                    std::int64_t k) noexcept {
  // Tiles of the rung's own block tile (tf32's are 256 wide, tuning.hpp).
  const int bm = three_products ? WgmmaTensorCoreConfig::BM : WgmmaTf32Config::BM;
  const int bn = three_products ? WgmmaTensorCoreConfig::BN : WgmmaTf32Config::BN;
  const std::int64_t tiles_m = ceil_div<std::int64_t>(m, bm), tiles_n = ceil_div<std::int64_t>(n, bn);
  const int pinned = g_pinned_cluster.load(std::memory_order_relaxed);
  const WgmmaClusterShape pin{pinned / 16, pinned % 16};
  const bool known = (pin.m == 1 || pin.m == 2 || pin.m == 4) && (pin.n == 1 || pin.n == 2 || pin.n == 4) &&
                     pin.m * pin.n <= (three_products ? 8 : 4) && (pin.m * pin.n != 4 || pin.m == 2);
  if (known && tiles_m % pin.m == 0 && tiles_n % pin.n == 0) return pin;
  return wgmma_cluster_shape(three_products, fused, tiles_m, tiles_n, k, current_sm_count());
}

bool wgmma_form_runs(gemm::Algorithm rung, std::int64_t m, std::int64_t n, std::int64_t k, int splits,
                     std::int64_t k_split) noexcept {
  if (!wgmma_form_runs()) return false;
  if (rung == gemm::Algorithm::tf32 && (m > kWgmmaTf32MaxSide || k > kWgmmaTf32MaxSide)) return false;
  if (g_form.load(std::memory_order_relaxed) == TensorCoreForm::wgmma) return true;
  if (!wgmma_form_pays_off(rung, m, n, k)) return false;
#if GPUPRIMS_HAVE_WGMMA_FORM
  // Unsplit: where the mma.sync form would not split either, or, for tf32x3, where the wgmma form's
  // own rule would not: a tile takes it half as long as mma.sync's, so one range per tile beats
  // mma.sync's two (H100, 1024^3: 0.047 against 0.052 ms); tf32's mma.sync split stays faster (0.029
  // against 0.031).
  if (splits <= 1) {
    const int sms = current_sm_count();
    return mma_sync_splits(m, n, k, sms) == 1 ||
           (rung == gemm::Algorithm::tf32x3 && wgmma_fill_splits(m, n, k, sms) == 1);
  }
  // Split: tf32x3 only, in splits deep enough, and no more blocks than its clusters keep resident.
  const std::int64_t resident = tf32x3_wgmma_resident_blocks(m, n, k);
  return rung == gemm::Algorithm::tf32x3 && k_split >= kWgmmaMinSplitDepth &&
         tensor_core_tiles(m, n) * splits <= resident;
#else
  static_cast<void>(splits);
  static_cast<void>(k_split);
  return false;  // not reached: wgmma_form_runs() is false without the form
#endif
}

namespace {

// Both rungs' split rule: mma.sync's, unless tf32x3's wgmma form pays off: then that form's own rule
// (a resident-block count of its clusters), unsplit, or split where the splits are deep enough.
// Consistent with wgmma_form_runs: the plan returned runs the form that rule picks for it.
int tensor_core_splits(gemm::Algorithm rung, std::int64_t m, std::int64_t n, std::int64_t k, int sm_count) {
  const int mma = mma_sync_splits(m, n, k, sm_count);
  static_cast<void>(rung);  // read only when the wgmma form is built
#if GPUPRIMS_HAVE_WGMMA_FORM
  if (mma > 1 && rung == gemm::Algorithm::tf32x3 && wgmma_form_runs() && wgmma_form_pays_off(rung, m, n, k)) {
    const int splits = wgmma_fill_splits(m, n, k, sm_count);
    if (splits == 1) return 1;  // unsplit, on the wgmma form (wgmma_form_runs)
    const GemmPlan plan = make_plan(ladder_rung(rung)->path, k, splits);
    if (plan.splits > 1 && wgmma_form_runs(rung, m, n, k, plan.splits, plan.k_split)) return plan.splits;
  }
#endif
  return mma;
}

}  // namespace

int tf32_splits(std::int64_t m, std::int64_t n, std::int64_t k, int sm_count) {
  return tensor_core_splits(gemm::Algorithm::tf32, m, n, k, sm_count);
}

int tf32x3_splits(std::int64_t m, std::int64_t n, std::int64_t k, int sm_count) {
  return tensor_core_splits(gemm::Algorithm::tf32x3, m, n, k, sm_count);
}

Status launch_tf32_rung(const GemmCall& c) {
#if GPUPRIMS_HAVE_WGMMA_FORM
  if (wgmma_form_runs(gemm::Algorithm::tf32, c.op.m, c.op.n, c.op.k, c.splits, c.op.k_split))
    return launch_tf32_wgmma(c);
#endif
  return launch_tensor_core<TensorCoreRungConfig, OneTf32Product>(c);
}

namespace {

// The packed operands of the wgmma form when it runs the call, else none.
std::size_t packed_workspace_bytes(gemm::Algorithm rung, std::int64_t m, std::int64_t n, std::int64_t k, int splits,
                                   std::int64_t k_split) {
#if GPUPRIMS_HAVE_WGMMA_FORM
  if (wgmma_form_runs(rung, m, n, k, splits, k_split))
    return rung == gemm::Algorithm::tf32 ? tf32_wgmma_workspace_bytes(m, n, k) : tf32x3_wgmma_workspace_bytes(m, n, k);
  return 0;
#else
  static_cast<void>(rung);
  static_cast<void>(m);
  static_cast<void>(n);
  static_cast<void>(k);
  static_cast<void>(splits);
  static_cast<void>(k_split);
  return 0;
#endif
}

}  // namespace

std::size_t tf32_workspace_bytes(std::int64_t m, std::int64_t n, std::int64_t k, int splits, std::int64_t k_split) {
  return packed_workspace_bytes(gemm::Algorithm::tf32, m, n, k, splits, k_split);
}

std::size_t tf32x3_workspace_bytes(std::int64_t m, std::int64_t n, std::int64_t k, int splits, std::int64_t k_split) {
  return packed_workspace_bytes(gemm::Algorithm::tf32x3, m, n, k, splits, k_split);
}

Status launch_tf32x3_rung(const GemmCall& c) {
#if GPUPRIMS_HAVE_WGMMA_FORM
  if (wgmma_form_runs(gemm::Algorithm::tf32x3, c.op.m, c.op.n, c.op.k, c.splits, c.op.k_split))
    return launch_tf32x3_wgmma(c);
#endif
  return launch_tensor_core<TensorCoreRungConfig, ThreeTf32Products>(c);
}

}  // namespace gpuprims::detail
