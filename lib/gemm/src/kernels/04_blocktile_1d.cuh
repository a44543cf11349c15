#pragma once
// Rung 4, 1D block tiling: each thread computes TM = 8 results down one column of a 64 x 64 tile. The
// B value of each k step sits in a register and is reused TM times, so shared-memory loads per FMA
// drop from 2 to about 1 + 1/TM and the kernel stops being bound by shared-memory bandwidth.
#include <cstdint>

#include "gemm/src/detail/launch.cuh"
#include "gemm/src/detail/tile_load.cuh"
#include "gemm/src/epilogue/epilogue.cuh"
#include "gemm/src/tuning.hpp"

namespace gpuprims::detail {

template <class Visitor>
__global__ void __launch_bounds__(BlockTile1DConfig::kThreads)
    blocktile_1d_kernel(GemmOperands op, EpilogueParams<Visitor> ep) {
  using Cfg = BlockTile1DConfig;
  constexpr int BM = Cfg::BM, BN = Cfg::BN, BK = Cfg::BK, TM = Cfg::TM;
  static_assert(BM * BK == Cfg::kThreads && BK * BN == Cfg::kThreads, "one A and one B element per thread");
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];

  [[maybe_unused]] const auto [m, n, k, A, lda, B, ldb, k_split] = op;  // rungs 1-8 never split k
  const TileCoord tile = tile_coord(blockIdx.x, ceil_div<std::int64_t>(m, BM), ceil_div<std::int64_t>(n, BN), 1);
  const std::int64_t row0 = tile.tm * BM, col0 = tile.tn * BN;
  const int tid = threadIdx.x;
  const int thread_col = tid % BN, thread_row = tid / BN;
  const int a_row = tid / BK, a_col = tid % BK;
  const int b_row = tid / BN, b_col = tid % BN;

  const float prefetched = Epilogue<Visitor>::prefetch(ep);
  float acc[TM] = {};
  for (std::int64_t k0 = 0; k0 < k; k0 += BK) {
    As[a_row * BK + a_col] = load_or_zero(A, lda, row0 + a_row, k0 + a_col, m, k);
    Bs[b_row * BN + b_col] = load_or_zero(B, ldb, k0 + b_row, col0 + b_col, k, n);
    __syncthreads();
#pragma unroll
    for (int p = 0; p < BK; ++p) {
      const float b = Bs[p * BN + thread_col];
#pragma unroll
      for (int i = 0; i < TM; ++i) acc[i] += As[(thread_row * TM + i) * BK + p] * b;
    }
    __syncthreads();
  }
  Epilogue<Visitor> epi(ep, prefetched);
#pragma unroll
  for (int i = 0; i < TM; ++i) epi.apply1(row0 + thread_row * TM + i, col0 + thread_col, acc[i]);
  epi.template finish<Cfg::kThreads>(tid);
}

inline Status launch_blocktile_1d(const GemmCall& c) {
  using Cfg = BlockTile1DConfig;
  unsigned blocks = 0;
  GPUPRIMS_TRY(tile_grid(c, Cfg::BM, Cfg::BN, &blocks));
  return launch_by_epilogue(c, [&](auto visitor) {
    using V = typename decltype(visitor)::type;
    blocktile_1d_kernel<V><<<blocks, Cfg::kThreads, 0, c.stream>>>(c.op, epilogue_params<V>(c));
  });
}

}  // namespace gpuprims::detail
