#pragma once
// The pieces rungs 8-10 share: moving one BK slab of A and B from global memory through registers
// into shared memory (A transposed and swizzled), the warp-tiled FMAs over a slab, and handing the
// register tile to the epilogue. The rungs differ only in how they pipeline these.
#include <cstdint>
#include <type_traits>

#include "common/device/warp_reduce.cuh"
#include "gemm/src/detail/gemm_call.hpp"
#include "gemm/src/detail/smem_layout.hpp"
#include "gemm/src/detail/tile_load.cuh"
#include "gemm/src/epilogue/epilogue.cuh"

namespace gpuprims::detail {

// The depth of the slab that starts with k_left of the k dimension still to go: BK, or the tail.
template <int BK>
__device__ __forceinline__ int slab_depth(std::int64_t k_left) {
  return k_left < BK ? static_cast<int>(k_left) : BK;
}

// One thread's share of a slab: Cfg::kAVecs float4 of A (rows a_row + i * kARowStep, slab columns
// a_k4..a_k4+3) and Cfg::kBVecs float4 of B (slab rows b_row + i * kBRowStep, columns b_c4..b_c4+3).
// Its state is two pointers that advance one slab per load and 32-bit edge facts (the caller passes
// each slab's depth), so it costs few registers next to the accumulators.
template <class Cfg, bool kVec>
class SlabLoader {
  static constexpr int BM = Cfg::BM, BN = Cfg::BN, BK = Cfg::BK;
  static constexpr int kARowStep = Cfg::kThreads / (BK / 4);
  static constexpr int kBRowStep = Cfg::kThreads / (BN / 4);
  static_assert(Cfg::kThreads % (BK / 4) == 0 && Cfg::kThreads % (BN / 4) == 0, "fixed column per thread");
  static_assert(Cfg::kAVecs <= 32, "row mask fits 32 bits");

 public:
  using ATile = SwizzledATile<BM, BK>;
  static constexpr bool kVecLoads = kVec;

  __device__ SlabLoader(const GemmOperands& op, std::int64_t row0, std::int64_t col0, int tid)
      : a_row_(tid / (BK / 4)), a_k4_((tid % (BK / 4)) * 4), b_row_(tid / (BN / 4)), b_c4_((tid % (BN / 4)) * 4) {
    a_ptr_ = op.A + (row0 + a_row_) * op.lda + a_k4_;
    b_ptr_ = op.B + static_cast<std::int64_t>(b_row_) * op.ldb + col0 + b_c4_;
    a_rows_ok_ = 0;
#pragma unroll
    for (int i = 0; i < Cfg::kAVecs; ++i) a_rows_ok_ |= (row0 + a_row_ + i * kARowStep < op.m ? 1u : 0u) << i;
    b_cols_ = valid_in_vec4(op.n - (col0 + b_c4_));
  }

  // Global -> registers for the next slab (slab 0 first), `depth` (1..BK) deep, then step to the one
  // after.
  __device__ __forceinline__ void load(const GemmOperands& op, int depth) {
#pragma unroll
    for (int i = 0; i < Cfg::kAVecs; ++i)
      a_[i] = load4_valid<kVec>(a_ptr_ + i * kARowStep * op.lda, (a_rows_ok_ >> i) & 1u, depth - a_k4_);
#pragma unroll
    for (int i = 0; i < Cfg::kBVecs; ++i)
      b_[i] = load4_valid<kVec>(b_ptr_ + i * kBRowStep * op.ldb, b_row_ + i * kBRowStep < depth, b_cols_);
    a_ptr_ += BK;
    b_ptr_ += BK * op.ldb;
  }

  // The same for a slab with no edge: every row and column exists and the slab is BK deep, so each
  // float4 is one unconditional 16-byte load (kVec only). The caller makes sure (see
  // slab_has_no_edge); in a large product this drops the edge tests from nearly every slab.
  __device__ __forceinline__ void load_full(const GemmOperands& op) {
    static_assert(kVec, "16-byte loads need the aligned form");
#pragma unroll
    for (int i = 0; i < Cfg::kAVecs; ++i) a_[i] = *reinterpret_cast<const float4*>(a_ptr_ + i * kARowStep * op.lda);
#pragma unroll
    for (int i = 0; i < Cfg::kBVecs; ++i) b_[i] = *reinterpret_cast<const float4*>(b_ptr_ + i * kBRowStep * op.ldb);
    a_ptr_ += BK;
    b_ptr_ += BK * op.ldb;
  }

