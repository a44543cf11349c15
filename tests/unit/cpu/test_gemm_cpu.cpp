// CPU-side SGEMM checks that run in CI without a GPU: names, argument validation (every bad input is a
// Status, with no CUDA call), launch arithmetic, the swizzled shared-memory layout, plans and their
// workspace, the cost model's constants and its fitter.
#include <gtest/gtest.h>

#include <gpuprims/gemm.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "gemm/src/detail/gemm_call.hpp"
#include "gemm/src/detail/smem_layout.hpp"
#include "gemm/src/detail/tile_index.hpp"
#include "gemm/src/gemm_internal.hpp"
#include "gemm/src/rungs/tensor_core_forms.hpp"
#include "gemm/src/tuning.hpp"
#include "gemm/tools/model_fit.hpp"
#include "support/gpu.hpp"
#include "testkit/shapes.hpp"

namespace {

using gpuprims::Status;
using gpuprims::gemm::Algorithm;
namespace gemm = gpuprims::gemm;
namespace d = gpuprims::detail;

// Device-looking pointers that are never dereferenced: validation must reject before any access.
float* fake(std::uintptr_t addr) { return reinterpret_cast<float*>(addr); }
const std::uintptr_t kAligned = 0x100000;

TEST(GemmNames, EveryRungHasItsName) {
  std::set<std::string> names;
  for (Algorithm a : gemm::kAllAlgorithms) {
    EXPECT_STRNE(gemm::name(a), "unknown");
    names.insert(gemm::name(a));
  }
  EXPECT_EQ(names.size(), std::size(gemm::kAllAlgorithms));  // distinct
  EXPECT_STREQ(gemm::name(Algorithm::double_buffered), "double_buffered");
  EXPECT_STREQ(gemm::name(Algorithm::tuned), "tuned");
  EXPECT_STREQ(gemm::name(static_cast<Algorithm>(42)), "unknown");
}

struct BadCall {
  const char* what;
  std::int64_t m, n, k;
  float* A;
  std::int64_t lda;
  float* B;
  std::int64_t ldb;
  float* C;
  std::int64_t ldc;
  Algorithm algo;
  Status expected;
};

TEST(GemmValidation, BadInputReturnsStatusWithoutTouchingTheDevice) {
  float* a = fake(kAligned);
  float* b = fake(kAligned * 2);
  float* c = fake(kAligned * 3);
  const Algorithm ok = Algorithm::tuned;
  const BadCall calls[] = {
      {"negative m", -1, 4, 4, a, 4, b, 4, c, 4, ok, Status::invalid_argument},
      {"negative n", 4, -1, 4, a, 4, b, 4, c, 4, ok, Status::invalid_argument},
      {"negative k", 4, 4, -2, a, 4, b, 4, c, 4, ok, Status::invalid_argument},
      {"lda < k", 4, 4, 5, a, 4, b, 4, c, 4, ok, Status::invalid_argument},
      {"ldb < n", 4, 6, 4, a, 4, b, 5, c, 6, ok, Status::invalid_argument},
      {"ldc < n", 4, 6, 4, a, 4, b, 6, c, 5, ok, Status::invalid_argument},
      {"lda 0 with k 0", 4, 4, 0, a, 0, b, 4, c, 4, ok, Status::invalid_argument},
      {"null A", 4, 4, 4, nullptr, 4, b, 4, c, 4, ok, Status::invalid_argument},
      {"null B", 4, 4, 4, a, 4, nullptr, 4, c, 4, ok, Status::invalid_argument},
      {"null C", 4, 4, 4, a, 4, b, 4, nullptr, 4, ok, Status::invalid_argument},
      {"A misaligned", 4, 4, 4, fake(kAligned + 2), 4, b, 4, c, 4, ok, Status::misaligned_pointer},
      {"B misaligned", 4, 4, 4, a, 4, fake(kAligned + 1), 4, c, 4, ok, Status::misaligned_pointer},
      {"C misaligned", 4, 4, 4, a, 4, b, 4, fake(kAligned + 3), 4, ok, Status::misaligned_pointer},
      {"unknown algorithm", 4, 4, 4, a, 4, b, 4, c, 4, static_cast<Algorithm>(gemm::kAllAlgorithms.size()),
       Status::invalid_argument},
      {"negative algorithm", 4, 4, 4, a, 4, b, 4, c, 4, static_cast<Algorithm>(-1), Status::invalid_argument},
      {"extent overflows int64", std::int64_t{1} << 40, 4, 4, a, std::int64_t{1} << 40, b, 4, c, 4, ok,
       Status::invalid_argument},
  };
  for (const BadCall& bc : calls) {
    EXPECT_STATUS(bc.expected,
                  gemm::sgemm(bc.m, bc.n, bc.k, 1.0f, bc.A, bc.lda, bc.B, bc.ldb, 0.5f, bc.C, bc.ldc, bc.algo))
        << bc.what;
    gpuprims::Top2* top2 = reinterpret_cast<gpuprims::Top2*>(kAligned * 4);
    EXPECT_STATUS(bc.expected, gemm::sgemm_top2_argmin(bc.m, bc.n, bc.k, 1.0f, bc.A, bc.lda, bc.B, bc.ldb, 0.5f, bc.C,
                                                       bc.ldc, top2, bc.algo))
        << bc.what << " (top2)";
    EXPECT_STATUS(bc.expected, gemm::sgemm_row_top2_argmin(bc.m, bc.n, bc.k, 1.0f, bc.A, bc.lda, bc.B, bc.ldb, 0.5f,
                                                           bc.C, bc.ldc, top2, bc.algo))
        << bc.what << " (row top2)";
  }
}

TEST(GemmValidation, RowTop2SpecificArguments) {
  float* a = fake(kAligned);
  float* b = fake(kAligned * 2);
  auto* out = reinterpret_cast<gpuprims::Top2*>(kAligned * 4);
  EXPECT_STATUS(Status::invalid_argument, gemm::sgemm_row_top2_argmin(4, 4, 4, 1, a, 4, b, 4, 0, nullptr, 4, nullptr));
  EXPECT_STATUS(Status::invalid_argument, gemm::sgemm_row_top2_argmin(4, 4, 4, 1, a, 4, b, 4, 1, nullptr, 4, out));
  EXPECT_STATUS(Status::misaligned_pointer,
                gemm::sgemm_row_top2_argmin(4, 4, 4, 1, a, 4, b, 4, 0, nullptr, 4,
                                            reinterpret_cast<gpuprims::Top2*>(kAligned * 4 + 4)));
  // Workspace missing or too small: 16 bytes a row at least.
  const std::size_t need = gemm::row_top2_workspace_bytes(64, 64, 8);
  EXPECT_GE(need, 64u * 16u);
  EXPECT_STATUS(Status::invalid_argument,
                gemm::sgemm_row_top2_argmin(64, 64, 8, 1, a, 8, b, 64, 0, nullptr, 64, out, nullptr, need));
  EXPECT_STATUS(Status::invalid_argument, gemm::sgemm_row_top2_argmin(64, 64, 8, 1, a, 8, b, 64, 0, nullptr, 64, out,
                                                                      fake(kAligned * 8), need - 1));
  EXPECT_EQ(gemm::row_top2_workspace_bytes(-1, 4, 4), 0u);
  EXPECT_EQ(gemm::row_top2_workspace_bytes(0, 4, 4), 0u);
  // Columns are packed in 32 bits, the all-ones word meaning empty: n >= 2^32 - 1 is unsupported, with
  // or without a device; one column fewer passes validation.
  const std::int64_t too_wide = std::int64_t{0xffffffff};
  EXPECT_STATUS(Status::unsupported,
                gemm::sgemm_row_top2_argmin(1, too_wide, 1, 1, a, 1, b, too_wide, 0, nullptr, too_wide, out));
  d::SgemmArgs args{1, too_wide, 1, 1.0f, a, 1, b, too_wide, 0.0f, nullptr, too_wide, Algorithm::tuned, out, true};
  args.per_row = true;
  EXPECT_STATUS(Status::unsupported, d::validate_sgemm(args));
  args.n = args.ldb = args.ldc = too_wide - 1;
  EXPECT_STATUS(Status::success, d::validate_sgemm(args));
  args.per_row = false;
  args.n = args.ldb = args.ldc = too_wide;
  EXPECT_STATUS(Status::success, d::validate_sgemm(args)) << "the global form has 64-bit indices";
  // No rows: nothing to write, so success with no CUDA call, device or not.
  EXPECT_STATUS(Status::success, gemm::sgemm_row_top2_argmin(0, 4, 4, 1, a, 4, b, 4, 0, nullptr, 4, out));
  // Rows of no columns still write every row: that needs a device.
  EXPECT_STATUS(Status::unsupported, gemm::sgemm_row_top2_argmin(4, 0, 4, 1, a, 4, b, 1, 0, nullptr, 1, out));
}

TEST(GemmValidation, Top2SpecificArguments) {
  float* a = fake(kAligned);
  float* b = fake(kAligned * 2);
  auto* top2 = reinterpret_cast<gpuprims::Top2*>(kAligned * 4);
  // Null result pointer.
  EXPECT_STATUS(Status::invalid_argument, gemm::sgemm_top2_argmin(4, 4, 4, 1, a, 4, b, 4, 0, nullptr, 4, nullptr));
  // C null needs beta == 0.
  EXPECT_STATUS(Status::invalid_argument, gemm::sgemm_top2_argmin(4, 4, 4, 1, a, 4, b, 4, 1, nullptr, 4, top2));
  // Misaligned result.
  EXPECT_STATUS(Status::misaligned_pointer,
                gemm::sgemm_top2_argmin(4, 4, 4, 1, a, 4, b, 4, 0, nullptr, 4,
                                        reinterpret_cast<gpuprims::Top2*>(kAligned * 4 + 4)));
  // Workspace missing or too small (explicit-workspace form).
  const std::size_t need = gemm::top2_workspace_bytes(64, 64, 8);
  EXPECT_GT(need, 0u);
  EXPECT_STATUS(Status::invalid_argument,
                gemm::sgemm_top2_argmin(64, 64, 8, 1, a, 8, b, 64, 0, nullptr, 64, top2, nullptr, need));
  EXPECT_STATUS(Status::invalid_argument,
                gemm::sgemm_top2_argmin(64, 64, 8, 1, a, 8, b, 64, 0, nullptr, 64, top2, fake(kAligned * 8), need - 1));
}

TEST(GemmValidation, ValidCallsNeedADeviceOrSucceedWithNoWork) {
  // Nothing to do: success with no CUDA call at all, device or not.
  EXPECT_STATUS(Status::success, gemm::sgemm(0, 4, 4, 1, nullptr, 4, nullptr, 4, 0, nullptr, 4));
  EXPECT_STATUS(Status::success, gemm::sgemm(4, 4, 4, 0.0f, nullptr, 4, nullptr, 4, 1.0f, fake(kAligned), 4));
  // Work to do, and no device (CPU test binaries hide every device): "unsupported", before any launch.
  ASSERT_FALSE(gpuprims::test::gpu_present()) << "CPU test binaries hide every device (see test_main.cpp)";
  EXPECT_STATUS(Status::unsupported,
                gemm::sgemm(4, 4, 4, 1, fake(kAligned), 4, fake(kAligned * 2), 4, 0, fake(kAligned * 3), 4));
  EXPECT_STATUS(Status::unsupported,
                gemm::sgemm_top2_argmin(4, 4, 4, 1, fake(kAligned), 4, fake(kAligned * 2), 4, 0, nullptr, 4,
                                        reinterpret_cast<gpuprims::Top2*>(kAligned * 4)));
}

TEST(GemmLaunchMath, TileCoordIsABijectionForEveryGrouping) {
  for (std::int64_t tiles_m : {1, 2, 3, 7, 8, 9, 33}) {
    for (std::int64_t tiles_n : {1, 2, 5, 16, 17}) {
      for (std::int64_t group : {1, 2, 8}) {
        std::set<std::pair<std::int64_t, std::int64_t>> seen;
        for (std::int64_t b = 0; b < tiles_m * tiles_n; ++b) {
          const d::TileCoord t = d::tile_coord(b, tiles_m, tiles_n, group);
          ASSERT_GE(t.tm, 0);
          ASSERT_LT(t.tm, tiles_m);
          ASSERT_GE(t.tn, 0);
          ASSERT_LT(t.tn, tiles_n);
          seen.insert({t.tm, t.tn});
        }
        EXPECT_EQ(static_cast<std::int64_t>(seen.size()), tiles_m * tiles_n);
      }
    }
  }
  EXPECT_EQ(d::tile_count(4095, 4097, 128, 128), 32 * 33);
  EXPECT_EQ(d::tile_count(1, 1, 128, 256), 1);
}

// The tile kernels' order: every tile once, and every tile that crosses the output's last row or column
// before any inside it; with no edge at all, tile_coord's order itself.
TEST(GemmLaunchMath, EdgesFirstOrderIsABijectionWithTheEdgesFirst) {
  constexpr std::int64_t bm = 64, bn = 128;
  for (std::int64_t m : {1, 63, 64, 65, 128, 200, 640, 1000}) {
    for (std::int64_t n : {1, 127, 128, 129, 384, 1000}) {
      for (std::int64_t group : {1, 8}) {
        SCOPED_TRACE(std::to_string(m) + " x " + std::to_string(n) + ", group " + std::to_string(group));
        const std::int64_t tiles_m = (m + bm - 1) / bm, tiles_n = (n + bn - 1) / bn;
        std::set<std::pair<std::int64_t, std::int64_t>> seen;
        bool interior_seen = false;
        for (std::int64_t b = 0; b < tiles_m * tiles_n; ++b) {
          const d::TileCoord t = d::tile_coord_edges_first(b, m, n, bm, bn, group);
          ASSERT_TRUE(t.tm >= 0 && t.tm < tiles_m && t.tn >= 0 && t.tn < tiles_n) << "block " << b;
          const bool edge = (t.tm + 1) * bm > m || (t.tn + 1) * bn > n;
          EXPECT_FALSE(interior_seen && edge) << "edge tile (" << t.tm << ", " << t.tn << ") after an interior tile";
          interior_seen = interior_seen || !edge;
          if (m % bm == 0 && n % bn == 0) {
            const d::TileCoord plain = d::tile_coord(b, tiles_m, tiles_n, group);
            EXPECT_TRUE(t.tm == plain.tm && t.tn == plain.tn) << "block " << b;
          }
          seen.insert({t.tm, t.tn});
        }
        EXPECT_EQ(static_cast<std::int64_t>(seen.size()), tiles_m * tiles_n);
      }
    }
  }
}

// The whole-grid tile kernels (GridForm) only where no block meets an edge: an m or n edge, a k tail,
// a k split that cuts a slab, an operand or C without 16-byte accesses, or a C that is read (beta != 0,
// NaN included) each rule them out; with none of these every tile shape that divides the call may.
TEST(GemmLaunchMath, WholeGridOnlyWhereNoBlockMeetsAnEdge) {
  d::GemmCall whole{};
  whole.op = d::GemmOperands{512, 768, 96, fake(kAligned), 96, fake(kAligned), 768, 96};
  whole.ab_vec4 = true;
  whole.out.m = 512;
  whole.out.n = 768;
  whole.out.c_vec4 = true;
  whole.out.alpha = 1.0f;
  whole.out.beta = 0.0f;
  whole.out.store = true;
  whole.splits = 1;
  for (const auto& tile : {std::array<int, 3>{128, 256, 8}, std::array<int, 3>{256, 128, 8},
                           std::array<int, 3>{64, 128, 16}, std::array<int, 3>{32, 64, 32}})
    EXPECT_TRUE(d::grid_is_whole(whole, tile[0], tile[1], tile[2])) << tile[0] << " x " << tile[1] << " x " << tile[2];
  EXPECT_FALSE(d::grid_is_whole(whole, 128, 256, 64)) << "k = 96 leaves a tail of a 64-deep slab";
  EXPECT_FALSE(d::grid_is_whole(whole, 1024, 256, 8)) << "m = 512 is half a 1024-row tile";

  const auto whole_after = [&](auto change) {
    d::GemmCall c = whole;
    change(c);
    return d::grid_is_whole(c, 128, 256, 8);
  };
  EXPECT_TRUE(whole_after([](d::GemmCall& c) { c.out.store = false; })) << "C not stored";
  EXPECT_TRUE(whole_after([](d::GemmCall& c) {
    c.op.k_split = 48;
    c.splits = 2;
  })) << "two k ranges of 6 slabs";
  EXPECT_FALSE(whole_after([](d::GemmCall& c) { c.op.m = c.out.m = 520; })) << "an m edge";
  EXPECT_FALSE(whole_after([](d::GemmCall& c) { c.op.n = c.out.n = 772; })) << "an n edge";
  EXPECT_FALSE(whole_after([](d::GemmCall& c) { c.op.k = c.op.k_split = 100; })) << "a k tail";
  EXPECT_FALSE(whole_after([](d::GemmCall& c) {
    c.op.k_split = 36;
    c.splits = 3;
  })) << "k ranges that cut a slab";
  EXPECT_FALSE(whole_after([](d::GemmCall& c) { c.ab_vec4 = false; })) << "A or B without 16-byte loads";
  EXPECT_FALSE(whole_after([](d::GemmCall& c) { c.out.c_vec4 = false; })) << "C without 16-byte accesses";
  EXPECT_FALSE(whole_after([](d::GemmCall& c) { c.out.beta = 1.0f; })) << "beta != 0 reads C";
  EXPECT_FALSE(whole_after([](d::GemmCall& c) { c.out.beta = std::nanf(""); })) << "a NaN beta reads C";
}

// Banks a warp's transposing store hits: lanes hold consecutive A-load slots (row, k-group of 4).
template <class Layout, int BM, int BK>
int worst_store_conflict() {
  int worst = 1;
  for (int first_lane_slot = 0; first_lane_slot < BM * BK / 4; first_lane_slot += 32) {
    for (int j = 0; j < 4; ++j) {
      int per_bank[32] = {};
      for (int lane = 0; lane < 32; ++lane) {
        const int slot = first_lane_slot + lane;
        const int row = slot / (BK / 4), k = (slot % (BK / 4)) * 4 + j;
        ++per_bank[Layout::offset(k, row) % 32];
      }
      for (int c : per_bank) worst = std::max(worst, c);
    }
  }
  return worst;
}

template <int BM, int BK>
void expect_swizzle_bijective_and_conflict_free() {
  using S = d::SwizzledATile<BM, BK>;
  std::set<int> offsets;
  for (int k = 0; k < BK; ++k)
    for (int m = 0; m < BM; ++m) {
      const int o = S::offset(k, m);
      ASSERT_GE(o, 0);
      ASSERT_LT(o, S::kFloats);
      offsets.insert(o);
      if (m % 4 == 0) {  // float4 reads along m stay contiguous and aligned
        ASSERT_EQ(o % 4, 0);
        for (int e = 1; e < 4; ++e) ASSERT_EQ(S::offset(k, m + e), o + e);
      }
    }
  EXPECT_EQ(static_cast<int>(offsets.size()), BM * BK);
  EXPECT_EQ((worst_store_conflict<S, BM, BK>()), 1) << "BM " << BM << " BK " << BK;
}

TEST(GemmSmemLayout, SwizzleIsABijectionAndRemovesStoreConflicts) {
  expect_swizzle_bijective_and_conflict_free<128, 8>();
  expect_swizzle_bijective_and_conflict_free<256, 8>();
  expect_swizzle_bijective_and_conflict_free<128, 16>();
  expect_swizzle_bijective_and_conflict_free<64, 16>();
  expect_swizzle_bijective_and_conflict_free<32, 32>();
  // The plain transposed layout of rung 6 has the 2-way conflicts rung 7 removes.
  EXPECT_EQ((worst_store_conflict<d::PlainATile<128, 8>, 128, 8>()), 2);
}

// The compute loop's split of a fragment offset (a per-thread part chosen by lane_xor, plus a part
// known at compile time) must equal the swizzled offset for every warp-tile row the configurations
// use: m = wm + 16 * s + 4 * t with wm a multiple of 32.
template <int BM, int BK>
void expect_split_offset_matches() {
  using S = d::SwizzledATile<BM, BK>;
  for (int k = 0; k < BK; ++k)
    for (int wm = 0; wm < BM; wm += 32)
      for (int s = 0; 16 * s + wm < BM; ++s)
        for (int t = 0; t < 4; ++t)
          ASSERT_EQ(S::fixed_part(k, s) + S::lane_part(wm, t, S::lane_xor(k)), S::offset(k, wm + 16 * s + 4 * t))
              << "BM " << BM << " BK " << BK << " k " << k << " wm " << wm << " s " << s << " t " << t;
}

TEST(GemmSmemLayout, SplitFragmentOffsetEqualsTheSwizzledOffset) {
  expect_split_offset_matches<128, 8>();
  expect_split_offset_matches<256, 8>();
  expect_split_offset_matches<128, 16>();
  expect_split_offset_matches<64, 16>();
  expect_split_offset_matches<32, 32>();
}

// The device shape the tuned rung plans with: the real one when a GPU is present, else a stand-in
// (the public queries use the same stand-in without a device).
d::DeviceShape planning_device() {
  const d::DeviceShape* device = nullptr;
  if (d::current_device_shape(&device) == Status::success) return *device;
  d::DeviceShape fallback;
  fallback.sm_count = 1;
  return fallback;
}

TEST(GemmPlan, SplitsCoverKExactlyWithAlignedNonEmptyRanges) {
  for (const d::RungEntry* path : d::tuned_paths())
    for (std::int64_t k : {1, 2, 7, 8, 9, 100, 333, 4096, 65537})
      for (int splits : {1, 2, 3, 7, 16, 1000}) {
        const d::GemmPlan p = d::make_plan(*path, k, splits);
        SCOPED_TRACE(std::string(path->name) + " k " + std::to_string(k) + " splits " + std::to_string(splits));
        EXPECT_TRUE(d::plan_fits(p, 1, 1, k));
        EXPECT_LE(p.splits, splits);
        if (p.splits > 1) {
          EXPECT_EQ(p.k_split % path->k_align, 0);
          EXPECT_LT((p.splits - 1) * p.k_split, k);  // the last range is not empty
          EXPECT_GE(p.splits * p.k_split, k);
        } else {
          EXPECT_EQ(p.k_split, k);
        }
      }
}

TEST(GemmPlan, FitsRejectsShapesAndSplitsOutsideAPath) {
  const d::GemmPlan rows = d::make_plan(d::kFewRowsPaths[0], 100, 1);
  EXPECT_TRUE(d::plan_fits(rows, d::kFewRowsPaths[0].bm, 5000, 100));
  EXPECT_FALSE(d::plan_fits(rows, d::kFewRowsPaths[0].bm + 1, 5000, 100));
  const d::GemmPlan cols = d::make_plan(d::kFewColsPaths[0], 100, 1);
  EXPECT_TRUE(d::plan_fits(cols, 5000, d::kFewColsPaths[0].bn, 100));
  EXPECT_FALSE(d::plan_fits(cols, 5000, d::kFewColsPaths[0].bn + 1, 100));
  EXPECT_FALSE(d::plan_fits(rows, 4, 5000, 101)) << "one range must cover exactly k";
  d::GemmPlan split = d::make_plan(d::kTunedConfigs[0], 1000, 4);
  ASSERT_GT(split.splits, 1);
  EXPECT_TRUE(d::plan_fits(split, 300, 300, 1000));
  EXPECT_FALSE(d::plan_fits(split, 300, 300, 2000)) << "ranges short of k";
  split.k_split += 1;
  EXPECT_FALSE(d::plan_fits(split, 300, 300, 1000)) << "misaligned range";
  const d::GemmPlan ladder = d::make_plan(d::ladder_rung(Algorithm::double_buffered)->path, 1000, 4);
  EXPECT_EQ(ladder.splits, 1) << "the FP32 ladder rungs never split k";
}

// Of the ladder rungs only the tensor-core ones have a split rule, and it splits only where their
// tiles leave more than half of the SMs idle: then into at most as many splits as fill the SMs once,
// none shallower than kMinLadderSplitDepth, every range a whole number of 32-deep slabs. (Without a
// GPU the rules are those of the mma.sync form; the wgmma form's keeps within fewer resident blocks.)
// The outer-product path: its rule (k of 1 to 4, C stored: without 16-byte accesses and at least
// kMinOutputs results, or - plain calls and the fused top-2 - wide and large), its plans (one range, k at
// most 4), its grid (every row's windows, shifted by up to 31 columns) and its workspace (none beyond the top-2's).
// Over random shapes the tuned plan is the outer-product one exactly where the rule holds, and always fits the shape.
TEST(GemmPlan, OuterProductOnlyWhereItsRuleHolds) {
  using S = d::OuterProductShape;
  const d::RungEntry& outer = d::kOuterProductPath;
  EXPECT_EQ(outer.kind, d::PathKind::outer_product);
  EXPECT_TRUE(d::outer_product_serves(2339, 7091, 1, true, false));
  EXPECT_TRUE(d::outer_product_serves(2048, 2048, 4, true, false)) << "exactly kMinOutputs results";
  EXPECT_FALSE(d::outer_product_serves(2047, 2048, 4, true, false)) << "one row short";
  EXPECT_FALSE(d::outer_product_serves(2339, 7091, 5, true, false)) << "k past 4";
  EXPECT_FALSE(d::outer_product_serves(2339, 7091, 0, true, false)) << "no k";
  EXPECT_TRUE(d::outer_product_serves(2339, 7091, 1, true, true)) << "16-byte C, wide and large";
  EXPECT_TRUE(d::outer_product_serves(4096, 2048, 4, true, true)) << "exactly kMinVectorOutputs, kMinVectorColumns";
  EXPECT_FALSE(d::outer_product_serves(4095, 2048, 4, true, true)) << "16-byte C, one row short";
  EXPECT_FALSE(d::outer_product_serves(std::int64_t{1} << 20, 2047, 1, true, true)) << "16-byte C, too narrow";
  EXPECT_TRUE(d::outer_product_serves(std::int64_t{1} << 20, 2047, 1, true, false)) << "narrow without 16-byte C";
  EXPECT_TRUE(d::outer_product_serves(2339, 7091, 1, true, true, d::PickFor::top2)) << "a fused call, 16-byte C";
  EXPECT_FALSE(d::outer_product_serves(4095, 2048, 4, true, true, d::PickFor::top2))
      << "fused, 16-byte C, one row short";
  EXPECT_FALSE(d::outer_product_serves(2339, 7091, 1, true, true, d::PickFor::row_top2)) << "per row, 16-byte C";
  EXPECT_TRUE(d::outer_product_serves(2339, 7091, 1, true, false, d::PickFor::top2)) << "a fused call, odd ldc";
  EXPECT_FALSE(d::outer_product_serves(2339, 7091, 1, false, true)) << "C not stored";
  EXPECT_FALSE(d::outer_product_serves(2339, 7091, 1, false, true, d::PickFor::top2)) << "fused, C not stored";
  EXPECT_FALSE(d::outer_product_serves(2339, 7091, 1, false, false, d::PickFor::top2)) << "fused, no C, odd ldc";
  EXPECT_FALSE(d::outer_product_serves(std::int64_t{1} << 40, 0, 1, true, false)) << "no columns";
  EXPECT_TRUE(d::outer_product_serves(std::int64_t{1} << 40, std::int64_t{1} << 40, 2, true, false)) << "no overflow";

  for (std::int64_t k : {1, 2, 3, 4}) {
    const d::GemmPlan p = d::make_plan(outer, k, 8);
    EXPECT_EQ(p.splits, 1) << "k is never split";
    EXPECT_TRUE(d::plan_fits(p, 5, 7, k));
  }
  EXPECT_FALSE(d::plan_fits(d::make_plan(outer, 5, 1), 5, 7, 5)) << "k past 4";
  d::GemmPlan forged = d::make_plan(outer, 4, 1);
  forged.splits = 2;
  forged.k_split = 2;
  EXPECT_FALSE(d::plan_fits(forged, 5, 7, 4)) << "a split";
  EXPECT_EQ(d::plan_blocks_x(outer, S::kRows, S::kWindow - 31), 1);
  EXPECT_EQ(d::plan_blocks_x(outer, S::kRows, S::kWindow - 30), 2) << "a row shifted by 31 spills over";
  EXPECT_EQ(d::plan_blocks_x(outer, S::kRows + 1, 1), 2);
  EXPECT_EQ(d::call_workspace_bytes(d::make_plan(outer, 3, 1), 2339, 7091, false, 132), 0u);
  EXPECT_TRUE(d::epilogue_in_one_wave(d::make_plan(outer, 1, 1), 23390, 70910, 132, 8))
      << "its blocks merge and push once each, whatever the grid";

  const d::DeviceShape device = planning_device();
  std::mt19937_64 rng(20261130);
  std::uniform_real_distribution<double> log_side(0.0, 14.0);
  const auto side = [&] { return static_cast<std::int64_t>(std::exp2(log_side(rng))); };
  int outer_plans = 0;
  for (int i = 0; i < 2000; ++i) {
    const std::int64_t m = side(), n = side(), k = i % 2 == 0 ? 1 + i % 7 : side();
    for (bool store_c : {true, false})
      for (bool c_vec4 : {true, false}) {
        const d::GemmPlan p = d::plan_for(Algorithm::tuned, m, n, k, store_c, device, c_vec4);
        SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k) + ": " + d::plan_label(p));
        ASSERT_TRUE(d::plan_fits(p, m, n, k));
        EXPECT_EQ(p.path == &outer, d::outer_product_serves(m, n, k, store_c, c_vec4));
        outer_plans += p.path == &outer;
        // The workspace queries plan as if C took 16-byte accesses; they must cover the top-2 call's
        // plan with this C too.
        const d::GemmPlan fused = d::plan_for(Algorithm::tuned, m, n, k, store_c, device, c_vec4, d::PickFor::top2);
        ASSERT_TRUE(d::plan_fits(fused, m, n, k));
        EXPECT_EQ(fused.path == &outer, d::outer_product_serves(m, n, k, store_c, c_vec4, d::PickFor::top2));
        EXPECT_GE(gemm::top2_workspace_bytes(m, n, k), d::call_workspace_bytes(fused, m, n, true, device.sm_count));
      }
  }
  EXPECT_GT(outer_plans, 0) << "the draw reaches the rule";
}

