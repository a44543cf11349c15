// dist::sgemm over every visible GPU against the double reference with the FP32 bound of
// docs/ERROR-BOUNDS.md (the bound gemm::sgemm's tests use): uneven and zero-row shards, B replicated
// or broadcast from a root other than 0 (every rank's B then holds the root's), paddings, alpha and
// beta including beta == 0 over NaN-poisoned C, alpha == 0, k == 0, both drivers, the explicit
// workspace, and a product large enough for the overlapped block broadcast.
#include <gtest/gtest.h>

#include <gpuprims/dist.hpp>

#include <algorithm>
#include <thread>
#include <vector>

#include "dist/gpu/dist_env.hpp"
#include "dist/gpu/gemm_shards.hpp"
#include "dist/src/broadcast_plan.hpp"
#include "support/gpu.hpp"
#include "support/random.hpp"

namespace {

using gpuprims::Status;
namespace dist = gpuprims::dist;
namespace t = gpuprims::test;

// Counts with rank 0 and a middle rank empty (zero-row ranks), the others holding uneven shares.
std::vector<std::int64_t> counts_with_empty_ranks(std::int64_t m, int nranks) {
  std::vector<std::int64_t> c(static_cast<std::size_t>(nranks), 0);
  std::vector<int> holders;
  for (int r = 1; r < nranks; ++r)
    if (nranks == 2 || r != nranks / 2) holders.push_back(r);
  std::int64_t left = m;
  for (std::size_t h = 0; h < holders.size(); ++h) {
    const std::int64_t take = h + 1 == holders.size() ? left : std::min(left, left / 2 + 1);
    c[static_cast<std::size_t>(holders[h])] = take;
    left -= take;
  }
  return c;
}

void run_case(const t::DistGemmCase& c, int sample_rows = 0, bool thread_per_rank = false) {
  SCOPED_TRACE(c.describe());
  const auto& ranks = t::all_ranks();
  auto rng = t::make_rng(0xd15700 + static_cast<std::uint64_t>(c.m * 31 + c.n * 7 + c.k));
  auto d = t::make_dist_gemm(ranks, c, rng);
  const auto calls = t::dist_gemm_calls(ranks, c, *d);
  if (thread_per_rank) {
    std::vector<Status> got(ranks.size(), Status::cuda_error);
    std::vector<std::thread> threads;
    for (std::size_t r = 0; r < ranks.size(); ++r)
      threads.emplace_back([&, r] { got[r] = dist::sgemm(calls[r].comm, calls[r].args, calls[r].stream); });
    for (auto& th : threads) th.join();
    for (Status st : got) ASSERT_STATUS(Status::success, st);
  } else {
    ASSERT_STATUS(Status::success, dist::sgemm(calls.data(), static_cast<int>(calls.size())));
  }
  ASSERT_EQ("", t::sync_all(ranks));
  EXPECT_EQ("", t::check_dist_c(c, *d, sample_rows));
  if (c.broadcast) {
    EXPECT_EQ("", t::check_dist_b(c, *d));
  }
  EXPECT_EQ("", t::dist_guard_damage(*d));
}

TEST(DistSgemm, ReplicatedAndBroadcastOverUnevenShards) {
  GPUPRIMS_REQUIRE_CLIQUE();
  const int nranks = static_cast<int>(t::all_ranks().size());
  for (bool broadcast : {false, true}) {
    t::DistGemmCase c;
    c.m = 37, c.n = 53, c.k = 19;
    c.broadcast = broadcast;
    c.root = nranks - 1;  // not 0
    c.alpha = 1.25f, c.beta = 0.0f;
    run_case(c);
    c.counts = counts_with_empty_ranks(c.m, nranks);
    run_case(c);
    c.m = 1, c.counts = {};  // fewer rows than ranks: even split with empty ranks
    run_case(c);
  }
}

TEST(DistSgemm, AlphaBetaPaddingAndEdgeSizes) {
  GPUPRIMS_REQUIRE_CLIQUE();
  const int nranks = static_cast<int>(t::all_ranks().size());
  t::DistGemmCase c;
  c.m = t::sanitizer_sized_dim(301), c.n = 130, c.k = 67;
  c.broadcast = true, c.root = nranks - 1;
  c.pad_a = 3, c.pad_b = 5, c.pad_c = 2;  // the broadcast carries B's padding between rows too
  c.alpha = -0.5f, c.beta = 0.75f;
  run_case(c);
  c.beta = 0.0f;  // NaN-poisoned C must not leak
  run_case(c);
  c.alpha = 0.0f, c.beta = 2.0f;  // C = beta C, B still broadcast
  run_case(c);
  c.alpha = 1.0f, c.k = 0;  // no product, nothing to broadcast
  run_case(c);
  c.k = 5, c.m = 0;  // no rows anywhere: B still reaches every rank
  run_case(c);
}

TEST(DistSgemm, ThreadPerRankAndExplicitWorkspace) {
  GPUPRIMS_REQUIRE_CLIQUE();
  const auto& ranks = t::all_ranks();
  t::DistGemmCase c;
  c.m = 200, c.n = 96, c.k = 300;
  c.broadcast = true, c.root = static_cast<int>(ranks.size()) - 1;
  c.beta = 0.5f;
  run_case(c, 0, /*thread_per_rank=*/true);
  // A small output with a long k: the tuned pick may split k and need workspace.
  c.m = 16, c.n = 16, c.k = t::sized_for_sanitizer<std::int64_t>(40000, 2000);
  auto rng = t::make_rng(0xd157ff);
  auto d = t::make_dist_gemm(ranks, c, rng);
  auto calls = t::dist_gemm_calls(ranks, c, *d);
  std::vector<std::unique_ptr<t::RankArray>> ws;
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    t::OnDevice on(ranks[r].device);
    const std::size_t bytes = dist::sgemm_workspace_bytes(calls[r].args);
    ws.push_back(std::make_unique<t::RankArray>(ranks[r].device, (bytes + 3) / 4 + 1, 4));
    calls[r].d_workspace = ws.back()->data();
    calls[r].workspace_bytes = bytes;
  }
  ASSERT_STATUS(Status::success, dist::sgemm(calls.data(), static_cast<int>(calls.size())));
  ASSERT_EQ("", t::sync_all(ranks));
  EXPECT_EQ("", t::check_dist_c(c, *d));
  for (auto& w : ws) EXPECT_EQ("", w->guard_damage());
}

