#pragma once
// Rung 5, 2D block tiling: each thread computes an 8 x 8 register tile of a 128 x 128 block tile as
// outer products: per k step it loads TM values of A and TN values of B into registers and does
// TM * TN FMAs, so shared-memory traffic per FMA falls to (TM + TN) / (TM * TN) = 1/4.
#include <cstdint>

#include "gemm/src/detail/launch.cuh"
#include "gemm/src/detail/tile_load.cuh"
#include "gemm/src/epilogue/epilogue.cuh"
#include "gemm/src/tuning.hpp"

namespace gpuprims::detail {

template <class Visitor>
__global__ void __launch_bounds__(BlockTile2DConfig::kThreads)
    blocktile_2d_kernel(GemmOperands op, EpilogueParams<Visitor> ep) {
  using Cfg = BlockTile2DConfig;
  constexpr int BM = Cfg::BM, BN = Cfg::BN, BK = Cfg::BK, TM = Cfg::TM, TN = Cfg::TN;
  constexpr int kThreads = Cfg::kThreads;
  static_assert(kThreads % BK == 0 && kThreads % BN == 0, "whole rows per load pass");
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];

  [[maybe_unused]] const auto [m, n, k, A, lda, B, ldb, k_split] = op;  // rungs 1-8 never split k
  const TileCoord tile = tile_coord(blockIdx.x, ceil_div<std::int64_t>(m, BM), ceil_div<std::int64_t>(n, BN), 1);
  const std::int64_t row0 = tile.tm * BM, col0 = tile.tn * BN;
  const int tid = threadIdx.x;
  const int thread_col = tid % (BN / TN), thread_row = tid / (BN / TN);
  const int a_row = tid / BK, a_col = tid % BK;
  const int b_row = tid / BN, b_col = tid % BN;
  constexpr int kARowStride = kThreads / BK, kBRowStride = kThreads / BN;

  const float prefetched = Epilogue<Visitor>::prefetch(ep);
  float acc[TM][TN] = {};
  float reg_m[TM], reg_n[TN];
  for (std::int64_t k0 = 0; k0 < k; k0 += BK) {
#pragma unroll
    for (int r = 0; r < BM; r += kARowStride)
      As[(a_row + r) * BK + a_col] = load_or_zero(A, lda, row0 + a_row + r, k0 + a_col, m, k);
#pragma unroll
    for (int r = 0; r < BK; r += kBRowStride)
      Bs[(b_row + r) * BN + b_col] = load_or_zero(B, ldb, k0 + b_row + r, col0 + b_col, k, n);
    __syncthreads();
#pragma unroll
    for (int p = 0; p < BK; ++p) {
#pragma unroll
      for (int i = 0; i < TM; ++i) reg_m[i] = As[(thread_row * TM + i) * BK + p];
#pragma unroll
      for (int j = 0; j < TN; ++j) reg_n[j] = Bs[p * BN + thread_col * TN + j];
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += reg_m[i] * reg_n[j];
    }
    __syncthreads();
  }
  Epilogue<Visitor> epi(ep, prefetched);
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) epi.apply1(row0 + thread_row * TM + i, col0 + thread_col * TN + j, acc[i][j]);
  epi.template finish<kThreads>(tid);
}

inline Status launch_blocktile_2d(const GemmCall& c) {
  using Cfg = BlockTile2DConfig;
  unsigned blocks = 0;
  GPUPRIMS_TRY(tile_grid(c, Cfg::BM, Cfg::BN, &blocks));
  return launch_by_epilogue(c, [&](auto visitor) {
    using V = typename decltype(visitor)::type;
    blocktile_2d_kernel<V><<<blocks, Cfg::kThreads, 0, c.stream>>>(c.op, epilogue_params<V>(c));
  });
}

}  // namespace gpuprims::detail
