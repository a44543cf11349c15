#pragma once
// Rung 8, warp tiling: the block tile is split into warp tiles (32 x 64), and inside a warp the 32
// lanes form a 4 x 8 grid that each own 2 x 2 sub-tiles of 4 x 4 results. Per k step a warp then
// reads only 4 distinct float4 of A and 8 of B (broadcast), one wavefront each, instead of rung 7's
// scattered reads; results leave as coalesced 128-byte rows. Tiles are visited in L2-friendly groups.
#include <cstdint>

#include "gemm/src/detail/launch.cuh"
#include "gemm/src/detail/warp_tile.cuh"
#include "gemm/src/tuning.hpp"

namespace gpuprims::detail {

template <class Cfg, bool kVec, class Visitor>
__global__ void __launch_bounds__(Cfg::kThreads, Cfg::kMinBlocksPerSm)
    warptile_kernel(GemmOperands op, EpilogueParams<Visitor> ep) {
  using Loader = SlabLoader<Cfg, kVec>;
  __shared__ __align__(16) float As[Loader::ATile::kFloats];
  __shared__ __align__(16) float Bs[Cfg::BK * Cfg::BN];

  const TileCoord tile = tile_coord(blockIdx.x, ceil_div<std::int64_t>(op.m, Cfg::BM),
                                    ceil_div<std::int64_t>(op.n, Cfg::BN), Cfg::kGroupM);
  const std::int64_t row0 = tile.tm * Cfg::BM, col0 = tile.tn * Cfg::BN;
  const int tid = threadIdx.x;
  Loader loader(op, row0, col0, tid);
  const WarpTilePosition<Cfg> pos(tid);

  const float prefetched = Epilogue<Visitor>::prefetch(ep);
  float acc[Cfg::TM][Cfg::TN] = {};
  for (std::int64_t k_left = op.k; k_left > 0; k_left -= Cfg::BK) {
    loader.load(op, slab_depth<Cfg::BK>(k_left));
    loader.store(As, Bs);
    __syncthreads();
    warp_tile_fma<Cfg>(As, Bs, pos, acc);
    __syncthreads();
  }
  Epilogue<Visitor> epi(ep, prefetched);
  warp_tile_epilogue<Cfg>(epi, acc, pos, row0, col0);
  epi.template finish<Cfg::kThreads>(tid);
}

template <class Cfg>
Status launch_warptile(const GemmCall& c) {
  unsigned blocks = 0;
  GPUPRIMS_TRY(tile_grid(c, Cfg::BM, Cfg::BN, &blocks));
  return launch_by_vec_and_epilogue(c, [&](auto vec, auto visitor) {
    using V = typename decltype(visitor)::type;
    warptile_kernel<Cfg, decltype(vec)::value, V><<<blocks, Cfg::kThreads, 0, c.stream>>>(c.op, epilogue_params<V>(c));
  });
}

}  // namespace gpuprims::detail
