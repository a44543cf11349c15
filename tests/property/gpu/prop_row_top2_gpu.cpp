// RapidCheck on the device: the fused per-row top-2 (gemm::sgemm_row_top2_argmin) equals, in every
// byte, the per-row top-2 of the C the same call stored, for random shapes (m or n from 0, k from 0),
// strides, offsets and alpha/beta, on every rung, on data with many ties; and with C not stored it
// gives the same rows whenever the call takes the same plan either way.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <gpuprims/gemm.hpp>

#include "gemm/src/gemm_internal.hpp"
#include "support/gpu.hpp"
#include "support/top2_check.hpp"
#include "testkit/random.hpp"

namespace {

using gpuprims::gemm::Algorithm;
namespace d = gpuprims::detail;
namespace t = gpuprims::test;
namespace tk = gpuprims::testkit;

bool same_plan_stored_or_not(Algorithm algo, std::int64_t m, std::int64_t n, std::int64_t k) {
  const d::DeviceShape* device = nullptr;
  if (d::current_device_shape(&device) != gpuprims::Status::success) return false;
  const d::GemmPlan a = d::plan_for(algo, m, n, k, true, *device, true, d::PickFor::row_top2);
  const d::GemmPlan b = d::plan_for(algo, m, n, k, false, *device, true, d::PickFor::row_top2);
  return a.path == b.path && a.splits == b.splits && a.k_split == b.k_split;
}

bool fused_equals_twin(Algorithm algo) {
  return rc::check(std::string("fused per-row top-2 == per-row top-2 of C, ") + gpuprims::gemm::name(algo), [algo] {
    const std::int64_t m = *rc::gen::inRange<std::int64_t>(0, 300), n = *rc::gen::inRange<std::int64_t>(0, 300);
    const std::int64_t k = *rc::gen::inRange<std::int64_t>(0, 70);
    const auto l = t::make_layout(m, n, k, *rc::gen::inRange(0, 5), *rc::gen::inRange(0, 5), *rc::gen::inRange(0, 5),
                                  *rc::gen::inRange(0, 4), *rc::gen::inRange(0, 4), *rc::gen::inRange(0, 4));
    const float alpha = *rc::gen::element(1.0f, -1.0f, 0.0f, 2.0f);
    const float beta = *rc::gen::element(0.0f, 1.0f, -0.5f);
    auto rng = t::make_rng(static_cast<std::uint64_t>(m * 7919 + n * 31 + k + 17));
    const t::GemmInputs in = t::make_inputs(l, rng, *rc::gen::element(tk::Dist::integers_small, tk::Dist::uniform_pm1));
    const t::RowTop2Run fused = t::run_sgemm_row_top2(l, in, algo, alpha, beta);
    RC_ASSERT(fused.status == gpuprims::Status::success);
    RC_ASSERT(fused.cuda_error.empty());
    RC_ASSERT(fused.guard_damage.empty());
    const std::string diff = t::row_top2_bytes_diff(fused.rows, t::reference_row_top2(fused.C.data(), m, n, l.ldc));
    RC_LOG() << l.describe() << " alpha " << alpha << " beta " << beta << ": " << diff;
    RC_ASSERT(diff.empty());
    if (beta == 0.0f && same_plan_stored_or_not(algo, m, n, k)) {
      const t::RowTop2Run bare = t::run_sgemm_row_top2(l, in, algo, alpha, beta, false);
      RC_ASSERT(bare.status == gpuprims::Status::success);
      RC_ASSERT(bare.guard_damage.empty());
      RC_ASSERT(t::row_top2_bytes_diff(bare.rows, fused.rows).empty());
    }
  });
}

class RowTop2Property : public ::testing::TestWithParam<Algorithm> {};

TEST_P(RowTop2Property, FusedEqualsUnfusedTwin) {
  GPUPRIMS_REQUIRE_GPU();
  EXPECT_TRUE(fused_equals_twin(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(EveryRung, RowTop2Property, ::testing::ValuesIn(gpuprims::gemm::kAllAlgorithms),
                         [](const auto& info) { return std::string(gpuprims::gemm::name(info.param)); });

}  // namespace