TEST(GemmPlan, LadderRungsSplitKOnlyOnTensorCoresAndOnlyOverIdleSms) {
  std::mt19937_64 rng(20261123);
  std::uniform_real_distribution<double> log_side(0.0, 16.0);
  const auto side = [&] { return static_cast<std::int64_t>(std::exp2(log_side(rng))); };
  for (Algorithm algo : gemm::kAllAlgorithms) {
    const d::RungEntry& path = d::ladder_rung(algo)->path;
    if (path.run == nullptr) continue;  // tuned: the cost model's pick
    const bool tensor_core = algo == Algorithm::tf32 || algo == Algorithm::tf32x3;
    SCOPED_TRACE(gemm::name(algo));
    EXPECT_EQ(path.splits_k, tensor_core);
    EXPECT_EQ(path.ladder_splits != nullptr, tensor_core);
    if (path.ladder_splits == nullptr) continue;
    int split = 0;
    for (int i = 0; i < 3000; ++i) {
      const std::int64_t m = side(), n = side(), k = side();
      const int sms = i % 3 == 0 ? 16 : i % 3 == 1 ? 108 : 132;
      const d::GemmPlan p = d::make_plan(path, k, path.ladder_splits(m, n, k, sms));
      SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k) + " on " +
                   std::to_string(sms) + " SMs: " + d::plan_label(p));
      ASSERT_TRUE(d::plan_fits(p, m, n, k));
      const std::int64_t tiles = d::plan_blocks_x(path, m, n);
      if (2 * tiles > sms) {
        EXPECT_EQ(p.splits, 1);
      }
      if (p.splits > 1) {
        ++split;
        EXPECT_LE(tiles * p.splits, sms);
        EXPECT_GE(p.k_split, d::kMinLadderSplitDepth);
        EXPECT_EQ(p.k_split % 32, 0);
      }
    }
    EXPECT_GT(split, 0) << "the draw reaches few-tile shapes";
  }
  EXPECT_EQ(d::fill_splits(1024, 4096, 132), 1);
  EXPECT_EQ(d::fill_splits(64, 8192, 132), 2) << "64 tiles: two splits fill 128 of 132";
  EXPECT_EQ(d::fill_splits(9, 4096, 132), 14) << "9 tiles: 14 splits fill 126";
  EXPECT_EQ(d::fill_splits(1, 64, 132), 2) << "no split shallower than one 32-deep slab";
}

