#pragma once
// The tuned rung's path for outputs of at most kRows rows (m <= kRows: a row vector, or a few rows,
// times a wide B). Rung 9's tiles would spend most of their FMAs and shared memory on rows that do
// not exist; here each lane owns four columns of C for all kRows rows and streams its four columns of
// B once with 16-byte loads, with the rows of A read from shared memory (one broadcast float4 per row
// for four k steps). The kernel is bound by how fast B can be read, so its k loop must keep many loads
// in flight: the eight warps of a block share one 128-column strip and take every eighth group of
// k rows each, then add their partial sums through shared memory in warp order (a fixed order: the
// same bits every run). Long k is also split over block rows (k_range.cuh) when the strips alone do
// not give every SM work. For the fewest rows (FewRowsShape::prefetch) each lane loads the next step's
// rows of B before it multiplies this step's, so two steps' loads are in flight.
#include <cstdint>

#include <gpuprims/device/dependent_launch.cuh>

#include "common/device/warp_reduce.cuh"
#include "common/src/cuda_check.hpp"
#include "common/src/math.hpp"
#include "gemm/src/detail/k_range.cuh"
#include "gemm/src/detail/launch.cuh"
#include "gemm/src/detail/tile_load.cuh"
#include "gemm/src/epilogue/epilogue.cuh"
#include "gemm/src/tuning.hpp"

namespace gpuprims::detail {

// acc[0..3] += a * b (one row of A times four columns of B).
__device__ __forceinline__ void fma4(float (&acc)[4], float a, const float4 b) {
  acc[0] = fmaf(a, b.x, acc[0]);
  acc[1] = fmaf(a, b.y, acc[1]);
  acc[2] = fmaf(a, b.z, acc[2]);
  acc[3] = fmaf(a, b.w, acc[3]);
}

template <int kRows, bool kVec, class Visitor>
__global__ void __launch_bounds__(FewRowsShape::kThreads, FewRowsShape::min_blocks(kRows))
    few_rows_kernel(GemmOperands op, EpilogueParams<Visitor> ep) {
  using S = FewRowsShape;
  constexpr int kUnroll = S::unroll(kRows);
  constexpr int kWarps = S::kThreads / kWarpSize;
  constexpr int kChunk = S::chunk(kRows), kStep = S::step(kRows);
  constexpr bool kPrefetch = S::prefetch(kRows);
  take_k_range(op, ep.out);
  ::gpuprims::device::allow_dependent_launch();  // a split-K reduction after this kernel may be scheduled early
  __shared__ __align__(16) float As[kRows * kChunk];
  const int tid = threadIdx.x, warp = tid / kWarpSize, lane = tid % kWarpSize;
  const std::int64_t col = static_cast<std::int64_t>(blockIdx.x) * S::kCols + lane * 4;
  const int cols = valid_in_vec4(op.n - col);
  const float prefetched = Epilogue<Visitor>::prefetch(ep);
  float acc[kRows][4] = {};

  // Warp w takes k rows [w * kUnroll, (w + 1) * kUnroll) of every kStep: kUnroll rows of B per lane,
  // those past k read as zero. kStep divides kChunk, so a warp's next rows after a chunk's last are
  // the next chunk's first (what the prefetch loads). Each element of B is read by this block alone,
  // once: an evict-first load (LoadPolicy::stream). A's rows, which every strip's blocks read, are
  // loaded as usual.
  const float* const b_col = op.B + col;
  const auto load_rows = [&](float4(&bv)[kUnroll], std::int64_t g) {
#pragma unroll
    for (int u = 0; u < kUnroll; ++u)
      bv[u] = load4_valid<kVec, LoadPolicy::stream>(b_col + (g + u) * op.ldb, g + u < op.k, cols);
  };
  float4 bv[kUnroll];
  if constexpr (kPrefetch) load_rows(bv, warp * kUnroll);
  for (std::int64_t k0 = 0; k0 < op.k; k0 += kChunk) {
    const int depth = static_cast<int>(min_of<std::int64_t>(kChunk, op.k - k0));
    // A's rows for this chunk into shared memory, zero past m and past the chunk's depth.
    __syncthreads();  // every warp is done with the previous chunk
#pragma unroll
    for (int j = 0; j < kRows * kChunk / 4 / S::kThreads; ++j) {
      const int i = tid + j * S::kThreads;
      const int r = i / (kChunk / 4), q = (i % (kChunk / 4)) * 4;
      *reinterpret_cast<float4*>(&As[r * kChunk + q]) =
          load4_valid<kVec>(op.A + r * op.lda + k0 + q, r < op.m, depth - q);
    }
    __syncthreads();
    for (int p = warp * kUnroll; p < depth; p += kStep) {
      float4 next[kUnroll];  // the next step's rows (prefetch only)
      if constexpr (kPrefetch) load_rows(next, k0 + p + kStep);
      else load_rows(bv, k0 + p);
#pragma unroll
      for (int u = 0; u < kUnroll; u += 4)
#pragma unroll
        for (int r = 0; r < kRows; ++r) {
          const float4 a = *reinterpret_cast<const float4*>(&As[r * kChunk + p + u]);
          fma4(acc[r], a.x, bv[u]);
          fma4(acc[r], a.y, bv[u + 1]);
          fma4(acc[r], a.z, bv[u + 2]);
          fma4(acc[r], a.w, bv[u + 3]);
        }
      if constexpr (kPrefetch)
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) bv[u] = next[u];
    }
  }

