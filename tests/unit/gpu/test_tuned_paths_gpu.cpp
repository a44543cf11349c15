// Every path the tuned rung can pick (rung 9's tile shapes, the few-rows and few-columns kernels),
// forced with one k range and with k split (into counts that do not divide k, and into many; for the
// small tiles also in their one-launch cluster form, sm_90), on
// tail-heavy shapes within the path's limits, padded leading dimensions and offset pointers: plain
// (alpha, beta), beta = 0 over a NaN-poisoned C, and the fused top-2 (packed and wide merges, C
// stored and not) against its unfused twin. The public API reaches each plan only for the shapes the
// cost model sends there, so the plans are forced here; likewise the outer-product path (k <= 4),
// which the tuned call takes beside the model.
#include <gtest/gtest.h>

#include <gpuprims/gemm.hpp>
#include <gpuprims/reduce.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "common/src/device_buffer.hpp"
#include "gemm/src/gemm_internal.hpp"
#include "support/gemm_check.hpp"
#include "support/gpu.hpp"
#include "support/guarded_array.hpp"
#include "support/top2_check.hpp"

namespace {

namespace d = gpuprims::detail;
using gpuprims::detail::DeviceBuffer;
namespace t = gpuprims::test;
using gpuprims::Status;

// Layouts within the path's limits: tails on every side, k past a slab, padding and offsets, and
// one with interior tiles and 16-byte aligned operands (the edge-free loads and fixed epilogue forms).
std::vector<t::GemmLayout> layouts_for(const d::RungEntry& p) {
  const std::int64_t bm = p.bm, bn = p.bn;
  switch (p.kind) {
    case d::PathKind::few_rows:
      // k = 4500 crosses two of the deepest A chunks (FewRowsShape::chunk: 2048 where B is prefetched)
      // and ends inside a step, aligned and not.
      return {t::make_layout(1, 1, 1),
              t::make_layout(bm, 257, 33),
              t::make_layout(bm - 1, bn + 3, 300, 1, 2, 3, 3, 2, 1),
              t::make_layout(3, 2 * bn + 4, 517, 0, 0, 4),
              t::make_layout(bm, 4, 64, 4, 4, 4),
              t::make_layout(bm, 2 * bn, 4500),
              t::make_layout(bm - 1, bn + 3, 4500, 1, 2, 3, 3, 2, 1)};
    case d::PathKind::few_cols:
      // n == 1 (few_cols_4's one-column kernel): unaligned A, aligned A with a padded B, and a grid of
      // 70 blocks (past FewColsShape::kLatencyBoundBlocks: the one-pass form).
      return {t::make_layout(1, 1, 1),
              t::make_layout(257, bn, 33),
              t::make_layout(2 * bm + 3, bn - 1, 300, 1, 2, 3, 3, 2, 1),
              t::make_layout(1000, 3, 517, 0, 0, 4),
              t::make_layout(bm, bn, 640, 4, 4, 4),
              t::make_layout(2 * bm + 3, 1, 300, 1, 2, 3, 3, 2, 1),
              t::make_layout(bm, 1, 200, 0, 3, 0),
              t::make_layout(70 * bm, 1, 130)};
    case d::PathKind::outer_product:
      // k <= 4 (k_step) only: windows that start before a row (offset C, odd ldc), rows and columns
      // past a block's, padding and offsets on every operand, a C with 16-byte accesses, one window
      // and two.
      return {t::make_layout(1, 1, 1),
              t::make_layout(bm + 1, 33, 2, 1, 2, 3, 3, 2, 1),
              t::make_layout(3 * bm + 5, 2 * bn + 77, 3, 0, 0, 0, 0, 0, 1),
              t::make_layout(2 * bm, bn - 31, 4),
              t::make_layout(bm - 1, bn - 30, 4),
              t::make_layout(40, 2 * bn + 200, 4, 4, 4, 4),
              t::make_layout(100, 700, 1, 0, 0, 2)};
    case d::PathKind::tile: break;
  }
  // The next two: aligned, n a multiple of 4 past the tile edge (whole-vector edge loads, tuning.hpp),
  // k whole slabs, then k = 100 with a tail in every path's slab depth. Then 16-byte loads (lda padded
  // to a multiple of 4) on tiles with no m or n edge whose k tails cut A's vectors (203: 3 deep on
  // 8-deep slabs, 11 on 16- and 32-deep ones; 3: the tail is the only slab). The last two: 16-byte C
  // with k past 768, on edge tiles and on whole ones only, where 128 x 256 and 256 x 128 read C in
  // turn for beta != 0 (WarpTileConfig::vec_reads_c_ahead); the last is also a grid in which no block
  // meets an edge, so its unsplit fused top-2 calls with beta = 0 take the kernels compiled for that
  // (GridForm, k = 800: WarpTileConfig::whole_grid_kernel_gains).
  return {t::make_layout(1, 1, 1),
          t::make_layout(bm + 1, bn - 1, 17),
          t::make_layout(2 * bm + 3, bn + 5, 333, 1, 2, 3, 3, 2, 1),
          t::make_layout(300, 259, 70, 4, 4, 4),
          t::make_layout(2 * bm + 3, 2 * bn + 4, 256, 0, 0, 4),
          t::make_layout(bm + 5, 2 * bn + 8, 100),
          t::make_layout(2 * bm, 2 * bn, 203, 1, 0, 0),
          t::make_layout(bm, bn, 3, 1, 0, 0),
          t::make_layout(bm + 5, bn + 4, 800, 4, 4, 4),
          t::make_layout(2 * bm, bn, 800, 4, 4, 4)};
}

// The fused top-2 of a forced plan with alpha and beta = 0, in its three forms (packed merge with C
// stored, 64-bit-index merge, C not stored), each equal to the unfused twin over the C in ops.c, which
// the plan's plain call with the same alpha stored just before. Each call finds a poisoned result and
// a zeroed workspace: it must write the one and set up its own part of the other (zero words would
// rank before any result). twin_out, when given, receives the twin's pair.
void expect_fused_forms_match_twin(const d::GemmPlan& plan, const t::GemmLayout& l, t::GuardedOperands& ops,
                                   float alpha, gpuprims::Top2* d_top2, void* ws, std::size_t ws_bytes,
                                   gpuprims::Top2* twin_out = nullptr) {
  const t::Top2Run twin = t::run_reduce_top2(ops.c.download(), l.m, l.n, l.ldc, l.off_c);
  if (twin_out != nullptr) *twin_out = twin.top2;
  d::SgemmArgs fused{l.m,          l.n,   l.k,  alpha,        ops.a.data(), l.lda,
                     ops.b.data(), l.ldb, 0.0f, ops.c.data(), l.ldc,        gpuprims::gemm::Algorithm::tuned,
                     d_top2,       true};
  struct Form {
    const char* what;
    bool wide, store;
  };
  for (const Form f :
       {Form{"packed, C stored", false, true}, Form{"wide index", true, true}, Form{"C not stored", false, false}}) {
    CUDA_OK(cudaMemset(d_top2, 0x7F, sizeof(gpuprims::Top2)));
    CUDA_OK(cudaMemset(ws, 0, ws_bytes));
    fused.force_wide_index = f.wide;
    fused.C = f.store ? ops.c.data() : nullptr;
    ASSERT_STATUS(Status::success, d::sgemm_run(fused, &plan, ws, ws_bytes, nullptr));
    gpuprims::Top2 got{};
    CUDA_OK(cudaMemcpy(&got, d_top2, sizeof got, cudaMemcpyDeviceToHost));
    EXPECT_EQ(t::top2_diff(got, twin.top2), "") << f.what;
  }
}

// The plan's plain call with alpha over a poisoned C, then its three fused forms against the twin
// (whose pair goes to twin_out when given).
void check_plain_then_fused_forms(const d::GemmPlan& plan, const t::GemmLayout& l, const t::GemmInputs& in, float alpha,
                                  gpuprims::Top2* twin_out = nullptr) {
  const d::DeviceShape* device = nullptr;
  ASSERT_STATUS(Status::success, d::current_device_shape(&device));
  const std::size_t ws_bytes = d::call_workspace_bytes(plan, l.m, l.n, true, device->sm_count);
  const DeviceBuffer<unsigned char> ws(ws_bytes);
  const DeviceBuffer<gpuprims::Top2> top2_buffer(1);
  ASSERT_TRUE(ws && top2_buffer);
  t::GuardedOperands ops(l, in);
  ASSERT_TRUE(ops.ok());
  ops.c.poison();
  const d::SgemmArgs plain{l.m,          l.n,   l.k,  alpha,        ops.a.data(), l.lda,
                           ops.b.data(), l.ldb, 0.0f, ops.c.data(), l.ldc,        gpuprims::gemm::Algorithm::tuned,
                           nullptr,      false};
  ASSERT_STATUS(Status::success, d::sgemm_run(plain, &plan, ws.get(), ws_bytes, nullptr));
  expect_fused_forms_match_twin(plan, l, ops, alpha, top2_buffer.get(), ws.get(), ws_bytes, twin_out);
  EXPECT_EQ(ops.guard_damage(), "");
}

// check_plain_then_fused_forms over every kind of special_inputs, with alpha < 0.
void check_fused_over_special_data(const d::GemmPlan& plan, const t::GemmLayout& l, std::uint64_t seed) {
  for (const t::SpecialData data : t::kSpecialData) {
    SCOPED_TRACE(l.describe() + " data " + std::to_string(static_cast<int>(data)));
    check_plain_then_fused_forms(plan, l, t::special_inputs(l, data, seed), -0.75f);
  }
}

// check_plain_then_fused_forms (alpha 0.5) over random inputs in which rows 5, m / 2 and m - 1 of A
// are equal (4 throughout), so C's rows there are equal: the twin's pair must be the first two copies
// of that row's least entry, in blocks far apart (for the tests of grids of many waves).
void check_fused_forms_over_three_equal_rows(const d::GemmPlan& plan, const t::GemmLayout& l, std::uint64_t seed) {
  auto rng = t::make_rng(seed);
  t::GemmInputs in = t::make_inputs(l, rng, gpuprims::testkit::Dist::uniform_pm1);
  for (const std::int64_t r : {std::int64_t{5}, l.m / 2, l.m - 1})
    for (std::int64_t p = 0; p < l.k; ++p) in.A[static_cast<std::size_t>(r * l.lda + p)] = 4.0f;
  gpuprims::Top2 twin{};
  check_plain_then_fused_forms(plan, l, in, 0.5f, &twin);
  EXPECT_EQ(twin.first.row, 5);
  EXPECT_EQ(twin.second.row, l.m / 2);
  EXPECT_EQ(twin.first.col, twin.second.col);
}

// One forced plan on one layout: plain, beta = 0 over NaN, and the fused top-2 forms.
void check_plan(const d::GemmPlan& plan, const t::GemmLayout& l, const t::GemmInputs& in,
                const t::ProductReference& ref) {
  t::GuardedOperands ops(l, in);
  ASSERT_TRUE(ops.ok());
  const d::DeviceShape* device = nullptr;
  ASSERT_STATUS(Status::success, d::current_device_shape(&device));
  const std::size_t ws_bytes = d::call_workspace_bytes(plan, l.m, l.n, true, device->sm_count);
  const DeviceBuffer<unsigned char> ws_buffer(ws_bytes + 16);
  ASSERT_TRUE(ws_buffer);
  void* const ws = ws_buffer.get();

  for (const float beta : {-0.5f, 0.0f}) {
    const bool poison = beta == 0.0f;
    if (poison) ops.c.poison();
    else ops.c.upload(in.C);
    const float alpha = 0.75f;
    const d::SgemmArgs args{l.m,          l.n,   l.k,  alpha,        ops.a.data(), l.lda,
                            ops.b.data(), l.ldb, beta, ops.c.data(), l.ldc,        gpuprims::gemm::Algorithm::tuned,
                            nullptr,      false};
    ASSERT_STATUS(Status::success, d::sgemm_run(args, &plan, ws, ws_bytes, nullptr));
    CUDA_OK(cudaDeviceSynchronize());
    EXPECT_EQ(t::check_gemm(l, ref, alpha, beta, in.C, ops.c.download(), poison), "") << "beta " << beta;
    EXPECT_EQ(ops.guard_damage(), "");
  }

  // Fused top-2 with this plan (C holds the beta = 0 product from above) in its three forms.
  const DeviceBuffer<gpuprims::Top2> top2_buffer(1);
  ASSERT_TRUE(top2_buffer);
  gpuprims::Top2* const d_top2 = top2_buffer.get();
  expect_fused_forms_match_twin(plan, l, ops, 0.75f, d_top2, ws, ws_bytes);
  d::SgemmArgs fused{l.m,          l.n,   l.k,  0.75f,        ops.a.data(), l.lda,
                     ops.b.data(), l.ldb, 0.0f, ops.c.data(), l.ldc,        gpuprims::gemm::Algorithm::tuned,
                     d_top2,       true};
  // And with beta != 0 over the inputs' C (the fused kernels that read C ahead, packed; in turn, wide):
  // the stored C within the reference's bounds, the top-2 its unfused twin's over that C.
  fused.C = ops.c.data();
  fused.beta = -0.5f;
  for (const bool wide : {false, true}) {
    ops.c.upload(in.C);
    CUDA_OK(cudaMemset(d_top2, 0x7F, sizeof(gpuprims::Top2)));
    CUDA_OK(cudaMemset(ws, 0, ws_bytes));
    fused.force_wide_index = wide;
    ASSERT_STATUS(Status::success, d::sgemm_run(fused, &plan, ws, ws_bytes, nullptr));
    CUDA_OK(cudaDeviceSynchronize());
    const std::vector<float> stored = ops.c.download();
    EXPECT_EQ(t::check_gemm(l, ref, 0.75f, -0.5f, in.C, stored, false), "") << "fused, beta -0.5, wide " << wide;
    gpuprims::Top2 got{};
    CUDA_OK(cudaMemcpy(&got, d_top2, sizeof got, cudaMemcpyDeviceToHost));
    EXPECT_EQ(t::top2_diff(got, t::run_reduce_top2(stored, l.m, l.n, l.ldc, l.off_c).top2), "")
        << "fused, beta -0.5, wide " << wide;
  }
  EXPECT_EQ(ops.c.guard_damage(), "");
}

// Ten runs of a forced plan (alpha 1, beta 0) over a C poisoned before each: the first checked against
// the reference, the others the same bits as the first.
void expect_same_bits_over_ten_runs(const d::SgemmArgs& args, const d::GemmPlan& plan, void* ws, std::size_t ws_bytes,
                                    const t::GemmLayout& l, const t::GemmInputs& in, t::GuardedArray& c) {
  std::vector<float> first;
  for (int run = 0; run < 10; ++run) {
    c.poison();
    ASSERT_STATUS(Status::success, d::sgemm_run(args, &plan, ws, ws_bytes, nullptr));
    CUDA_OK(cudaDeviceSynchronize());
    const std::vector<float> got = c.download();
    if (run == 0) {
      const t::ProductReference ref = t::reference_product(l.m, l.n, l.k, in.A.data(), l.lda, in.B.data(), l.ldb);
      EXPECT_EQ(t::check_gemm(l, ref, 1.0f, 0.0f, in.C, got, true), "");
      first = got;
    } else {
      ASSERT_EQ(std::memcmp(got.data(), first.data(), got.size() * sizeof(float)), 0) << "run " << run;
    }
  }
}

class TunedPaths : public ::testing::TestWithParam<int> {};

TEST_P(TunedPaths, EveryLayoutWithOneAndSeveralKSplits) {
  GPUPRIMS_REQUIRE_GPU();
  const d::RungEntry& path = *d::tuned_paths()[GetParam()];
  SCOPED_TRACE(path.name);
  for (const t::GemmLayout& l : layouts_for(path)) {
    auto rng = t::make_rng(900 + l.m * 7 + l.n);
    const t::GemmInputs in = t::make_inputs(l, rng);
    const t::ProductReference ref = t::reference_product(l.m, l.n, l.k, in.A.data(), l.lda, in.B.data(), l.ldb);
    // 3 splits of 300 or 333 do not divide k; 16 leaves a short last split; 1000 asks for more than
    // k allows and is trimmed to ranges of the path's k alignment.
    int last = 0;
    for (const int splits : {1, 3, 16, 1000}) {
      const d::GemmPlan plan = d::make_plan(path, l.k, splits);
      if (plan.splits == last) continue;
      last = plan.splits;
      ASSERT_TRUE(d::plan_fits(plan, l.m, l.n, l.k));
      SCOPED_TRACE(l.describe() + " splits " + std::to_string(plan.splits) + " of " + std::to_string(plan.k_split));
      check_plan(plan, l, in, ref);
    }
  }
}

// The same inputs through every path, unsplit and split in 5 (then the split-K reduction ranks the
// sums), over edge tiles and an unaligned C; a tile path also over a grid in which no block meets an
// edge (2 x 2 tiles, 5 slabs: unsplit, the kernels compiled for such grids, GridForm, with C stored
// and not).
TEST_P(TunedPaths, FusedTop2OverTiesAndSpecialValuesWithAndWithoutKSplits) {
  GPUPRIMS_REQUIRE_GPU();
  const d::RungEntry& path = *d::tuned_paths()[GetParam()];
  SCOPED_TRACE(path.name);
  std::int64_t m = path.bm + 5, n = path.bn + 3, k = 300;  // edge tiles both ways
  switch (path.kind) {
    case d::PathKind::few_rows: m = path.bm - 1; break;  // at most bm rows
    case d::PathKind::few_cols: n = path.bn - 1; break;  // at most bn columns
    case d::PathKind::outer_product: k = 3; break;       // at most k_step
    case d::PathKind::tile: break;
  }
  std::vector<t::GemmLayout> layouts = {t::make_layout(m, n, k, 1, 2, 3, 3, 2, 1)};
  if (path.kind == d::PathKind::tile) layouts.push_back(t::make_layout(2 * path.bm, 2 * path.bn, 5 * path.k_step));
  for (const t::GemmLayout& l : layouts) {
    int last = 0;
    for (const int splits : {1, 5}) {
      const d::GemmPlan plan = d::make_plan(path, l.k, splits);
      if (plan.splits == last) continue;
      last = plan.splits;
      ASSERT_TRUE(d::plan_fits(plan, l.m, l.n, l.k));
      SCOPED_TRACE("splits " + std::to_string(plan.splits));
      check_fused_over_special_data(plan, l, 5600 + static_cast<std::uint64_t>(GetParam()));
    }
  }
}

// The cluster split-K form of each path that has one, with 2, 3 and the most splits a cluster holds
// (3 does not divide the layouts' k). On a device without clusters a forced cluster plan is refused
// with unsupported, before any launch.
TEST_P(TunedPaths, ClusterSplitsOnEveryLayout) {
  GPUPRIMS_REQUIRE_GPU();
  const d::RungEntry& path = *d::tuned_paths()[GetParam()];
  if (path.run_cluster == nullptr) {
    EXPECT_EQ(d::make_cluster_plan(path, 4096, 4).cluster, false) << "no cluster form, no cluster plan";
    return;
  }
  SCOPED_TRACE(path.name);
  const d::DeviceShape* device = nullptr;
  ASSERT_STATUS(Status::success, d::current_device_shape(&device));
  for (const t::GemmLayout& l : layouts_for(path)) {
    auto rng = t::make_rng(1900 + l.m * 7 + l.n);
    const t::GemmInputs in = t::make_inputs(l, rng);
    const t::ProductReference ref = t::reference_product(l.m, l.n, l.k, in.A.data(), l.lda, in.B.data(), l.ldb);
    int last = 1;
    for (const int splits : {2, 3, d::kMaxClusterSplits}) {
      const d::GemmPlan plan = d::make_cluster_plan(path, l.k, splits);
      if (plan.splits == last) continue;
      last = plan.splits;
      ASSERT_TRUE(plan.cluster);
      ASSERT_TRUE(d::plan_fits(plan, l.m, l.n, l.k));
      SCOPED_TRACE(l.describe() + " " + d::plan_label(plan) + " of " + std::to_string(plan.k_split));
      if (!device->clusters) {
        t::GuardedArray a(in.A.size(), 0), b(in.B.size(), 0), c(in.C.size(), 0);
        ASSERT_TRUE(a.ok() && b.ok() && c.ok());
        const d::SgemmArgs args{l.m,      l.n,   l.k,  1.0f,     a.data(), l.lda,
                                b.data(), l.ldb, 0.0f, c.data(), l.ldc,    gpuprims::gemm::Algorithm::tuned,
                                nullptr,  false};
        EXPECT_STATUS(Status::unsupported, d::sgemm_run(args, &plan, nullptr, 0, nullptr));
        continue;
      }
      check_plan(plan, l, in, ref);
    }
  }
}

// The stream-K form of each path that has one, over grids of 1, 2, 5 and 7 blocks and one wave of the
// device (2, 7 and a wave under compute-sanitizer): whole tiles first, one per block, then the rest cut into pieces
// (many per tile with a small grid and a short k, one slab each where k has one slab), on the layouts above and on
// outputs of 18 and 28 tiles (a k that ends inside a slab, padding and offsets; on 5 blocks, and the 18 tiles on 7,
// only the partial last wave is shared). A path without the form makes no such plan.
TEST_P(TunedPaths, StreamKOnEveryLayout) {
  GPUPRIMS_REQUIRE_GPU();
  const d::RungEntry& path = *d::tuned_paths()[GetParam()];
  if (path.run_stream_k == nullptr) {
    EXPECT_EQ(d::make_stream_k_plan(path, 4096, 132).stream_k_blocks, 0) << "no stream-K form, no stream-K plan";
    return;
  }
  SCOPED_TRACE(path.name);
  const d::DeviceShape* device = nullptr;
  ASSERT_STATUS(Status::success, d::current_device_shape(&device));
  const int wave = device->sm_count * std::max(1, device->occupancy[GetParam()]);
  std::vector<t::GemmLayout> layouts = layouts_for(path);
  const std::int64_t bm = path.bm, bn = path.bn;
  layouts.push_back(t::make_layout(5 * bm + 3, 3 * bn - 7, 1001, 1, 2, 3, 3, 2, 1));
  layouts.push_back(t::make_layout(7 * bm, 4 * bn, 64, 4, 4, 4));
  for (const t::GemmLayout& l : layouts) {
    auto rng = t::make_rng(2900 + l.m * 7 + l.n);
    const t::GemmInputs in = t::make_inputs(l, rng);
    const t::ProductReference ref = t::reference_product(l.m, l.n, l.k, in.A.data(), l.lda, in.B.data(), l.ldb);
    std::vector<int> grids = {1, 2, 5, 7, wave};
    if (t::under_sanitizer()) grids = {2, 7, wave};  // the sanitizers run each launch far slower
    for (const int blocks : grids) {
      const d::GemmPlan plan = d::make_stream_k_plan(path, l.k, blocks);
      ASSERT_EQ(plan.stream_k_blocks, blocks);
      ASSERT_TRUE(d::plan_fits(plan, l.m, l.n, l.k));
      SCOPED_TRACE(l.describe() + " " + d::plan_label(plan));
      check_plan(plan, l, in, ref);
    }
  }
}

// A stream-K plan sums a tile's pieces in k order, whichever block finishes it: the same bits over ten
// runs where most tiles are cut in two or three (15 tiles of 128 x 128: 7 whole ones, then 8 shared by
// 7 blocks), C poisoned before each run.
TEST(TunedPathsStreamK, SameBitsOverTenRuns) {
  GPUPRIMS_REQUIRE_GPU();
  const d::RungEntry& path = d::kTunedConfigs[0];  // 128 x 128
  ASSERT_NE(path.run_stream_k, nullptr);
  const t::GemmLayout l = t::make_layout(300, 520, 3001, 1, 2, 3);
  auto rng = t::make_rng(4343);
  const t::GemmInputs in = t::make_inputs(l, rng);
  t::GuardedOperands ops(l, in);
  ASSERT_TRUE(ops.ok());
  const d::GemmPlan plan = d::make_stream_k_plan(path, l.k, 7);
  const d::StreamKSchedule s = d::stream_k_schedule_for(plan, l.m, l.n, l.k);
  ASSERT_EQ(s.dp_tiles, 7);
  ASSERT_EQ(s.shared_tiles(), 8);
  const d::SgemmArgs args{l.m,          l.n,   l.k,  1.0f,         ops.a.data(), l.lda,
                          ops.b.data(), l.ldb, 0.0f, ops.c.data(), l.ldc,        gpuprims::gemm::Algorithm::tuned,
                          nullptr,      false};
  const d::DeviceShape* device = nullptr;
  ASSERT_STATUS(Status::success, d::current_device_shape(&device));
  const std::size_t ws_bytes = d::call_workspace_bytes(plan, l.m, l.n, false, device->sm_count);
  const DeviceBuffer<unsigned char> ws(ws_bytes);
  ASSERT_TRUE(ws);
  expect_same_bits_over_ten_runs(args, plan, ws.get(), ws_bytes, l, in, ops.c);
  EXPECT_EQ(ops.guard_damage(), "");
}

// A stream-K plan's workspace is checked before any launch: one byte short is refused.
TEST(TunedPathsStreamK, ShortWorkspaceIsRefused) {
  GPUPRIMS_REQUIRE_GPU();
  const d::GemmPlan plan = d::make_stream_k_plan(d::kTunedConfigs[0], 64, 7);
  const t::GemmLayout l = t::make_layout(300, 520, 64);
  t::GuardedArray a(static_cast<std::size_t>(l.m * l.lda), 0), b(static_cast<std::size_t>(l.k * l.ldb), 0),
      c(static_cast<std::size_t>(l.m * l.ldc), 0);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  const d::DeviceShape* device = nullptr;
  ASSERT_STATUS(Status::success, d::current_device_shape(&device));
  const std::size_t ws_bytes = d::call_workspace_bytes(plan, l.m, l.n, false, device->sm_count);
  ASSERT_GT(ws_bytes, 0u);
  const DeviceBuffer<unsigned char> ws(ws_bytes);
  ASSERT_TRUE(ws);
  const d::SgemmArgs args{l.m,      l.n,   l.k,  1.0f,     a.data(), l.lda,
                          b.data(), l.ldb, 0.0f, c.data(), l.ldc,    gpuprims::gemm::Algorithm::tuned,
                          nullptr,  false};
  EXPECT_STATUS(Status::invalid_argument, d::sgemm_run(args, &plan, ws.get(), ws_bytes - 1, nullptr));
}

// A cluster plan's sums are in split order: the same bits over ten runs, on a small output with a
// long k (the shapes it is for), C poisoned before each run. (Below sm_90: refused, as above.)
TEST(TunedPathsCluster, SameBitsOverTenRuns) {
  GPUPRIMS_REQUIRE_GPU();
  const d::DeviceShape* device = nullptr;
  ASSERT_STATUS(Status::success, d::current_device_shape(&device));
  const d::RungEntry& path = d::kTunedConfigs[d::kNumTunedConfigs - 2];  // 64 x 64
  ASSERT_NE(path.run_cluster, nullptr);
  const t::GemmLayout l = t::make_layout(83, 31, 3001, 1, 2, 3);
  auto rng = t::make_rng(4242);
  const t::GemmInputs in = t::make_inputs(l, rng);
  t::GuardedOperands ops(l, in);
  ASSERT_TRUE(ops.ok());
  const d::GemmPlan plan = d::make_cluster_plan(path, l.k, d::kMaxClusterSplits);
  ASSERT_EQ(plan.splits, d::kMaxClusterSplits);
  const d::SgemmArgs args{l.m,          l.n,   l.k,  1.0f,         ops.a.data(), l.lda,
                          ops.b.data(), l.ldb, 0.0f, ops.c.data(), l.ldc,        gpuprims::gemm::Algorithm::tuned,
                          nullptr,      false};
  if (!device->clusters) {
    EXPECT_STATUS(Status::unsupported, d::sgemm_run(args, &plan, nullptr, 0, nullptr));
    return;
  }
  expect_same_bits_over_ten_runs(args, plan, nullptr, 0, l, in, ops.c);
  EXPECT_EQ(ops.guard_damage(), "");
}

// The outer-product path (k <= 4) forced on its layouts (layouts_for): plain, beta = 0 over NaN and
// the fused top-2 forms, as check_plan does for the tuned paths. Then its bits over ten runs.
TEST(OuterProductPath, EveryLayoutAndEveryK) {
  GPUPRIMS_REQUIRE_GPU();
  for (const t::GemmLayout& l : layouts_for(d::kOuterProductPath)) {
    auto rng = t::make_rng(5100 + l.m * 7 + l.n);
    const t::GemmInputs in = t::make_inputs(l, rng);
    const t::ProductReference ref = t::reference_product(l.m, l.n, l.k, in.A.data(), l.lda, in.B.data(), l.ldb);
    const d::GemmPlan plan = d::make_plan(d::kOuterProductPath, l.k, 4);
    ASSERT_EQ(plan.splits, 1);
    ASSERT_TRUE(d::plan_fits(plan, l.m, l.n, l.k));
    SCOPED_TRACE(l.describe());
    check_plan(plan, l, in, ref);
  }
  const std::int64_t rows = d::OuterProductShape::kRows, window = d::OuterProductShape::kWindow;
  const t::GemmLayout l = t::make_layout(3 * rows + 5, 2 * window + 77, 3, 0, 0, 0, 0, 0, 1);
  auto rng = t::make_rng(5200);
  const t::GemmInputs in = t::make_inputs(l, rng);
  t::GuardedOperands ops(l, in);
  ASSERT_TRUE(ops.ok());
  const d::SgemmArgs args{l.m,          l.n,   l.k,  1.0f,         ops.a.data(), l.lda,
                          ops.b.data(), l.ldb, 0.0f, ops.c.data(), l.ldc,        gpuprims::gemm::Algorithm::tuned,
                          nullptr,      false};
  expect_same_bits_over_ten_runs(args, d::make_plan(d::kOuterProductPath, l.k, 1), nullptr, 0, l, in, ops.c);
  EXPECT_EQ(ops.guard_damage(), "");
}

// The fused top-2 on the outer-product path, whose threads rank finite values as floats in the order
// they visit them and +inf and NaN apart (top2_stream_visitor.cuh), over those inputs: blocks down
// (of kTop2Rows rows) and across, edge and interior windows, an unaligned C, every k.
TEST(OuterProductPath, FusedTop2OverTiesAndSpecialValues) {
  GPUPRIMS_REQUIRE_GPU();
  const std::int64_t rows = d::OuterProductShape::kTop2Rows, window = d::OuterProductShape::kWindow;
  for (std::int64_t k = 1; k <= d::OuterProductShape::kMaxK; ++k) {
    const t::GemmLayout l = t::make_layout(2 * rows + 3, 2 * window + 77, k, 1, 2, 3, 3, 2, 1);
    const d::GemmPlan plan = d::make_plan(d::kOuterProductPath, l.k, 1);
    ASSERT_TRUE(d::plan_fits(plan, l.m, l.n, l.k));
    check_fused_over_special_data(plan, l, 5400 + static_cast<std::uint64_t>(k));
  }
}

// The same on a grid of three waves or more, whose blocks merge and push at different times: three
// rows of equal, larger-magnitude A entries (one in the first wave, one midway, one in the last block
// row) make the minimum appear three times over, so the result's second entry ties the first and
// must be the midway copy, not the last.
TEST(OuterProductPath, FusedTop2OnAGridOfManyWaves) {
  GPUPRIMS_REQUIRE_GPU();
  const d::DeviceShape* device = nullptr;
  ASSERT_STATUS(Status::success, d::current_device_shape(&device));
  int blocks_per_sm = 0;
  ASSERT_STATUS(Status::success, d::kOuterProductPath.occupancy(&blocks_per_sm));
  const std::int64_t rows = d::OuterProductShape::kTop2Rows, window = d::OuterProductShape::kWindow;
  const std::int64_t waves = 3, windows_per_row = 3;
  const std::int64_t row_blocks = waves * blocks_per_sm * device->sm_count / windows_per_row + 1;
  const t::GemmLayout l = t::make_layout(row_blocks * rows - 5, windows_per_row * window - 100, 2, 0, 0, 1);
  SCOPED_TRACE(l.describe());
  const d::GemmPlan plan = d::make_plan(d::kOuterProductPath, l.k, 1);
  ASSERT_TRUE(d::plan_fits(plan, l.m, l.n, l.k));
  check_fused_forms_over_three_equal_rows(plan, l, 5500);
}

// The streaming top-2 (top2_stream_visitor.cuh) with its least values late in their blocks, after 29
// rows of random values (where a filter by a bound would skip most rows): k = 3, A's second and third
// columns and B's second and third rows zero but for the plants, so C is random in [-1, 1] but for a
// least value of about -4 at (29, c) and a copy of it, bit for bit (row 29 of A copied), at
// (kTop2Rows + 30, c), one lane of one warp each; and rows of NaN (31, the first block's last) and of
// NaN with one +inf (kTop2Rows + 31), which must not displace them. The pair is those two copies, in
// every fused form, C stored or not.
TEST(OuterProductPath, FusedTop2RanksLeastValuesLateInABlock) {
  GPUPRIMS_REQUIRE_GPU();
  const std::int64_t rows = d::OuterProductShape::kTop2Rows, window = d::OuterProductShape::kWindow;
  const t::GemmLayout l = t::make_layout(3 * rows + 7, 2 * window + 77, 3, 1, 2, 3, 3, 2, 1);
  SCOPED_TRACE(l.describe());
  const d::GemmPlan plan = d::make_plan(d::kOuterProductPath, l.k, 1);
  ASSERT_TRUE(d::plan_fits(plan, l.m, l.n, l.k));
  auto rng = t::make_rng(5700);
  t::GemmInputs in = t::make_inputs(l, rng, gpuprims::testkit::Dist::uniform_pm1);
  const auto a = [&](std::int64_t r, std::int64_t p) -> float& {
    return in.A[static_cast<std::size_t>(r * l.lda + p)];
  };
  const auto b = [&](std::int64_t p, std::int64_t c) -> float& {
    return in.B[static_cast<std::size_t>(p * l.ldb + c)];
  };
  for (std::int64_t r = 0; r < l.m; ++r) a(r, 1) = a(r, 2) = 0.0f;
  for (std::int64_t c = 0; c < l.n; ++c) b(1, c) = b(2, c) = 0.0f;
  const std::int64_t first = 29, copy = rows + 30, least_col = window + 300, inf_col = 700;
  a(first, 1) = 8.0f;
  b(1, least_col) = -1.0f;
  for (std::int64_t p = 0; p < l.k; ++p) a(copy, p) = a(first, p);
  a(31, 2) = std::numeric_limits<float>::quiet_NaN();
  a(rows + 31, 2) = std::numeric_limits<float>::infinity();
  b(2, inf_col) = 1.0f;  // +inf there; inf * 0 = NaN in the rest of the row
  gpuprims::Top2 twin{};
  check_plain_then_fused_forms(plan, l, in, 0.5f, &twin);
  EXPECT_EQ(twin.first.row, first);
  EXPECT_EQ(twin.first.col, least_col);
  EXPECT_EQ(twin.second.row, copy);
  EXPECT_EQ(twin.second.col, least_col);
}

// The streaming top-2 over rows each below the last (A's row i is m - i, B's columns 1 to 1 + 1e-7 n,
// k = 1): every row holds every lane's new least values, the case that defeats a filter by a bound
// (session 64, runs JZ and KA: results/nvidia-h200/README.md). The pair is the last row's first two
// columns, in every fused form.
TEST(OuterProductPath, FusedTop2OverRowsEachBelowTheLast) {
  GPUPRIMS_REQUIRE_GPU();
  const std::int64_t rows = d::OuterProductShape::kTop2Rows, window = d::OuterProductShape::kWindow;
  const t::GemmLayout l = t::make_layout(3 * rows + 7, 2 * window + 77, 1, 0, 0, 3, 0, 0, 1);
  SCOPED_TRACE(l.describe());
  const d::GemmPlan plan = d::make_plan(d::kOuterProductPath, l.k, 1);
  ASSERT_TRUE(d::plan_fits(plan, l.m, l.n, l.k));
  auto rng = t::make_rng(5800);
  t::GemmInputs in = t::make_inputs(l, rng, gpuprims::testkit::Dist::uniform_pm1);
  for (std::int64_t r = 0; r < l.m; ++r) in.A[static_cast<std::size_t>(r * l.lda)] = static_cast<float>(l.m - r);
  for (std::int64_t c = 0; c < l.n; ++c) in.B[static_cast<std::size_t>(c)] = 1.0f + 1e-7f * static_cast<float>(c);
  gpuprims::Top2 twin{};
  check_plain_then_fused_forms(plan, l, in, 0.5f, &twin);
  EXPECT_EQ(twin.first.row, l.m - 1);
  EXPECT_EQ(twin.first.col, 0);
  EXPECT_EQ(twin.second.row, l.m - 1);
  EXPECT_EQ(twin.second.col, 1);
}

// A tile path's fused top-2 on a grid of several waves, where neither merge's last block ends it: the
// packed words go to the end kernel, and the 64-bit-index form's blocks write their partials with no
// ticket, for one block after the grid to merge (Top2LastBlockMerge::end), while each block's pair
// bounds the blocks after it. Rows 5, m / 2 and m - 1 (the first tiles, the middle, the last wave)
// hold the same values, so the pair is one column's first two copies, in blocks far apart.
TEST(TunedPathsFusedTop2, TileGridOfManyWaves) {
  GPUPRIMS_REQUIRE_GPU();
  const d::DeviceShape* device = nullptr;
  ASSERT_STATUS(Status::success, d::current_device_shape(&device));
  const d::RungEntry* path = nullptr;  // the tile path with the smallest tiles: the most blocks
  for (const d::RungEntry* p : d::tuned_paths())
    if (p->kind == d::PathKind::tile && (path == nullptr || p->bm * p->bn < path->bm * path->bn)) path = p;
  ASSERT_NE(path, nullptr);
  const int per_sm = std::max(d::resident_blocks_per_sm(*device, path), 1);
  const std::int64_t block_cols = 40, waves = 3;
  const std::int64_t block_rows = waves * per_sm * device->sm_count / block_cols + 1;
  const t::GemmLayout l = t::make_layout(block_rows * path->bm - 3, block_cols * path->bn - 9, 8, 0, 0, 1);
  SCOPED_TRACE(std::string(path->name) + " " + l.describe());
  const d::GemmPlan plan = d::make_plan(*path, l.k, 1);
  ASSERT_TRUE(d::plan_fits(plan, l.m, l.n, l.k));
  ASSERT_FALSE(d::epilogue_in_one_wave(plan, l.m, l.n, device->sm_count, per_sm));
  check_fused_forms_over_three_equal_rows(plan, l, 5600);
}

// The tuned fused call on a single row and on a single column with a long k: a split plan whose
// reduction has so few blocks, and operands so large, that on a device with dependent launch its
// warps push and a kernel launched as its dependent writes the pair (epilogue_ends_in_dependent,
// plan.hpp; operands_outlast_a_launch, gemm_internal.hpp). Three equal entries far apart (columns 5,
// n / 2 and n - 1 of the row; rows 5, m / 2 and m - 1 of the column) hold the least value, so the
// pair is the first two of them, from different reduction blocks.
TEST(TunedPathsFusedTop2, SmallSplitReductionEndsInItsDependentKernel) {
  GPUPRIMS_REQUIRE_GPU();
  const d::DeviceShape* device = nullptr;
  ASSERT_STATUS(Status::success, d::current_device_shape(&device));
  for (const bool one_row : {true, false}) {
    const std::int64_t side = 4096, k = 4096;
    const t::GemmLayout l = one_row ? t::make_layout(1, side, k) : t::make_layout(side, 1, k);
    SCOPED_TRACE(l.describe());
    // C takes 16-byte accesses on the row (ldc 4096), not on the column (ldc 1).
    const d::GemmPlan plan =
        d::plan_for(gpuprims::gemm::Algorithm::tuned, l.m, l.n, l.k, true, *device, one_row, d::PickFor::top2);
    ASSERT_GT(plan.splits, 1) << d::plan_label(plan);
    // The call's own decision (prepare_sgemm reads no memory: any device pointers will do).
    const DeviceBuffer<float> any(4);
    const DeviceBuffer<gpuprims::Top2> any_top2(1);
    ASSERT_TRUE(any && any_top2);
    d::SgemmArgs call{};
    call.m = l.m;
    call.n = l.n;
    call.k = l.k;
    call.lda = l.lda;
    call.ldb = l.ldb;
    call.ldc = l.ldc;
    call.alpha = 0.5f;
    call.A = call.B = call.C = any.get();
    call.algo = gpuprims::gemm::Algorithm::tuned;
    call.top2 = any_top2.get();
    call.want_top2 = true;
    d::PreparedCall prepared;
    ASSERT_STATUS(Status::success, d::prepare_sgemm(call, nullptr, &prepared));
    EXPECT_EQ(prepared.epilogue_end_dependent, device->dependent_launch);
    auto rng = t::make_rng(one_row ? 6201 : 6202);
    t::GemmInputs in = t::make_inputs(l, rng, gpuprims::testkit::Dist::uniform_pm1);
    const std::int64_t planted[3] = {5, side / 2, side - 1};
    for (const std::int64_t e : planted)
      for (std::int64_t p = 0; p < k; ++p) {
        // The entry becomes -4 * sum |A[0][p]| (a row) or -4 * sum |B[p][0]| (a column): far below the rest.
        if (one_row)
          in.B[static_cast<std::size_t>(p * l.ldb + e)] = in.A[static_cast<std::size_t>(p)] < 0 ? 4.0f : -4.0f;
        else
          in.A[static_cast<std::size_t>(e * l.lda + p)] = in.B[static_cast<std::size_t>(p * l.ldb)] < 0 ? 4.0f : -4.0f;
      }
    gpuprims::Top2 twin{};
    check_plain_then_fused_forms(plan, l, in, 0.5f, &twin);
    EXPECT_EQ(one_row ? twin.first.col : twin.first.row, planted[0]);
    EXPECT_EQ(one_row ? twin.second.col : twin.second.row, planted[1]);
  }
}

// The tuned call takes the outer-product path by itself where its rule holds (k = 3: ldc odd and
// 2049^2 results; 16-byte C, 2900^2 results), and not for 2049^2 results once C takes 16-byte
// accesses; the result is the product either way.
TEST(OuterProductPath, TakenByTheTunedCallWhereItsRuleHolds) {
  GPUPRIMS_REQUIRE_GPU();
  for (const auto& [side, pad_c] :
       {std::pair{2049, 0}, std::pair{2049, 3}, std::pair{2900, 0}}) {  // ldc 2049, 2052, 2900
    const t::GemmLayout l = t::make_layout(side, side, 3, 0, 0, pad_c);
    SCOPED_TRACE(l.describe());
    auto rng = t::make_rng(5300 + side + pad_c);
    const t::GemmInputs in = t::make_inputs(l, rng);
    const t::ProductReference ref = t::reference_product(l.m, l.n, l.k, in.A.data(), l.lda, in.B.data(), l.ldb);
    t::GuardedOperands ops(l, in);
    ASSERT_TRUE(ops.ok());
    ops.c.upload(in.C);
    const d::SgemmArgs args{l.m,          l.n,   l.k,  0.5f,         ops.a.data(), l.lda,
                            ops.b.data(), l.ldb, 2.0f, ops.c.data(), l.ldc,        gpuprims::gemm::Algorithm::tuned,
                            nullptr,      false};
    d::PreparedCall prepared;
    ASSERT_STATUS(Status::success, d::prepare_sgemm(args, nullptr, &prepared));
    EXPECT_EQ(prepared.plan.path == &d::kOuterProductPath, pad_c == 0) << d::plan_label(prepared.plan);
    ASSERT_STATUS(Status::success, gpuprims::gemm::sgemm(l.m, l.n, l.k, 0.5f, ops.a.data(), l.lda, ops.b.data(), l.ldb,
                                                         2.0f, ops.c.data(), l.ldc));
    CUDA_OK(cudaDeviceSynchronize());
    EXPECT_EQ(t::check_gemm(l, ref, 0.5f, 2.0f, in.C, ops.c.download(), false), "");
    EXPECT_EQ(ops.guard_damage(), "");
  }
}

// The tuned fused top-2 takes the outer-product path with 16-byte C once the output is wide and large,
// and never without C (outer_product_serves: it lost there to the tiles' whole-grid kernels, run IY).
// Only the plan is checked (prepare_sgemm launches nothing), so the operands are device buffers of
// the call's sizes and alignment with no data in them; the path's results are checked above.
TEST(OuterProductPath, TakenByTheFusedCallWhereItsRuleHolds) {
  GPUPRIMS_REQUIRE_GPU();
  const DeviceBuffer<gpuprims::Top2> top2_buffer(1);
  ASSERT_TRUE(top2_buffer);
  const std::int64_t m = 2100, n = 4100;  // ldc = n: a 16-byte C (cudaMalloc's alignment, n % 4 == 0)
  for (const std::int64_t k : {1, 2}) {
    const DeviceBuffer<float> a(m * k), b(k * n), c(m * n);
    ASSERT_TRUE(a && b && c);
    for (const bool store_c : {true, false}) {
      SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k) +
                   (store_c ? " C stored" : " C not stored"));
      const d::SgemmArgs args{m,
                              n,
                              k,
                              1.0f,
                              a.get(),
                              k,
                              b.get(),
                              n,
                              0.0f,
                              store_c ? c.get() : nullptr,
                              n,
                              gpuprims::gemm::Algorithm::tuned,
                              top2_buffer.get(),
                              true};
      d::PreparedCall prepared;
      ASSERT_STATUS(Status::success, d::prepare_sgemm(args, nullptr, &prepared));
      EXPECT_EQ(prepared.plan.path == &d::kOuterProductPath, store_c) << d::plan_label(prepared.plan);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Every, TunedPaths, ::testing::Range(0, d::kNumTunedPaths),
                         [](const auto& info) { return std::string(d::tuned_paths()[info.param]->name); });

}  // namespace
