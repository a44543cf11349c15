#pragma once
// Stream-K form of rung 9's kernel: where one block per tile leaves the last wave part-empty (2500^3
// in 128 x 128 tiles is 400 tiles on 132 SMs, 3.03 waves that run as 4; 1500^3 is 144 tiles, 1.09
// waves that run as 2), the tiles of the last waves are shared out evenly. The grid's first blocks
// take one whole tile each, as the plain kernel's would, with its code; after them, one wave of
// blocks takes the rest cut by k slabs, one run per block (stream_k_schedule.hpp). A piece of a tile
// leaves its partial tile in the workspace and takes an integer ticket; the block that takes the
// tile's last ticket sums the pieces in k order - a fixed order whoever is last, so the bits are the
// same every run - and runs the tile's epilogue. No block ever waits for another, and there are no
// floating-point atomics. (An earlier form ran one persistent wave that looped over the whole tiles
// too, and ran them slower than the plain kernel: 128 x 128 at 4096^3 in 3.12 ms against 3.08 on an
// H200; results/nvidia-h200, session 39, run DT.)
#include <climits>
#include <cstdint>

#include "gemm/src/kernels/09_double_buffered.cuh"

namespace gpuprims::detail {

// Slabs [s0, s1) of tile t into acc (zeroed by the caller); the tile's origin into row0 / col0.
template <class Cfg, bool kVec>
__device__ __forceinline__ void stream_k_product(const GemmOperands& op, std::int64_t t, std::int64_t s0,
                                                 std::int64_t s1, float* smem, const WarpTilePosition<Cfg>& pos,
                                                 std::int64_t* row0, std::int64_t* col0,
                                                 float (&acc)[Cfg::TM][Cfg::TN]) {
  const TileCoord tile = tile_coord_edges_first(t, op.m, op.n, Cfg::BM, Cfg::BN, Cfg::kGroupM);  // as the whole tiles
  *row0 = tile.tm * Cfg::BM;
  *col0 = tile.tn * Cfg::BN;
  GemmOperands seg = op;
  const std::int64_t k0 = s0 * Cfg::BK;
  seg.A += k0;
  seg.B += k0 * op.ldb;
  seg.k = min_of(s1 * Cfg::BK, op.k) - k0;  // >= 1: a piece holds at least one slab
  seg.k_split = seg.k;
  // The block's previous tile may still be reading the stage this one stores first (or staging C).
  __syncthreads();
  SlabLoader<Cfg, kVec> loader(seg, *row0, *col0, static_cast<int>(threadIdx.x));
  double_buffered_mainloop<Cfg, kVec>(seg, loader, smem, pos, *row0, *col0, acc);
}

// Float4 v of a thread's accumulators (four consecutive columns of one row; TN is a multiple of 4).
template <class Cfg>
__device__ __forceinline__ float4 acc_vec(const float (&acc)[Cfg::TM][Cfg::TN], int v) {
  const int i = 4 * v / Cfg::TN, j = 4 * v % Cfg::TN;
  return make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]);
}
template <class Cfg>
__device__ __forceinline__ void set_acc_vec(float (&acc)[Cfg::TM][Cfg::TN], int v, float4 x) {
  const int i = 4 * v / Cfg::TN, j = 4 * v % Cfg::TN;
  acc[i][j] = x.x;
  acc[i][j + 1] = x.y;
  acc[i][j + 2] = x.z;
  acc[i][j + 3] = x.w;
}

// A piece of shared tile `st` in block b's run is done in acc. Returns whether this block finishes the
// tile, with the tile's sum in acc; else the piece is in the workspace for the block that will. A
// thread keeps its accumulators as float4s of its own, so a piece is stored and read back in coalesced
// 16-byte accesses with no reshuffle.
template <class Cfg>
__device__ __forceinline__ bool stream_k_fix_up(const StreamKArgs& sk, std::int64_t st, std::int64_t b,
                                                float (&acc)[Cfg::TM][Cfg::TN], unsigned* last_flag) {
  constexpr int kVecs = Cfg::TM * Cfg::TN / 4;
  constexpr std::int64_t kSlotVecs = std::int64_t{kVecs} * Cfg::kThreads;
  const StreamKSchedule& s = sk.schedule;
  const int tid = threadIdx.x;
  const std::int64_t first = s.owner(st * s.slabs), last = s.owner((st + 1) * s.slabs - 1);
  const auto pieces = static_cast<unsigned>(last - first + 1);
  unsigned* const ticket = sk.tickets + st;
  auto* const parts = reinterpret_cast<float4*>(sk.partials);
  // Piece p's slot (StreamKSchedule::slot) without a division per access: the tile's first piece may be
  // the last of its block's run (slot 1), every later piece opens its block's run (slot 0).
  const int first_slot = s.slot(first, st * s.slabs);
  const auto slot_of = [&](std::int64_t block) {
    return parts + (block * kStreamKSlotsPerBlock + (block == first ? first_slot : 0)) * kSlotVecs + tid;
  };

  // Every other piece in already (the usual case for a tile's first piece, which ends a block's run):
  // then this one need not go through the workspace.
  if (tid == 0) *last_flag = *static_cast<volatile unsigned*>(ticket) == pieces - 1 ? 1u : 0u;
  __syncthreads();
  if (*last_flag == 0) {
    float4* const mine = slot_of(b);
#pragma unroll
    for (int v = 0; v < kVecs; ++v) __stcg(mine + std::int64_t{v} * Cfg::kThreads, acc_vec<Cfg>(acc, v));
    __threadfence();  // the piece is visible before its ticket
    __syncthreads();
    if (tid == 0) *last_flag = atomicAdd(ticket, 1u) == pieces - 1 ? 1u : 0u;
    __syncthreads();
    if (*last_flag == 0) return false;
  }
  __threadfence();  // the other pieces, whose tickets came first, are read after them
  // Sum in k order: piece `first` + the next + ..., this block's own from registers (a + b == b + a
  // in floating point, so which piece is this block's does not change the bits).
#pragma unroll
  for (int v = 0; v < kVecs; ++v) {
    const float4 own = acc_vec<Cfg>(acc, v);
    float4 sum = first == b ? own : __ldcg(slot_of(first) + std::int64_t{v} * Cfg::kThreads);
    for (std::int64_t p = first + 1; p <= last; ++p) {
      const float4 x = p == b ? own : __ldcg(slot_of(p) + std::int64_t{v} * Cfg::kThreads);
      sum = make_float4(sum.x + x.x, sum.y + x.y, sum.z + x.z, sum.w + x.w);
    }
    set_acc_vec<Cfg>(acc, v, sum);
  }
  return true;
}

