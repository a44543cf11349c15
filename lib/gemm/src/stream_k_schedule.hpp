#pragma once
// Who computes what in the stream-K form of the tuned rung's tile paths (kernels/stream_k.cuh): a grid
// of one wave of blocks over `tiles` output tiles, each `slabs` k slabs deep. Tiles [0, dp_tiles) go
// whole to the blocks in turn, a wave at a time (tile t to block t % blocks), as the plain kernel's
// waves would run them. The rest, the last partial wave and one full wave before it, are laid end to
// end as tiles x slabs units of work ("shared slabs") and cut into one contiguous run per block, equal
// to within a slab: so no block waits at the end on a part-empty wave, a block holds at most two
// pieces of tiles (at the ends of its run) besides whole tiles, and a tile is cut into few pieces.
// Plain host and device code, tested on the CPU.
#include <cstdint>

#include "common/src/host_device.hpp"
#include "common/src/math.hpp"

namespace gpuprims::detail {

struct StreamKSchedule {
  std::int64_t tiles = 0;     // output tiles
  std::int64_t slabs = 0;     // k slabs per tile (the last one may be shallower)
  std::int64_t blocks = 0;    // the grid: every block has a shared slab or a whole tile
  std::int64_t dp_tiles = 0;  // tiles computed whole, in waves

  // Tiles shared out slab by slab: dp_tiles + i is shared tile i.
  GPUPRIMS_HD std::int64_t shared_tiles() const { return tiles - dp_tiles; }
  GPUPRIMS_HD std::int64_t shared_slabs() const { return shared_tiles() * slabs; }
  // Block b's run of shared slabs is [begin(b), begin(b + 1)); begin(blocks) is the end of them all.
  GPUPRIMS_HD std::int64_t begin(std::int64_t b) const { return b * shared_slabs() / blocks; }
  // The block whose run holds shared slab i: the last b with begin(b) <= i (b * S / B <= i exactly when
  // b * S < (i + 1) * B), so empty runs are passed over.
  GPUPRIMS_HD std::int64_t owner(std::int64_t i) const { return ((i + 1) * blocks - 1) / shared_slabs(); }
  // The workspace slot of block b's piece that starts at shared slab `start`: 0 for the first piece of
  // its run, 1 for the last (a run holds whole tiles between them, which need no slot).
  GPUPRIMS_HD int slot(std::int64_t b, std::int64_t start) const { return start == begin(b) ? 0 : 1; }
};

// Slots a schedule's workspace holds per block (its first and last piece).
inline constexpr int kStreamKSlotsPerBlock = 2;

// The schedule of at most `blocks` blocks over `tiles` tiles `slabs` deep (stream_k_schedule_fits).
// Fewer tiles than blocks, or a whole number of waves' worth: every tile shared, or none (whole waves
// leave nothing to balance).
GPUPRIMS_HD StreamKSchedule make_stream_k_schedule(std::int64_t tiles, std::int64_t slabs, std::int64_t blocks) {
  StreamKSchedule s;
  s.tiles = tiles;
  s.slabs = slabs;
  s.blocks = blocks;
  // With fewer shared slabs than blocks, only as many blocks as slabs: every run then holds at least
  // one slab (floor((b + 1) * S / B) > floor(b * S / B) when S >= B), so every block named by owner()
  // between a tile's first and last piece has a piece of it.
  if (tiles <= blocks) s.blocks = min_of(blocks, tiles * slabs);
  if (tiles <= blocks) s.dp_tiles = 0;
  else if (tiles % blocks == 0) s.dp_tiles = tiles;
  else s.dp_tiles = tiles - tiles % blocks - blocks;
  return s;
}

// Whether begin() and owner() stay inside 64 bits: (shared slabs + 1) * blocks below 2^62.
GPUPRIMS_HD bool stream_k_schedule_fits(std::int64_t tiles, std::int64_t slabs, std::int64_t blocks) {
  constexpr std::int64_t kLimit = std::int64_t{1} << 62;
  if (tiles < 1 || slabs < 1 || blocks < 1) return false;
  if (slabs > kLimit / tiles) return false;
  return tiles * slabs + 1 <= kLimit / blocks;
}

}  // namespace gpuprims::detail
