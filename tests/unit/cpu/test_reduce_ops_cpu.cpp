// The reduction operators of gpuprims/device/reduce_ops.hpp on the host, against the independent
// references of support/typed_reference.hpp: order keys monotone and invertible over special and
// random values of every type, identities, NaN / ±0 / tie rules, integer sums exact and wrapping; and
// the typed entry points' host side (workspace queries, validation before any CUDA call, overload
// resolution, compile-time rejection of other types).
#include <gtest/gtest.h>

#include <gpuprims/device/device_reduce_plan.hpp>
#include <gpuprims/device/reduce_ops.hpp>
#include <gpuprims/reduce.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "support/gpu.hpp"
#include "support/random.hpp"
#include "support/typed_reference.hpp"
#include "support/typed_values.hpp"

namespace {

namespace dev = gpuprims::device;
namespace rdc = gpuprims::reduce;
using gpuprims::ArgResult;
using gpuprims::Status;
using gpuprims::test::bits_of;
using gpuprims::test::is_nan;

template <class Acc>
bool same_bytes(const Acc& a, const Acc& b) {
  return std::memcmp(&a, &b, sizeof(Acc)) == 0;
}

// Sequential fold of an operator over x in index order, then finish.
template <class Op>
typename Op::Output fold(const Op& op, const std::vector<typename Op::Input>& x) {
  typename Op::Acc acc = op.identity();
  for (std::size_t i = 0; i < x.size(); ++i) acc = op.combine(acc, op.lift(x[i], static_cast<std::int64_t>(i)));
  return op.finish(acc);
}

template <class T>
class ReduceOpsCpu : public ::testing::Test {};
TYPED_TEST_SUITE(ReduceOpsCpu, gpuprims::test::ReducibleTypes);

// Keys follow the value order (-0 < +0 for min / max, NaN after +inf, equal only for equal values)
// and give back the value; with merged zeros -0 and +0 share +0's key; NaN maps to the NaN key.
TYPED_TEST(ReduceOpsCpu, OrderKeysAreMonotoneAndInvertible) {
  using T = TypeParam;
  using OK = dev::OrderKey<T>;
  auto rng = gpuprims::test::make_rng(0x0dde0001);
  std::vector<T> values = gpuprims::test::special_values<T>();
  for (int i = 0; i < 4000; ++i) values.push_back(gpuprims::test::random_value<T>(rng, i % 4 == 0));
  for (const T& v : values) {
    const auto k = OK::key(v, false);
    if (is_nan(v)) {
      EXPECT_EQ(bits_of(gpuprims::test::canonical_nan<T>()), bits_of(OK::value(k)));
      EXPECT_EQ(k, OK::key(gpuprims::test::canonical_nan<T>(), true));
      continue;
    }
    EXPECT_EQ(bits_of(v), bits_of(OK::value(k))) << "round trip of bits " << bits_of(v);
    if constexpr (gpuprims::test::is_float_like_v<T>) {
      EXPECT_NE(k, OK::kEmptyLow);  // the reserved keys stand for no element
      EXPECT_NE(k, OK::kEmptyHigh);
    }
    const auto km = OK::key(v, true);
    EXPECT_EQ(bits_of(gpuprims::test::reported(v, true)), bits_of(OK::value(km)));
  }
  for (std::size_t i = 0; i + 1 < values.size(); ++i) {
    const T a = values[i], b = values[(i * 7919 + 13) % values.size()];
    for (bool merge : {false, true}) {
      const auto ka = OK::key(a, merge), kb = OK::key(b, merge);
      const bool less = gpuprims::test::value_less(a, b, merge), greater = gpuprims::test::value_less(b, a, merge);
      EXPECT_EQ(less, ka < kb) << bits_of(a) << " vs " << bits_of(b) << " merge=" << merge;
      EXPECT_EQ(greater, kb < ka) << bits_of(a) << " vs " << bits_of(b) << " merge=" << merge;
    }
  }
  if constexpr (gpuprims::test::is_float_like_v<T>) {
    const T pz = gpuprims::test::from_double<T>(0.0), nz = gpuprims::test::from_double<T>(-0.0);
    EXPECT_LT(OK::key(nz, false), OK::key(pz, false));
    EXPECT_EQ(OK::key(nz, true), OK::key(pz, true));
  }
}

// identity() is neutral on both sides of combine for every operator.
TYPED_TEST(ReduceOpsCpu, IdentitiesAreNeutral) {
  using T = TypeParam;
  auto rng = gpuprims::test::make_rng(0x0dde0002);
  std::vector<T> values = gpuprims::test::special_values<T>();
  for (int i = 0; i < 500; ++i) values.push_back(gpuprims::test::random_value<T>(rng, false));
  auto check = [&](auto op) {
    for (std::size_t i = 0; i < values.size(); ++i) {
      const auto a = op.lift(values[i], static_cast<std::int64_t>(i));
      using Acc = std::decay_t<decltype(a)>;
      if constexpr (std::is_floating_point_v<Acc>) {
        // A float sum's 0 is neutral by value: -0 + 0 is +0 and a NaN may come back quieted, as IEEE
        // addition does (a sum of {-0} is 0, the empty sum).
        for (const Acc b : {op.combine(op.identity(), a), op.combine(a, op.identity())})
          EXPECT_TRUE((std::isnan(a) && std::isnan(b)) || a == b) << a << " " << b;
      } else {
        EXPECT_TRUE(same_bytes(a, op.combine(op.identity(), a)));
        EXPECT_TRUE(same_bytes(a, op.combine(a, op.identity())));
      }
    }
  };
  check(dev::Sum<T>{});
  check(dev::Min<T>{});
  check(dev::Max<T>{});
  check(dev::ArgMin<T>{});
  check(dev::ArgMax<T>{});
}

// Empty input: sum 0, min +inf / largest, max -inf / lowest, arg* {-1, those}.
TYPED_TEST(ReduceOpsCpu, EmptyResults) {
  using T = TypeParam;
  const std::vector<T> none;
  EXPECT_EQ(gpuprims::sum_type_t<T>{0}, fold(dev::Sum<T>{}, none));
  EXPECT_EQ(bits_of(gpuprims::test::largest<T>()), bits_of(fold(dev::Min<T>{}, none)));
  EXPECT_EQ(bits_of(gpuprims::test::lowest<T>()), bits_of(fold(dev::Max<T>{}, none)));
  const ArgResult<T> amin = fold(dev::ArgMin<T>{}, none), amax = fold(dev::ArgMax<T>{}, none);
  EXPECT_EQ(-1, amin.index);
  EXPECT_EQ(-1, amax.index);
  EXPECT_EQ(bits_of(gpuprims::test::largest<T>()), bits_of(amin.value));
  EXPECT_EQ(bits_of(gpuprims::test::lowest<T>()), bits_of(amax.value));
}

// Folds over sequences with NaN, ±inf, ±0 and ties at random positions (and all-NaN, all-equal,
// duplicated minima) give the references' bits; argmin / argmax results are zero in every reserved byte.
TYPED_TEST(ReduceOpsCpu, FoldsMatchTheReferences) {
  using T = TypeParam;
  namespace tr = gpuprims::test;
  auto rng = tr::make_rng(0x0dde0003);
  std::vector<std::vector<T>> inputs;
  for (std::size_t n : {1, 2, 3, 7, 31, 100, 1000})
    for (bool few : {false, true}) inputs.push_back(tr::mixed_values<T>(n, rng, few));
  if constexpr (tr::is_float_like_v<T>) {
    inputs.push_back(std::vector<T>(5, tr::canonical_nan<T>()));
    inputs.push_back({tr::from_double<T>(0.0), tr::from_double<T>(-0.0), tr::from_double<T>(-0.0)});
    inputs.push_back({tr::from_double<T>(-0.0), tr::from_double<T>(0.0)});
    inputs.push_back({tr::canonical_nan<T>(), tr::largest<T>(), tr::lowest<T>(), tr::canonical_nan<T>()});
  }
  inputs.push_back(std::vector<T>(9, tr::from_double<T>(2.0)));
  inputs.push_back({tr::from_double<T>(3.0), tr::from_double<T>(1.0), tr::from_double<T>(5.0), tr::from_double<T>(1.0),
                    tr::from_double<T>(5.0)});
  for (const auto& x : inputs) {
    SCOPED_TRACE("n=" + std::to_string(x.size()));
    EXPECT_EQ(bits_of(tr::reference_min(x)), bits_of(fold(dev::Min<T>{}, x)));
    EXPECT_EQ(bits_of(tr::reference_max(x)), bits_of(fold(dev::Max<T>{}, x)));
    for (bool want_max : {false, true}) {
      const ArgResult<T> ref = tr::reference_arg(x, want_max);
      const ArgResult<T> got = want_max ? fold(dev::ArgMax<T>{}, x) : fold(dev::ArgMin<T>{}, x);
      EXPECT_EQ(ref.index, got.index) << (want_max ? "argmax" : "argmin");
      EXPECT_EQ(bits_of(ref.value), bits_of(got.value)) << (want_max ? "argmax" : "argmin");
      ArgResult<T> zeroed;
      std::memset(&zeroed, 0, sizeof zeroed);
      zeroed.index = got.index;
      zeroed.value = got.value;
      // NOLINTNEXTLINE(bugprone-suspicious-memory-comparison): every byte (reserved ones included) is the point
      EXPECT_EQ(0, std::memcmp(&zeroed, &got, sizeof got)) << "reserved bytes written as 0";
    }
    if constexpr (!tr::is_float_like_v<T>) {
      EXPECT_EQ(tr::reference_int_sum(x), fold(dev::Sum<T>{}, x));
    }
  }
}

TEST(ReduceOpsRulesCpu, IntegerSumsAreExactAndWrap) {
  const dev::Sum<std::int32_t> s32;
  std::int64_t acc = s32.identity();
  for (int i = 0; i < 3; ++i) acc = s32.combine(acc, s32.lift(INT32_MAX, i));
  EXPECT_EQ(std::int64_t{3} * INT32_MAX, acc);  // exact in int64
  const dev::Sum<std::uint32_t> su;
  EXPECT_EQ(std::uint64_t{8589934590u}, su.combine(su.lift(UINT32_MAX, 0), su.lift(UINT32_MAX, 1)));
  const dev::Sum<std::int64_t> s64;
  EXPECT_EQ(INT64_MIN, s64.combine(INT64_MAX, 1));  // wraps modulo 2^64
  EXPECT_EQ(INT64_MAX, s64.combine(INT64_MIN, -1));
  EXPECT_EQ(std::int64_t{0}, s64.combine(INT64_MIN, INT64_MIN));
}

TEST(ReduceOpsRulesCpu, MinMaxSignedZerosAndNaN) {
  namespace tr = gpuprims::test;
  const float nan = tr::canonical_nan<float>();
  const std::vector<float> zeros = {0.0f, -0.0f};
  EXPECT_EQ(bits_of(-0.0f), bits_of(fold(dev::Min<float>{}, zeros)));
  EXPECT_EQ(bits_of(0.0f), bits_of(fold(dev::Max<float>{}, zeros)));
  EXPECT_EQ(0, fold(dev::ArgMin<float>{}, zeros).index);  // -0 == +0: the lower index
  EXPECT_EQ(bits_of(0.0f), bits_of(fold(dev::ArgMin<float>{}, std::vector<float>{-0.0f}).value));
  const std::vector<float> with_nan = {3.0f, -std::numeric_limits<float>::quiet_NaN(), 1.0f, nan};
  EXPECT_EQ(1.0f, fold(dev::Min<float>{}, with_nan));
  EXPECT_EQ(bits_of(nan), bits_of(fold(dev::Max<float>{}, with_nan)));
  EXPECT_EQ(1, fold(dev::ArgMax<float>{}, with_nan).index);  // the first NaN
  EXPECT_EQ(bits_of(nan), bits_of(fold(dev::ArgMax<float>{}, with_nan).value));
  EXPECT_EQ(2, fold(dev::ArgMin<float>{}, with_nan).index);
}

// ---- The typed entry points, host side ------------------------------------------------------------

// A call compiles for the seven reducible types only (a wrong type is a compile error, not a link error).
template <class T, class = void>
struct can_min : std::false_type {};
template <class T>
struct can_min<T, std::void_t<decltype(rdc::min(std::declval<const T*>(), std::int64_t{}, std::declval<T*>()))>>
    : std::true_type {};
template <class T, class = void>
struct can_argmax : std::false_type {};
template <class T>
struct can_argmax<
    T, std::void_t<decltype(rdc::argmax(std::declval<const T*>(), std::int64_t{}, std::declval<ArgResult<T>*>()))>>
    : std::true_type {};
static_assert(can_min<float>::value);
static_assert(can_min<__half>::value);
static_assert(can_min<std::int64_t>::value);
static_assert(!can_min<short>::value);
static_assert(!can_min<char>::value);
static_assert(!can_min<long double>::value);
static_assert(can_argmax<double>::value && !can_argmax<std::int16_t>::value);

// The float forms with an Algorithm are the ones a call without one still reaches (they are
// non-templates); a stream without an Algorithm reaches the typed form.
static_assert(
    std::is_same_v<decltype(rdc::sum(std::declval<const float*>(), std::int64_t{}, std::declval<float*>())), Status>);

template <class T>
T* fake_ptr(std::uintptr_t addr = 0x7f0000001000u) {
  return reinterpret_cast<T*>(addr);
}
template <class T>
T* offset_bytes(T* p, std::uintptr_t bytes) {
  return reinterpret_cast<T*>(reinterpret_cast<std::uintptr_t>(p) + bytes);
}

TYPED_TEST(ReduceOpsCpu, WorkspaceQueries) {
  using T = TypeParam;
  const rdc::Operator ops[] = {rdc::Operator::sum, rdc::Operator::min, rdc::Operator::max, rdc::Operator::argmin,
                               rdc::Operator::argmax};
  for (rdc::Operator op : ops) {
    EXPECT_EQ(0u, rdc::workspace_bytes<T>(op, -1));
    EXPECT_EQ(0u, rdc::workspace_bytes<T>(op, 0));
    EXPECT_EQ(0u, rdc::workspace_bytes<T>(op, 1));
    const std::size_t big = rdc::workspace_bytes<T>(op, std::int64_t{1} << 28);
    EXPECT_GT(big, 0u);
    EXPECT_EQ(big, rdc::workspace_bytes<T>(op, INT64_MAX));  // capped grid: O(1) in n
    EXPECT_EQ(big, rdc::workspace_bytes<T>(op, (std::int64_t{1} << 31) + 17));
  }
  EXPECT_EQ(0u, rdc::workspace_bytes<T>(static_cast<rdc::Operator>(99), 1 << 28));
  if constexpr (std::is_same_v<T, float>) {
    EXPECT_EQ(rdc::workspace_bytes(1 << 28, rdc::Algorithm::shuffle),
              rdc::workspace_bytes<T>(rdc::Operator::sum, 1 << 28));
  }
}

// Bad arguments return their Status before any CUDA call; valid ones reach "no device" (the CPU test
// binary hides every device), so nothing was launched for the bad ones.
TYPED_TEST(ReduceOpsCpu, ValidationComesBeforeAnyCudaCall) {
  using T = TypeParam;
  using S = gpuprims::sum_type_t<T>;
  const std::int64_t n = 1 << 20;
  const T* in = fake_ptr<T>();
  S* sout = fake_ptr<S>(0x7f0000100000u);
  T* vout = fake_ptr<T>(0x7f0000100000u);
  ArgResult<T>* aout = fake_ptr<ArgResult<T>>(0x7f0000100000u);
  void* ws = fake_ptr<unsigned char>(0x7f0000200000u);
  const std::size_t big = std::size_t{1} << 24;
  // sum
  EXPECT_STATUS(Status::invalid_argument, rdc::sum<T>(nullptr, n, sout, ws, big, nullptr));
  EXPECT_STATUS(Status::invalid_argument, rdc::sum<T>(in, -1, sout, ws, big, nullptr));
  EXPECT_STATUS(Status::invalid_argument, rdc::sum<T>(in, n, static_cast<S*>(nullptr), ws, big, nullptr));
  EXPECT_STATUS(Status::invalid_argument, rdc::sum<T>(in, n, sout, nullptr, big, nullptr));
  EXPECT_STATUS(Status::invalid_argument, rdc::sum<T>(in, n, sout, ws, 1, nullptr));
  EXPECT_STATUS(Status::invalid_argument, rdc::sum<T>(nullptr, n, sout, nullptr));
  EXPECT_STATUS(Status::invalid_argument, rdc::sum<T>(in, INT64_MIN, sout, nullptr));
  EXPECT_STATUS(Status::unsupported, rdc::sum<T>(in, n, sout, ws, big, nullptr));
  EXPECT_STATUS(Status::unsupported, rdc::sum<T>(in, n, sout, nullptr));
  EXPECT_STATUS(Status::unsupported, rdc::sum<T>(nullptr, 0, sout, nullptr));
  // min / max
  for (bool want_max : {false, true}) {
    auto call = [&](const T* i, std::int64_t k, T* o, void* w, std::size_t b) {
      return want_max ? rdc::max<T>(i, k, o, w, b, nullptr) : rdc::min<T>(i, k, o, w, b, nullptr);
    };
    auto call_pool = [&](const T* i, std::int64_t k, T* o) {
      return want_max ? rdc::max<T>(i, k, o, nullptr) : rdc::min<T>(i, k, o, nullptr);
    };
    EXPECT_STATUS(Status::invalid_argument, call(nullptr, n, vout, ws, big));
    EXPECT_STATUS(Status::invalid_argument, call(in, -5, vout, ws, big));
    EXPECT_STATUS(Status::invalid_argument, call(in, n, nullptr, ws, big));
    EXPECT_STATUS(Status::invalid_argument, call(in, n, vout, ws, 0));
    EXPECT_STATUS(Status::invalid_argument, call_pool(in, n, nullptr));
    EXPECT_STATUS(Status::unsupported, call(in, n, vout, ws, big));
    EXPECT_STATUS(Status::unsupported, call_pool(in, 0, vout));
    if constexpr (sizeof(T) > 1) {
      EXPECT_STATUS(Status::misaligned_pointer, call(offset_bytes(in, 1), n, vout, ws, big));
      EXPECT_STATUS(Status::misaligned_pointer, call(in, n, offset_bytes(vout, 1), ws, big));
      EXPECT_STATUS(Status::misaligned_pointer, call_pool(offset_bytes(in, 1), n, vout));
    }
  }
  // argmin / argmax: ArgResult is 8-byte aligned
  for (bool want_max : {false, true}) {
    auto call = [&](const T* i, std::int64_t k, ArgResult<T>* o, void* w, std::size_t b) {
      return want_max ? rdc::argmax<T>(i, k, o, w, b, nullptr) : rdc::argmin<T>(i, k, o, w, b, nullptr);
    };
    EXPECT_STATUS(Status::invalid_argument, call(nullptr, n, aout, ws, big));
    EXPECT_STATUS(Status::invalid_argument, call(in, n, nullptr, ws, big));
    EXPECT_STATUS(Status::invalid_argument, call(in, n, aout, nullptr, big));
    EXPECT_STATUS(Status::misaligned_pointer, call(in, n, offset_bytes(aout, 4), ws, big));
    EXPECT_STATUS(Status::misaligned_pointer, call(offset_bytes(in, 1), n, aout, ws, big));
    EXPECT_STATUS(Status::unsupported, call(in, n, aout, ws, big));
    EXPECT_STATUS(Status::unsupported, call(in, 0, aout, nullptr, 0));
  }
}

// The device template's launch arithmetic: the split covers [0, n) exactly with head and tail below
// the vector width and the body 16-byte aligned; the grid never exceeds its cap or the workspace.
TEST(DeviceReducePlanCpu, SplitAndGrid) {
  for (std::size_t elem : {std::size_t{2}, std::size_t{4}, std::size_t{8}, std::size_t{12}, std::size_t{16}}) {
    const std::int64_t width = dev::vector_width(elem);
    for (std::uintptr_t addr = 0x1000; addr < 0x1000 + 64; addr += elem) {
      for (std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{2}, std::int64_t{7}, std::int64_t{8},
                             std::int64_t{9}, std::int64_t{1000003}, (std::int64_t{1} << 31) + 17}) {
        const dev::ReduceSplit s = dev::reduce_split(addr, n, elem);
        EXPECT_EQ(n, s.tail_begin + s.tail);
        EXPECT_EQ(s.head + width * s.vec_count, s.tail_begin);
        if (width > 1) {
          EXPECT_LT(s.head, width);
          EXPECT_LT(s.tail, width);
          if (s.vec_count > 0) {
            EXPECT_EQ(0u, (addr + static_cast<std::uintptr_t>(s.head) * elem) % 16);
          }
        }
      }
    }
  }
  for (std::int64_t n : {std::int64_t{1}, std::int64_t{4096}, std::int64_t{4097}, std::int64_t{1} << 28, INT64_MAX})
    for (std::int64_t resident : {std::int64_t{1}, std::int64_t{132}, std::int64_t{1} << 20}) {
      const std::int64_t g = dev::reduce_grid(n, 4, resident);
      EXPECT_GE(g, 1);
      EXPECT_LE(g, dev::DeviceReducePolicy::kMaxBlocks);
      EXPECT_LE(g, dev::reduce_max_blocks(n, 4));
      if (g > 1) {
        EXPECT_GE(dev::reduce_workspace_size(n, 4, 16), static_cast<std::size_t>(g) * 16 + 15);
      }
    }
  EXPECT_EQ(0, dev::reduce_grid(0, 4, 132));
}

