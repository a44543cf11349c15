#pragma once
// Rung 1, naive: one thread per element of C, each walking a full row of A and column of B from
// global memory. Consecutive threads (threadIdx.x) take consecutive *rows*, so a warp's loads of A
// and stores of C are strided by lda/ldc: the uncoalesced baseline the ladder starts from.
#include <cstdint>

#include "gemm/src/detail/launch.cuh"
#include "gemm/src/epilogue/epilogue.cuh"
#include "gemm/src/tuning.hpp"

namespace gpuprims::detail {

template <EpilogueMode kMode>
__global__ void __launch_bounds__(SimpleTiling::kTile * SimpleTiling::kTile, 1)
    naive_kernel(GemmOperands op, EpilogueParams ep) {
  const auto [m, n, k, A, lda, B, ldb] = op;
  constexpr int T = SimpleTiling::kTile;
  const TileCoord tile = tile_coord(blockIdx.x, ceil_div<std::int64_t>(m, T), ceil_div<std::int64_t>(n, T), 1);
  const std::int64_t row = tile.tm * T + threadIdx.x;  // x walks rows: uncoalesced on purpose
  const std::int64_t col = tile.tn * T + threadIdx.y;
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

inline Status launch_naive(const GemmCall& c) {
  constexpr int T = SimpleTiling::kTile;
  unsigned blocks = 0;
  GPUPRIMS_TRY(tile_grid(c, T, T, &blocks));
  return launch_by_epilogue(c, [&](auto mode) {
    naive_kernel<decltype(mode)::value><<<blocks, dim3(T, T), 0, c.stream>>>(c.op, c.epi);
  });
}

}  // namespace gpuprims::detail
