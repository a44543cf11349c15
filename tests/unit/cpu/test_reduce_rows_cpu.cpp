// The row-wise reductions on the host side: the regime choice of rows/plan.hpp (every plan's
// preconditions hold: lanes, grids within CUDA's limits, splits that cover the row with no empty
// one, workspace), the workspace query against every device's plan, the float-sum chain lengths, and
// argument validation, which happens before any CUDA call (with every GPU hidden a valid call
// answers "unsupported", a bad one its own Status).
#include <gtest/gtest.h>

#include <gpuprims/reduce_rows.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "reduce/src/rows/plan.hpp"
#include "support/gpu.hpp"

namespace {

using gpuprims::Status;
using gpuprims::reduce::Operator;
namespace rd = gpuprims::reduce::detail;
using Tuning = rd::RowTuning;

constexpr std::int64_t kMaxGrid = 0x7fffffff;

// Shapes from every regime and their edges.
std::vector<std::pair<std::int64_t, std::int64_t>> shapes() {
  std::vector<std::pair<std::int64_t, std::int64_t>> s;
  const std::int64_t rows[] = {1,
                               2,
                               3,
                               7,
                               31,
                               32,
                               33,
                               100,
                               131,
                               1000,
                               1055,
                               1056,
                               1057,
                               4095,
                               4096,
                               4097,
                               65537,
                               std::int64_t{1} << 20,
                               (std::int64_t{1} << 31) + 5,
                               std::int64_t{1} << 40};
  const std::int64_t cols[] = {0,
                               1,
                               2,
                               3,
                               4,
                               5,
                               8,
                               9,
                               31,
                               32,
                               33,
                               127,
                               128,
                               255,
                               256,
                               257,
                               1000,
                               4095,
                               4096,
                               8191,
                               8192,
                               8193,
                               65536,
                               1 << 20,
                               3000017,
                               std::int64_t{1} << 28,
                               std::int64_t{1} << 33};
  for (std::int64_t r : rows)
    for (std::int64_t c : cols)
      if (r <= (std::int64_t{1} << 50) / (c > 0 ? c : 1)) s.emplace_back(r, c);
  return s;
}

const int kSmCounts[] = {0, 1, 2, 7, 16, 80, 108, 132, 144, 511, 512, 513, 4096};
const std::size_t kAccBytes[] = {4, 8, 16, 24};

void expect_plan_valid(const rd::RowPlan& p, std::int64_t rows, std::int64_t cols, std::size_t acc) {
  SCOPED_TRACE(::testing::Message() << rows << " x " << cols << " acc " << acc);
  switch (p.path) {
    case rd::RowPath::none: ADD_FAILURE() << "rows > 0 must be planned"; break;
    case rd::RowPath::lane_group:
      EXPECT_LE(cols, 512);  // 4-byte elements (the default): 32 lanes of four vectors of four
      EXPECT_TRUE(p.group_vectors || cols <= Tuning::kGroupMaxCols);
      EXPECT_TRUE(p.lanes == 1 || p.lanes == 2 || p.lanes == 4 || p.lanes == 8 || p.lanes == 16 || p.lanes == 32);
      EXPECT_TRUE(p.lanes == 32 || p.lanes * (p.group_vectors ? 16 : Tuning::kGroupItemsPerLane) >= cols);
      EXPECT_TRUE(!p.group_vectors || (cols > 16 && p.lanes >= 4)) << "4-byte sums (the default): past 64 bytes";
      EXPECT_GE(p.grid, 1);
      EXPECT_LE(p.grid, kMaxGrid);
      EXPECT_EQ(p.workspace, 0u);
      break;
    case rd::RowPath::block_per_row:
      EXPECT_GT(cols, 512);
      if (cols >= Tuning::kLongCols) {  // sums of 4-byte elements (the default): 1024 from 64 KiB rows
        EXPECT_EQ(p.threads, 1024);
      } else {  // a power of two from 64 to 512 leaving each thread 48 bytes, 12 columns, or more (64: shorter rows)
        EXPECT_TRUE(p.threads == 64 || p.threads == 128 || p.threads == 256 || p.threads == 512) << p.threads;
        EXPECT_TRUE(p.threads == 64 || cols >= std::int64_t{p.threads} * 12) << p.threads;
        EXPECT_TRUE(p.threads == 512 || cols < std::int64_t{p.threads} * 24) << p.threads;
      }
      EXPECT_GE(p.grid, 1);
      EXPECT_LE(p.grid, rows);
      EXPECT_LE(p.grid, kMaxGrid);
      EXPECT_EQ(p.workspace, 0u);
      break;
    case rd::RowPath::split_row:
      EXPECT_GT(cols, 512);
      EXPECT_GE(p.splits, 4);  // fewer splits would not pay for the second launch (RowTuning::kMinSplits)
      EXPECT_LE(p.splits, Tuning::kMaxSplits);
      EXPECT_EQ(p.split_cols % 4, 0);
      EXPECT_LT((p.splits - 1) * p.split_cols, cols) << "an empty split";
      EXPECT_GE(p.splits * p.split_cols, cols) << "columns left out";
      EXPECT_GE(p.split_cols, Tuning::kMinColsPerSplit);
      EXPECT_EQ(p.grid, rows * p.splits);
      EXPECT_LE(p.grid, kMaxGrid);
      EXPECT_LE(rows, kMaxGrid);  // the combine's grid
      EXPECT_GE(p.workspace, static_cast<std::size_t>(rows * p.splits) * acc);
      EXPECT_EQ(p.workspace % 256, 0u);
      break;
  }
}

TEST(ReduceRowsCpu, EveryPlanMeetsItsPathsPreconditions) {
  for (const auto& [rows, cols] : shapes())
    for (int sm : kSmCounts)
      for (std::size_t acc : kAccBytes) expect_plan_valid(rd::make_row_plan(rows, cols, acc, sm), rows, cols, acc);
  for (int sm : kSmCounts) EXPECT_EQ(rd::RowPath::none, rd::make_row_plan(0, 100, 4, sm).path);
}

TEST(ReduceRowsCpu, RegimesGoWhereTheIssueSays) {
  const int sm = 132;
  // Short rows, huge x 1 and cols == 0: a lane group per row.
  EXPECT_EQ(rd::RowPath::lane_group, rd::make_row_plan(1 << 20, 32, 4, sm).path);
  EXPECT_EQ(rd::RowPath::lane_group, rd::make_row_plan(std::int64_t{1} << 28, 1, 4, sm).path);
  EXPECT_EQ(1, rd::make_row_plan(std::int64_t{1} << 28, 1, 4, sm).lanes);
  EXPECT_EQ(16, rd::make_row_plan(1000, 256, 4, sm).lanes);  // four vectors a lane
  EXPECT_EQ(rd::RowPath::lane_group, rd::make_row_plan(5, 0, 4, sm).path);
  // Lane groups of 2- and 4-byte elements read vectors past 32 bytes (8 floats, 16 halves), about four a
  // lane, down to one lane; sums of 4-byte elements past 64 bytes (16) with at least four lanes (a lane
  // per element of a vector); the per-row top-2 past 64 bytes. Up to 32 lanes of four vectors (1024
  // halves, 512 floats). Other rows (8-byte elements up to 256 columns) are read one element at a time,
  // four a lane.
  using rd::RowWork;
  for (std::int64_t cols : {0,  1,   4,   5,   8,   9,   16,  17,  32,  33,  40,  48,   63,   64,
                            65, 100, 128, 255, 256, 257, 384, 511, 512, 513, 768, 1023, 1024, 1025}) {
    SCOPED_TRACE(cols);
    for (std::size_t elem : {2, 4, 8}) {
      for (RowWork work : {RowWork::sum, RowWork::select, RowWork::top2}) {
        if (work == RowWork::top2 && elem != 4) continue;
        const std::int64_t per_vec = 16 / static_cast<std::int64_t>(elem);
        const rd::RowPlan p = rd::make_row_plan(1 << 16, cols, 8, sm, work, elem);
        const bool vectors = elem != 8;
        const bool group = cols <= (vectors ? std::int64_t{128} * per_vec : 256);
        const bool sum4 = work == RowWork::sum && elem == 4;
        const std::int64_t min_bytes = sum4 || work == RowWork::top2 ? 64 : 32;
        ASSERT_EQ(group ? rd::RowPath::lane_group : rd::RowPath::block_per_row, p.path) << elem;
        if (!group) continue;
        EXPECT_EQ(vectors && cols * static_cast<std::int64_t>(elem) > min_bytes, p.group_vectors) << elem;
        if (p.group_vectors) {
          EXPECT_EQ(std::max(sum4 ? 4 : 1, rd::group_lanes(cols, 4 * per_vec)), p.lanes) << elem;
        } else {
          EXPECT_EQ(rd::group_lanes(cols, 4), p.lanes) << elem;
        }
      }
    }
  }
  // Some of those by hand: float argmin / min / max (one at a time, 2 lanes, at 5-8 columns; vectors,
  // 1 lane at 9-16, 2 to 32, 4 to 64, 8 to 128, 16 to 256, 32 beyond), float and int32 sums (one at a
  // time to 16; 4 lanes to 64), the top-2 (one at a time to 16, 2 lanes at 17-32), halves (1 lane at
  // 17-32 columns, 2 to 64, ..., 32 at 1024, for every operator).
  const auto lanes = [&](std::int64_t cols, RowWork work, std::size_t elem) {
    const rd::RowPlan p = rd::make_row_plan(1 << 16, cols, 4, sm, work, elem);
    return p.group_vectors ? p.lanes : -p.lanes;  // negative: one element at a time
  };
  EXPECT_EQ(-2, lanes(8, RowWork::select, 4));
  EXPECT_EQ(1, lanes(9, RowWork::select, 4));
  EXPECT_EQ(1, lanes(16, RowWork::select, 4));
  EXPECT_EQ(2, lanes(17, RowWork::select, 4));
  EXPECT_EQ(2, lanes(32, RowWork::select, 4));
  EXPECT_EQ(4, lanes(64, RowWork::select, 4));
  EXPECT_EQ(8, lanes(65, RowWork::select, 4));
  EXPECT_EQ(32, lanes(257, RowWork::select, 4));
  EXPECT_EQ(-4, lanes(16, RowWork::sum, 4));
  EXPECT_EQ(4, lanes(17, RowWork::sum, 4));
  EXPECT_EQ(4, lanes(64, RowWork::sum, 4));
  EXPECT_EQ(8, lanes(65, RowWork::sum, 4));
  EXPECT_EQ(-4, lanes(16, RowWork::top2, 4));
  EXPECT_EQ(2, lanes(17, RowWork::top2, 4));
  EXPECT_EQ(2, lanes(32, RowWork::top2, 4));
  for (RowWork work : {RowWork::sum, RowWork::select}) {
    EXPECT_EQ(-4, lanes(16, work, 2));
    EXPECT_EQ(1, lanes(17, work, 2));
    EXPECT_EQ(1, lanes(32, work, 2));
    EXPECT_EQ(2, lanes(33, work, 2));
    EXPECT_EQ(8, lanes(256, work, 2));
    EXPECT_EQ(16, lanes(384, work, 2));
    EXPECT_EQ(32, lanes(1024, work, 2));
  }
  // Many medium or long rows: a block per row.
  EXPECT_EQ(rd::RowPath::block_per_row, rd::make_row_plan(1 << 16, 4096, 4, sm).path);
  EXPECT_EQ(rd::RowPath::block_per_row, rd::make_row_plan(1 << 12, 65536, 4, sm).path);
  EXPECT_EQ(rd::RowPath::block_per_row, rd::make_row_plan(7, 1000, 4, sm).path);  // too short to split
  // The operators other than sums: long rows in 512-thread blocks (1024 from 2^17 columns), medium
  // ones in 256-thread blocks, rows under 3072 columns in 128 or 64 threads (12 columns or more each).
  // Sums by bytes: 1024 threads from rows of 64 KiB, else 48 bytes a thread or more, up to 512.
  // Split rows: 256-thread blocks.
  constexpr RowWork kSum = RowWork::sum, kSelect = RowWork::select;
  EXPECT_EQ(1024, rd::make_row_plan(1 << 12, 65536, 4, sm).threads);
  EXPECT_EQ(512, rd::make_row_plan(1 << 12, 65536, 8, sm, kSelect).threads);
  EXPECT_EQ(512, rd::make_row_plan(1 << 12, 65536, 32, sm, RowWork::top2).threads);
  EXPECT_EQ(1024, rd::make_row_plan(1201, 16411, 4, sm).threads);
  EXPECT_EQ(512, rd::make_row_plan(1201, 16411, 8, sm, kSelect).threads);
  EXPECT_EQ(256, rd::make_row_plan(1201, 16383, 8, sm, kSelect).threads);
  EXPECT_EQ(1024, rd::make_row_plan(1024, 1 << 17, 4, sm).threads);
  EXPECT_EQ(1024, rd::make_row_plan(1024, 1 << 17, 8, sm, kSelect).threads);
  // Sums: the 64 KiB edge for 2-, 4- and 8-byte elements.
  EXPECT_EQ(1024, rd::make_row_plan(1 << 13, 16384, 4, sm, kSum, 4).threads);
  EXPECT_EQ(512, rd::make_row_plan(1 << 13, 16383, 4, sm, kSum, 4).threads);
  EXPECT_EQ(1024, rd::make_row_plan(1 << 13, 8192, 8, sm, kSum, 8).threads);
  EXPECT_EQ(512, rd::make_row_plan(1 << 13, 8191, 8, sm, kSum, 8).threads);
  EXPECT_EQ(512, rd::make_row_plan(1 << 13, 16384, 4, sm, kSum, 2).threads);  // 32 KiB of halves
  EXPECT_EQ(512, rd::make_row_plan(1 << 13, 32767, 4, sm, kSum, 2).threads);
  EXPECT_EQ(1024, rd::make_row_plan(1 << 13, 32768, 4, sm, kSum, 2).threads);
  // Sums: the 48-byte edges below it (run JW: float rows of 14000 columns, 56000 bytes, took 8% more
  // time in 1024-thread blocks than in 512).
  EXPECT_EQ(512, rd::make_row_plan(1 << 13, 14000, 4, sm, kSum, 4).threads);
  EXPECT_EQ(512, rd::make_row_plan(1 << 13, 6144, 4, sm, kSum, 4).threads);
  EXPECT_EQ(256, rd::make_row_plan(1 << 13, 6143, 4, sm, kSum, 4).threads);
  EXPECT_EQ(256, rd::make_row_plan(1 << 16, 3072, 4, sm).threads);
  EXPECT_EQ(128, rd::make_row_plan(1 << 16, 3071, 4, sm).threads);
  EXPECT_EQ(128, rd::make_row_plan(1 << 16, 1536, 4, sm).threads);
  EXPECT_EQ(64, rd::make_row_plan(1 << 16, 1535, 4, sm).threads);
  EXPECT_EQ(512, rd::make_row_plan(1 << 16, 3072, 8, sm, kSum, 8).threads);
  EXPECT_EQ(256, rd::make_row_plan(1 << 16, 3071, 8, sm, kSum, 8).threads);
  EXPECT_EQ(256, rd::make_row_plan(1 << 16, 1536, 8, sm, kSum, 8).threads);
  EXPECT_EQ(128, rd::make_row_plan(1 << 16, 1535, 8, sm, kSum, 8).threads);
  EXPECT_EQ(128, rd::make_row_plan(1 << 18, 768, 8, sm, kSum, 8).threads);
  EXPECT_EQ(64, rd::make_row_plan(1 << 18, 767, 8, sm, kSum, 8).threads);
  EXPECT_EQ(64, rd::make_row_plan(1 << 18, 257, 8, sm, kSum, 8).threads);
  EXPECT_EQ(512, rd::make_row_plan(1 << 16, 12288, 4, sm, kSum, 2).threads);
  EXPECT_EQ(256, rd::make_row_plan(1 << 16, 12287, 4, sm, kSum, 2).threads);
  EXPECT_EQ(64, rd::make_row_plan(1 << 18, 1025, 4, sm, kSum, 2).threads);
  // Select on 8-byte elements keeps 12 columns a thread: 64 threads below 1536 columns.
  EXPECT_EQ(64, rd::make_row_plan(1 << 16, 1535, 8, sm, kSelect, 8).threads);
  EXPECT_EQ(128, rd::make_row_plan(1 << 16, 1536, 8, sm, kSelect, 8).threads);
  EXPECT_EQ(256, rd::make_row_plan(1 << 16, 12000, 8, sm, kSelect, 8).threads);
  // Rows too few for a block each but too many for four splits each: a 1024-thread block per row.
  EXPECT_EQ(rd::RowPath::block_per_row, rd::make_row_plan(512, 1 << 18, 4, sm).path);
  EXPECT_EQ(1024, rd::make_row_plan(512, 1 << 18, 4, sm).threads);
  EXPECT_EQ(rd::RowPath::block_per_row, rd::make_row_plan(265, 1 << 20, 4, sm).path);
  EXPECT_EQ(rd::RowPath::split_row, rd::make_row_plan(264, 1 << 20, 4, sm).path);
  // The per-row top-2 keeps 16 columns a thread: 64 threads below 2048 columns, 128 below 4096.
  constexpr RowWork kTop2 = RowWork::top2;
  EXPECT_EQ(64, rd::make_row_plan(1 << 16, 2047, 32, sm, kTop2).threads);
  EXPECT_EQ(128, rd::make_row_plan(1 << 16, 2048, 32, sm, kTop2).threads);
  EXPECT_EQ(128, rd::make_row_plan(1 << 16, 4095, 32, sm, kTop2).threads);
  EXPECT_EQ(256, rd::make_row_plan(1 << 16, 4096, 32, sm, kTop2).threads);
  // Rows of 2-byte elements keep three vectors a thread (as sums do by their bytes): 64 threads below
  // 3072 columns, 128 below 6144.
  EXPECT_EQ(24, rd::row_cols_per_thread(RowWork::select, 2));
  EXPECT_EQ(12, rd::row_cols_per_thread(RowWork::select, 4));
  EXPECT_EQ(12, rd::row_cols_per_thread(RowWork::select, 8));
  EXPECT_EQ(16, rd::row_cols_per_thread(RowWork::top2, 4));
  for (RowWork work : {RowWork::sum, RowWork::select}) {
    EXPECT_EQ(64, rd::make_row_plan(1 << 16, 3071, 4, sm, work, 2).threads);
    EXPECT_EQ(128, rd::make_row_plan(1 << 16, 3072, 4, sm, work, 2).threads);
    EXPECT_EQ(128, rd::make_row_plan(1 << 16, 6143, 4, sm, work, 2).threads);
    EXPECT_EQ(256, rd::make_row_plan(1 << 16, 6144, 4, sm, work, 2).threads);
  }
  EXPECT_EQ(64, rd::make_row_plan(1 << 18, 513, 4, sm).threads);
  EXPECT_EQ(256, rd::make_row_plan(256, 1 << 20, 4, sm).threads);  // split rows
  // Few long rows: split.
  const rd::RowPlan one = rd::make_row_plan(1, std::int64_t{1} << 28, 4, sm);
  EXPECT_EQ(rd::RowPath::split_row, one.path);
  EXPECT_GE(one.splits, sm);
  EXPECT_EQ(rd::RowPath::split_row, rd::make_row_plan(1, 3000017, 4, sm).path);
  EXPECT_EQ(rd::RowPath::split_row, rd::make_row_plan(256, 1 << 20, 4, sm).path);
}

// The query plans for the largest device, so it holds what the plan of any device uses.
TEST(ReduceRowsCpu, WorkspaceQueryHoldsEveryDevicesPlan) {
  using gpuprims::reduce::row_top2_workspace_bytes;
  using gpuprims::reduce::row_workspace_bytes;
  for (const auto& [rows, cols] : shapes()) {
    SCOPED_TRACE(::testing::Message() << rows << " x " << cols);
    const std::size_t sizes[][2] = {
        {row_workspace_bytes<float>(Operator::sum, rows, cols), 4},
        {row_workspace_bytes<double>(Operator::sum, rows, cols), 8},
        {row_workspace_bytes<std::int32_t>(Operator::sum, rows, cols), 8},
        {row_workspace_bytes<__half>(Operator::min, rows, cols), 4},
        {row_workspace_bytes<std::int64_t>(Operator::max, rows, cols), 8},
        {row_workspace_bytes<float>(Operator::argmin, rows, cols), 16},
        {row_workspace_bytes<double>(Operator::argmax, rows, cols), 24},
        {row_top2_workspace_bytes(rows, cols), 24},
    };
    for (const auto& [query, acc] : sizes)
      for (int sm = 1; sm <= 600; sm += (sm < 200 ? 1 : 37))
        ASSERT_LE(rd::make_row_plan(rows, cols, acc, sm).workspace, query) << "sm " << sm << " acc " << acc;
  }
  EXPECT_EQ(0u, row_workspace_bytes<float>(Operator::sum, -1, 5));
  EXPECT_EQ(0u, row_workspace_bytes<float>(Operator::sum, 5, -1));
  EXPECT_EQ(0u, row_workspace_bytes<float>(static_cast<Operator>(17), 1, 1 << 28));
  EXPECT_GT(row_workspace_bytes<float>(Operator::sum, 1, 1 << 28), 0u);
}

// Most items one thread of thread_range (row_ops.cuh) adds in sequence over len columns with blocks of
// `threads`: its share of the head (every threads-th column; the head is the distance to a 16-byte
// boundary), kPerVec per vector it takes, its share of the tail.
std::int64_t range_items(std::int64_t len, std::int64_t threads) {
  std::int64_t most = 0;
  const auto share = [threads](std::int64_t n) { return (n + threads - 1) / threads; };
  for (std::int64_t per_vec : {2, 4, 8})
    for (std::int64_t head = 0; head < per_vec; ++head) {
      const std::int64_t h = head < len ? head : len;
      const std::int64_t vecs = (len - h) / per_vec;
      const std::int64_t rem = len - h - vecs * per_vec;
      const std::int64_t items = share(h) + per_vec * share(vecs) + share(rem);
      most = items > most ? items : most;
    }
  return most;
}

// The chain lengths the error bound uses cover what a thread of each path adds in sequence.
TEST(ReduceRowsCpu, SumChainCoversEveryThreadsItems) {
  for (const auto& [rows, cols] : shapes()) {
    for (int sm : {1, 132}) {
      const rd::RowPlan p = rd::make_row_plan(rows, cols, 4, sm);
      const rd::RowSumChain c = rd::row_sum_chain(p, cols);
      SCOPED_TRACE(::testing::Message() << rows << " x " << cols);
      if (p.path == rd::RowPath::lane_group) {
        EXPECT_GE(c.items, (cols + p.lanes - 1) / p.lanes);
        if (p.group_vectors) {
          EXPECT_GE(c.items, range_items(cols, p.lanes));
        }
        EXPECT_EQ(1, c.passes);
      }
      if (p.path == rd::RowPath::block_per_row) {
        EXPECT_GE(c.items, range_items(cols, p.threads));
      }
      if (p.path == rd::RowPath::split_row) {
        EXPECT_GE(c.items, range_items(p.split_cols, 256) + (p.splits + 255) / 256);
        EXPECT_EQ(2, c.passes);
      }
    }
  }
}

// Pointers validation never dereferences.
template <class T>
T* fake(std::uintptr_t addr) {
  return reinterpret_cast<T*>(addr);
}
template <class T>
T* byte_offset(T* p, std::uintptr_t bytes) {
  return reinterpret_cast<T*>(reinterpret_cast<std::uintptr_t>(p) + bytes);
}

TEST(ReduceRowsCpu, BadInputsReturnStatusBeforeAnyCudaCall) {
  namespace r = gpuprims::reduce;
  const float* in = fake<const float>(0x7f0000001000u);
  float* out = fake<float>(0x7f0000100000u);
  void* ws = fake<void>(0x7f0000200000u);
  // Valid calls stop at "no device".
  EXPECT_STATUS(Status::unsupported, r::row_sum(in, 4, 5, 5, out));
  EXPECT_STATUS(Status::unsupported, r::row_sum(in, 4, 5, 5, out, nullptr, 0));
  EXPECT_STATUS(Status::unsupported, r::row_max(in, 4, 0, 1, out));
  EXPECT_STATUS(Status::unsupported, r::row_max(static_cast<const float*>(nullptr), 4, 0, 1, out));  // cols == 0
  // rows == 0: nothing to write, no CUDA call, even without pointers.
  EXPECT_STATUS(Status::success, r::row_sum(static_cast<const float*>(nullptr), 0, 5, 5, static_cast<float*>(nullptr)));
  EXPECT_STATUS(Status::success, r::row_top2_argmin(nullptr, 0, 5, 5, nullptr, nullptr, 0));
  // Sizes and leading dimensions.
  EXPECT_STATUS(Status::invalid_argument, r::row_sum(in, -1, 5, 5, out));
  EXPECT_STATUS(Status::invalid_argument, r::row_sum(in, 4, -1, 5, out));
  EXPECT_STATUS(Status::invalid_argument, r::row_sum(in, 4, 5, 4, out));
  EXPECT_STATUS(Status::invalid_argument, r::row_sum(in, 4, 5, -5, out));
  EXPECT_STATUS(Status::invalid_argument, r::row_sum(in, 4, 0, 0, out));
  const std::int64_t big = std::int64_t{1} << 40;
  EXPECT_STATUS(Status::invalid_argument, r::row_sum(in, big, 5, big, out));                      // rows * ld overflows
  EXPECT_STATUS(Status::invalid_argument, r::row_min(in, 2, INT64_MAX / 2, INT64_MAX / 2, out));  // bytes overflow
  EXPECT_STATUS(Status::invalid_argument, r::row_min(in, INT64_MAX / 2, 0, 1, out));  // output bytes overflow
  // Null pointers where there is work.
  EXPECT_STATUS(Status::invalid_argument, r::row_sum(static_cast<const float*>(nullptr), 4, 5, 5, out));
  EXPECT_STATUS(Status::invalid_argument, r::row_sum(in, 4, 5, 5, static_cast<float*>(nullptr)));
  EXPECT_STATUS(Status::invalid_argument, r::row_sum(in, 4, 0, 5, static_cast<float*>(nullptr)));
  EXPECT_STATUS(Status::invalid_argument, r::row_top2_argmin(nullptr, 4, 5, 5, fake<gpuprims::Top2>(0x7f0000300000u)));
  // Misaligned pointers for their types.
  EXPECT_STATUS(Status::misaligned_pointer, r::row_sum(byte_offset(in, 2), 4, 5, 5, out));
  EXPECT_STATUS(Status::misaligned_pointer, r::row_sum(in, 4, 5, 5, byte_offset(out, 1)));
  EXPECT_STATUS(Status::misaligned_pointer,
                r::row_sum(fake<const double>(0x7f0000001004u), 4, 5, 5, fake<double>(0x7f0000100000u)));
  EXPECT_STATUS(Status::misaligned_pointer,
                r::row_min(fake<const __half>(0x7f0000001001u), 4, 5, 5, fake<__half>(0x7f0000100000u)));
  EXPECT_STATUS(Status::unsupported,
                r::row_min(fake<const __half>(0x7f0000001002u), 4, 5, 5, fake<__half>(0x7f0000100002u)));
  EXPECT_STATUS(Status::misaligned_pointer,
                r::row_argmin(in, 4, 5, 5, fake<gpuprims::ArgResult<float>>(0x7f0000100004u)));
  EXPECT_STATUS(Status::misaligned_pointer, r::row_top2_argmin(in, 4, 5, 5, fake<gpuprims::Top2>(0x7f0000100004u)));
  // The workspace, when the plan needs one (one long row).
  const std::int64_t n = std::int64_t{1} << 28;
  const std::size_t wsb = r::row_workspace_bytes<float>(Operator::sum, 1, n);
  ASSERT_GT(wsb, 0u);
  EXPECT_STATUS(Status::invalid_argument, r::row_sum(in, 1, n, n, out, nullptr, wsb));
  EXPECT_STATUS(Status::invalid_argument, r::row_sum(in, 1, n, n, out, ws, wsb - 1));
  EXPECT_STATUS(Status::misaligned_pointer, r::row_sum(in, 1, n, n, out, byte_offset(ws, 8), wsb));
  EXPECT_STATUS(Status::unsupported, r::row_sum(in, 1, n, n, out, ws, wsb));
  EXPECT_STATUS(Status::unsupported, r::row_sum(in, 1, n, n, out));
  const std::size_t tb = r::row_top2_workspace_bytes(1, n);
  auto* top = fake<gpuprims::Top2>(0x7f0000300000u);
  EXPECT_STATUS(Status::invalid_argument, r::row_top2_argmin(in, 1, n, n, top, ws, tb - 1));
  EXPECT_STATUS(Status::unsupported, r::row_top2_argmin(in, 1, n, n, top, ws, tb));
  EXPECT_STATUS(Status::unsupported, r::row_top2_argmin(in, 1, n, n, top));
}

}  // namespace