  // The same for a whole slab (BK deep) of an edge tile whose vectors are each wholly inside the
  // matrix or wholly outside it (kVec, n % 4 == 0: slab_has_whole_vectors): each float4 is one 16-byte
  // load predicated on its row (A) or column group (B) existing, with no branch. load() takes the
  // k tail and the rest.
  __device__ __forceinline__ void load_whole_vectors(const GemmOperands& op) {
    static_assert(kVec, "16-byte loads need the aligned form");
#pragma unroll
    for (int i = 0; i < Cfg::kAVecs; ++i) a_[i] = load4_if(a_ptr_ + i * kARowStep * op.lda, (a_rows_ok_ >> i) & 1u);
#pragma unroll
    for (int i = 0; i < Cfg::kBVecs; ++i) b_[i] = load4_if(b_ptr_ + i * kBRowStep * op.ldb, b_cols_ > 0);
    a_ptr_ += BK;
    b_ptr_ += BK * op.ldb;
  }

  // Registers -> shared memory (A transposed through the swizzled layout, B as is).
  __device__ __forceinline__ void store(float* As, float* Bs) const {
#pragma unroll
    for (int i = 0; i < Cfg::kAVecs; ++i) {
      const int r = a_row_ + i * kARowStep;
      As[ATile::offset(a_k4_ + 0, r)] = a_[i].x;
      As[ATile::offset(a_k4_ + 1, r)] = a_[i].y;
      As[ATile::offset(a_k4_ + 2, r)] = a_[i].z;
      As[ATile::offset(a_k4_ + 3, r)] = a_[i].w;
    }
#pragma unroll
    for (int i = 0; i < Cfg::kBVecs; ++i)
      *reinterpret_cast<float4*>(&Bs[(b_row_ + i * kBRowStep) * BN + b_c4_]) = b_[i];
  }

