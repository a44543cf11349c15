#pragma once
// Rung 12 (tf32x3) comes in two forms: mma.sync (kernels/11_tf32.cuh, sm_80 and up) and, on a compute
// capability 9.0 device, warpgroup MMAs (kernels/tensor_core_wgmma.cuh, sm_90a code, built when the
// architecture list has 90). Rung 11 (tf32) keeps the mma.sync form everywhere: its wgmma form was
// measured slower (H100, 4096^3: 90.8 against 120 TFLOP/s; docs/ARCHITECTURE.md). The registry
// (ladder.cu) calls the dispatchers below; the tests pin either form through the hook.
#include <gpuprims/status.hpp>

#include "gemm/src/detail/gemm_call.hpp"

namespace gpuprims::detail {

enum class TensorCoreForm {
  automatic,  // tf32x3: wgmma on a compute capability 9.0 device when it was built, else mma.sync
  mma_sync,   // the sm_80 form everywhere (tests of that form on a Hopper GPU)
};

//! Test hook: which form the dispatchers below take from now on (process-wide).
void set_tensor_core_form(TensorCoreForm form) noexcept;

//! Whether this build has the wgmma form (its architecture list had 90).
bool wgmma_form_built() noexcept;

//! Whether tf32x3 runs its wgmma form on the current device (built, device 9.0, and the form not
//! pinned to mma.sync).
bool tf32x3_uses_wgmma() noexcept;

Status launch_tf32_rung(const GemmCall& c);
Status launch_tf32x3_rung(const GemmCall& c);

// The wgmma form's launcher (rungs/tensor_core_sm90a.cu), present when GPUPRIMS_HAVE_WGMMA_FORM is 1.
Status launch_tf32x3_wgmma(const GemmCall& c);

}  // namespace gpuprims::detail
