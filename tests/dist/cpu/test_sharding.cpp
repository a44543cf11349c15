// Row sharding on the CPU: the even split (uneven remainders, ranks with zero rows, huge m), explicit
// per-rank counts, and every argument they reject. The ranges of all ranks must tile [0, m) in rank
// order whatever the split.
#include <gtest/gtest.h>

#include <gpuprims/dist.hpp>

#include <cstdint>
#include <limits>
#include <vector>

#include "support/gpu.hpp"

namespace {

using gpuprims::Status;
namespace dist = gpuprims::dist;

// Every rank's range, in rank order; fails the test when a call does not succeed.
std::vector<dist::RowRange> all_ranges(std::int64_t m, const dist::RowSplit& split, int nranks) {
  std::vector<dist::RowRange> out(static_cast<std::size_t>(nranks));
  for (int r = 0; r < nranks; ++r) EXPECT_STATUS(Status::success, dist::row_range(m, split, nranks, r, &out[r]));
  return out;
}

void expect_tiles(std::int64_t m, const std::vector<dist::RowRange>& ranges) {
  std::int64_t next = 0;
  for (std::size_t r = 0; r < ranges.size(); ++r) {
    EXPECT_EQ(ranges[r].begin, next) << "rank " << r;
    EXPECT_GE(ranges[r].count, 0) << "rank " << r;
    next += ranges[r].count;
  }
  EXPECT_EQ(next, m);
}

TEST(DistSharding, EvenSplitGivesTheRemainderToTheFirstRanks) {
  const auto r = all_ranges(10, dist::RowSplit::even(), 4);  // 3, 3, 2, 2
  const std::int64_t counts[] = {3, 3, 2, 2};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(r[i].count, counts[i]) << i;
  expect_tiles(10, r);
  dist::RowRange one;
  ASSERT_STATUS(Status::success, dist::even_row_range(10, 4, 2, &one));
  EXPECT_EQ(one.begin, 6);
  EXPECT_EQ(one.count, 2);
}

TEST(DistSharding, EvenSplitOfFewerRowsThanRanksLeavesRanksEmpty) {
  const auto r = all_ranges(3, dist::RowSplit::even(), 5);  // 1, 1, 1, 0, 0
  expect_tiles(3, r);
  EXPECT_EQ(r[2].count, 1);
  EXPECT_EQ(r[3].count, 0);
  EXPECT_EQ(r[3].begin, 3);
  EXPECT_EQ(r[4].begin, 3);
  const auto none = all_ranges(0, dist::RowSplit::even(), 3);
  expect_tiles(0, none);
  for (const auto& x : none) EXPECT_EQ(x.count, 0);
}

TEST(DistSharding, EvenSplitOfEveryMOverEveryRankCountTiles) {
  for (int nranks = 1; nranks <= 9; ++nranks)
    for (std::int64_t m = 0; m <= 40; ++m) {
      SCOPED_TRACE("m=" + std::to_string(m) + " nranks=" + std::to_string(nranks));
      const auto r = all_ranges(m, dist::RowSplit::even(), nranks);
      expect_tiles(m, r);
      for (const auto& x : r) EXPECT_TRUE(x.count == m / nranks || x.count == m / nranks + 1);
    }
}

TEST(DistSharding, HugeMDoesNotOverflow) {
  const std::int64_t m = std::numeric_limits<std::int64_t>::max();
  for (int nranks : {1, 2, 3, 7, 1000}) {
    const auto r = all_ranges(m, dist::RowSplit::even(), nranks);
    expect_tiles(m, r);
  }
  const std::int64_t big = (std::int64_t{1} << 40) + 12345;
  const auto r = all_ranges(big, dist::RowSplit::even(), 3);
  expect_tiles(big, r);
  EXPECT_GT(r[2].begin, std::int64_t{1} << 31);
}

TEST(DistSharding, ExplicitCountsIncludingZeroRowRanks) {
  const std::int64_t counts[] = {0, 5, 0, 2, 0};
  const auto r = all_ranges(7, dist::RowSplit::explicit_counts(counts, 5), 5);
  expect_tiles(7, r);
  EXPECT_EQ(r[1].begin, 0);
  EXPECT_EQ(r[1].count, 5);
  EXPECT_EQ(r[3].begin, 5);
  EXPECT_EQ(r[4].begin, 7);
  EXPECT_EQ(r[4].count, 0);
  const std::int64_t huge[] = {std::int64_t{1} << 62, std::int64_t{1} << 61, 3};
  const std::int64_t m = (std::int64_t{1} << 62) + (std::int64_t{1} << 61) + 3;
  expect_tiles(m, all_ranges(m, dist::RowSplit::explicit_counts(huge, 3), 3));
}

TEST(DistSharding, RejectsBadArguments) {
  dist::RowRange out;
  EXPECT_STATUS(Status::invalid_argument, dist::even_row_range(-1, 2, 0, &out));
  EXPECT_STATUS(Status::invalid_argument, dist::even_row_range(10, 0, 0, &out));
  EXPECT_STATUS(Status::invalid_argument, dist::even_row_range(10, 2, 2, &out));
  EXPECT_STATUS(Status::invalid_argument, dist::even_row_range(10, 2, -1, &out));
  EXPECT_STATUS(Status::invalid_argument, dist::even_row_range(10, 2, 0, nullptr));
  const std::int64_t counts[] = {4, 6};
  EXPECT_STATUS(Status::invalid_argument, dist::row_range(10, dist::RowSplit::explicit_counts(counts, 2), 3, 0, &out))
      << "array length != rank count";
  EXPECT_STATUS(Status::invalid_argument, dist::row_range(11, dist::RowSplit::explicit_counts(counts, 2), 2, 0, &out))
      << "counts do not sum to m";
  EXPECT_STATUS(Status::invalid_argument, dist::row_range(9, dist::RowSplit::explicit_counts(counts, 2), 2, 0, &out))
      << "counts pass m";
  const std::int64_t negative[] = {12, -2};
  EXPECT_STATUS(Status::invalid_argument,
                dist::row_range(10, dist::RowSplit::explicit_counts(negative, 2), 2, 0, &out));
  const std::int64_t overflow[] = {std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::max()};
  EXPECT_STATUS(Status::invalid_argument, dist::row_range(std::numeric_limits<std::int64_t>::max(),
                                                          dist::RowSplit::explicit_counts(overflow, 2), 2, 1, &out));
  // Every rank sees the same verdict: a bad entry after the caller's own is still found.
  const std::int64_t bad_last[] = {3, 3, -1};
  EXPECT_STATUS(Status::invalid_argument, dist::row_range(5, dist::RowSplit::explicit_counts(bad_last, 3), 3, 0, &out));
}

}  // namespace
