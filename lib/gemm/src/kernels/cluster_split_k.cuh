#pragma once
// Split-K in one launch (sm_90 thread-block clusters): the S blocks that split one output tile's k
// form a cluster. Each runs rung 9's main loop over its k range, leaves its partial tile in its own
// shared memory, and after a cluster barrier every block sums a 1/S share of the tile's partials, read
// from the S blocks' shared memory in split order, and sends the sums through the call's epilogue.
// The two-launch form (kernels/split_k_reduce.cuh) pays a second launch, a workspace round trip and a
// few microseconds for them, as much as the whole product on a small output with a long k. The sums
// are in a fixed order, so the bits are the same every run; no workspace, no atomics.
#include <cooperative_groups.h>

#include <climits>
#include <cstdint>

#include "gemm/src/kernels/09_double_buffered.cuh"
#include "gemm/src/plan.hpp"

namespace gpuprims::detail {

// Shared memory of one block: the main loop's two stages, then (reused) the BM x BN partial tile.
template <class Cfg>
constexpr int cluster_split_smem_bytes() {
  constexpr int tile = Cfg::BM * Cfg::BN * static_cast<int>(sizeof(float));
  return double_buffered_smem_bytes<Cfg>() > tile ? double_buffered_smem_bytes<Cfg>() : tile;
}

// Grid: tiles x splits blocks along x, clusters of `splits` consecutive blocks (one tile's splits, block
// rank = split). Compiled empty below sm_90, where the host never launches it (cluster_split_usable).
template <class Cfg, bool kVec, class Visitor>
__global__ void __launch_bounds__(Cfg::kThreads, Cfg::kMinBlocksPerSm)
    cluster_split_k_kernel(GemmOperands op, EpilogueParams<Visitor> ep) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  namespace cg = cooperative_groups;
  extern __shared__ float4 smem_f4[];
  float* const smem = reinterpret_cast<float*>(smem_f4);
  const cg::cluster_group cluster = cg::this_cluster();
  const int splits = static_cast<int>(cluster.num_blocks());
  const int split = static_cast<int>(cluster.block_rank());
  const std::int64_t k0 = static_cast<std::int64_t>(split) * op.k_split;
  op.A += k0;
  op.B += k0 * op.ldb;
  op.k = min_of(op.k_split, op.k - k0);  // >= 1: make_plan leaves no range empty

  const TileCoord tile = tile_coord(blockIdx.x / splits, ceil_div<std::int64_t>(op.m, Cfg::BM),
                                    ceil_div<std::int64_t>(op.n, Cfg::BN), Cfg::kGroupM);
  const std::int64_t row0 = tile.tm * Cfg::BM, col0 = tile.tn * Cfg::BN;
  const int tid = threadIdx.x;
  SlabLoader<Cfg, kVec> loader(op, row0, col0, tid);
  const WarpTilePosition<Cfg> pos(tid);
  const float prefetched = Epilogue<Visitor>::prefetch(ep);
  float acc[Cfg::TM][Cfg::TN] = {};
  double_buffered_mainloop<Cfg, kVec>(op, loader, smem, pos, row0, col0, acc);

  // The partial tile, row-major BM x BN, over the stages (every warp is past its last slab read).
  // A warp's float4 stores cover four rows of 32 consecutive floats: four wavefronts, no conflicts.
  __syncthreads();
  for_each_vec4<Cfg>(acc, pos, 0, 0, [&](std::int64_t r, std::int64_t c, float4 v, int, int) {
    *reinterpret_cast<float4*>(&smem[r * Cfg::BN + c]) = v;
  });
  cluster.sync();  // every split's partial tile is written and visible to the cluster

