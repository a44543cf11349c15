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

// Number of blocks for an m x n output in bm x bn tiles.
GPUPRIMS_HD std::int64_t tile_count(std::int64_t m, std::int64_t n, std::int64_t bm, std::int64_t bn) {
  return ceil_div(m, bm) * ceil_div(n, bn);
}

}  // namespace gpuprims::detail