 private:
  int a_row_, a_k4_, b_row_, b_c4_;
  const float* a_ptr_;
  const float* b_ptr_;
  unsigned a_rows_ok_;
  int b_cols_;
  float4 a_[Cfg::kAVecs];
  float4 b_[Cfg::kBVecs];
};

// Whether every slab of the block tile at (row0, col0) can take SlabLoader::load_full: the tile lies
// inside A, B and C, the loads are 16-byte ones, and k is a whole number of slabs.
template <class Cfg, bool kVec>
__device__ __forceinline__ bool slab_has_no_edge(const GemmOperands& op, std::int64_t row0, std::int64_t col0) {
  return kVec && row0 + Cfg::BM <= op.m && col0 + Cfg::BN <= op.n && op.k % Cfg::BK == 0;
}

// Whether an edge tile's whole slabs can take SlabLoader::load_whole_vectors: 16-byte loads, and no
// float4 of B straddles n (A's rows are whole or absent; only the k tail splits its vectors).
template <bool kVec>
__device__ __forceinline__ bool slab_has_whole_vectors(const GemmOperands& op) {
  return kVec && op.n % 4 == 0;
}

// Where a thread's results sit in the block tile: warp tile origin (wm, wn) and lane (tr, tc). Its
// outputs are rows wm + sm * 16 + tr * 4 + i and columns wn + sn * 32 + tc * 4 + j.
// a_lane[j] is the thread's part of its A fragment offsets in k rows with lane_xor j (see
// SwizzledATile::fixed_part); b_lane the same for B, whose layout is plain.
template <class Cfg>
struct WarpTilePosition {
  int wm, wn, tr, tc;
  int a_lane[4];
  int b_lane;
  __device__ explicit WarpTilePosition(int tid) {
    const int warp = tid / 32, lane = tid % 32;
    wm = (warp / Cfg::kWarpsN) * Cfg::WM;
    wn = (warp % Cfg::kWarpsN) * Cfg::WN;
    tr = lane / Cfg::kThreadCols;
    tc = lane % Cfg::kThreadCols;
#pragma unroll
    for (int j = 0; j < 4; ++j) a_lane[j] = SwizzledATile<Cfg::BM, Cfg::BK>::lane_part(wm, tr, j);
    b_lane = wn + tc * 4;
  }
};

// One k step's operands of a thread: TM values of A's column and TN of B's row.
template <class Cfg>
struct Fragment {
  float a[Cfg::TM];
  float b[Cfg::TN];
};

// The fragment of k step p of the slab at As / Bs. Per k step a warp reads 4 distinct float4 of A and
// 8 of B per sub-tile (broadcast within the warp: one shared-memory wavefront each).
template <class Cfg>
__device__ __forceinline__ void load_fragment(const float* As, const float* Bs, int p, const WarpTilePosition<Cfg>& pos,
                                              Fragment<Cfg>& f) {
  using ATile = SwizzledATile<Cfg::BM, Cfg::BK>;
  static_assert(Cfg::WM % 32 == 0, "warp tile rows start on a 32-row boundary (fixed_part's premise)");
  // = As[ATile::offset(p, wm + sm * 16 + tr * 4)], as a per-thread register plus an immediate.
  const float* const a_row = As + pos.a_lane[ATile::lane_xor(p)];
#pragma unroll
  for (int sm = 0; sm < Cfg::kSubM; ++sm)
    *reinterpret_cast<float4*>(&f.a[sm * 4]) = *reinterpret_cast<const float4*>(a_row + ATile::fixed_part(p, sm));
#pragma unroll
  for (int sn = 0; sn < Cfg::kSubN; ++sn)
    *reinterpret_cast<float4*>(&f.b[sn * 4]) =
        *reinterpret_cast<const float4*>(&Bs[p * Cfg::BN + sn * 32 + pos.b_lane]);
}

// acc += the outer product of one k step's fragment.
template <class Cfg>
__device__ __forceinline__ void fragment_fma(const Fragment<Cfg>& f, float (&acc)[Cfg::TM][Cfg::TN]) {
#pragma unroll
  for (int i = 0; i < Cfg::TM; ++i)
#pragma unroll
    for (int j = 0; j < Cfg::TN; ++j) acc[i][j] = fmaf(f.a[i], f.b[j], acc[i][j]);
}

// acc += the slab's products.
template <class Cfg>
__device__ __forceinline__ void warp_tile_fma(const float* As, const float* Bs, const WarpTilePosition<Cfg>& pos,
                                              float (&acc)[Cfg::TM][Cfg::TN]) {
#pragma unroll
  for (int p = 0; p < Cfg::BK; ++p) {
    Fragment<Cfg> f;
    load_fragment<Cfg>(As, Bs, p, pos, f);
    fragment_fma<Cfg>(f, acc);
  }
}

// The register tile through the epilogue, four columns at a time (coalesced 16-byte stores), by
// store4(r, c, float4, i, j) where (i, j) is the first of the four registers in acc.
template <class Cfg, class Store4>
__device__ __forceinline__ void for_each_vec4(const float (&acc)[Cfg::TM][Cfg::TN], const WarpTilePosition<Cfg>& pos,
                                              std::int64_t row0, std::int64_t col0, Store4&& store4) {
#pragma unroll
  for (int sm = 0; sm < Cfg::kSubM; ++sm)
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
      for (int sn = 0; sn < Cfg::kSubN; ++sn) {
        const float* v = &acc[sm * 4 + i][sn * 4];
        store4(row0 + pos.wm + sm * 16 + pos.tr * 4 + i, col0 + pos.wn + sn * 32 + pos.tc * 4,
               make_float4(v[0], v[1], v[2], v[3]), sm * 4 + i, sn * 4);
      }
}

// for_each_vec4 for kernels that read C ahead (Epilogue::read1 says why): a 4 x 4 sub-tile row at a
// time, read4(r, c) for each of the row's float4s first, then store4(r, c, float4, old, i, j) for
// each, old being what read4 returned there and (i, j) as in for_each_vec4.
template <class Cfg, class Read4, class Store4>
__device__ __forceinline__ void for_each_vec4_read_ahead(const float (&acc)[Cfg::TM][Cfg::TN],
                                                         const WarpTilePosition<Cfg>& pos, std::int64_t row0,
                                                         std::int64_t col0, Read4&& read4, Store4&& store4) {
  const auto row = [&](int sm, int i) { return row0 + pos.wm + sm * 16 + pos.tr * 4 + i; };
  const auto col = [&](int sn) { return col0 + pos.wn + sn * 32 + pos.tc * 4; };
#pragma unroll
  for (int sm = 0; sm < Cfg::kSubM; ++sm) {
    float4 old[4][Cfg::kSubN];
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
      for (int sn = 0; sn < Cfg::kSubN; ++sn) old[i][sn] = read4(row(sm, i), col(sn));
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
      for (int sn = 0; sn < Cfg::kSubN; ++sn) {
        const float* v = &acc[sm * 4 + i][sn * 4];
        store4(row(sm, i), col(sn), make_float4(v[0], v[1], v[2], v[3]), old[i][sn], sm * 4 + i, sn * 4);
      }
  }
}

// Group (sm, i) of the register tile into the warp's four staging rows: lane (tr, tc) holds row tr's
// columns sn * 32 + tc * 4 + 0..3 of it.
template <class Cfg>
__device__ __forceinline__ void stage_group(float* rows, const float (&acc)[Cfg::TM][Cfg::TN],
                                            const WarpTilePosition<Cfg>& pos, int sm, int i) {
#pragma unroll
  for (int sn = 0; sn < Cfg::kSubN; ++sn) {
    const float* v = &acc[sm * 4 + i][sn * 4];
    *reinterpret_cast<float4*>(&rows[pos.tr * Cfg::WN + sn * 32 + pos.tc * 4]) = make_float4(v[0], v[1], v[2], v[3]);
  }
}

// The epilogue for a C that cannot take 16-byte accesses (ldc % 4 != 0, or C not 16-byte aligned).
// There a thread's four consecutive columns leave as four scalar stores 16 bytes apart, each writing a
// quarter of every 32-byte sector it touches (measured on an H100: 0.67 TB/s for short-k products,
// against 2.8 for the float4 form). Instead each warp passes its results through shared memory, four
// rows at a time, and reads them back with consecutive lanes on consecutive columns, so every store
// (and every read of C when beta != 0) covers whole sectors whatever ldc is. `stage` holds at least
// kWarps * 4 * WN floats that the main loop no longer needs; the block barrier below makes sure.
template <class Cfg, class Visitor>
__device__ __forceinline__ void staged_warp_tile_epilogue(Epilogue<Visitor>& epi, const float (&acc)[Cfg::TM][Cfg::TN],
                                                          const WarpTilePosition<Cfg>& pos, std::int64_t row0,
                                                          std::int64_t col0, float* stage) {
  __syncthreads();  // every warp is done reading the main loop's last slab
  float* const rows = stage + (threadIdx.x / kWarpSize) * 4 * Cfg::WN;
  const int lane = threadIdx.x % kWarpSize;
#pragma unroll
  for (int sm = 0; sm < Cfg::kSubM; ++sm)
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      stage_group<Cfg>(rows, acc, pos, sm, i);
      __syncwarp();
#pragma unroll
      for (int q = 0; q < 4; ++q)
#pragma unroll
        for (int j = 0; j < Cfg::WN / kWarpSize; ++j)
          epi.apply1(row0 + pos.wm + sm * 16 + q * 4 + i, col0 + pos.wn + j * kWarpSize + lane,
                     rows[q * Cfg::WN + j * kWarpSize + lane]);
      __syncwarp();
    }
}

