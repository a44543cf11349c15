// The rank-order combines on the CPU, through the very functions the device kernels run: the sum of
// gathered partials (left to right, bit-exact against a written-out fold), and the global top-2
// from per-rank results against the reference top-2 of the whole matrix (ties across ranks, NaN,
// -0.0, ranks without rows, fewer than two entries).
#include <gtest/gtest.h>

#include <gpuprims/top2.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "dist/src/combine.hpp"
#include "support/random.hpp"
#include "support/reference.hpp"
#include "support/top2_check.hpp"
#include "testkit/random.hpp"

namespace {

namespace dd = gpuprims::dist::detail;
using gpuprims::Top2;

std::uint32_t bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

TEST(DistCombine, SumAddsLeftToRightInRankOrder) {
  // 1e8 + 1 - 1e8 is 0 left to right in float, 1 in another order: the order is visible.
  const float p[] = {1e8f, 1.0f, -1e8f, 3.0f};
  EXPECT_EQ(dd::sum_in_rank_order(p, 4), ((1e8f + 1.0f) + -1e8f) + 3.0f);
  EXPECT_EQ(dd::sum_in_rank_order(p, 4), 3.0f);
  auto rng = gpuprims::test::make_rng(0xd157);
  for (int count = 1; count <= 64; ++count) {
    const auto v = gpuprims::testkit::random_vector(static_cast<std::size_t>(count), rng,
                                                    gpuprims::testkit::Dist::mixed_magnitude);
    float want = v[0];
    for (int r = 1; r < count; ++r) want += v[static_cast<std::size_t>(r)];
    EXPECT_EQ(bits(dd::sum_in_rank_order(v.data(), count)), bits(want)) << count;
  }
}

TEST(DistCombine, SumOfOneRankIsItsPartialExactly) {
  const float neg_zero = -0.0f;
  EXPECT_EQ(bits(dd::sum_in_rank_order(&neg_zero, 1)), bits(-0.0f));
  const float zeros[] = {-0.0f, 0.0f};  // an empty shard's partial is +0.0
  EXPECT_EQ(bits(dd::sum_in_rank_order(zeros, 2)), bits(0.0f));
  const float nan_in[] = {1.0f, std::nanf(""), 2.0f};
  EXPECT_TRUE(std::isnan(dd::sum_in_rank_order(nan_in, 3)));
}

TEST(DistCombine, GlobalizeShiftsRowsAndKeepsMissingEntries) {
  const Top2 local{{-1.0f, 2, 5}, {std::numeric_limits<float>::infinity(), -1, -1}};
  const Top2 g = dd::globalize_rows(local, std::int64_t{1} << 40);
  EXPECT_EQ(g.first.row, (std::int64_t{1} << 40) + 2);
  EXPECT_EQ(g.first.col, 5);
  EXPECT_EQ(g.second.row, -1);
  EXPECT_EQ(g.second.col, -1);
}

// Splits a rows x cols matrix into per-rank row blocks, takes each block's reference top-2 (local
// rows), globalizes and merges them, and compares with the reference of the whole matrix.
std::string merge_vs_whole(const std::vector<float>& x, std::int64_t cols, const std::vector<std::int64_t>& counts) {
  std::vector<Top2> per_rank;
  std::int64_t begin = 0;
  for (std::int64_t c : counts) {
    const Top2 local = gpuprims::test::reference_top2(x.data() + begin * cols, c, cols, cols);
    per_rank.push_back(dd::globalize_rows(local, begin));
    begin += c;
  }
  const Top2 got = dd::merge_in_rank_order(per_rank.data(), static_cast<int>(per_rank.size()), cols);
  const Top2 want = gpuprims::test::reference_top2(x.data(), begin, cols, cols);
  std::string diff = gpuprims::test::top2_diff(got, want);
  if (got.first.reserved != 0 || got.second.reserved != 0) diff += " (reserved not 0)";
  return diff;
}

TEST(DistCombine, MergeEqualsTheWholeMatrixTop2) {
  auto rng = gpuprims::test::make_rng(0xd158);
  const gpuprims::testkit::Dist dists[] = {gpuprims::testkit::Dist::uniform_pm1,
                                           gpuprims::testkit::Dist::integers_small,
                                           gpuprims::testkit::Dist::mixed_magnitude};
  std::uniform_int_distribution<int> ranks_of(1, 6), rows_of(0, 7), cols_of(1, 9);
  for (int trial = 0; trial < 600; ++trial) {
    const int nranks = ranks_of(rng);
    std::vector<std::int64_t> counts;
    std::int64_t m = 0;
    for (int r = 0; r < nranks; ++r) {
      counts.push_back(trial % 3 == 0 && r % 2 == 1 ? 0 : rows_of(rng));  // ranks without rows
      m += counts.back();
    }
    const std::int64_t cols = cols_of(rng);
    auto x = gpuprims::testkit::random_vector(static_cast<std::size_t>(m * cols), rng, dists[trial % 3]);
    // Integers tie a lot, also across ranks; now and then a NaN or a -0.0.
    if (!x.empty() && trial % 5 == 0) x[static_cast<std::size_t>(trial) % x.size()] = std::nanf("");
    if (!x.empty() && trial % 7 == 0) x[static_cast<std::size_t>(trial * 3) % x.size()] = -0.0f;
    const std::string diff = merge_vs_whole(x, cols, counts);
    ASSERT_EQ(diff, "") << "trial " << trial << ": " << nranks << " ranks, " << m << " x " << cols;
  }
}

TEST(DistCombine, TiesAcrossRanksGoToTheLowerGlobalIndex) {
  // Every entry is 1.0: the first two row-major positions win, whichever ranks hold them.
  const std::vector<float> x(12, 1.0f);
  EXPECT_EQ(merge_vs_whole(x, 3, {0, 1, 3}), "");
  const std::vector<Top2> per_rank = {
      dd::globalize_rows({{1.0f, 0, 2}, {1.0f, 1, 0}}, 2),  // rank 0 starts at row 2 (a made-up order)
      dd::globalize_rows({{1.0f, 0, 0}, {1.0f, 0, 1}}, 0),
  };
  const Top2 t = dd::merge_in_rank_order(per_rank.data(), 2, 3);
  EXPECT_EQ(t.first.row, 0);
  EXPECT_EQ(t.first.col, 0);
  EXPECT_EQ(t.second.row, 0);
  EXPECT_EQ(t.second.col, 1);
}

TEST(DistCombine, FewerThanTwoEntriesLeaveMissingOnes) {
  EXPECT_EQ(merge_vs_whole({}, 4, {0, 0, 0}), "");
  EXPECT_EQ(merge_vs_whole({7.0f}, 1, {0, 1}), "");
  const std::vector<Top2> none(
      3, Top2{{std::numeric_limits<float>::infinity(), -1, -1}, {std::numeric_limits<float>::infinity(), -1, -1}});
  const Top2 t = dd::merge_in_rank_order(none.data(), 3, 0);  // n == 0: every rank's result is empty
  EXPECT_EQ(t.first.row, -1);
  EXPECT_EQ(t.second.col, -1);
  EXPECT_TRUE(std::isinf(t.first.value) && t.first.value > 0);
}

TEST(DistCombine, NanRanksAfterInfinityButBeforeMissing) {
  const std::vector<float> x = {std::nanf(""), std::numeric_limits<float>::infinity()};
  EXPECT_EQ(merge_vs_whole(x, 1, {1, 1}), "");
  const std::vector<float> lone_nan = {std::nanf("")};
  EXPECT_EQ(merge_vs_whole(lone_nan, 1, {0, 1}), "");
}

}  // namespace
