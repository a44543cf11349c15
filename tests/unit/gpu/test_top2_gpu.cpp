// The fused top-2 argmin epilogue on every rung, and reduce::top2_argmin: ties, equal minima, +-0,
// +-inf, NaN rows, tiny outputs, tails, strides, offsets, beta * C deciding, C not stored, minima in
// the last tiles to run, determinism; exact against the sorted reference on integer data, within the
// GEMM bound on random data. The tests that lean on the grid's bound (all equal, minima last, one
// thread's ties, random data) run the 64-bit-index form too, forced on these small outputs (it serves
// outputs of 2^32 entries or more). Under the sanitizer (GPUPRIMS_SANITIZER=1) dimensions past 300
// and vectors past 2^18 shrink (sanitizer_sized_dim, sanitizer_sized_count).
#include <gtest/gtest.h>

#include <gpuprims/gemm.hpp>
#include <gpuprims/reduce.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "support/gpu.hpp"
#include "support/top2_check.hpp"
#include "testkit/random.hpp"

namespace {

using gpuprims::Status;
using gpuprims::Top2;
using gpuprims::gemm::Algorithm;
using gpuprims::gemm::kAllAlgorithms;
namespace t = gpuprims::test;
namespace tk = gpuprims::testkit;

// The fused result must equal the sorted reference over the C that was actually produced.
void expect_matches_stored_c(const t::GemmLayout& l, const t::Top2Run& run) {
  ASSERT_STATUS(Status::success, run.status);
  ASSERT_EQ(run.cuda_error, "");
  EXPECT_EQ(run.guard_damage, "");
  const Top2 want = t::reference_top2(run.C.data(), l.m, l.n, l.ldc);
  EXPECT_EQ(t::top2_diff(run.top2, want), "");
}

// The fused top-2's two index forms: packed 32-bit indices (what these outputs take) and 64-bit ones.
struct IndexForm {
  const char* name;
  bool wide;
};
constexpr IndexForm kIndexForms[] = {{"packed index", false}, {"64-bit index", true}};

TEST(Top2Fused, IntegerDataIsExactWithTiesOnEveryRung) {
  GPUPRIMS_REQUIRE_GPU();
  const t::GemmLayout layouts[] = {t::make_layout(1, 1, 1),
                                   t::make_layout(2, 1, 1),
                                   t::make_layout(1, 2, 3),
                                   t::make_layout(7, 13, 5, 1, 2, 3, 1, 2, 3),
                                   t::make_layout(33, 65, 9, 0, 0, 0, 3, 1, 2),
                                   t::make_layout(130, 260, 17, 4, 4, 4),
                                   t::make_layout(257, 129, 3)};
  for (const auto& l : layouts) {
    auto rng = t::make_rng(100 + l.m);
    const t::GemmInputs in = t::make_inputs(l, rng, tk::Dist::integers_small);
    const t::ProductReference ref = t::reference_product(l.m, l.n, l.k, in.A.data(), l.lda, in.B.data(), l.ldb);
    for (Algorithm algo : kAllAlgorithms) {
      for (auto [alpha, beta] : {std::pair{1.0f, 0.0f}, std::pair{2.0f, -1.0f}}) {
        SCOPED_TRACE(std::string(gpuprims::gemm::name(algo)) + " " + l.describe() + " beta " + std::to_string(beta));
        // Exact expected C in float (small integers), from the double reference.
        std::vector<float> expected(static_cast<std::size_t>(l.m * l.n));
        for (std::int64_t i = 0; i < l.m; ++i)
          for (std::int64_t j = 0; j < l.n; ++j)
            expected[static_cast<std::size_t>(i * l.n + j)] =
                static_cast<float>(alpha * ref.sum[static_cast<std::size_t>(i * l.n + j)] +
                                   (beta != 0.0f ? beta * in.C[static_cast<std::size_t>(i * l.ldc + j)] : 0.0));
        const t::Top2Run run = t::run_sgemm_top2(l, in, algo, alpha, beta);
        expect_matches_stored_c(l, run);
        EXPECT_EQ(t::top2_diff(run.top2, t::reference_top2(expected.data(), l.m, l.n, l.n)), "");
      }
    }
  }
}

// All entries equal: the two lowest row-major positions, also where many blocks (whose bound is the
// common value from the first one to finish) hold ties.
TEST(Top2Fused, AllEqualAndTinyOutputs) {
  GPUPRIMS_REQUIRE_GPU();
  const float inf = std::numeric_limits<float>::infinity();
  const std::int64_t big = t::sanitizer_sized_dim(1500);
  for (Algorithm algo : kAllAlgorithms) {
    for (const IndexForm form : kIndexForms) {
      SCOPED_TRACE(std::string(gpuprims::gemm::name(algo)) + " " + form.name);
      for (auto [m, n] :
           {std::pair<std::int64_t, std::int64_t>{0, 5}, {5, 0}, {1, 1}, {1, 2}, {2, 1}, {3, 70}, {big, big + 3}}) {
        const auto l = t::make_layout(m, n, 4);
        t::GemmInputs in;
        in.A.assign(static_cast<std::size_t>(l.m * l.lda), 1.0f);
        in.B.assign(static_cast<std::size_t>(l.k * l.ldb), 1.0f);
        in.C.assign(static_cast<std::size_t>(l.m * l.ldc), 1.0f);
        const t::Top2Run run = t::run_sgemm_top2(l, in, algo, 1.0f, 0.0f, true, form.wide);
        ASSERT_STATUS(Status::success, run.status);
        ASSERT_EQ(run.cuda_error, "");
        const std::int64_t entries = m * n;
        if (entries == 0) {
          EXPECT_EQ(t::top2_diff(run.top2, Top2{{inf, -1, -1}, {inf, -1, -1}}), "");
        } else if (entries == 1) {
          EXPECT_EQ(t::top2_diff(run.top2, Top2{{4.0f, 0, 0}, {inf, -1, -1}}), "");
        } else {
          const std::int64_t second_row = n > 1 ? 0 : 1, second_col = n > 1 ? 1 : 0;
          EXPECT_EQ(t::top2_diff(run.top2, Top2{{4.0f, 0, 0}, {4.0f, second_row, second_col}}), "") << m << " x " << n;
        }
      }
    }
  }
}

TEST(Top2Fused, InfinitiesNanRowsAndSignedZeros) {
  GPUPRIMS_REQUIRE_GPU();
  for (Algorithm algo : kAllAlgorithms) {
    SCOPED_TRACE(gpuprims::gemm::name(algo));
    auto l = t::make_layout(45, 77, 6, 1, 0, 2, 2, 0, 1);
    auto rng = t::make_rng(200);
    t::GemmInputs in = t::make_inputs(l, rng);
    for (std::int64_t p = 0; p < l.k; ++p) in.A[static_cast<std::size_t>(0 * l.lda + p)] = std::nanf("");  // row 0 NaN
    in.B[static_cast<std::size_t>(2 * l.ldb + 30)] = -std::numeric_limits<float>::infinity();  // column 30: +-inf
    const t::Top2Run run = t::run_sgemm_top2(l, in, algo, 1.0f, 0.0f);
    expect_matches_stored_c(l, run);
    EXPECT_FALSE(std::isnan(run.top2.first.value));
    EXPECT_FALSE(std::isnan(run.top2.second.value));

    // Every entry NaN: NaN is returned, at the two lowest positions.
    t::GemmInputs all_nan = in;
    for (float& v : all_nan.A) v = std::nanf("");
    const t::Top2Run nan_run = t::run_sgemm_top2(l, all_nan, algo, 1.0f, 0.0f);
    ASSERT_STATUS(Status::success, nan_run.status);
    EXPECT_TRUE(std::isnan(nan_run.top2.first.value) && std::isnan(nan_run.top2.second.value));
    EXPECT_EQ(nan_run.top2.first.row, 0);
    EXPECT_EQ(nan_run.top2.first.col, 0);
    EXPECT_EQ(nan_run.top2.second.col, 1);

    // Signed zeros tie: scale-only (alpha = 0), C holds -0.0 at (1, 2) and +0.0 at (3, 4), the rest > 0.
    t::GemmInputs zeros = in;
    for (float& v : zeros.C) v = 1.0f + std::fabs(v);
    zeros.C[static_cast<std::size_t>(3 * l.ldc + 4)] = 0.0f;
    zeros.C[static_cast<std::size_t>(1 * l.ldc + 2)] = -0.0f;
    const t::Top2Run z = t::run_sgemm_top2(l, zeros, algo, 0.0f, 1.0f);
    expect_matches_stored_c(l, z);
    EXPECT_EQ(z.top2.first.value, 0.0f);
    EXPECT_EQ(z.top2.first.row, 1);
    EXPECT_EQ(z.top2.first.col, 2);
    EXPECT_EQ(z.top2.second.row, 3);
    EXPECT_EQ(z.top2.second.col, 4);
  }
}

TEST(Top2Fused, BetaTimesCDecidesTheMinimum) {
  GPUPRIMS_REQUIRE_GPU();
  for (Algorithm algo : kAllAlgorithms) {
    auto l = t::make_layout(100, 140, 20, 0, 3, 1, 0, 1, 2);
    auto rng = t::make_rng(300);
    t::GemmInputs in = t::make_inputs(l, rng);
    in.C[static_cast<std::size_t>(97 * l.ldc + 139)] = -1000.0f;
    in.C[static_cast<std::size_t>(3 * l.ldc + 1)] = -999.0f;
    const t::Top2Run run = t::run_sgemm_top2(l, in, algo, 0.001f, 2.0f);
    expect_matches_stored_c(l, run);
    EXPECT_EQ(run.top2.first.row, 97);
    EXPECT_EQ(run.top2.first.col, 139);
    EXPECT_EQ(run.top2.second.row, 3);
    EXPECT_EQ(run.top2.second.col, 1);
  }
}

// C[r][c] = -r, and one entry lower still at the last (row, col): every tile improves on the tiles
// before it, so the grid's bound keeps falling and the answer sits in the last tiles to run, beside
// a row of ties. Neither index form's bound may prune any of it away.
TEST(Top2Fused, MinimaInTheLastTilesWhileTheBoundFalls) {
  GPUPRIMS_REQUIRE_GPU();
  const t::GemmLayout l = t::make_layout(t::sanitizer_sized_dim(2000), t::sanitizer_sized_dim(1500), 2);
  t::GemmInputs in;
  in.A.assign(static_cast<std::size_t>(l.m * l.lda), 0.0f);
  in.B.assign(static_cast<std::size_t>(l.k * l.ldb), 0.0f);
  in.C.assign(static_cast<std::size_t>(l.m * l.ldc), 0.0f);
  for (std::int64_t r = 0; r < l.m; ++r) in.A[static_cast<std::size_t>(r * l.lda)] = -static_cast<float>(r);
  in.A[static_cast<std::size_t>((l.m - 1) * l.lda + 1)] = 1.0f;
  for (std::int64_t c = 0; c < l.n; ++c) in.B[static_cast<std::size_t>(c)] = 1.0f;
  in.B[static_cast<std::size_t>(l.ldb + l.n - 1)] = -1.0f;
  const float last_row = -static_cast<float>(l.m - 1);
  for (Algorithm algo : kAllAlgorithms) {
    for (const IndexForm form : kIndexForms) {
      for (bool store : {true, false}) {
        SCOPED_TRACE(std::string(gpuprims::gemm::name(algo)) + " " + form.name +
                     (store ? ", C stored" : ", C not stored"));
        const t::Top2Run run = t::run_sgemm_top2(l, in, algo, 1.0f, 0.0f, store, form.wide);
        ASSERT_STATUS(Status::success, run.status);
        ASSERT_EQ(run.cuda_error, "");
        EXPECT_EQ(run.top2.first.value, last_row - 1.0f);
        EXPECT_EQ(run.top2.first.row, l.m - 1);
        EXPECT_EQ(run.top2.first.col, l.n - 1);
        EXPECT_EQ(run.top2.second.value, last_row);
        EXPECT_EQ(run.top2.second.row, l.m - 1);
        EXPECT_EQ(run.top2.second.col, 0);
      }
    }
  }
}

// Interior tiles rank a thread's values as floats and look up the two positions after (the packed
// visitor's take_run); the cases the floats alone cannot settle fall back to the exact ranking. Each
// case puts the answer in four consecutive columns (c % 4 == 0: one thread's values in the SIMT and
// the wgmma tiles alike), in a product large enough for interior tiles on every rung. C carries the
// pattern (beta = 1): C = -2^30 or -2^31 absorbs A * B (|A * B| <= 16 here) exactly.
TEST(Top2Fused, OneThreadsTiesNanAndInfinitiesInInteriorTiles) {
  GPUPRIMS_REQUIRE_GPU();
  const t::GemmLayout l = t::make_layout(512, 512, 16);
  const float big = -1073741824.0f, bigger = -2147483648.0f, inf = std::numeric_limits<float>::infinity();
  const std::int64_t r = 132, c = 200;
  auto at = [&](std::vector<float>& x, std::int64_t row, std::int64_t col) -> float& {
    return x[static_cast<std::size_t>(row * l.ldc + col)];
  };
  auto rng = t::make_rng(450);
  const t::GemmInputs base = t::make_inputs(l, rng);
  struct Expected {
    std::int64_t r1, c1, r2, c2;
  };
  const auto run_case = [&](const char* name, const t::GemmInputs& in, float alpha, Expected want) {
    for (Algorithm algo : kAllAlgorithms) {
      for (const IndexForm form : kIndexForms) {
        SCOPED_TRACE(std::string(name) + " " + gpuprims::gemm::name(algo) + " " + form.name);
        const t::Top2Run run = t::run_sgemm_top2(l, in, algo, alpha, 1.0f, true, form.wide);
        expect_matches_stored_c(l, run);
        EXPECT_EQ(run.top2.first.row, want.r1);
        EXPECT_EQ(run.top2.first.col, want.c1);
        EXPECT_EQ(run.top2.second.row, want.r2);
        EXPECT_EQ(run.top2.second.col, want.c2);
      }
    }
  };
  {  // The smallest value twice in one thread (and once more in another, later): the lower two win.
    t::GemmInputs in = base;
    at(in.C, r, c + 1) = big;
    at(in.C, r, c + 2) = big;
    at(in.C, r + 200, c) = big;
    run_case("minimum twice", in, 1.0f, {r, c + 1, r, c + 2});
  }
  {  // The second value twice, after the first.
    t::GemmInputs in = base;
    at(in.C, r, c + 1) = big;
    at(in.C, r, c + 2) = big;
    at(in.C, r, c + 3) = bigger;
    run_case("second twice", in, 1.0f, {r, c + 3, r, c + 1});
  }
  {  // A NaN after the second value and before the first: fmaxf's copy of -2^30 must not displace it.
    t::GemmInputs in = base;
    at(in.C, r, c) = big;
    at(in.C, r, c + 1) = std::nanf("");
    at(in.C, r, c + 2) = bigger;
    run_case("NaN between", in, 1.0f, {r, c + 2, r, c});
  }
  {  // One finite value, +inf everywhere else: the second is the first +inf in row-major order.
    t::GemmInputs in = base;
    for (float& v : in.C) v = inf;
    at(in.C, r, c + 2) = -1.0f;
    run_case("one finite", in, 1.0f, {r, c + 2, 0, 0});
  }
  {  // -inf twice.
    t::GemmInputs in = base;
    at(in.C, r, c) = -inf;
    at(in.C, r, c + 3) = -inf;
    run_case("-inf twice", in, 1.0f, {r, c, r, c + 3});
  }
  {  // -0.0 and +0.0 tie (alpha = -1 and row r of A zero: alpha * A * B = -0.0 there, so C's sign
     // survives); every other entry is above 83.
    t::GemmInputs in = base;
    for (float& v : in.C) v = 100.0f + std::fabs(v);
    for (std::int64_t p = 0; p < l.k; ++p) in.A[static_cast<std::size_t>(r * l.lda + p)] = 0.0f;
    at(in.C, r, c + 1) = -0.0f;
    at(in.C, r, c + 2) = 0.0f;
    run_case("signed zeros", in, -1.0f, {r, c + 1, r, c + 2});
  }
}

TEST(Top2Fused, CNotStoredGivesTheSameAnswerAndWritesNothing) {
  GPUPRIMS_REQUIRE_GPU();
  for (Algorithm algo : kAllAlgorithms) {
    auto l = t::make_layout(211, t::sanitizer_sized_dim(307), 45, 1, 1, 1, 1, 1, 1);
    auto rng = t::make_rng(400);
    const t::GemmInputs in = t::make_inputs(l, rng);
    const t::Top2Run stored = t::run_sgemm_top2(l, in, algo, -1.5f, 0.0f, true);
    const t::Top2Run bare = t::run_sgemm_top2(l, in, algo, -1.5f, 0.0f, false);
    ASSERT_STATUS(Status::success, bare.status);
    ASSERT_EQ(bare.cuda_error, "");
    EXPECT_EQ(t::top2_diff(bare.top2, stored.top2), "") << gpuprims::gemm::name(algo);
    for (float v : bare.C) ASSERT_TRUE(std::isnan(v)) << "C written although it was not passed";
  }
}

TEST(Top2Fused, RandomDataWithinTheGemmBoundAndDeterministic) {
  GPUPRIMS_REQUIRE_GPU();
  const auto dim = t::sanitizer_sized_dim;
  const t::GemmLayout layouts[] = {t::make_layout(dim(513), 257, 129, 3, 2, 1, 1, 2, 3),
                                   t::make_layout(64, dim(1024), 64), t::make_layout(dim(1000), dim(999), 31)};
  for (const auto& l : layouts) {
    auto rng = t::make_rng(500 + l.n);
    const t::GemmInputs in = t::make_inputs(l, rng);
    const t::ProductReference ref = t::reference_product(l.m, l.n, l.k, in.A.data(), l.lda, in.B.data(), l.ldb);
    // The true two smallest of the exact product.
    std::vector<float> exact(ref.sum.size());
    for (std::size_t i = 0; i < exact.size(); ++i) exact[i] = static_cast<float>(ref.sum[i]);
    const Top2 truth = t::reference_top2(exact.data(), l.m, l.n, l.n);
    auto value_at = [&](std::int64_t r, std::int64_t c) { return ref.sum[static_cast<std::size_t>(r * l.n + c)]; };
    for (Algorithm algo : kAllAlgorithms) {
      auto bound_at = [&](std::int64_t r, std::int64_t c) {
        return t::gemm_error_bound(algo, l.k, ref.mag[static_cast<std::size_t>(r * l.n + c)]);
      };
      for (const IndexForm form : kIndexForms) {
        SCOPED_TRACE(std::string(gpuprims::gemm::name(algo)) + " " + l.describe() + " " + form.name);
        const t::Top2Run run = t::run_sgemm_top2(l, in, algo, 1.0f, 0.0f, true, form.wide);
        expect_matches_stored_c(l, run);
        const auto& f = run.top2.first;
        const auto& s = run.top2.second;
        ASSERT_FALSE(f.row == s.row && f.col == s.col);
        EXPECT_TRUE(value_at(f.row, f.col) <= value_at(truth.first.row, truth.first.col) + bound_at(f.row, f.col) +
                                                  bound_at(truth.first.row, truth.first.col));
        EXPECT_TRUE(value_at(s.row, s.col) <= value_at(truth.second.row, truth.second.col) + bound_at(s.row, s.col) +
                                                  bound_at(truth.second.row, truth.second.col));
        for (int r = 0; r < 9; ++r) {
          const t::Top2Run again = t::run_sgemm_top2(l, in, algo, 1.0f, 0.0f, true, form.wide);
          ASSERT_EQ(t::top2_diff(again.top2, run.top2), "") << "run " << r + 2;
        }
      }
    }
  }
}

TEST(Top2Reduce, VectorsAndStridedMatricesAgainstTheSortedReference) {
  GPUPRIMS_REQUIRE_GPU();
  for (std::int64_t size : {1, 2, 3, 5, 31, 1000, 4097, (1 << 20) + 3}) {
    const std::int64_t n = t::sanitizer_sized_count(size);
    for (int offset : {0, 1, 2, 3}) {
      auto rng = t::make_rng(600 + n + offset);
      std::vector<float> x = tk::random_vector(static_cast<std::size_t>(n), rng, tk::Dist::integers_small);
      const t::Top2Run run = t::run_reduce_top2(x, 1, n, n, offset);
      ASSERT_STATUS(Status::success, run.status);
      ASSERT_EQ(run.cuda_error, "");
      EXPECT_EQ(run.guard_damage, "");
      EXPECT_EQ(t::top2_diff(run.top2, t::reference_top2(x.data(), 1, n, n)), "") << "n " << n << " off " << offset;
    }
  }
  for (auto [rows, cols, ld] :
       {std::tuple<std::int64_t, std::int64_t, std::int64_t>{3, 5, 7}, {100, 37, 40}, {1000, 1, 3}, {17, 300, 300}}) {
    auto rng = t::make_rng(700 + rows);
    std::vector<float> x = tk::random_vector(static_cast<std::size_t>(rows * ld), rng);
    x[static_cast<std::size_t>((rows - 1) * ld + cols - 1)] = -5.0f;
    const t::Top2Run run = t::run_reduce_top2(x, rows, cols, ld, 1);
    ASSERT_STATUS(Status::success, run.status);
    EXPECT_EQ(t::top2_diff(run.top2, t::reference_top2(x.data(), rows, cols, ld)), "");
    EXPECT_EQ(run.top2.first.row, rows - 1);
  }
  // No entries: both missing.
  const t::Top2Run empty = t::run_reduce_top2({}, 0, 0, 1, 0);
  ASSERT_STATUS(Status::success, empty.status);
  EXPECT_EQ(empty.top2.first.row, -1);
  EXPECT_EQ(empty.top2.second.row, -1);
  EXPECT_TRUE(std::isinf(empty.top2.first.value));
}

}  // namespace