// Cluster plans: only paths with a cluster form have them; at most the portable cluster size of
// splits, each range aligned and none empty; no workspace partials, and the epilogue runs in every
// block of the one launch.
TEST(GemmPlan, ClusterPlansStayWithinAClusterAndNeedNoPartials) {
  int with_cluster = 0;
  for (const d::RungEntry* path : d::tuned_paths()) {
    with_cluster += path->run_cluster != nullptr;
    for (std::int64_t k : {1, 9, 100, 333, 4096, 65537})
      for (int splits : {2, 3, 7, 8, 100}) {
        const d::GemmPlan p = d::make_cluster_plan(*path, k, splits);
        SCOPED_TRACE(std::string(path->name) + " k " + std::to_string(k) + " splits " + std::to_string(splits));
        EXPECT_TRUE(d::plan_fits(p, 4, 4, k));  // 4 x 4: within every path's limits
        if (path->run_cluster == nullptr || p.splits == 1) {
          EXPECT_FALSE(p.cluster);
          continue;
        }
        EXPECT_TRUE(p.cluster);
        EXPECT_LE(p.splits, d::kMaxClusterSplits);
        EXPECT_LT((p.splits - 1) * p.k_split, k);
        EXPECT_EQ(d::partials_bytes(p, 70, 70), 0u);
        EXPECT_EQ(d::epilogue_blocks(p, 70, 70, 132), d::plan_blocks_x(*path, 70, 70) * p.splits);
        EXPECT_EQ(d::plan_label(p), std::string(path->name) + " cluster " + std::to_string(p.splits));
      }
  }
  EXPECT_GE(with_cluster, 1) << "some tile path has a cluster form";
  d::GemmPlan forged = d::make_plan(d::kTunedConfigs[0], 1000, 4);
  ASSERT_EQ(d::kTunedConfigs[0].run_cluster, nullptr);
  forged.cluster = true;
  EXPECT_FALSE(d::plan_fits(forged, 300, 300, 1000)) << "a path without a cluster form";
  const d::RungEntry& small = d::kTunedConfigs[d::kNumTunedConfigs - 1];
  ASSERT_NE(small.run_cluster, nullptr);
  d::GemmPlan wide = d::make_plan(small, 4096, 16);
  ASSERT_EQ(wide.splits, 16);
  wide.cluster = true;
  EXPECT_FALSE(d::plan_fits(wide, 300, 300, 4096)) << "more splits than a cluster holds";
  d::GemmPlan single = d::make_plan(small, 4096, 1);
  single.cluster = true;
  EXPECT_FALSE(d::plan_fits(single, 300, 300, 4096)) << "a cluster of one split";
}

