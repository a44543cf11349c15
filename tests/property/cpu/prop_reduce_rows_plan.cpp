// RapidCheck over the row reductions' plan (lib/reduce/src/rows/plan.hpp) and a host model of how
// the kernels share a row out (rows/row_ops.cuh's thread_range: a scalar head to the first 16-byte
// boundary, 16-byte vectors strided by the block, a scalar tail, both strided by the block where it
// is narrower than a vector; the split kernel's column ranges):
// for random shapes, SM counts, element widths and row addresses, every column is taken exactly once
// (by a block per row, a split, or a lane group that reads vectors), no thread takes more items than
// the chain the error bound uses, and the workspace query holds the plan's partials.
#include <gtest/gtest.h>

#include <rapidcheck.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "reduce/src/rows/plan.hpp"

namespace {

namespace rd = gpuprims::reduce::detail;
constexpr std::int64_t kThreads = rd::RowTuning::kThreads;

// thread_range over columns [c0, c1) of a row whose column c0 is at byte address `addr`, elements of
// `elem` bytes, by a block of `threads`: adds one to taken[c - c0] for every column a thread takes;
// returns the most items one thread takes.
std::int64_t model_range(std::int64_t c0, std::int64_t c1, std::uintptr_t addr, std::int64_t elem, std::int64_t threads,
                         std::vector<int>* taken) {
  const std::int64_t per_vec = 16 / elem;
  std::int64_t head = static_cast<std::int64_t>((16 - addr % 16) % 16) / elem;
  head = std::min(head, c1 - c0);
  const std::int64_t start = c0 + head;
  const std::int64_t vecs = (c1 - start) / per_vec;
  std::int64_t most = 0;
  for (std::int64_t t = 0; t < threads; ++t) {
    std::int64_t items = 0;
    for (std::int64_t h = t; h < head; h += threads) ++(*taken)[static_cast<std::size_t>(h)], ++items;
    for (std::int64_t v = t; v < vecs; v += threads)
      for (std::int64_t k = 0; k < per_vec; ++k)
        ++(*taken)[static_cast<std::size_t>(start + v * per_vec + k - c0)], ++items;
    for (std::int64_t tail = start + vecs * per_vec + t; tail < c1; tail += threads)
      ++(*taken)[static_cast<std::size_t>(tail - c0)], ++items;
    most = std::max(most, items);
  }
  return most;
}

TEST(ReduceRowsPlanProp, EveryColumnOnceAndChainsWithinTheBound) {
  EXPECT_TRUE(rc::check("plans cover each row once, within the chain and the queried workspace", [] {
    const auto cols = *rc::gen::oneOf(rc::gen::inRange<std::int64_t>(0, 300), rc::gen::inRange<std::int64_t>(0, 20000),
                                      rc::gen::inRange<std::int64_t>(0, std::int64_t{1} << 22));
    const auto rows = *rc::gen::oneOf(rc::gen::inRange<std::int64_t>(1, 10), rc::gen::inRange<std::int64_t>(1, 5000),
                                      rc::gen::inRange<std::int64_t>(1, std::int64_t{1} << 20));
    const int sm = *rc::gen::inRange(1, 700);
    const std::int64_t elem = *rc::gen::element<std::int64_t>(2, 4, 8);
    const std::size_t acc = *rc::gen::element<std::size_t>(4, 8, 16, 24);
    const std::uintptr_t addr = static_cast<std::uintptr_t>(*rc::gen::inRange(0, 16 / static_cast<int>(elem))) *
                                static_cast<std::uintptr_t>(elem);
    // The per-row top-2 is of floats only.
    const rd::RowWork work = elem == 4 ? *rc::gen::element(rd::RowWork::sum, rd::RowWork::select, rd::RowWork::top2)
                                       : *rc::gen::element(rd::RowWork::sum, rd::RowWork::select);
    const auto width = static_cast<std::size_t>(elem);
    const rd::RowPlan p = rd::make_row_plan(rows, cols, acc, sm, work, width);
    const rd::RowSumChain chain = rd::row_sum_chain(p, cols);
    RC_LOG() << rows << " x " << cols << " sm " << sm << " elem " << elem << " work " << static_cast<int>(work)
             << " path " << static_cast<int>(p.path);
    RC_ASSERT(p.workspace <= rd::make_row_plan(rows, cols, acc, 0, work, width).workspace);
    RC_ASSERT(p.grid >= 1);
    switch (p.path) {
      case rd::RowPath::none: RC_FAIL("rows > 0 planned as nothing"); break;
      case rd::RowPath::lane_group: {
        RC_ASSERT(cols <= rd::group_max_cols(static_cast<std::size_t>(elem)));
        RC_ASSERT(chain.items >= (cols + p.lanes - 1) / p.lanes);
        if (p.group_vectors) {  // the group reads its row as a block of `lanes` threads would
          RC_ASSERT(cols * elem > rd::RowTuning::kGroupVectorMinBytesSelect);
          RC_ASSERT(p.lanes >= 4 || work != rd::RowWork::sum || elem != 4);  // 4-byte sums: a lane per element
          std::vector<int> taken(static_cast<std::size_t>(cols), 0);
          const std::int64_t most = model_range(0, cols, addr, elem, p.lanes, &taken);
          RC_ASSERT(std::all_of(taken.begin(), taken.end(), [](int n) { return n == 1; }));
          RC_ASSERT(most <= chain.items);
        }
        break;
      }
      case rd::RowPath::block_per_row: {
        RC_ASSERT(cols > rd::group_max_cols(static_cast<std::size_t>(elem)));
        std::vector<int> taken(static_cast<std::size_t>(cols), 0);
        if (cols >= rd::RowTuning::kVeryLongCols) {
          RC_ASSERT(p.threads == 1024);
        } else if (work == rd::RowWork::sum) {  // by bytes: 1024 from 64 KiB, else 64-512 of 48 bytes or more
          const std::int64_t bytes = cols * elem;
          if (bytes >= 65536) {
            RC_ASSERT(p.threads == 1024);
          } else {
            RC_ASSERT(p.threads == 64 || p.threads == 128 || p.threads == 256 || p.threads == 512);
            RC_ASSERT(p.threads == 64 || bytes >= std::int64_t{p.threads} * 48);
            RC_ASSERT(p.threads == 512 || bytes < std::int64_t{p.threads} * 2 * 48);
          }
        } else if (cols >= rd::RowTuning::kLongCols) {
          RC_ASSERT(p.threads == 512);
        } else {  // 64, 128 or 256 threads, each with 12 columns or more, 24 for 2-byte elements, 16 for the
                  // top-2 (64: shorter rows too)
          const std::int64_t per = work == rd::RowWork::top2 ? 16 : elem == 2 ? 24 : 12;
          RC_ASSERT(p.threads == 64 || p.threads == 128 || p.threads == kThreads);
          RC_ASSERT(p.threads == 64 || cols >= std::int64_t{p.threads} * per);
          RC_ASSERT(p.threads == kThreads || cols < std::int64_t{p.threads} * 2 * per);
        }
        const std::int64_t most = model_range(0, cols, addr, elem, p.threads, &taken);
        RC_ASSERT(std::all_of(taken.begin(), taken.end(), [](int n) { return n == 1; }));
        RC_ASSERT(most <= chain.items);
        break;
      }
      case rd::RowPath::split_row: {
        RC_ASSERT(rows * p.splits <= std::int64_t{rd::planning_sm_count(sm)} * rd::RowTuning::kBlocksPerSm);
        RC_ASSERT(p.workspace >= static_cast<std::size_t>(rows * p.splits) * acc);
        std::vector<int> taken(static_cast<std::size_t>(cols), 0);
        std::int64_t most = 0;
        for (std::int64_t s = 0; s < p.splits; ++s) {
          const std::int64_t c0 = s * p.split_cols, c1 = std::min(cols, c0 + p.split_cols);
          RC_ASSERT(c0 < c1);
          std::vector<int> part(static_cast<std::size_t>(c1 - c0), 0);
          const auto at = addr + static_cast<std::uintptr_t>(c0 * elem);
          most = std::max(most, model_range(c0, c1, at, elem, kThreads, &part));
          for (std::int64_t c = c0; c < c1; ++c)
            taken[static_cast<std::size_t>(c)] += part[static_cast<std::size_t>(c - c0)];
        }
        RC_ASSERT(std::all_of(taken.begin(), taken.end(), [](int n) { return n == 1; }));
        RC_ASSERT(most + (p.splits + kThreads - 1) / kThreads <= chain.items);
        break;
      }
    }
  }));
}

}  // namespace