// A policy's optional members: pass 1's __launch_bounds__ minimum of resident blocks (none where the
// policy has no kMinBlocksPerSm; a user policy need not derive from DeviceReducePolicy) and the
// accumulators its loads go into (kUnroll where it has no kAccumulators). The typed policies ask for a
// minimum only within their grid cap (above it ptxas would budget registers for blocks that never
// run), and group loads into fewer accumulators only where the accumulator is exact: a floating-point
// sum keeps one accumulator per load, the grouping its error bound (docs/ERROR-BOUNDS.md) and its
// bits were measured with.
struct PolicyWithOptions : dev::DeviceReducePolicy {
  static constexpr int kAccumulators = 2;
  static constexpr int kMinBlocksPerSm = 3;
};
struct PolicyWithoutBase {
  static constexpr int kThreads = 128;
  static constexpr int kUnroll = 2;
  static constexpr std::int64_t kMaxBlocks = 64;
  static constexpr std::size_t kPartialsAlign = 16;
};
template <class Op>
void expect_typed_options_valid() {
  using P = rdc::detail::TypedPolicy<Op>;
  constexpr int kAccs = dev::reduce_accumulators<P>;
  EXPECT_GE(dev::reduce_min_blocks_per_sm<P>, 0);
  EXPECT_LE(dev::reduce_min_blocks_per_sm<P>, P::kMaxBlocksPerSm);
  EXPECT_TRUE(kAccs >= 1 && P::kUnroll % kAccs == 0 && (kAccs & (kAccs - 1)) == 0);
  if constexpr (std::is_floating_point_v<typename Op::Acc>) {
    EXPECT_EQ(P::kUnroll, kAccs);
  }
}
TEST(DeviceReducePlanCpu, PolicyOptionsDefaultAndStayValid) {
  EXPECT_EQ(0, dev::reduce_min_blocks_per_sm<dev::DeviceReducePolicy>);
  EXPECT_EQ(0, dev::reduce_min_blocks_per_sm<PolicyWithoutBase>);
  EXPECT_EQ(3, dev::reduce_min_blocks_per_sm<PolicyWithOptions>);
  EXPECT_EQ(dev::DeviceReducePolicy::kUnroll, dev::reduce_accumulators<dev::DeviceReducePolicy>);
  EXPECT_EQ(2, dev::reduce_accumulators<PolicyWithoutBase>);
  EXPECT_EQ(2, dev::reduce_accumulators<PolicyWithOptions>);
  expect_typed_options_valid<dev::Sum<double>>();
  expect_typed_options_valid<dev::Sum<__half>>();
  expect_typed_options_valid<dev::Sum<std::uint32_t>>();
  expect_typed_options_valid<dev::Min<std::int64_t>>();
  expect_typed_options_valid<dev::Max<float>>();
  expect_typed_options_valid<dev::ArgMax<double>>();
  expect_typed_options_valid<dev::ArgMin<__nv_bfloat16>>();
}

