#pragma once
// Rungs 11 and 12 on Hopper (sm_90a): the same products, per-slab promotion and epilogue as the
// mma.sync form (11_tf32.cuh; tf32 on block tiles twice as wide), but B's TF32 rounding (tf32) and
// both operands' split (tf32x3) move out of the GEMM. A pass first rounds B (tf32x3: A and B) into
// TF32 parts, already in the k-major core-matrix order the warpgroup MMAs (wgmma m64n128k8 or
// m64n256k8) read from shared memory; the GEMM then moves whole packed slabs in by bulk copies and
// issues MMAs. Splitting inside the kernel (the earlier form) made it issue-bound; TF32 wgmma reads B
// only k-major, so B needs the pass even for tf32. tf32's A is already k-major: the copy engine reads
// it in place (tensor copies, 128-byte swizzled) and the warps round it on its way to registers, the
// MMAs taking A from there, so the pass moves half the bytes. The GEMM is persistent, its results
// leaving from registers, so a short k pays no per-tile start (below).
#include <atomic>
#include <cstdint>
#include <type_traits>

#include <gpuprims/device/dependent_launch.cuh>

#include "common/device/warp_reduce.cuh"
#include "common/src/device_info.hpp"
#include "common/src/host_device.hpp"
#include "common/src/math.hpp"
#include "gemm/src/detail/k_range.cuh"
#include "gemm/src/detail/launch.cuh"
#include "gemm/src/detail/tma_descriptor.hpp"
#include "gemm/src/detail/wgmma_ptx.cuh"
#include "gemm/src/epilogue/epilogue.cuh"
#include "gemm/src/kernels/11_tf32.cuh"
#include "gemm/src/rungs/tensor_core_forms.hpp"
#include "gemm/src/tuning.hpp"

namespace gpuprims::detail {

//! Where the packed operands live. A packed slab of tile t (rows t * 128.. of A, or columns of B) and
//! k from s * BK is kTileFloats contiguous floats at (t * slabs + s) * kTileFloats: the big part, then
//! (Cfg::kParts == 2) the small. In a part, core matrix (r / 8, k / 4) (8 rows x 4 k, 128 bytes) starts at
//! ((r / 8) * (BK / 4) + k / 4) * 32 and holds (r % 8, k % 4) at (r % 8) * 4 + k % 4. Entries past
//! the matrix's rows or k are zero.
template <class Cfg>
struct PackedLayout {
  static constexpr std::uint32_t kKStepBytes = 128;                     // next core matrix along k
  static constexpr std::uint32_t kRowGroupBytes = (Cfg::BK / 4) * 128;  // next 8 rows
  static constexpr int kRowGroupFloats = static_cast<int>(kRowGroupBytes / 4);

