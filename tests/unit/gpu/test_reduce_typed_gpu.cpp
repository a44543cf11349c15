// The typed reductions (gpuprims/reduce_typed.hpp) on a device: every operator x type against the CPU
// references of support/typed_reference.hpp (exact for integers, min, max, argmin and argmax; float
// and double sums within docs/ERROR-BOUNDS.md's bound with their own unit roundoff), at sizes 0-3,
// primes, 2^16 +- 1 and millions, inputs offset by one element, NaN / ±inf / ±0 and ties at random
// places, all-NaN, repeated minima (lowest index wins), every byte of the output written, guard bands
// intact, the same bits over 10 runs, bad arguments returning before any launch, custom operators
// through the public device template, and one input past 2^31 elements (shrunk under the sanitizer).
#include <gtest/gtest.h>

#include <gpuprims/device/device_reduce_plan.hpp>
#include <gpuprims/reduce.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/src/device_buffer.hpp"
#include "reduce/src/plan.hpp"
#include "support/custom_reduce.hpp"
#include "support/gpu.hpp"
#include "support/random.hpp"
#include "support/typed_reference.hpp"
#include "support/typed_values.hpp"
#include "testkit/random.hpp"

namespace {

namespace rdc = gpuprims::reduce;
namespace tr = gpuprims::test;
using gpuprims::ArgResult;
using gpuprims::Status;
using gpuprims::sum_type_t;

// Device bytes with 256-byte guard bands on both sides; the span starts `offset` bytes past a
// 256-byte boundary. Guards hold 0xFD, the span is poisoned with 0xFF until written.
class GuardedBytes {
 public:
  static constexpr std::size_t kGuard = 256;
  GuardedBytes(std::size_t bytes, std::size_t offset) : bytes_(bytes), offset_(offset) {
    total_ = kGuard + offset + bytes + kGuard;
    if (cudaMalloc(&base_, total_) != cudaSuccess) base_ = nullptr;
    if (base_ != nullptr) {
      (void)cudaMemset(base_, 0xFD, total_);
      (void)cudaMemset(data(), 0xFF, bytes_);
    }
  }
  GuardedBytes(const GuardedBytes&) = delete;
  GuardedBytes& operator=(const GuardedBytes&) = delete;
  ~GuardedBytes() {
    if (base_ != nullptr) (void)cudaFree(base_);
  }
  bool ok() const { return base_ != nullptr; }
  unsigned char* data() const { return static_cast<unsigned char*>(base_) + kGuard + offset_; }
  std::size_t bytes() const { return bytes_; }
  cudaError_t upload(const void* host) const { return cudaMemcpy(data(), host, bytes_, cudaMemcpyHostToDevice); }
  cudaError_t poison() const { return cudaMemset(data(), 0xFF, bytes_); }
  std::vector<unsigned char> download() const {
    std::vector<unsigned char> h(bytes_);
    if (bytes_ > 0) (void)cudaMemcpy(h.data(), data(), bytes_, cudaMemcpyDeviceToHost);
    return h;
  }
  // True when both guard bands still hold 0xFD.
  bool guards_intact() const {
    std::vector<unsigned char> h(total_);
    if (cudaMemcpy(h.data(), base_, total_, cudaMemcpyDeviceToHost) != cudaSuccess) return false;
    for (std::size_t i = 0; i < kGuard + offset_; ++i)
      if (h[i] != 0xFD) return false;
    for (std::size_t i = kGuard + offset_ + bytes_; i < total_; ++i)
      if (h[i] != 0xFD) return false;
    return true;
  }

