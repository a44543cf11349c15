// RapidCheck over the host-testable part of reduce::sum: the launch arithmetic of plan.hpp, the
// head/body/tail split, and a host model of the kernels' exact order of float additions (the thread
// loop of kernels/thread_load.cuh, each rung's block tree, both passes). The model checks that every
// item is added exactly once, that no thread adds more items than the plan says, and that the order
// stays within the docs/ERROR-BOUNDS.md bound computed from the plan.
#include <gtest/gtest.h>

#include <rapidcheck.h>

#include <gpuprims/device/device_reduce_plan.hpp>
#include <gpuprims/reduce.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

#include "reduce/src/plan.hpp"
#include "support/reference.hpp"
#include "testkit/random.hpp"

namespace {

using gpuprims::reduce::Algorithm;
using gpuprims::reduce::kAllAlgorithms;
namespace rd = gpuprims::reduce::detail;
using Tuning = rd::ReduceTuning;
constexpr std::int64_t T = Tuning::kThreads;

// The single_pass rung's single launch (n <= SinglePassTuning::kMaxItems) has two kernels, chosen by
// the device: one block of 1024 threads with 8 loads in flight (modelled by default), or a cooperative
// grid of 16 blocks of 256 with 4 whose block sums block 0 adds in block order (model_sum's `grid`).
using SP = rd::SinglePassTuning;

// The items global thread gtid of nthreads adds in thread_sum<unroll>(), in its order: body float4 k
// into accumulator u is visit(u, head + 4k); head and tail scalars are visit(-1, index) and
// visit(-2, index). unroll: 4 or 8 (rd::vector_unroll of rungs 4-7, the single launch's unrolls).
template <class Visit>
void visit_thread_items(const rd::VecSplit& s, std::int64_t gtid, std::int64_t nthreads, Visit&& visit, int unroll) {
  // The kernels' own assignment (for_each_warp_chunk runs on the host too): vector u of a warp chunk
  // into accumulator u, a vector after the whole chunks into accumulator 0.
  const auto walk = [&](auto unroll_constant) {
    constexpr int kUnroll = decltype(unroll_constant)::value;
    gpuprims::device::for_each_warp_chunk<kUnroll>(
        s.vec_count, gtid, nthreads,
        [&](std::int64_t first) {
      for (int u = 0; u < kUnroll; ++u) visit(u, s.head + 4 * (first + u * gpuprims::device::kWarpChunkLanes));
        },
        [&](std::int64_t i) { visit(0, s.head + 4 * i); });
  };
  static_assert(SP::kOneBlockUnroll == 8 && SP::kGridUnroll == 4 && Tuning::kUnroll == 4 && Tuning::kShuffleUnroll == 8,
                "the two unrolls walked below");
  if (unroll == 8) walk(std::integral_constant<int, 8>{});
  else walk(std::integral_constant<int, 4>{});
  if (gtid < s.head) visit(-1, gtid);
  if (gtid < s.tail) visit(-2, s.tail_begin + gtid);
}

float model_thread_sum(const float* x, const rd::VecSplit& s, std::int64_t gtid, std::int64_t nthreads, int unroll) {
  float acc[8] = {};
  float head = 0.0f, tail = 0.0f;
  bool has_head = false, has_tail = false;
  visit_thread_items(
      s, gtid, nthreads,
      [&](int u, std::int64_t idx) {
    if (u >= 0) {
      acc[u] += (x[idx] + x[idx + 1]) + (x[idx + 2] + x[idx + 3]);
    } else if (u == -1) {
      head = x[idx];
      has_head = true;
    } else {
      tail = x[idx];
      has_tail = true;
    }
      },
      unroll);
  for (int width = unroll / 2; width > 0; width /= 2)
    for (int u = 0; u < width; ++u) acc[u] += acc[u + width];
  float r = acc[0];
  if (has_head) r += head;
  if (has_tail) r += tail;
  return r;
}

// The block trees: rungs 1-2 pair neighbours, rungs 3-5 halve the stride from T/2 (rung 5's unrolled
// warp adds the same pairs), rungs 6 and 7 shuffle within warps, then over the warp sums. v holds one
// value per thread of the block.
float model_tree(std::vector<float> v, Algorithm a) {
  const auto T = static_cast<std::int64_t>(v.size());
  switch (a) {
    case Algorithm::baseline:
    case Algorithm::no_divergence:
      for (std::int64_t s = 1; s < T; s *= 2)
        for (std::int64_t t = 0; t < T; t += 2 * s) v[t] += v[t + s];
      return v[0];
    case Algorithm::shuffle:
    case Algorithm::single_pass: {
      std::vector<float> warps;
      for (std::int64_t w = 0; w < T; w += 32) {
        for (int off = 16; off > 0; off /= 2)
          for (int lane = 0; lane + off < 32; ++lane) v[w + lane] += v[w + lane + off];
        warps.push_back(v[w]);
      }
      for (std::size_t off = warps.size() / 2; off > 0; off /= 2)
        for (std::size_t lane = 0; lane + off < warps.size(); ++lane) warps[lane] += warps[lane + off];
      return warps[0];
    }
    default:
      for (std::int64_t s = T / 2; s > 0; s /= 2)
        for (std::int64_t t = 0; t < s; ++t) v[t] += v[t + s];
      return v[0];
  }
}

// One launch of `blocks` blocks over x[0, n) (x sits `addr` bytes into memory): the per-block results.
std::vector<float> model_pass(const float* x, std::uintptr_t addr, std::int64_t n, std::int64_t blocks, Algorithm a) {
  std::vector<float> out(static_cast<std::size_t>(blocks));
  std::vector<float> v(static_cast<std::size_t>(T));
  if (rd::load_shape(a) == rd::LoadShape::tile_per_thread) {
    const std::int64_t tiles = (n + T - 1) / T;
    for (std::int64_t b = 0; b < blocks; ++b) {
      float acc = 0.0f;
      for (std::int64_t tile = b; tile < tiles; tile += blocks) {
        for (std::int64_t t = 0; t < T; ++t) v[t] = tile * T + t < n ? x[tile * T + t] : 0.0f;
        acc += model_tree(v, a);
      }
      out[b] = acc;
    }
    return out;
  }
  const rd::VecSplit s = rd::vec_split(addr, n);
  for (std::int64_t b = 0; b < blocks; ++b) {
    for (std::int64_t t = 0; t < T; ++t) v[t] = model_thread_sum(x, s, b * T + t, blocks * T, rd::vector_unroll(a));
    out[b] = model_tree(v, a);
  }
  return out;
}

// The single launch: one block of 1024 threads (8 loads in flight), or with `grid` 16 blocks of 256
// (4 in flight) whose sums are added in block order.
float model_single_launch(const float* x, std::uintptr_t addr, std::int64_t n, bool grid) {
  const rd::VecSplit s = rd::vec_split(addr, n);
  const std::int64_t blocks = grid ? SP::kGridBlocks : 1;
  const std::int64_t threads = grid ? SP::kGridThreads : SP::kThreads;
  const int unroll = grid ? SP::kGridUnroll : SP::kOneBlockUnroll;
  std::vector<float> v(static_cast<std::size_t>(threads));
  float total = 0.0f;
  for (std::int64_t b = 0; b < blocks; ++b) {
    for (std::int64_t t = 0; t < threads; ++t) v[t] = model_thread_sum(x, s, b * threads + t, blocks * threads, unroll);
    const float block_sum = model_tree(v, Algorithm::single_pass);
    total = b == 0 ? block_sum : total + block_sum;
  }
  return total;
}

// sum() as the kernels compute it, for a GPU holding `resident` blocks at once; the workspace is
// `ws_addr` bytes into memory (the partials start at its first 16-byte boundary).
float model_sum(const std::vector<float>& x, std::uintptr_t addr, Algorithm a, std::int64_t resident,
                std::uintptr_t ws_addr, bool grid = false) {
  const auto n = static_cast<std::int64_t>(x.size());
  const rd::ReducePlan p = rd::make_plan(n, a, resident);
  if (p.passes == 0) return 0.0f;
  if (rd::single_launch(n, a)) return model_single_launch(x.data(), addr, n, grid);
  if (p.passes == 1) return model_pass(x.data(), addr, n, 1, a)[0];
  const std::vector<float> partials = model_pass(x.data(), addr, n, p.blocks, a);
  return model_pass(partials.data(), rd::align_partials(ws_addr), p.blocks, 1, a)[0];
}

// ---- generators ----------------------------------------------------------------------------------

rc::Gen<std::int64_t> gen_small_n() {
  return rc::gen::oneOf(rc::gen::inRange<std::int64_t>(0, 70), rc::gen::inRange<std::int64_t>(0, 5000),
                        rc::gen::inRange<std::int64_t>(0, 70000),
                        rc::gen::elementOf(std::vector<std::int64_t>{255, 256, 257, 4095, 4096, 4097, 8193, 65536}));
}

// Resident blocks of a small simulated GPU (uniform, not scaled by RapidCheck's size).
rc::Gen<std::int64_t> gen_resident() {
  return rc::gen::oneOf(rc::gen::elementOf(std::vector<std::int64_t>{1, 2, 3, 5, 16, 33, 47}),
                        rc::gen::inRange<std::int64_t>(1, 48));
}

rc::Gen<Algorithm> gen_algo() {
  return rc::gen::elementOf(std::vector<Algorithm>(std::begin(kAllAlgorithms), std::end(kAllAlgorithms)));
}

std::uintptr_t aligned_addr(int offset_floats) { return 0x10000 + 4 * static_cast<std::uintptr_t>(offset_floats); }

// Mixed signs, non-negative, magnitudes over 2^+-60, large cancelling terms.
using gpuprims::testkit::Dist;
const Dist kValueDists[] = {Dist::uniform_pm1, Dist::nonnegative, Dist::wide_magnitude, Dist::cancelling};

std::vector<float> values(std::int64_t n, std::uint64_t seed, int dist) {
  std::mt19937_64 rng(seed);
  return gpuprims::testkit::random_vector(static_cast<std::size_t>(n), rng, kValueDists[dist]);
}

// ---- properties ------------------------------------------------------------------------------------

TEST(ReducePlanProp, PlanInvariants) {
  EXPECT_TRUE(rc::check("plan: grid capped, passes, workspace within workspace_bytes, items cover n", [] {
    const auto n = *rc::gen::oneOf(rc::gen::inRange<std::int64_t>(0, 1 << 20),
                                   rc::gen::inRange<std::int64_t>(0, std::int64_t{1} << 40));
    const Algorithm a = *gen_algo();
    const auto resident = *rc::gen::inRange<std::int64_t>(1, 40000);
    const rd::ReducePlan p = rd::make_plan(n, a, resident);
    if (n == 0) {
      RC_ASSERT(p.passes == 0);
      return;
    }
    RC_ASSERT(p.blocks >= 1);
    RC_ASSERT(p.blocks <= Tuning::kMaxPartials);
    RC_ASSERT(p.blocks <= resident);
    RC_ASSERT(p.blocks <= rd::max_pass1_blocks(n, a));
    RC_ASSERT(p.passes == (p.blocks > 1 ? 2 : 1));
    RC_ASSERT(p.workspace_bytes <= gpuprims::reduce::workspace_bytes(n, a));
    const std::int64_t partial_count = p.passes == 2 ? p.blocks : rd::single_launch(n, a) ? SP::kGridBlocks : 0;
    RC_ASSERT(p.workspace_bytes == (partial_count > 0 ? static_cast<std::size_t>(partial_count) * 4 + 12 : 0u));
    RC_ASSERT(p.blocks * p.threads * p.items_per_thread >= n);  // every item has an owner
    if (p.passes == 2) RC_ASSERT(T * p.pass2_items_per_thread >= p.blocks);
    // Not more items per thread than needed: one more block-wide round would already cover n (a single
    // launch's chain also counts the grid kernel's block sums).
    const std::int64_t grid_adds = rd::single_launch(n, a) ? SP::kGridBlocks : 0;
    if (rd::load_shape(a) == rd::LoadShape::tile_per_thread) RC_ASSERT((p.items_per_thread - 1) * p.blocks * T < n);
    else {
      // The chain counts up to `unroll` float4s beyond ceil(float4s / threads) (warp chunks).
      const std::int64_t unroll = rd::single_launch(n, a) ? SP::kOneBlockUnroll : rd::vector_unroll(a);
      RC_ASSERT((p.items_per_thread - 2 - 4 - 4 * unroll - grid_adds) * p.blocks * p.threads < n);
    }
    RC_ASSERT(p.bound_items() <= rd::bound_items_upper(n, a, 1 + resident / 32));
  }));
}

TEST(ReducePlanProp, WorkspaceIsMonotoneInN) {
  EXPECT_TRUE(rc::check("workspace_bytes(n1) <= workspace_bytes(n2) for n1 <= n2", [] {
    const auto n1 = *rc::gen::inRange<std::int64_t>(0, std::int64_t{1} << 33);
    const auto d = *rc::gen::inRange<std::int64_t>(0, std::int64_t{1} << 24);
    const Algorithm a = *gen_algo();
    RC_ASSERT(gpuprims::reduce::workspace_bytes(n1, a) <= gpuprims::reduce::workspace_bytes(n1 + d, a));
    RC_ASSERT(gpuprims::reduce::workspace_bytes(n1 + d, a) <= Tuning::kMaxPartials * sizeof(float) + 12);
  }));
}

TEST(ReducePlanProp, VecSplitPartitionsTheRange) {
  EXPECT_TRUE(rc::check("head + 4 * vec_count + tail == n; the body starts 16-byte aligned", [] {
    const auto n = *rc::gen::inRange<std::int64_t>(0, std::int64_t{1} << 40);
    const auto off = *rc::gen::inRange<int>(0, 64);
    const std::uintptr_t addr = aligned_addr(off);
    const rd::VecSplit s = rd::vec_split(addr, n);
    RC_ASSERT(s.head >= 0 && s.head <= 3);
    RC_ASSERT(s.tail >= 0 && s.tail <= 3);
    RC_ASSERT(s.vec_count >= 0);
    RC_ASSERT(s.tail_begin == s.head + 4 * s.vec_count);
    RC_ASSERT(s.head + 4 * s.vec_count + s.tail == n);
    if (s.vec_count > 0) RC_ASSERT((addr + 4 * static_cast<std::uintptr_t>(s.head)) % 16 == 0);
  }));
}

TEST(ReducePlanProp, EveryItemIsAddedOnceAndChainsFitThePlan) {
  EXPECT_TRUE(rc::check("the thread loops add each item once, at most items_per_thread per thread", [] {
    const auto n = *gen_small_n();
    const Algorithm a = *gen_algo();
    const auto resident = *gen_resident();
    const auto off = *rc::gen::element(0, 1, 2, 3);
    const rd::ReducePlan p = rd::make_plan(n, a, resident);
    if (n == 0) return;
    std::vector<int> seen(static_cast<std::size_t>(n), 0);
    if (rd::load_shape(a) == rd::LoadShape::tile_per_thread) {
      const std::int64_t tiles = (n + T - 1) / T;
      for (std::int64_t b = 0; b < p.blocks; ++b) {
        std::int64_t chain = 0;
        for (std::int64_t tile = b; tile < tiles; tile += p.blocks, ++chain)
          for (std::int64_t t = 0; t < T && tile * T + t < n; ++t) ++seen[tile * T + t];
        RC_ASSERT(chain <= p.items_per_thread);
        RC_ASSERT(chain >= 1);  // no block without work
      }
    } else {
      const rd::VecSplit s = rd::vec_split(aligned_addr(off), n);
      const std::int64_t threads = p.blocks * p.threads;
      const int unroll = rd::single_launch(n, a) ? SP::kOneBlockUnroll : rd::vector_unroll(a);
      for (std::int64_t g = 0; g < threads; ++g) {
        std::int64_t items = 0;
        visit_thread_items(
            s, g, threads,
            [&](int u, std::int64_t idx) {
          const int width = u >= 0 ? 4 : 1;
          for (int c = 0; c < width; ++c) {
            RC_ASSERT(idx + c < n);
            ++seen[idx + c];
          }
          items += width;
            },
            unroll);
        RC_ASSERT(items <= p.items_per_thread);
      }
    }
    for (std::int64_t i = 0; i < n; ++i) RC_ASSERT(seen[i] == 1);
  }));
}

TEST(ReducePlanProp, ModelIsExactOnSmallIntegers) {
  EXPECT_TRUE(rc::check("integer data with sum|x| <= 2^24 sums exactly in every rung's order", [] {
    const auto n = *gen_small_n();
    const Algorithm a = *gen_algo();
    const auto resident = *gen_resident();
    const auto off = *rc::gen::element(0, 1, 2, 3);
    const auto ws_off = *rc::gen::element(0, 1, 2, 3);
    std::mt19937_64 rng(*rc::gen::arbitrary<std::uint64_t>());
    const std::vector<float> x = gpuprims::testkit::random_integers(static_cast<std::size_t>(n), rng, -3, 3);
    double exact = 0.0;
    for (float v : x) exact += v;
    RC_ASSERT(static_cast<double>(model_sum(x, aligned_addr(off), a, resident, aligned_addr(ws_off))) == exact);
  }));
}

TEST(ReducePlanProp, ModelDoesNotDependOnTheWorkspaceAddress) {
  EXPECT_TRUE(rc::check("the same bits for every workspace offset", [] {
    const auto n = *gen_small_n();
    const Algorithm a = *gen_algo();
    const auto resident = *gen_resident();
    const auto off = *rc::gen::element(0, 1, 2, 3);
    const std::vector<float> x = values(n, *rc::gen::arbitrary<std::uint64_t>(), 2);
    const float s0 = model_sum(x, aligned_addr(off), a, resident, aligned_addr(0));
    for (int ws_off = 1; ws_off < 4; ++ws_off) {
      const float s = model_sum(x, aligned_addr(off), a, resident, aligned_addr(ws_off));
      // NOLINTNEXTLINE(bugprone-suspicious-memory-comparison): the same bits is the point
      RC_ASSERT(std::memcmp(&s, &s0, sizeof s) == 0);
    }
  }));
}

TEST(ReducePlanProp, ModelStaysWithinTheDesignBound) {
  EXPECT_TRUE(rc::check("|model - ref| <= 2 (items + log2 threads + passes + 2) 2^-24 sum|x|", [] {
    const auto n = *gen_small_n();
    const Algorithm a = *gen_algo();
    const auto resident = *gen_resident();
    const auto off = *rc::gen::element(0, 1, 2, 3);
    const auto dist = *rc::gen::element(0, 1, 2, 3);
    const std::vector<float> x = values(n, *rc::gen::arbitrary<std::uint64_t>(), dist);
    const float s = model_sum(x, aligned_addr(off), a, resident, aligned_addr(0));
    const gpuprims::test::SumReference ref = gpuprims::test::reference_sum(x.data(), n);
    const rd::ReducePlan p = rd::make_plan(n, a, resident);
    const double bound = gpuprims::test::sum_error_bound(ref.abs_sum, static_cast<double>(p.bound_items()),
                                                         rd::bound_log2_threads(n, a), p.passes);
    const double err = std::fabs(static_cast<double>(s) - ref.sum);
    RC_ASSERT(err <= bound);
    if (rd::single_launch(n, a)) {  // the grid kernel too
      const float sc = model_sum(x, aligned_addr(off), a, resident, aligned_addr(0), true);
      RC_ASSERT(std::fabs(static_cast<double>(sc) - ref.sum) <= bound);
    }
  }));
}

}  // namespace
