#pragma once
// The tuned rung's path for products of k <= 4 (an outer product, or a sum of a few): nothing to tile
// along k, so the time is writing C (and reading it when beta != 0). Rung 9's tiles write each row of
// their tile in 32-float pieces that start wherever the row does; with a C that takes no 16-byte
// accesses (odd ldc) each piece straddles two 128-byte lines, and the small tiles run few warps per SM
// at 158 registers (ncu, H200: 18.75% occupancy, DRAM at 21% of peak at 2339 x 7091 x 1). Here a block
// of 256 threads owns kRows rows and one kWindow-float window of each, the windows placed on the
// row's 128-byte lines: every warp store is one whole line, whatever ldc is. B's columns of the window
// and A's rows are staged in shared memory first (k floats each, zeros past k); each result is then
// one float4 read of each, at most 4 FMAs in k order, and the shared epilogue (any visitor; the
// packed top-2's blocks merge their pairs and push once each, epilogue_in_one_wave in plan.hpp).
#include <cstdint>

#include <gpuprims/device/dependent_launch.cuh>

#include "common/src/cuda_check.hpp"
#include "common/src/math.hpp"
#include "gemm/src/detail/launch.cuh"
#include "gemm/src/epilogue/epilogue.cuh"
#include "gemm/src/tuning.hpp"

namespace gpuprims::detail {

template <class Visitor>
__global__ void __launch_bounds__(OuterProductShape::kThreads, OuterProductShape::kMinBlocksPerSm)
    outer_product_kernel(GemmOperands op, EpilogueParams<Visitor> ep) {
  using S = OuterProductShape;
  constexpr int kStaged = S::kWindow + 32;  // the window's columns and the 31 before it
  static_assert(S::kMaxK == 4 && S::kWindow % S::kThreads == 0, "a float4 of k per column; whole passes");
  __shared__ __align__(16) float Bs[kStaged * 4];  // column j of the window: Bs[4 j .. 4 j + 3], k order
  __shared__ __align__(16) float As[S::kRows * 4];
  ::gpuprims::device::allow_dependent_launch();
  const std::int64_t windows = S::windows(op.n);
  const std::int64_t row0 = (blockIdx.x / windows) * S::kRows;
  const std::int64_t shifted0 = (blockIdx.x % windows) * S::kWindow;  // first shifted column of the window
  const std::int64_t staged0 = shifted0 - 32;                         // the column Bs[0] holds
  const int tid = static_cast<int>(threadIdx.x);
  const int k = static_cast<int>(op.k);  // 1..kMaxK (plan_fits)
  const float prefetched = Epilogue<Visitor>::prefetch(ep);
  // Consecutive threads read consecutive columns of one row of B (coalesced; rows past k are not
  // read), every load of the thread before any store, so the block waits for one trip to memory and
  // not one per load.
  constexpr int kStageLoads = (kStaged * 4 + S::kThreads - 1) / S::kThreads;
  float staged[kStageLoads];
#pragma unroll
  for (int u = 0; u < kStageLoads; ++u) {
    const int i = tid + u * S::kThreads, p = i / kStaged;
    const std::int64_t c = staged0 + i % kStaged;
    staged[u] = p < k && c >= 0 && c < op.n ? op.B[p * op.ldb + c] : 0.0f;
  }
#pragma unroll
  for (int u = 0; u < kStageLoads; ++u) {
    const int i = tid + u * S::kThreads;
    if (i < kStaged * 4) Bs[i % kStaged * 4 + i / kStaged] = staged[u];
  }
  if (tid < S::kRows * 4) {
    const int p = tid % 4;
    const std::int64_t r = row0 + tid / 4;
    As[tid] = p < k && r < op.m ? op.A[r * op.lda + p] : 0.0f;
  }
  __syncthreads();
  Epilogue<Visitor> epi(ep, prefetched);
  constexpr int kPasses = S::kWindow / S::kThreads;
  for (int i = 0; i < S::kRows; ++i) {
    const std::int64_t r = row0 + i;
    if (r >= op.m) break;  // the same for the whole block
    const float4 a = *reinterpret_cast<const float4*>(&As[i * 4]);
    // Column c of row r lies at position (shift + c) % 32 of a line. C may be absent (a top-2 call
    // that does not store it): then the shift only places the windows.
    const auto row_address =
        reinterpret_cast<std::uintptr_t>(ep.out.C) + static_cast<std::uintptr_t>(r * ep.out.ldc) * sizeof(float);
    const int shift = static_cast<int>(row_address / sizeof(float) % 32);
    std::int64_t col[kPasses];
    float old[kPasses];
#pragma unroll
    for (int q = 0; q < kPasses; ++q) {  // C's entries first (beta != 0), all in flight together
      col[q] = shifted0 + q * S::kThreads + tid - shift;
      old[q] = col[q] >= 0 ? epi.read1(r, col[q]) : 0.0f;
    }
#pragma unroll
    for (int q = 0; q < kPasses; ++q) {
      const float4 b = *reinterpret_cast<const float4*>(&Bs[(col[q] - staged0) * 4]);
      float acc = a.x * b.x;  // k order, and no term past k (a zero term could turn -0 into +0)
      if (k > 1) acc = fmaf(a.y, b.y, acc);
      if (k > 2) acc = fmaf(a.z, b.z, acc);
      if (k > 3) acc = fmaf(a.w, b.w, acc);
      if (col[q] >= 0) epi.apply1(r, col[q], acc, old[q]);
    }
  }
  epi.template finish<S::kThreads>(tid);
}

inline Status launch_outer_product(const GemmCall& c) {
  const std::int64_t blocks =
      ceil_div<std::int64_t>(c.op.m, OuterProductShape::kRows) * OuterProductShape::windows(c.op.n);
  if (c.splits != 1 || c.op.k < 1 || c.op.k > OuterProductShape::kMaxK || blocks <= 0 || blocks > INT_MAX)
    return Status::unsupported;
  with_visitor(c.epilogue, [&](auto visitor) {
    using V = typename decltype(visitor)::type;
    outer_product_kernel<V>
        <<<static_cast<unsigned>(blocks), OuterProductShape::kThreads, 0, c.stream>>>(c.op, epilogue_params<V>(c));
  });
  GPUPRIMS_LAUNCH_CHECK();
  return Status::success;
}

inline Status outer_product_occupancy(int* blocks_per_sm) {
  return status_from(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      blocks_per_sm, outer_product_kernel<StoreOnlyVisitor>, OuterProductShape::kThreads, 0));
}

}  // namespace gpuprims::detail
