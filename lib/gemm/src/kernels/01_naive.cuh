#pragma once
// Rung 1, naive: one thread per element of C, each walking a full row of A and column of B from
// global memory. Consecutive threads (threadIdx.x) take consecutive *rows*, so a warp's loads of A
// and stores of C are strided by lda/ldc: the uncoalesced baseline the ladder starts from.
#include <cstdint>

#include "gemm/src/detail/launch.cuh"
#include "gemm/src/epilogue/epilogue.cuh"
#include "gemm/src/tuning.hpp"

namespace gpuprims::detail {

// One output per thread in 32 x 32 blocks. kXWalksRows: threadIdx.x picks the row (rung 1) or the
// column (rung 2, coalesced); that one choice is the difference between the two rungs.
template <bool kXWalksRows, class Visitor>
__global__ void __launch_bounds__(SimpleTiling::kTile* SimpleTiling::kTile, 1)
    one_output_per_thread_kernel(GemmOperands op, EpilogueParams<Visitor> ep) {
  constexpr int T = SimpleTiling::kTile;
  [[maybe_unused]] const auto [m, n, k, A, lda, B, ldb, k_split] = op;  // rungs 1-8 never split k
  const TileCoord tile = tile_coord(blockIdx.x, ceil_div<std::int64_t>(m, T), ceil_div<std::int64_t>(n, T), 1);
  const std::int64_t row = tile.tm * T + (kXWalksRows ? threadIdx.x : threadIdx.y);
  const std::int64_t col = tile.tn * T + (kXWalksRows ? threadIdx.y : threadIdx.x);
  const float prefetched = Epilogue<Visitor>::prefetch(ep);
  float acc = 0.0f;
  if (row < m && col < n) {
    const float* a = A + row * lda;
    const float* b = B + col;
    for (std::int64_t p = 0; p < k; ++p) acc += a[p] * b[p * ldb];
  }
  Epilogue<Visitor> epi(ep, prefetched);
  epi.apply1(row, col, acc);
  epi.template finish<T * T>(threadIdx.y * T + threadIdx.x);
}

template <bool kXWalksRows>
Status launch_one_output_per_thread(const GemmCall& c) {
  constexpr int T = SimpleTiling::kTile;
  unsigned blocks = 0;
  GPUPRIMS_TRY(tile_grid(c, T, T, &blocks));
  return launch_by_epilogue(c, [&](auto visitor) {
    using V = typename decltype(visitor)::type;
    one_output_per_thread_kernel<kXWalksRows, V><<<blocks, dim3(T, T), 0, c.stream>>>(c.op, epilogue_params<V>(c));
  });
}

inline Status launch_naive(const GemmCall& c) { return launch_one_output_per_thread<true>(c); }

}  // namespace gpuprims::detail
