// reduce::sum on a device, every variant: the sizes of the issue and random ones, inputs offset by 0-3
// floats from a 256-byte boundary (and workspaces offset too), guard bands around inputs, outputs and
// workspaces, exact integer sums, determinism, NaN/inf, bad inputs (no launch), a user stream, and one
// input past 2^31 items. Under the sanitizer (GPUPRIMS_SANITIZER=1) inputs past 2^18 items shrink to
// 2^18 plus their tail (sanitizer_sized_count), and the huge one to 2^21 + 17.
#include <gtest/gtest.h>

#include <gpuprims/reduce.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "common/src/device_buffer.hpp"
#include "reduce/src/plan.hpp"
#include "support/device_helpers.hpp"
#include "support/gpu.hpp"
#include "support/guarded_array.hpp"
#include "support/random.hpp"
#include "support/reference.hpp"
#include "testkit/random.hpp"

namespace {

using gpuprims::Status;
using gpuprims::reduce::Algorithm;
using gpuprims::reduce::kAllAlgorithms;
namespace rd = gpuprims::reduce::detail;
using gpuprims::test::GuardedArray;

using gpuprims::test::sm_count;

// The bound of docs/ERROR-BOUNDS.md, c = 2, with the plan's chain lengths (the largest over every
// occupancy the library may measure on this GPU).
double error_bound(std::int64_t n, Algorithm a, double abs_sum) {
  const double items = static_cast<double>(rd::bound_items_upper(n, a, sm_count()));
  const double passes = rd::max_pass1_blocks(n, a) > 1 ? 2.0 : 1.0;
  return gpuprims::test::sum_error_bound(abs_sum, items, rd::bound_log2_threads(n, a), passes);
}

std::uint32_t bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

std::string label(Algorithm a, std::int64_t n, int offset) {
  return std::string(gpuprims::reduce::name(a)) + " n=" + std::to_string(n) + " offset=" + std::to_string(offset);
}

// One call through the explicit-workspace overload (workspace in its own guarded array, offset by
// ws_offset floats) or the convenience overload; returns the status and the result, checks guards.
struct SumRun {
  Status status = Status::cuda_error;
  float value = std::numeric_limits<float>::quiet_NaN();
};

SumRun run_sum(const GuardedArray& in, std::int64_t n, Algorithm a, bool explicit_ws, int ws_offset = 0,
               cudaStream_t stream = nullptr) {
  SumRun r;
  GuardedArray out(1);
  const std::size_t ws_bytes = gpuprims::reduce::workspace_bytes(n, a);
  GuardedArray ws((ws_bytes + 3) / 4, ws_offset);
  EXPECT_TRUE(out.ok() && ws.ok());
  r.status = explicit_ws
                 ? gpuprims::reduce::sum(in.data(), n, out.data(), ws_bytes ? ws.data() : nullptr, ws_bytes, a, stream)
                 : gpuprims::reduce::sum(in.data(), n, out.data(), a, stream);
  EXPECT_EQ(cudaSuccess, cudaStreamSynchronize(stream));
  EXPECT_EQ(cudaSuccess, cudaGetLastError());
  r.value = out.download()[0];
  EXPECT_EQ("", out.guard_damage()) << "output";
  EXPECT_EQ("", ws.guard_damage()) << "workspace";
  EXPECT_EQ("", in.guard_damage()) << "input";
  return r;
}

void expect_within_bound(float s, const gpuprims::test::SumReference& ref, std::int64_t n, Algorithm a) {
  const double err = std::fabs(static_cast<double>(s) - ref.sum);
  const double bound = error_bound(n, a, ref.abs_sum);
  // Written so that a NaN result fails.
  EXPECT_TRUE(err <= bound) << "sum " << s << " reference " << ref.sum << " error " << err << " bound " << bound;
}

std::vector<std::int64_t> test_sizes() {
  std::vector<std::int64_t> sizes = {0, 1, 2, 31, 32, 33, 255, 256, 257, 1023, 1024, 1025, (1 << 20) + 3, 1 << 24};
  auto rng = gpuprims::test::make_rng(0x5eed0001);
  std::uniform_int_distribution<std::int64_t> small(1, 5000), large(5001, 1 << 22);
  sizes.push_back(small(rng));
  sizes.push_back(small(rng));
  sizes.push_back(large(rng));
  sizes.push_back(large(rng));
  for (auto& n : sizes) n = gpuprims::test::sanitizer_sized_count(n);
  return sizes;
}

using gpuprims::testkit::Dist;
const Dist kDists[] = {Dist::uniform_pm1, Dist::mixed_magnitude, Dist::nonnegative, Dist::uniform_pm1};

TEST(ReduceGpu, EveryVariantEverySizeEveryOffset) {
  GPUPRIMS_REQUIRE_GPU();
  auto rng = gpuprims::test::make_rng(0x5eed0002);
  for (std::int64_t n : test_sizes())
    for (int offset = 0; offset < 4; ++offset) {
      GuardedArray in(static_cast<std::size_t>(n), offset);
      ASSERT_TRUE(in.ok());
      const auto x = gpuprims::testkit::random_vector(static_cast<std::size_t>(n), rng, kDists[offset]);
      in.upload(x);
      const gpuprims::test::SumReference ref = gpuprims::test::reference_sum(x.data(), n);
      for (Algorithm a : kAllAlgorithms) {
        SCOPED_TRACE(label(a, n, offset));
        const SumRun r = run_sum(in, n, a, /*explicit_ws=*/true, /*ws_offset=*/offset);
        ASSERT_STATUS(Status::success, r.status);
        if (n == 0) {
          EXPECT_EQ(0u, bits(r.value));
          continue;
        }
        expect_within_bound(r.value, ref, n, a);
      }
    }
}

// Every code path (one and two passes, head 0-3, tail 0-3, the unrolled loop and its remainder, tile
// padding) at sizes small enough for compute-sanitizer racecheck: run it alone with
// --gtest_filter=ReduceGpu.SanitizerSizedAllPaths for a quick sanitizer pass.
TEST(ReduceGpu, SanitizerSizedAllPaths) {
  GPUPRIMS_REQUIRE_GPU();
  auto rng = gpuprims::test::make_rng(0x5eed0008);
  for (std::int64_t n : {std::int64_t{1}, std::int64_t{7}, std::int64_t{33}, std::int64_t{257}, std::int64_t{4096},
                         std::int64_t{4097}, std::int64_t{20000 + 3}, std::int64_t{70001}})
    for (int offset = 0; offset < 4; ++offset) {
      GuardedArray in(static_cast<std::size_t>(n), offset);
      ASSERT_TRUE(in.ok());
      const auto x = gpuprims::testkit::random_vector(static_cast<std::size_t>(n), rng);
      in.upload(x);
      const auto ref = gpuprims::test::reference_sum(x.data(), n);
      for (Algorithm a : kAllAlgorithms) {
        SCOPED_TRACE(label(a, n, offset));
        const SumRun r = run_sum(in, n, a, true, 3 - offset);
        ASSERT_STATUS(Status::success, r.status);
        expect_within_bound(r.value, ref, n, a);
      }
    }
}

TEST(ReduceGpu, SameBitsWhateverTheWorkspace) {
  GPUPRIMS_REQUIRE_GPU();
  auto rng = gpuprims::test::make_rng(0x5eed0003);
  for (std::int64_t n : {std::int64_t{0}, std::int64_t{257}, std::int64_t{4097}, std::int64_t{(1 << 20) + 3}}) {
    n = gpuprims::test::sanitizer_sized_count(n);
    GuardedArray in(static_cast<std::size_t>(n), 1);
    ASSERT_TRUE(in.ok());
    in.upload(gpuprims::testkit::random_vector(static_cast<std::size_t>(n), rng));
    for (Algorithm a : kAllAlgorithms) {
      SCOPED_TRACE(label(a, n, 1));
      const SumRun c = run_sum(in, n, a, false);
      ASSERT_STATUS(Status::success, c.status);
      // The explicit overload, with the workspace at every 4-byte offset from a 16-byte boundary.
      for (int ws_offset = 0; ws_offset < 4; ++ws_offset) {
        const SumRun e = run_sum(in, n, a, true, ws_offset);
        ASSERT_STATUS(Status::success, e.status);
        EXPECT_EQ(bits(c.value), bits(e.value)) << "workspace offset " << ws_offset;
      }
    }
  }
}

// Integers with sum|x| <= 2^24: every partial sum is exact, so any order gives the exact sum, and a
// lost or doubled item shows.
TEST(ReduceGpu, ExactOnSmallIntegers) {
  GPUPRIMS_REQUIRE_GPU();
  auto rng = gpuprims::test::make_rng(0x5eed0004);
  for (std::int64_t n : test_sizes()) {
    if (n == 0) continue;
    const int m = static_cast<int>(std::min<std::int64_t>(3, (std::int64_t{1} << 24) / n));
    const std::vector<float> x = gpuprims::testkit::random_integers(static_cast<std::size_t>(n), rng, -m, m);
    double exact = 0.0;
    for (float v : x) exact += v;
    for (int offset = 0; offset < 4; ++offset) {
      GuardedArray in(static_cast<std::size_t>(n), offset);
      ASSERT_TRUE(in.ok());
      in.upload(x);
      for (Algorithm a : kAllAlgorithms) {
        SCOPED_TRACE(label(a, n, offset));
        const SumRun r = run_sum(in, n, a, true, 3 - offset);
        ASSERT_STATUS(Status::success, r.status);
        EXPECT_EQ(exact, static_cast<double>(r.value));
      }
    }
  }
}

TEST(ReduceGpu, DeterministicTenRuns) {
  GPUPRIMS_REQUIRE_GPU();
  auto rng = gpuprims::test::make_rng(0x5eed0005);
  for (std::int64_t n : {std::int64_t{1025}, std::int64_t{(1 << 20) + 3}, std::int64_t{1} << 24}) {
    n = gpuprims::test::sanitizer_sized_count(n);
    GuardedArray in(static_cast<std::size_t>(n), 1);
    ASSERT_TRUE(in.ok());
    in.upload(gpuprims::testkit::random_vector(static_cast<std::size_t>(n), rng, Dist::mixed_magnitude));
    for (Algorithm a : kAllAlgorithms) {
      SCOPED_TRACE(label(a, n, 1));
      const std::size_t wsb = gpuprims::reduce::workspace_bytes(n, a);
      gpuprims::detail::DeviceBuffer<float> out(1), ws(wsb / 4 + 1);
      std::uint32_t first = 0;
      for (int run = 0; run < 10; ++run) {
        CUDA_OK(cudaMemset(out.get(), 0xff, sizeof(float)));
        ASSERT_STATUS(Status::success, gpuprims::reduce::sum(in.data(), n, out.get(), ws.get(), wsb, a));
        float v = 0.0f;
        CUDA_OK(cudaMemcpy(&v, out.get(), sizeof v, cudaMemcpyDeviceToHost));
        ASSERT_FALSE(std::isnan(v));
        if (run == 0) first = bits(v);
        EXPECT_EQ(first, bits(v)) << "run " << run;
      }
    }
  }
}

TEST(ReduceGpu, NanAndInfinityPropagate) {
  GPUPRIMS_REQUIRE_GPU();
  auto rng = gpuprims::test::make_rng(0x5eed0006);
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (std::int64_t size : {std::int64_t{1}, std::int64_t{33}, std::int64_t{1025}, std::int64_t{(1 << 20) + 3}})
    for (int offset : {0, 3}) {
      const std::int64_t n = gpuprims::test::sanitizer_sized_count(size);
      const auto base = gpuprims::testkit::random_vector(static_cast<std::size_t>(n), rng);
      std::uniform_int_distribution<std::int64_t> pos(0, n - 1);
      // Positions: the head, the tail, and random ones.
      const std::int64_t where[] = {0, n - 1, pos(rng), pos(rng)};
      GuardedArray in(static_cast<std::size_t>(n), offset);
      ASSERT_TRUE(in.ok());
      for (std::int64_t w : where) {
        auto x = base;
        x[static_cast<std::size_t>(w)] = nan;
        in.upload(x);
        for (Algorithm a : kAllAlgorithms) {
          SCOPED_TRACE(label(a, n, offset) + " NaN at " + std::to_string(w));
          const SumRun r = run_sum(in, n, a, true);
          ASSERT_STATUS(Status::success, r.status);
          EXPECT_TRUE(std::isnan(r.value)) << r.value;
        }
        x = base;
        x[static_cast<std::size_t>(w)] = inf;
        in.upload(x);
        for (Algorithm a : kAllAlgorithms) {
          SCOPED_TRACE(label(a, n, offset) + " +inf at " + std::to_string(w));
          const SumRun r = run_sum(in, n, a, true);
          EXPECT_EQ(inf, r.value);
        }
        if (n < 2) continue;
        const std::int64_t other = (w + n / 2) % n == w ? (w + 1) % n : (w + n / 2) % n;
        x[static_cast<std::size_t>(other)] = -inf;
        in.upload(x);
        for (Algorithm a : kAllAlgorithms) {
          SCOPED_TRACE(label(a, n, offset) + " +inf and -inf");
          const SumRun r = run_sum(in, n, a, true);
          EXPECT_TRUE(std::isnan(r.value)) << r.value;
        }
      }
    }
}

// The calls ReduceCpu.ValidCallIsUnsupportedWithoutDevice makes without a device, with one: both
// overloads, n = 0 included, sum zeros to exactly zero over a NaN-poisoned output.
TEST(ReduceGpu, ValidCallsOnZerosSumToZero) {
  GPUPRIMS_REQUIRE_GPU();
  const std::int64_t sizes[] = {0, 1, 5000, gpuprims::test::sanitizer_sized_count(1 << 20)};
  gpuprims::detail::DeviceBuffer<float> in(1 << 20), out(1), ws(rd::ReduceTuning::kMaxPartials + 4);
  ASSERT_TRUE(in && out && ws);
  CUDA_OK(cudaMemset(in.get(), 0, in.bytes()));
  for (Algorithm a : kAllAlgorithms)
    for (std::int64_t n : sizes) {
      SCOPED_TRACE(std::string(gpuprims::reduce::name(a)) + " n=" + std::to_string(n));
      float result = 1.0f;
      CUDA_OK(cudaMemset(out.get(), 0xff, sizeof(float)));
      EXPECT_STATUS(Status::success, gpuprims::reduce::sum(in.get(), n, out.get(), ws.get(), ws.bytes(), a));
      CUDA_OK(cudaMemcpy(&result, out.get(), sizeof result, cudaMemcpyDeviceToHost));
      EXPECT_EQ(0u, bits(result));
      CUDA_OK(cudaMemset(out.get(), 0xff, sizeof(float)));
      EXPECT_STATUS(Status::success, gpuprims::reduce::sum(in.get(), n, out.get(), a));
      CUDA_OK(cudaMemcpy(&result, out.get(), sizeof result, cudaMemcpyDeviceToHost));
      EXPECT_EQ(0u, bits(result));
    }
}

// Bad inputs: the right Status, and no launch (the poisoned output stays poisoned, no CUDA error).
// Two sizes, both with two passes for every rung but single_pass, which takes the smaller in its single
// launch (whose grid kernel needs the workspace too): more than one block's minimum of every rung
// (items_per_block_min, 8192 for shuffle) and at most SinglePassTuning::kMaxItems.
class ReduceBadInputs : public ::testing::TestWithParam<std::int64_t> {};

TEST_P(ReduceBadInputs, LaunchNothing) {
  GPUPRIMS_REQUIRE_GPU();
  const std::int64_t n = GetParam();
  gpuprims::detail::DeviceBuffer<float> in(static_cast<std::size_t>(n) + 4), out(4), ws(4096);
  ASSERT_TRUE(in && out && ws);
  CUDA_OK(cudaMemset(in.get(), 0, in.bytes()));
  auto check_untouched = [&] {
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaGetLastError());
    float v = 0.0f;
    CUDA_OK(cudaMemcpy(&v, out.get(), sizeof v, cudaMemcpyDeviceToHost));
    EXPECT_EQ(0xffffffffu, bits(v)) << "the output was written";
  };
  CUDA_OK(cudaMemset(out.get(), 0xff, out.bytes()));
  float* mis_in = reinterpret_cast<float*>(reinterpret_cast<char*>(in.get()) + 2);
  float* mis_out = reinterpret_cast<float*>(reinterpret_cast<char*>(out.get()) + 2);
  void* mis_ws = reinterpret_cast<char*>(ws.get()) + 2;
  for (Algorithm a : kAllAlgorithms) {
    SCOPED_TRACE(gpuprims::reduce::name(a));
    const std::size_t wsb = gpuprims::reduce::workspace_bytes(n, a);
    ASSERT_GT(wsb, 0u) << "every rung needs a workspace at these sizes (the checks below pass wsb - 1)";
    ASSERT_LE(wsb, ws.bytes());
    using gpuprims::reduce::sum;
    EXPECT_STATUS(Status::invalid_argument, sum(nullptr, n, out.get(), ws.get(), wsb, a));
    EXPECT_STATUS(Status::invalid_argument, sum(nullptr, n, out.get(), a));
    EXPECT_STATUS(Status::invalid_argument, sum(in.get(), n, nullptr, ws.get(), wsb, a));
    EXPECT_STATUS(Status::invalid_argument, sum(in.get(), n, nullptr, a));
    EXPECT_STATUS(Status::invalid_argument, sum(in.get(), -1, out.get(), ws.get(), wsb, a));
    EXPECT_STATUS(Status::invalid_argument, sum(in.get(), -1, out.get(), a));
    EXPECT_STATUS(Status::misaligned_pointer, sum(mis_in, n, out.get(), ws.get(), wsb, a));
    EXPECT_STATUS(Status::misaligned_pointer, sum(mis_in, n, out.get(), a));
    EXPECT_STATUS(Status::misaligned_pointer, sum(in.get(), n, mis_out, ws.get(), wsb, a));
    EXPECT_STATUS(Status::misaligned_pointer, sum(in.get(), n, mis_out, a));
    EXPECT_STATUS(Status::misaligned_pointer, sum(in.get(), n, out.get(), mis_ws, wsb, a));
    EXPECT_STATUS(Status::invalid_argument, sum(in.get(), n, out.get(), ws.get(), wsb - 1, a));
    EXPECT_STATUS(Status::invalid_argument, sum(in.get(), n, out.get(), nullptr, wsb, a));
    EXPECT_STATUS(Status::invalid_argument, sum(in.get(), n, out.get(), ws.get(), 0, a));
    check_untouched();
  }
  for (int bad : {-1, static_cast<int>(kAllAlgorithms.size()), 1000}) {
    const auto a = static_cast<Algorithm>(bad);
    EXPECT_STATUS(Status::invalid_argument, gpuprims::reduce::sum(in.get(), n, out.get(), ws.get(), ws.bytes(), a));
    EXPECT_STATUS(Status::invalid_argument, gpuprims::reduce::sum(in.get(), n, out.get(), a));
    EXPECT_STATUS(Status::invalid_argument, gpuprims::reduce::sum(in.get(), 0, out.get(), a));
  }
  check_untouched();
}

