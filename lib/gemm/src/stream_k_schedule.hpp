#pragma once
// Who computes what in the stream-K form of the tuned rung's tile paths (kernels/stream_k.cuh), over
// `tiles` output tiles each `slabs` k slabs deep, on a GPU that runs `blocks` of them at once (a
// wave). Tiles [0, dp_tiles) are whole: block t of the grid computes tile t, as the plain kernel's
// grid would. The rest are laid end to end as tiles x slabs units of work ("shared slabs") and cut
// into one contiguous run for each of the `blocks` blocks after them, equal to within a slab: so no
// block waits at the end on a part-empty wave, and a block holds at most two pieces of tiles (at the
// ends of its run) besides whole tiles. The shared tiles are the partial last wave's alone when at
// least two full waves come before it and it holds a sixth of a wave or more; else those and the
// full wave before them. Each piece costs a start of the pipeline and a partial tile's trip through
// memory: a few tiles cut over a whole wave of blocks fall into a dozen short pieces each, and with
// one full wave a block that has run a whole tile pays those costs again where a block sharing all the
// tiles pays them once. On an H200 (128 x 128 tiles, results/nvidia-h200, session 41, run EK) sharing
// the partial wave alone ran 1000 x 6000 x 3000 (2 full waves, 112 past) 3.7% faster and 3000^3 (4, 48)
// 1.7% faster, and 1500^3 (1 full wave, 12 past) 33%, 2500^3 (3, 4) 19% and 1024 x 3072 x 2048 (1, 60)
// 8% slower.
// Plain host and device code, tested on the CPU.
#include <cstdint>

#include "common/src/host_device.hpp"
#include "common/src/math.hpp"

namespace gpuprims::detail {

struct StreamKSchedule {
  std::int64_t tiles = 0;     // output tiles
  std::int64_t slabs = 0;     // k slabs per tile (the last one may be shallower)
  std::int64_t blocks = 0;    // blocks that share the shared slabs out (each has at least one)
  std::int64_t dp_tiles = 0;  // tiles computed whole, one per block, by the grid's first blocks

  // Blocks of the grid: one per whole tile, then the sharing blocks.
  GPUPRIMS_HD std::int64_t grid() const { return dp_tiles + blocks; }

  // Tiles shared out slab by slab: dp_tiles + i is shared tile i.
  GPUPRIMS_HD std::int64_t shared_tiles() const { return tiles - dp_tiles; }
  GPUPRIMS_HD std::int64_t shared_slabs() const { return shared_tiles() * slabs; }
  // Sharing block b's (grid block dp_tiles + b) run of shared slabs is [begin(b), begin(b + 1));
  // begin(blocks) is the end of them all.
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

// A sixth: a partial last wave of fewer tiles than a wave's blocks / kStreamKShareOneWaveDivisor is
// shared together with the full wave before it (see the top of this file), as is any after one full wave.
inline constexpr std::int64_t kStreamKShareOneWaveDivisor = 6;

// The tiles computed whole when `blocks` blocks share the rest: none with fewer tiles than blocks (all
// shared), all of a whole number of waves' worth (nothing to balance), else all but the shared waves.
GPUPRIMS_HD std::int64_t stream_k_whole_tiles(std::int64_t tiles, std::int64_t blocks) {
  const std::int64_t partial = tiles % blocks;
  if (tiles <= blocks) return 0;
  if (partial == 0) return tiles;
  const bool partial_alone = tiles > 2 * blocks && partial * kStreamKShareOneWaveDivisor >= blocks;
  return tiles - partial - (partial_alone ? 0 : blocks);
}

// The schedule of at most `blocks` sharing blocks (a wave) over `tiles` tiles `slabs` deep
// (stream_k_schedule_fits).
GPUPRIMS_HD StreamKSchedule make_stream_k_schedule(std::int64_t tiles, std::int64_t slabs, std::int64_t blocks) {
  StreamKSchedule s;
  s.tiles = tiles;
  s.slabs = slabs;
  s.dp_tiles = stream_k_whole_tiles(tiles, blocks);
  // With fewer shared slabs than blocks, only as many blocks as slabs: every run then holds at least
  // one slab (floor((b + 1) * S / B) > floor(b * S / B) when S >= B), so every block named by owner()
  // between a tile's first and last piece has a piece of it. None when no tile is shared.
  s.blocks = min_of(blocks, s.shared_slabs());
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
