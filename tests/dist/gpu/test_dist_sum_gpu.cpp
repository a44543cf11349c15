// dist::sum over every visible GPU: the result on every rank is, bit for bit, reduce::sum of each
// rank's shard (on that shard's buffer: same GPU model, same address alignment) added in rank order,
// run after run; both drivers (one thread for all ranks, a thread per rank), explicit workspace,
// uneven and empty shards, and a shard past 2^31 elements. Under the sanitizer the large shard
// shrinks.
#include <gtest/gtest.h>

#include <gpuprims/dist.hpp>
#include <gpuprims/reduce.hpp>

#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "dist/gpu/dist_env.hpp"
#include "dist/src/combine.hpp"
#include "support/device_helpers.hpp"
#include "support/gpu.hpp"
#include "support/random.hpp"
#include "testkit/random.hpp"

namespace {

using gpuprims::Status;
namespace dist = gpuprims::dist;
namespace t = gpuprims::test;

std::uint32_t bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

// One shard per rank, filled on its device.
struct Shards {
  std::vector<std::unique_ptr<t::RankArray>> in, out;
  std::vector<std::int64_t> n;
};

Shards make_shards(const std::vector<t::Rank>& ranks, const std::vector<std::int64_t>& sizes, std::uint64_t seed) {
  Shards s;
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    const std::int64_t n = sizes[r % sizes.size()];
    s.n.push_back(n);
    // Offsets 0..3 floats: the shards start at different addresses mod 16.
    s.in.push_back(
        std::make_unique<t::RankArray>(ranks[r].device, static_cast<std::size_t>(n), static_cast<int>(r % 4)));
    s.out.push_back(std::make_unique<t::RankArray>(ranks[r].device, 1));
    t::OnDevice on(ranks[r].device);
    EXPECT_EQ(cudaSuccess, gpuprims::testkit::fill_uniform(s.in.back()->data(), n, seed + r, -1.0f, 1.0f));
    EXPECT_EQ(cudaSuccess, cudaDeviceSynchronize());
  }
  return s;
}

// The reference: reduce::sum of each shard on its own buffer, added in rank order on the host by
// the same function the combine kernel runs.
float expected_sum(const std::vector<t::Rank>& ranks, const Shards& s) {
  std::vector<float> partials;
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    t::OnDevice on(ranks[r].device);
    t::RankArray one(ranks[r].device, 1);
    EXPECT_STATUS(Status::success, gpuprims::reduce::sum(s.in[r]->data(), s.n[r], one.data()));
    EXPECT_EQ(cudaSuccess, cudaDeviceSynchronize());
    partials.push_back(one.download()[0]);
  }
  return dist::detail::sum_in_rank_order(partials.data(), static_cast<int>(partials.size()));
}

std::vector<dist::SumCall> calls_for(const std::vector<t::Rank>& ranks, const Shards& s) {
  std::vector<dist::SumCall> calls(ranks.size());
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    calls[r].comm = ranks[r].comm;
    calls[r].d_in_local = s.in[r]->data();
    calls[r].n_local = s.n[r];
    calls[r].d_out = s.out[r]->data();
    calls[r].stream = ranks[r].stream;
  }
  return calls;
}

void expect_every_rank(const std::vector<t::Rank>& ranks, const Shards& s, float want, const char* what) {
  ASSERT_EQ("", t::sync_all(ranks)) << what;
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    EXPECT_EQ(bits(s.out[r]->download()[0]), bits(want)) << what << ": rank " << r;
    EXPECT_EQ("", s.out[r]->guard_damage()) << what << ": rank " << r;
    EXPECT_EQ("", s.in[r]->guard_damage()) << what << ": rank " << r;
  }
}