INSTANTIATE_TEST_SUITE_P(TwoPassesAndSingleLaunch, ReduceBadInputs,
                         ::testing::Values(std::int64_t{(1 << 20) + 3}, std::int64_t{12291}));

TEST(ReduceGpu, LargerWorkspaceAndUserStream) {
  GPUPRIMS_REQUIRE_GPU();
  auto rng = gpuprims::test::make_rng(0x5eed0007);
  const std::int64_t n = gpuprims::test::sanitizer_sized_count((1 << 22) + 1);
  GuardedArray in(static_cast<std::size_t>(n), 2);
  ASSERT_TRUE(in.ok());
  const auto x = gpuprims::testkit::random_vector(static_cast<std::size_t>(n), rng);
  in.upload(x);
  const auto ref = gpuprims::test::reference_sum(x.data(), n);
  cudaStream_t stream = nullptr;
  CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  for (Algorithm a : kAllAlgorithms) {
    SCOPED_TRACE(gpuprims::reduce::name(a));
    gpuprims::detail::DeviceBuffer<float> out(1), ws(1 << 16);
    ASSERT_STATUS(Status::success, gpuprims::reduce::sum(in.data(), n, out.get(), ws.get(), ws.bytes(), a, stream));
    float v = 0.0f;
    CUDA_OK(cudaMemcpyAsync(&v, out.get(), sizeof v, cudaMemcpyDeviceToHost, stream));
    CUDA_OK(cudaStreamSynchronize(stream));
    expect_within_bound(v, ref, n, a);
    const SumRun r = run_sum(in, n, a, false, 0, stream);
    ASSERT_STATUS(Status::success, r.status);
    EXPECT_EQ(bits(v), bits(r.value));
  }
  CUDA_OK(cudaStreamDestroy(stream));
}