// The stream-K schedule (stream_k_schedule.hpp), walked the way the kernel walks it: one whole tile per
// block first, then every shared slab in exactly one sharing block's run; a block holds at most two
// pieces of tiles, in different workspace slots; a tile's pieces are the blocks owner() names, in k
// order. The shared tiles are the partial last wave's, with the full wave before it when the partial
// one holds under a sixth of a wave or follows only one full wave.
TEST(GemmStreamK, RunsCoverEverySharedSlabOnceWithTwoPiecesAtMostPerBlock) {
  for (std::int64_t tiles : {1, 2, 5, 131, 132, 133, 264, 300, 512})
    for (std::int64_t slabs : {1, 2, 3, 64, 513})
      for (std::int64_t blocks : {1, 2, 7, 132, 264}) {
        SCOPED_TRACE(std::to_string(tiles) + " tiles, " + std::to_string(slabs) + " slabs, " + std::to_string(blocks) +
                     " blocks");
        ASSERT_TRUE(d::stream_k_schedule_fits(tiles, slabs, blocks));
        const d::StreamKSchedule s = d::make_stream_k_schedule(tiles, slabs, blocks);
        EXPECT_EQ(s.dp_tiles % blocks, 0);
        EXPECT_EQ(s.grid(), s.dp_tiles + s.blocks);
        EXPECT_EQ(s.blocks, std::min(blocks, s.shared_slabs())) << "no block without a slab";
        const std::int64_t partial = tiles % blocks;
        if (tiles <= blocks) {
          EXPECT_EQ(s.shared_tiles(), tiles);
        } else if (partial == 0) {
          EXPECT_EQ(s.shared_tiles(), 0);
          EXPECT_EQ(s.grid(), tiles) << "the plain kernel's grid";
        } else if (tiles > 2 * blocks && partial * 6 >= blocks) {
          EXPECT_EQ(s.shared_tiles(), partial);
        } else {
          EXPECT_EQ(s.shared_tiles(), partial + blocks);
        }
        if (s.shared_tiles() == 0) continue;
        EXPECT_EQ(s.begin(0), 0);
        EXPECT_EQ(s.begin(s.blocks), s.shared_slabs());
        std::vector<int> covered(static_cast<std::size_t>(s.shared_slabs()), 0);
        std::vector<std::int64_t> pieces(static_cast<std::size_t>(s.shared_tiles()), 0);
        for (std::int64_t b = 0; b < s.blocks; ++b) {
          const std::int64_t end = s.begin(b + 1);
          ASSERT_LT(s.begin(b), end) << "every run holds a slab";
          EXPECT_LE(end - s.begin(b), s.shared_slabs() / s.blocks + 1) << "runs equal to within a slab";
          std::set<int> slots;
          for (std::int64_t i = s.begin(b); i < end;) {
            const std::int64_t st = i / slabs, s0 = i - st * slabs, s1 = std::min(slabs, s0 + (end - i));
            for (std::int64_t j = i; j < i + (s1 - s0); ++j) {
              ++covered[static_cast<std::size_t>(j)];
              EXPECT_EQ(s.owner(j), b) << "slab " << j;
            }
            ++pieces[static_cast<std::size_t>(st)];
            if (s0 != 0 || s1 != slabs) {
              EXPECT_TRUE(slots.insert(s.slot(b, i)).second) << "block " << b;
              // The kernel's shortcut (stream_k_fix_up): a piece after its tile's first opens its
              // block's run, so slot 0; the first piece's slot is slot(owner, tile start).
              const std::int64_t first = s.owner(st * slabs);
              EXPECT_EQ(s.slot(b, i), b == first ? s.slot(first, st * slabs) : 0) << "block " << b;
            }
            i += s1 - s0;
          }
          EXPECT_LE(slots.size(), 2u);
        }
        for (int c : covered) ASSERT_EQ(c, 1);
        for (std::int64_t st = 0; st < s.shared_tiles(); ++st)
          EXPECT_EQ(s.owner((st + 1) * slabs - 1) - s.owner(st * slabs) + 1, pieces[static_cast<std::size_t>(st)]);
      }
  EXPECT_FALSE(d::stream_k_schedule_fits(std::int64_t{1} << 31, std::int64_t{1} << 31, 132)) << "64-bit overflow";
  EXPECT_FALSE(d::stream_k_schedule_fits(0, 1, 1));
}

