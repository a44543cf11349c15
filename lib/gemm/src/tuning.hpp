#pragma once
// Tuning constants of the SGEMM ladder, kept apart from the kernels: each rung's tile shape, and the
// shapes of the tuned rung's paths (sgemm_autotune times every plan of them on the present GPU and
// fits the cost model that picks among them: cost_model.hpp, model_constants.inc).
#include <cstdint>

namespace gpuprims::detail {

// Rungs 1-3: one output per thread, 32 x 32 threads per block.
struct SimpleTiling {
  static constexpr int kTile = 32;
};

// Rung 4: each thread computes TM outputs of one column.
struct BlockTile1DConfig {
  static constexpr int BM = 64, BN = 64, BK = 8, TM = 8;
  static constexpr int kThreads = BM * BN / TM;
};

// Rungs 5-7: each thread computes a TM x TN register tile.
struct BlockTile2DConfig {
  static constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
  static constexpr int kThreads = BM * BN / (TM * TN);
  // Rungs 6-7 ask for two resident blocks (at most 128 registers a thread): rung 7's swizzled
  // addressing took the compiler to 129 registers, one block per SM and 0.48x cuBLAS at 4096^3 against
  // rung 6's 0.67x (ncu, H100, session 18).
  static constexpr int kMinBlocksPerSm = 2;
};

// Rungs 8-10: block tile BM x BN split into warp tiles WM x WN; in a warp, 4 x 8 threads each own
// (WM / 16) x (WN / 32) sub-tiles of 4 x 4 results. BK is the depth of one shared-memory slab.
// WholeVectorEdges: rung 9's edge tiles load their whole slabs with predicated 16-byte loads
// (SlabLoader::load_whole_vectors) instead of load()'s branches; see the tuned configurations below.
template <int BM_, int BN_, int BK_, int WM_, int WN_, int MinBlocksPerSm_, int GroupM_ = 8,
          bool WholeVectorEdges_ = false>
struct WarpTileConfig {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_;
  static constexpr int kMinBlocksPerSm = MinBlocksPerSm_;
  static constexpr int kGroupM = GroupM_;
  static constexpr bool kWholeVectorEdges = WholeVectorEdges_;
  static constexpr int kWarpsM = BM / WM, kWarpsN = BN / WN;
  static constexpr int kThreads = kWarpsM * kWarpsN * 32;
  static constexpr int kThreadRows = 4, kThreadCols = 8;  // lanes of a warp: 4 rows x 8 columns
  static constexpr int kSubM = WM / (kThreadRows * 4), kSubN = WN / (kThreadCols * 4);
  static constexpr int TM = 4 * kSubM, TN = 4 * kSubN;
  // Whether a plain call with beta != 0 and a C that takes 16-byte accesses runs the kernel compiled to
  // read C ahead (warp_tile_epilogue's kReadsC) or the one that reads it in turn, for an m x n output
  // whose blocks run k_split deep. With 128 accumulators a thread (128 x 256, 256 x 128) the read-ahead
  // kernel runs slower on long k when every tile is whole: 0.7-3.2% more time than reading in turn at
  // k = 1024 to 4096 on 2048^2 to 8192^2, 0.0-0.7% more at 768, 0.4-2.0% less at 512, 12-18% less at 64.
  // With edge tiles it is as fast or faster: on 40 random shapes of k 768 to 7864, reading in turn took
  // 1.1% more time on 128 x 256 and 0.2% less on 256 x 128 (H200, runs FJ, FL2 and FM2 in
  // results/nvidia-h200/README.md). Smaller thread tiles read ahead faster or within 0.2% wherever run
  // FJ timed them but 2048^2 x 64.
  static constexpr bool vec_reads_c_ahead(std::int64_t m, std::int64_t n, std::int64_t k_split) {
    return TM * TN < 128 || k_split < 768 || m % BM != 0 || n % BN != 0;
  }
  // Whether a call over a grid in which no block meets an edge (grid_is_whole) runs the kernel
  // compiled for such grids (GridForm: one main loop, one epilogue form) rather than the general one,
  // where its visitor has that kernel (Visitor::kTileForms), for blocks that run k_split deep. On
  // 12 outputs over every configuration, the whole-grid kernel took the three top-2 forms (C stored,
  // not stored, per row) 0.4-6.3% less time at k = 64 to 1024, and up to 3% more at k = 2048 to
  // 4096, where the main loop is nearly all the time: the same loop runs slower in the smaller
  // kernel, as ptxas compiles it there (H200, runs ID and IE in results/nvidia-h200/README.md). An
  // exception at short k: the per-row form at 65536^2 x 128 on 128 x 256 and 256 x 128 tiles took
  // 1.0% and 2.3% more (run IG).
  static constexpr bool whole_grid_kernel_gains(std::int64_t k_split) { return k_split <= 1024; }
  static constexpr int kAVecs = BM * BK / 4 / kThreads;  // float4 of A each thread loads per slab
  static constexpr int kBVecs = BK * BN / 4 / kThreads;  // float4 of B each thread loads per slab
  static_assert(BM % WM == 0 && BN % WN == 0, "whole warp tiles");
  static_assert(kSubM >= 1 && kSubN >= 1 && WM % 16 == 0 && WN % 32 == 0, "whole 4x4 sub-tiles");
  static_assert(kAVecs >= 1 && BM * BK % (4 * kThreads) == 0, "A slab splits evenly over threads");
  static_assert(kBVecs >= 1 && BK * BN % (4 * kThreads) == 0, "B slab splits evenly over threads");
  static_assert(kThreads >= 64 && (kThreads & (kThreads - 1)) == 0, "power-of-two block");
};

using WarptileRungConfig = WarpTileConfig<128, 128, 8, 32, 64, 1>;
using DoubleBufferedRungConfig = WarpTileConfig<128, 128, 8, 32, 64, 1>;

// The tuned rung's candidates (all run the double-buffered kernel). Index = config id in the table.
// Edge tiles on predicated loads (WholeVectorEdges) where that measured faster. Run EV (H200,
// results/nvidia-h200/README.md, session 42) timed plain kernels on eight shapes with edge tiles or a
// k tail:
// - 128 x 128 x 16 took 1.8-4.3% less time.
// - 64 x 128 and 64 x 64 took 1-18% less at seven of the eight. They took 7.8% and 5.4% more
//   at one each (100 x 8192 x 4096 and 80 x 6000 x 6000).
// - 256 x 128 took up to 3.9% more, even at 4096^3, where no tile has an edge.
// - 128 x 256 and 128 x 128 x 8 moved from -2.5% to +2.8%.
// These and 32 x 64 x 32 (not timed) keep the branching loads, and their code is as before.
using TunedConfig0 = WarpTileConfig<128, 128, 8, 32, 64, 1>;
using TunedConfig1 = WarpTileConfig<128, 128, 16, 32, 64, 1, 8, true>;
using TunedConfig2 = WarpTileConfig<128, 256, 8, 64, 64, 1>;
using TunedConfig3 = WarpTileConfig<256, 128, 8, 64, 64, 1>;
using TunedConfig4 = WarpTileConfig<64, 128, 16, 32, 64, 3, 8, true>;
using TunedConfig5 = WarpTileConfig<64, 64, 16, 32, 32, 4, 8, true>;
using TunedConfig6 = WarpTileConfig<32, 64, 32, 32, 32, 4>;

// The few-rows path (kernels/few_rows.cuh, m <= kRows; one kernel per kRows in kFewRowsVariants):
// eight warps on one strip of 128 columns (four per lane), splitting k between them; A staged
// chunk(kRows) deep; unroll(kRows) rows of B per lane per step (4 for 32 rows, whose 128 accumulators
// leave no room for 8). One step of the block covers step(kRows) of k.
inline constexpr int kFewRowsVariants[] = {4, 8, 16, 32};
inline constexpr int kNumFewRowsPaths = 4;
struct FewRowsShape {
  static constexpr int kThreads = 256;
  static constexpr int kCols = 128;
  static constexpr int unroll(int rows) { return rows >= 32 ? 4 : 8; }
  static constexpr int step(int rows) { return kThreads / 32 * unroll(rows); }
  // With prefetch, a lane loads the next step's rows of B before this step's FMAs (two steps in flight,
  // across a chunk of A too, whose staging they then overlap), A is staged 2048 deep (32 KB), and the
  // registers are capped for two blocks per SM. On an H100 that took 1 x 4096 x 4096 from 40.5 to
  // 37.8 us; for 8 rows it took 191 registers (one block per SM) and 8 x 333 x 65536 from 56.1 to
  // 64.0 us, and capped at 128 it spilled, so the wider variants keep one step in flight.
  static constexpr bool prefetch(int rows) { return rows <= 4; }
  static constexpr int chunk(int rows) { return prefetch(rows) ? 2048 : 256; }
  static constexpr int min_blocks(int rows) { return prefetch(rows) ? 2 : 1; }
};
static_assert(FewRowsShape::chunk(32) % FewRowsShape::step(32) == 0 &&
                  FewRowsShape::chunk(4) % FewRowsShape::step(4) == 0,
              "whole block steps per chunk");

// The few-columns path (kernels/few_cols.cuh, n <= kCols; one kernel per kCols in kFewColsVariants):
// kWarps warps of rows_per_warp rows each; B staged chunk(kCols) deep, about 32 KB of shared memory
// whatever kCols.
inline constexpr int kFewColsVariants[] = {4, 8, 16, 32};
inline constexpr int kNumFewColsPaths = 4;
struct FewColsShape {
  static constexpr int kWarps = 8;
  static constexpr int kThreads = 32 * kWarps;
  static constexpr int rows_per_warp(int cols) { return cols >= 32 ? 2 : 4; }  // accumulators <= 64
  static constexpr int rows_per_block(int cols) { return kWarps * rows_per_warp(cols); }
  static constexpr int chunk(int cols) { return 8192 / cols; }
  // A grid of at most kLatencyBoundBlocks blocks (under one per SM on any GPU this runs on) is bound
  // by memory latency, not bandwidth: its kernel issues the A loads of passes(cols) passes of a warp
  // together (8 to 16 loads in flight per thread where one pass at a time kept 2 to 4), the first
  // before B is staged. It needs more registers (up to 128: two blocks per SM), which costs the larger
  // grids bandwidth, so they keep one pass at a time. Both give the same bits.
  static constexpr int kLatencyBoundBlocks = 64;
  static constexpr int passes(int cols) { return cols <= 4 ? 4 : 2; }
  // One pass of a warp's lanes covers 128 values of k.
  static constexpr int kKStep = 128;
};

// The outer-product path (kernels/outer_product.cuh, 1 <= k <= kMaxK): blocks of kThreads threads on
// kRows rows x one kWindow-float window of each row. A probe on an H200 (results/nvidia-h200/README.md,
// session 46, run FP2) timed 4, 8 and 16 rows with windows of 1024, 1024 and 512 floats. With beta = 0
// 16 x 512 was the fastest or within 3% wherever C was large (2339 x 7091 x 1: 40.1, 28.9, 28.5 us;
// 11584 x 2428 x 2: 79.7, 54.8, 47.0 us): the staging of B's window costs least per result there.
// With beta = 1 the probe read C in turn and 8 x 1024 was faster (2339 x 7091 x 1: 47.3 against
// 54.7 us); the library's kernel reads a row's entries of C together.
// The tuned rung takes it instead of the cost model's pick (outer_product_serves, cost_model.hpp)
// only where the probe found it ahead of the tile paths: C stored without 16-byte accesses and at
// least kMinOutputs results (below that the staging and short rows lose to the tiles' one pass: 18 x
// 9621 x 3 in 6.9 to 7.7 us against 6.4). Where C takes 16-byte accesses the tiles' 16-byte stores
// stayed ahead of that kernel (4096 x 4096 x 4 at 1.19x cuBLAS's speed on tiles, 0.96x on this path),
// but not of session 50's leaner one: `sgemm_bench --suite outer_probe` (results/nvidia-h200, runs GE
// and GF) timed it forced against the tuned pick on outputs of 2^16 to 2^26 entries. With 16-byte C it
// won with beta 0 and 1 wherever n >= 2048 and m n >= 2^23 (4096 x 4096 x 1: 21.1 against 25.1 us,
// 43.8 against 44.7 with beta 1; 11584 x 2428 x 2: 31.8 against 48.3 and 77.6 against 93.2), lost at
// 2048 x 2048 with beta 1 (17.6-17.9 against 15.1-15.3 us) and wherever n <= 512 (8192 x 512 x 4:
// 12.2 against 9.7 us; its 512-float windows are then mostly empty or short). So a plain call with
// 16-byte C takes it from kMinVectorColumns columns and kMinVectorOutputs results. A fused top-2 call
// did not (its ranking made this kernel 1.8x its plain call, session 50, run GD) until session 60's
// kernel, compiled per k and without bounds tests on windows with no edge. A probe of it (run IW,
// results/nvidia-h200/probe-outer-rows-IW.cu.txt) ran the fused top-2 with C stored at 30.1 us against
// the tuned pick's 59.0 at 1000 x 20000 x 1, 30.4 against 34.0 at 4096 x 4096 x 2 and 35.2 against
// 35.4 at 8192 x 2048 x 4 (16-byte C each), and the library's calls (run IY, old and new library in
// turn) took the fused top-2 with 16-byte C from 61.3 to 29.8 us at 1000 x 20000 x 1, 81.0 to 43.0 at
// 11584 x 2428 x 2 and 342 to 282 at 16384 x 16384 x 1. So a fused top-2 call takes it under the
// 16-byte thresholds too (outer_product_serves, cost_model.hpp). Without C it lost at k = 1 to the
// tiles' whole-grid kernels (4096 x 4096 x 1: 26.4 against 21.7 us; 16384 x 16384 x 1: 247 against
// 179) while it won on grids with edges (2339 x 7091 x 1: 24.3 against 31.1): no C keeps the tiles.
// kTop2Rows: the streaming top-2 ends each block with a merge and a push, and its blocks of 32 rows
// were the fastest of 16, 32 and 64 at each of those shapes (2339 x 7091 x 1: 29.0, 26.4, 26.8 us; the
// plain call's blocks of 16 rows were the fastest or within 1% of it, 20.0, 20.5 and 20.9 us).
struct OuterProductShape {
  static constexpr int kThreads = 256;
  static constexpr int kRows = 16;
  static constexpr int kTop2Rows = 32;
  static constexpr int kWindow = 512;
  static constexpr int kMaxK = 4;
  // Eight blocks (64 warps) per SM for every visitor (32 registers): the store-only kernel needs no
  // more. Uncapped, the packed top-2's kernel took 48 (five blocks per SM); capped, it spills nothing
  // and ran 48.9-49.4 us at 2339 x 7091 x 1 (run FP6) against 49.1-49.3 for a build that was uncapped
  // but also voted per row (run FP5), so the cap alone was not timed. Under it (ptxas, sm_90, CUDA
  // 13.0, session 65) the per-row top-2's kernel spills (a 64-byte stack frame; 976 bytes of spill
  // stores and 1032 of loads in its code), the wide top-2's a word (an 8-byte frame), the store-only
  // and streaming top-2 kernels nothing.
  static constexpr int kMinBlocksPerSm = 8;
  static constexpr std::int64_t kMinOutputs = std::int64_t{1} << 22;
  static constexpr std::int64_t kMinVectorOutputs = std::int64_t{1} << 23;  // C with 16-byte access
  static constexpr std::int64_t kMinVectorColumns = 2048;
  // Windows per row: a row's columns shifted by its place within a 128-byte line (0 to 31 floats)
  // reach at most n + 31.
  static constexpr std::int64_t windows(std::int64_t n) { return (n + 31 + kWindow - 1) / kWindow; }
};

// Rungs 11-12 (tensor cores, kernels/11_tf32.cuh): the block tile BM x BN in warp tiles WM x WN of
// m16n8k8 MMAs, k in slabs BK deep through kStages shared-memory stages filled by cp.async. Rows of A
// and B in shared memory are padded (kAStride, kBStride) so that fragment reads hit 32 distinct banks;
// after the main loop the block's results pass through shared memory (kCStride per row) to leave as
// coalesced 16-byte rows.
template <int BM_, int BN_, int BK_, int WM_, int WN_, int Stages_, int MinBlocksPerSm_, int GroupM_ = 8>
struct TensorCoreConfig {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_;
  static constexpr int kStages = Stages_, kMinBlocksPerSm = MinBlocksPerSm_, kGroupM = GroupM_;
  static constexpr int kWarpsM = BM / WM, kWarpsN = BN / WN;
  static constexpr int kThreads = kWarpsM * kWarpsN * 32;
  static constexpr int kTilesM = WM / 16, kTilesN = WN / 8;  // m16n8 MMA tiles per warp tile
  static constexpr int kAStride = BK + 4;                    // rows 4 banks apart: ldmatrix conflict-free
  static constexpr int kBStride = BN + 8;                    // rows 8 banks apart: (k t, n g) reads
  static constexpr int kCStride = BN + 8;                    // float2 stores of the results
  static constexpr int kStageFloats = BM * kAStride + BK * kBStride;
  static constexpr int kSmemBytes =
      4 * (kStages * kStageFloats > BM * kCStride ? kStages * kStageFloats : BM * kCStride);
  static_assert(BM % WM == 0 && BN % WN == 0 && WM % 16 == 0 && WN % 8 == 0, "whole MMA tiles");
  static_assert(BK % 8 == 0 && BK >= 8, "whole k8 steps per slab");
  static_assert(BM * BK % (4 * kThreads) == 0 && BK * BN % (4 * kThreads) == 0, "slabs split evenly");
  static_assert(kStages >= 2, "at least one slab in flight while another is read");
};

using TensorCoreRungConfig = TensorCoreConfig<128, 128, 32, 64, 32, 3, 1>;

// The tensor-core rungs' Hopper form (kernels/tensor_core_wgmma.cuh): block tiles of 128 x BN, two
// warpgroups of 64 rows each; tf32x3 keeps the mma.sync form's 128 x 128 (so the same grid and top-2
// workspace), tf32 takes 128 x 256 (fewer blocks, so a workspace the registry's tile covers). A pass
// before the GEMM rounds A and B to kParts TF32 parts (tf32x3: big and small, 2; tf32: rounded once,
// 1), laid out as the MMAs read them (k-major core matrices), one contiguous kTileFloats piece per
// 128-row tile and BK-deep slab; a stage is one such piece of A and BN / 128 of B, brought in by bulk
// copies (multicast across clusters of 2 to 8 blocks: wgmma_cluster_shape below), kStages deep (192 KB
// either way; the results leave from registers, so they need no room of their own). One block per SM,
// persistent: tf32x3's accumulators and the slab's own sum take 128 registers per thread, as do tf32's
// 64 x 256 accumulators. Measured and not kept (H100, 4096^3): the earlier form of this kernel, which
// read the FP32 slabs by cp.async and split them itself (A in registers, B rewritten k-major in shared
// memory each slab), ran 56 TFLOP/s, issue-bound on the split; a warp-specialized version of it, 48;
// and (run BA) a third warpgroup feeding the stages (registers moved to the MMA warpgroups by
// setmaxnreg), with tf32 keeping a slab's MMAs in flight across the next slab's issue: tf32 at 4096^3
// 0.592 ms against 0.571, tf32x3 at 8192^3 11.13 ms against 9.39.
template <int kParts_, int BN_ = 128>
struct WgmmaTensorCoreConfigOf {
  static constexpr int kParts = kParts_;
  static constexpr int BM = 128, BN = BN_, BK = 32, kGroupM = 8;
  static constexpr int kWarpgroups = BM / 64, kThreads = kWarpgroups * 128, kWarps = kThreads / 32;
  static constexpr int kTileRows = 128;                              // rows (of A) or columns (of B) of a packed tile
  static constexpr int kBTiles = BN / kTileRows;                     // packed B tiles per block tile
  static constexpr int kPartFloats = kTileRows * BK;                 // one part (big or small) of a packed slab
  static constexpr int kTileFloats = kParts * kPartFloats;           // a packed slab: big, then small (if any)
  static constexpr int kStageFloats = (1 + kBTiles) * kTileFloats;   // A's packed slab, then B's
  static constexpr int kStages = (192 * 1024) / (4 * kStageFloats);  // 192 KB of stages: 3, 6 or 4
  static constexpr int kSmemAlignment = 1024;  // stages aligned for 128-byte swizzled tensor copies (tf32's A)
  static constexpr int kSmemBytes = 4 * kStages * kStageFloats + kSmemAlignment;  // results leave from registers
  static_assert(BM == kTileRows, "a block's A rows are one packed tile");
  static_assert(BN == 128 || (BN == 256 && kParts == 1),
                "one m64nBNk8 MMA per warpgroup per k8 step; two B tiles side by side only with one part (their "
                "row groups then stand evenly apart in a stage)");
  static_assert(BK % 8 == 0, "whole k8 steps per slab");
  static_assert(kParts == 1 || kParts == 2, "rounded once, or big and small");
};
using WgmmaTensorCoreConfig = WgmmaTensorCoreConfigOf<2>;  // tf32x3
// tf32 takes block tiles of 128 x 256: a stage's A slab and two B slabs feed twice the MMAs of a
// 128 x 128 stage, so a third less is read from L2 per MMA (with 128 x 128, ncu at 4096^3 found L2
// 71% busy, the tensor pipe 60%, the GEMM 483 us; with 128 x 256, 342 us: run BB, H100).
using WgmmaTf32Config = WgmmaTensorCoreConfigOf<1, 256>;  // tf32

//! A cluster of the wgmma form: m x n blocks of neighbouring output tiles, which share their A and B
//! slabs by multicast (tensor_core_wgmma.cuh).
struct WgmmaClusterShape {
  int m, n;
};

//! tf32x3 takes clusters of 8 blocks from this many output tiles per SM (below).
inline constexpr std::int64_t kWgmmaWideClusterTilesPerSm = 12;
//! tf32 takes pairs of blocks, not 2 x 2 clusters, from this depth on (below).
inline constexpr std::int64_t kWgmmaPairClusterMinK = 512;

//! The wgmma form's cluster for a grid of tiles_m x tiles_n tiles, k deep, on a GPU of sm_count SMs,
//! for the plain product or (fused) one with a top-2 epilogue; every side of the cluster divides the
//! grid's (the kernel's tile groups are whole clusters).
//! Measured on the H100 (results README, run AM; 132 SMs, of which whole clusters keep 132 blocks
//! resident in pairs but 120 in clusters of 4 or 8):
//! - tf32x3 reads two parts per slab and is bound by L2 bandwidth: a slab multicast to more blocks
//!   is read from L2 fewer times. 2 x 4 clusters (a slab of A and one of B read per 1.33 tiles, 2 x 2:
//!   per tile, 2 x 1: per 0.67) beat 2 x 2 by 2-9% on outputs of 12 or more tiles per SM (5120^3 to
//!   8192^3, 16384^2 x 64); on fewer (3072^3, 4096^3, 2048 x 8192 x 4096) they lost 1-7%. Pairs ran
//!   20-25% behind 2 x 2. The fused top-2s, whose epilogue takes longer than the product at short k,
//!   ran 1-3% slower in clusters of 8 (16384^2 x 64, 65536^2 x 128 per row): they keep 2 x 2.
//! - tf32 moves half the bytes and is bound by its SMs: pairs keep all 132 busy, where 2 x 2
//!   clusters leave 12 idle, and ran 3-33% ahead from k = 1024 (2048^3 to 8192^3); at k = 64 and 128
//!   2 x 2 stayed 3-5% ahead.
constexpr WgmmaClusterShape wgmma_cluster_shape(bool three_products, bool fused, std::int64_t tiles_m,
                                                std::int64_t tiles_n, std::int64_t k, int sm_count) {
  const bool m2 = tiles_m % 2 == 0, n2 = tiles_n % 2 == 0;
  if (three_products && !fused && tiles_m * tiles_n >= kWgmmaWideClusterTilesPerSm * sm_count) {
    if (m2 && tiles_n % 4 == 0) return {2, 4};
    if (tiles_m % 4 == 0 && n2) return {4, 2};
  }
  if (m2 && n2 && (three_products || k < kWgmmaPairClusterMinK)) return {2, 2};
  if (m2) return {2, 1};
  if (n2) return {1, 2};
  return {1, 1};
}

// Measured and not kept: 128x256 and 256x128 with BK = 16 (H200: never beat BK = 8); 128x128x8 at 2
// blocks per SM (H100: spills under the 128-register cap, 39.9 vs 46.2 TFLOP/s at 4096^3); a
// persistent form of configs 2 and 4 that loads a block's next tile during its last slab (H100: never
// the fastest on any autotune shape; at 16384^2 x 64, 36.4 vs 38.4 TFLOP/s for config 4). All three
// were measured with the earlier k loop (barrier after a slab's last k step, run-time stage index)
// and not again since.
inline constexpr int kNumTunedConfigs = 7;

}  // namespace gpuprims::detail