// staged_warp_tile_epilogue for kernels that read C (beta != 0; Epilogue::read1 says why they read
// ahead). The block first asks L2 for its whole tile of C (prefetch_tile_l2), and each of the warp's
// kSubM * 4 groups of C's entries (4 rows of WN) is read kAhead groups before its stores: a group's
// reads come from L2 rather than device memory, and are in flight while the groups before it are
// stored. Reading each group just before its stores (session 43's form) left a whole trip to memory
// behind every group: on an H200 at 8084 x 941 x 1, 64 x 64 tiles, 49.9 us against 28.1 for this
// form and 20.7 for beta = 0 (results/nvidia-h200/README.md, session 44, run FF).
template <class Cfg, class Visitor>
__device__ __forceinline__ void staged_read_ahead_epilogue(Epilogue<Visitor>& epi, const float (&acc)[Cfg::TM][Cfg::TN],
                                                           const WarpTilePosition<Cfg>& pos, std::int64_t row0,
                                                           std::int64_t col0, float* stage) {
  constexpr int kGroups = Cfg::kSubM * 4, kAhead = 2, kCols = Cfg::WN / kWarpSize;
  epi.template prefetch_tile_l2<Cfg::BM, Cfg::BN, Cfg::kThreads>(row0, col0, static_cast<int>(threadIdx.x));
  __syncthreads();  // every warp is done reading the main loop's last slab
  float* const rows = stage + (threadIdx.x / kWarpSize) * 4 * Cfg::WN;
  const int lane = threadIdx.x % kWarpSize;
  // Group g = sm * 4 + i holds rows wm + sm * 16 + q * 4 + i (q = 0..3), columns wn + j * 32 + lane.
  const auto row = [&](int g, int q) { return row0 + pos.wm + (g / 4) * 16 + q * 4 + g % 4; };
  const auto col = [&](int j) { return col0 + pos.wn + j * kWarpSize + lane; };
  float old[kAhead + 1][4][kCols];  // group g's entries in old[g % (kAhead + 1)]
  const auto read_group = [&](int g) {
#pragma unroll
    for (int q = 0; q < 4; ++q)
#pragma unroll
      for (int j = 0; j < kCols; ++j) old[g % (kAhead + 1)][q][j] = epi.read1(row(g, q), col(j));
  };
#pragma unroll
  for (int g = 0; g < kAhead && g < kGroups; ++g) read_group(g);
#pragma unroll
  for (int g = 0; g < kGroups; ++g) {
    stage_group<Cfg>(rows, acc, pos, g / 4, g % 4);
    __syncwarp();
    if (g + kAhead < kGroups) read_group(g + kAhead);
#pragma unroll
    for (int q = 0; q < 4; ++q)
#pragma unroll
      for (int j = 0; j < kCols; ++j)
        epi.apply1(row(g, q), col(j), rows[q * Cfg::WN + j * kWarpSize + lane], old[g % (kAhead + 1)][q][j]);
    __syncwarp();
  }
}

