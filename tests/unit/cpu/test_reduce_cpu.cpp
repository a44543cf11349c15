// reduce::sum on the host side: names, workspace sizes, argument validation (which happens before any
// CUDA call, so it is testable without a GPU), "no device" as Status::unsupported, and the launch
// arithmetic of plan.hpp.
#include <gtest/gtest.h>

#include <gpuprims/reduce.hpp>

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "reduce/src/plan.hpp"
#include "support/gpu.hpp"

namespace {

using gpuprims::Status;
using gpuprims::reduce::Algorithm;
using gpuprims::reduce::kAllAlgorithms;
namespace rd = gpuprims::reduce::detail;
using Tuning = rd::ReduceTuning;

// Pointers the validation never dereferences (valid-looking calls go through them only with every
// device hidden, where the call must stop at "no device").
float* fake_device_ptr(std::uintptr_t addr = 0x7f0000001000u) { return reinterpret_cast<float*>(addr); }
float* misaligned(float* p) { return reinterpret_cast<float*>(reinterpret_cast<std::uintptr_t>(p) + 2); }

// -1, one past the last variant (whatever the ladder's length), and a large value.
const Algorithm kOutOfRange[] = {static_cast<Algorithm>(-1), static_cast<Algorithm>(std::size(kAllAlgorithms)),
                                 static_cast<Algorithm>(99)};

TEST(ReduceCpu, NamesFollowTheLadder) {
  // The names the benchmarks' JSON and the report use for the variants the ladder has always had;
  // a variant added later only has to have a name of its own.
  const std::pair<Algorithm, const char*> named[] = {{Algorithm::baseline, "baseline"},
                                                     {Algorithm::no_divergence, "no_divergence"},
                                                     {Algorithm::no_bank_conflict, "no_bank_conflict"},
                                                     {Algorithm::add_during_load, "add_during_load"},
                                                     {Algorithm::unroll_last_warp, "unroll_last_warp"},
                                                     {Algorithm::shuffle, "shuffle"}};
  for (const auto& [algo, expected] : named) EXPECT_STREQ(expected, gpuprims::reduce::name(algo));
  std::set<std::string> seen;
  for (Algorithm a : kAllAlgorithms) {
    EXPECT_STRNE("unknown", gpuprims::reduce::name(a));
    seen.insert(gpuprims::reduce::name(a));
  }
  EXPECT_EQ(seen.size(), std::size(kAllAlgorithms));  // distinct
  for (Algorithm a : kOutOfRange) EXPECT_STREQ("unknown", gpuprims::reduce::name(a));
}

// The query against what a launch writes: pass 1 of a two-pass plan stores one float per block,
// starting at the first 16-byte boundary of a workspace the API only requires to be 4-byte aligned
// (reduce.cu). On GPUs holding from one block at once to more than the partials cap, at each 4-byte
// offset from a 16-byte boundary, every size up to 10^4 (each rung's one/two-pass boundary and the
// first two-pass grids) and sizes up to 2^62: the partials fit the queried bytes, and the query is 0
// exactly when no GPU takes two passes (a null workspace is then accepted, and nothing is written).
// A single_pass single launch is one pass that still keeps its grid kernel's block sums there.
TEST(ReduceCpu, WorkspaceHoldsEveryGridsPartialsAndIsZeroOnlyForOnePass) {
  const std::int64_t residents[] = {1, 2, 3, 132, std::int64_t{132} * 8, 2047, 2048, 2049, std::int64_t{1} << 20};
  std::vector<std::int64_t> sizes = {-1};
  for (std::int64_t n = 0; n <= 10000; ++n) sizes.push_back(n);
  for (std::int64_t n = 10001; n < (std::int64_t{1} << 62); n += n / 7 + 3) sizes.push_back(n);
  for (Algorithm a : kAllAlgorithms) {
    SCOPED_TRACE(gpuprims::reduce::name(a));
    for (std::int64_t n : sizes) {
      const std::size_t ws = gpuprims::reduce::workspace_bytes(n, a);
      bool two_passes_somewhere = false;
      const bool grid_sums = n > 0 && rd::single_launch(n, a);  // n == 0 launches nothing
      for (std::int64_t resident : residents) {
        const rd::ReducePlan p = rd::make_plan(n, a, resident);
        if (p.passes < 2 && !grid_sums) continue;
        two_passes_somewhere = true;
        const std::int64_t partials = grid_sums ? rd::SinglePassTuning::kGridBlocks : p.blocks;
        for (std::uintptr_t addr = 0x1000; addr < 0x1010; addr += 4) {
          const std::uintptr_t end = rd::align_partials(addr) + static_cast<std::uintptr_t>(partials) * sizeof(float);
          if (end > addr + ws) {
            ADD_FAILURE() << "n " << n << ", " << resident << " resident blocks: " << p.blocks
                          << " partials from workspace offset " << addr % 16 << " end " << end - addr
                          << " bytes in, past the " << ws << " queried";
            return;
          }
        }
      }
      if ((ws == 0) != !two_passes_somewhere) {
        ADD_FAILURE() << "n " << n << ": query " << ws << " bytes, "
                      << (two_passes_somewhere ? "and some GPU takes two passes" : "but every GPU takes one pass");
        return;
      }
    }
  }
}

TEST(ReduceCpu, WorkspaceIsMonotoneAndBoundedByThePartialsCap) {
  const std::size_t cap = static_cast<std::size_t>(Tuning::kMaxPartials) * sizeof(float) + 12;
  for (Algorithm a : kAllAlgorithms) {
    SCOPED_TRACE(gpuprims::reduce::name(a));
    std::size_t prev = 0;
    for (std::int64_t n = 0; n < (std::int64_t{1} << 62); n = n < 64 ? n + 1 : n + n / 7 + 3) {
      const std::size_t w = gpuprims::reduce::workspace_bytes(n, a);
      ASSERT_LE(prev, w) << "n = " << n;
      ASSERT_LE(w, cap) << "n = " << n;
      prev = w;
    }
    EXPECT_EQ(cap, gpuprims::reduce::workspace_bytes((std::int64_t{1} << 31) + 17, a));
    EXPECT_EQ(cap, gpuprims::reduce::workspace_bytes(INT64_MAX, a));
  }
  for (Algorithm a : kOutOfRange) EXPECT_EQ(0u, gpuprims::reduce::workspace_bytes(1 << 20, a));
}

// Every bad argument, on both overloads. With no GPU these prove validation precedes any CUDA call
// (a CUDA call would have answered "unsupported").
TEST(ReduceCpu, BadInputsReturnStatusBeforeAnyCudaCall) {
  float* in = fake_device_ptr(0x7f0000001000u);
  float* out = fake_device_ptr(0x7f0000100000u);
  float* ws = fake_device_ptr(0x7f0000200000u);
  const std::int64_t n = 1 << 20;
  for (Algorithm a : kAllAlgorithms) {
    SCOPED_TRACE(gpuprims::reduce::name(a));
    const std::size_t wsb = gpuprims::reduce::workspace_bytes(n, a);
    ASSERT_GT(wsb, 0u);
    using gpuprims::reduce::sum;
    // d_in == nullptr with n > 0
    EXPECT_STATUS(Status::invalid_argument, sum(nullptr, n, out, ws, wsb, a));
    EXPECT_STATUS(Status::invalid_argument, sum(nullptr, n, out, a));
    EXPECT_STATUS(Status::invalid_argument, sum(nullptr, 1, out, ws, wsb, a));
    // d_out == nullptr (also with n == 0)
    EXPECT_STATUS(Status::invalid_argument, sum(in, n, nullptr, ws, wsb, a));
    EXPECT_STATUS(Status::invalid_argument, sum(in, n, nullptr, a));
    EXPECT_STATUS(Status::invalid_argument, sum(in, 0, nullptr, nullptr, 0, a));
    EXPECT_STATUS(Status::invalid_argument, sum(in, 0, nullptr, a));
    // n < 0
    EXPECT_STATUS(Status::invalid_argument, sum(in, -1, out, ws, wsb, a));
    EXPECT_STATUS(Status::invalid_argument, sum(in, -1, out, a));
    EXPECT_STATUS(Status::invalid_argument, sum(in, INT64_MIN, out, a));
    // pointers not 4-byte aligned
    EXPECT_STATUS(Status::misaligned_pointer, sum(misaligned(in), n, out, ws, wsb, a));
    EXPECT_STATUS(Status::misaligned_pointer, sum(misaligned(in), n, out, a));
    EXPECT_STATUS(Status::misaligned_pointer, sum(in, n, misaligned(out), ws, wsb, a));
    EXPECT_STATUS(Status::misaligned_pointer, sum(in, n, misaligned(out), a));
    EXPECT_STATUS(Status::misaligned_pointer, sum(in, n, out, misaligned(ws), wsb, a));
    // workspace too small, or null although needed
    EXPECT_STATUS(Status::invalid_argument, sum(in, n, out, ws, wsb - 1, a));
    EXPECT_STATUS(Status::invalid_argument, sum(in, n, out, ws, 0, a));
    EXPECT_STATUS(Status::invalid_argument, sum(in, n, out, nullptr, wsb, a));
    EXPECT_STATUS(Status::invalid_argument, sum(in, n, out, nullptr, 0, a));
  }
  // An Algorithm outside the enum, whatever else the call says.
  for (Algorithm a : kOutOfRange) {
    EXPECT_STATUS(Status::invalid_argument, gpuprims::reduce::sum(in, n, out, ws, 1 << 20, a));
    EXPECT_STATUS(Status::invalid_argument, gpuprims::reduce::sum(in, n, out, a));
    EXPECT_STATUS(Status::invalid_argument, gpuprims::reduce::sum(in, 0, out, a));
  }
}

// A valid call without a device: "unsupported", before any launch. CPU test binaries hide every
// device (test_main.cpp), so this holds on a GPU runner too; ReduceGpu.ValidCallsOnZerosSumToZero is
// the same call with a device.
TEST(ReduceCpu, ValidCallIsUnsupportedWithoutDevice) {
  ASSERT_FALSE(gpuprims::test::gpu_present()) << "CPU test binaries hide every device (see test_main.cpp)";
  const std::int64_t sizes[] = {0, 1, 5000, 1 << 20};
  float* in = fake_device_ptr(0x7f0000001000u);
  float* out = fake_device_ptr(0x7f0000100000u);
  float* ws = fake_device_ptr(0x7f0000200000u);
  for (Algorithm a : kAllAlgorithms)
    for (std::int64_t n : sizes) {
      SCOPED_TRACE(std::string(gpuprims::reduce::name(a)) + " n=" + std::to_string(n));
      const std::size_t wsb = gpuprims::reduce::workspace_bytes(n, a);
      EXPECT_STATUS(Status::unsupported, gpuprims::reduce::sum(in, n, out, ws, wsb, a));
      EXPECT_STATUS(Status::unsupported, gpuprims::reduce::sum(in, n, out, a));
    }
  EXPECT_STATUS(Status::unsupported, gpuprims::reduce::sum(nullptr, 0, out, nullptr, 0));
}

// ---- plan.hpp -------------------------------------------------------------------------------------

TEST(ReducePlanCpu, EmptyInputHasNoPass) {
  for (Algorithm a : kAllAlgorithms) {
    const rd::ReducePlan p = rd::make_plan(0, a, 1000);
    EXPECT_EQ(0, p.passes);
    EXPECT_EQ(0, p.blocks);
    EXPECT_EQ(0u, p.workspace_bytes);
    EXPECT_EQ(0, p.bound_items());
  }
}

TEST(ReducePlanCpu, SmallInputsTakeOneBlockAndOnePass) {
  for (Algorithm a : kAllAlgorithms)
    for (std::int64_t n : {std::int64_t{1}, std::int64_t{33}, rd::items_per_block_min(a)}) {
      const rd::ReducePlan p = rd::make_plan(n, a, 1056);
      EXPECT_EQ(1, p.blocks);
      EXPECT_EQ(1, p.passes);
      // single_pass's grid kernel keeps its block sums in the workspace; the other rungs need none.
      EXPECT_EQ(rd::single_launch(n, a) ? rd::partials_bytes(rd::SinglePassTuning::kGridBlocks) : 0u,
                p.workspace_bytes);
      EXPECT_EQ(0, p.pass2_items_per_thread);
      // single_pass's single launch runs 1024-thread blocks (SinglePassTuning).
      EXPECT_EQ(rd::single_launch(n, a) ? rd::SinglePassTuning::kThreads : Tuning::kThreads, p.threads);
    }
}

// single_pass: one launch up to SinglePassTuning::kMaxItems, its workspace the grid kernel's 16 block
// sums (plus the 16-byte alignment slack: 76 bytes), then shuffle's plan, workspace and bound; its
// chain covers one 1024-thread block (its warp chunks: ceil(n / 4096) float4s plus up to 8 more, the
// one-block kernel's unroll) plus the grid's block sums.
TEST(ReducePlanCpu, SinglePassIsOneLaunchThenShuffle) {
  constexpr std::int64_t kMax = rd::SinglePassTuning::kMaxItems;
  for (std::int64_t n : {std::int64_t{1}, std::int64_t{4097}, std::int64_t{1} << 16, kMax}) {
    EXPECT_TRUE(rd::single_launch(n, Algorithm::single_pass));
    EXPECT_EQ(76u, gpuprims::reduce::workspace_bytes(n, Algorithm::single_pass));
    const rd::ReducePlan p = rd::make_plan(n, Algorithm::single_pass, 1056);
    EXPECT_EQ(1, p.passes);
    EXPECT_EQ(76u, p.workspace_bytes);
    EXPECT_EQ(std::int64_t{4} * ((n + std::int64_t{4096} - 1) / std::int64_t{4096} + 8) + 2 + 16, p.items_per_thread)
        << n;
    EXPECT_EQ(10, rd::bound_log2_threads(n, Algorithm::single_pass));
    EXPECT_EQ(p.bound_items(), rd::bound_items_upper(n, Algorithm::single_pass, 132));
  }
  for (std::int64_t n : {kMax + 1, std::int64_t{1} << 20, (std::int64_t{1} << 31) + 17}) {
    EXPECT_FALSE(rd::single_launch(n, Algorithm::single_pass));
    EXPECT_EQ(gpuprims::reduce::workspace_bytes(n, Algorithm::shuffle),
              gpuprims::reduce::workspace_bytes(n, Algorithm::single_pass));
    const rd::ReducePlan p = rd::make_plan(n, Algorithm::single_pass, 1056);
    const rd::ReducePlan q = rd::make_plan(n, Algorithm::shuffle, 1056);
    EXPECT_EQ(q.blocks, p.blocks);
    EXPECT_EQ(q.bound_items(), p.bound_items());
    EXPECT_EQ(8, rd::bound_log2_threads(n, Algorithm::single_pass));
  }
  EXPECT_FALSE(rd::single_launch(1, Algorithm::shuffle));
}

TEST(ReducePlanCpu, LargeInputsFillTheGpuOnce) {
  const std::int64_t n = std::int64_t{1} << 28;
  for (Algorithm a : kAllAlgorithms) {
    const rd::ReducePlan p = rd::make_plan(n, a, std::int64_t{132} * 5);
    EXPECT_EQ(132 * 5, p.blocks);
    EXPECT_EQ(2, p.passes);
    EXPECT_EQ(static_cast<std::size_t>(p.blocks) * sizeof(float) + 12, p.workspace_bytes);
    EXPECT_LE(p.workspace_bytes, gpuprims::reduce::workspace_bytes(n, a));
  }
  // Rungs 4-7: 2^28 floats = 2^26 float4 over 660 * 256 threads: ceil = 398 float4, and warp chunks
  // may give a thread up to one chunk's share more (4 float4 in rungs 4-5, 8 in rungs 6-7): 402 or 406
  // float4, + head and tail.
  EXPECT_EQ(4 * (398 + 4) + 2, rd::make_plan(n, Algorithm::add_during_load, 660).items_per_thread);
  EXPECT_EQ(4 * (398 + 8) + 2, rd::make_plan(n, Algorithm::shuffle, 660).items_per_thread);
  EXPECT_EQ(4 * (398 + 8) + 2, rd::make_plan(n, Algorithm::single_pass, 660).items_per_thread);
  // Rungs 1-3: 2^20 tiles over 660 blocks: thread 0 adds 1589 tile sums.
  EXPECT_EQ(1589, rd::make_plan(n, Algorithm::baseline, 660).items_per_thread);
  // Pass 2: 660 partials in one block: 3 tiles, or 4 * (ceil(165 / 256) + unroll) + 2 items (counted as
  // pass 1 counts them).
  EXPECT_EQ(3, rd::make_plan(n, Algorithm::baseline, 660).pass2_items_per_thread);
  EXPECT_EQ(4 * (1 + 4) + 2, rd::make_plan(n, Algorithm::unroll_last_warp, 660).pass2_items_per_thread);
  EXPECT_EQ(4 * (1 + 8) + 2, rd::make_plan(n, Algorithm::shuffle, 660).pass2_items_per_thread);
}

TEST(ReducePlanCpu, GridIsCappedAndOffsetsAre64Bit) {
  const std::int64_t n = (std::int64_t{1} << 31) + 17;
  for (Algorithm a : kAllAlgorithms) {
    const rd::ReducePlan p = rd::make_plan(n, a, 1 << 20);
    EXPECT_EQ(Tuning::kMaxPartials, p.blocks);
    EXPECT_EQ(2, p.passes);
    // Every item is owned: blocks * threads * items >= n.
    EXPECT_GE(p.blocks * p.threads * p.items_per_thread, n);
    const rd::ReducePlan q = rd::make_plan(INT64_MAX / 2, a, 1);
    EXPECT_EQ(1, q.blocks);
    EXPECT_EQ(1, q.passes);
    EXPECT_GT(q.items_per_thread, 0);
  }
}

TEST(ReducePlanCpu, BoundItemsUpperCoversEveryOccupancy) {
  for (Algorithm a : kAllAlgorithms)
    for (std::int64_t n : {std::int64_t{1}, std::int64_t{4097}, std::int64_t{1} << 24, (std::int64_t{1} << 31) + 17})
      for (std::int64_t per_sm = 1; per_sm <= 32; ++per_sm) {
        const rd::ReducePlan p = rd::make_plan(n, a, 132 * per_sm);
        EXPECT_LE(p.bound_items(), rd::bound_items_upper(n, a, 132)) << "n=" << n << " per_sm=" << per_sm;
      }
}

TEST(ReducePlanCpu, PartialsStartAt16Bytes) {
  EXPECT_EQ(0x1000u, rd::align_partials(0x1000));
  EXPECT_EQ(0x1010u, rd::align_partials(0x1004));
  EXPECT_EQ(0x1010u, rd::align_partials(0x1008));
  EXPECT_EQ(0x1010u, rd::align_partials(0x100c));
  // The workspace always holds the partials after the move.
  for (std::uintptr_t addr = 0x1000; addr < 0x1010; addr += 4)
    EXPECT_LE(rd::align_partials(addr) + 7 * sizeof(float), addr + rd::partials_bytes(7));
}

TEST(ReducePlanCpu, VecSplitPeelsHeadAndTail) {
  // 16-byte aligned: no head.
  rd::VecSplit s = rd::vec_split(0x1000, 10);
  EXPECT_EQ(0, s.head);
  EXPECT_EQ(2, s.vec_count);
  EXPECT_EQ(8, s.tail_begin);
  EXPECT_EQ(2, s.tail);
  // 1, 2, 3 floats past a boundary: 3, 2, 1 head scalars.
  EXPECT_EQ(3, rd::vec_split(0x1004, 10).head);
  EXPECT_EQ(2, rd::vec_split(0x1008, 10).head);
  EXPECT_EQ(1, rd::vec_split(0x100c, 10).head);
  s = rd::vec_split(0x1004, 10);  // 3 + 4 + 3
  EXPECT_EQ(1, s.vec_count);
  EXPECT_EQ(7, s.tail_begin);
  EXPECT_EQ(3, s.tail);
  // Fewer items than the head: all head.
  s = rd::vec_split(0x1004, 2);
  EXPECT_EQ(2, s.head);
  EXPECT_EQ(0, s.vec_count);
  EXPECT_EQ(0, s.tail);
  s = rd::vec_split(0x1000, 0);
  EXPECT_EQ(0, s.head + s.vec_count + s.tail);
  // Past 2^31 items.
  s = rd::vec_split(0x1008, (std::int64_t{1} << 31) + 17);
  EXPECT_EQ(2, s.head);
  EXPECT_EQ(((std::int64_t{1} << 31) + 15) / 4, s.vec_count);
  EXPECT_EQ((std::int64_t{1} << 31) + 17, s.tail_begin + s.tail);
}

}  // namespace
