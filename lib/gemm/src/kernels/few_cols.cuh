#pragma once
// The tuned rung's path for outputs of at most kCols columns (n <= kCols: a matrix times a vector or
// a few vectors). Tiles would be mostly empty columns, and a row-major A cannot be read along m with
// wide loads; here each warp owns kRowsPerWarp rows of C, its lanes split k into float4 pieces and
// stream those rows of A exactly once with 16-byte evict-first loads (LoadPolicy::stream). B's few
// columns are staged in shared memory transposed (k contiguous), so the lanes of a warp read
// consecutive k as 512 contiguous bytes, with no bank conflicts. A butterfly of shuffles sums the lanes
// in a fixed order (every lane ends with the same bits). Long k is split over block rows (k_range.cuh)
// when there are too few rows to fill the GPU.
// A matrix times one vector (n == 1) computes only that column (kUsedCols = 1): a small product is a
// chain of dependent instructions per warp, and the three empty columns tripled its FMAs, shuffles
// and epilogue (H100, 84 x 1 x 196: 5.6 us of kernel time against 3.0 for a plain warp-per-row GEMV).
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

// The variant whose kernel also has a one-column form, for the n == 1 calls the pick gives it.
inline constexpr int kFewColsOneColVariant = 4;

// acc[r][c] += the four products of one pass: A's float4 of row r, B's float4 of column c at k p, for
// the first kUsedCols of the kCols columns Bt holds.
template <int kR, int kUsedCols, int kCols, int kPitch>
__device__ __forceinline__ void few_cols_pass(float (&acc)[kR][kUsedCols], const float4 (&av)[kR],
                                              const float (&Bt)[kCols * kPitch], int p) {
#pragma unroll
  for (int c = 0; c < kUsedCols; ++c) {
    const float4 bv = *reinterpret_cast<const float4*>(&Bt[c * kPitch + p]);
#pragma unroll
    for (int r = 0; r < kR; ++r) {
      acc[r][c] = fmaf(av[r].x, bv.x, acc[r][c]);
      acc[r][c] = fmaf(av[r].y, bv.y, acc[r][c]);
      acc[r][c] = fmaf(av[r].z, bv.z, acc[r][c]);
      acc[r][c] = fmaf(av[r].w, bv.w, acc[r][c]);
    }
  }
}