// Shared memory staged_warp_tile_epilogue needs, in floats.
template <class Cfg>
constexpr int staged_epilogue_floats() {
  return Cfg::kWarpsM * Cfg::kWarpsN * 4 * Cfg::WN;
}

// An interior tile's values through a voting visitor (Visitor::kVotesPerTile), gathered as the
// epilogue stores them: add(i, j, v) takes the float4 of results at acc[i][j..j+3], already stored
// where C is. take() then lets the warp vote once on the thread's least value and ranks every value
// only if some lane may take one. values in row-major order is the thread's results in row-major
// order of C (rows and columns both grow with i and j; see WarpTilePosition).
template <class Cfg>
struct TileVote {
  float values[Cfg::TM][Cfg::TN];
  VoteLeast least;

  __device__ __forceinline__ void add(int i, int j, float4 v) {
    least.add(v);
    values[i][j] = v.x;
    values[i][j + 1] = v.y;
    values[i][j + 2] = v.z;
    values[i][j + 3] = v.w;
  }
  template <class Visitor>
  __device__ __forceinline__ void take(Epilogue<Visitor>& epi, const WarpTilePosition<Cfg>& pos, std::int64_t row0,
                                       std::int64_t col0) const {
    const auto value = [&](int s) { return values[s / Cfg::TN][s % Cfg::TN]; };
    const auto cell = [&](int s) {
      const int i = s / Cfg::TN, j = s % Cfg::TN;
      return OutputCell{row0 + pos.wm + (i / 4) * 16 + pos.tr * 4 + i % 4,
                        col0 + pos.wn + (j / 4) * 32 + pos.tc * 4 + j % 4};
    };
    if (__any_sync(kFullMask, epi.visitor().may_take(least.value)))
      epi.visitor().template take_run<Cfg::TM * Cfg::TN>(value, cell);
  }
};

// An interior tile's values through a visitor that ranks a thread's run of a row at once
// (Visitor::kRanksRowRuns: the per-row top-2): begin reads the visitor's word of each of the thread's
// TM rows (row_word) before the epilogue stores or ranks anything; add(r, i, j, v) takes the float4 at
// registers (i, j..j+3), of the thread's run of row r, already stored where C is; for_each_vec4 (and
// its read-ahead form) hand over a row's kSubN float4s in turn, so the last one passes the row's TN
// values to take_row, with their columns in increasing order (see WarpTilePosition) and the row's word.
template <class Cfg>
struct TileRowRun {
  float values[Cfg::TN];
  unsigned long long words[Cfg::TM];  // row i of the register tile's word (i is unrolled: registers)