// n = 2^31 + 17: 64-bit offsets. About 8.6 GB of device memory. Random data against a double sum on
// the device, then sparse powers of two (exact) at positions on both sides of 2^31. Under the
// sanitizer the same checks run at n = 2^21 + 17 around 2^21 (8 MiB instead of 8.6 GB, which the
// tools would take far too long over): every path but the offsets past 2^31.
TEST(ReduceGpu, Huge2Pow31Plus17) {
  GPUPRIMS_REQUIRE_GPU();
  const std::int64_t pivot = std::int64_t{1} << gpuprims::test::sized_for_sanitizer(31, 21);
  const std::int64_t n = pivot + 17;
  const std::size_t count = static_cast<std::size_t>(n) + 3;
  ASSERT_GE(gpuprims::test::gpu_free_bytes(), count * sizeof(float) + (std::size_t{256} << 20))
      << "needs ~8.6 GB of free device memory";
  gpuprims::detail::DeviceBuffer<float> buf(count), out(1);
  ASSERT_TRUE(buf && out);
  const std::uint64_t seed = gpuprims::test::base_seed() ^ 0x4a6b;
  CUDA_OK(gpuprims::testkit::fill_uniform(buf.get(), static_cast<std::int64_t>(count), seed, -1.0f, 1.0f));
  for (int offset : {0, 3}) {
    gpuprims::test::SumReference ref{};
    CUDA_OK(gpuprims::test::device_reference_sum(buf.get() + offset, n, &ref));
    for (Algorithm a : kAllAlgorithms) {
      if (offset != 0 && a != Algorithm::shuffle && a != Algorithm::baseline) continue;
      SCOPED_TRACE(label(a, n, offset));
      CUDA_OK(cudaMemset(out.get(), 0xff, sizeof(float)));
      ASSERT_STATUS(Status::success, gpuprims::reduce::sum(buf.get() + offset, n, out.get(), a));
      float v = 0.0f;
      CUDA_OK(cudaMemcpy(&v, out.get(), sizeof v, cudaMemcpyDeviceToHost));
      expect_within_bound(v, ref, n, a);
    }
  }
  // Exact: zeros with 2^k at positions around 2^31; a lost, doubled or misplaced item changes the sum.
  CUDA_OK(cudaMemset(buf.get(), 0, buf.bytes()));
  const std::int64_t two31 = pivot;  // 2^21 under the sanitizer
  const std::int64_t positions[] = {0, 1, 3, two31 / 2 + 5, two31 - 1, two31, two31 + 1, two31 + 4, n - 2, n - 1};
  double exact = 0.0;
  float value = 1.0f;
  for (std::int64_t p : positions) {
    CUDA_OK(cudaMemcpy(buf.get() + p, &value, sizeof value, cudaMemcpyHostToDevice));
    exact += value;
    value *= 2.0f;
  }
  // Past the end of the range: must not be counted.
  const float outside = 4096.0f;
  CUDA_OK(cudaMemcpy(buf.get() + n, &outside, sizeof outside, cudaMemcpyHostToDevice));
  for (Algorithm a : kAllAlgorithms) {
    SCOPED_TRACE(label(a, n, 0) + " sparse");
    const std::size_t wsb = gpuprims::reduce::workspace_bytes(n, a);
    gpuprims::detail::DeviceBuffer<float> ws(wsb / 4);
    CUDA_OK(cudaMemset(out.get(), 0xff, sizeof(float)));
    ASSERT_STATUS(Status::success, gpuprims::reduce::sum(buf.get(), n, out.get(), ws.get(), wsb, a));
    float v = 0.0f;
    CUDA_OK(cudaMemcpy(&v, out.get(), sizeof v, cudaMemcpyDeviceToHost));
    EXPECT_EQ(exact, static_cast<double>(v));
  }
  // The same items seen from 3 floats later: positions 0, 1 fall out, nothing else moves past n.
  {
    SCOPED_TRACE("shuffle offset 3 sparse");
    CUDA_OK(cudaMemset(out.get(), 0xff, sizeof(float)));
    ASSERT_STATUS(Status::success, gpuprims::reduce::sum(buf.get() + 3, n, out.get()));
    float v = 0.0f;
    CUDA_OK(cudaMemcpy(&v, out.get(), sizeof v, cudaMemcpyDeviceToHost));
    EXPECT_EQ(exact - 1.0 - 2.0 + 4096.0, static_cast<double>(v));
  }
}

}  // namespace