TEST(GemmStreamK, PlansFitOnlyTilePathsWithTheFormAndOneKRange) {
  const d::RungEntry& tile = d::kTunedConfigs[0];  // 128 x 128
  ASSERT_NE(tile.run_stream_k, nullptr);
  const d::GemmPlan p = d::make_stream_k_plan(tile, 4096, 132);
  EXPECT_EQ(p.stream_k_blocks, 132);
  EXPECT_TRUE(d::plan_fits(p, 4096, 4096, 4096));
  EXPECT_TRUE(d::plan_fits(d::make_stream_k_plan(tile, 1, 132), 1, 1, 1));
  EXPECT_FALSE(d::plan_fits(p, 4096, 4096, 4095)) << "planned for another k";
  EXPECT_FALSE(d::plan_fits(d::make_stream_k_plan(tile, 0, 132), 64, 64, 0)) << "no k";
  EXPECT_EQ(d::plan_label(p), std::string(tile.name) + " stream-k 132");
  // 1024 tiles: 924 whole (7 waves), 100 shared by 132 blocks after them.
  EXPECT_EQ(d::epilogue_blocks(p, 4096, 4096, 132), 924 + 132);
  EXPECT_EQ(d::stream_k_schedule_for(p, 4096, 4096, 4096).grid(), 924 + 132);
  EXPECT_EQ(d::epilogue_blocks(p, 1000, 1000, 132), 132) << "64 tiles, all shared";
  EXPECT_EQ(d::partials_bytes(p, 4096, 4096), 132u * 2u * 128u * 128u * 4u + 1024u * 4u);
  EXPECT_EQ(d::stream_k_tickets_offset(p), 132u * 2u * 128u * 128u * 4u);
  d::GemmPlan split = d::make_plan(tile, 4096, 4);
  split.stream_k_blocks = 132;
  EXPECT_FALSE(d::plan_fits(split, 4096, 4096, 4096)) << "stream-K with a k split";
  d::GemmPlan many = p;
  many.stream_k_blocks = d::kMaxStreamKBlocks + 1;
  EXPECT_FALSE(d::plan_fits(many, 4096, 4096, 4096));
  many.stream_k_blocks = -1;
  EXPECT_FALSE(d::plan_fits(many, 4096, 4096, 4096));
  for (const d::RungEntry* path : d::tuned_paths()) {
    if (path->run_stream_k != nullptr) {
      EXPECT_EQ(path->kind, d::PathKind::tile) << path->name;
      continue;
    }
    EXPECT_EQ(d::make_stream_k_plan(*path, 4096, 132).stream_k_blocks, 0) << path->name;
    d::GemmPlan forged = d::make_plan(*path, 4096, 1);
    forged.stream_k_blocks = 132;
    EXPECT_FALSE(d::plan_fits(forged, 4, 4, 4096)) << path->name << ": no stream-K form";
  }
}

// The pick offers a stream-K plan only where the tiles overrun a whole number of waves.
TEST(GemmCostModel, StreamKCandidatesOnlyPastAWholeWave) {
  d::DeviceShape device;
  device.sm_count = 132;
  for (int& occupancy : device.occupancy) occupancy = 1;
  const auto stream_k_paths = [&](std::int64_t m, std::int64_t n, std::int64_t k) {
    std::set<std::string> names;
    d::for_each_candidate(m, n, k, device, [&](int, const d::GemmPlan& p) {
      if (p.stream_k_blocks == 0) return;
      EXPECT_EQ(p.stream_k_blocks, 132);
      EXPECT_TRUE(d::plan_fits(p, m, n, k));
      names.insert(p.path->name);
    });
    return names;
  };
  EXPECT_EQ(stream_k_paths(4096, 4096, 4096), std::set<std::string>{"db_128x128x8_w32x64"}) << "7.8 waves";
  EXPECT_EQ(stream_k_paths(64, 64, 65536).size(), 0u) << "one tile";
  EXPECT_EQ(stream_k_paths(4096, 4096, 8).size(), 0u) << "one slab";
  constexpr std::int64_t kTile = 128;
  EXPECT_EQ(stream_k_paths(12 * kTile, 11 * kTile, 4096).size(), 0u) << "12 x 11 tiles: one whole wave";
  EXPECT_EQ(stream_k_paths(12 * kTile, 11 * kTile + 1, 4096).size(), 1u) << "12 x 12 tiles: past it";
}

// The pick offers cluster plans only on a device that runs them, and there prefers one to the
// two-launch split it would otherwise take on a small output with a long k (same main loop, no
// second launch).
TEST(GemmCostModel, ClusterPlansOnlyOnADeviceWithClusters) {
  d::DeviceShape device;
  device.sm_count = 132;
  for (int& occupancy : device.occupancy) occupancy = 2;
  const std::int64_t m = 83, n = 31, k = 149;
  int clustered = 0;
  d::for_each_candidate(m, n, k, device, [&](int, const d::GemmPlan& p) { clustered += p.cluster; });
  EXPECT_EQ(clustered, 0);
  const d::GemmPlan without = d::pick_plan(m, n, k, true, device, d::fitted_constants());
  EXPECT_GT(without.splits, 1) << d::plan_label(without);
  EXPECT_FALSE(without.cluster);
  device.clusters = true;
  d::for_each_candidate(m, n, k, device, [&](int, const d::GemmPlan& p) {
    clustered += p.cluster;
    if (p.cluster) {
      EXPECT_NE(p.path->run_cluster, nullptr) << d::plan_label(p);
    }
  });
  EXPECT_GT(clustered, 0);
  const d::GemmPlan with = d::pick_plan(m, n, k, true, device, d::fitted_constants());
  EXPECT_TRUE(with.cluster) << d::plan_label(with);
}

