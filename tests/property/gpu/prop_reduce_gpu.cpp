// RapidCheck against the double-precision CPU reference on a device: random n (biased to block and
// tile boundaries), input and workspace offsets, value distributions and variants. The error bound is
// docs/ERROR-BOUNDS.md's, relative to sum|x|, with the chain lengths of plan.hpp.
#include <gtest/gtest.h>

#include <rapidcheck.h>

#include <gpuprims/reduce.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "reduce/src/plan.hpp"
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
using gpuprims::testkit::Dist;

using gpuprims::test::sm_count;

rc::Gen<std::int64_t> gen_n() {
  std::vector<std::int64_t> edges;
  for (std::int64_t base : {std::int64_t{32}, std::int64_t{256}, std::int64_t{4096}, std::int64_t{1} << 16,
                            std::int64_t{256} * 16 * 132 * 5})
    for (std::int64_t d = -3; d <= 3; ++d) edges.push_back(base + d);
  // Under the sanitizer (GPUPRIMS_SANITIZER=1, which also runs fewer cases) the widest range ends at
  // 2^18; the edges (the grid-capped one included) stay.
  const std::int64_t widest = gpuprims::test::sized_for_sanitizer(std::int64_t{1} << 21, std::int64_t{1} << 18);
  return rc::gen::oneOf(rc::gen::inRange<std::int64_t>(0, 300), rc::gen::inRange<std::int64_t>(0, 20000),
                        rc::gen::inRange<std::int64_t>(0, widest), rc::gen::elementOf(edges));
}

rc::Gen<Algorithm> gen_algo() {
  return rc::gen::elementOf(std::vector<Algorithm>(std::begin(kAllAlgorithms), std::end(kAllAlgorithms)));
}

std::uint32_t bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

// One explicit-workspace call; the guards of every array are checked. Returns the result.
float gpu_sum(const GuardedArray& in, std::int64_t n, Algorithm a, int ws_offset) {
  const std::size_t wsb = gpuprims::reduce::workspace_bytes(n, a);
  GuardedArray out(1), ws((wsb + 3) / 4, ws_offset);
  RC_ASSERT(out.ok() && ws.ok());
  const Status st = gpuprims::reduce::sum(in.data(), n, out.data(), wsb ? ws.data() : nullptr, wsb, a);
  RC_ASSERT(st == Status::success);
  RC_ASSERT(cudaDeviceSynchronize() == cudaSuccess);
  RC_ASSERT(out.guard_damage().empty());
  RC_ASSERT(ws.guard_damage().empty());
  RC_ASSERT(in.guard_damage().empty());
  return out.download()[0];
}

TEST(ReducePropGpu, SumWithinBoundOfDoubleReference) {
  GPUPRIMS_REQUIRE_GPU();
  const int sms = sm_count();
  EXPECT_TRUE(rc::check("|sum - ref| <= 2 (items + log2 threads + passes + 2) 2^-24 sum|x|; same bits on a rerun",
                        [sms] {
    const auto n = *gen_n();
    const Algorithm a = *gen_algo();
    const auto offset = *rc::gen::element(0, 1, 2, 3);
    const auto ws_offset = *rc::gen::element(0, 1, 2, 3);
    const Dist dist = *rc::gen::element(Dist::uniform_pm1, Dist::nonnegative, Dist::mixed_magnitude);
    auto rng = gpuprims::test::make_rng(*rc::gen::arbitrary<std::uint64_t>());
    std::vector<float> x = gpuprims::testkit::random_vector(static_cast<std::size_t>(n), rng, dist);
    // Large magnitudes: scale some inputs far up (2^20 * 1e25 * 2^21 items still sums below FLT_MAX).
    if (*rc::gen::arbitrary<bool>())
      for (auto& v : x) v *= 1e25f;
    GuardedArray in(static_cast<std::size_t>(n), offset);
    RC_ASSERT(in.ok());
    in.upload(x);
    const float s = gpu_sum(in, n, a, ws_offset);
    const gpuprims::test::SumReference ref = gpuprims::test::reference_sum(x.data(), n);
    const double items = static_cast<double>(rd::bound_items_upper(n, a, sms));
    const double passes = rd::max_pass1_blocks(n, a) > 1 ? 2.0 : 1.0;
    const double bound = gpuprims::test::sum_error_bound(ref.abs_sum, items, rd::bound_log2_threads(n, a), passes);
    const double err = std::fabs(static_cast<double>(s) - ref.sum);
    RC_LOG() << "n=" << n << " algo=" << gpuprims::reduce::name(a) << " offset=" << offset << " sum=" << s
             << " ref=" << ref.sum << " err=" << err << " bound=" << bound;
    RC_ASSERT(err <= bound);  // NaN fails
    // Bitwise reproducible, also with the workspace somewhere else.
    const float again = gpu_sum(in, n, a, (ws_offset + 1) % 4);
    RC_ASSERT(bits(again) == bits(s));
  }));
}

TEST(ReducePropGpu, ExactOnSmallIntegers) {
  GPUPRIMS_REQUIRE_GPU();
  EXPECT_TRUE(rc::check("integer data with sum|x| <= 2^24 sums exactly (no item lost or doubled)", [] {
    const auto n = *gen_n();
    const Algorithm a = *gen_algo();
    const auto offset = *rc::gen::element(0, 1, 2, 3);
    const int m = static_cast<int>(std::min<std::int64_t>(3, (std::int64_t{1} << 24) / std::max<std::int64_t>(n, 1)));
    std::mt19937_64 rng(*rc::gen::arbitrary<std::uint64_t>());
    const std::vector<float> x = gpuprims::testkit::random_integers(static_cast<std::size_t>(n), rng, -m, m);
    double exact = 0.0;
    for (float v : x) exact += v;
    GuardedArray in(static_cast<std::size_t>(n), offset);
    RC_ASSERT(in.ok());
    in.upload(x);
    const float s = gpu_sum(in, n, a, *rc::gen::element(0, 1, 2, 3));
    RC_ASSERT(static_cast<double>(s) == exact);
  }));
}

TEST(ReducePropGpu, NonFiniteInputsGiveNonFiniteSums) {
  GPUPRIMS_REQUIRE_GPU();
  EXPECT_TRUE(rc::check("NaN anywhere gives NaN; +inf and -inf give NaN; +inf alone gives +inf", [] {
    const auto n = *rc::gen::inRange<std::int64_t>(1, 1 << 18);
    const Algorithm a = *gen_algo();
    const auto offset = *rc::gen::element(0, 1, 2, 3);
    const auto i = *rc::gen::inRange<std::int64_t>(0, n);
    const auto kind = *rc::gen::inRange<int>(0, 3);
    auto rng = gpuprims::test::make_rng(*rc::gen::arbitrary<std::uint64_t>());
    std::vector<float> x = gpuprims::testkit::random_vector(static_cast<std::size_t>(n), rng);
    const float inf = std::numeric_limits<float>::infinity();
    x[static_cast<std::size_t>(i)] = kind == 0 ? std::numeric_limits<float>::quiet_NaN() : inf;
    if (kind == 2) {
      RC_PRE(n >= 2);
      const auto j = *rc::gen::distinctFrom(rc::gen::inRange<std::int64_t>(0, n), i);
      x[static_cast<std::size_t>(j)] = -inf;
    }
    GuardedArray in(static_cast<std::size_t>(n), offset);
    RC_ASSERT(in.ok());
    in.upload(x);
    const float s = gpu_sum(in, n, a, 0);
    if (kind == 1) RC_ASSERT(s == inf);
    else RC_ASSERT(std::isnan(s));
  }));
}

}  // namespace
