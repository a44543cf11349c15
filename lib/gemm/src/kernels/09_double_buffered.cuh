#pragma once
// Rung 9, double buffering: two shared-memory stages. The global loads of slab s+1 are issued into
// registers before the FMAs on slab s (which reads the other stage), and stored after them, so global
// latency hides behind arithmetic and one barrier per slab suffices instead of rung 8's two; that
// barrier comes before the slab's last k step, whose FMAs cover the next slab's first shared reads.
// Its epilogue sends a C without 16-byte accesses through the freed shared memory (warp_tile.cuh), and
// its blocks take the tiles on C's edges before those inside it (tile_coord_edges_first). A grid in
// which no block meets an edge runs a kernel compiled for that (GridForm): one main loop, one epilogue.
#include <cstdint>
#include <type_traits>

#include <gpuprims/device/dependent_launch.cuh>

#include "gemm/src/detail/k_range.cuh"
#include "gemm/src/detail/launch.cuh"
#include "gemm/src/detail/warp_tile.cuh"
#include "gemm/src/tuning.hpp"

namespace gpuprims::detail {

// The k loop. Stage s holds A's slab then B's at smem + s * kStage. The loop is unrolled by two so
// both stages are compile-time: every shared-memory address is then a per-thread register plus an
// immediate, and a slab issues almost nothing but its loads, stores, LDS and FFMAs (one slab per trip
// with the stage a run-time offset, which halves the loop's code, ran 128 x 256 x 8 at 4096^3 in 2.82
// ms against 2.755: H200, results/nvidia-h200 session 41, run ED). The barrier sits
// before the slab's last k step: the next slab's first fragment is read right after it, while that
// step's FMAs run, so no warp leaves the barrier only to wait on shared memory. kNoEdge: every slab
// takes the loads with no edge tests (slab_has_no_edge), a separate copy of the loop so neither form
// carries the other's instructions. In the other copy, a configuration with kWholeVectorEdges loads
// each whole slab without branches (load_whole_vectors) when B's rows are whole float4s; the k tail
// and the rest go through load()'s tests.
template <class Cfg, bool kNoEdge, class Loader>
__device__ __forceinline__ void double_buffered_slabs(const GemmOperands& op, Loader& loader, float* smem,
                                                      const WarpTilePosition<Cfg>& pos,
                                                      float (&acc)[Cfg::TM][Cfg::TN]) {
  constexpr int kAFloats = Loader::ATile::kFloats;
  constexpr int kStage = kAFloats + Cfg::BK * Cfg::BN;
  static_assert(Cfg::BK % 2 == 0, "k step p uses fragment p % 2, so each slab starts on fragment 0");
  constexpr bool kWholeVectorForm = Loader::kVecLoads && Cfg::kWholeVectorEdges;
  const bool whole_vectors = slab_has_whole_vectors<kWholeVectorForm>(op);
  const auto load = [&](std::int64_t k_left) {
    if constexpr (kNoEdge) {
      loader.load_full(op);
      return;
    }
    if constexpr (kWholeVectorForm) {
      if (whole_vectors && k_left >= Cfg::BK) {
        loader.load_whole_vectors(op);
        return;
      }
    }
    loader.load(op, slab_depth<Cfg::BK>(k_left));
  };
  Fragment<Cfg> frag[2];
  // One slab on stage kCur (k_left of k still to go, this slab included), whose fragment 0 is in
  // frag[0]; false after the last.
  const auto slab = [&](auto cur_stage, std::int64_t k_left) {
    constexpr int kCur = decltype(cur_stage)::value;
    const float* const cur = smem + kCur * kStage;
    float* const next = smem + (1 - kCur) * kStage;
    const bool more = k_left > Cfg::BK;
    if (more) load(k_left - Cfg::BK);  // in flight during the FMAs below
    // Keeps the loads here: without it ptxas sinks them to just before their use by the stores,
    // after the FMAs, and each slab waits out the whole global latency (measured: tuned at
    // 128 x 8192 x 8192 fell from 32 to 18 TFLOP/s). Memory accesses do not cross a warp barrier.
    __syncwarp();
#pragma unroll
    for (int p = 0; p + 1 < Cfg::BK; ++p) {
      load_fragment<Cfg>(cur, cur + kAFloats, p + 1, pos, frag[(p + 1) % 2]);
      fragment_fma<Cfg>(frag[p % 2], acc);
    }
    // The next stage was last read before the previous slab's barrier, which every thread has passed.
    if (more) loader.store(next, next + kAFloats);
    __syncthreads();
    if (more) load_fragment<Cfg>(next, next + kAFloats, 0, pos, frag[0]);
    fragment_fma<Cfg>(frag[(Cfg::BK - 1) % 2], acc);
    return more;
  };
  load(op.k);  // op.k >= 1: k == 0 never gets here
  loader.store(smem, smem + kAFloats);
  __syncthreads();
  load_fragment<Cfg>(smem, smem + kAFloats, 0, pos, frag[0]);
  for (std::int64_t k_left = op.k;; k_left -= 2 * Cfg::BK) {
    if (!slab(std::integral_constant<int, 0>{}, k_left)) break;
    if (!slab(std::integral_constant<int, 1>{}, k_left - Cfg::BK)) break;
  }
}

// The block's main loop over its k range into acc: the edge-free copy of the loop when every slab of
// the tile allows it (kVec only), else the checked one. Rung 9's kernel and the cluster split-K
// kernel (cluster_split_k.cuh) both run it.
template <class Cfg, bool kVec>
__device__ __forceinline__ void double_buffered_mainloop(const GemmOperands& op, SlabLoader<Cfg, kVec>& loader,
                                                         float* smem, const WarpTilePosition<Cfg>& pos,
                                                         std::int64_t row0, std::int64_t col0,
                                                         float (&acc)[Cfg::TM][Cfg::TN]) {
  if constexpr (kVec) {
    if (slab_has_no_edge<Cfg, kVec>(op, row0, col0)) double_buffered_slabs<Cfg, true>(op, loader, smem, pos, acc);
    else double_buffered_slabs<Cfg, false>(op, loader, smem, pos, acc);
  } else {
    double_buffered_slabs<Cfg, false>(op, loader, smem, pos, acc);
  }
}

// Shared memory of one block: two stages of the A and B slabs.
template <class Cfg>
constexpr int double_buffered_smem_bytes() {
  return 2 * (Cfg::BK * Cfg::BM + Cfg::BK * Cfg::BN) * static_cast<int>(sizeof(float));
}

// One block's work on tile `tile_index` (in tile_coord_edges_first's order) of the product: the main loop into
// registers, then the epilogue and its visitor's finish. Rung 9's kernel runs it once per block; the
// stream-K kernel runs it for its blocks of whole tiles (kernels/stream_k.cuh), so those blocks run
// the very code of the plain kernel. kVec, kStagedC, kReadsC, kGrid: as double_buffered_kernel.
template <class Cfg, bool kVec, bool kStagedC, class Visitor, bool kReadsC = false, GridForm kGrid = GridForm::any>
__device__ __forceinline__ void double_buffered_tile(const GemmOperands& op, const EpilogueParams<Visitor>& ep,
                                                     std::int64_t tile_index, float* smem) {
  static_assert(kGrid == GridForm::any || kVec, "a whole grid takes 16-byte loads");
  // A whole grid has no edge tiles, so its order is tile_coord_edges_first's over the interior alone.
  const TileCoord tile = kGrid == GridForm::any
                             ? tile_coord_edges_first(tile_index, op.m, op.n, Cfg::BM, Cfg::BN, Cfg::kGroupM)
                             : tile_coord(tile_index, op.m / Cfg::BM, op.n / Cfg::BN, Cfg::kGroupM);
  const std::int64_t row0 = tile.tm * Cfg::BM, col0 = tile.tn * Cfg::BN;
  const int tid = threadIdx.x;
  SlabLoader<Cfg, kVec> loader(op, row0, col0, tid);
  const WarpTilePosition<Cfg> pos(tid);

  // The visitor's read of global state (prefetch: the top-2's bound) goes out before the main loop,
  // except where blocks share the SM (kMinBlocksPerSm > 1) and the visitor allows it
  // (kPrefetchAfterLoop: the packed top-2): there it goes out after the loop, the other blocks' work
  // covers its wait, and the main loop compiles without it. On an H200 (results/nvidia-h200, runs HZ
  // and IB) that made the fused top-2 at 16384^2 x 64 on 64 x 128 tiles 1.1-1.3% faster and
  // 120 x 20000 x 700 on 64 x 64 tiles 4%; read late, it cost 1.2% on 128 x 256 tiles (a block alone
  // on its SM waits for it with nothing else to run) and 2.1-2.7% for the 64-bit-index top-2 at
  // 65536^2 x 128 on 64 x 128 tiles.
  constexpr bool kReadBeforeLoop = Cfg::kMinBlocksPerSm == 1 || !Visitor::kPrefetchAfterLoop;
  float prefetched = 0.0f;
  if constexpr (kReadBeforeLoop) prefetched = Epilogue<Visitor>::prefetch(ep);
  float acc[Cfg::TM][Cfg::TN] = {};
  if constexpr (kGrid == GridForm::any) double_buffered_mainloop<Cfg, kVec>(op, loader, smem, pos, row0, col0, acc);
  else double_buffered_slabs<Cfg, true>(op, loader, smem, pos, acc);
  if constexpr (!kReadBeforeLoop) prefetched = Epilogue<Visitor>::prefetch(ep);
  Epilogue<Visitor> epi(ep, prefetched);
  static_assert(staged_epilogue_floats<Cfg>() <= double_buffered_smem_bytes<Cfg>() / 4, "staging fits");
  warp_tile_epilogue<Cfg, kStagedC, kReadsC, kGrid>(epi, acc, pos, row0, col0, smem);
  epi.template finish<Cfg::kThreads>(tid);
}

// kVec: A and B take 16-byte loads; kStagedC: C does not take 16-byte accesses, so the epilogue goes
// through shared memory (warp_tile.cuh); kReadsC: beta != 0, the epilogue reads C ahead (a kernel of
// its own, so that the beta == 0 kernels keep their code; warp_tile_epilogue); kGrid: what every tile
// of the grid is known to be (GridForm).
template <class Cfg, bool kVec, bool kStagedC, class Visitor, bool kReadsC = false, GridForm kGrid = GridForm::any>
__global__ void __launch_bounds__(Cfg::kThreads, Cfg::kMinBlocksPerSm)
    double_buffered_kernel(GemmOperands op, EpilogueParams<Visitor> ep) {
  // Dynamic: its size is the configuration's (double_buffered_smem_bytes), set at launch.
  extern __shared__ float4 smem_f4[];
  take_k_range(op, ep.out);  // the tuned rung's split-K plans run this kernel over several block rows
  ::gpuprims::device::allow_dependent_launch();  // a split-K reduction after this kernel may be scheduled early
  double_buffered_tile<Cfg, kVec, kStagedC, Visitor, kReadsC, kGrid>(op, ep, blockIdx.x,
                                                                     reinterpret_cast<float*>(smem_f4));
}

template <class Cfg>
Status launch_double_buffered(const GemmCall& c) {
  unsigned blocks = 0;
  GPUPRIMS_TRY(tile_grid(c, Cfg::BM, Cfg::BN, &blocks));
  constexpr int kSmem = double_buffered_smem_bytes<Cfg>();
  // A configuration of 48 KB or more would need the opt-in attribute (cudaFuncSetAttribute) first; no
  // tuned configuration has needed it (tuning.hpp).
  static_assert(kSmem < 48 * 1024, "opt in to more than 48 KB of dynamic shared memory before launching");
  const auto launch = [&](auto vec, auto staged_c, auto visitor, auto reads_c, auto grid) {
    using V = typename decltype(visitor)::type;
    double_buffered_kernel<Cfg, decltype(vec)::value, decltype(staged_c)::value, V, decltype(reads_c)::value,
                           decltype(grid)::value>
        <<<dim3(blocks, c.splits), Cfg::kThreads, kSmem, c.stream>>>(c.op, epilogue_params<V>(c));
  };
  using AnyGrid = std::integral_constant<GridForm, GridForm::any>;
  return launch_by_vec_and_epilogue(c, [&](auto vec, auto visitor) {
    using V = typename decltype(visitor)::type;
    // A grid in which no block meets an edge takes the kernel compiled for it, for C stored or not,
    // where the visitor has one (V::kTileForms: the top-2 visitors) and its blocks' k range is short
    // enough to gain by it (Cfg::whole_grid_kernel_gains).
    if constexpr (decltype(vec)::value) {
      if (grid_is_whole(c, Cfg::BM, Cfg::BN, Cfg::BK) && Cfg::whole_grid_kernel_gains(c.op.k_split) &&
          launch_whole_grid_form<V>(c.out.store, [&](auto grid) { launch(vec, False{}, visitor, False{}, grid); }))
        return;
    }
    // beta != 0 reads C: plain and fused top-2 calls take the kernels that read it ahead
    // (V::kTileForms), for a 16-byte C where the configuration gains by it (Cfg::vec_reads_c_ahead).
    // The fused top-2 read C in turn until session 46: 1.21x the plain call at 16384^2 x 64 with beta
    // 1 (H200, run FN in results/nvidia-h200/README.md). The 64-bit-index top-2 (outputs of 2^32
    // entries or more) and the per-row top-2 keep one kernel for any beta (reading C in turn), which
    // halves what they compile.
    if constexpr ((V::kTileForms & TileForms::read_c_ahead) != 0) {
      if (c.out.beta != 0.0f && !c.out.c_vec4) {
        launch(vec, True{}, visitor, True{}, AnyGrid{});
        return;
      }
      if (c.out.beta != 0.0f && Cfg::vec_reads_c_ahead(c.op.m, c.op.n, c.op.k_split)) {
        launch(vec, False{}, visitor, True{}, AnyGrid{});
        return;
      }
    }
    if (c.out.c_vec4) launch(vec, False{}, visitor, False{}, AnyGrid{});
    else launch(vec, True{}, visitor, False{}, AnyGrid{});
  });
}

// Resident blocks per SM of the store-only kernel (the cost model's occupancy).
template <class Cfg>
Status double_buffered_occupancy(int* blocks_per_sm) {
  return status_from(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      blocks_per_sm, double_buffered_kernel<Cfg, true, false, StoreOnlyVisitor>, Cfg::kThreads,
      double_buffered_smem_bytes<Cfg>()));
}

}  // namespace gpuprims::detail
