// The fused per-row top-2 (gemm::sgemm_row_top2_argmin) on every rung and every tuned path: equal in
// every byte to the per-row top-2 of the C the same call stored (its unfused twin, computed on the CPU
// here), and by value to the double reference within the GEMM bound. Tiny shapes (1x1x1, k = 0, one
// row or column, no rows, no columns), primes and tails, few rows / few columns, a split-K shape,
// padded leading dimensions, offset pointers, alpha and beta (0 over a NaN-poisoned C), C not stored,
// ties, NaN and +-inf, determinism, bad input. Under the sanitizer (GPUPRIMS_SANITIZER=1) large
// dimensions shrink (sanitizer_sized_dim).
#include <gtest/gtest.h>

#include <gpuprims/gemm.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <string>
#include <vector>

#include "common/src/device_buffer.hpp"
#include "gemm/src/gemm_internal.hpp"
#include "support/gemm_check.hpp"
#include "support/gpu.hpp"
#include "support/guarded_array.hpp"
#include "support/top2_check.hpp"
#include "testkit/random.hpp"

namespace {

namespace d = gpuprims::detail;
namespace t = gpuprims::test;
namespace tk = gpuprims::testkit;
using gpuprims::Status;
using gpuprims::Top2;
using gpuprims::gemm::Algorithm;
using gpuprims::gemm::kAllAlgorithms;

constexpr float kInf = std::numeric_limits<float>::infinity();

// The fused result equals, byte for byte, the per-row top-2 over the C that the call stored.
void expect_matches_twin(const t::GemmLayout& l, const t::RowTop2Run& run) {
  ASSERT_STATUS(Status::success, run.status);
  ASSERT_EQ(run.cuda_error, "");
  EXPECT_EQ(run.guard_damage, "");
  EXPECT_EQ(t::row_top2_bytes_diff(run.rows, t::reference_row_top2(run.C.data(), l.m, l.n, l.ldc)), "");
}

// The two smallest values of every row within the GEMM bound of the double reference's two smallest
// (order statistics move no more than the largest error of the row). Finite data only.
void expect_values_near_reference(const t::GemmLayout& l, const t::GemmInputs& in, Algorithm algo, float alpha,
                                  float beta, const std::vector<Top2>& got) {
  const t::ProductReference ref = t::reference_product(l.m, l.n, l.k, in.A.data(), l.lda, in.B.data(), l.ldb);
  for (std::int64_t r = 0; r < l.m; ++r) {
    std::vector<double> row(static_cast<std::size_t>(l.n));
    double bound = 0.0;
    for (std::int64_t c = 0; c < l.n; ++c) {
      const std::size_t i = static_cast<std::size_t>(r * l.n + c);
      const double cin = beta != 0.0f ? in.C[static_cast<std::size_t>(r * l.ldc + c)] : 0.0;
      row[static_cast<std::size_t>(c)] = alpha * ref.sum[i] + beta * cin;
      const double mag = std::fabs(alpha) * ref.mag[i] + std::fabs(beta * cin);
      bound = std::max(bound, t::gemm_error_bound(algo, l.k, mag) + 1e-30);
    }
    std::sort(row.begin(), row.end());
    const Top2& g = got[static_cast<std::size_t>(r)];
    ASSERT_FALSE(std::isnan(g.first.value));
    EXPECT_LE(std::fabs(g.first.value - row[0]), bound) << "row " << r;
    if (l.n > 1) EXPECT_LE(std::fabs(g.second.value - row[1]), bound) << "row " << r;
    else EXPECT_EQ(g.second.col, -1);
  }
}

TEST(RowTop2Fused, EqualsTheUnfusedTwinOnEveryRung) {
  GPUPRIMS_REQUIRE_GPU();
  const t::GemmLayout layouts[] = {t::make_layout(1, 1, 1),
                                   t::make_layout(1, 37, 5),
                                   t::make_layout(29, 1, 8),
                                   t::make_layout(7, 13, 5, 1, 2, 3, 1, 2, 3),
                                   t::make_layout(16, 16, 64),
                                   t::make_layout(33, 65, 9, 0, 0, 0, 3, 1, 2),
                                   t::make_layout(131, 263, 67, 4, 4, 4),
                                   t::make_layout(257, 129, 3, 1, 1, 1, 1, 1, 1)};
  for (const auto& l : layouts) {
    auto rng = t::make_rng(700 + l.m * 3 + l.n);
    const t::GemmInputs in = t::make_inputs(l, rng);
    for (Algorithm algo : kAllAlgorithms) {
      for (auto [alpha, beta] : {std::pair{1.0f, 0.0f}, std::pair{-0.75f, 1.5f}, std::pair{0.0f, 2.0f}}) {
        SCOPED_TRACE(std::string(gpuprims::gemm::name(algo)) + " " + l.describe() + " alpha " + std::to_string(alpha) +
                     " beta " + std::to_string(beta));
        const t::RowTop2Run run = t::run_sgemm_row_top2(l, in, algo, alpha, beta);
        expect_matches_twin(l, run);
        if (alpha != 0.0f) expect_values_near_reference(l, in, algo, alpha, beta, run.rows);
        // The caller's-workspace form gives the same bytes.
        const t::RowTop2Run explicit_ws = t::run_sgemm_row_top2(l, in, algo, alpha, beta, true, true);
        ASSERT_STATUS(Status::success, explicit_ws.status);
        EXPECT_EQ(t::row_top2_bytes_diff(explicit_ws.rows, run.rows), "");
      }
    }
  }
}

// Whether the call takes the same plan with C stored and without (then the products are the same
// bits, and so the results).
bool same_plan_stored_or_not(Algorithm algo, const t::GemmLayout& l) {
  const d::DeviceShape* device = nullptr;
  if (d::current_device_shape(&device) != Status::success) return false;
  const d::GemmPlan a = d::plan_for(algo, l.m, l.n, l.k, true, *device, true, d::PickFor::row_top2);
  const d::GemmPlan b = d::plan_for(algo, l.m, l.n, l.k, false, *device, true, d::PickFor::row_top2);
  return a.path == b.path && a.splits == b.splits && a.k_split == b.k_split;
}

TEST(RowTop2Fused, CNotStoredGivesTheSameRowsAndWritesNothing) {
  GPUPRIMS_REQUIRE_GPU();
  const t::GemmLayout layouts[] = {t::make_layout(211, t::sanitizer_sized_dim(307), 45, 1, 1, 1, 1, 1, 1),
                                   t::make_layout(9, 500, 300), t::make_layout(500, 7, 300)};
  for (const auto& l : layouts) {
    auto rng = t::make_rng(800 + l.m);
    const t::GemmInputs in = t::make_inputs(l, rng);
    for (Algorithm algo : kAllAlgorithms) {
      SCOPED_TRACE(std::string(gpuprims::gemm::name(algo)) + " " + l.describe());
      const t::RowTop2Run stored = t::run_sgemm_row_top2(l, in, algo, -1.5f, 0.0f, true);
      const t::RowTop2Run bare = t::run_sgemm_row_top2(l, in, algo, -1.5f, 0.0f, false);
      expect_matches_twin(l, stored);
      ASSERT_STATUS(Status::success, bare.status);
      ASSERT_EQ(bare.cuda_error, "");
      EXPECT_EQ(bare.guard_damage, "");
      if (same_plan_stored_or_not(algo, l)) {
        EXPECT_EQ(t::row_top2_bytes_diff(bare.rows, stored.rows), "");
      }
      expect_values_near_reference(l, in, algo, -1.5f, 0.0f, bare.rows);
      for (float v : bare.C) ASSERT_TRUE(std::isnan(v)) << "C written although it was not passed";
    }
  }
}

// m <= 16 and n <= 16 with a long k: the tuned rung's few-rows and few-columns kernels (checked).
TEST(RowTop2Fused, FewRowsAndFewColumnsPaths) {
  GPUPRIMS_REQUIRE_GPU();
  const d::DeviceShape* device = nullptr;
  ASSERT_STATUS(Status::success, d::current_device_shape(&device));
  bool saw_few_rows = false, saw_few_cols = false;
  const auto dim = t::sanitizer_sized_dim;
  // testkit::path_exemplars' narrow shapes (1 x 4096 x 4096 and its transpose), then tails and padding.
  const t::GemmLayout layouts[] = {t::make_layout(1, dim(4096), dim(4096)),
                                   t::make_layout(dim(4096), 1, dim(4096)),
                                   t::make_layout(3, 2000, 512),
                                   t::make_layout(16, 4099, 256, 1, 1, 1, 1, 1, 1),
                                   t::make_layout(2000, 5, 512),
                                   t::make_layout(4099, 16, 256, 1, 1, 1, 1, 1, 1),
                                   t::make_layout(11, 13, 4096)};
  for (const auto& l : layouts) {
    for (bool store : {true, false}) {
      const d::GemmPlan plan = d::plan_for(Algorithm::tuned, l.m, l.n, l.k, store, *device, true, d::PickFor::row_top2);
      saw_few_rows |= plan.path->kind == d::PathKind::few_rows;
      saw_few_cols |= plan.path->kind == d::PathKind::few_cols;
    }
    auto rng = t::make_rng(900 + l.m);
    const t::GemmInputs in = t::make_inputs(l, rng);
    SCOPED_TRACE(l.describe());
    const t::RowTop2Run run = t::run_sgemm_row_top2(l, in, Algorithm::tuned, 1.0f, 0.0f);
    expect_matches_twin(l, run);
    expect_values_near_reference(l, in, Algorithm::tuned, 1.0f, 0.0f, run.rows);
    const t::RowTop2Run bare = t::run_sgemm_row_top2(l, in, Algorithm::tuned, 1.0f, 0.0f, false);
    ASSERT_STATUS(Status::success, bare.status);
    if (same_plan_stored_or_not(Algorithm::tuned, l)) {
      EXPECT_EQ(t::row_top2_bytes_diff(bare.rows, run.rows), "");
    }
  }
  if (!t::under_sanitizer()) {  // shrunken shapes may be picked otherwise; the forced-path test covers them
    EXPECT_TRUE(saw_few_rows) << "no layout reached the few-rows kernel";
    EXPECT_TRUE(saw_few_cols) << "no layout reached the few-columns kernel";
  }
}

// A small output with a long k: tuned splits k, and the per-row ranking runs in the fixed-order
// reduction's epilogue.
TEST(RowTop2Fused, SplitKRanksAfterTheReduction) {
  GPUPRIMS_REQUIRE_GPU();
  const t::GemmLayout l = t::make_layout(64, 64, t::sanitizer_sized_dim(65536));
  const d::DeviceShape* device = nullptr;
  ASSERT_STATUS(Status::success, d::current_device_shape(&device));
  if (l.k == 65536) {
    EXPECT_GT(d::plan_for(Algorithm::tuned, l.m, l.n, l.k, true, *device, true, d::PickFor::row_top2).splits, 1)
        << "tuned does not split k here";
  }
  auto rng = t::make_rng(1000);
  const t::GemmInputs in = t::make_inputs(l, rng);
  for (Algorithm algo : {Algorithm::tuned, Algorithm::tf32x3}) {
    SCOPED_TRACE(gpuprims::gemm::name(algo));
    const t::RowTop2Run run = t::run_sgemm_row_top2(l, in, algo, 1.0f, 0.0f);
    expect_matches_twin(l, run);
    expect_values_near_reference(l, in, algo, 1.0f, 0.0f, run.rows);
    const t::RowTop2Run beta = t::run_sgemm_row_top2(l, in, algo, 0.5f, -2.0f);
    expect_matches_twin(l, beta);
    const t::RowTop2Run bare = t::run_sgemm_row_top2(l, in, algo, 1.0f, 0.0f, false);
    ASSERT_STATUS(Status::success, bare.status);
    if (same_plan_stored_or_not(algo, l)) {
      EXPECT_EQ(t::row_top2_bytes_diff(bare.rows, run.rows), "");
    }
  }
}

// A forced plan's per-row top-2 with alpha and beta 0, C stored and then not: equal to the unfused
// twin over the stored C, and the same rows without C. With c_in (beta != 0) C starts from it and is
// stored only. a and b hold the inputs; ws and out are the call's workspace (ws_bytes) and its m
// results.
void expect_forced_plan_matches_twin(const d::GemmPlan& plan, const t::GemmLayout& l, t::GuardedArray& a,
                                     t::GuardedArray& b, t::GuardedArray& c, void* ws, std::size_t ws_bytes, Top2* out,
                                     float alpha = 0.5f, float beta = 0.0f, const std::vector<float>* c_in = nullptr) {
  std::vector<Top2> stored(static_cast<std::size_t>(l.m)), bare(stored.size());
  for (bool store : {true, false}) {
    if (!store && beta != 0.0f) break;  // C must exist when beta != 0
    if (beta != 0.0f) c.upload(*c_in);
    else c.poison();
    CUDA_OK(cudaMemset(out, 0x7F, stored.size() * sizeof(Top2)));
    d::SgemmArgs args{l.m,      l.n,
                      l.k,      alpha,
                      a.data(), l.lda,
                      b.data(), l.ldb,
                      beta,     store ? c.data() : nullptr,
                      l.ldc,    Algorithm::tuned,
                      out,      true};
    args.per_row = true;
    ASSERT_STATUS(Status::success, d::sgemm_run(args, &plan, ws, ws_bytes, nullptr));
    CUDA_OK(cudaDeviceSynchronize());
    std::vector<Top2>& dst = store ? stored : bare;
    CUDA_OK(cudaMemcpy(dst.data(), out, dst.size() * sizeof(Top2), cudaMemcpyDeviceToHost));
    if (store) {
      const std::vector<float> got_c = c.download();
      EXPECT_EQ(t::row_top2_bytes_diff(stored, t::reference_row_top2(got_c.data(), l.m, l.n, l.ldc)), "");
    }
  }
  if (beta == 0.0f) {
    EXPECT_EQ(t::row_top2_bytes_diff(bare, stored), "") << "C not stored";
  }
}

// Every tuned path forced, with one k range and several: the twin rule on each.
TEST(RowTop2Fused, EveryTunedPathForcedWithAndWithoutSplits) {
  GPUPRIMS_REQUIRE_GPU();
  const d::DeviceShape* device = nullptr;
  ASSERT_STATUS(Status::success, d::current_device_shape(&device));
  for (const d::RungEntry* path : d::tuned_paths()) {
    SCOPED_TRACE(path->name);
    const std::int64_t m = path->kind == d::PathKind::few_rows ? path->bm : 2 * path->bm + 3;
    const std::int64_t n = path->kind == d::PathKind::few_cols ? path->bn - 1 : path->bn + 5;
    for (const t::GemmLayout& l : {t::make_layout(m, n, 333, 1, 2, 3, 3, 2, 1), t::make_layout(m, n, 256, 0, 0, 4)}) {
      auto rng = t::make_rng(1100 + l.k);
      const t::GemmInputs in = t::make_inputs(l, rng);
      t::GuardedOperands ops(l, in);
      const std::size_t ws_bytes =
          d::call_workspace_bytes(d::make_plan(*path, l.k, 16), l.m, l.n, true, device->sm_count, true) +
          d::call_workspace_bytes(d::make_plan(*path, l.k, 3), l.m, l.n, true, device->sm_count, true);
      const d::DeviceBuffer<unsigned char> ws(ws_bytes);
      const d::DeviceBuffer<Top2> out(static_cast<std::size_t>(l.m));
      ASSERT_TRUE(ops.ok() && ws && out);
      for (const int splits : {1, 3, 16}) {
        const d::GemmPlan plan = d::make_plan(*path, l.k, splits);
        ASSERT_TRUE(d::plan_fits(plan, l.m, l.n, l.k));
        SCOPED_TRACE(l.describe() + " splits " + std::to_string(plan.splits));
        expect_forced_plan_matches_twin(plan, l, ops.a, ops.b, ops.c, ws.get(), ws_bytes, out.get());
      }
      EXPECT_EQ(ops.guard_damage(), "");
    }
  }
}

// Calls f(path, device) for every tile configuration of the tuned rung, under its name; returns how
// many it called f for.
template <class F>
int for_each_tile_path(F&& f) {
  const d::DeviceShape* device = nullptr;
  if (d::current_device_shape(&device) != Status::success) {
    ADD_FAILURE() << "no device shape";
    return 0;
  }
  int count = 0;
  for (const d::RungEntry* path : d::tuned_paths()) {
    if (path->kind != d::PathKind::tile) continue;
    SCOPED_TRACE(path->name);
    f(*path, *device);
    ++count;
  }
  return count;
}

// An unsplit plan of `path` forced on layout l, with the per-row call's workspace and m results.
struct ForcedUnsplitCall {
  ForcedUnsplitCall(const d::RungEntry& path, const t::GemmLayout& l, const d::DeviceShape& device)
      : plan(d::make_plan(path, l.k, 1)),
        ws_bytes(d::call_workspace_bytes(plan, l.m, l.n, true, device.sm_count, true)),
        ws(ws_bytes),
        out(static_cast<std::size_t>(l.m)) {}
  bool ok() const { return ws && out; }