  GPUPRIMS_HD static std::int64_t slabs(std::int64_t k) { return ceil_div<std::int64_t>(k, Cfg::BK); }
  GPUPRIMS_HD static std::int64_t tiles(std::int64_t rows) { return ceil_div<std::int64_t>(rows, Cfg::kTileRows); }
  //! Packed tiles of B for n columns: whole block tiles (kBTiles each), those past n all zero.
  GPUPRIMS_HD static std::int64_t b_tiles(std::int64_t cols) {
    return ceil_div<std::int64_t>(tiles(cols), Cfg::kBTiles) * Cfg::kBTiles;
  }
  //! Floats of packed A (m rows, depth k) and of packed B (n columns).
  GPUPRIMS_HD static std::int64_t a_floats(std::int64_t m, std::int64_t k) {
    return tiles(m) * slabs(k) * Cfg::kTileFloats;
  }
  GPUPRIMS_HD static std::int64_t b_floats(std::int64_t n, std::int64_t k) {
    return b_tiles(n) * slabs(k) * Cfg::kTileFloats;
  }
};

//! The packing pass's shared buffer: one 128 x BK piece of an operand, as read. A piece of A keeps
//! A's rows (128 rows of BK floats, kAStride apart), one of B keeps B's (BK rows of 128 columns,
//! kBStride apart), so both are filled by 16-byte stores. The strides spread the part-order reads
//! below over all banks: 4 banks from one row of A to the next, 8 from one row of B to the next.
template <class Cfg>
struct PackPiece {
  static constexpr int kAStride = Cfg::BK + 4, kBStride = Cfg::kTileRows + 8;
  static constexpr int kFloats =
      Cfg::kTileRows * kAStride > Cfg::BK* kBStride ? Cfg::kTileRows* kAStride : Cfg::BK* kBStride;
};

//! How the packing pass leaves A: in packed TF32 parts (tf32x3), as an unrounded row-major copy with
//! rows of whole slabs, 16-byte aligned (tf32, where the copy engine cannot read A in place), or not
//! at all (tf32, read in place).
enum class APacking { parts, aligned_copy, none };

//! One operand's packing: the block takes packed slabs (tile, slab) of `tiles` tiles in turn, reads
//! the 128 x BK piece of the operand into `piece` (16 bytes a thread, coalesced along the source's
//! rows; 4 bytes where the source's rows are not 16-byte aligned, or at its edge), then writes both
//! parts out contiguously, 16 bytes a thread. kColumns: the operand is B (K x N, row-major) and a
//! packed row is one of its columns. kCopy (A only): each piece goes straight out unrounded, row r
//! of the copy at r * slabs * BK floats (APacking::aligned_copy), without passing through `piece`. (Reading and writing
//! 4 bytes a thread, the pass was partly issue-bound: H100, tf32 at 4096^3, 101 us with DRAM 73% busy and issue slots
//! 59%.)
template <class Cfg, class Products, bool kColumns, bool kCopy = false>
__device__ __forceinline__ void pack_tf32_parts(const float* src, std::int64_t rows, std::int64_t tiles, std::int64_t k,
                                                std::int64_t ld, float* packed, float* piece) {
  constexpr int kRows = Cfg::kTileRows, kAStride = PackPiece<Cfg>::kAStride, kBStride = PackPiece<Cfg>::kBStride;
  static_assert(Cfg::BK == 32 && kRows == 128, "the thread mappings below assume 128 x 32 pieces");
  static_assert(Cfg::kParts == Products::kParts, "the packed slab holds the policy's parts");
  static_assert(!(kCopy && kColumns), "only A is copied");
  using L = PackedLayout<Cfg>;
  const std::int64_t slabs = L::slabs(k), total = tiles * slabs;
  const std::int64_t src_rows = kColumns ? k : rows, src_cols = kColumns ? rows : k;
  const int tid = static_cast<int>(threadIdx.x), lane = tid % 32, warp = tid / 32;
  const bool vectors = ld % 4 == 0 && reinterpret_cast<std::uintptr_t>(src) % 16 == 0;  // the whole launch
  for (std::int64_t p = blockIdx.x; p < total; p += gridDim.x) {
    const std::int64_t row0 = (p / slabs) * kRows, k0 = (p % slabs) * Cfg::BK;
    // 1024 16-byte pieces, four a thread. A: thread t of pass i takes row (t + 256i) / 8 and k from
    // 4 * (t % 8), so a warp reads 128 bytes of each of four rows; B: k row (t + 256i) / 32 and
    // columns from 4 * (t % 32), so a warp reads 512 bytes of one row.
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const int v = tid + 256 * i;
      const int r = kColumns ? v / 32 : v / 8;              // the piece's row as read: k for B, a row of A
      const int c = kColumns ? 4 * (v % 32) : 4 * (v % 8);  // its first column as read
      const std::int64_t sr = kColumns ? k0 + r : row0 + r, sc = kColumns ? row0 + c : k0 + c;
      float4 x = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      if (sr < src_rows) {
        const float* const at = src + sr * ld + sc;
        if (vectors && sc + 3 < src_cols) {
          x = *reinterpret_cast<const float4*>(at);
        } else {
          x.x = sc < src_cols ? at[0] : 0.0f;
          x.y = sc + 1 < src_cols ? at[1] : 0.0f;
          x.z = sc + 2 < src_cols ? at[2] : 0.0f;
          x.w = sc + 3 < src_cols ? at[3] : 0.0f;
        }
      }
      if constexpr (kCopy) *reinterpret_cast<float4*>(packed + (row0 + r) * slabs * Cfg::BK + k0 + c) = x;
      else *reinterpret_cast<float4*>(&piece[r * (kColumns ? kBStride : kAStride) + c]) = x;
    }
    if constexpr (kCopy) continue;
    __syncthreads();
    // The parts: 32 units of 32 packed rows (four 8-row groups) by 4 k, one per warp per pass; lane l
    // takes packed row 32 * (u / 8) + l at k 4 * (u % 8) .. + 3 and writes those four floats at once.
    float* const out = packed + p * Cfg::kTileFloats;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const int u = warp + 8 * i, r = 32 * (u / 8) + lane, kk = 4 * (u % 8);
      float4 x;
      if constexpr (kColumns) {
        x = make_float4(piece[kk * kBStride + r], piece[(kk + 1) * kBStride + r], piece[(kk + 2) * kBStride + r],
                        piece[(kk + 3) * kBStride + r]);
      } else {
        x = *reinterpret_cast<const float4*>(&piece[r * kAStride + kk]);
      }
      const int o = (r / 8) * L::kRowGroupFloats + (kk / 4) * 32 + (r % 8) * 4;
      if constexpr (Cfg::kParts == 2) {
        std::uint32_t big[4] = {}, small[4] = {};
        Products::split(__float_as_uint(x.x), big[0], small[0]);
        Products::split(__float_as_uint(x.y), big[1], small[1]);
        Products::split(__float_as_uint(x.z), big[2], small[2]);
        Products::split(__float_as_uint(x.w), big[3], small[3]);
        *reinterpret_cast<float4*>(out + o) = make_float4(__uint_as_float(big[0]), __uint_as_float(big[1]),
                                                          __uint_as_float(big[2]), __uint_as_float(big[3]));
        *reinterpret_cast<float4*>(out + Cfg::kPartFloats + o) = make_float4(
            __uint_as_float(small[0]), __uint_as_float(small[1]), __uint_as_float(small[2]), __uint_as_float(small[3]));
      } else {
        // As OneTf32Product rounds its fragments.
        *reinterpret_cast<float4*>(out + o) =
            make_float4(__uint_as_float(round_to_tf32(x.x)), __uint_as_float(round_to_tf32(x.y)),
                        __uint_as_float(round_to_tf32(x.z)), __uint_as_float(round_to_tf32(x.w)));
      }
    }
    __syncthreads();  // the piece is read before the next one overwrites it
  }
}

