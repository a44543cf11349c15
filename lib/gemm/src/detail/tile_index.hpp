#pragma once
// Which output tile a block computes. Grids are 1D (up to 2^31 - 1 tiles, so no 65535 limit on a
// dimension); the linear block id maps to (tile_m, tile_n) in groups of `group_m` tile rows, so blocks
// that run together share rows of A and columns of B in L2. group_m == 1 is plain row-major order.
// Host and device, tested on the CPU (it must be a bijection).
#include <cstdint>

#include "common/src/host_device.hpp"
#include "common/src/math.hpp"

namespace gpuprims::detail {

struct TileCoord {
  std::int64_t tm;
  std::int64_t tn;
};

// In Int arithmetic: std::uint32_t suffices (fewer than 2^31 tiles), and its divisions cost a kernel
// that maps a tile per few k steps (the persistent wgmma form) far less than 64-bit ones.
template <class Int>
GPUPRIMS_HD TileCoord tile_coord_in(Int block, Int tiles_m, Int tiles_n, Int group_m) {
  const Int per_group = group_m * tiles_n;
  const Int first_m = (block / per_group) * group_m;
  const Int rows_here = min_of(tiles_m - first_m, group_m);
  const Int in_group = block % per_group;
  return TileCoord{static_cast<std::int64_t>(first_m + in_group % rows_here),
                   static_cast<std::int64_t>(in_group / rows_here)};
}

GPUPRIMS_HD TileCoord tile_coord(std::int64_t block, std::int64_t tiles_m, std::int64_t tiles_n, std::int64_t group_m) {
  return tile_coord_in<std::int64_t>(block, tiles_m, tiles_n, group_m);
}

// The tile kernels' order (rung 9, the tuned paths and their stream-K form): the tiles that cross an
// edge of the m x n output first - the last tile column's, then the last tile row's - then those that
// lie wholly inside it, in tile_coord_in's groups over them. An edge tile runs other code than an
// interior one (the checked main loop and epilogue), and mixed on one SM the two compete for its
// instruction cache: with an edge column among 64 x 128 tiles, 40000 x 1000 x 64 spent 40% of its
// warps' stall samples waiting for an instruction, against 17% at 40960 x 1024 x 64, whose tiles are
// all whole (H200, ncu, runs HL and HM in results/nvidia-h200/README.md). First rather than last: the
// slower edge blocks then overlap the rest of the grid instead of making its tail (edges last ran
// 2944 x 2624 x 128 on 128 x 256 tiles, one block an SM, 4% slower and its fused top-2 12%; run HP).
// A bijection, like tile_coord.
GPUPRIMS_HD TileCoord tile_coord_edges_first(std::int64_t block, std::int64_t m, std::int64_t n, std::int64_t bm,
                                             std::int64_t bn, std::int64_t group_m) {
  const std::int64_t whole_m = m / bm, whole_n = n / bn;
  const bool partial_n = whole_n * bn < n;
  const std::int64_t edge_column = partial_n ? whole_m : 0;                            // beside the interior rows
  const std::int64_t edge_row = whole_m * bm < m ? whole_n + (partial_n ? 1 : 0) : 0;  // the whole last tile row
  if (block < edge_column) return TileCoord{block, whole_n};
  if (block < edge_column + edge_row) return TileCoord{whole_m, block - edge_column};
  return tile_coord_in<std::int64_t>(block - edge_column - edge_row, whole_m, whole_n, group_m);
}

// Whether bm x bn tiles and bk-deep slabs cover an m x n x k product exactly: no tile crosses an
// edge of the output and no slab is a k tail (the tile kernels' whole grids).
GPUPRIMS_HD bool tiles_cover_exactly(std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t bm, std::int64_t bn,
                                     std::int64_t bk) {
  return m % bm == 0 && n % bn == 0 && k % bk == 0;
}

// Number of blocks for an m x n output in bm x bn tiles.
GPUPRIMS_HD std::int64_t tile_count(std::int64_t m, std::int64_t n, std::int64_t bm, std::int64_t bn) {
  return ceil_div(m, bm) * ceil_div(n, bn);
}

}  // namespace gpuprims::detail