// A tile path's whole-tile factor (PathCost::whole_tiles_step) changes its prediction exactly where no
// tile has an edge: m and n whole tiles and k whole slabs. One row, column or k step short of that,
// the prediction is the factor-free one.
TEST(GemmCostModel, WholeTileFactorAppliesOnlyWhereNoTileHasAnEdge) {
  d::DeviceShape device;
  device.sm_count = 132;
  for (int& occupancy : device.occupancy) occupancy = 1;
  const d::ModelConstants& model = d::fitted_constants();
  d::ModelConstants without = model;
  for (d::PathCost& c : without.paths) c.whole_tiles_step = 1.0;
  const auto predicted = [&](int path, std::int64_t m, std::int64_t n, std::int64_t k, const d::ModelConstants& c) {
    return d::predict_us(path, d::make_plan(*d::tuned_paths()[path], k, 1), m, n, k, true, device, c);
  };
  int factors = 0;
  for (int i = 0; i < d::kNumTunedPaths; ++i) {
    const d::RungEntry& path = *d::tuned_paths()[i];
    SCOPED_TRACE(path.name);
    if (path.kind != d::PathKind::tile) {
      EXPECT_FALSE(d::whole_tiles(path, 4096, 4096, 4096));
      continue;
    }
    EXPECT_TRUE(d::whole_tiles(path, 4096, 4096, 4096));
    if (model.paths[i].whole_tiles_step == 1.0) continue;
    ++factors;
    EXPECT_NE(predicted(i, 4096, 4096, 4096, model), predicted(i, 4096, 4096, 4096, without));
    for (const auto& edge :
         {std::array<std::int64_t, 3>{4095, 4096, 4096}, std::array<std::int64_t, 3>{4096, 4095, 4096},
          std::array<std::int64_t, 3>{4096, 4096, 4096 - path.k_step / 2}}) {
      EXPECT_FALSE(d::whole_tiles(path, edge[0], edge[1], edge[2]));
      EXPECT_EQ(predicted(i, edge[0], edge[1], edge[2], model), predicted(i, edge[0], edge[1], edge[2], without));
    }
  }
  EXPECT_GT(factors, 0) << "model_constants.inc has no GPUPRIMS_MODEL_WHOLE_TILES line";
}

// Each call's pick on the H200 (its occupancies as its sweeps recorded them) where runs FR and FS timed
// the plans (cost_model.hpp, PickFor). At 4096^3 every tile is whole: 256 x 128 ran the plain call
// fastest in every stored sweep, while the fused top-2 calls ran faster on 128 x 256. At 16384^2 x 64
// the global top-2 ran faster on 64 x 128 tiles, as the plain call did, and the per-row top-2 slower.
TEST(GemmCostModel, EachCallRanksWithItsOwnWholeTileFactors) {
  d::DeviceShape device;
  device.sm_count = 132;
  device.clusters = true;
  device.dependent_launch = true;
  const int occupancy[] = {1, 1, 1, 1, 3, 4, 4, 2, 2, 1, 1, 4, 4, 2, 2};
  ASSERT_EQ(std::size(occupancy), static_cast<std::size_t>(d::kNumTunedPaths));
  for (int i = 0; i < d::kNumTunedPaths; ++i) device.occupancy[i] = occupancy[i];
  const auto pick = [&](std::int64_t m, std::int64_t n, std::int64_t k, bool store_c, d::PickFor call) {
    return std::string(d::pick_plan(m, n, k, store_c, device, d::constants_for(call)).path->name);
  };
  EXPECT_EQ(&d::constants_for(d::PickFor::plain), &d::fitted_constants());
  EXPECT_EQ(pick(4096, 4096, 4096, true, d::PickFor::plain), "db_256x128x8_w64x64");
  EXPECT_EQ(pick(16384, 16384, 64, true, d::PickFor::plain), "db_64x128x16_w32x64");
  for (bool store_c : {true, false}) {
    SCOPED_TRACE(store_c ? "C stored" : "C not stored");
    EXPECT_EQ(pick(4096, 4096, 4096, store_c, d::PickFor::top2), "db_128x256x8_w64x64");
    EXPECT_EQ(pick(4096, 4096, 4096, store_c, d::PickFor::row_top2), "db_128x256x8_w64x64");
    EXPECT_EQ(pick(16384, 16384, 64, store_c, d::PickFor::top2), "db_64x128x16_w32x64");
    EXPECT_EQ(pick(16384, 16384, 64, store_c, d::PickFor::row_top2), "db_128x256x8_w64x64");
  }
}

TEST(GemmCostModel, FittedConstantsCoverEveryTunedPath) {
  const d::ModelConstants& m = d::fitted_constants();
  EXPECT_TRUE(m.complete) << "model_constants.inc lacks a tuned path: rerun bench/sgemm_autotune";
  EXPECT_GT(m.dram_gbs, 0);
  for (int i = 0; i < d::kNumTunedPaths; ++i) {
    SCOPED_TRACE(d::tuned_paths()[i]->name);
    EXPECT_GT(m.paths[i].step_us, 0);
    EXPECT_GE(m.paths[i].alone, 1.0);
  }
}

TEST(GemmCostModel, EveryPlanTheModelRanksFitsTheShape) {
  d::DeviceShape device;
  device.sm_count = 132;
  for (int i = 0; i < d::kNumTunedPaths; ++i) device.occupancy[i] = 1 + i % 4;
  for (std::int64_t m : {1, 4, 5, 16, 17, 32, 33, 100, 4096, 100000})
    for (std::int64_t n : {1, 4, 9, 32, 300, 8192})
      for (std::int64_t k : {1, 64, 8192, 1 << 20}) {
        int candidates = 0;
        d::for_each_candidate(m, n, k, device, [&](int, const d::GemmPlan& p) {
          ++candidates;
          EXPECT_TRUE(d::plan_fits(p, m, n, k)) << p.path->name << " " << m << "x" << n << "x" << k;
        });
        EXPECT_GE(candidates, d::kNumTunedConfigs);
        for (bool store_c : {true, false})
          EXPECT_TRUE(d::plan_fits(d::pick_plan(m, n, k, store_c, device, d::fitted_constants()), m, n, k));
      }
}

// Times made by a known model; fitted from constants scaled away from it, the fit finds constants
// whose pick matches the known model's on every shape, and the stream-K factor the times were made
// with (2500^3 and 4096^3 offer stream-K plans).
TEST(GemmModelFit, RecoversTheRankingOfAKnownModel) {
  d::DeviceShape device;
  device.sm_count = 132;
  device.clusters = true;
  for (int i = 0; i < d::kNumTunedPaths; ++i) device.occupancy[i] = 1 + i % 3;
  d::ModelConstants truth = d::fitted_constants();
  for (int i = 0; i < d::kNumTunedPaths; ++i) {
    truth.paths[i].block_us = 1.0 + 0.3 * (i % 5);
    truth.paths[i].step_us = 0.2 + 0.07 * i;
    truth.paths[i].alone = 1.0 + (i % 3) * 0.5;
    truth.paths[i].whole_tiles_step = d::tuned_paths()[i]->kind == d::PathKind::tile ? 0.75 + 0.03 * i : 1.0;
  }
  truth.stream_k_factor = 1.3;
  std::vector<d::TimedPlan> samples;
  const std::int64_t shapes[][3] = {{4096, 4096, 4096}, {64, 64, 65536},    {1, 8192, 4096},    {8192, 3, 4096},
                                    {1000, 300, 700},   {16, 1000, 20000},  {20000, 20, 900},   {8192, 8192, 16},
                                    {128, 4096, 4096},  {2500, 2500, 2500}, {2048, 1024, 2048}, {1024, 3072, 1024}};
  for (const auto& s : shapes)
    d::for_each_candidate(s[0], s[1], s[2], device, [&](int path, const d::GemmPlan& p) {
      samples.push_back(
          {s[0], s[1], s[2], true, path, p, d::predict_us(path, p, s[0], s[1], s[2], true, device, truth)});
    });
  d::ModelConstants start = truth;
  start.launch_us *= 1.7;
  start.cluster_us *= 3.0;
  start.cluster_fitted = false;
  start.stream_k_factor = 1.0;
  start.stream_k_fitted = false;
  for (auto& c : start.paths) {
    c.block_us *= 0.6;
    c.step_us *= 1.4;
    c.alone = 1.0;
    c.whole_tiles_step = 1.0;
  }
  EXPECT_LT(d::score_pick(samples, device, start).geomean, 0.999) << "the start must rank some shape wrongly";
  const d::FitReport fit = d::fit_model(samples, device, &start);
  EXPECT_LT(fit.rms_log_error, 0.05);
  const d::PickScore score = d::score_pick(samples, device, start);
  EXPECT_GT(score.geomean, 0.99) << "worst " << score.worst_shape;
  EXPECT_GT(score.worst, 0.95) << score.worst_shape;
  EXPECT_TRUE(start.cluster_fitted) << "the samples held cluster plans";
  EXPECT_NE(d::model_constants_inc(start, "").find("GPUPRIMS_MODEL_CLUSTER("), std::string::npos);
  EXPECT_TRUE(start.stream_k_fitted) << "the samples held stream-K plans";
  EXPECT_NEAR(start.stream_k_factor, truth.stream_k_factor, 0.05);
  EXPECT_NE(d::model_constants_inc(start, "").find("GPUPRIMS_MODEL_STREAM_K("), std::string::npos);
  // Shapes without edge tiles (4096^3, 8192^2 x 16, 2048 x 1024 x 2048, 1024 x 3072 x 1024) pin each
  // tile path's whole-tile factor.
  for (int i = 0; i < d::kNumTunedPaths; ++i) {
    SCOPED_TRACE(d::tuned_paths()[i]->name);
    EXPECT_NEAR(start.paths[i].whole_tiles_step, truth.paths[i].whole_tiles_step, 0.05);
  }
  EXPECT_NE(d::model_constants_inc(start, "").find("GPUPRIMS_MODEL_WHOLE_TILES("), std::string::npos);
}