// The warp chunks every grid-wide reduction loads by (for_each_warp_chunk, run here on the host for
// every thread of a grid): each vector goes to exactly one thread, each load instruction of a chunk
// reads 32 consecutive vectors, and no thread takes more than warp_chunk_vectors_bound, which the
// error bounds of docs/ERROR-BOUNDS.md count on.
template <int kUnroll>
void check_warp_chunks(std::int64_t count, std::int64_t nthreads) {
  SCOPED_TRACE("unroll " + std::to_string(kUnroll) + ", count " + std::to_string(count) + ", threads " +
               std::to_string(nthreads));
  std::vector<int> hits(static_cast<std::size_t>(count), 0);
  std::int64_t most = 0;
  for (std::int64_t t = 0; t < nthreads; ++t) {
    std::int64_t mine = 0;
    dev::for_each_warp_chunk<kUnroll>(
        count, t, nthreads,
        [&](std::int64_t first) {
      EXPECT_EQ(t % dev::kWarpChunkLanes, first % dev::kWarpChunkLanes);  // lane l reads vector l of 32
      for (int u = 0; u < kUnroll; ++u) {
        const std::int64_t v = first + u * dev::kWarpChunkLanes;
        ASSERT_LT(v, count);
        ++hits[static_cast<std::size_t>(v)];
      }
      mine += kUnroll;
        },
        [&](std::int64_t i) {
      ASSERT_LT(i, count);
      ++hits[static_cast<std::size_t>(i)];
      ++mine;
    });
    most = std::max(most, mine);
  }
  for (std::int64_t v = 0; v < count; ++v) ASSERT_EQ(1, hits[static_cast<std::size_t>(v)]) << "vector " << v;
  EXPECT_LE(most, dev::warp_chunk_vectors_bound(count, nthreads, kUnroll));
}