  d::GemmPlan plan;
  std::size_t ws_bytes;
  d::DeviceBuffer<unsigned char> ws;
  d::DeviceBuffer<Top2> out;
};

// Each layout's forced unsplit call on `path` (C with 16-byte accesses), over every input of
// t::SpecialData (seed + the data's number): check(call, l, ops, in, first_layout) with A and B
// uploaded, then the guard bands checked.
template <class Check>
void for_each_special_input(const d::RungEntry& path, const d::DeviceShape& device,
                            std::initializer_list<t::GemmLayout> layouts, std::uint64_t seed, Check&& check) {
  for (const t::GemmLayout& l : layouts) {
    ASSERT_EQ(l.ldc % 4, 0);
    ForcedUnsplitCall call(path, l, device);
    ASSERT_TRUE(call.ok());
    for (const t::SpecialData data : t::kSpecialData) {
      const t::GemmInputs in = t::special_inputs(l, data, seed + static_cast<std::uint64_t>(data));
      t::GuardedOperands ops(l, in);
      ASSERT_TRUE(ops.ok());
      SCOPED_TRACE(l.describe() + " data " + std::to_string(static_cast<int>(data)));
      check(call, l, ops, in, &l == layouts.begin());
      EXPECT_EQ(ops.guard_damage(), "");
    }
  }
}

// Rows with more tiles than the GPU holds at once, each tile configuration forced: later tiles of a
// row find its second word already set by earlier ones, and their threads push nothing that does not
// beat it (RowTop2Visitor::flush). Small integers give many ties across tiles, at that word too. The
// twin rule, C stored and not.
TEST(RowTop2Fused, LaterTilesOfARowMeetItsSecondWordSet) {
  GPUPRIMS_REQUIRE_GPU();
  const int tested = for_each_tile_path([](const d::RungEntry& path, const d::DeviceShape& device) {
    const std::int64_t resident = std::int64_t{device.sm_count} * std::max(1, d::resident_blocks_per_sm(device, &path));
    // Three tile rows of resident + 2 tiles each: three waves or more.
    const t::GemmLayout l = t::make_layout(2 * path.bm + 1, (resident + 1) * path.bn + 7, 24, 0, 0, 4);
    auto rng = t::make_rng(1150 + path.bm + path.bn);
    const t::GemmInputs in = t::make_inputs(l, rng, tk::Dist::integers_small);
    t::GuardedOperands ops(l, in);
    ForcedUnsplitCall call(path, l, device);
    ASSERT_TRUE(ops.ok() && call.ok());
    SCOPED_TRACE(l.describe());
    expect_forced_plan_matches_twin(call.plan, l, ops.a, ops.b, ops.c, call.ws.get(), call.ws_bytes, call.out.get());
    EXPECT_EQ(ops.guard_damage(), "");
  });
  EXPECT_GT(tested, 0);
}

// Interior tiles read the words of all a thread's rows at the start of their epilogue and skip a
// thread's run of a row whose least value is above its row's word (RowTop2Visitor::take_row). Grids
// of three waves or more, each tile configuration forced, over the inputs of t::SpecialData, so that
// later waves meet words already set: runs of NaN beside values above a finite word, words of +inf or
// NaN, -0 beside a word of +0, ties at the word. A C with 16-byte accesses (ldc a multiple of 4: the
// interior form that hands over row runs), edge tiles and a k tail; then a grid in which no block
// meets an edge (its call without C takes the whole-grid kernel). The twin rule, C stored and not, and
// with beta != 0 on the first.
TEST(RowTop2Fused, LaterTilesSkipRunsAboveTheirRowsWordOverSpecialValues) {
  GPUPRIMS_REQUIRE_GPU();
  const int tested = for_each_tile_path([](const d::RungEntry& path, const d::DeviceShape& device) {
    const std::int64_t resident = std::int64_t{device.sm_count} * std::max(1, d::resident_blocks_per_sm(device, &path));
    for_each_special_input(path, device,
                           {t::make_layout(2 * path.bm + 3, (resident + 1) * path.bn + 3, 6, 0, 0, 1),
                            t::make_layout(2 * path.bm, (resident + 2) * path.bn, 2 * path.k_step)},
                           1600,
                           [](ForcedUnsplitCall& call, const t::GemmLayout& l, t::GuardedOperands& ops,
                              const t::GemmInputs& in, bool first_layout) {
      expect_forced_plan_matches_twin(call.plan, l, ops.a, ops.b, ops.c, call.ws.get(), call.ws_bytes, call.out.get());
      if (first_layout)
        expect_forced_plan_matches_twin(call.plan, l, ops.a, ops.b, ops.c, call.ws.get(), call.ws_bytes, call.out.get(),
                                        1.0f, 0.5f, &in.C);
    });
  });
  EXPECT_GT(tested, 0);
}

// Interior tiles rank a thread's run of each row as floats and pack only its two winners
// (RowTop2Visitor::take_row), falling back to the exact ranking where floats cannot tell entries
// apart. Each tile configuration forced on a shape with interior tiles (16-byte C), over the inputs
// of t::SpecialData (ties within and across runs, NaN rows, -inf, all NaN, all equal, +inf among
// NaN, signed zeros), alpha < 0: the twin rule with beta 0 (C stored and not) and with beta != 0 (C
// read ahead: the kernels for beta != 0 take their own interior form). Then a grid in which no block
// meets an edge, whose call without C takes the kernel compiled for such grids (GridForm): its rows
// must be those of the general kernel's call with C.
TEST(RowTop2Fused, InteriorTilesOverTiesAndSpecialValues) {
  GPUPRIMS_REQUIRE_GPU();
  const int tested = for_each_tile_path([](const d::RungEntry& path, const d::DeviceShape& device) {
    // Two tile rows and columns and a tail of each; ldc = n + 1, a multiple of 4. Then 2 x 2 whole
    // tiles of 3 whole slabs.
    for_each_special_input(
        path, device,
        {t::make_layout(2 * path.bm + 3, 2 * path.bn + 3, 6, 0, 0, 1),
         t::make_layout(2 * path.bm, 2 * path.bn, 3 * path.k_step)},
        1500,
        [](ForcedUnsplitCall& call, const t::GemmLayout& l, t::GuardedOperands& ops, const t::GemmInputs& in, bool) {
      expect_forced_plan_matches_twin(call.plan, l, ops.a, ops.b, ops.c, call.ws.get(), call.ws_bytes, call.out.get(),
                                      -0.75f);
      expect_forced_plan_matches_twin(call.plan, l, ops.a, ops.b, ops.c, call.ws.get(), call.ws_bytes, call.out.get(),
                                      -0.75f, 0.5f, &in.C);
        });
  });
  EXPECT_GT(tested, 0);
}

// The outer-product path (k <= 4) forced: rows that span several of its windows and blocks, an odd
// ldc with offsets, C stored and not; the twin rule as above.
TEST(RowTop2Fused, OuterProductPathForced) {
  GPUPRIMS_REQUIRE_GPU();
  const d::DeviceShape* device = nullptr;
  ASSERT_STATUS(Status::success, d::current_device_shape(&device));
  for (const t::GemmLayout& l : {t::make_layout(37, 1300, 3, 1, 2, 3, 3, 2, 1), t::make_layout(20, 481, 1),
                                 t::make_layout(16, 2000, 4, 0, 0, 4)}) {
    SCOPED_TRACE(l.describe());
    auto rng = t::make_rng(1200 + l.k);
    const t::GemmInputs in = t::make_inputs(l, rng);
    t::GuardedOperands ops(l, in);
    const d::GemmPlan plan = d::make_plan(d::kOuterProductPath, l.k, 1);
    ASSERT_TRUE(d::plan_fits(plan, l.m, l.n, l.k));
    const std::size_t ws_bytes = d::call_workspace_bytes(plan, l.m, l.n, true, device->sm_count, true);
    const d::DeviceBuffer<unsigned char> ws(ws_bytes);
    const d::DeviceBuffer<Top2> out(static_cast<std::size_t>(l.m));
    ASSERT_TRUE(ops.ok() && ws && out);
    expect_forced_plan_matches_twin(plan, l, ops.a, ops.b, ops.c, ws.get(), ws_bytes, out.get());
    EXPECT_EQ(ops.guard_damage(), "");
  }
}

TEST(RowTop2Fused, TinyShapesAndEmptyOutputs) {
  GPUPRIMS_REQUIRE_GPU();
  for (Algorithm algo : kAllAlgorithms) {
    SCOPED_TRACE(gpuprims::gemm::name(algo));
    // k = 0: C = beta * C (beta = 0: every entry 0, so columns 0 and 1 by the tie rule).
    for (auto [m, n] : {std::pair<std::int64_t, std::int64_t>{1, 1}, {3, 1}, {1, 3}, {5, 70}}) {
      const auto l = t::make_layout(m, n, 0);
      auto rng = t::make_rng(1200);
      const t::GemmInputs in = t::make_inputs(l, rng);
      const t::RowTop2Run zero = t::run_sgemm_row_top2(l, in, algo, 1.0f, 0.0f);
      expect_matches_twin(l, zero);
      for (const Top2& row : zero.rows) {
        EXPECT_EQ(row.first.value, 0.0f);
        EXPECT_EQ(row.first.col, 0);
        EXPECT_EQ(row.second.col, n > 1 ? 1 : -1);
      }
      expect_matches_twin(l, t::run_sgemm_row_top2(l, in, algo, 1.0f, -3.0f));
    }
    // n == 0: every row {missing, missing}.
    {
      const auto l = t::make_layout(5, 0, 4);
      const t::GemmInputs in{std::vector<float>(20, 1.0f), std::vector<float>(4, 1.0f), std::vector<float>(5, 1.0f)};
      const t::RowTop2Run run = t::run_sgemm_row_top2(l, in, algo, 1.0f, 0.0f, false);
      ASSERT_STATUS(Status::success, run.status);
      ASSERT_EQ(run.cuda_error, "");
      EXPECT_EQ(run.guard_damage, "");
      const Top2 missing{{kInf, -1, -1}, {kInf, -1, -1}};
      EXPECT_EQ(t::row_top2_bytes_diff(run.rows, std::vector<Top2>(5, missing)), "");
    }
    // m == 0 writes nothing.
    {
      const d::DeviceBuffer<Top2> out(1);
      ASSERT_TRUE(out);
      CUDA_OK(cudaMemset(out.get(), 0x5A, sizeof(Top2)));
      const d::DeviceBuffer<float> b(8);
      ASSERT_STATUS(Status::success, gpuprims::gemm::sgemm_row_top2_argmin(0, 8, 1, 1.0f, nullptr, 1, b.get(), 8, 0.0f,
                                                                           nullptr, 8, out.get(), algo));
      CUDA_OK(cudaDeviceSynchronize());
      unsigned char bytes[sizeof(Top2)];
      CUDA_OK(cudaMemcpy(bytes, out.get(), sizeof bytes, cudaMemcpyDeviceToHost));
      for (unsigned char x : bytes) ASSERT_EQ(x, 0x5A);
    }
  }
}

// Columns of B duplicated: every row has equal entries, and the lowest column wins each tie.
TEST(RowTop2Fused, TiesGoToTheLowerColumn) {
  GPUPRIMS_REQUIRE_GPU();
  auto l = t::make_layout(70, 150, 12, 1, 0, 2);
  auto rng = t::make_rng(1300);
  t::GemmInputs in = t::make_inputs(l, rng, tk::Dist::integers_small);
  // Columns 40, 41, 97 and 149 copy column 3; column 100 copies column 60.
  for (std::int64_t p = 0; p < l.k; ++p) {
    float* row = &in.B[static_cast<std::size_t>(p * l.ldb)];
    row[40] = row[41] = row[97] = row[149] = row[3];
    row[100] = row[60];
  }
  for (Algorithm algo : kAllAlgorithms) {
    SCOPED_TRACE(gpuprims::gemm::name(algo));
    const t::RowTop2Run run = t::run_sgemm_row_top2(l, in, algo, 1.0f, 0.0f);
    expect_matches_twin(l, run);
    for (const Top2& row : run.rows) {
      EXPECT_NE(row.first.col, 40);
      EXPECT_NE(row.first.col, 97);
      EXPECT_NE(row.first.col, 100);
      if (row.first.col == 3) {  // column 40 ties with it: the second is 40 or a lower column of that value
        EXPECT_EQ(row.second.value, row.first.value);
        EXPECT_LE(row.second.col, 40);
      }
    }
    // Every column the same: columns 0 and 1 in every row.
    t::GemmInputs same = in;
    for (std::int64_t p = 0; p < l.k; ++p)
      for (std::int64_t c = 1; c < l.n; ++c)
        same.B[static_cast<std::size_t>(p * l.ldb + c)] = same.B[static_cast<std::size_t>(p * l.ldb)];
    const t::RowTop2Run flat = t::run_sgemm_row_top2(l, same, algo, 1.0f, 0.0f, false);
    ASSERT_STATUS(Status::success, flat.status);
    for (std::size_t r = 0; r < flat.rows.size(); ++r) {
      EXPECT_EQ(flat.rows[r].first.col, 0) << r;
      EXPECT_EQ(flat.rows[r].second.col, 1) << r;
      EXPECT_EQ(flat.rows[r].first.row, static_cast<std::int64_t>(r));
    }
  }
}

TEST(RowTop2Fused, NanInfinitiesAndSignedZeros) {
  GPUPRIMS_REQUIRE_GPU();
  for (Algorithm algo : kAllAlgorithms) {
    SCOPED_TRACE(gpuprims::gemm::name(algo));
    auto l = t::make_layout(45, 77, 6, 1, 0, 2, 2, 0, 1);
    auto rng = t::make_rng(1400);
    t::GemmInputs in = t::make_inputs(l, rng);
    for (std::int64_t p = 0; p < l.k; ++p) in.A[static_cast<std::size_t>(4 * l.lda + p)] = std::nanf("");  // row 4
    in.A[static_cast<std::size_t>(9 * l.lda + 1)] = std::numeric_limits<float>::infinity();    // row 9: +-inf
    in.B[static_cast<std::size_t>(2 * l.ldb + 30)] = -std::numeric_limits<float>::infinity();  // column 30
    const t::RowTop2Run run = t::run_sgemm_row_top2(l, in, algo, 1.0f, 0.0f);
    expect_matches_twin(l, run);
    // Row 4 is NaN throughout: canonical NaN at columns 0 and 1.
    const Top2& nan_row = run.rows[4];
    std::uint32_t bits = 0;
    std::memcpy(&bits, &nan_row.first.value, sizeof bits);
    EXPECT_EQ(bits, 0x7fc00000u);
    EXPECT_EQ(nan_row.first.col, 0);
    EXPECT_EQ(nan_row.second.col, 1);

    // Zeros tie: scale-only, C holds -0.0 at (1, 7) and +0.0 at (1, 2), the rest of row 1 above.
    t::GemmInputs zeros = in;
    for (float& v : zeros.C) v = 1.0f + std::fabs(v);
    zeros.C[static_cast<std::size_t>(1 * l.ldc + 7)] = -0.0f;
    zeros.C[static_cast<std::size_t>(1 * l.ldc + 2)] = 0.0f;
    const t::RowTop2Run z = t::run_sgemm_row_top2(l, zeros, algo, 0.0f, 1.0f);
    expect_matches_twin(l, z);
    EXPECT_EQ(z.rows[1].first.col, 2);
    EXPECT_EQ(z.rows[1].second.col, 7);

    // A row of zeros times alpha = -1 stores -0.0 throughout: reported as +0.0, columns 0 and 1.
    t::GemmInputs neg = in;
    for (std::int64_t p = 0; p < l.k; ++p) neg.A[static_cast<std::size_t>(6 * l.lda + p)] = 0.0f;
    const t::RowTop2Run nz = t::run_sgemm_row_top2(l, neg, algo, -1.0f, 0.0f);
    expect_matches_twin(l, nz);
    std::memcpy(&bits, &nz.rows[6].first.value, sizeof bits);
    EXPECT_EQ(bits, 0u) << "-0.0 is reported as +0.0";
    std::memcpy(&bits, &nz.rows[6].second.value, sizeof bits);
    EXPECT_EQ(bits, 0u);
    EXPECT_EQ(nz.rows[6].first.col, 0);
    EXPECT_EQ(nz.rows[6].second.col, 1);
  }
}

TEST(RowTop2Fused, DeterministicOverTenRuns) {
  GPUPRIMS_REQUIRE_GPU();
  const t::GemmLayout shapes[] = {t::make_layout(t::sanitizer_sized_dim(1000), t::sanitizer_sized_dim(1500), 64),
                                  t::make_layout(64, 64, t::sanitizer_sized_dim(20000))};
  for (const auto& l : shapes) {
    auto rng = t::make_rng(1500 + l.k);
    const t::GemmInputs in = t::make_inputs(l, rng, tk::Dist::integers_small);  // many ties
    for (Algorithm algo : {Algorithm::tuned, Algorithm::tf32x3, Algorithm::naive}) {
      SCOPED_TRACE(std::string(gpuprims::gemm::name(algo)) + " " + l.describe());
      const t::RowTop2Run first = t::run_sgemm_row_top2(l, in, algo, 1.0f, 0.0f, false);
      ASSERT_STATUS(Status::success, first.status);
      for (int i = 0; i < 9; ++i) {
        const t::RowTop2Run again = t::run_sgemm_row_top2(l, in, algo, 1.0f, 0.0f, false);
        ASSERT_EQ(t::row_top2_bytes_diff(again.rows, first.rows), "") << "run " << i + 1;
      }
    }
  }
}

TEST(RowTop2Fused, BadInputIsAStatusBeforeAnyLaunch) {
  GPUPRIMS_REQUIRE_GPU();
  namespace g = gpuprims::gemm;
  const d::DeviceBuffer<float> a(64), b(64), c(64);
  const d::DeviceBuffer<Top2> out(8);
  ASSERT_TRUE(a && b && c && out);
  CUDA_OK(cudaMemset(out.get(), 0x5A, 8 * sizeof(Top2)));
  EXPECT_EQ(g::sgemm_row_top2_argmin(4, 4, 4, 1.0f, a.get(), 4, b.get(), 4, 0.0f, c.get(), 4, nullptr),
            Status::invalid_argument);
  EXPECT_EQ(g::sgemm_row_top2_argmin(-1, 4, 4, 1.0f, a.get(), 4, b.get(), 4, 0.0f, c.get(), 4, out.get()),
            Status::invalid_argument);
  EXPECT_EQ(g::sgemm_row_top2_argmin(4, 4, 4, 1.0f, a.get(), 3, b.get(), 4, 0.0f, c.get(), 4, out.get()),
            Status::invalid_argument);
  EXPECT_EQ(g::sgemm_row_top2_argmin(4, 4, 4, 1.0f, a.get(), 4, b.get(), 4, 1.0f, nullptr, 4, out.get()),
            Status::invalid_argument);  // C must exist when beta != 0
  EXPECT_EQ(g::sgemm_row_top2_argmin(4, 4, 4, 1.0f, a.get(), 4, b.get(), 4, 0.0f, c.get(), 4, out.get(),
                                     static_cast<Algorithm>(99)),
            Status::invalid_argument);
  auto* const misaligned = reinterpret_cast<Top2*>(reinterpret_cast<char*>(out.get()) + 4);
  EXPECT_EQ(g::sgemm_row_top2_argmin(4, 4, 4, 1.0f, a.get(), 4, b.get(), 4, 0.0f, c.get(), 4, misaligned),
            Status::misaligned_pointer);
  // A workspace smaller than the query asks for.
  const std::size_t need = g::row_top2_workspace_bytes(4, 4, 4);
  ASSERT_GE(need, 4 * 16u);
  const d::DeviceBuffer<unsigned char> ws(need);
  EXPECT_EQ(
      g::sgemm_row_top2_argmin(4, 4, 4, 1.0f, a.get(), 4, b.get(), 4, 0.0f, c.get(), 4, out.get(), ws.get(), need - 1),
      Status::invalid_argument);
  EXPECT_EQ(g::sgemm_row_top2_argmin(4, 4, 4, 1.0f, a.get(), 4, b.get(), 4, 0.0f, c.get(), 4, out.get(), nullptr, need),
            Status::invalid_argument);
  // Columns past the packed words' reach.
  const std::int64_t too_wide = std::int64_t{0xffffffff};
  EXPECT_EQ(
      g::sgemm_row_top2_argmin(1, too_wide, 1, 1.0f, a.get(), 1, b.get(), too_wide, 0.0f, nullptr, too_wide, out.get()),
      Status::unsupported);
  CUDA_OK(cudaDeviceSynchronize());
  std::vector<unsigned char> bytes(8 * sizeof(Top2));
  CUDA_OK(cudaMemcpy(bytes.data(), out.get(), bytes.size(), cudaMemcpyDeviceToHost));
  for (unsigned char x : bytes) ASSERT_EQ(x, 0x5A) << "a rejected call wrote its output";
}

}  // namespace