  template <class Visitor>
  __device__ __forceinline__ void begin(Epilogue<Visitor>& epi, const WarpTilePosition<Cfg>& pos, std::int64_t row0) {
#pragma unroll
    for (int i = 0; i < Cfg::TM; ++i)
      words[i] = epi.visitor().row_word(row0 + pos.wm + (i / 4) * 16 + pos.tr * 4 + i % 4);
  }
  template <class Visitor>
  __device__ __forceinline__ void add(Epilogue<Visitor>& epi, const WarpTilePosition<Cfg>& pos, std::int64_t col0,
                                      std::int64_t r, int i, int j, float4 v) {
    values[j] = v.x;
    values[j + 1] = v.y;
    values[j + 2] = v.z;
    values[j + 3] = v.w;
    if (j + 4 == Cfg::TN)
      epi.visitor().template take_row<Cfg::TN>(
          r, values, [&](int s) { return col0 + pos.wn + (s / 4) * 32 + pos.tc * 4 + s % 4; }, words[i]);
  }
};

// What a tile kernel knows of every tile of its grid when it is compiled. any: nothing; each block
// tests its own tile (slab_has_no_edge, Epilogue::interior) and the call's store and beta choices.
// whole_stored / whole_unstored: the launch found that no block meets an edge (grid_is_whole, which
// also asks beta == 0), and C is stored / not stored, so the kernel carries one main loop and one
// epilogue form, without the edge paths or the other forms.
enum class GridForm { any, whole_stored, whole_unstored };

// For a launcher that found its grid whole (grid_is_whole): calls launch(grid) with the whole-grid form
// (a std::integral_constant<GridForm, ...>) for C stored or not, where visitor V has a kernel of that
// form (V::kTileForms), and says whether it did; a visitor without one compiles no call.
template <class V, class Launch>
bool launch_whole_grid_form(bool store, Launch&& launch) {
  if constexpr ((V::kTileForms & TileForms::whole_stored) != 0) {
    if (store) {
      launch(std::integral_constant<GridForm, GridForm::whole_stored>{});
      return true;
    }
  }
  if constexpr ((V::kTileForms & TileForms::whole_unstored) != 0) {
    if (!store) {
      launch(std::integral_constant<GridForm, GridForm::whole_unstored>{});
      return true;
    }
  }
  return false;
}

// Epilogue::with_interior_form, or the one form a whole grid's kernel was compiled for.
template <GridForm kGrid, class Visitor, class F>
__device__ __forceinline__ void with_tile_form(const Epilogue<Visitor>& epi, F&& f) {
  if constexpr (kGrid == GridForm::whole_stored) f(std::true_type{}, std::false_type{});
  else if constexpr (kGrid == GridForm::whole_unstored) f(std::false_type{}, std::false_type{});
  else epi.with_interior_form(f);
}