//! The packing pass, both operands in one launch (a second launch cost small products its start):
//! blocks of grid row 0 pack A (m x k) as kA says, those of the last row pack B (k x n) column by
//! column; with APacking::none the grid is the one row for B.
template <class Cfg, class Products, APacking kA>
__global__ void __launch_bounds__(256) pack_tf32_operands_kernel(GemmOperands op, float* a_packed, float* b_packed) {
  __shared__ __align__(16) float piece[PackPiece<Cfg>::kFloats];  // one buffer, whichever operand the block packs
  using L = PackedLayout<Cfg>;
  static_assert((kA == APacking::parts) == (Cfg::kParts == 2), "tf32x3 packs A's parts, tf32 never does");
  if (kA != APacking::none && blockIdx.y == 0) {
    constexpr bool kCopy = kA == APacking::aligned_copy;
    pack_tf32_parts<Cfg, Products, false, kCopy>(op.A, op.m, L::tiles(op.m), op.k, op.lda, a_packed, piece);
  } else {
    pack_tf32_parts<Cfg, Products, true>(op.B, op.n, L::b_tiles(op.n), op.k, op.ldb, b_packed, piece);
  }
  // The GEMM may be scheduled once every block got here (its blocks start while the last ones finish,
  // and wait for this grid before their first copy): not earlier, or its waiting blocks would hold
  // the SMs' shared memory while packing blocks are still to run.
  ::gpuprims::device::allow_dependent_launch();
}

// The warpgroup's MMAs of one stage into d: per k8 step, with two parts small*big, big*small, big*big
// (the mma.sync form's order), the first overwriting d (the slab's own sum); with one part big*big,
// added to d. a: the stage's packed A slab (this warpgroup's 64 rows start `a_rows` floats in), b:
// its packed B slabs (kBTiles side by side: their 8-column groups stand kRowGroupBytes apart
// throughout, so one descriptor spans all BN columns).
template <class Cfg>
__device__ __forceinline__ void wgmma_stage(float (&d)[Cfg::BN / 2], const float* a, const float* b) {
  using L = PackedLayout<Cfg>;
  const auto desc = [](const float* part) { return kmajor_descriptor(part, L::kKStepBytes, L::kRowGroupBytes); };
  wgmma_fence();
#pragma unroll
  for (int kk = 0; kk < Cfg::BK / 8; ++kk) {
    const int step = kk * 2 * 32;  // two core matrices along k per k8 step
    const std::uint64_t a_big = desc(a + step), b_big = desc(b + step);
    if constexpr (Cfg::kParts == 2) {
      const std::uint64_t a_small = desc(a + Cfg::kPartFloats + step), b_small = desc(b + Cfg::kPartFloats + step);
      wgmma_m64nk8_tf32(d, a_small, b_big, kk == 0 ? 0 : 1);
      wgmma_m64nk8_tf32(d, a_big, b_small, 1);
    }
    wgmma_m64nk8_tf32(d, a_big, b_big, 1);
  }
}

// tf32's MMAs of one stage into d, A from registers: a is the stage's A slab as the tensor copy left
// it (row r of BK = 32 floats at 128 r bytes, its 16-byte piece j at piece j ^ (r % 8)), and the
// warp's 16 rows start at row `warp_row`. Per k8 step one ldmatrix gives the warp its m16n8k8
// fragment (lanes 8j..8j+7 name the rows of matrix j: rows 0-7, 8-15 at k 0-3, then at k 4-7; the
// swizzle puts the 8 rows of each matrix in different banks), rounded to TF32 as the packing pass
// rounds B, so the products are those of a packed A.
template <class Cfg>
__device__ __forceinline__ void wgmma_stage_a_from_registers(float (&d)[Cfg::BN / 2], const float* a, const float* b,
                                                             int warp_row, int lane) {
  static_assert(Cfg::kParts == 1 && Cfg::BN == 256 && Cfg::BK == 32, "tf32's 128 x 256 tiles, a 128-byte row of A");
  using L = PackedLayout<Cfg>;
  const int r = warp_row + lane % 8 + 8 * ((lane / 8) % 2);  // the row this lane names; r % 8 == lane % 8
  const float* const row = a + r * Cfg::BK;
  std::uint32_t frag[Cfg::BK / 8][4];
#pragma unroll
  for (int kk = 0; kk < Cfg::BK / 8; ++kk) {
    const int piece = (2 * kk + lane / 16) ^ (lane % 8);
    load_matrix_x4(frag[kk], row + 4 * piece);
#pragma unroll
    for (int e = 0; e < 4; ++e) frag[kk][e] = round_to_tf32(__uint_as_float(frag[kk][e]));
  }
  wgmma_fence();  // the fragments' writes before the MMAs that read them
#pragma unroll
  for (int kk = 0; kk < Cfg::BK / 8; ++kk)
    wgmma_m64n256k8_tf32_rs(d, frag[kk], kmajor_descriptor(b + kk * 2 * 32, L::kKStepBytes, L::kRowGroupBytes), 1);
}

