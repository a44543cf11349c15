// The tensor-core rungs' wgmma form (kernels/tensor_core_wgmma.cuh), compiled for sm_90a alone (lib/CMakeLists.txt:
// its own object library with --generate-code=arch=compute_90a,code=sm_90a).
#include "gemm/src/kernels/12_tf32x3.cuh"
#include "gemm/src/kernels/tensor_core_wgmma.cuh"
#include "gemm/src/rungs/tensor_core_forms.hpp"

namespace gpuprims::detail {
namespace {

bool fused(const GemmCall& c) { return c.epilogue != EpilogueKind::store; }

}  // namespace

Status launch_tf32_wgmma(const GemmCall& c) {
  return launch_wgmma_tensor_core<OneTf32Product, WgmmaTf32Config>(
      c, wgmma_cluster_for(false, fused(c), c.op.m, c.op.n, c.op.k));
}

std::size_t tf32_wgmma_workspace_bytes(std::int64_t m, std::int64_t n, std::int64_t k) {
  return wgmma_tensor_core_workspace_bytes<WgmmaTf32Config>(m, n, k);
}

Status launch_tf32x3_wgmma(const GemmCall& c) {
  return launch_wgmma_tensor_core<ThreeTf32Products>(c, wgmma_cluster_for(true, fused(c), c.op.m, c.op.n, c.op.k));
}

std::size_t tf32x3_wgmma_workspace_bytes(std::int64_t m, std::int64_t n, std::int64_t k) {
  return wgmma_tensor_core_workspace_bytes(m, n, k);
}

int tf32x3_wgmma_resident_blocks(std::int64_t m, std::int64_t n, std::int64_t k) {
  return wgmma_tensor_core_resident_blocks<ThreeTf32Products>(wgmma_cluster_for(true, /*fused=*/false, m, n, k));
}

}  // namespace gpuprims::detail