TEST(DeviceReducePlan, WarpChunksGiveEveryVectorToOneThreadWithinTheBound) {
  auto rng = gpuprims::test::make_rng(0x0dde0c01);
  std::uniform_int_distribution<std::int64_t> any_count(0, 300000);
  for (std::int64_t nthreads : {std::int64_t{256}, std::int64_t{1024}, std::int64_t{4096}, std::int64_t{33792}}) {
    std::vector<std::int64_t> counts = {0,
                                        1,
                                        31,
                                        32,
                                        33,
                                        127,
                                        128,
                                        129,
                                        255,
                                        256,
                                        257,
                                        nthreads - 1,
                                        nthreads,
                                        nthreads + 1,
                                        4 * nthreads - 1,
                                        8 * nthreads + 129};
    for (int r = 0; r < 3; ++r) counts.push_back(any_count(rng));
    for (std::int64_t count : counts) {
      check_warp_chunks<1>(count, nthreads);
      check_warp_chunks<2>(count, nthreads);
      check_warp_chunks<4>(count, nthreads);
      check_warp_chunks<8>(count, nthreads);
    }
  }
  // Monotone in count, so a bound for any count up to it.
  for (std::int64_t c = 0; c < 5000; ++c)
    EXPECT_LE(dev::warp_chunk_vectors_bound(c, 256, 4), dev::warp_chunk_vectors_bound(c + 1, 256, 4));
}

}  // namespace
