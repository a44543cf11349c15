// dist::sgemm_top2_argmin over every visible GPU: every rank holds the same Top2, bit for bit the
// one-GPU gemm::sgemm_top2_argmin over the whole matrix (each rank's GEMM runs with that call's plan):
// random and integer data (ties, also across ranks), the tuned algorithm where a rank's own plan
// would differ (few rows, split k) and a ladder algorithm, zero-row ranks, B replicated or
// broadcast from a root other than 0, C stored or not, alpha and beta, both drivers, explicit
// workspace, fewer than two entries.
#include <gtest/gtest.h>

#include <gpuprims/dist.hpp>

#include <thread>
#include <vector>

#include "dist/gpu/dist_env.hpp"
#include "dist/gpu/gemm_shards.hpp"
#include "support/gpu.hpp"
#include "support/random.hpp"

namespace {

using gpuprims::Status;
namespace dist = gpuprims::dist;
namespace t = gpuprims::test;

enum class Driver { group, thread_per_rank, explicit_workspace };

// Runs the case; expects every rank's result to be the one-GPU answer, bit for bit.
void run_case(const t::DistGemmCase& c, Driver driver = Driver::group) {
  SCOPED_TRACE(c.describe());
  const auto& ranks = t::all_ranks();
  auto rng = t::make_rng(0x7092 + static_cast<std::uint64_t>(c.m * 131 + c.n * 17 + c.k));
  auto d = t::make_dist_gemm(ranks, c, rng);
  const gpuprims::Top2 whole = t::one_gpu_top2(c, *d);
  auto calls = t::dist_gemm_calls(ranks, c, *d);
  std::vector<std::unique_ptr<t::RankArray>> ws;
  if (driver == Driver::thread_per_rank) {
    std::vector<Status> got(ranks.size(), Status::cuda_error);
    std::vector<std::thread> threads;
    for (std::size_t r = 0; r < ranks.size(); ++r)
      threads.emplace_back(
          [&, r] { got[r] = dist::sgemm_top2_argmin(calls[r].comm, calls[r].args, calls[r].d_top2, calls[r].stream); });
    for (auto& th : threads) th.join();
    for (Status st : got) ASSERT_STATUS(Status::success, st);
  } else {
    if (driver == Driver::explicit_workspace)
      for (std::size_t r = 0; r < ranks.size(); ++r) {
        t::OnDevice on(ranks[r].device);
        const std::size_t bytes = dist::top2_workspace_bytes(calls[r].args, static_cast<int>(ranks.size()));
        ws.push_back(std::make_unique<t::RankArray>(ranks[r].device, (bytes + 3) / 4, 4));
        calls[r].d_workspace = ws.back()->data();
        calls[r].workspace_bytes = bytes;
      }
    ASSERT_STATUS(Status::success, dist::sgemm_top2_argmin(calls.data(), static_cast<int>(calls.size())));
  }
  ASSERT_EQ("", t::sync_all(ranks));
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    EXPECT_EQ("", t::top2_bits_diff(d->top2[r]->download(), whole)) << "rank " << r;
  }
  if (c.store_c) {
    EXPECT_EQ("", t::check_dist_c(c, *d));
  }
  if (c.broadcast) {
    EXPECT_EQ("", t::check_dist_b(c, *d));
  }
  EXPECT_EQ("", t::dist_guard_damage(*d));
  for (auto& w : ws) EXPECT_EQ("", w->guard_damage());
}

std::vector<std::int64_t> last_rank_holds_all(std::int64_t m, int nranks) {
  std::vector<std::int64_t> c(static_cast<std::size_t>(nranks), 0);
  c.back() = m;
  return c;
}

TEST(DistTop2, IntegerDataWithTiesAcrossRanks) {
  GPUPRIMS_REQUIRE_CLIQUE();
  const int nranks = static_cast<int>(t::all_ranks().size());
  t::DistGemmCase c;
  c.m = 41, c.n = 29, c.k = 13;
  c.dist = gpuprims::testkit::Dist::integers_small;  // exact products, many ties, also across ranks
  for (bool broadcast : {false, true})
    for (bool store : {true, false}) {
      c.broadcast = broadcast, c.root = nranks - 1, c.store_c = store;
      c.counts = {};
      run_case(c);
      c.counts = last_rank_holds_all(c.m, nranks);  // every other rank without rows
      run_case(c);
    }
  c.store_c = true, c.alpha = -2.0f, c.beta = 1.0f, c.counts = {};
  run_case(c);
}

TEST(DistTop2, RandomDataWithALadderAlgorithm) {
  GPUPRIMS_REQUIRE_CLIQUE();
  t::DistGemmCase c;
  c.m = t::sanitizer_sized_dim(515), c.n = 300, c.k = 77;
  c.algo = gpuprims::gemm::Algorithm::double_buffered;  // one k chain per entry whatever m
  c.broadcast = true, c.root = static_cast<int>(t::all_ranks().size()) - 1;
  c.store_c = false;
  run_case(c);
}

// Shapes where a rank's own tuned plan would differ from the whole call's: a small output with a
// long k (split k, and the few-rows kernel below 32 rows per rank), and a moderate one.
TEST(DistTop2, TunedRandomDataWhereARanksOwnPlanWouldDiffer) {
  GPUPRIMS_REQUIRE_CLIQUE();
  t::DistGemmCase c;
  c.m = 64, c.n = 64, c.k = t::sized_for_sanitizer<std::int64_t>(20000, 1500);
  c.store_c = false;
  run_case(c);
  c.m = 40, c.n = 3000, c.k = t::sized_for_sanitizer<std::int64_t>(4000, 600);
  run_case(c);
  c.m = t::sanitizer_sized_dim(1000), c.n = 700, c.k = 50, c.beta = 0.5f, c.store_c = true;
  run_case(c);
}

TEST(DistTop2, ThreadPerRankAndExplicitWorkspace) {
  GPUPRIMS_REQUIRE_CLIQUE();
  t::DistGemmCase c;
  c.m = 90, c.n = 45, c.k = 33;
  c.dist = gpuprims::testkit::Dist::integers_small;
  c.broadcast = true, c.root = static_cast<int>(t::all_ranks().size()) - 1;
  run_case(c, Driver::thread_per_rank);
  run_case(c, Driver::explicit_workspace);
}

TEST(DistTop2, FewerThanTwoEntries) {
  GPUPRIMS_REQUIRE_CLIQUE();
  t::DistGemmCase c;
  c.m = 1, c.n = 1, c.k = 4;  // one entry in all: the second is missing on every rank
  run_case(c);
  c.n = 0;  // none
  run_case(c);
}

}  // namespace