// kPasses: 1, or for a latency-bound grid FewColsShape::passes(kCols) passes of the warp's lanes
// whose A loads are issued together, the first batch before B is staged (a short product is a chain
// of memory latencies: one per pass plus the staging's when passes go one by one). Same FMAs in the
// same order either way, so the same bits. kUsedCols: kCols, or 1 when n == 1 (the columns it
// computes; the block keeps kCols's rows and shared memory, so the grid is the same).
template <int kCols, int kUsedCols, int kPasses, bool kVec, class Visitor>
__global__ void __launch_bounds__(FewColsShape::kThreads, kPasses > 1 ? 2 : 0)  // 0: no minimum (registers as before)
    few_cols_kernel(GemmOperands op, EpilogueParams<Visitor> ep) {
  using S = FewColsShape;
  constexpr int kChunk = S::chunk(kCols), kPitch = kChunk + 4;  // pitch keeps float4 rows aligned
  constexpr int kR = S::rows_per_warp(kCols);
  constexpr int kStep = kWarpSize * 4;  // k of one pass of the warp's lanes
  take_k_range(op, ep.out);
  ::gpuprims::device::allow_dependent_launch();  // a split-K reduction after this kernel may be scheduled early
  __shared__ __align__(16) float Bt[kCols * kPitch];
  const int warp = threadIdx.x / kWarpSize, lane = threadIdx.x % kWarpSize;
  const std::int64_t row0 = static_cast<std::int64_t>(blockIdx.x) * S::rows_per_block(kCols) + warp * kR;
  const float prefetched = Epilogue<Visitor>::prefetch(ep);
  static_assert(kUsedCols == kCols || kUsedCols == 1, "every column, or the one of a matrix-vector product");
  float acc[kR][kUsedCols] = {};

  for (std::int64_t k0 = 0; k0 < op.k; k0 += kChunk) {
    const int depth = static_cast<int>(min_of<std::int64_t>(kChunk, op.k - k0));
    float4 batch[kPasses][kR];  // kPasses > 1: the A loads of kPasses passes
    const auto load_batch = [&](int p0) {
      const float* a = op.A + row0 * op.lda + k0;
#pragma unroll
      for (int u = 0; u < kPasses; ++u)
#pragma unroll
        for (int r = 0; r < kR; ++r)  // zeros past depth
          batch[u][r] = load4_valid<kVec, LoadPolicy::stream>(a + r * op.lda + p0 + u * kStep, row0 + r < op.m,
                                                              depth - p0 - u * kStep);
    };
    if constexpr (kPasses > 1) load_batch(lane * 4);
    __syncthreads();  // every warp is done with the previous chunk
    // B[k0 .. k0 + depth)[0 .. kCols) transposed into Bt[col][k], zero past n and past depth, as far
    // as the lanes read (whole float4 of k): a short k stages only what it has, not the whole chunk.
    const float* b = op.B + k0 * op.ldb;
    const int staged = round_up(depth, 4) * kUsedCols;
#pragma unroll 4
    for (int i = threadIdx.x; i < staged; i += S::kThreads) {
      const int p = i / kUsedCols, c = i % kUsedCols;
      Bt[c * kPitch + p] = (p < depth && c < op.n) ? b[p * op.ldb + c] : 0.0f;
    }
    __syncthreads();
    if constexpr (kPasses == 1) {
      const float* a = op.A + row0 * op.lda + k0;
      for (int p = lane * 4; p < depth; p += kStep) {
        float4 av[kR];
#pragma unroll
        for (int r = 0; r < kR; ++r)
          av[r] = load4_valid<kVec, LoadPolicy::stream>(a + r * op.lda + p, row0 + r < op.m, depth - p);
        few_cols_pass<kR, kUsedCols, kCols, kPitch>(acc, av, Bt, p);
      }
    } else {
      for (int p0 = lane * 4; p0 < depth; p0 += kPasses * kStep) {
        if (p0 != lane * 4) load_batch(p0);
#pragma unroll
        for (int u = 0; u < kPasses; ++u) {
          if (p0 + u * kStep >= depth) break;
          few_cols_pass<kR, kUsedCols, kCols, kPitch>(acc, batch[u], Bt, p0 + u * kStep);
        }
      }
    }
  }
  // Sum over the lanes: a butterfly, so every lane holds every total, bitwise the same.
#pragma unroll
  for (int r = 0; r < kR; ++r)
#pragma unroll
    for (int c = 0; c < kUsedCols; ++c)
#pragma unroll
      for (int offset = kWarpSize / 2; offset > 0; offset /= 2)
        acc[r][c] += __shfl_xor_sync(kFullMask, acc[r][c], offset);
  // Lane l applies results l, l + 32, ... of the warp's kR x kUsedCols (compile-time indices: no local
  // memory); entries past m or n are ignored by the epilogue.
  Epilogue<Visitor> epi(ep, prefetched);
#pragma unroll
  for (int i = 0; i < kR * kUsedCols; ++i)
    if (i % kWarpSize == lane) epi.apply1(row0 + i / kUsedCols, i % kUsedCols, acc[i / kUsedCols][i % kUsedCols]);
  epi.template finish<S::kThreads>(threadIdx.x);
}

template <int kCols>
Status launch_few_cols(const GemmCall& c) {
  const std::int64_t blocks = ceil_div<std::int64_t>(c.op.m, FewColsShape::rows_per_block(kCols));
  if (c.op.n > kCols || blocks <= 0 || blocks > INT_MAX) return Status::unsupported;
  const bool latency_bound = blocks * c.splits <= FewColsShape::kLatencyBoundBlocks;
  const bool one_col = c.op.n == 1;  // taken only where the variant has the form (below)
  // B is staged one scalar at a time, so 16-byte loads need only A's alignment (a split's k offset is a
  // multiple of the path's k_align, 4, which keeps it).
  GemmCall call = c;
  call.ab_vec4 = is_aligned(c.op.A, 16) && c.op.lda % 4 == 0;
  return launch_by_vec_and_epilogue(call, [&](auto vec, auto visitor) {
    using V = typename decltype(visitor)::type;
    constexpr bool kVec = decltype(vec)::value;
    constexpr int kLatencyPasses = FewColsShape::passes(kCols), kThreads = FewColsShape::kThreads;
    const dim3 grid(static_cast<unsigned>(blocks), c.splits);
    const auto params = epilogue_params<V>(call);
    if constexpr (kCols == kFewColsOneColVariant) {
      if (one_col && latency_bound)
        return few_cols_kernel<kCols, 1, kLatencyPasses, kVec, V><<<grid, kThreads, 0, c.stream>>>(call.op, params);
      if (one_col) return few_cols_kernel<kCols, 1, 1, kVec, V><<<grid, kThreads, 0, c.stream>>>(call.op, params);
    }
    if (latency_bound)
      few_cols_kernel<kCols, kCols, kLatencyPasses, kVec, V><<<grid, kThreads, 0, c.stream>>>(call.op, params);
    else few_cols_kernel<kCols, kCols, 1, kVec, V><<<grid, kThreads, 0, c.stream>>>(call.op, params);
  });
}

template <int kCols>
Status few_cols_occupancy(int* blocks_per_sm) {
  return status_from(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      blocks_per_sm, few_cols_kernel<kCols, kCols, 1, true, StoreOnlyVisitor>, FewColsShape::kThreads, 0));
}

}  // namespace gpuprims::detail