  // The warps' partial sums, kGroup rows at a time, through As (free now): warp w's float4 of row g at
  // sums[(w * kGroup + g) * 32 + lane]. Then warp g adds row g's eight partials in warp order and
  // applies the epilogue to it, four columns per lane.
  constexpr int kGroup = kRows / 4;
  static_assert(kGroup <= kWarps && kWarps * kGroup * kWarpSize * 4 <= kRows * kChunk, "sums fit in As");
  float4* const sums = reinterpret_cast<float4*>(As);
  Epilogue<Visitor> epi(ep, prefetched);
#pragma unroll
  for (int r0 = 0; r0 < kRows; r0 += kGroup) {
    __syncthreads();  // As is free: the k loop is done, or the previous group has been read
#pragma unroll
    for (int g = 0; g < kGroup; ++g)
      sums[(warp * kGroup + g) * kWarpSize + lane] =
          make_float4(acc[r0 + g][0], acc[r0 + g][1], acc[r0 + g][2], acc[r0 + g][3]);
    __syncthreads();
    if (warp < kGroup) {
      float4 total = sums[warp * kWarpSize + lane];
#pragma unroll
      for (int w = 1; w < kWarps; ++w) {
        const float4 v = sums[(w * kGroup + warp) * kWarpSize + lane];
        total.x += v.x;
        total.y += v.y;
        total.z += v.z;
        total.w += v.w;
      }
      epi.apply4(r0 + warp, col, total);
    }
  }
  epi.template finish<S::kThreads>(tid);
}

template <int kRows>
Status launch_few_rows(const GemmCall& c) {
  const std::int64_t blocks = ceil_div<std::int64_t>(c.op.n, FewRowsShape::kCols);
  if (c.op.m > kRows || blocks <= 0 || blocks > INT_MAX) return Status::unsupported;
  return launch_by_vec_and_epilogue(c, [&](auto vec, auto visitor) {
    using V = typename decltype(visitor)::type;
    few_rows_kernel<kRows, decltype(vec)::value, V>
        <<<dim3(static_cast<unsigned>(blocks), c.splits), FewRowsShape::kThreads, 0, c.stream>>>(c.op,
                                                                                                 epilogue_params<V>(c));
  });
}

template <int kRows>
Status few_rows_occupancy(int* blocks_per_sm) {
  return status_from(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      blocks_per_sm, few_rows_kernel<kRows, true, StoreOnlyVisitor>, FewRowsShape::kThreads, 0));
}

}  // namespace gpuprims::detail
