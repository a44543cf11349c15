#include "gemm/src/rows_plan.hpp"

#include "common/src/cuda_check.hpp"
#include "common/src/math.hpp"
#include "gemm/src/gemm_internal.hpp"

namespace gpuprims::detail {
namespace {

// The device's shape, or the stand-in the public queries use without one (one SM).
const DeviceShape& shape_or_stand_in() {
  static const DeviceShape stand_in{};
  const DeviceShape* device = nullptr;
  return current_device_shape(&device) == Status::success ? *device : stand_in;
}

}  // namespace

std::size_t top2_rows_workspace_bytes(std::int64_t m_whole, std::int64_t m_rows, std::int64_t n, std::int64_t k,
                                      gemm::Algorithm algo) noexcept {
  if (m_rows < 0 || m_whole < m_rows || n < 0 || k < 0 || !known_algorithm(algo)) return 0;
  const DeviceShape& device = shape_or_stand_in();
  std::size_t bytes = call_workspace_bytes(scale_only_plan(), m_rows, n, true, device.sm_count);
  for (bool store_c : {true, false}) {
    const GemmPlan plan = plan_for(algo, m_whole, n, k, store_c, device, true, PickFor::row_top2);
    bytes = max_of(bytes, call_workspace_bytes(plan, m_rows, n, true, device.sm_count));
  }
  return bytes;
}

Status sgemm_top2_rows(std::int64_t m_whole, const SgemmArgs& a, void* d_workspace, std::size_t workspace_bytes,
                       cudaStream_t stream) {
  if (m_whole < a.m) return Status::invalid_argument;
  GPUPRIMS_TRY(validate_sgemm(a));
  // Without a device the plain call reports it (after its own checks); no plan to force then.
  const DeviceShape* device = nullptr;
  if (current_device_shape(&device) != Status::success)
    return sgemm_run(a, nullptr, d_workspace, workspace_bytes, stream);
  const GemmPlan whole = plan_for(a.algo, m_whole, a.n, a.k, a.C != nullptr, *device, true, PickFor::row_top2);
  return sgemm_run(a, &whole, d_workspace, workspace_bytes, stream);
}

}  // namespace gpuprims::detail