// score_pick names each shape's pick (the lowest prediction) and its fastest measured candidate:
// here the pick measures ten times its prediction, so the fastest is the second-ranked plan.
TEST(GemmModelFit, ScoresEachPickAgainstTheFastestMeasuredPlan) {
  d::DeviceShape device;
  device.sm_count = 132;
  for (int& occupancy : device.occupancy) occupancy = 2;
  const d::ModelConstants& model = d::fitted_constants();
  const std::int64_t m = 700, n = 900, k = 1100;
  std::vector<d::TimedPlan> samples;
  d::for_each_candidate(m, n, k, device, [&](int path, const d::GemmPlan& p) {
    samples.push_back({m, n, k, true, path, p, d::predict_us(path, p, m, n, k, true, device, model)});
  });
  ASSERT_GE(samples.size(), 2u);
  std::vector<std::size_t> order(samples.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return samples[a].us < samples[b].us; });
  ASSERT_LT(samples[order[0]].us, samples[order[1]].us) << "the test needs one first-ranked plan";
  samples[order[0]].us *= 10;
  const d::PickScore score = d::score_pick(samples, device, model);
  ASSERT_EQ(score.shapes, 1);
  ASSERT_EQ(score.per_shape.size(), 1u);
  EXPECT_EQ(score.per_shape[0].picked, &samples[order[0]]);
  EXPECT_EQ(score.per_shape[0].fastest, &samples[order[1]]);
  EXPECT_DOUBLE_EQ(score.geomean, samples[order[1]].us / samples[order[0]].us);
  EXPECT_DOUBLE_EQ(score.worst, score.geomean);
  EXPECT_EQ(score.worst_shape, "700x900x1100");
}

TEST(GemmModelFit, WritesEveryPathAsAnIncludeLine) {
  const std::string inc = d::model_constants_inc(d::fitted_constants(), "// header\n");
  EXPECT_EQ(inc.rfind("// header\nGPUPRIMS_MODEL_GLOBALS(", 0), 0u);
  for (const d::RungEntry* p : d::tuned_paths())
    EXPECT_NE(inc.find(std::string("GPUPRIMS_MODEL_PATH(\"") + p->name + "\""), std::string::npos) << p->name;
}

// The split-K reduction gives each lane group a float4 of a row when C takes 16-byte accesses and one
// element when not, so a C without them needs about four times the blocks; the workspace is sized for
// the larger grid, whichever C the call brings.
TEST(GemmSplitKReduce, BlocksCoverTheOutputsOfEitherForm) {
  EXPECT_EQ(d::split_k_reduce_lanes(41), 8);
  EXPECT_EQ(d::split_k_reduce_blocks(15, 61, 41, 132, true), 8);    // 15 x 16 float4s x 8 lanes / 256
  EXPECT_EQ(d::split_k_reduce_blocks(15, 61, 41, 132, false), 29);  // 915 elements x 8 lanes / 256
  EXPECT_EQ(d::split_k_reduce_blocks(1, 1, 2, 132, false), 1);
  EXPECT_EQ(d::split_k_reduce_blocks(4096, 4096, 4, 132, false), 8 * 132) << "capped at 8 blocks per SM";
  const d::GemmPlan plan = d::make_plan(d::kTunedConfigs[5], 1311, 41);
  ASSERT_EQ(plan.splits, 41);
  EXPECT_EQ(d::epilogue_blocks(plan, 15, 61, 132), 29);
}

// The fused top-2 is finished by the epilogue kernel's last block only when that kernel's blocks run
// together (a ticket per block then costs little); a grid of more waves takes the kernel after it.
TEST(GemmTop2End, InTheKernelOnlyForAboutOneWave) {
  const d::RungEntry& path = d::kTunedConfigs[5];
  const std::int64_t n = std::int64_t{3} * 132 * path.bn;  // one row of tiles: 3 blocks per SM of 132
  const d::GemmPlan single = d::make_plan(path, 512, 1);
  ASSERT_EQ(d::epilogue_blocks(single, path.bm, n, 132), 3 * 132);
  EXPECT_TRUE(d::epilogue_in_one_wave(single, path.bm, n, 132, 3));
  EXPECT_FALSE(d::epilogue_in_one_wave(single, path.bm, n + 1, 132, 3)) << "one block past the resident ones";
  EXPECT_FALSE(d::epilogue_in_one_wave(single, path.bm, n, 132, 2));
  EXPECT_FALSE(d::epilogue_in_one_wave(single, path.bm, n, 132, 0)) << "an unknown occupancy counts as 2";
  EXPECT_TRUE(d::epilogue_in_one_wave(single, path.bm, std::int64_t{2} * 132 * path.bn, 132, 0));
  EXPECT_FALSE(d::epilogue_in_one_wave(single, 4096, 4096, 132, 3));
  const d::GemmPlan split = d::make_plan(path, 4096, 4);
  ASSERT_GT(split.splits, 1);
  EXPECT_TRUE(d::epilogue_in_one_wave(split, 4096, 4096, 132, 1)) << "the reduction's grid is capped per SM";
}

// A split-K reduction of at most kDependentEndMaxBlocks blocks ends its top-2 in a kernel launched as
// its programmatic dependent, on devices that have dependent launch and for calls of at least
// kDependentEndMinOperandBytes of operands; larger reductions, unsplit plans, cluster plans and
// smaller calls keep the last block's write.
TEST(GemmTop2End, InADependentKernelOnlyAfterASmallSplitReduction) {
  const d::RungEntry& path = d::kTunedConfigs[5];
  const d::GemmPlan split = d::make_plan(path, 4096, 4);
  ASSERT_EQ(split.splits, 4);
  ASSERT_EQ(d::split_k_reduce_blocks(1, 4096, 4, 132, true), 4);
  ASSERT_EQ(d::split_k_reduce_blocks(1, 4096, 4, 132, false), d::kDependentEndMaxBlocks);
  EXPECT_TRUE(d::epilogue_ends_in_dependent(split, 1, 4096, 132, true, true));
  EXPECT_TRUE(d::epilogue_ends_in_dependent(split, 1, 4096, 132, false, true)) << "16 blocks, the most";
  EXPECT_TRUE(d::epilogue_ends_in_dependent(split, 4096, 1, 132, false, true));
  EXPECT_FALSE(d::epilogue_ends_in_dependent(split, 1, 4097, 132, false, true)) << "17 blocks";
  EXPECT_FALSE(d::epilogue_ends_in_dependent(split, 1, 4096, 132, true, false)) << "no dependent launch";
  const d::GemmPlan long_k = d::make_plan(path, 65536, 256);
  ASSERT_GT(long_k.splits, 8);
  ASSERT_GT(d::split_k_reduce_blocks(64, 64, long_k.splits, 132, true), d::kDependentEndMaxBlocks);
  EXPECT_FALSE(d::epilogue_ends_in_dependent(long_k, 64, 64, 132, true, true)) << "64 x 64 x 65536's reduction";
  EXPECT_FALSE(d::epilogue_ends_in_dependent(d::make_plan(path, 4096, 1), 1, 4096, 132, true, true));
  const d::GemmPlan cluster = d::make_cluster_plan(path, 4096, 4);
  ASSERT_TRUE(cluster.cluster) << "db_64x64x16 has a cluster form";
  EXPECT_FALSE(d::epilogue_ends_in_dependent(cluster, 1, 4096, 132, true, true));
  // And only for calls whose operands outlast the host's third launch.
  EXPECT_TRUE(d::operands_outlast_a_launch(1, 4096, 4096));  // 64 MiB
  EXPECT_TRUE(d::operands_outlast_a_launch(4095, 1, 1024));  // (4095 + 1) x 1024 floats: 16 MiB, the least
  EXPECT_FALSE(d::operands_outlast_a_launch(4094, 1, 1024));
  EXPECT_FALSE(d::operands_outlast_a_launch(1, 1024, 2048)) << "8 MiB";
}