// The block's results of one tile through the epilogue, straight from the accumulators (no pass
// through shared memory, which holds the next tile's slabs by then). Thread 4g + t of warp w in its
// warpgroup holds rows 16w + g and 16w + g + 8 at columns 8j + 2t, 8j + 2t + 1; one shuffle with the
// quad neighbour (t ^ 1) per j gives each thread four consecutive columns of one row: even t row g,
// columns 8j + 2t..+3; odd t row g + 8, columns 8j + 2(t - 1)..+3. A thread stays on one row of the
// tile throughout, which the per-row top-2 visitor likes. An interior tile computes (and stores) all
// its values before any visit, in one straight run whose shuffles overlap (a branch per visit between
// them left each shuffle's latency bare: the fused top-2 at 16384^2 x 64 ran 0.89 ms against the
// plain product's 0.61); a voting visitor (kVotesPerTile) then votes once for them, as
// warp_tile_epilogue does. A tile 256 wide goes out in two such runs of 128 columns (the values of
// all 256 would not fit beside the accumulators).
template <class Cfg, class Products, class Visitor>
__device__ __forceinline__ void wgmma_tile_out(const GemmOperands& op, Epilogue<Visitor>& epi,
                                               const float (&acc)[Cfg::BN / 2], std::int64_t row0, std::int64_t col0,
                                               int wm, int lane) {
  const int g = lane / 4, t = lane % 4;
  const bool odd = (t & 1) != 0;
  const std::int64_t r = row0 + wm + g + (odd ? 8 : 0);
  const std::int64_t c0 = col0 + 2 * (t & ~1);
  const auto quad = [&](int j) {
    const float s0 = odd ? acc[4 * j] : acc[4 * j + 2], s1 = odd ? acc[4 * j + 1] : acc[4 * j + 3];
    const float r0 = __shfl_xor_sync(~0u, s0, 1), r1 = __shfl_xor_sync(~0u, s1, 1);
    return odd ? make_float4(r0, r1, acc[4 * j + 2], acc[4 * j + 3]) : make_float4(acc[4 * j], acc[4 * j + 1], r0, r1);
  };
  // A split product's NaN is computed again in FP32 (recompute_nan), which the checked path below does
  // per result. So a tile whose warp holds a NaN goes that way, and the interior run tests nothing: a
  // test per four results there (a branch each) stood between the run's shuffles and left their
  // latency bare - a quarter of the stall samples of the fused top-2 at 16384^2 x 64 (ncu, run CA).
  bool interior = epi.interior(row0, col0, Cfg::BM, Cfg::BN);
  if constexpr (Products::kRecomputesNaN) interior = interior && !__any_sync(kFullMask, any_nan(acc));
  if (interior) {
    // C not stored: a voting visitor's vote needs no row layout, so it runs on the values as the
    // accumulators hold them, and a tile none of whose values can enter (past the first tiles, almost
    // every one) skips the shuffles too. A tile that may goes out as below, and votes again there.
    if constexpr (Visitor::kVotesPerTile) {
      if (!epi.stores_c()) {
        VoteLeast least;
#pragma unroll
        for (int e = 0; e < Cfg::BN / 2; e += 4)
          least.add(epi.value4(r, c0, make_float4(acc[e], acc[e + 1], acc[e + 2], acc[e + 3]), false, false));
        if (!__any_sync(kFullMask, epi.visitor().may_take(least.value))) return;
      }
    }
    constexpr int kQuads = 128 / 8;  // per run of 128 columns
#pragma unroll
    for (int q0 = 0; q0 < Cfg::BN / 8; q0 += kQuads) {
      float4 values[kQuads];
      epi.with_interior_form([&](auto store, auto beta) {
#pragma unroll
        for (int j = 0; j < kQuads; ++j)
          values[j] = epi.value4(r, c0 + 8 * (q0 + j), quad(q0 + j), decltype(store)::value, decltype(beta)::value);
      });
      if constexpr (Visitor::kVotesPerTile) {
        VoteLeast least;
#pragma unroll
        for (int j = 0; j < kQuads; ++j) least.add(values[j]);
        // Value s is component s % 4 of values[s / 4]: row r, columns in increasing order.
        const auto value = [&](int s) {
          const float4& q = values[s / 4];
          return s % 4 == 0 ? q.x : s % 4 == 1 ? q.y : s % 4 == 2 ? q.z : q.w;
        };
        const auto cell = [&](int s) { return OutputCell{r, c0 + 8 * (q0 + s / 4) + s % 4}; };
        if (__any_sync(kFullMask, epi.visitor().may_take(least.value)))
          epi.visitor().template take_run<4 * kQuads>(value, cell);
      } else {
#pragma unroll
        for (int j = 0; j < kQuads; ++j) epi.visitor().visit4(r, c0 + 8 * (q0 + j), values[j]);
      }
    }
  } else {
    // An edge tile, or a C without 16-byte accesses (every tile then): checked single results in the
    // accumulators' own layout, row g then row g + 8, so each store instruction fills half of 8 rows'
    // 32-byte sectors (in the quad layout above a quarter of 16 rows' sectors: 4095^3 on the H100
    // took tf32 14% longer that way than through shared memory).
    const std::int64_t rg = row0 + wm + g, cg = col0 + 2 * t;
#pragma unroll
    for (int half = 0; half < 2; ++half) {
#pragma unroll
      for (int j = 0; j < Cfg::BN / 8; ++j) {
        const std::int64_t r1 = rg + 8 * half, c1 = cg + 8 * j;
        float x0 = acc[4 * j + 2 * half], x1 = acc[4 * j + 2 * half + 1];
        if constexpr (Products::kRecomputesNaN) {
          x0 = recompute_nan(op, r1, c1, x0);
          x1 = recompute_nan(op, r1, c1 + 1, x1);
        }
        epi.apply1(r1, c1, x0);
        epi.apply1(r1, c1 + 1, x1);
      }
    }
  }
}