// B = 64 MiB and k = 2048: broadcast in five blocks overlapping the GEMM, C accumulated with beta = 1
// after the first block. Checked on sampled rows of every rank (the full double reference would take
// seconds on the host), and B bit for bit on every rank.
TEST(DistSgemm, OverlappedBlockBroadcast) {
  GPUPRIMS_REQUIRE_CLIQUE();
  const auto& ranks = t::all_ranks();
  t::DistGemmCase c;
  c.m = 2 * static_cast<std::int64_t>(ranks.size()) + 61, c.n = 8192, c.k = 2048;
  c.broadcast = true, c.root = static_cast<int>(ranks.size()) - 1;
  c.alpha = 0.75f, c.beta = 0.0f;
  ASSERT_TRUE(dist::detail::plan_broadcast(c.m, c.n, c.k, c.alpha, static_cast<int>(ranks.size()),
                                           dist::BSource::broadcast_from(c.root))
                  .overlapped);
  run_case(c, /*sample_rows=*/4);
  c.beta = -1.5f, c.pad_b = 4;  // beta applied once, by the first block only; padded B
  run_case(c, 4, /*thread_per_rank=*/true);
  c.counts = counts_with_empty_ranks(c.m, static_cast<int>(ranks.size()));
  run_case(c, 4);
}

TEST(DistSgemm, BadLocalArgumentStopsTheArrayFormBeforeAnyWork) {
  GPUPRIMS_REQUIRE_CLIQUE();
  const auto& ranks = t::all_ranks();
  t::DistGemmCase c;
  c.m = 20, c.n = 8, c.k = 8;
  c.broadcast = true, c.root = 1;
  auto rng = t::make_rng(1);
  auto d = t::make_dist_gemm(ranks, c, rng);
  auto calls = t::dist_gemm_calls(ranks, c, *d);
  calls.back().args.m_local += 1;  // a shard that does not match the split
  EXPECT_STATUS(Status::invalid_argument, dist::sgemm(calls.data(), static_cast<int>(calls.size())));
  calls.back().args.m_local -= 1;
  calls[0].stream = ranks[1].stream;  // a stream of another rank's device
  EXPECT_STATUS(Status::invalid_argument, dist::sgemm(calls.data(), static_cast<int>(calls.size())));
  ASSERT_EQ("", t::sync_all(ranks));
  // Nothing ran: the C rows are still NaN, non-root B untouched.
  for (std::size_t r = 0; r < ranks.size(); ++r)
    for (float v : d->C[r]->download()) ASSERT_TRUE(v != v);
}

}  // namespace
