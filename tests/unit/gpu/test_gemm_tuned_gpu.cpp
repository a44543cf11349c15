// The tuned rung through the public API on the shapes its cost model sends to the new paths (narrow
// outputs, small outputs with long k, one short side, squares between powers of two): results against
// the double reference with padding, offsets and every (alpha, beta) rule; split-K results bitwise
// the same run after run; the workspace query and the explicit-workspace forms, including a workspace
// that is too small (a Status, nothing launched).
#include <gtest/gtest.h>

#include <gpuprims/gemm.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "common/src/device_buffer.hpp"
#include "gemm/src/gemm_internal.hpp"
#include "support/gemm_check.hpp"
#include "support/gpu.hpp"
#include "support/guarded_array.hpp"
#include "support/top2_check.hpp"
#include "testkit/shapes.hpp"

namespace {

namespace d = gpuprims::detail;
using gpuprims::detail::DeviceBuffer;
namespace t = gpuprims::test;
using gpuprims::Status;
using gpuprims::gemm::Algorithm;

struct Shape {
  std::int64_t m, n, k;
};

// The plan the tuned rung takes for a call that stores C.
d::GemmPlan tuned_plan(std::int64_t m, std::int64_t n, std::int64_t k) {
  const d::DeviceShape* device = nullptr;
  EXPECT_EQ(d::current_device_shape(&device), Status::success);
  return d::plan_for(Algorithm::tuned, m, n, k, true, *device);
}

std::string describe(const d::GemmPlan& p) { return std::string(p.path->name) + " splits " + std::to_string(p.splits); }

TEST(GemmTuned, ShapesOfEveryClassAgainstTheDoubleReference) {
  GPUPRIMS_REQUIRE_GPU();
  std::vector<Shape> shapes = {{1, 4099, 1031}, {4097, 1, 1029},  {3, 517, 9001},  {13, 2000, 700},
                               {900, 7, 3001},  {2001, 16, 333},  {31, 1025, 777}, {64, 64, 20011},
                               {17, 33, 30000}, {100, 1500, 900}, {1500, 96, 701}, {130, 130, 5003},
                               {1, 1, 65537},   {2, 3, 1},        {33, 4100, 129}, {700, 700, 300}};
  // Under compute-sanitizer every dimension past 300 shrinks (keeping its tails); the narrow sides and
  // the long-k character of the small outputs stay.
  for (Shape& s : shapes) {
    s.m = t::sanitizer_sized_dim(s.m);
    s.n = t::sanitizer_sized_dim(s.n);
    s.k = t::sized_for_sanitizer(s.k, std::min<std::int64_t>(s.k, 2048 + s.k % 128));
  }
  // And a few random ones from this run's seed, biased to the same classes.
  auto rng = t::make_rng(77);
  for (int i = 0; i < 6; ++i) {
    const std::int64_t narrow = 1 + static_cast<std::int64_t>(rng() % 40);
    const std::int64_t wide = 1 + static_cast<std::int64_t>(rng() % 3000);
    const std::int64_t k = 1 + static_cast<std::int64_t>(rng() % 6000);
    shapes.push_back(i % 2 ? Shape{narrow, wide, k} : Shape{wide, narrow, k});
  }
  const float alphas[] = {1.0f, -0.5f}, betas[] = {0.0f, 2.0f};
  int i = 0;
  for (const Shape& s : shapes) {
    ++i;
    // Odd cases padded and offset (the scalar loads), even ones tight (the 16-byte loads).
    const t::GemmLayout l = i % 2 ? t::make_layout(s.m, s.n, s.k, 1, 3, 2, 1, 3, 2) : t::make_layout(s.m, s.n, s.k);
    SCOPED_TRACE(l.describe() + " tuned plan " + describe(tuned_plan(s.m, s.n, s.k)));
    auto r = t::make_rng(1000 + i);
    const t::GemmInputs in = t::make_inputs(l, r);
    const t::ProductReference ref = t::reference_product(l.m, l.n, l.k, in.A.data(), l.lda, in.B.data(), l.ldb);
    for (const float alpha : alphas)
      for (const float beta : betas) {
        const bool poison = beta == 0.0f;
        const t::GemmRun run = t::run_sgemm(l, in, Algorithm::tuned, alpha, beta, poison);
        ASSERT_STATUS(Status::success, run.status);
        ASSERT_EQ(run.cuda_error, "");
        EXPECT_EQ(run.guard_damage, "");
        EXPECT_EQ(t::check_gemm(l, ref, alpha, beta, in.C, run.C, poison), "") << "alpha " << alpha << " beta " << beta;
      }
  }
}

// The same inputs give the same bits, ten runs in a row (three under the sanitizer), on plans that
// split k (the tuned pick's and one forced split of each path kind).
TEST(GemmTuned, SplitKResultsAreBitwiseReproducible) {
  GPUPRIMS_REQUIRE_GPU();
  const d::DeviceShape* device = nullptr;
  ASSERT_STATUS(Status::success, d::current_device_shape(&device));
  struct Case {
    Shape s;
    const d::RungEntry* forced;  // null: the tuned pick
  };
  const Case cases[] = {{{64, 64, 40000}, nullptr},
                        {{8, 8, 1 << 20}, nullptr},
                        {{96, 130, 9000}, &d::kTunedConfigs[5]},
                        {{5, 3000, 9000}, &d::kFewRowsPaths[1]},
                        {{2000, 6, 9000}, &d::kFewColsPaths[1]}};
  const int runs = t::sized_for_sanitizer(10, 3);
  for (const Case& c : cases) {
    const Shape s = c.s;
    const d::GemmPlan plan = c.forced ? d::make_plan(*c.forced, s.k, 24) : tuned_plan(s.m, s.n, s.k);
    SCOPED_TRACE(gpuprims::testkit::shape_name(s.m, s.n, s.k) + " " + describe(plan));
    ASSERT_GT(plan.splits, 1) << "the case is meant to exercise a split plan";
    const t::GemmLayout l = t::make_layout(s.m, s.n, s.k);
    auto r = t::make_rng(4242 + s.k);
    const t::GemmInputs in = t::make_inputs(l, r);
    t::GuardedOperands ops(l, in);
    ASSERT_TRUE(ops.ok());
    const std::size_t ws_bytes = d::call_workspace_bytes(plan, s.m, s.n, false, device->sm_count);
    const DeviceBuffer<unsigned char> ws_buffer(ws_bytes);
    ASSERT_TRUE(ws_buffer);
    void* const ws = ws_buffer.get();
    const d::SgemmArgs args{s.m,   s.n,  s.k,          1.0f,  ops.a.data(),     l.lda,   ops.b.data(),
                            l.ldb, 0.0f, ops.c.data(), l.ldc, Algorithm::tuned, nullptr, false};
    std::vector<float> first;
    for (int run = 0; run < runs; ++run) {
      ops.c.poison();
      ASSERT_STATUS(Status::success, d::sgemm_run(args, &plan, ws, ws_bytes, nullptr));
      CUDA_OK(cudaDeviceSynchronize());
      const std::vector<float> now = ops.c.download();
      if (run == 0) {
        first = now;
        const t::ProductReference ref = t::reference_product(l.m, l.n, l.k, in.A.data(), l.lda, in.B.data(), l.ldb);
        EXPECT_EQ(t::check_gemm(l, ref, 1.0f, 0.0f, in.C, now, true), "");
      } else {
        ASSERT_EQ(std::memcmp(first.data(), now.data(), now.size() * sizeof(float)), 0) << "run " << run;
      }
    }
  }
}

TEST(GemmTuned, WorkspaceQueryExplicitFormsAndTooSmall) {
  GPUPRIMS_REQUIRE_GPU();
  // A 8 x 8 output with k = 2^20: one block's worth of output, so the pick splits k.
  const std::int64_t m = 8, n = 8, k = std::int64_t{1} << 20;
  ASSERT_GT(tuned_plan(m, n, k).splits, 1);
  const std::size_t need = gpuprims::gemm::sgemm_workspace_bytes(m, n, k);
  ASSERT_GT(need, 0u);
  EXPECT_GE(gpuprims::gemm::top2_workspace_bytes(m, n, k), need);
  const t::GemmLayout l = t::make_layout(m, n, k);
  auto r = t::make_rng(99);
  const t::GemmInputs in = t::make_inputs(l, r);
  const t::ProductReference ref = t::reference_product(m, n, k, in.A.data(), l.lda, in.B.data(), l.ldb);
  t::GuardedOperands ops(l, in);
  t::GuardedArray ws(need / sizeof(float) + 8);
  ASSERT_TRUE(ops.ok() && ws.ok());
  auto call = [&](void* w, std::size_t bytes) {
    return gpuprims::gemm::sgemm(m, n, k, 1.0f, ops.a.data(), l.lda, ops.b.data(), l.ldb, 0.0f, ops.c.data(), l.ldc, w,
                                 bytes);
  };
  // Too small, missing, misaligned: a Status and nothing launched (C keeps its poison bits).
  ops.c.poison();
  EXPECT_STATUS(Status::invalid_argument, call(ws.data(), need - 1));
  EXPECT_STATUS(Status::invalid_argument, call(nullptr, need));
  EXPECT_STATUS(Status::misaligned_pointer, call(ws.data() + 1, need));
  CUDA_OK(cudaDeviceSynchronize());
  for (float v : ops.c.download()) ASSERT_TRUE(std::isnan(v)) << "a rejected call wrote C";
  // Exactly the queried bytes: the product.
  ASSERT_STATUS(Status::success, call(ws.data(), need));
  CUDA_OK(cudaDeviceSynchronize());
  const std::vector<float> stored = ops.c.download();
  EXPECT_EQ(t::check_gemm(l, ref, 1.0f, 0.0f, in.C, stored, true), "");
  EXPECT_EQ(ws.guard_damage() + ops.c.guard_damage(), "");
  // The fused top-2 on the split plan, explicit workspace, C not stored: the unfused twin's answer.
  const std::size_t need2 = gpuprims::gemm::top2_workspace_bytes(m, n, k);
  t::GuardedArray ws2(need2 / sizeof(float) + 8);
  const DeviceBuffer<gpuprims::Top2> top2_buffer(1);
  ASSERT_TRUE(top2_buffer);
  gpuprims::Top2* const d_top2 = top2_buffer.get();
  EXPECT_STATUS(Status::invalid_argument,
                gpuprims::gemm::sgemm_top2_argmin(m, n, k, 1.0f, ops.a.data(), l.lda, ops.b.data(), l.ldb, 0.0f,
                                                  nullptr, l.ldc, d_top2, ws2.data(), need2 - 1));
  ASSERT_STATUS(Status::success,
                gpuprims::gemm::sgemm_top2_argmin(m, n, k, 1.0f, ops.a.data(), l.lda, ops.b.data(), l.ldb, 0.0f,
                                                  nullptr, l.ldc, d_top2, ws2.data(), need2));
  gpuprims::Top2 got{};
  CUDA_OK(cudaMemcpy(&got, d_top2, sizeof got, cudaMemcpyDeviceToHost));
  EXPECT_EQ(t::top2_diff(got, t::run_reduce_top2(stored, m, n, l.ldc).top2), "");
  EXPECT_EQ(ws2.guard_damage(), "");
}

}  // namespace