//! The GEMM over packed operands, persistent, in clusters of kClusterM x kClusterN blocks (a 2 x 4,
//! 4 x 2, 2 x 2, 2 x 1, 1 x 2 or single block of output tiles: wgmma_cluster_shape, tuning.hpp):
//! cluster q of the grid takes the cluster-sized groups of tiles q, q + clusters, ... in turn. The
//! blocks of a cluster that share A's rows (or B's columns) each fetch a share of that packed slab and
//! multicast it to all of them, so the slab leaves L2 once per cluster, not once per block (the form is
//! L2-bandwidth-bound without it). A block's slabs over all its tiles form one sequence of items
//! through the kStages stages; thread 0 feeds them: kStages items at the start, then in step g (its
//! warpgroup's MMAs of item g issued) it waits until every warp of the cluster is done with item g - 1
//! and fetches item g - 1 + kStages into that stage. So the next tile's first slabs land while a tile's
//! results go out, and a short k (a few slabs per tile) no longer pays a block's start, its stages'
//! fill and its epilogue one after the other per tile. Each stage has a `full` barrier (every byte of
//! both slabs landed here) and an `empty` one (every warp of every block of the cluster finished its
//! MMAs on it). tf32 (one part) reads A's slabs through a_map (A itself, or the pass's aligned copy;
//! boxes of BK x BM / kClusterN, 128-byte swizzled) instead of a_packed.
template <class Cfg, class Products, int kClusterM, int kClusterN, class Visitor>
__global__ void __launch_bounds__(Cfg::kThreads, 1)
    wgmma_tensor_core_kernel(GemmOperands op, const float* a_packed, const float* b_packed,
                             const __grid_constant__ CUtensorMap a_map, EpilogueParams<Visitor> ep) {
  constexpr bool kAInPlace = Cfg::kParts == 1;  // A by tensor copies, rounded on its way to registers
  static_assert(Products::kPromotesPerSlab == (Cfg::kParts == 2), "tf32x3 promotes each slab's sum, tf32 not");
  // A split-K plan (k_split a whole number of slabs): this block row's slabs and partial (k_range.cuh).
  const std::int64_t packed_slabs = PackedLayout<Cfg>::slabs(op.k);
  const std::int64_t first_slab = static_cast<std::int64_t>(blockIdx.y) * op.k_split / Cfg::BK;
  take_k_range(op, ep.out);
  ::gpuprims::device::allow_dependent_launch();  // a split-K reduction after this kernel may be scheduled early
  constexpr int kCluster = kClusterM * kClusterN;
  constexpr int kAShare = Cfg::kTileFloats / kClusterN, kBShare = Cfg::kTileFloats / kClusterM;  // per packed tile
  static_assert(kCluster <= 8, "a portable cluster size; the rank masks below hold 16 blocks");
  static_assert(kAShare % 4 == 0 && kBShare % 4 == 0, "each block's share of a slab is whole 16-byte pieces");
  // Cfg::kSmemBytes, set at launch; its stages 128-byte aligned, whatever the static variables laid
  // out before them (H100, run AT: tf32x3 at 8192^3 9.39 ms against 10.50-11.03 unaligned, tf32 at
  // 4096^3 0.571 against 0.620).
  // Aligned further here to kSmemAlignment (1024 bytes: 128-byte swizzled tensor copies land in
  // 8-row patterns of whole 1024-byte lines), the same offset in every block of the cluster.
  extern __shared__ __align__(128) float4 smem_f4[];
  __shared__ std::uint64_t full[Cfg::kStages], empty[Cfg::kStages];
  float* const smem = reinterpret_cast<float*>(smem_f4) +
                      (Cfg::kSmemAlignment - shared_address(smem_f4) % Cfg::kSmemAlignment) % Cfg::kSmemAlignment / 4;
  // Cluster rank r is tile (r % kClusterM, r / kClusterM) of the cluster's block of tiles.
  const unsigned rank = kCluster > 1 ? cluster_cta_rank() : 0;
  const int rm = static_cast<int>(rank) % kClusterM, rn = static_cast<int>(rank) / kClusterM;
  // Tile groups, clusters and tiles counted in 32 bits: the grid's tiles number fewer than 2^31.
  const auto groups_m = static_cast<std::uint32_t>(ceil_div<std::int64_t>(op.m, Cfg::BM) / kClusterM);
  const auto groups_n = static_cast<std::uint32_t>(ceil_div<std::int64_t>(op.n, Cfg::BN) / kClusterN);
  const std::uint32_t cluster = blockIdx.x / kCluster, clusters = gridDim.x / kCluster;
  const std::uint32_t tiles = cluster < groups_m * groups_n ? (groups_m * groups_n - 1 - cluster) / clusters + 1 : 0;
  // This block's i-th tile.
  const auto tile_of = [&](std::uint32_t i) {
    const TileCoord group =
        tile_coord_in<std::uint32_t>(cluster + i * clusters, groups_m, groups_n, Cfg::kGroupM / kClusterM);
    return TileCoord{group.tm * kClusterM + rm, group.tn * kClusterN + rn};
  };
  const int tid = static_cast<int>(threadIdx.x), lane = tid % 32, warp = tid / 32;
  const int wm = (warp / 4) * 64 + (warp % 4) * 16;  // this warp's 16 rows: warpgroup, then warp in it

  // The blocks sharing this block's A rows (same rm) and B columns (same rn), as rank bit masks.
  std::uint16_t a_sharers = 0, b_sharers = 0;
  for (int j = 0; j < kClusterN; ++j) a_sharers |= static_cast<std::uint16_t>(1u << (rm + kClusterM * j));
  for (int i = 0; i < kClusterM; ++i) b_sharers |= static_cast<std::uint16_t>(1u << (i + kClusterM * rn));

  const std::int64_t slabs = PackedLayout<Cfg>::slabs(op.k), items = tiles * slabs;
  const auto stage = [&](std::int64_t g) { return smem + (g % Cfg::kStages) * Cfg::kStageFloats; };
  // Thread 0's cursor over the items it fetches, in order (item g: slab g % slabs of tile g / slabs):
  // stepped, not recomputed, so no division sits between a warp's MMAs of one slab and the next.
  std::uint32_t next_tile = 0;
  std::int64_t next_slab = 0;
  const float *a_src = nullptr, *b_src = nullptr;  // the slabs of next_tile at next_slab == 0 (A's: packed)
  int a_row = 0;                                   // kAInPlace: the first row of this block's share of them
  const auto seek = [&] {
    const TileCoord tile = tile_of(next_tile);
    if constexpr (kAInPlace) a_row = static_cast<int>(tile.tm * Cfg::BM + rn * (Cfg::BM / kClusterN));
    else a_src = a_packed + (tile.tm * packed_slabs + first_slab) * Cfg::kTileFloats + rn * kAShare;
    b_src = b_packed + (tile.tn * Cfg::kBTiles * packed_slabs + first_slab) * Cfg::kTileFloats + rm * kBShare;
  };
  const auto load = [&](std::int64_t g) {
    std::uint64_t* const bar = &full[g % Cfg::kStages];
    mbarrier_arrive_expect_bytes(bar, Cfg::kStageFloats * 4);
    float* const a_dst = stage(g) + rn * kAShare;
    if constexpr (kAInPlace) {
      const int k0 = static_cast<int>((first_slab + next_slab) * Cfg::BK);
      if constexpr (kClusterN > 1) tensor_copy_to_cluster(a_dst, &a_map, k0, a_row, bar, a_sharers);
      else tensor_copy_to_shared(a_dst, &a_map, k0, a_row, bar);
    } else {
      const float* const a_slab = a_src + next_slab * Cfg::kTileFloats;
      if constexpr (kClusterN > 1) bulk_copy_to_cluster(a_dst, a_slab, kAShare * 4, bar, a_sharers);
      else bulk_copy_to_shared(a_dst, a_slab, kAShare * 4, bar);
    }
#pragma unroll
    for (int j = 0; j < Cfg::kBTiles; ++j) {  // B's packed tiles of the block tile, one after another
      float* const b_dst = stage(g) + (1 + j) * Cfg::kTileFloats + rm * kBShare;
      const float* const b_slab = b_src + (j * packed_slabs + next_slab) * Cfg::kTileFloats;
      if constexpr (kClusterM > 1) bulk_copy_to_cluster(b_dst, b_slab, kBShare * 4, bar, b_sharers);
      else bulk_copy_to_shared(b_dst, b_slab, kBShare * 4, bar);
    }
    if (++next_slab == slabs) {
      next_slab = 0;
      if (++next_tile < tiles) seek();
    }
  };
  const auto cluster_barrier = [] {
    if constexpr (kCluster > 1) cluster_sync_all();
    else __syncthreads();
  };
  if (tid == 0) {
    for (int i = 0; i < Cfg::kStages; ++i) {
      mbarrier_init(&full[i], 1);
      mbarrier_init(&empty[i], Cfg::kWarps * kCluster);
    }
  }
  cluster_barrier();  // every block's barriers are ready before any copy or arrival reaches them
  // Launched as a programmatic dependent of the packing pass (when k > 0): the block's start and its
  // barriers' set-up overlapped that pass's end; nothing in global memory is read before this.
  ::gpuprims::device::wait_for_prerequisite_grid();
  if (tid == 0 && items > 0) {
    seek();
    for (std::int64_t g = 0; g < Cfg::kStages && g < items; ++g) load(g);
  }
  Epilogue<Visitor> epi(ep, Epilogue<Visitor>::prefetch(ep));

  constexpr int kAcc = Cfg::BN / 2;  // accumulators per thread: 64 rows x BN columns over 128 threads
  float acc[kAcc], slab[kAcc];
  const int a_rows = (warp / 4) * 64 / 8 * PackedLayout<Cfg>::kRowGroupFloats;  // this warpgroup's rows
  std::int64_t g = 0;  // this block's item (tile, slab) in the stages' sequence
  for (std::uint32_t i = 0; i < tiles; ++i) {
    const TileCoord tile = tile_of(i);
    const std::int64_t row0 = tile.tm * Cfg::BM, col0 = tile.tn * Cfg::BN;
    epi.begin_tile(row0 + wm + lane / 4 + (lane % 2) * 8);  // the row wgmma_tile_out gives the thread
#pragma unroll
    for (int e = 0; e < kAcc; ++e) acc[e] = slab[e] = 0.0f;
    for (std::int64_t s = 0; s < slabs; ++s, ++g) {
      const unsigned use = static_cast<unsigned>((g / Cfg::kStages) & 1);
      mbarrier_wait(&full[g % Cfg::kStages], use);
      if constexpr (kAInPlace) wgmma_stage_a_from_registers<Cfg>(acc, stage(g), stage(g) + Cfg::kTileFloats, wm, lane);
      else wgmma_stage<Cfg>(slab, stage(g) + a_rows, stage(g) + Cfg::kTileFloats);
      wgmma_commit();
      if (tid == 0 && g >= 1 && g - 1 + Cfg::kStages < items) {
        mbarrier_wait(&empty[(g - 1) % Cfg::kStages], static_cast<unsigned>(((g - 1) / Cfg::kStages) & 1));
        load(g - 1 + Cfg::kStages);
      }
      __syncwarp();
      // Every MMA of the slab. Leaving one group pending instead, so that tf32's tensor cores stay busy
      // across a slab's end, was tried: thread 0's refill above is then a divergent path with
      // accumulators in flight, and ptxas serialized the MMAs of every tf32 instantiation (C7518).
      wgmma_wait<0>();
#pragma unroll
      for (int e = 0; e < kAcc; ++e) pin_register(Products::kPromotesPerSlab ? slab[e] : acc[e]);
      if (lane == 0) {
        if constexpr (kCluster > 1) {
          for (int c = 0; c < kCluster; ++c) mbarrier_arrive_in_cta(&empty[g % Cfg::kStages], static_cast<unsigned>(c));
        } else {
          mbarrier_arrive(&empty[g % Cfg::kStages]);
        }
      }
      // The tensor cores' accumulation truncates (11_tf32.cuh): the slab's sum is added in FP32.
      if constexpr (Products::kPromotesPerSlab) {
#pragma unroll
        for (int e = 0; e < kAcc; ++e) acc[e] += slab[e];
      }
    }
    wgmma_tile_out<Cfg, Products>(op, epi, acc, row0, col0, wm, lane);
    epi.end_tile();
  }
  // Every copy into this block has landed and every MMA is done; past the cluster barrier no other
  // block arrives here either, and the block may exit.
  cluster_barrier();
  epi.template finish<Cfg::kThreads>(tid);
}

