#pragma once
// The SGEMM driver behind the public entry points: a request becomes a plan (plan.hpp) and the
// workspace that plan needs, then launches. The autotuner and the tests force plans through it.
#include <cuda_runtime_api.h>

#include <cstddef>

#include <gpuprims/status.hpp>

#include "gemm/src/cost_model.hpp"
#include "gemm/src/plan.hpp"
#include "gemm/src/validate.hpp"

namespace gpuprims::detail {

// The plan algo takes for an m x n x k product: for a ladder rung the rung itself, with k split by its
// split rule (RungEntry::ladder_splits: the tensor-core rungs'); for tuned the outer-product path
// where outer_product_serves, else the cost model's pick. store_c: the product is written (false: a
// top-2 call without C); c_vec4: C takes 16-byte accesses (true where C is not known yet: the
// workspace queries, whose plans need at least the workspace the outer-product path does); call: a
// plain call or a fused top-2 (global or per row), whose pick ranks with constants_for(call).
GemmPlan plan_for(gemm::Algorithm algo, std::int64_t m, std::int64_t n, std::int64_t k, bool store_c,
                  const DeviceShape& device, bool c_vec4 = true, PickFor call = PickFor::plain);

// A ladder rung's plan with k in about `splits` ranges (make_plan) and the workspace its launcher
// needs for itself: what plan_for gives, with the split count chosen by the caller (benchmarks).
GemmPlan ladder_plan(const RungEntry& path, std::int64_t m, std::int64_t n, std::int64_t k, int splits);

// The plan of the scale-only case (k == 0 or alpha == 0: C = beta * C, A and B never read).
GemmPlan scale_only_plan();

// Workspace a call with this plan needs: with want_top2, the top-2 part (one partial per block of the
// kernel that runs the epilogue, or of the scale-only path, whichever is more: enough for either
// merge, since outputs of 2^32+ entries take the last-block-done one); then, 256-byte aligned, the
// split partials; then, 256-byte aligned, the path's own (GemmPlan::rung_bytes). per_row (with
// want_top2): the per-row top-2's part instead, 16 bytes a row.
std::size_t call_workspace_bytes(const GemmPlan& plan, std::int64_t m, std::int64_t n, bool want_top2, int sm_count,
                                 bool per_row = false);

// Where those parts start (the top-2 part at 0) and the whole.
struct WorkspaceLayout {
  std::size_t partials = 0, rung = 0, total = 0;
};
WorkspaceLayout call_workspace_layout(const GemmPlan& plan, std::int64_t m, std::int64_t n, bool want_top2,
                                      int sm_count, bool per_row = false);

// The dependent end of a small split-K reduction (epilogue_ends_in_dependent, plan.hpp) is one launch
// more than the ticket's: it pays where the GPU is still busy with the call when the host enqueues
// that launch, so only for calls whose operands (what the partial products' kernel reads) are at least
// this large. Smaller calls back to back are bound by the host's launches. On an H200 (run JL in
// results/nvidia-h200/README.md), calls back to back: 1 x 1024 x 2048 (8 MiB) took 13.7-14.1 us with
// it against 9.7-9.8 with the ticket; the shapes reading 23 MiB or more, 0.2-0.6 us less with it.
inline constexpr std::int64_t kDependentEndMinOperandBytes = std::int64_t{16} << 20;
inline bool operands_outlast_a_launch(std::int64_t m, std::int64_t n, std::int64_t k) {
  return (m + n) * k * static_cast<std::int64_t>(sizeof(float)) >= kDependentEndMinOperandBytes;
}

// A validated request, ready to launch: what runs and the workspace it needs.
struct PreparedCall {
  bool no_work = false;  // nothing to compute or report: no CUDA call at all
  GemmPlan plan;
  std::size_t workspace_bytes = 0;
  int sm_count = 1;
  bool dependent_launch = false;           // the split-K reduction as a programmatic dependent (sm_90+)
  bool clusters = false;                   // cluster plans can run (DeviceShape::clusters)
  bool epilogue_one_wave = false;          // epilogue_in_one_wave (plan.hpp) for the plan on this device
  bool epilogue_end_dependent = false;     // epilogue_ends_in_dependent (plan.hpp) and operands_outlast_a_launch
  Status device_status = Status::success;  // unsupported without a device (launch reports it)
};

// Validates a and decides its plan (`forced` when given) and workspace. Queries the device only when
// there is work to do; a missing device is recorded in device_status, not returned, so that
// launch_sgemm can check the workspace first.
Status prepare_sgemm(const SgemmArgs& a, const GemmPlan* forced, PreparedCall* out);

// Launches a prepared call; workspace must hold p.workspace_bytes and be 16-byte aligned.
Status launch_sgemm(const SgemmArgs& a, const PreparedCall& p, void* workspace, std::size_t workspace_bytes,
                    cudaStream_t stream);

// prepare_sgemm, then launch_sgemm.
Status sgemm_run(const SgemmArgs& a, const GemmPlan* forced, void* workspace, std::size_t workspace_bytes,
                 cudaStream_t stream);

}  // namespace gpuprims::detail