// Grid: sk.schedule.grid() blocks. The first dp_tiles run one whole tile each, with the plain kernel's
// code (double_buffered_tile); each of the rest runs its run of shared slabs. kVec, kStagedC: as
// double_buffered_kernel.
template <class Cfg, bool kVec, bool kStagedC, class Visitor>
__global__ void __launch_bounds__(Cfg::kThreads, Cfg::kMinBlocksPerSm)
    stream_k_kernel(GemmOperands op, EpilogueParams<Visitor> ep, StreamKArgs sk) {
  extern __shared__ float4 smem_f4[];
  __shared__ unsigned last_flag;
  float* const smem = reinterpret_cast<float*>(smem_f4);
  const StreamKSchedule& s = sk.schedule;
  if (blockIdx.x < s.dp_tiles) {
    double_buffered_tile<Cfg, kVec, kStagedC>(op, ep, blockIdx.x, smem);
    return;
  }
  const int tid = threadIdx.x;
  const WarpTilePosition<Cfg> pos(tid);
  const float prefetched = Epilogue<Visitor>::prefetch(ep);
  Epilogue<Visitor> epi(ep, prefetched);
  const std::int64_t b = blockIdx.x - s.dp_tiles, end = s.begin(b + 1);
  for (std::int64_t i = s.begin(b); i < end;) {
    const std::int64_t st = i / s.slabs;
    const std::int64_t s0 = i - st * s.slabs, s1 = min_of(s.slabs, s0 + (end - i));
    i += s1 - s0;
    std::int64_t row0 = 0, col0 = 0;
    float acc[Cfg::TM][Cfg::TN] = {};
    stream_k_product<Cfg, kVec>(op, s.dp_tiles + st, s0, s1, smem, pos, &row0, &col0, acc);
    const bool whole = s0 == 0 && s1 == s.slabs;  // a run of more than a tile's slabs holds whole tiles
    if (whole || stream_k_fix_up<Cfg>(sk, st, b, acc, &last_flag))
      warp_tile_epilogue<Cfg, kStagedC>(epi, acc, pos, row0, col0, smem);
  }
  epi.template finish<Cfg::kThreads>(tid);
}

// Launches the stream-K form of rung 9's configuration Cfg over c.stream_k's schedule, which must be
// the one for this call's shape (plan.hpp: stream_k_schedule_for); its tickets are zeroed first.
template <class Cfg>
Status launch_stream_k(const GemmCall& c) {
  const StreamKSchedule& s = c.stream_k.schedule;
  if (s.tiles != tile_count(c.op.m, c.op.n, Cfg::BM, Cfg::BN) || s.slabs != ceil_div<std::int64_t>(c.op.k, Cfg::BK) ||
      s.blocks < 0 || (s.blocks > 0) != (s.shared_tiles() > 0) || c.splits != 1)
    return Status::invalid_argument;
  if (s.grid() > INT_MAX) return Status::unsupported;  // as the plain kernel's grid (tile_grid)
  if (s.shared_tiles() > 0) {
    if (c.stream_k.partials == nullptr || c.stream_k.tickets == nullptr) return Status::invalid_argument;
    GPUPRIMS_CUDA_TRY(cudaMemsetAsync(c.stream_k.tickets, 0,
                                      static_cast<std::size_t>(s.shared_tiles()) * sizeof(unsigned), c.stream));
  }
  constexpr int kSmem = double_buffered_smem_bytes<Cfg>();
  static_assert(kSmem + sizeof(unsigned) < 48 * 1024, "opt in to more than 48 KB of shared memory first");
  const auto launch = [&](auto vec, auto staged_c, auto visitor) {
    using V = typename decltype(visitor)::type;
    stream_k_kernel<Cfg, decltype(vec)::value, decltype(staged_c)::value, V>
        <<<static_cast<unsigned>(s.grid()), Cfg::kThreads, kSmem, c.stream>>>(c.op, epilogue_params<V>(c), c.stream_k);
  };
  return launch_by_vec_and_epilogue(c, [&](auto vec, auto visitor) {
    if (c.out.c_vec4) launch(vec, False{}, visitor);
    else launch(vec, True{}, visitor);
  });
}

}  // namespace gpuprims::detail
