// Every SGEMM rung on a device: the issue's shapes, k = 0, m = 0, padded leading dimensions, pointers
// offset by 1-3 floats, the four (alpha, beta) pairs (beta == 0 with a NaN-poisoned C), a guard band
// around every buffer, against the double reference. One product reference serves every rung and
// every (alpha, beta) of a shape, so the CPU cost stays small. Under the sanitizer
// (GPUPRIMS_SANITIZER=1) dimensions past 300 shrink to 128 plus their remainder mod 128
// (sanitizer_sized_dim): 4095 x 4097 x 33 runs as 255 x 129 x 33, with the same kinds of tails.
#include <gtest/gtest.h>

#include <gpuprims/gemm.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "common/src/device_buffer.hpp"
#include "support/gemm_check.hpp"
#include "support/gpu.hpp"
#include "testkit/shapes.hpp"

namespace {

using gpuprims::Status;
using gpuprims::gemm::Algorithm;
using gpuprims::gemm::kAllAlgorithms;
namespace t = gpuprims::test;

struct AlphaBeta {
  float alpha, beta;
  bool poison_c;  // C filled with NaN: beta == 0 must not read it
};
const AlphaBeta kAlphaBetas[] = {{1.0f, 0.0f, true}, {0.5f, 3.0f, false}, {-1.0f, 0.0f, true}, {0.0f, 1.0f, false}};

// All rungs and (alpha, beta) pairs on one layout with fresh random inputs.
void check_every_rung(const t::GemmLayout& l, std::uint64_t salt) {
  auto rng = t::make_rng(salt);
  const t::GemmInputs in = t::make_inputs(l, rng);
  const t::ProductReference ref = t::reference_product(l.m, l.n, l.k, in.A.data(), l.lda, in.B.data(), l.ldb);
  for (Algorithm algo : kAllAlgorithms) {
    for (const AlphaBeta& ab : kAlphaBetas) {
      SCOPED_TRACE(std::string(gpuprims::gemm::name(algo)) + " " + l.describe() + " alpha " + std::to_string(ab.alpha) +
                   " beta " + std::to_string(ab.beta));
      const t::GemmRun run = t::run_sgemm(l, in, algo, ab.alpha, ab.beta, ab.poison_c);
      ASSERT_STATUS(Status::success, run.status);
      ASSERT_EQ(run.cuda_error, "");
      EXPECT_EQ(run.guard_damage, "");
      // alpha = 0, beta = 1 is a no-op: C stays bitwise as it was.
      EXPECT_EQ(t::check_gemm(l, ref, ab.alpha, ab.beta, in.C, run.C, ab.poison_c, algo), "");
    }
  }
}

struct Shape {
  std::int64_t m, n, k;
};
const Shape kShapes[] = {{1, 1, 1},       {7, 13, 5},      {31, 33, 17},     {64, 64, 64},
                         {127, 129, 131}, {128, 128, 128}, {4095, 4097, 33}, {1000, 3000, 500},
                         {3, 300, 1},     {300, 3, 2},     {129, 1, 257},    {1, 513, 70}};

class GemmShapes : public ::testing::TestWithParam<Shape> {
 protected:
  static Shape shape() {
    const Shape s = GetParam();
    return {t::sanitizer_sized_dim(s.m), t::sanitizer_sized_dim(s.n), t::sanitizer_sized_dim(s.k)};
  }
};

TEST_P(GemmShapes, TightAndAligned) {
  GPUPRIMS_REQUIRE_GPU();
  const Shape s = shape();
  check_every_rung(t::make_layout(s.m, s.n, s.k), 1);
}

TEST_P(GemmShapes, PaddedAndOffsetByOneToThreeFloats) {
  GPUPRIMS_REQUIRE_GPU();
  const Shape s = shape();
  check_every_rung(t::make_layout(s.m, s.n, s.k, 3, 1, 2, 1, 2, 3), 2);
}

TEST_P(GemmShapes, PaddedToMultiplesOfFourStillVectorized) {
  GPUPRIMS_REQUIRE_GPU();
  const Shape s = shape();
  // ld > row length but ld % 4 == 0 and 16-byte aligned bases: the float4 path with padding.
  auto l = t::make_layout(s.m, s.n, s.k);
  l.lda = (l.lda + 4) / 4 * 4 + 4;
  l.ldb = (l.ldb + 4) / 4 * 4 + 4;
  l.ldc = (l.ldc + 4) / 4 * 4 + 4;
  check_every_rung(l, 3);
}

INSTANTIATE_TEST_SUITE_P(Issue, GemmShapes, ::testing::ValuesIn(kShapes), [](const auto& info) {
  return gpuprims::testkit::shape_name(info.param.m, info.param.n, info.param.k);
});

TEST(GemmEdges, KZeroGivesBetaTimesCWithoutReadingAOrB) {
  GPUPRIMS_REQUIRE_GPU();
  const auto l = t::make_layout(37, 45, 0);
  auto rng = t::make_rng(4);
  const t::GemmInputs in = t::make_inputs(l, rng);
  const t::ProductReference ref = t::reference_product(l.m, l.n, 0, nullptr, l.lda, nullptr, l.ldb);
  for (Algorithm algo : kAllAlgorithms) {
    for (float beta : {0.0f, 2.5f, 1.0f}) {
      const t::GemmRun run = t::run_sgemm(l, in, algo, 1.0f, beta, beta == 0.0f);
      ASSERT_STATUS(Status::success, run.status);
      EXPECT_EQ(run.cuda_error, "");
      EXPECT_EQ(t::check_gemm(l, ref, 1.0f, beta, in.C, run.C, beta == 0.0f, algo), "") << gpuprims::gemm::name(algo);
    }
  }
}

TEST(GemmEdges, NullOperandsAllowedWhenNothingIsRead) {
  GPUPRIMS_REQUIRE_GPU();
  const gpuprims::detail::DeviceBuffer<float> c_buffer(16);
  ASSERT_TRUE(c_buffer);
  float* const c = c_buffer.get();
  CUDA_OK(cudaMemset(c, 0xFF, 16 * sizeof(float)));  // NaN
  // k == 0, beta == 0: C = 0 with A and B null.
  EXPECT_STATUS(Status::success, gpuprims::gemm::sgemm(4, 4, 0, 1.0f, nullptr, 1, nullptr, 4, 0.0f, c, 4));
  std::vector<float> h(16, 1.0f);
  CUDA_OK(cudaMemcpy(h.data(), c, sizeof(float) * 16, cudaMemcpyDeviceToHost));
  for (float v : h) EXPECT_EQ(v, 0.0f);
  // m == 0: nothing at all is touched, even with every pointer null.
  EXPECT_STATUS(Status::success, gpuprims::gemm::sgemm(0, 5, 5, 1.0f, nullptr, 5, nullptr, 5, 0.0f, nullptr, 5));
  // alpha == 0 with k > 0: A and B are not read.
  EXPECT_STATUS(Status::success, gpuprims::gemm::sgemm(4, 4, 9, 0.0f, nullptr, 9, nullptr, 4, 2.0f, c, 4));
  CUDA_OK(cudaDeviceSynchronize());
}

TEST(GemmEdges, MZeroAndNZeroLeaveCUntouched) {
  GPUPRIMS_REQUIRE_GPU();
  for (Algorithm algo : kAllAlgorithms) {
    for (const auto& l : {t::make_layout(0, 17, 9), t::make_layout(13, 0, 9)}) {
      auto rng = t::make_rng(5);
      const t::GemmInputs in = t::make_inputs(l, rng);
      const t::GemmRun run = t::run_sgemm(l, in, algo, 1.0f, 0.0f, false);
      EXPECT_STATUS(Status::success, run.status);
      EXPECT_EQ(run.guard_damage, "");
      EXPECT_EQ(run.C, in.C);
    }
  }
}

TEST(GemmEdges, DeterministicOverTenRuns) {
  GPUPRIMS_REQUIRE_GPU();
  const auto l = t::make_layout(t::sanitizer_sized_dim(333), t::sanitizer_sized_dim(517), 259, 1, 0, 2, 1, 0, 3);
  auto rng = t::make_rng(6);
  const t::GemmInputs in = t::make_inputs(l, rng);
  for (Algorithm algo : kAllAlgorithms) {
    const t::GemmRun first = t::run_sgemm(l, in, algo, 1.0f, 0.5f, false);
    for (int r = 0; r < 9; ++r) {
      const t::GemmRun again = t::run_sgemm(l, in, algo, 1.0f, 0.5f, false);
      ASSERT_EQ(0, std::memcmp(first.C.data(), again.C.data(), first.C.size() * sizeof(float)))
          << gpuprims::gemm::name(algo);
    }
  }
}

TEST(GemmEdges, NanAndInfPropagateLikeBlas) {
  GPUPRIMS_REQUIRE_GPU();
  auto l = t::make_layout(40, 50, 30);
  auto rng = t::make_rng(7);
  t::GemmInputs in = t::make_inputs(l, rng);
  in.A[static_cast<std::size_t>(5 * l.lda + 3)] = std::nanf("");                           // row 5 -> NaN
  in.B[static_cast<std::size_t>(7 * l.ldb + 9)] = std::numeric_limits<float>::infinity();  // column 9 -> +-inf
  for (Algorithm algo : kAllAlgorithms) {
    const t::GemmRun run = t::run_sgemm(l, in, algo, 1.0f, 0.0f, true);
    ASSERT_STATUS(Status::success, run.status);
    for (std::int64_t j = 0; j < l.n; ++j) EXPECT_TRUE(std::isnan(run.C[static_cast<std::size_t>(5 * l.ldc + j)]));
    for (std::int64_t i = 0; i < l.m; ++i) {
      if (i == 5) continue;
      const float v = run.C[static_cast<std::size_t>(i * l.ldc + 9)];
      EXPECT_TRUE(std::isinf(v) || std::isnan(v)) << gpuprims::gemm::name(algo) << " row " << i;
    }
  }
}

}  // namespace