//! Workspace of the wgmma form: both packed operands (tf32 uses A's share only for the aligned copy of
//! an A the copy engine cannot read in place; the size does not depend on A's alignment).
template <class Cfg = WgmmaTensorCoreConfig>
std::size_t wgmma_tensor_core_workspace_bytes(std::int64_t m, std::int64_t n, std::int64_t k) {
  using L = PackedLayout<Cfg>;
  if (m <= 0 || n <= 0 || k <= 0) return 0;
  return static_cast<std::size_t>(L::a_floats(m, k) + L::b_floats(n, k)) * sizeof(float);
}

// f(cm, cn) with std::integral_constant arguments: the cluster shape (kClusterM, kClusterN) as types.
// Clusters of 8 only for tf32x3 (wgmma_cluster_shape, tuning.hpp), so tf32 builds no kernels for them.
template <class Cfg, class F>
decltype(auto) with_cluster_shape(WgmmaClusterShape shape, F&& f) {
  using One = std::integral_constant<int, 1>;
  using Two = std::integral_constant<int, 2>;
  using Four = std::integral_constant<int, 4>;
  if constexpr (Cfg::kParts == 2) {
    if (shape.m == 2 && shape.n == 4) return f(Two{}, Four{});
    if (shape.m == 4 && shape.n == 2) return f(Four{}, Two{});
  }
  if (shape.m == 2 && shape.n == 2) return f(Two{}, Two{});
  if (shape.m == 2 && shape.n == 1) return f(Two{}, One{});
  if (shape.m == 1 && shape.n == 2) return f(One{}, Two{});
  return f(One{}, One{});
}

