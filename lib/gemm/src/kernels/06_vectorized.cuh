#pragma once
// Rung 6, vectorized: the 2D-tiled kernel with 128-bit accesses. Each thread fetches A and B with one
// float4 load each per slab (when pointers and leading dimensions allow it; otherwise the whole call
// takes the scalar fallback), and A is stored transposed (As[k][m]) so the compute loop reads both
// register fragments with float4 shared loads: 4x fewer load instructions. The transposing store has
// bank conflicts, which rung 7 removes; the A layout is a template parameter for that reason.
#include <cstdint>

#include "gemm/src/detail/launch.cuh"
#include "gemm/src/detail/smem_layout.hpp"
#include "gemm/src/detail/tile_load.cuh"
#include "gemm/src/epilogue/epilogue.cuh"
#include "gemm/src/tuning.hpp"

namespace gpuprims::detail {

template <class ATile, bool kVec, class Visitor>
__global__ void __launch_bounds__(BlockTile2DConfig::kThreads, BlockTile2DConfig::kMinBlocksPerSm)
    vectorized_kernel(GemmOperands op, EpilogueParams<Visitor> ep) {
  using Cfg = BlockTile2DConfig;
  constexpr int BM = Cfg::BM, BN = Cfg::BN, BK = Cfg::BK, TM = Cfg::TM, TN = Cfg::TN;
  constexpr int kThreads = Cfg::kThreads;
  static_assert(BM * BK / 4 == kThreads && BK * BN / 4 == kThreads, "one float4 of A and of B per thread");
  static_assert(TM == 8 && TN == 8, "two float4 fragments per operand");
  __shared__ __align__(16) float As[ATile::kFloats];
  __shared__ __align__(16) float Bs[BK * BN];

  [[maybe_unused]] const auto [m, n, k, A, lda, B, ldb, k_split] = op;  // rungs 1-8 never split k
  const TileCoord tile = tile_coord(blockIdx.x, ceil_div<std::int64_t>(m, BM), ceil_div<std::int64_t>(n, BN), 1);
  const std::int64_t row0 = tile.tm * BM, col0 = tile.tn * BN;
  const int tid = threadIdx.x;
  const int thread_col = tid % (BN / TN), thread_row = tid / (BN / TN);
  const int a_row = tid / (BK / 4), a_k4 = (tid % (BK / 4)) * 4;
  const int b_row = tid / (BN / 4), b_c4 = (tid % (BN / 4)) * 4;
  const float* a_src = A + (row0 + a_row) * lda + a_k4;
  const float* b_src = B + static_cast<std::int64_t>(b_row) * ldb + col0 + b_c4;
  const bool a_row_ok = row0 + a_row < m;

  const float prefetched = Epilogue<Visitor>::prefetch(ep);
  float acc[TM][TN] = {};
  for (std::int64_t k0 = 0; k0 < k; k0 += BK) {
    const float4 a = load4_valid<kVec>(a_src + k0, a_row_ok, k - (k0 + a_k4));
    const float4 b = load4_valid<kVec>(b_src + k0 * ldb, k0 + b_row < k, n - (col0 + b_c4));
    As[ATile::offset(a_k4 + 0, a_row)] = a.x;
    As[ATile::offset(a_k4 + 1, a_row)] = a.y;
    As[ATile::offset(a_k4 + 2, a_row)] = a.z;
    As[ATile::offset(a_k4 + 3, a_row)] = a.w;
    *reinterpret_cast<float4*>(&Bs[b_row * BN + b_c4]) = b;
    __syncthreads();
#pragma unroll
    for (int p = 0; p < BK; ++p) {
      float reg_m[TM], reg_n[TN];
      *reinterpret_cast<float4*>(&reg_m[0]) = *reinterpret_cast<const float4*>(&As[ATile::offset(p, thread_row * TM)]);
      *reinterpret_cast<float4*>(&reg_m[4]) =
          *reinterpret_cast<const float4*>(&As[ATile::offset(p, thread_row * TM + 4)]);
      *reinterpret_cast<float4*>(&reg_n[0]) = *reinterpret_cast<const float4*>(&Bs[p * BN + thread_col * TN]);
      *reinterpret_cast<float4*>(&reg_n[4]) = *reinterpret_cast<const float4*>(&Bs[p * BN + thread_col * TN + 4]);
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += reg_m[i] * reg_n[j];
    }
    __syncthreads();
  }
  Epilogue<Visitor> epi(ep, prefetched);
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const std::int64_t r = row0 + thread_row * TM + i, c = col0 + thread_col * TN;
    epi.apply4(r, c, make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]));
    epi.apply4(r, c + 4, make_float4(acc[i][4], acc[i][5], acc[i][6], acc[i][7]));
  }
  epi.template finish<kThreads>(tid);
}

template <class ATile>
Status launch_vectorized(const GemmCall& c) {
  using Cfg = BlockTile2DConfig;
  unsigned blocks = 0;
  GPUPRIMS_TRY(tile_grid(c, Cfg::BM, Cfg::BN, &blocks));
  return launch_by_vec_and_epilogue(c, [&](auto vec, auto visitor) {
    using V = typename decltype(visitor)::type;
    vectorized_kernel<ATile, decltype(vec)::value, V>
        <<<blocks, Cfg::kThreads, 0, c.stream>>>(c.op, epilogue_params<V>(c));
  });
}

}  // namespace gpuprims::detail
