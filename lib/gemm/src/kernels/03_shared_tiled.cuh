#pragma once
// Rung 3, shared-memory tiles: the block stages a 32 x 32 tile of A and of B in shared memory per
// phase of k, so each global element is read once per block instead of once per thread (32x fewer
// global loads); threads then accumulate from shared memory.
#include <cstdint>

#include "gemm/src/detail/launch.cuh"
#include "gemm/src/detail/tile_load.cuh"
#include "gemm/src/epilogue/epilogue.cuh"
#include "gemm/src/tuning.hpp"

namespace gpuprims::detail {

template <class Visitor>
__global__ void __launch_bounds__(SimpleTiling::kTile* SimpleTiling::kTile, 1)
    shared_tiled_kernel(GemmOperands op, EpilogueParams<Visitor> ep) {
  [[maybe_unused]] const auto [m, n, k, A, lda, B, ldb, k_split] = op;  // rungs 1-8 never split k
  constexpr int T = SimpleTiling::kTile;
  __shared__ float As[T][T];
  __shared__ float Bs[T][T];

  const TileCoord tile = tile_coord(blockIdx.x, ceil_div<std::int64_t>(m, T), ceil_div<std::int64_t>(n, T), 1);
  const int tx = threadIdx.x, ty = threadIdx.y;
  const std::int64_t row = tile.tm * T + ty;
  const std::int64_t col = tile.tn * T + tx;
  const float prefetched = Epilogue<Visitor>::prefetch(ep);
  float acc = 0.0f;
  for (std::int64_t k0 = 0; k0 < k; k0 += T) {
    As[ty][tx] = load_or_zero(A, lda, row, k0 + tx, m, k);
    Bs[ty][tx] = load_or_zero(B, ldb, k0 + ty, col, k, n);
    __syncthreads();
#pragma unroll
    for (int p = 0; p < T; ++p) acc += As[ty][p] * Bs[p][tx];
    __syncthreads();
  }
  Epilogue<Visitor> epi(ep, prefetched);
  epi.apply1(row, col, acc);
  epi.template finish<T * T>(ty * T + tx);
}

inline Status launch_shared_tiled(const GemmCall& c) {
  constexpr int T = SimpleTiling::kTile;
  unsigned blocks = 0;
  GPUPRIMS_TRY(tile_grid(c, T, T, &blocks));
  return launch_by_epilogue(c, [&](auto visitor) {
    using V = typename decltype(visitor)::type;
    shared_tiled_kernel<V><<<blocks, dim3(T, T), 0, c.stream>>>(c.op, epilogue_params<V>(c));
  });
}

}  // namespace gpuprims::detail