//! Blocks of the form's kernel resident at once on the current device in clusters of the given shape:
//! the GPU places whole clusters within one GPC, so with clusters of 4 or 8 fewer blocks than SMs run
//! together. Queried once per device and cluster shape; 0 when the query fails.
template <class Products, class Cfg = WgmmaTensorCoreConfig>
int wgmma_tensor_core_resident_blocks(WgmmaClusterShape cluster) {
  const DeviceInfo* device = nullptr;
  if (current_device_info(&device) != Status::success || !device->runs_sm90a()) return 0;
  return with_cluster_shape<Cfg>(cluster, [&](auto cm, auto cn) {
    constexpr int kBlocks = decltype(cm)::value * decltype(cn)::value;
    constexpr auto kernel =
        &wgmma_tensor_core_kernel<Cfg, Products, decltype(cm)::value, decltype(cn)::value, StoreOnlyVisitor>;
    static std::atomic<std::int64_t> known[64] = {};  // device ordinal -> blocks + 1 (0: not asked yet)
    const int ordinal = device->ordinal;
    if (ordinal >= 0 && ordinal < 64 && known[ordinal].load(std::memory_order_relaxed) > 0)
      return static_cast<int>(known[ordinal].load(std::memory_order_relaxed) - 1);
    if (allow_dynamic_smem<kernel>(*device, Cfg::kSmemBytes) != Status::success) return 0;
    const ClusterLaunch launch(dim3(kBlocks), Cfg::kThreads, Cfg::kSmemBytes, kBlocks, nullptr);
    int clusters = 0;
    if (cudaOccupancyMaxActiveClusters(&clusters, kernel, &launch.config) != cudaSuccess) {
      (void)cudaGetLastError();  // a failed query is not the caller's launch error
      return 0;
    }
    if (ordinal >= 0 && ordinal < 64)
      known[ordinal].store(std::int64_t{clusters} * kBlocks + 1, std::memory_order_relaxed);
    return clusters * kBlocks;
  });
}

