// Which form of the tensor-core rungs runs (tensor_core_forms.hpp).
#include <atomic>

#include "common/src/device_info.hpp"
#include "gemm/src/kernels/12_tf32x3.cuh"
#include "gemm/src/rungs/tensor_core_forms.hpp"
#include "gemm/src/tuning.hpp"

namespace gpuprims::detail {
namespace {

std::atomic<TensorCoreForm> g_form{TensorCoreForm::automatic};

}  // namespace

static_assert(WgmmaTensorCoreConfig::BM == TensorCoreRungConfig::BM &&
                  WgmmaTensorCoreConfig::BN == TensorCoreRungConfig::BN,
              "one block tile for both forms: the registry's tile (and top-2 workspace) holds for either");

void set_tensor_core_form(TensorCoreForm form) noexcept { g_form.store(form, std::memory_order_relaxed); }

bool wgmma_form_built() noexcept { return GPUPRIMS_HAVE_WGMMA_FORM != 0; }

bool tf32x3_uses_wgmma() noexcept {
#if GPUPRIMS_HAVE_WGMMA_FORM
  const DeviceInfo* device = nullptr;
  return g_form.load(std::memory_order_relaxed) != TensorCoreForm::mma_sync &&
         current_device_info(&device) == Status::success && device->cc_major == 9 && device->cc_minor == 0;
#else
  return false;
#endif
}

bool tf32x3_uses_wgmma(std::int64_t m, std::int64_t n, std::int64_t k) noexcept {
  return tf32x3_uses_wgmma() &&
         (g_form.load(std::memory_order_relaxed) == TensorCoreForm::wgmma || wgmma_form_pays_off(m, n, k));
}

Status launch_tf32_rung(const GemmCall& c) { return launch_tensor_core<TensorCoreRungConfig, OneTf32Product>(c); }

std::size_t tf32x3_workspace_bytes(std::int64_t m, std::int64_t n, std::int64_t k) {
#if GPUPRIMS_HAVE_WGMMA_FORM
  if (tf32x3_uses_wgmma(m, n, k)) return tf32x3_wgmma_workspace_bytes(m, n, k);
#endif
  return 0;
}

Status launch_tf32x3_rung(const GemmCall& c) {
#if GPUPRIMS_HAVE_WGMMA_FORM
  if (tf32x3_uses_wgmma(c.op.m, c.op.n, c.op.k)) return launch_tf32x3_wgmma(c);
#endif
  return launch_tensor_core<TensorCoreRungConfig, ThreeTf32Products>(c);
}

}  // namespace gpuprims::detail
