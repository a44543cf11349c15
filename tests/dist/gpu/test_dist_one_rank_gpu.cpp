// A one-rank communicator on device 0: the dist calls reduce to the core calls (same bits), and NCCL
// never waits for another GPU, so these run on a one-GPU machine and under compute-sanitizer.
#include <gtest/gtest.h>

#include <gpuprims/dist.hpp>
#include <gpuprims/gemm.hpp>
#include <gpuprims/reduce.hpp>

#include <cstring>
#include <vector>

#include "dist/gpu/dist_env.hpp"
#include "dist/gpu/gemm_shards.hpp"
#include "support/device_helpers.hpp"
#include "support/gpu.hpp"
#include "support/random.hpp"
#include "testkit/random.hpp"

namespace {

using gpuprims::Status;
namespace dist = gpuprims::dist;
namespace t = gpuprims::test;

#define REQUIRE_ONE_RANK()                                    \
  do {                                                        \
    GPUPRIMS_REQUIRE_GPU();                                   \
    ASSERT_FALSE(t::one_rank().empty()) << t::clique_error(); \
  } while (0)

TEST(DistOneRank, SumIsReduceSum) {
  REQUIRE_ONE_RANK();
  const t::Rank& r = t::one_rank()[0];
  t::OnDevice on(r.device);
  const std::int64_t n = t::sanitizer_sized_count((1 << 22) + 7);
  t::RankArray in(r.device, static_cast<std::size_t>(n), 1), out(r.device, 2);
  CUDA_OK(gpuprims::testkit::fill_uniform(in.data(), n, 77, -1.0f, 1.0f));
  ASSERT_STATUS(Status::success, gpuprims::reduce::sum(in.data(), n, out.data() + 1));
  ASSERT_STATUS(Status::success, dist::sum(r.comm, in.data(), n, out.data(), r.stream));
  CUDA_OK(cudaDeviceSynchronize());
  CUDA_OK(cudaStreamSynchronize(r.stream));
  const auto v = out.download();
  EXPECT_EQ(0, std::memcmp(&v[0], &v[1], sizeof(float)));
  EXPECT_EQ("", out.guard_damage());
}

TEST(DistOneRank, SgemmAndTop2AreTheCoreCalls) {
  REQUIRE_ONE_RANK();
  const std::vector<t::Rank>& ranks = t::one_rank();
  t::DistGemmCase c;
  c.m = 70, c.n = 50, c.k = 40, c.alpha = 1.5f, c.beta = 0.5f;
  c.broadcast = true;  // root 0 of one rank: the broadcast is a no-op copy
  auto rng = t::make_rng(0x0e);
  auto d = t::make_dist_gemm(ranks, c, rng);
  auto calls = t::dist_gemm_calls(ranks, c, *d);
  ASSERT_STATUS(Status::success,
                dist::sgemm_top2_argmin(calls[0].comm, calls[0].args, calls[0].d_top2, ranks[0].stream));
  ASSERT_EQ("", t::sync_all(ranks));
  EXPECT_EQ("", t::top2_bits_diff(d->top2[0]->download(), t::one_gpu_top2(c, *d)));
  EXPECT_EQ("", t::check_dist_c(c, *d));
  // sgemm: the same bits as gemm::sgemm on the same buffers.
  d->C[0]->upload(d->in.C);
  ASSERT_STATUS(Status::success, dist::sgemm(calls[0].comm, calls[0].args, ranks[0].stream));
  ASSERT_EQ("", t::sync_all(ranks));
  const auto dist_c = d->C[0]->download();
  d->C[0]->upload(d->in.C);
  {
    t::OnDevice on(ranks[0].device);
    const dist::SgemmArgs& a = calls[0].args;
    ASSERT_STATUS(Status::success, gpuprims::gemm::sgemm(a.m_local, a.n, a.k, a.alpha, a.A_local, a.lda, a.B, a.ldb,
                                                         a.beta, a.C_local, a.ldc));
    CUDA_OK(cudaDeviceSynchronize());
  }
  const auto core_c = d->C[0]->download();
  EXPECT_EQ(0, std::memcmp(dist_c.data(), core_c.data(), dist_c.size() * sizeof(float)));
  EXPECT_EQ("", t::dist_guard_damage(*d));
}

TEST(DistOneRank, ListedDevicesAndBadDevices) {
  GPUPRIMS_REQUIRE_GPU();
  ncclComm_t comms[2] = {nullptr, nullptr};
  const int bad[] = {t::gpu_count()};
  EXPECT_STATUS(Status::unsupported, dist::make_local_comms(comms, 1, bad)) << "a device that does not exist";
  EXPECT_EQ(comms[0], nullptr);
  const int twice[] = {0, 0};
  EXPECT_STATUS(Status::invalid_argument, dist::make_local_comms(comms, 2, twice));
  const int last[] = {t::gpu_count() - 1};
  setenv("NCCL_NVLS_ENABLE", "0", 1);
  ASSERT_STATUS(Status::success, dist::make_local_comms(comms, 1, last));
  ASSERT_NE(comms[0], nullptr);
  int device = -1;
  EXPECT_EQ(ncclSuccess, ncclCommCuDevice(comms[0], &device));
  EXPECT_EQ(device, last[0]);
  EXPECT_STATUS(Status::success, dist::destroy_local_comms(comms, 1));
  EXPECT_EQ(comms[0], nullptr);
}

}  // namespace
