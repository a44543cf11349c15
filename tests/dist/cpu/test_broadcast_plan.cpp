// The broadcast plan of dist::sgemm on the CPU: when B travels, in how many blocks, where the blocks
// end (aligned, covering k in order), and that it depends only on global arguments.
#include <gtest/gtest.h>

#include <gpuprims/dist.hpp>

#include <cstdint>

#include "dist/src/broadcast_plan.hpp"

namespace {

namespace dist = gpuprims::dist;
namespace dd = gpuprims::dist::detail;

const dist::BSource kBroadcast = dist::BSource::broadcast_from(1);

TEST(DistBroadcastPlan, ReplicatedOrEmptyBIsNotSent) {
  EXPECT_FALSE(dd::plan_broadcast(100, 100, 100, 1.0f, 2, dist::BSource::replicated()).broadcast);
  EXPECT_EQ(dd::plan_broadcast(100, 100, 100, 1.0f, 2, dist::BSource::replicated()).blocks(), 0);
  EXPECT_FALSE(dd::plan_broadcast(100, 0, 100, 1.0f, 2, kBroadcast).broadcast);
  EXPECT_FALSE(dd::plan_broadcast(100, 100, 0, 1.0f, 2, kBroadcast).broadcast);
}

TEST(DistBroadcastPlan, SmallProductsSendBInOneBlock) {
  const auto small = dd::plan_broadcast(512, 512, 512, 1.0f, 2, kBroadcast);
  EXPECT_TRUE(small.broadcast);
  EXPECT_FALSE(small.overlapped);
  ASSERT_EQ(small.blocks(), 1);
  EXPECT_EQ(small.bounds[0], 0);
  EXPECT_EQ(small.bounds[1], 512);
  // Large B but short k, or a single rank, or nothing to multiply (m == 0, alpha == 0): one block.
  EXPECT_FALSE(dd::plan_broadcast(8192, 65536, 512, 1.0f, 2, kBroadcast).overlapped);
  EXPECT_FALSE(dd::plan_broadcast(16384, 16384, 16384, 1.0f, 1, kBroadcast).overlapped);
  EXPECT_FALSE(dd::plan_broadcast(0, 16384, 16384, 1.0f, 2, kBroadcast).overlapped);
  EXPECT_FALSE(dd::plan_broadcast(16384, 16384, 16384, 0.0f, 2, kBroadcast).overlapped);
}

TEST(DistBroadcastPlan, LargeProductsOverlapInGrowingAlignedBlocks) {
  const auto p = dd::plan_broadcast(16384, 16384, 16384, 1.0f, 2, kBroadcast);
  ASSERT_TRUE(p.overlapped);
  const std::int64_t want[] = {0, 1024, 2048, 4096, 8192, 16384};
  ASSERT_EQ(p.bounds.size(), std::size(want));
  for (std::size_t i = 0; i < std::size(want); ++i) EXPECT_EQ(p.bounds[i], want[i]) << i;
  // The smallest shape that overlaps: B of 64 MiB, k = 1024.
  EXPECT_TRUE(dd::plan_broadcast(1, 16384, 1024, 1.0f, 2, kBroadcast).overlapped);
  EXPECT_FALSE(dd::plan_broadcast(1, 16383, 1024, 1.0f, 2, kBroadcast).overlapped);
  EXPECT_FALSE(dd::plan_broadcast(1, 65536, 1023, 1.0f, 2, kBroadcast).overlapped);
}

TEST(DistBroadcastPlan, BlocksCoverKInOrderAndStayAligned) {
  for (std::int64_t k = dd::kOverlapMinK; k <= 70000; k += 997) {
    const auto p = dd::plan_broadcast(1000, 65536, k, 2.0f, 3, kBroadcast);
    ASSERT_TRUE(p.overlapped) << k;
    ASSERT_EQ(p.blocks(), 5) << k;
    EXPECT_EQ(p.bounds.front(), 0);
    EXPECT_EQ(p.bounds.back(), k);
    for (int b = 0; b < p.blocks(); ++b) {
      EXPECT_LT(p.bounds[b], p.bounds[b + 1]) << "k=" << k << " block " << b;
      EXPECT_EQ(p.bounds[b] % dd::kBlockAlign, 0) << "k=" << k << " block " << b;
    }
    // The first block (the only broadcast not hidden behind a GEMM) is at most k/16.
    EXPECT_LE(p.bounds[1], k / 16);
  }
}

TEST(DistBroadcastPlan, BlockSizesIncludeThePaddingBetweenRows) {
  dd::BroadcastPlan p;
  p.broadcast = true;
  p.bounds = {0, 64, 200};
  // Block 0 ends with the padding of its last row (row 63), so block 1 starts at row 64, column 0,
  // and the two together are the whole broadcast: (200 - 1) * 16 + 10 floats, padding included
  // (a rank's B then equals the root's between rows too).
  EXPECT_EQ(dd::block_floats(p, 0, 10, 16), static_cast<std::size_t>(64 * 16));
  EXPECT_EQ(dd::block_floats(p, 1, 10, 16), static_cast<std::size_t>(135 * 16 + 10));
  EXPECT_EQ(dd::block_floats(p, 0, 10, 16) + dd::block_floats(p, 1, 10, 16), static_cast<std::size_t>(199 * 16 + 10));
  // Past 2^31 floats in one block.
  p.bounds = {0, std::int64_t{1} << 20};
  EXPECT_EQ(dd::block_floats(p, 0, 4096, 4096), static_cast<std::size_t>(std::int64_t{1} << 32));
}

}  // namespace
