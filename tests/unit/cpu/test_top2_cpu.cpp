// The top-2 combine on the CPU (orderable keys, NaN last, -0 == +0, ties by index, insert, merge,
// missing entries) and reduce::top2_argmin's argument validation.
#include <gtest/gtest.h>

#include <gpuprims/reduce.hpp>

#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <string>
#include <utility>

#include "common/device/top2_last_block_merge.cuh"
#include "common/device/top2_order.hpp"
#include "reduce/src/top2_plan.hpp"
#include "support/gpu.hpp"

namespace {

namespace d = gpuprims::detail;
using gpuprims::Status;

TEST(Top2Op, OrderKeyIsMonotoneWithNanLastAndSignedZerosEqual) {
  const float inf = std::numeric_limits<float>::infinity();
  const float ordered[] = {-inf, -3.4e38f, -1.0f, -1e-30f, -1e-45f, 0.0f, 1e-45f, 1e-30f, 1.0f, 3.4e38f, inf};
  for (std::size_t i = 0; i + 1 < std::size(ordered); ++i)
    EXPECT_LT(d::order_key(ordered[i]), d::order_key(ordered[i + 1])) << ordered[i];
  EXPECT_EQ(d::order_key(-0.0f), d::order_key(0.0f));
  EXPECT_GT(d::order_key(std::nanf("")), d::order_key(inf));
  EXPECT_EQ(d::order_key(std::nanf("")), d::order_key(-std::nanf("")));
}

TEST(Top2Op, InsertKeepsTheTwoSmallestWithTiesToTheLowerIndex) {
  d::Top2Partial p = d::Top2Partial::empty();
  p.insert(5.0f, 10);
  p.insert(5.0f, 3);  // tie, lower index wins
  p.insert(7.0f, 1);
  p.insert(std::nanf(""), 0);
  EXPECT_EQ(p.i0, 3);
  EXPECT_EQ(p.i1, 10);
  p.insert(-1.0f, 99);
  EXPECT_EQ(p.i0, 99);
  EXPECT_EQ(p.i1, 3);
}

TEST(Top2Op, MissingEntriesBecomeInfinityAndMinusOne) {
  d::Top2Partial p = d::Top2Partial::empty();
  p.insert(2.0f, 7);
  const gpuprims::Top2 t = d::to_top2(p, 5);
  EXPECT_EQ(t.first.value, 2.0f);
  EXPECT_EQ(t.first.row, 1);
  EXPECT_EQ(t.first.col, 2);
  EXPECT_TRUE(std::isinf(t.second.value) && t.second.value > 0);
  EXPECT_EQ(t.second.row, -1);
  EXPECT_EQ(t.second.col, -1);
  // A NaN entry is still an entry: it is reported, not treated as missing.
  d::Top2Partial q = d::Top2Partial::empty();
  q.insert(std::nanf(""), 0);
  EXPECT_TRUE(std::isnan(d::to_top2(q, 4).first.value));
  EXPECT_EQ(d::to_top2(q, 4).first.row, 0);
}

// The result type is written whole: no padding (`reserved` fills what was 4 bytes after `value`), and
// the conversion the kernels use writes every member, `reserved` as 0, over whatever was there.
TEST(Top2Layout, NoPaddingAndEveryByteWritten) {
  static_assert(sizeof(gpuprims::MinEntry) == 24 && sizeof(gpuprims::Top2) == 48);
  EXPECT_EQ(offsetof(gpuprims::MinEntry, value), 0u);
  EXPECT_EQ(offsetof(gpuprims::MinEntry, reserved), 4u);
  EXPECT_EQ(offsetof(gpuprims::MinEntry, row), 8u);
  EXPECT_EQ(offsetof(gpuprims::MinEntry, col), 16u);
  EXPECT_EQ(offsetof(gpuprims::Top2, second), 24u);
  d::Top2Partial p = d::Top2Partial::empty();
  p.insert(-3.0f, 11);
  for (const d::Top2Partial& partial : {p, d::Top2Partial::empty()}) {
    gpuprims::Top2 t;
    std::memset(&t, 0xA5, sizeof t);
    t = d::to_top2(partial, 4);
    EXPECT_EQ(t.first.reserved, 0u);
    EXPECT_EQ(t.second.reserved, 0u);
    // Equal members, equal bytes: the aggregate spelling {value, row, col} still works.
    const gpuprims::Top2 same{{t.first.value, t.first.row, t.first.col}, {t.second.value, t.second.row, t.second.col}};
    // NOLINTNEXTLINE(bugprone-suspicious-memory-comparison): every byte, `reserved` included, is the point
    EXPECT_EQ(0, std::memcmp(&t, &same, sizeof t));
  }
  EXPECT_EQ(d::to_top2(p, 4).first.row, 2);
  EXPECT_EQ(d::to_top2(p, 4).first.col, 3);
}

TEST(Top2Op, MergeOfPartials) {
  d::Top2Partial a = d::Top2Partial::empty(), b = d::Top2Partial::empty();
  a.insert(1.0f, 4);
  a.insert(3.0f, 5);
  b.insert(2.0f, 0);
  b.insert(1.0f, 9);
  const d::Top2Partial r = d::Top2Merge{}(a, b);
  EXPECT_EQ(r.i0, 4);  // 1.0 @ 4 before 1.0 @ 9
  EXPECT_EQ(r.i1, 9);
  const d::Top2Partial e = d::Top2Merge{}(d::Top2Partial::empty(), a);
  EXPECT_EQ(e.i0, 4);
  EXPECT_EQ(e.i1, 5);
}

TEST(Top2ReduceValidation, BadInputReturnsStatus) {
  auto* x = reinterpret_cast<const float*>(0x100000);
  auto* out = reinterpret_cast<gpuprims::Top2*>(0x200000);
  namespace r = gpuprims::reduce;
  EXPECT_STATUS(Status::invalid_argument, r::top2_argmin(x, -1, 4, 4, out));
  EXPECT_STATUS(Status::invalid_argument, r::top2_argmin(x, 4, -1, 4, out));
  EXPECT_STATUS(Status::invalid_argument, r::top2_argmin(x, 4, 4, 3, out));
  EXPECT_STATUS(Status::invalid_argument, r::top2_argmin(nullptr, 4, 4, 4, out));
  EXPECT_STATUS(Status::invalid_argument, r::top2_argmin(x, 4, 4, 4, nullptr));
  EXPECT_STATUS(Status::misaligned_pointer, r::top2_argmin(reinterpret_cast<const float*>(0x100002), 4, 4, 4, out));
  EXPECT_STATUS(Status::misaligned_pointer, r::top2_argmin(x, 4, 4, 4, reinterpret_cast<gpuprims::Top2*>(0x200004)));
  EXPECT_STATUS(Status::invalid_argument, r::top2_argmin(x, 4, 4, 4, out, nullptr, 1024));
  EXPECT_STATUS(Status::invalid_argument, r::top2_argmin(x, 4, 4, 4, out, reinterpret_cast<void*>(0x300000),
                                                         r::top2_argmin_workspace_bytes(4, 4) - 1));
  EXPECT_STATUS(Status::invalid_argument, r::top2_argmin(x, -3, out));
  // A valid call with no device (CPU test binaries hide every device).
  ASSERT_FALSE(gpuprims::test::gpu_present()) << "CPU test binaries hide every device (see test_main.cpp)";
  EXPECT_STATUS(Status::unsupported, r::top2_argmin(x, 4, 4, 4, out));
}

// The query against what a launch uses: top2_argmin launches top2_blocks(rows, cols, sm_count) blocks,
// one partial each in the last-block merge's workspace, on whatever GPU it runs. On GPUs from 1 SM to
// more than the block cap serves, the grid fits the queried bytes; an input with entries gets a block
// at least, an empty one none. And the query is O(blocks), not O(entries): past some size it stops
// growing.
TEST(Top2ReduceLaunchMath, TheQueryCoversTheGridOnEveryGpu) {
  const std::pair<std::int64_t, std::int64_t> shapes[] = {{0, 10},
                                                          {10, 0},
                                                          {1, 1},
                                                          {1, 4095},
                                                          {1, 4097},
                                                          {3, 5},
                                                          {100, 37},
                                                          {1, 1000000},
                                                          {1 << 20, 1 << 12},
                                                          {65539, 32773},
                                                          {1, std::int64_t{1} << 40}};
  for (const auto& [rows, cols] : shapes) {
    SCOPED_TRACE(std::to_string(rows) + " x " + std::to_string(cols));
    const std::size_t query = gpuprims::reduce::top2_argmin_workspace_bytes(rows, cols);
    for (int sms = 1; sms <= 4096; sms = sms < 300 ? sms + 1 : sms * 2) {
      const std::int64_t blocks = d::top2_blocks(rows, cols, sms);
      ASSERT_EQ(blocks > 0, rows * cols > 0) << sms << " SMs";
      ASSERT_LE(d::Top2LastBlockMerge::workspace_bytes(blocks), query) << sms << " SMs: " << blocks << " blocks";
    }
  }
  const std::size_t big = gpuprims::reduce::top2_argmin_workspace_bytes(1 << 20, 1 << 12);
  EXPECT_EQ(big, gpuprims::reduce::top2_argmin_workspace_bytes(1 << 21, 1 << 12));
  EXPECT_EQ(big, gpuprims::reduce::top2_argmin_workspace_bytes(1, std::int64_t{1} << 40));
}

}  // namespace