  // This block's share: float4 q = split, split + S, ... of the tile (consecutive threads on
  // consecutive float4s), each the sum of the S partials in split order.
  Epilogue<Visitor> epi(ep, prefetched);
  constexpr int kVecsPerRow = Cfg::BN / 4, kVecs = Cfg::BM * kVecsPerRow;
  const float* parts[kMaxClusterSplits];
#pragma unroll
  for (int s = 0; s < kMaxClusterSplits; ++s) parts[s] = cluster.map_shared_rank(smem, s < splits ? s : 0);
  for (int q = split * Cfg::kThreads + tid; q < kVecs; q += splits * Cfg::kThreads) {
    const int r = q / kVecsPerRow, c = (q % kVecsPerRow) * 4;
    float4 sum = *reinterpret_cast<const float4*>(parts[0] + r * Cfg::BN + c);
#pragma unroll
    for (int s = 1; s < kMaxClusterSplits; ++s) {
      if (s >= splits) break;
      const float4 v = *reinterpret_cast<const float4*>(parts[s] + r * Cfg::BN + c);
      sum = make_float4(sum.x + v.x, sum.y + v.y, sum.z + v.z, sum.w + v.w);
    }
    epi.apply4(row0 + r, col0 + c, sum);  // checks C's edges and its 16-byte access
  }
  cluster.sync();  // no block may exit (freeing its shared memory) while another still reads it
  epi.template finish<Cfg::kThreads>(tid);
#else
  (void)op;
  (void)ep;
#endif
}

// Launches the cluster form of rung 9's configuration Cfg: c.splits blocks per tile (2..8).
template <class Cfg>
Status launch_cluster_split_k(const GemmCall& c) {
  if (c.splits < 2 || c.splits > kMaxClusterSplits) return Status::invalid_argument;
  const std::int64_t tiles = tile_count(c.op.m, c.op.n, Cfg::BM, Cfg::BN);
  if (tiles <= 0 || tiles * c.splits > INT_MAX) return Status::unsupported;
  constexpr int kSmem = cluster_split_smem_bytes<Cfg>();
  static_assert(kSmem < 48 * 1024, "opt in to more than 48 KB of dynamic shared memory before launching");
  const ClusterLaunch launch(dim3(static_cast<unsigned>(tiles * c.splits)), Cfg::kThreads, kSmem, c.splits, c.stream);
  cudaError_t err = cudaSuccess;
  with_visitor(c.epilogue, [&](auto visitor) {
    using V = typename decltype(visitor)::type;
    const EpilogueParams<V> params = epilogue_params<V>(c);
    err = c.ab_vec4 ? cudaLaunchKernelEx(&launch.config, &cluster_split_k_kernel<Cfg, true, V>, c.op, params)
                    : cudaLaunchKernelEx(&launch.config, &cluster_split_k_kernel<Cfg, false, V>, c.op, params);
  });
  GPUPRIMS_CUDA_TRY(err);
  GPUPRIMS_LAUNCH_CHECK();
  return Status::success;
}

// Whether configuration Cfg's cluster form runs here: the kernel was built for sm_90 (a PTX JIT of an
// sm_80 build holds the empty body) and a cluster of the largest split count fits on the device.
template <class Cfg>
Status cluster_split_usable(bool* usable) {
  *usable = false;
  constexpr auto kKernel = &cluster_split_k_kernel<Cfg, true, StoreOnlyVisitor>;
  cudaFuncAttributes attr{};
  GPUPRIMS_CUDA_TRY(cudaFuncGetAttributes(&attr, kKernel));
  if (attr.binaryVersion < 90 || attr.ptxVersion < 90) return Status::success;
  const ClusterLaunch launch(dim3(kMaxClusterSplits), Cfg::kThreads, cluster_split_smem_bytes<Cfg>(), kMaxClusterSplits,
                             nullptr);
  int clusters = 0;
  GPUPRIMS_CUDA_TRY(cudaOccupancyMaxActiveClusters(&clusters, kKernel, &launch.config));
  *usable = clusters >= 1;
  return Status::success;
}

}  // namespace gpuprims::detail
