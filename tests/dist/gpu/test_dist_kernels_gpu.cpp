// The combine kernels on one GPU, without NCCL (so they also run under every compute-sanitizer
// tool): the device results equal the host functions they share (combine.hpp) bit for bit.
#include <gtest/gtest.h>

#include <gpuprims/top2.hpp>

#include <cstring>
#include <limits>
#include <vector>

#include "dist/gpu/dist_env.hpp"
#include "dist/src/combine.hpp"
#include "dist/src/combine_kernels.hpp"
#include "support/gpu.hpp"
#include "support/random.hpp"
#include "testkit/random.hpp"

namespace {

using gpuprims::Status;
using gpuprims::Top2;
namespace dd = gpuprims::dist::detail;
namespace t = gpuprims::test;

template <class T>
T* device_copy(const std::vector<T>& host) {
  T* p = nullptr;
  if (cudaMalloc(reinterpret_cast<void**>(&p), host.size() * sizeof(T) + sizeof(T)) != cudaSuccess) return nullptr;
  (void)cudaMemcpy(p, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
  return p;
}

template <class T>
T read_back(const T* p) {
  T v;
  std::memset(&v, 0, sizeof v);
  (void)cudaMemcpy(&v, p, sizeof v, cudaMemcpyDeviceToHost);
  return v;
}

TEST(DistKernels, SumInRankOrderMatchesTheHost) {
  GPUPRIMS_REQUIRE_GPU();
  auto rng = t::make_rng(0xc0b1);
  for (int count : {1, 2, 3, 8, 100}) {
    const auto partials = gpuprims::testkit::random_vector(static_cast<std::size_t>(count), rng,
                                                           gpuprims::testkit::Dist::mixed_magnitude);
    float* d = device_copy(partials);
    ASSERT_NE(d, nullptr);
    ASSERT_STATUS(Status::success, dd::launch_sum_in_rank_order(d, count, d + count, nullptr));
    CUDA_OK(cudaDeviceSynchronize());
    const float got = read_back(d + count), want = dd::sum_in_rank_order(partials.data(), count);
    EXPECT_EQ(0, std::memcmp(&got, &want, sizeof got)) << count;
    CUDA_OK(cudaFree(d));
  }
}

TEST(DistKernels, GlobalizeAndMergeMatchTheHost) {
  GPUPRIMS_REQUIRE_GPU();
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<Top2> per_rank = {
      {{2.0f, 3, 1}, {5.0f, 0, 0}},
      {{inf, -1, -1}, {inf, -1, -1}},
      {{-1.0f, 0, 2}, {2.0f, 1, 0}},
      {{std::nanf(""), 0, 0}, {inf, -1, -1}},
  };
  const std::vector<std::int64_t> begins = {0, 4, 4, 9};
  std::vector<Top2> globalized;
  Top2* d = device_copy(per_rank);
  ASSERT_NE(d, nullptr);
  for (std::size_t r = 0; r < per_rank.size(); ++r) {
    ASSERT_STATUS(Status::success, dd::launch_globalize_rows(d + r, begins[r], nullptr));
    globalized.push_back(dd::globalize_rows(per_rank[r], begins[r]));
  }
  ASSERT_STATUS(Status::success, dd::launch_merge_in_rank_order(d, 4, 3, d + 4, nullptr));
  CUDA_OK(cudaDeviceSynchronize());
  for (std::size_t r = 0; r < per_rank.size(); ++r) {
    const Top2 got = read_back(d + r);
    EXPECT_EQ(0, std::memcmp(&got, &globalized[r], sizeof got)) << r;
  }
  const Top2 got = read_back(d + 4), want = dd::merge_in_rank_order(globalized.data(), 4, 3);
  EXPECT_EQ(0, std::memcmp(&got, &want, sizeof got));
  EXPECT_EQ(got.first.row, 4);  // -1.0 at local (0, 2) of the rank starting at row 4
  EXPECT_EQ(got.first.col, 2);
  CUDA_OK(cudaFree(d));
}

}  // namespace
