#pragma once
// Rung 2, coalesced: the same one-thread-per-output kernel, but consecutive threads take consecutive
// *columns*. A warp now reads one element of A (a broadcast) and 32 consecutive elements of B, and
// writes 32 consecutive elements of C: every global access is coalesced.
// Also the scale-only path (k == 0 or alpha == 0: C = beta * C, A and B never read) runs this kernel.
#include <cstdint>

#include "gemm/src/detail/launch.cuh"
#include "gemm/src/epilogue/epilogue.cuh"
#include "gemm/src/tuning.hpp"

namespace gpuprims::detail {

template <EpilogueMode kMode>
__global__ void __launch_bounds__(SimpleTiling::kTile * SimpleTiling::kTile, 1)
    coalesced_kernel(GemmOperands op, EpilogueParams ep) {
  const auto [m, n, k, A, lda, B, ldb] = op;
  constexpr int T = SimpleTiling::kTile;
  const TileCoord tile = tile_coord(blockIdx.x, ceil_div<std::int64_t>(m, T), ceil_div<std::int64_t>(n, T), 1);
  const std::int64_t row = tile.tm * T + threadIdx.y;
  const std::int64_t col = tile.tn * T + threadIdx.x;  // x walks columns: coalesced
  float acc = 0.0f;
  if (row < m && col < n) {
    const float* a = A + row * lda;
    const float* b = B + col;
    for (std::int64_t p = 0; p < k; ++p) acc += a[p] * b[p * ldb];
  }
  Epilogue<kMode> epi(ep);
  epi.apply1(row, col, acc);
  epi.template finish<T * T>(threadIdx.y * T + threadIdx.x);
}

inline Status launch_coalesced(const GemmCall& c) {
  constexpr int T = SimpleTiling::kTile;
  unsigned blocks = 0;
  GPUPRIMS_TRY(tile_grid(c, T, T, &blocks));
  return launch_by_epilogue(c, [&](auto mode) {
    coalesced_kernel<decltype(mode)::value><<<blocks, dim3(T, T), 0, c.stream>>>(c.op, c.epi);
  });
}

}  // namespace gpuprims::detail