// Blocks whose tile lies inside C take the unchecked form (see Epilogue::interior), in the form the
// call's store/beta choices fix (Epilogue::with_interior_form); the branches sit outside the loops so
// each form's code is one contiguous run and an interior block fetches only its own.
// For a visitor that filters by vote (Visitor::kVotesPerTile: the packed top-2) an interior tile
// computes (and stores) every value first and votes once for the whole tile: one predicate
// instruction per result, and warps without a candidate - all but the first few once the grid's bound
// is tight - skip the visit entirely. A visitor that ranks by row (Visitor::kRanksRowRuns: the
// per-row top-2) takes each of the thread's row runs at once (TileRowRun).
// A kernel compiled for a C without 16-byte accesses (kStagedC) takes the staged form, with `stage` its
// shared memory; the others (and rung 8, whatever C) the per-thread forms below. A compile-time
// choice: the staged form in the same kernel as the vector forms cost the vector kernels 3-10% on an
// H100 (more registers, a larger body).
// A kernel compiled for beta != 0 (kReadsC: C stored and read) reads C ahead in every form
// (Epilogue::read1); its interior tiles vote as above for a voting visitor, and other forms visit each
// value. Kernels for beta == 0 never compile that code.
// A kernel compiled for a whole grid (kGrid, see GridForm) takes only its interior form.
template <class Cfg, bool kStagedC = false, bool kReadsC = false, GridForm kGrid = GridForm::any, class Visitor>
__device__ __forceinline__ void warp_tile_epilogue(Epilogue<Visitor>& epi, const float (&acc)[Cfg::TM][Cfg::TN],
                                                   const WarpTilePosition<Cfg>& pos, std::int64_t row0,
                                                   std::int64_t col0, float* stage = nullptr) {
  static_assert(kGrid == GridForm::any || (!kStagedC && !kReadsC), "a whole grid's C is 16-byte and not read");
  if constexpr (kStagedC && kReadsC) {
    staged_read_ahead_epilogue<Cfg>(epi, acc, pos, row0, col0, stage);
  } else if constexpr (kStagedC) {
    staged_warp_tile_epilogue<Cfg>(epi, acc, pos, row0, col0, stage);
  } else if constexpr (kReadsC) {
    const auto read4 = [&](std::int64_t r, std::int64_t c) { return epi.read4(r, c); };
    if (!epi.interior(row0, col0, Cfg::BM, Cfg::BN)) {
      for_each_vec4_read_ahead<Cfg>(
          acc, pos, row0, col0, [&](std::int64_t r, std::int64_t c) { return epi.read4_checked(r, c); },
          [&](std::int64_t r, std::int64_t c, float4 v, float4 old, int, int) { epi.apply4(r, c, v, old); });
    } else if constexpr (Visitor::kVotesPerTile) {
      TileVote<Cfg> vote;
      for_each_vec4_read_ahead<Cfg>(acc, pos, row0, col0, read4,
                                    [&](std::int64_t r, std::int64_t c, float4 a, float4 old, int i, int j) {
        vote.add(i, j, epi.value4(r, c, a, old));
      });
      vote.take(epi, pos, row0, col0);
    } else if constexpr (Visitor::kRanksRowRuns) {
      TileRowRun<Cfg> run;
      run.begin(epi, pos, row0);
      for_each_vec4_read_ahead<Cfg>(acc, pos, row0, col0, read4,
                                    [&](std::int64_t r, std::int64_t c, float4 a, float4 old, int i, int j) {
        run.add(epi, pos, col0, r, i, j, epi.value4(r, c, a, old));
      });
    } else {
      for_each_vec4_read_ahead<Cfg>(
          acc, pos, row0, col0, read4,
          [&](std::int64_t r, std::int64_t c, float4 v, float4 old, int, int) { epi.apply4_vec(r, c, v, old); });
    }
  } else if (kGrid != GridForm::any || epi.interior(row0, col0, Cfg::BM, Cfg::BN)) {
    if constexpr (Visitor::kVotesPerTile) {
      TileVote<Cfg> vote;
      with_tile_form<kGrid>(epi, [&](auto store, auto beta) {
        for_each_vec4<Cfg>(acc, pos, row0, col0, [&](std::int64_t r, std::int64_t c, float4 a, int i, int j) {
          vote.add(i, j, epi.value4(r, c, a, decltype(store)::value, decltype(beta)::value));
        });
      });
      vote.take(epi, pos, row0, col0);
    } else if constexpr (Visitor::kRanksRowRuns) {
      TileRowRun<Cfg> run;
      run.begin(epi, pos, row0);
      with_tile_form<kGrid>(epi, [&](auto store, auto beta) {
        for_each_vec4<Cfg>(acc, pos, row0, col0, [&](std::int64_t r, std::int64_t c, float4 a, int i, int j) {
          run.add(epi, pos, col0, r, i, j, epi.value4(r, c, a, decltype(store)::value, decltype(beta)::value));
        });
      });
    } else {
      with_tile_form<kGrid>(epi, [&](auto store, auto beta) {
        for_each_vec4<Cfg>(acc, pos, row0, col0, [&](std::int64_t r, std::int64_t c, float4 v, int, int) {
          epi.apply4_vec(r, c, v, decltype(store)::value, decltype(beta)::value);
        });
      });
    }
  } else {
    for_each_vec4<Cfg>(acc, pos, row0, col0,
                       [&](std::int64_t r, std::int64_t c, float4 v, int, int) { epi.apply4(r, c, v); });
  }
}

}  // namespace gpuprims::detail