 private:
  void* base_ = nullptr;
  std::size_t bytes_, offset_, total_ = 0;
};

template <class Out>
Out as(const std::vector<unsigned char>& bytes) {
  Out o;
  std::memcpy(static_cast<void*>(&o), bytes.data(), sizeof(Out));
  return o;
}

// One call of operator `op` through the explicit-workspace form (workspace in its own guarded
// buffer, 4 bytes past a 16-byte boundary) or the stream-ordered form. Returns the status and the output's bytes;
// checks that every guard is intact.
template <class Out, class Call, class PoolCall>
Status run_op(rdc::Operator op, std::int64_t n, bool use_pool, std::size_t ws_needed, Call call, PoolCall pool_call,
              std::vector<unsigned char>* out_bytes, cudaStream_t stream = nullptr) {
  GuardedBytes out(sizeof(Out), 0);
  GuardedBytes ws(std::max<std::size_t>(ws_needed, 1), 4);  // 4-byte aligned (float sums need that), not 16
  EXPECT_TRUE(out.ok() && ws.ok());
  Status st;
  if (use_pool) st = pool_call(reinterpret_cast<Out*>(out.data()), stream);
  else st = call(reinterpret_cast<Out*>(out.data()), ws_needed > 0 ? ws.data() : nullptr, ws_needed, stream);
  EXPECT_EQ(cudaSuccess, cudaDeviceSynchronize());
  *out_bytes = out.download();
  EXPECT_TRUE(out.guards_intact()) << "output guards, op " << static_cast<int>(op) << " n=" << n;
  EXPECT_TRUE(ws.guards_intact()) << "workspace guards, op " << static_cast<int>(op) << " n=" << n;
  return st;
}

// The bound of docs/ERROR-BOUNDS.md for a typed sum of n elements of T (the device template's
// chains: pass 1 with the fewest blocks, each vector's elements counted one by one plus the head,
// tail and the unroll tree; pass 2 over the most partials).
template <class T>
double typed_sum_bound(std::int64_t n, double abs_sum) {
  using Acc = sum_type_t<T>;
  if constexpr (std::is_same_v<T, float>) {
    namespace rd = gpuprims::reduce::detail;
    const auto a = rdc::Algorithm::shuffle;
    return tr::typed_sum_error_bound<float>(abs_sum, static_cast<double>(rd::bound_items_upper(n, a, tr::sm_count())),
                                            rd::bound_log2_threads(n, a), rd::max_pass1_blocks(n, a) > 1 ? 2.0 : 1.0);
  } else {
    using P = gpuprims::reduce::detail::TypedPolicy<gpuprims::device::Sum<T>>;
    const std::int64_t most = gpuprims::device::reduce_max_blocks<P>(n, sizeof(T));
    return tr::typed_sum_error_bound<Acc>(abs_sum, tr::typed_sum_chain_items<T>(n, tr::sm_count()), 8.0,
                                          most > 1 ? 2.0 : 1.0);
  }
}

// Finite values for sums: uniform in [-1, 1) (floats; half / bfloat16 rounded), any value for integers.
template <class T>
std::vector<T> sum_values(std::size_t n, std::mt19937_64& rng) {
  std::vector<T> x(n);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (auto& v : x) {
    if constexpr (tr::is_float_like_v<T>) v = tr::from_double<T>(u(rng));
    else v = tr::from_bits<T>(rng());
  }
  return x;
}

// Every operator over x (uploaded `offset` elements past a 256-byte boundary), checked against the
// references. Sums get finite data of their own (sum_x).
template <class T>
void check_all_operators(const std::vector<T>& x, const std::vector<T>& sum_x, int offset, bool use_pool) {
  const auto n = static_cast<std::int64_t>(x.size());
  SCOPED_TRACE("n=" + std::to_string(n) + " offset=" + std::to_string(offset) + (use_pool ? " pool" : " explicit"));
  GuardedBytes in(x.size() * sizeof(T), static_cast<std::size_t>(offset) * sizeof(T));
  GuardedBytes sum_in(sum_x.size() * sizeof(T), static_cast<std::size_t>(offset) * sizeof(T));
  ASSERT_TRUE(in.ok() && sum_in.ok());
  if (n > 0) {
    CUDA_OK(in.upload(x.data()));
    CUDA_OK(sum_in.upload(sum_x.data()));
  }
  const T* d_in = reinterpret_cast<const T*>(in.data());
  const T* d_sum_in = reinterpret_cast<const T*>(sum_in.data());
  std::vector<unsigned char> bytes;

  // sum
  {
    using S = sum_type_t<T>;
    const std::size_t ws = rdc::workspace_bytes<T>(rdc::Operator::sum, n);
    const Status st = run_op<S>(
        rdc::Operator::sum, n, use_pool, ws,
        [&](S* o, void* w, std::size_t b, cudaStream_t s) { return rdc::sum<T>(d_sum_in, n, o, w, b, s); },
        [&](S* o, cudaStream_t s) { return rdc::sum<T>(d_sum_in, n, o, s); }, &bytes);
    ASSERT_STATUS(Status::success, st);
    const S got = as<S>(bytes);
    if constexpr (tr::is_float_like_v<T>) {
      const tr::WideSum ref = tr::reference_float_sum(sum_x);
      const double err = std::fabs(static_cast<double>(static_cast<long double>(got) - ref.sum));
      EXPECT_LE(err, typed_sum_bound<T>(n, static_cast<double>(ref.abs_sum))) << "sum " << got;  // NaN fails
    } else {
      EXPECT_EQ(tr::reference_int_sum(sum_x), got);
    }
  }
  // min, max
  for (bool want_max : {false, true}) {
    const rdc::Operator op = want_max ? rdc::Operator::max : rdc::Operator::min;
    const std::size_t ws = rdc::workspace_bytes<T>(op, n);
    const Status st = run_op<T>(
        op, n, use_pool, ws,
        [&](T* o, void* w, std::size_t b, cudaStream_t s) {
      return want_max ? rdc::max<T>(d_in, n, o, w, b, s) : rdc::min<T>(d_in, n, o, w, b, s);
        },
        [&](T* o, cudaStream_t s) { return want_max ? rdc::max<T>(d_in, n, o, s) : rdc::min<T>(d_in, n, o, s); },
        &bytes);
    ASSERT_STATUS(Status::success, st);
    const T ref = want_max ? tr::reference_max(x) : tr::reference_min(x);
    EXPECT_EQ(tr::bits_of(ref), tr::bits_of(as<T>(bytes))) << (want_max ? "max" : "min");
  }
  // argmin, argmax: every byte compared (the reference's reserved bytes are 0; the output was poisoned)
  for (bool want_max : {false, true}) {
    using R = ArgResult<T>;
    const rdc::Operator op = want_max ? rdc::Operator::argmax : rdc::Operator::argmin;
    const std::size_t ws = rdc::workspace_bytes<T>(op, n);
    const Status st = run_op<R>(
        op, n, use_pool, ws,
        [&](R* o, void* w, std::size_t b, cudaStream_t s) {
      return want_max ? rdc::argmax<T>(d_in, n, o, w, b, s) : rdc::argmin<T>(d_in, n, o, w, b, s);
        },
        [&](R* o, cudaStream_t s) { return want_max ? rdc::argmax<T>(d_in, n, o, s) : rdc::argmin<T>(d_in, n, o, s); },
        &bytes);
    ASSERT_STATUS(Status::success, st);
    R ref;
    std::memset(&ref, 0, sizeof ref);
    const R r = tr::reference_arg(x, want_max);
    ref.index = r.index;
    ref.value = r.value;
    const R got = as<R>(bytes);
    EXPECT_EQ(ref.index, got.index) << (want_max ? "argmax" : "argmin");
    EXPECT_EQ(tr::bits_of(ref.value), tr::bits_of(got.value)) << (want_max ? "argmax" : "argmin");
    EXPECT_EQ(0, std::memcmp(&ref, bytes.data(), sizeof(R))) << "every byte of the ArgResult written";
  }
  EXPECT_TRUE(in.guards_intact());
}

template <class T>
class ReduceTypedGpu : public ::testing::Test {};
TYPED_TEST_SUITE(ReduceTypedGpu, tr::ReducibleTypes);

// Sizes around every boundary: empty, tiny, primes, 2^16 +- 1, millions; both forms; offsets 0 and 1.
TYPED_TEST(ReduceTypedGpu, EveryOperatorMatchesTheReference) {
  GPUPRIMS_REQUIRE_GPU();
  using T = TypeParam;
  auto rng = tr::make_rng(0x7e9ed001);
  const std::int64_t sizes[] = {0,
                                1,
                                2,
                                3,
                                7,
                                31,
                                257,
                                4099,
                                65521,
                                (1 << 16) - 1,
                                (1 << 16) + 1,
                                tr::sanitizer_sized_count(1000003),
                                tr::sanitizer_sized_count(3000017)};
  for (std::int64_t n : sizes)
    for (int offset : {0, 1}) {
      const auto x = tr::mixed_values<T>(static_cast<std::size_t>(n), rng, n % 2 == 0);
      const auto sx = sum_values<T>(static_cast<std::size_t>(n), rng);
      check_all_operators<T>(x, sx, offset, offset == 1);
      if (::testing::Test::HasFatalFailure()) return;
    }
}

// All NaN, all equal, and the minimum / maximum repeated at several random positions (lowest index
// wins), ±0 mixtures.
TYPED_TEST(ReduceTypedGpu, TiesNaNAndSignedZeros) {
  GPUPRIMS_REQUIRE_GPU();
  using T = TypeParam;
  auto rng = tr::make_rng(0x7e9ed002);
  for (std::int64_t n : {std::int64_t{5}, std::int64_t{4097}, tr::sanitizer_sized_count(1 << 20)}) {
    const auto count = static_cast<std::size_t>(n);
    const auto sx = sum_values<T>(count, rng);
    if constexpr (tr::is_float_like_v<T>) {
      check_all_operators<T>(std::vector<T>(count, tr::canonical_nan<T>()), sx, 1, false);
      std::vector<T> zeros(count);
      for (auto& z : zeros) z = tr::from_double<T>(rng() % 2 ? 0.0 : -0.0);
      check_all_operators<T>(zeros, sx, 0, false);
    }
    check_all_operators<T>(std::vector<T>(count, tr::from_double<T>(3.0)), sx, 0, true);
    std::vector<T> x(count);
    for (auto& v : x) v = tr::from_double<T>(static_cast<double>(10 + rng() % 50));
    for (int k = 0; k < 4; ++k) {
      x[rng() % count] = tr::from_double<T>(1.0);   // several minima
      x[rng() % count] = tr::from_double<T>(90.0);  // several maxima
    }
    check_all_operators<T>(x, sx, 1, false);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// min and max of exactly one 16-byte vector (one aligned vector, no head or tail) holding two special
// values among a filler: every ordered pair of special values (±0, ±inf, NaNs, extremes, subnormals),
// at three pairs of positions, among fillers +2, -2, +0 and NaN. The float, half and bfloat16 kernels take a
// vector's best element from the native min / max instructions and fall back to order keys when it
// is ±0 or NaN; this puts every such case, and its neighbours, inside one vector.
template <class T>
class ReduceTypedFloatGpu : public ::testing::Test {};
using FloatLikeTypes = ::testing::Types<float, double, __half, __nv_bfloat16>;
TYPED_TEST_SUITE(ReduceTypedFloatGpu, FloatLikeTypes);

// Uploads each vector of that test to `in` (one whole vector of T) and calls check(x, where) on it:
// every ordered pair of special values at three pairs of positions among four fillers. Stops at the
// first failure; returns how many vectors it checked.
template <class T, class Check>
int for_each_special_vector(GuardedBytes& in, Check&& check) {
  constexpr int kWidth = static_cast<int>(gpuprims::device::vector_width(sizeof(T)));
  const std::vector<T> specials = tr::special_values<T>();
  const T fillers[] = {tr::from_double<T>(2.0), tr::from_double<T>(-2.0), tr::from_double<T>(0.0),
                       tr::canonical_nan<T>()};
  const std::pair<int, int> places[] = {{0, 1}, {0, kWidth - 1}, {kWidth - 1, kWidth / 2}};
  int checked = 0;
  for (const T filler : fillers)
    for (const T a : specials)
      for (const T b : specials)
        for (const auto& [pa, pb] : places) {
          std::vector<T> x(static_cast<std::size_t>(kWidth), filler);
          x[static_cast<std::size_t>(pa)] = a;
          x[static_cast<std::size_t>(pb)] = b;
          const cudaError_t uploaded = in.upload(x.data());
          if (uploaded != cudaSuccess) {
            ADD_FAILURE() << "upload: " << cudaGetErrorString(uploaded);
            return checked;
          }
          std::ostringstream where;
          where << std::hex << "a=" << tr::bits_of(a) << " at " << pa << ", b=" << tr::bits_of(b) << " at " << pb
                << ", filler " << tr::bits_of(filler);
          check(x, where.str());
          ++checked;
          if (::testing::Test::HasFailure()) return checked;
        }
  return checked;
}

// Every (filler, a, b, places) combination of for_each_special_vector.
template <class T>
int special_vector_count() {
  const auto n = static_cast<int>(tr::special_values<T>().size());
  return 4 * 3 * n * n;
}

TYPED_TEST(ReduceTypedFloatGpu, MinMaxOfSpecialValuesWithinOneVector) {
  GPUPRIMS_REQUIRE_GPU();
  using T = TypeParam;
  constexpr int kWidth = static_cast<int>(gpuprims::device::vector_width(sizeof(T)));
  GuardedBytes in(static_cast<std::size_t>(kWidth) * sizeof(T), 0);  // a 256-byte boundary: one whole vector
  GuardedBytes out(sizeof(T), 0);
  ASSERT_TRUE(in.ok() && out.ok());
  const T* d_in = reinterpret_cast<const T*>(in.data());
  T* d_out = reinterpret_cast<T*>(out.data());
  const int checked = for_each_special_vector<T>(in, [&](const std::vector<T>& x, const std::string& where) {
    for (bool want_max : {false, true}) {
      ASSERT_STATUS(Status::success, want_max ? rdc::max<T>(d_in, kWidth, d_out) : rdc::min<T>(d_in, kWidth, d_out));
      T got;
      CUDA_OK(cudaMemcpy(&got, d_out, sizeof(T), cudaMemcpyDeviceToHost));
      const T ref = want_max ? tr::reference_max(x) : tr::reference_min(x);
      ASSERT_EQ(tr::bits_of(ref), tr::bits_of(got)) << (want_max ? "max of " : "min of ") << where;
    }
  });
  EXPECT_EQ(checked, special_vector_count<T>());
  EXPECT_TRUE(in.guards_intact() && out.guards_intact());
}

// argmin and argmax of one 16-byte vector, as the min / max test above. The kernels rank a vector by
// the native min / max (paired for half and bfloat16), find the first element equal to its best
// (-0 == +0) and key only that one; a vector whose best is NaN (argmin: all NaN; argmax: any NaN)
// takes the key path.
TYPED_TEST(ReduceTypedFloatGpu, ArgMinMaxOfSpecialValuesWithinOneVector) {
  GPUPRIMS_REQUIRE_GPU();
  using T = TypeParam;
  using R = ArgResult<T>;
  constexpr int kWidth = static_cast<int>(gpuprims::device::vector_width(sizeof(T)));
  GuardedBytes in(static_cast<std::size_t>(kWidth) * sizeof(T), 0);  // a 256-byte boundary: one whole vector
  GuardedBytes out(sizeof(R), 0);
  ASSERT_TRUE(in.ok() && out.ok());
  const T* d_in = reinterpret_cast<const T*>(in.data());
  R* d_out = reinterpret_cast<R*>(out.data());
  const int checked = for_each_special_vector<T>(in, [&](const std::vector<T>& x, const std::string& where) {
    for (bool want_max : {false, true}) {
      ASSERT_STATUS(Status::success,
                    want_max ? rdc::argmax<T>(d_in, kWidth, d_out) : rdc::argmin<T>(d_in, kWidth, d_out));
      R got;
      CUDA_OK(cudaMemcpy(&got, d_out, sizeof(R), cudaMemcpyDeviceToHost));
      const R ref = tr::reference_arg(x, want_max);
      ASSERT_EQ(ref.index, got.index) << (want_max ? "argmax of " : "argmin of ") << where;
      ASSERT_EQ(tr::bits_of(ref.value), tr::bits_of(got.value)) << (want_max ? "argmax of " : "argmin of ") << where;
    }
  });
  EXPECT_EQ(checked, special_vector_count<T>());
  EXPECT_TRUE(in.guards_intact() && out.guards_intact());
}

// The same bits over 10 runs (sums: a fixed order; the others are exact anyway).
TYPED_TEST(ReduceTypedGpu, DeterministicOverTenRuns) {
  GPUPRIMS_REQUIRE_GPU();
  using T = TypeParam;
  using S = sum_type_t<T>;
  auto rng = tr::make_rng(0x7e9ed003);
  const std::int64_t n = tr::sanitizer_sized_count((1 << 22) + 3);
  const auto x = sum_values<T>(static_cast<std::size_t>(n), rng);
  GuardedBytes in(x.size() * sizeof(T), sizeof(T));
  ASSERT_TRUE(in.ok());
  CUDA_OK(in.upload(x.data()));
  const T* d_in = reinterpret_cast<const T*>(in.data());
  gpuprims::detail::DeviceBuffer<S> out(1);
  gpuprims::detail::DeviceBuffer<ArgResult<T>> aout(1);
  std::vector<std::uint64_t> first;
  for (int run = 0; run < 10; ++run) {
    ASSERT_STATUS(Status::success, rdc::sum<T>(d_in, n, out.get()));
    ASSERT_STATUS(Status::success, rdc::argmax<T>(d_in, n, aout.get()));
    S s{};
    ArgResult<T> a{};
    CUDA_OK(cudaMemcpy(&s, out.get(), sizeof s, cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(&a, aout.get(), sizeof a, cudaMemcpyDeviceToHost));
    const std::vector<std::uint64_t> now = {tr::bits_of(s), static_cast<std::uint64_t>(a.index), tr::bits_of(a.value)};
    if (run == 0) first = now;
    EXPECT_EQ(first, now) << "run " << run;
  }
}

// Bad arguments: the Status, nothing launched (the poisoned output and the guards untouched).
TYPED_TEST(ReduceTypedGpu, BadArgumentsLaunchNothing) {
  GPUPRIMS_REQUIRE_GPU();
  using T = TypeParam;
  using S = sum_type_t<T>;
  const std::int64_t n = 1 << 20;
  GuardedBytes in(static_cast<std::size_t>(n) * sizeof(T) + 16, 0), out(64, 0), ws(1 << 20, 0);
  ASSERT_TRUE(in.ok() && out.ok() && ws.ok());
  const T* d_in = reinterpret_cast<const T*>(in.data());
  auto* so = reinterpret_cast<S*>(out.data());
  auto* vo = reinterpret_cast<T*>(out.data());
  auto* ao = reinterpret_cast<ArgResult<T>*>(out.data());
  const T* odd_in = reinterpret_cast<const T*>(in.data() + 1);
  EXPECT_STATUS(Status::invalid_argument, rdc::sum<T>(nullptr, n, so, ws.data(), ws.bytes()));
  EXPECT_STATUS(Status::invalid_argument, rdc::sum<T>(d_in, -1, so));
  EXPECT_STATUS(Status::invalid_argument, rdc::sum<T>(d_in, n, so, ws.data(), 1));
  EXPECT_STATUS(Status::invalid_argument, rdc::min<T>(d_in, n, vo, nullptr, ws.bytes()));
  EXPECT_STATUS(Status::invalid_argument, rdc::max<T>(d_in, n, static_cast<T*>(nullptr)));
  EXPECT_STATUS(Status::misaligned_pointer, rdc::max<T>(odd_in, n, vo));
  EXPECT_STATUS(Status::misaligned_pointer, rdc::argmin<T>(d_in, n, reinterpret_cast<ArgResult<T>*>(out.data() + 4)));
  EXPECT_STATUS(Status::invalid_argument, rdc::argmax<T>(d_in, INT64_MIN, ao));
  EXPECT_STATUS(Status::invalid_argument, rdc::argmin<T>(d_in, n, ao, ws.data(), 0));
  EXPECT_EQ(cudaSuccess, cudaDeviceSynchronize());
  for (unsigned char b : out.download()) ASSERT_EQ(0xFF, b) << "a rejected call wrote its output";
  for (unsigned char b : ws.download()) ASSERT_EQ(0xFF, b) << "a rejected call wrote the workspace";
  EXPECT_TRUE(out.guards_intact() && ws.guards_intact() && in.guards_intact());
}

// Custom operators through the public device template: a plain functor with an initial value applied
// once, and a user operator with a struct accumulator; sizes 0 to millions, offset input.
TEST(ReduceTypedGpuCustom, CustomOperatorsThroughTheDeviceTemplate) {
  GPUPRIMS_REQUIRE_GPU();
  auto rng = tr::make_rng(0x7e9ed004);
  for (std::int64_t n :
       {std::int64_t{0}, std::int64_t{1}, std::int64_t{5}, std::int64_t{65537}, tr::sanitizer_sized_count(2000003)}) {
    SCOPED_TRACE("n=" + std::to_string(n));
    const auto count = static_cast<std::size_t>(n);
    std::vector<std::int32_t> xi(count);
    std::vector<float> xf(count);
    for (auto& v : xi) v = static_cast<std::int32_t>(rng() % 2000001) - 1000000;
    std::uniform_real_distribution<float> u(-2.0f, 2.0f);
    for (auto& v : xf) v = u(rng);
    GuardedBytes di(count * 4, 4), df(count * 4, 4), out(16, 0);
    ASSERT_TRUE(di.ok() && df.ok() && out.ok());
    if (n > 0) {
      CUDA_OK(di.upload(xi.data()));
      CUDA_OK(df.upload(xf.data()));
    }
    for (std::int32_t init : {0, 999999, -5}) {
      std::int32_t ref = init;
      for (std::int32_t v : xi) ref = std::max(ref < 0 ? -ref : ref, v < 0 ? -v : v);
      const std::size_t wsb = tr::custom_absmax_workspace_bytes(n);
      gpuprims::detail::DeviceBuffer<unsigned char> ws(std::max<std::size_t>(wsb, 1));
      CUDA_OK(out.poison());
      ASSERT_STATUS(Status::success, tr::custom_absmax(reinterpret_cast<const std::int32_t*>(di.data()), n, init,
                                                       reinterpret_cast<std::int32_t*>(out.data()), ws.get(), wsb));
      EXPECT_EQ(ref, as<std::int32_t>(out.download())) << "init " << init;
    }
    double ref_sq = 0.0, ref_abs = 0.0;
    std::int64_t ref_neg = 0;
    for (float v : xf) {
      ref_sq += static_cast<double>(v) * v;
      ref_abs += static_cast<double>(v) * v;
      ref_neg += v < 0.0f ? 1 : 0;
    }
    const std::size_t wsb = tr::custom_squares_workspace_bytes(n);
    gpuprims::detail::DeviceBuffer<unsigned char> ws(std::max<std::size_t>(wsb, 1));
    GuardedBytes sq(sizeof(tr::SquaresAndNegatives), 0);
    ASSERT_STATUS(Status::success,
                  tr::custom_squares(reinterpret_cast<const float*>(df.data()), n,
                                     reinterpret_cast<tr::SquaresAndNegatives*>(sq.data()), ws.get(), wsb));
    const auto got = as<tr::SquaresAndNegatives>(sq.download());
    EXPECT_EQ(ref_neg, got.negatives);
    EXPECT_LE(std::fabs(got.sum_squares - ref_sq), 1e-12 * ref_abs + 1e-300);
    EXPECT_TRUE(sq.guards_intact() && di.guards_intact() && df.guards_intact());
    // A workspace too small is refused before anything runs.
    if (wsb > 0) {
      EXPECT_STATUS(Status::invalid_argument,
                    tr::custom_squares(reinterpret_cast<const float*>(df.data()), n,
                                       reinterpret_cast<tr::SquaresAndNegatives*>(sq.data()), ws.get(), wsb - 16));
    }
  }
}

// n = 2^31 + 17 floats made on the device (about 8.6 GB): argmin / argmax / min / max with planted
// extremes on both sides of 2^31, duplicated so the lowest index must win. Under the sanitizer the same
// at 2^21 + 17.
TEST(ReduceTypedGpuHuge, PastTwoPow31Elements) {
  GPUPRIMS_REQUIRE_GPU();
  const std::int64_t pivot = std::int64_t{1} << tr::sized_for_sanitizer(31, 21);
  const std::int64_t n = pivot + 17;
  const std::size_t count = static_cast<std::size_t>(n) + 1;
  ASSERT_GE(tr::gpu_free_bytes(), count * sizeof(float) + (std::size_t{256} << 20)) << "needs ~8.6 GB free";
  gpuprims::detail::DeviceBuffer<float> buf(count);
  gpuprims::detail::DeviceBuffer<ArgResult<float>> aout(1);
  gpuprims::detail::DeviceBuffer<float> vout(1);
  ASSERT_TRUE(buf && aout && vout);
  CUDA_OK(gpuprims::testkit::fill_uniform(buf.get(), static_cast<std::int64_t>(count), tr::base_seed() ^ 0x7e9e, -1.0f,
                                          1.0f));
  const float lo = -2.0f, hi = 2.0f;
  const std::int64_t lo_at[] = {pivot + 5, pivot + 9}, hi_at[] = {pivot - 3, pivot + 2};
  for (int offset : {0, 1}) {
    SCOPED_TRACE("offset " + std::to_string(offset));
    for (std::int64_t p : lo_at) CUDA_OK(cudaMemcpy(buf.get() + offset + p, &lo, 4, cudaMemcpyHostToDevice));
    for (std::int64_t p : hi_at) CUDA_OK(cudaMemcpy(buf.get() + offset + p, &hi, 4, cudaMemcpyHostToDevice));
    const float* d = buf.get() + offset;
    ArgResult<float> a{};
    float v = 0.0f;
    ASSERT_STATUS(Status::success, rdc::argmin<float>(d, n, aout.get()));
    CUDA_OK(cudaMemcpy(&a, aout.get(), sizeof a, cudaMemcpyDeviceToHost));
    EXPECT_EQ(lo_at[0], a.index);
    EXPECT_EQ(lo, a.value);
    ASSERT_STATUS(Status::success, rdc::argmax<float>(d, n, aout.get()));
    CUDA_OK(cudaMemcpy(&a, aout.get(), sizeof a, cudaMemcpyDeviceToHost));
    EXPECT_EQ(hi_at[0], a.index);
    EXPECT_EQ(hi, a.value);
    ASSERT_STATUS(Status::success, rdc::min<float>(d, n, vout.get()));
    CUDA_OK(cudaMemcpy(&v, vout.get(), sizeof v, cudaMemcpyDeviceToHost));
    EXPECT_EQ(lo, v);
    ASSERT_STATUS(Status::success, rdc::max<float>(d, n, vout.get()));
    CUDA_OK(cudaMemcpy(&v, vout.get(), sizeof v, cudaMemcpyDeviceToHost));
    EXPECT_EQ(hi, v);
    // Undo the planted values for the next offset (they would be at the wrong places).
    CUDA_OK(gpuprims::testkit::fill_uniform(buf.get(), static_cast<std::int64_t>(count), tr::base_seed() ^ 0x7e9f,
                                            -1.0f, 1.0f));
  }
}

}  // namespace
