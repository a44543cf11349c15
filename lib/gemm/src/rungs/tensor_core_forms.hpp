#pragma once
// Rung 12 (tf32x3) comes in two forms: mma.sync (kernels/11_tf32.cuh, sm_80 and up) and, on a compute
// capability 9.0 device, warpgroup MMAs (kernels/tensor_core_wgmma.cuh, sm_90a code, built when the
// architecture list has 90). Rung 11 (tf32) keeps the mma.sync form everywhere: its wgmma form was
// measured slower (H100, 4096^3: 90.8 against 120 TFLOP/s; docs/ARCHITECTURE.md). The registry
// (ladder.cu) calls the dispatchers below; the tests pin either form through the hook.
#include <gpuprims/status.hpp>

#include <cstddef>
#include <cstdint>

#include "gemm/src/detail/gemm_call.hpp"

namespace gpuprims::detail {

enum class TensorCoreForm {
  automatic,  // tf32x3: wgmma on a compute capability 9.0 device when it was built and the shape
              // pays for its packing pass (wgmma_form_pays_off), else mma.sync
  mma_sync,   // the sm_80 form everywhere (tests of that form on a Hopper GPU)
  wgmma,      // the wgmma form for every shape where it is built and the device is 9.0 (tests)
};

//! Test hook: which form the dispatchers below take from now on (process-wide).
void set_tensor_core_form(TensorCoreForm form) noexcept;

//! Whether this build has the wgmma form (its architecture list had 90).
bool wgmma_form_built() noexcept;

//! Whether tf32x3 can run its wgmma form on the current device (built, device 9.0, and the form not
//! pinned to mma.sync).
bool tf32x3_uses_wgmma() noexcept;

//! Whether an m x n x k product gains from the wgmma form: its packing pass moves 12 bytes per
//! element of A and B, which a product with a short side or a short k does not win back (H100: at
//! 128 x 8192 x 8192 the pass took as long as the product; at 16384^2 x 64, 256^3 and those the
//! mma.sync form was faster).
constexpr bool wgmma_form_pays_off(std::int64_t m, std::int64_t n, std::int64_t k) {
  return (m < n ? m : n) >= 512 && k >= 128;
}

//! Whether this tf32x3 call runs the wgmma form: the device can, and the shape pays off (or the
//! form is pinned to wgmma).
bool tf32x3_uses_wgmma(std::int64_t m, std::int64_t n, std::int64_t k) noexcept;

Status launch_tf32_rung(const GemmCall& c);
Status launch_tf32x3_rung(const GemmCall& c);

//! Workspace of a tf32x3 call on the current device: the packed operands of the wgmma form when it
//! runs (kernels/tensor_core_wgmma.cuh), else none.
std::size_t tf32x3_workspace_bytes(std::int64_t m, std::int64_t n, std::int64_t k);

// The wgmma form's launcher and workspace (rungs/tensor_core_sm90a.cu), present when
// GPUPRIMS_HAVE_WGMMA_FORM is 1.
Status launch_tf32x3_wgmma(const GemmCall& c);
std::size_t tf32x3_wgmma_workspace_bytes(std::int64_t m, std::int64_t n, std::int64_t k);

}  // namespace gpuprims::detail
