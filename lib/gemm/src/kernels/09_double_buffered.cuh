#pragma once
// Rung 9, double buffering: two shared-memory stages. The global loads of slab s+1 are issued into
// registers before the FMAs on slab s (which reads the other stage), and stored after them, so global
// latency hides behind arithmetic and one barrier per slab suffices instead of rung 8's two.
#include <cstdint>

#include "gemm/src/detail/launch.cuh"
#include "gemm/src/detail/warp_tile.cuh"
#include "gemm/src/tuning.hpp"

namespace gpuprims::detail {

template <class Cfg, bool kVec, EpilogueMode kMode>
__global__ void __launch_bounds__(Cfg::kThreads, Cfg::kMinBlocksPerSm)
    double_buffered_kernel(GemmOperands op, EpilogueParams ep) {
  using Loader = SlabLoader<Cfg, kVec>;
  // Dynamic, so a configuration may take 48 KB or more (static arrays stop at 48 KB).
  // Stage s holds A's slab then B's at smem + s * kStage (arithmetic, not an array of pointers, so
  // the run-time stage index stays in registers).
  extern __shared__ float4 smem_f4[];
  float* const smem = reinterpret_cast<float*>(smem_f4);
  constexpr int kAFloats = Loader::ATile::kFloats;
  constexpr int kStage = kAFloats + Cfg::BK * Cfg::BN;

  const TileCoord tile = tile_coord(blockIdx.x, ceil_div<std::int64_t>(op.m, Cfg::BM),
                                    ceil_div<std::int64_t>(op.n, Cfg::BN), Cfg::kGroupM);
  const std::int64_t row0 = tile.tm * Cfg::BM, col0 = tile.tn * Cfg::BN;
  const int tid = threadIdx.x;
  Loader loader(op, row0, col0, tid);
  const WarpTilePosition<Cfg> pos(tid);

  const float prefetched = Epilogue<kMode>::prefetch(ep);
  float acc[Cfg::TM][Cfg::TN] = {};
  loader.load(op, slab_depth<Cfg::BK>(op.k));  // op.k >= 1: k == 0 never gets here
  loader.store(smem, smem + kAFloats);
  __syncthreads();
  int stage = 0;
  for (std::int64_t k_left = op.k; k_left > 0; k_left -= Cfg::BK, stage ^= 1) {
    float* const cur = smem + stage * kStage;
    float* const next = smem + (stage ^ 1) * kStage;
    const bool more = k_left > Cfg::BK;
    if (more) loader.load(op, slab_depth<Cfg::BK>(k_left - Cfg::BK));  // in flight during the FMAs below
    warp_tile_fma<Cfg>(cur, cur + kAFloats, pos, acc);
    // The next stage was last read in the previous iteration, which every thread left at the barrier
    // below.
    if (more) loader.store(next, next + kAFloats);
    __syncthreads();
  }
  Epilogue<kMode> epi(ep, prefetched);
  warp_tile_epilogue<Cfg>(epi, acc, pos, row0, col0);
  epi.template finish<Cfg::kThreads>(tid);
}

// Shared memory of one block: two stages of the A and B slabs.
template <class Cfg>
constexpr int double_buffered_smem_bytes() {
  return 2 * (Cfg::BK * Cfg::BM + Cfg::BK * Cfg::BN) * static_cast<int>(sizeof(float));
}

template <class Cfg>
Status launch_double_buffered(const GemmCall& c) {
  unsigned blocks = 0;
  GPUPRIMS_TRY(tile_grid(c, Cfg::BM, Cfg::BN, &blocks));
  constexpr int kSmem = double_buffered_smem_bytes<Cfg>();
  Status attr = Status::success;
  const Status launched = launch_by_vec_and_epilogue(c, [&](auto vec, auto mode) {
    auto* kernel = &double_buffered_kernel<Cfg, decltype(vec)::value, decltype(mode)::value>;
    // From 48 KB on a kernel must opt in to more dynamic shared memory (per device; cheap to repeat).
    if constexpr (kSmem >= 48 * 1024) attr = status_from(cudaFuncSetAttribute(
        kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem));
    if (attr == Status::success) kernel<<<blocks, Cfg::kThreads, kSmem, c.stream>>>(c.op, c.epi);
  });
  return attr != Status::success ? attr : launched;
}

}  // namespace gpuprims::detail
