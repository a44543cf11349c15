#pragma once
// One validated SGEMM request as every rung's launcher receives it: the product's operands, what the
// epilogue does with each result (its output and its visitor), and the stream. Plain C++ (host side).
#include <cuda_runtime_api.h>

#include <cstdint>

#include "gemm/src/detail/tile_index.hpp"
#include "gemm/src/epilogue/output.hpp"
#include "gemm/src/epilogue/visitor_args.hpp"
#include "gemm/src/stream_k_schedule.hpp"

namespace gpuprims::detail {

// The product's operands as kernels receive them (by value). Kernels that split k over block rows
// (blockIdx.y) take k_split of it each, the last the rest; k_split == k when k is not split.
struct GemmOperands {
  std::int64_t m, n, k;
  const float* A;
  std::int64_t lda;
  const float* B;
  std::int64_t ldb;
  std::int64_t k_split;
};

// A stream-K plan's schedule and its workspace (kernels/stream_k.cuh): kStreamKSlotsPerBlock partial
// tiles per block, and one ticket per shared tile, zero before the launch.
struct StreamKArgs {
  StreamKSchedule schedule;
  float* partials;
  unsigned* tickets;
};

struct GemmCall {
  GemmOperands op;
  bool ab_vec4;           // A and B 16-byte aligned, lda and ldb multiples of 4: float4 loads are legal
  EpilogueKind epilogue;  // the visitor the kernels are instantiated with
  OutputParams out;
  VisitorArgs visit;  // the epilogue kind's member is set (its visitor's begin())
  int splits;         // k splits: block rows of the grid (gridDim.y) of a split-K plan, blocks per tile
                      // (one cluster) of a cluster plan; 1 without a split
  cudaStream_t stream;
  void* rung_workspace;  // workspace the path's launcher needs for itself (RungEntry::workspace_bytes)
  StreamKArgs stream_k;  // a stream-K plan's (RungEntry::run_stream_k); unused otherwise
};

// Whether no block of a grid of bm x bn tiles, bk-deep slabs, over the call meets an edge: every tile
// lies inside the m x n output, each block row's k range is whole slabs, A, B and C take 16-byte
// accesses, and C is not read (beta == 0). Such a grid may run the tile launchers' whole-grid kernels,
// which carry no edge tests (GridForm, detail/warp_tile.cuh).
inline bool grid_is_whole(const GemmCall& c, std::int64_t bm, std::int64_t bn, std::int64_t bk) {
  return c.ab_vec4 && c.out.c_vec4 && c.out.beta == 0.0f && c.out.m == c.op.m && c.out.n == c.op.n &&
         tiles_cover_exactly(c.op.m, c.op.n, c.op.k, bm, bn, bk) && c.op.k_split % bk == 0;
}

}  // namespace gpuprims::detail