// The wgmma form's cluster pick (tuning.hpp): every side divides the tile grid's (the kernel's tile
// groups are whole clusters), at most 8 blocks, 8 only for tf32x3 on grids of 12 or more tiles per SM,
// 2 x 2 for tf32 only below k = 512; the H100 cases the rule was measured on.
TEST(GemmWgmmaClusters, ThePickDividesTheTileGridAndFollowsItsRule) {
  for (const bool x3 : {true, false})
    for (const bool fused : {false, true})
      for (const int sms : {1, 108, 132})
        for (std::int64_t tm = 1; tm <= 160; tm += (tm < 40 ? 1 : 7))
          for (std::int64_t tn = 1; tn <= 160; tn += (tn < 40 ? 1 : 5))
            for (const std::int64_t k : {1, 64, 511, 512, 8192}) {
              const d::WgmmaClusterShape c = d::wgmma_cluster_shape(x3, fused, tm, tn, k, sms);
              SCOPED_TRACE(std::to_string(tm) + " x " + std::to_string(tn) + " tiles, k " + std::to_string(k));
              ASSERT_TRUE(c.m == 1 || c.m == 2 || c.m == 4);
              ASSERT_TRUE(c.n == 1 || c.n == 2 || c.n == 4);
              ASSERT_EQ(tm % c.m, 0);
              ASSERT_EQ(tn % c.n, 0);
              ASSERT_LE(c.m * c.n, x3 ? 8 : 4);
              if (c.m * c.n == 8) {
                ASSERT_GE(tm * tn, d::kWgmmaWideClusterTilesPerSm * sms);
                ASSERT_FALSE(fused);
              }
              if (c.m * c.n == 4) {
                ASSERT_TRUE(c.m == 2 && c.n == 2);
              }
              if (!x3 && k >= d::kWgmmaPairClusterMinK) {
                ASSERT_LT(c.m * c.n, 4);
              }
              if (tm % 2 == 0 || tn % 2 == 0) {
                ASSERT_GT(c.m * c.n, 1) << "a pair fits";
              }
            }
  const auto is = [](d::WgmmaClusterShape c, int m, int n) { return c.m == m && c.n == n; };
  EXPECT_TRUE(is(d::wgmma_cluster_shape(true, false, 64, 64, 8192, 132), 2, 4)) << "8192^3";
  EXPECT_TRUE(is(d::wgmma_cluster_shape(true, false, 128, 128, 64, 132), 2, 4)) << "16384^2 x 64";
  EXPECT_TRUE(is(d::wgmma_cluster_shape(true, false, 96, 32, 2048, 132), 2, 4)) << "12288 x 4096 x 2048";
  EXPECT_TRUE(is(d::wgmma_cluster_shape(true, false, 64, 30, 8192, 132), 4, 2)) << "columns of tiles not in fours";
  EXPECT_TRUE(is(d::wgmma_cluster_shape(true, false, 32, 32, 4096, 132), 2, 2)) << "4096^3: 7.8 tiles per SM";
  EXPECT_TRUE(is(d::wgmma_cluster_shape(true, true, 128, 128, 64, 132), 2, 2)) << "fused top-2, 16384^2 x 64";
  EXPECT_TRUE(is(d::wgmma_cluster_shape(true, false, 63, 64, 8192, 132), 1, 2));
  EXPECT_TRUE(is(d::wgmma_cluster_shape(false, false, 32, 32, 4096, 132), 2, 1)) << "tf32 at 4096^3";
  EXPECT_TRUE(is(d::wgmma_cluster_shape(false, false, 31, 32, 4096, 132), 1, 2));
  EXPECT_TRUE(is(d::wgmma_cluster_shape(false, false, 64, 64, 128, 132), 2, 2)) << "tf32 at 8192^2 x 128";
  EXPECT_TRUE(is(d::wgmma_cluster_shape(false, false, 33, 33, 4096, 132), 1, 1));
}

// The test hook's pin holds where the call can take it, and gives way to the pick elsewhere: sides
// that do not divide the tile grid, 8 blocks for tf32, shapes with no kernels (4 x 1, 4 x 4).
TEST(GemmWgmmaClusters, APinnedShapeGivesWayWhereTheCallCannotTakeIt) {
  struct Unpin {
    ~Unpin() { d::pin_wgmma_cluster_shape({0, 0}); }
  } unpin;
  const auto is = [](d::WgmmaClusterShape c, d::WgmmaClusterShape e) { return c.m == e.m && c.n == e.n; };
  const auto pick = [](bool x3, std::int64_t m, std::int64_t n, std::int64_t k) {
    d::pin_wgmma_cluster_shape({0, 0});
    return d::wgmma_cluster_for(x3, false, m, n, k);
  };
  const d::WgmmaClusterShape p1 = pick(true, 1000, 1000, 100), p2 = pick(true, 1000, 520, 100),
                             p3 = pick(false, 1000, 1000, 100);
  d::pin_wgmma_cluster_shape({2, 4});
  EXPECT_TRUE(is(d::wgmma_cluster_for(true, false, 1000, 1000, 100), {2, 4})) << "8 x 8 tiles";
  EXPECT_TRUE(is(d::wgmma_cluster_for(true, false, 1000, 520, 100), p2)) << "8 x 5 tiles";
  EXPECT_TRUE(is(d::wgmma_cluster_for(false, false, 1000, 1000, 100), p3)) << "no tf32 kernels in clusters of 8";
  d::pin_wgmma_cluster_shape({4, 2});
  EXPECT_TRUE(is(d::wgmma_cluster_for(true, false, 1000, 1000, 100), {4, 2}));
  d::pin_wgmma_cluster_shape({1, 1});
  EXPECT_TRUE(is(d::wgmma_cluster_for(false, false, 1000, 1000, 100), {1, 1}));
  EXPECT_TRUE(is(d::wgmma_cluster_for(true, false, 1000, 520, 100), {1, 1}));
  for (const d::WgmmaClusterShape none :
       {d::WgmmaClusterShape{4, 1}, d::WgmmaClusterShape{4, 4}, d::WgmmaClusterShape{3, 1}}) {
    d::pin_wgmma_cluster_shape(none);
    EXPECT_TRUE(is(d::wgmma_cluster_for(true, false, 1000, 1000, 100), p1));
  }
}

// Occupancy is known for the tuned paths only (the cost model queries it); a ladder rung gets 0.
TEST(GemmTop2End, ResidentBlocksOfTunedPathsOnly) {
  d::DeviceShape device;
  for (int i = 0; i < d::kNumTunedPaths; ++i) device.occupancy[i] = i + 1;
  for (int i = 0; i < d::kNumTunedPaths; ++i)
    EXPECT_EQ(d::resident_blocks_per_sm(device, d::tuned_paths()[i]), i + 1) << d::tuned_paths()[i]->name;
  EXPECT_EQ(d::resident_blocks_per_sm(device, &d::ladder_rung(Algorithm::naive)->path), 0);
}

TEST(GemmWorkspace, OnePartialPerBlockOfTheLaunchedKernel) {
  // Enough for the scale-only path too (32 x 32 tiles), whatever alpha turns out to be.
  const std::size_t w = gemm::top2_workspace_bytes(4096, 4096, 4096, Algorithm::tuned);
  EXPECT_GE(w, 16 + 128u * 128u * 24u);
  EXPECT_GE(gemm::top2_workspace_bytes(0, 0, 0), 16u);
  EXPECT_EQ(gemm::top2_workspace_bytes(-1, 4, 4), 0u);
  EXPECT_EQ(gemm::sgemm_workspace_bytes(-1, 4, 4), 0u);
  EXPECT_EQ(gemm::sgemm_workspace_bytes(4, 4, 4, static_cast<Algorithm>(99)), 0u);
  EXPECT_EQ(gemm::sgemm_workspace_bytes(4096, 4096, 4096, Algorithm::warptile), 0u) << "FP32 ladder rungs never split";
}

TEST(GemmWorkspace, QueriesCoverThePlansPickedWithAndWithoutC) {
  // The queries know neither alpha nor (for top-2) whether C will be given; the two cases may pick
  // different plans, split or not. On the shapes top2_bench gives explicit workspaces for its other
  // paths (testkit::path_exemplars), and a few more.
  const d::DeviceShape device = planning_device();
  std::vector<gpuprims::testkit::GemmShape> shapes = gpuprims::testkit::path_exemplars();
  shapes.insert(shapes.end(), {{8, 8, 1 << 20}, {2500, 2500, 2500}, {16384, 16384, 64}, {3, 5, 7}});
  for (const auto& s : shapes) {
    const std::int64_t m = s.m, n = s.n, k = s.k;
    SCOPED_TRACE(gpuprims::testkit::shape_name(s));
    const std::size_t top2 = gemm::top2_workspace_bytes(m, n, k);
    const std::size_t plain = gemm::sgemm_workspace_bytes(m, n, k);
    for (bool store_c : {true, false}) {
      const d::GemmPlan fused = d::plan_for(Algorithm::tuned, m, n, k, store_c, device, true, d::PickFor::top2);
      EXPECT_GE(top2, d::call_workspace_bytes(fused, m, n, true, device.sm_count));
    }
    const d::GemmPlan plan = d::plan_for(Algorithm::tuned, m, n, k, true, device);
    EXPECT_EQ(plain, d::call_workspace_bytes(plan, m, n, false, device.sm_count));
    EXPECT_GE(top2, d::call_workspace_bytes(d::scale_only_plan(), m, n, true, device.sm_count));
  }
}

TEST(GemmWorkspace, RowTop2HoldsASlotPerRowBeforeTheSplitPartials) {
  const d::DeviceShape device = planning_device();
  std::vector<gpuprims::testkit::GemmShape> shapes = gpuprims::testkit::path_exemplars();
  shapes.insert(shapes.end(), {{64, 64, 65536}, {8, 8, 1 << 20}, {3, 5, 7}, {5, 0, 4}});
  for (const auto& s : shapes) {
    SCOPED_TRACE(gpuprims::testkit::shape_name(s));
    const std::size_t query = gemm::row_top2_workspace_bytes(s.m, s.n, s.k);
    for (bool store_c : {true, false}) {
      const d::GemmPlan plan =
          d::plan_for(Algorithm::tuned, s.m, s.n, s.k, store_c, device, true, d::PickFor::row_top2);
      const std::size_t bytes = d::call_workspace_bytes(plan, s.m, s.n, true, device.sm_count, true);
      EXPECT_GE(query, bytes);
      const std::size_t slots = static_cast<std::size_t>(s.m) * 16;
      const std::size_t partials = d::partials_bytes(plan, s.m, s.n);
      EXPECT_EQ(bytes, partials > 0 ? d::workspace_part(slots) + partials : slots);
    }
  }
}

}  // namespace
