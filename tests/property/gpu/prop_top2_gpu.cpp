// RapidCheck on the device: the fused top-2 epilogue equals its unfused twin (sgemm into C, then
// reduce::top2_argmin over C) for random shapes, strides, offsets and alpha/beta, on every rung, on
// data with many ties.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <gpuprims/gemm.hpp>

#include "support/gpu.hpp"
#include "support/top2_check.hpp"
#include "testkit/random.hpp"

namespace {

using gpuprims::gemm::Algorithm;
namespace t = gpuprims::test;
namespace tk = gpuprims::testkit;

bool fused_equals_unfused(Algorithm algo) {
  return rc::check(std::string("fused top-2 == unfused, ") + gpuprims::gemm::name(algo), [algo] {
    const std::int64_t m = *rc::gen::inRange<std::int64_t>(0, 300), n = *rc::gen::inRange<std::int64_t>(0, 300);
    const std::int64_t k = *rc::gen::inRange<std::int64_t>(0, 70);
    const auto l = t::make_layout(m, n, k, *rc::gen::inRange(0, 5), *rc::gen::inRange(0, 5), *rc::gen::inRange(0, 5),
                                  *rc::gen::inRange(0, 4), *rc::gen::inRange(0, 4), *rc::gen::inRange(0, 4));
    const float alpha = *rc::gen::element(1.0f, -1.0f, 0.0f, 2.0f);
    const float beta = *rc::gen::element(0.0f, 1.0f, -0.5f);
    auto rng = t::make_rng(static_cast<std::uint64_t>(m * 7919 + n * 31 + k));
    const t::GemmInputs in = t::make_inputs(l, rng, *rc::gen::element(tk::Dist::integers_small, tk::Dist::uniform_pm1));
    const t::Top2Run fused = t::run_sgemm_top2(l, in, algo, alpha, beta);
    RC_ASSERT(fused.status == gpuprims::Status::success);
    RC_ASSERT(fused.cuda_error.empty());
    RC_ASSERT(fused.guard_damage.empty());
    const t::Top2Run unfused = t::run_reduce_top2(fused.C, m, n, l.ldc, l.off_c);
    RC_ASSERT(unfused.status == gpuprims::Status::success);
    const std::string diff = t::top2_diff(fused.top2, unfused.top2);
    RC_LOG() << l.describe() << " alpha " << alpha << " beta " << beta << ": " << diff;
    RC_ASSERT(diff.empty());
  });
}

class Top2Property : public ::testing::TestWithParam<Algorithm> {};

TEST_P(Top2Property, FusedEqualsUnfusedTwin) {
  GPUPRIMS_REQUIRE_GPU();
  EXPECT_TRUE(fused_equals_unfused(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(EveryRung, Top2Property, ::testing::ValuesIn(gpuprims::gemm::kAllAlgorithms),
                         [](const auto& info) { return std::string(gpuprims::gemm::name(info.param)); });

}  // namespace
