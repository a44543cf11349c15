// RapidCheck on the device: for every rung, random shapes up to about 512, random leading-dimension
// padding, pointer offsets of 0-3 floats and random alpha/beta, against the double CPU reference with
// the bound of docs/ERROR-BOUNDS.md. RC_PARAMS=max_success=200 (set by ctest) gives 200 cases per
// rung.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <gpuprims/gemm.hpp>

#include "support/gemm_check.hpp"
#include "support/gpu.hpp"
#include "testkit/random.hpp"

namespace {

using gpuprims::gemm::Algorithm;
namespace t = gpuprims::test;
namespace tk = gpuprims::testkit;

rc::Gen<std::int64_t> dim() {
  // Mostly small and odd, sometimes up to 512, sometimes exactly a tile multiple. Under the sanitizer
  // (GPUPRIMS_SANITIZER=1, which also runs fewer cases) up to 160: a 512^3 case on a shared-memory rung
  // would take racecheck minutes.
  const std::int64_t largest = t::sized_for_sanitizer<std::int64_t>(512, 160);
  const auto tile_multiple = t::under_sanitizer() ? rc::gen::element<std::int64_t>(32, 64, 128)
                                                  : rc::gen::element<std::int64_t>(32, 64, 128, 256, 512);
  return rc::gen::oneOf(rc::gen::inRange<std::int64_t>(1, 40), rc::gen::inRange<std::int64_t>(1, largest + 1),
                        tile_multiple);
}

rc::Gen<float> scalar() {
  return rc::gen::oneOf(rc::gen::element(0.0f, 1.0f, -1.0f, 0.5f, 2.0f),
                        rc::gen::map(rc::gen::inRange(-300, 301), [](int v) { return v / 100.0f; }));
}

bool gemm_property_holds(Algorithm algo) {
  return rc::check(std::string("sgemm ") + gpuprims::gemm::name(algo) + " matches the double reference", [algo] {
    const std::int64_t m = *dim(), n = *dim();
    const std::int64_t k = *rc::gen::oneOf(dim(), rc::gen::just<std::int64_t>(0));
    const int pa = *rc::gen::inRange(0, 6), pb = *rc::gen::inRange(0, 6), pc = *rc::gen::inRange(0, 6);
    const int oa = *rc::gen::inRange(0, 4), ob = *rc::gen::inRange(0, 4), oc = *rc::gen::inRange(0, 4);
    const float alpha = *scalar(), beta = *scalar();
    const auto l = t::make_layout(m, n, k, pa, pb, pc, oa, ob, oc);
    auto rng = t::make_rng(static_cast<std::uint64_t>(m * 1000003 + n * 1009 + k));
    const t::GemmInputs in =
        t::make_inputs(l, rng, *rc::gen::element(tk::Dist::uniform_pm1, tk::Dist::mixed_magnitude));
    const t::ProductReference ref = t::reference_product(m, n, k, in.A.data(), l.lda, in.B.data(), l.ldb);
    const bool poison = beta == 0.0f;
    const t::GemmRun run = t::run_sgemm(l, in, algo, alpha, beta, poison);
    RC_ASSERT(run.status == gpuprims::Status::success);
    RC_ASSERT(run.cuda_error.empty());
    RC_ASSERT(run.guard_damage.empty());
    const std::string problems = t::check_gemm(l, ref, alpha, beta, in.C, run.C, poison, algo);
    RC_LOG() << l.describe() << " alpha " << alpha << " beta " << beta << ": " << problems;
    RC_ASSERT(problems.empty());
  });
}

class GemmProperty : public ::testing::TestWithParam<Algorithm> {};

TEST_P(GemmProperty, MatchesDoubleReferenceOnRandomShapes) {
  GPUPRIMS_REQUIRE_GPU();
  EXPECT_TRUE(gemm_property_holds(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(EveryRung, GemmProperty, ::testing::ValuesIn(gpuprims::gemm::kAllAlgorithms),
                         [](const auto& info) { return std::string(gpuprims::gemm::name(info.param)); });

}  // namespace