//! The wgmma form's launcher: the packing pass for B (tf32x3: and A; tf32: A's aligned copy where the
//! copy engine cannot read A in place) into c.rung_workspace (at least
//! wgmma_tensor_core_workspace_bytes), then the GEMM in clusters of the given shape (its sides divide
//! the tile grid's: rungs/tensor_core_forms.hpp, wgmma_cluster_for). sm_90a code, so only for a
//! compute capability 9.0 device (the caller, rungs/tensor_core_forms.cu, checks; so does this).
//! tf32 needs m and k below 2^31 - 512 (tensor copies' 32-bit coordinates; wgmma_form_runs).
template <class Products, class Cfg = WgmmaTensorCoreConfig>
Status launch_wgmma_tensor_core(const GemmCall& c, WgmmaClusterShape cluster) {
  using L = PackedLayout<Cfg>;
  const DeviceInfo* device = nullptr;
  GPUPRIMS_TRY(current_device_info(&device));
  if (!device->runs_sm90a()) return Status::unsupported;
  unsigned blocks = 0;
  GPUPRIMS_TRY(tile_grid(c, Cfg::BM, Cfg::BN, &blocks));
  const GemmOperands& op = c.op;
  auto* const a_packed = static_cast<float*>(c.rung_workspace);
  float* const b_packed = a_packed == nullptr ? nullptr : a_packed + L::a_floats(op.m, op.k);
  if (c.splits > 1 && op.k_split % Cfg::BK != 0) return Status::invalid_argument;  // splits at whole slabs
  if (ceil_div<std::int64_t>(op.m, Cfg::BM) % cluster.m != 0 || ceil_div<std::int64_t>(op.n, Cfg::BN) % cluster.n != 0)
    return Status::invalid_argument;  // the kernel's tile groups are whole clusters
  CUtensorMap a_map{};                // tf32's A (tf32x3 reads the packed parts)
  if (op.k > 0) {
    if (a_packed == nullptr) return Status::invalid_argument;
    APacking a_packing = APacking::parts;
    if constexpr (Cfg::kParts == 1) {
      constexpr std::int64_t kMargin = kWgmmaTf32CopyMargin;  // a box's corner past the edge
      const bool in_place = tensor_copy_reads(op.A, op.m, op.k, op.lda, kMargin);
      a_packing = in_place ? APacking::none : APacking::aligned_copy;
      const std::int64_t copy_ld = L::slabs(op.k) * Cfg::BK, copy_rows = L::tiles(op.m) * Cfg::kTileRows;
      if (!in_place && !tensor_copy_reads(a_packed, copy_rows, copy_ld, copy_ld, kMargin))
        return Status::invalid_argument;  // sides past the coordinates (wgmma_form_runs keeps such calls away)
      GPUPRIMS_TRY(in_place
                       ? encode_row_major_tensor_map(&a_map, op.A, op.m, op.k, op.lda, Cfg::BM / cluster.n, Cfg::BK)
                       : encode_row_major_tensor_map(&a_map, a_packed, copy_rows, copy_ld, copy_ld, Cfg::BM / cluster.n,
                                                     Cfg::BK));
    }
    // Enough blocks per operand to fill the GPU several times over; each loops over its share of the
    // slabs (the operand with fewer slabs leaves some of its row's blocks without one).
    const bool packs_a = a_packing != APacking::none;
    const std::int64_t slabs = max_of(packs_a ? L::tiles(op.m) : 0, L::b_tiles(op.n)) * L::slabs(op.k);
    const dim3 grid(static_cast<unsigned>(min_of<std::int64_t>(slabs, 64LL * device->sm_count)), packs_a ? 2 : 1);
    const auto pack = [&](auto kernel) { kernel<<<grid, 256, 0, c.stream>>>(op, a_packed, b_packed); };
    if constexpr (Cfg::kParts == 2) pack(pack_tf32_operands_kernel<Cfg, Products, APacking::parts>);
    else if (packs_a) pack(pack_tf32_operands_kernel<Cfg, Products, APacking::aligned_copy>);
    else pack(pack_tf32_operands_kernel<Cfg, Products, APacking::none>);
    GPUPRIMS_LAUNCH_CHECK();
  }
  Status st = Status::success;
  cudaError_t err = cudaSuccess;
  const auto run = [&](auto cm, auto cn, auto visitor) {
    using V = typename decltype(visitor)::type;
    constexpr auto kernel = &wgmma_tensor_core_kernel<Cfg, Products, decltype(cm)::value, decltype(cn)::value, V>;
    st = allow_dynamic_smem<kernel>(*device, Cfg::kSmemBytes);
    if (st != Status::success) return;
    // Persistent: no more clusters than stay resident (per block row of a split plan), each taking
    // tile groups in turn; every tile when the query fails.
    constexpr int kCluster = decltype(cm)::value * decltype(cn)::value;
    const int resident = wgmma_tensor_core_resident_blocks<Products, Cfg>(cluster);
    const unsigned grid_x =
        resident <= 0 ? blocks
                      : static_cast<unsigned>(min_of<std::int64_t>(
                            blocks, max_of<std::int64_t>(kCluster, resident / c.splits / kCluster * kCluster)));
    const ClusterLaunch launch(dim3(grid_x, c.splits), Cfg::kThreads, Cfg::kSmemBytes, kCluster, c.stream,
                               /*dependent=*/op.k > 0);  // after the packing pass
    err = cudaLaunchKernelEx(&launch.config, kernel, op, static_cast<const float*>(a_packed),
                             static_cast<const float*>(b_packed), a_map, epilogue_params<V>(c));
  };
  const Status launched = launch_by_epilogue(
      c, [&](auto visitor) { with_cluster_shape<Cfg>(cluster, [&](auto cm, auto cn) { run(cm, cn, visitor); }); });
  GPUPRIMS_TRY(st);
  GPUPRIMS_CUDA_TRY(err);
  return launched;
}

}  // namespace gpuprims::detail
