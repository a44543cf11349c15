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
// packed top-2 in its streaming form, top2_stream_visitor.cuh, whose blocks merge their pairs and
// push once each, epilogue_in_one_wave in plan.hpp).
// The row loop is compiled once per k and, for a window with no edge (neither a row's first window
// nor its last), without the per-result bounds test: the kernel is bound by instruction issue as much
// as by its stores, and the fused top-2's ranking adds about ten instructions a result to the plain
// call's dozen (session 60, run IW: 2339 x 7091 x 1 fused 33.5 -> 26.4 us, tuning.hpp).
#include <cstdint>
#include <type_traits>

#include <gpuprims/device/dependent_launch.cuh>

#include "common/src/cuda_check.hpp"
#include "common/src/math.hpp"
#include "gemm/src/detail/launch.cuh"
#include "gemm/src/epilogue/epilogue.cuh"
#include "gemm/src/tuning.hpp"

namespace gpuprims::detail {

// One result's sum over kK (1 to kMaxK) in k order, with no term past k (a zero term could turn -0 into
// +0).
template <int kK>
__device__ __forceinline__ float outer_sum(float4 a, float4 b) {
  float acc = a.x * b.x;
  if constexpr (kK > 1) acc = fmaf(a.y, b.y, acc);
  if constexpr (kK > 2) acc = fmaf(a.z, b.z, acc);
  if constexpr (kK > 3) acc = fmaf(a.w, b.w, acc);
  return acc;
}

// Calls f(std::integral_constant<int, k>) for k in 1..4.
template <class F>
__device__ __forceinline__ void with_constant_k(int k, F&& f) {
  if (k == 1) f(std::integral_constant<int, 1>{});
  else if (k == 2) f(std::integral_constant<int, 2>{});
  else if (k == 3) f(std::integral_constant<int, 3>{});
  else f(std::integral_constant<int, 4>{});
}

// Rows a block owns for visitor V: the streaming top-2 finishes each block with a merge and a push
// (top2_atomic_finish), so its blocks take more rows (tuning.hpp).
template <class V>
inline constexpr int kOuterRows =
    std::is_same_v<V, Top2StreamVisitor> ? OuterProductShape::kTop2Rows : OuterProductShape::kRows;

template <class Visitor>
__global__ void __launch_bounds__(OuterProductShape::kThreads, OuterProductShape::kMinBlocksPerSm)
    outer_product_kernel(GemmOperands op, EpilogueParams<Visitor> ep) {
  using S = OuterProductShape;
  constexpr int kRows = kOuterRows<Visitor>;
  constexpr int kStaged = S::kWindow + 32;  // the window's columns and the 31 before it
  static_assert(S::kMaxK == 4 && S::kWindow % S::kThreads == 0, "a float4 of k per column; whole passes");
  __shared__ float4 Bs[kStaged];  // column j of the window: B's k values, zeros past k
  __shared__ float4 As[kRows];    // row i of the block: A's k values, zeros past k
  ::gpuprims::device::allow_dependent_launch();
  // The grid has at most INT_MAX blocks (launch_outer_product), so a row's windows fit in 32 bits and
  // the block's place takes a 32-bit division, not the 64-bit routine (about 40 instructions a warp).
  const auto windows = static_cast<unsigned>(S::windows(op.n));
  const std::int64_t row0 = static_cast<std::int64_t>(blockIdx.x / windows) * kRows;
  const std::int64_t shifted0 = static_cast<std::int64_t>(blockIdx.x % windows) * S::kWindow;  // first shifted column
  const std::int64_t staged0 = shifted0 - 32;                                                  // the column Bs[0] holds
  const int tid = static_cast<int>(threadIdx.x);
  const int k = static_cast<int>(op.k);  // 1..kMaxK (plan_fits)
  const float prefetched = Epilogue<Visitor>::prefetch(ep);
  // A thread stages whole columns of B, one float4 store each: consecutive threads read consecutive
  // columns of each of B's k rows (coalesced), every load before any store, so the block waits for
  // one trip to memory and not one per load.
  constexpr int kStageSteps = (kStaged + S::kThreads - 1) / S::kThreads;
  float4 staged[kStageSteps];
#pragma unroll
  for (int u = 0; u < kStageSteps; ++u) {
    const std::int64_t c = staged0 + tid + u * S::kThreads;
    staged[u] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (tid + u * S::kThreads < kStaged && c >= 0 && c < op.n) {
      const float* b = op.B + c;
      staged[u].x = b[0];
      if (k > 1) staged[u].y = b[op.ldb];
      if (k > 2) staged[u].z = b[2 * op.ldb];
      if (k > 3) staged[u].w = b[3 * op.ldb];
    }
  }
#pragma unroll
  for (int u = 0; u < kStageSteps; ++u)
    if (tid + u * S::kThreads < kStaged) Bs[tid + u * S::kThreads] = staged[u];
  static_assert(kRows * 4 <= S::kThreads, "a thread stages at most one of A's values");
  if (tid < kRows * 4) {
    const int p = tid % 4;
    const std::int64_t r = row0 + tid / 4;
    reinterpret_cast<float*>(As)[tid] = p < k && r < op.m ? op.A[r * op.lda + p] : 0.0f;
  }
  __syncthreads();
  Epilogue<Visitor> epi(ep, prefetched);
  const int rows = static_cast<int>(min_of<std::int64_t>(kRows, op.m - row0));  // 1..kRows
  // Thread column j (q * kThreads + tid) of a row stands for output column shifted0 + j - shift, where
  // shift is the position of the row's column 0 within a 128-byte line (C may be absent, a top-2 call
  // that does not store it: then the shift only places the windows), and for B's staged column
  // j - shift + 32. It is inside the output for j in [lo, hi): lo = shift in a row's first window, 0
  // in the others, hi = min(kWindow, n - shifted0 + shift). The shift moves by ldc % 32 from row to
  // row and the row's address by ldc, so a row costs a few 32-bit steps and a result one compare
  // pair and one address step (the kernel is bound by its instruction issue as much as by its
  // stores: ncu, H200, 2339 x 7091 x 1 had the issue slots 83% busy at 52 instructions a result when
  // each row's place was worked out anew in 64 bits).
  const auto row0_address =
      reinterpret_cast<std::uintptr_t>(ep.out.C) + static_cast<std::uintptr_t>(row0 * ep.out.ldc) * sizeof(float);
  const int first_shift = static_cast<int>(row0_address / sizeof(float) % 32);
  const int shift_step = static_cast<int>(ep.out.ldc % 32);
  const bool first_window = shifted0 == 0;
  const int n_rest = static_cast<int>(min_of<std::int64_t>(op.n - shifted0, S::kWindow));  // > -32
  // A window that is neither a row's first (lo = 0) nor its last (hi = kWindow) has every thread
  // column inside the output, in every row.
  const bool edge = first_window || n_rest < S::kWindow;
  constexpr int kPasses = S::kWindow / S::kThreads;
  const auto rows_loop = [&](auto kk, auto checked, auto store, auto beta) {
    constexpr int kK = decltype(kk)::value;
    constexpr bool kChecked = decltype(checked)::value;
    constexpr bool kStore = decltype(store)::value, kBeta = decltype(beta)::value;
    int shift = first_shift;
    float* window_c = nullptr;  // C's entry of row r at column shifted0 (maybe past n; only offset from)
    if constexpr (kStore) window_c = ep.out.C + row0 * ep.out.ldc + shifted0;
    for (int i = 0; i < rows; ++i) {
      const std::int64_t r = row0 + i;
      const float4 a = As[i];
      const int lo = first_window ? shift : 0, hi = min_of(S::kWindow, n_rest + shift);
      float old[kPasses];
#pragma unroll
      for (int q = 0; q < kPasses; ++q) {  // C's entries first (beta != 0), all in flight together
        const int j = q * S::kThreads + tid;
        old[q] = kBeta && (!kChecked || (j >= lo && j < hi)) ? window_c[j - shift] : 0.0f;
      }
#pragma unroll
      for (int q = 0; q < kPasses; ++q) {
        const int j = q * S::kThreads + tid;
        if (!kChecked || (j >= lo && j < hi))
          epi.apply1_at(window_c + (j - shift), r, shifted0 + (j - shift), outer_sum<kK>(a, Bs[j - shift + 32]), old[q],
                        kStore, kBeta);
      }
      shift = (shift + shift_step) & 31;
      if constexpr (kStore) window_c += ep.out.ldc;
    }
  };
  epi.with_interior_form([&](auto store, auto beta) {
    with_constant_k(k, [&](auto kk) {
      if (edge) rows_loop(kk, std::true_type{}, store, beta);
      else rows_loop(kk, std::false_type{}, store, beta);
    });
  });
  epi.template finish<S::kThreads>(tid);
}

inline Status launch_outer_product(const GemmCall& c) {
  if (c.splits != 1 || c.op.k < 1 || c.op.k > OuterProductShape::kMaxK) return Status::unsupported;
  Status status = Status::success;
  with_visitor(c.epilogue, [&](auto visitor) {
    // A thread visits its results one at a time in row-major order: the packed top-2 streams.
    using V = typename StreamingForm<typename decltype(visitor)::type>::type;
    const std::int64_t blocks = ceil_div<std::int64_t>(c.op.m, kOuterRows<V>) * OuterProductShape::windows(c.op.n);
    if (blocks <= 0 || blocks > INT_MAX) {
      status = Status::unsupported;
      return;
    }
    outer_product_kernel<V>
        <<<static_cast<unsigned>(blocks), OuterProductShape::kThreads, 0, c.stream>>>(c.op, epilogue_params<V>(c));
  });
  GPUPRIMS_TRY(status);
  GPUPRIMS_LAUNCH_CHECK();
  return Status::success;
}

inline Status outer_product_occupancy(int* blocks_per_sm) {
  return status_from(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      blocks_per_sm, outer_product_kernel<StoreOnlyVisitor>, OuterProductShape::kThreads, 0));
}

}  // namespace gpuprims::detail