TEST(DistSum, EqualsPerShardSumsInRankOrderOnEveryRank) {
  GPUPRIMS_REQUIRE_CLIQUE();
  const auto& ranks = t::all_ranks();
  const std::vector<std::vector<std::int64_t>> patterns = {
      {1000, 1000}, {(1 << 20) + 3, 17}, {0, 5000},
      {5000, 0},    {1, 0, 2, 0, 3},     {t::sanitizer_sized_count((1 << 24) + 11), 1, 257}};
  for (const auto& sizes : patterns) {
    Shards s = make_shards(ranks, sizes, 0x50d1u + sizes[0]);
    const float want = expected_sum(ranks, s);
    auto calls = calls_for(ranks, s);
    ASSERT_STATUS(Status::success, dist::sum(calls.data(), static_cast<int>(calls.size())));
    expect_every_rank(ranks, s, want, "one thread, all ranks");
    // Run to run: the same bits again.
    for (auto& o : s.out) o->poison();
    ASSERT_STATUS(Status::success, dist::sum(calls.data(), static_cast<int>(calls.size())));
    expect_every_rank(ranks, s, want, "second run");
  }
}

TEST(DistSum, ThreadPerRankAndExplicitWorkspace) {
  GPUPRIMS_REQUIRE_CLIQUE();
  const auto& ranks = t::all_ranks();
  Shards s = make_shards(ranks, {(1 << 18) + 5, 33, 0}, 0xabc);
  const float want = expected_sum(ranks, s);
  std::vector<Status> got(ranks.size(), Status::cuda_error);
  std::vector<std::thread> threads;
  for (std::size_t r = 0; r < ranks.size(); ++r)
    threads.emplace_back(
        [&, r] { got[r] = dist::sum(ranks[r].comm, s.in[r]->data(), s.n[r], s.out[r]->data(), ranks[r].stream); });
  for (auto& th : threads) th.join();
  for (Status st : got) ASSERT_STATUS(Status::success, st);
  expect_every_rank(ranks, s, want, "a thread per rank");

  // The explicit-workspace form, workspace offset by 16 bytes from its allocation.
  std::vector<std::unique_ptr<t::RankArray>> ws;
  auto calls = calls_for(ranks, s);
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    const std::size_t bytes = dist::sum_workspace_bytes(s.n[r], static_cast<int>(ranks.size()));
    ASSERT_GT(bytes, 0u);
    ws.push_back(std::make_unique<t::RankArray>(ranks[r].device, (bytes + 3) / 4, 4));
    calls[r].d_workspace = ws.back()->data();
    calls[r].workspace_bytes = bytes;
    s.out[r]->poison();
  }
  ASSERT_STATUS(Status::success, dist::sum(calls.data(), static_cast<int>(calls.size())));
  expect_every_rank(ranks, s, want, "explicit workspace");
  for (auto& w : ws) EXPECT_EQ("", w->guard_damage());
  // Too small a workspace on one rank: refused before any collective (the array form checks all).
  calls[0].workspace_bytes -= 1;
  EXPECT_STATUS(Status::invalid_argument, dist::sum(calls.data(), static_cast<int>(calls.size())));
}

TEST(DistSum, EveryShardEmptyGivesPositiveZero) {
  GPUPRIMS_REQUIRE_CLIQUE();
  const auto& ranks = t::all_ranks();
  Shards s = make_shards(ranks, {0}, 1);
  auto calls = calls_for(ranks, s);
  ASSERT_STATUS(Status::success, dist::sum(calls.data(), static_cast<int>(calls.size())));
  expect_every_rank(ranks, s, 0.0f, "all empty");
}

// A shard past 2^31 elements (8 GiB) on rank 0: 64-bit sizes through the whole call.
TEST(DistSum, ShardPast2To31Elements) {
  GPUPRIMS_REQUIRE_CLIQUE();
  const auto& ranks = t::all_ranks();
  const std::int64_t big = t::sized_for_sanitizer<std::int64_t>((std::int64_t{1} << 31) + 5, (1 << 21) + 17);
  {
    t::OnDevice on(ranks[0].device);
    if (t::gpu_free_bytes() < static_cast<std::size_t>(big) * 4 + (std::size_t{1} << 30))
      GTEST_SKIP() << "device 0 lacks the " << big * 4 / (1 << 20) << " MiB this test needs";
  }
  Shards s = make_shards(ranks, {big, 1000}, 0xb16);
  const float want = expected_sum(ranks, s);
  auto calls = calls_for(ranks, s);
  ASSERT_STATUS(Status::success, dist::sum(calls.data(), static_cast<int>(calls.size())));
  expect_every_rank(ranks, s, want, "2^31 + 5 on rank 0");
}

}  // namespace
