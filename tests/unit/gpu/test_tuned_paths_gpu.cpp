// Every path the tuned rung can pick (rung 9's tile shapes, the few-rows and few-columns kernels),
// forced with one k range and with k split (into counts that do not divide k, and into many), on
// tail-heavy shapes within the path's limits, padded leading dimensions and offset pointers: plain
// (alpha, beta), beta = 0 over a NaN-poisoned C, and the fused top-2 (packed and wide merges, C
// stored and not) against its unfused twin. The public API reaches each plan only for the shapes the
// cost model sends there, so the plans are forced here.
#include <gtest/gtest.h>

#include <gpuprims/gemm.hpp>
#include <gpuprims/reduce.hpp>

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
      return {t::make_layout(1, 1, 1), t::make_layout(bm, 257, 33),
              t::make_layout(bm - 1, bn + 3, 300, 1, 2, 3, 3, 2, 1), t::make_layout(3, 2 * bn + 4, 517, 0, 0, 4),
              t::make_layout(bm, 4, 64, 4, 4, 4)};
    case d::PathKind::few_cols:
      return {t::make_layout(1, 1, 1), t::make_layout(257, bn, 33),
              t::make_layout(2 * bm + 3, bn - 1, 300, 1, 2, 3, 3, 2, 1), t::make_layout(1000, 3, 517, 0, 0, 4),
              t::make_layout(bm, bn, 640, 4, 4, 4)};
    case d::PathKind::tile: break;
  }
  return {t::make_layout(1, 1, 1), t::make_layout(bm + 1, bn - 1, 17),
          t::make_layout(2 * bm + 3, bn + 5, 333, 1, 2, 3, 3, 2, 1), t::make_layout(300, 259, 70, 4, 4, 4),
          t::make_layout(2 * bm + 3, 2 * bn + 4, 256, 0, 0, 4)};
}

// One forced plan on one layout: plain, beta = 0 over NaN, and the fused top-2 forms.
void check_plan(const d::GemmPlan& plan, const t::GemmLayout& l, const t::GemmInputs& in,
                const t::ProductReference& ref) {
  t::GuardedArray a(in.A.size(), l.off_a), b(in.B.size(), l.off_b), c(in.C.size(), l.off_c);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  a.upload(in.A);
  b.upload(in.B);
  const d::DeviceShape* device = nullptr;
  ASSERT_STATUS(Status::success, d::current_device_shape(&device));
  const std::size_t ws_bytes = d::call_workspace_bytes(plan, l.m, l.n, true, device->sm_count);
  const DeviceBuffer<unsigned char> ws_buffer(ws_bytes + 16);
  ASSERT_TRUE(ws_buffer);
  void* const ws = ws_buffer.get();

  for (const float beta : {-0.5f, 0.0f}) {
    const bool poison = beta == 0.0f;
    if (poison) c.poison();
    else c.upload(in.C);
    const float alpha = 0.75f;
    const d::SgemmArgs args{l.m,      l.n,   l.k,  alpha,    a.data(), l.lda,
                            b.data(), l.ldb, beta, c.data(), l.ldc,    gpuprims::gemm::Algorithm::tuned,
                            nullptr,  false};
    ASSERT_STATUS(Status::success, d::sgemm_run(args, &plan, ws, ws_bytes, nullptr));
    CUDA_OK(cudaDeviceSynchronize());
    EXPECT_EQ(t::check_gemm(l, ref, alpha, beta, in.C, c.download(), poison), "") << "beta " << beta;
    EXPECT_EQ(a.guard_damage() + b.guard_damage() + c.guard_damage(), "");
  }

  // Fused top-2 with this plan (C holds the beta = 0 product from above, stored again) equals the
  // unfused twin over that C; then the 64-bit-index merge, and C not stored.
  const DeviceBuffer<gpuprims::Top2> top2_buffer(1);
  ASSERT_TRUE(top2_buffer);
  gpuprims::Top2* const d_top2 = top2_buffer.get();
  const t::Top2Run twin = t::run_reduce_top2(c.download(), l.m, l.n, l.ldc, l.off_c);
  d::SgemmArgs fused{l.m,      l.n,   l.k,  0.75f,    a.data(), l.lda,
                     b.data(), l.ldb, 0.0f, c.data(), l.ldc,    gpuprims::gemm::Algorithm::tuned,
                     d_top2,   true};
  struct Form {
    const char* what;
    bool wide, store;
  };
  for (const Form f :
       {Form{"packed, C stored", false, true}, Form{"wide index", true, true}, Form{"C not stored", false, false}}) {
    CUDA_OK(cudaMemset(d_top2, 0x7F, sizeof(gpuprims::Top2)));  // poisoned: the call must write it
    fused.force_wide_index = f.wide;
    fused.C = f.store ? c.data() : nullptr;
    ASSERT_STATUS(Status::success, d::sgemm_run(fused, &plan, ws, ws_bytes, nullptr));
    gpuprims::Top2 got{};
    CUDA_OK(cudaMemcpy(&got, d_top2, sizeof got, cudaMemcpyDeviceToHost));
    EXPECT_EQ(t::top2_diff(got, twin.top2), "") << f.what;
  }
  EXPECT_EQ(c.guard_damage(), "");
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

INSTANTIATE_TEST_SUITE_P(Every, TunedPaths, ::testing::Range(0, d::kNumTunedPaths),
                         [](const auto& info) { return std::string(d::tuned_paths()[info.param]->name); });

}  // namespace
