// RapidCheck against the CPU references on a device: for every reducible type, random n (up to 2^17,
// with the boundaries of one block, one pass and 2^16 weighted in), the input offset by 0-3 elements,
// NaN / ±inf / ±0 and ties at random places: min, max, argmin, argmax exact (every byte of ArgResult
// written), integer sums exact, float / half / bfloat16 / double sums within the bound of
// docs/ERROR-BOUNDS.md, and the same bits on a rerun.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <gpuprims/device/device_reduce_plan.hpp>
#include <gpuprims/reduce.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

#include "common/src/device_buffer.hpp"
#include "reduce/src/plan.hpp"
#include "support/gpu.hpp"
#include "support/typed_reference.hpp"
#include "support/typed_values.hpp"

namespace {

namespace rdc = gpuprims::reduce;
namespace tr = gpuprims::test;
using gpuprims::ArgResult;
using gpuprims::Status;

rc::Gen<std::int64_t> gen_n() {
  return rc::gen::oneOf(rc::gen::inRange<std::int64_t>(0, 70), rc::gen::inRange<std::int64_t>(0, 20000),
                        rc::gen::inRange<std::int64_t>(0, std::int64_t{1} << 17),
                        rc::gen::elementOf(std::vector<std::int64_t>{1023, 1024, 1025, 4095, 4096, 4097, 8191, 8193,
                                                                     65535, 65536, 65537}));
}

template <class V>
V read_back(const void* d) {
  V h;
  std::memset(static_cast<void*>(&h), 0, sizeof(V));
  RC_ASSERT(cudaMemcpy(static_cast<void*>(&h), d, sizeof(V), cudaMemcpyDeviceToHost) == cudaSuccess);
  return h;
}

// One bound for every typed sum (the device template's chains, over the fewest blocks a GPU may use;
// float: the shuffle rung's, as reduce_typed.hpp says).
template <class T>
double bound_for(std::int64_t n, double abs_sum, int sms) {
  namespace rd = gpuprims::reduce::detail;
  if constexpr (std::is_same_v<T, float>) {
    const auto a = rdc::Algorithm::shuffle;
    return tr::typed_sum_error_bound<float>(abs_sum, static_cast<double>(rd::bound_items_upper(n, a, sms)),
                                            rd::bound_log2_threads(n, a), rd::max_pass1_blocks(n, a) > 1 ? 2.0 : 1.0);
  } else {
    using P = gpuprims::reduce::detail::TypedPolicy<gpuprims::device::Sum<T>>;
    const std::int64_t most = gpuprims::device::reduce_max_blocks<P>(n, sizeof(T));
    return tr::typed_sum_error_bound<gpuprims::sum_type_t<T>>(abs_sum, tr::typed_sum_chain_items<T>(n, sms), 8.0,
                                                              most > 1 ? 2.0 : 1.0);
  }
}

template <class T>
void check_type(int sms) {
  using S = gpuprims::sum_type_t<T>;
  const auto n = *gen_n();
  const auto offset = *rc::gen::inRange<std::int64_t>(0, 4);
  std::mt19937_64 rng(*rc::gen::arbitrary<std::uint64_t>());
  const std::vector<T> x = tr::mixed_values<T>(static_cast<std::size_t>(n), rng, *rc::gen::arbitrary<bool>());
  std::vector<T> sx(static_cast<std::size_t>(n));
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (auto& v : sx) v = tr::is_float_like_v<T> ? tr::from_double<T>(u(rng)) : tr::from_bits<T>(rng());
  RC_LOG() << "n=" << n << " offset=" << offset;

  gpuprims::detail::DeviceBuffer<T> in(static_cast<std::size_t>(n + 4)), sin(static_cast<std::size_t>(n + 4));
  gpuprims::detail::DeviceBuffer<unsigned char> out(64);
  RC_ASSERT(in && sin && out);
  if (n > 0) {
    RC_ASSERT(cudaMemcpy(in.get() + offset, x.data(), sizeof(T) * x.size(), cudaMemcpyHostToDevice) == cudaSuccess);
    RC_ASSERT(cudaMemcpy(sin.get() + offset, sx.data(), sizeof(T) * sx.size(), cudaMemcpyHostToDevice) == cudaSuccess);
  }
  const T* d = in.get() + offset;
  const T* ds = sin.get() + offset;
  auto poison = [&] { RC_ASSERT(cudaMemset(out.get(), 0xFF, 64) == cudaSuccess); };

  poison();
  RC_ASSERT(rdc::sum<T>(ds, n, reinterpret_cast<S*>(out.get())) == Status::success);
  const S s = read_back<S>(out.get());
  if constexpr (tr::is_float_like_v<T>) {
    const tr::WideSum ref = tr::reference_float_sum(sx);
    const double err = std::fabs(static_cast<double>(static_cast<long double>(s) - ref.sum));
    RC_ASSERT(err <= bound_for<T>(n, static_cast<double>(ref.abs_sum), sms));  // NaN fails
  } else {
    RC_ASSERT(s == tr::reference_int_sum(sx));
  }
  RC_ASSERT(rdc::sum<T>(ds, n, reinterpret_cast<S*>(out.get())) == Status::success);
  RC_ASSERT(tr::bits_of(read_back<S>(out.get())) == tr::bits_of(s));  // the same bits on a rerun

  poison();
  RC_ASSERT(rdc::min<T>(d, n, reinterpret_cast<T*>(out.get())) == Status::success);
  RC_ASSERT(tr::bits_of(read_back<T>(out.get())) == tr::bits_of(tr::reference_min(x)));
  poison();
  RC_ASSERT(rdc::max<T>(d, n, reinterpret_cast<T*>(out.get())) == Status::success);
  RC_ASSERT(tr::bits_of(read_back<T>(out.get())) == tr::bits_of(tr::reference_max(x)));
  for (bool want_max : {false, true}) {
    poison();
    auto* r = reinterpret_cast<ArgResult<T>*>(out.get());
    RC_ASSERT((want_max ? rdc::argmax<T>(d, n, r) : rdc::argmin<T>(d, n, r)) == Status::success);
    ArgResult<T> ref;
    std::memset(static_cast<void*>(&ref), 0, sizeof ref);
    const ArgResult<T> rr = tr::reference_arg(x, want_max);
    ref.index = rr.index;
    ref.value = rr.value;
    const ArgResult<T> got = read_back<ArgResult<T>>(out.get());
    RC_ASSERT(got.index == ref.index);
    RC_ASSERT(std::memcmp(&got, &ref, sizeof ref) == 0);  // value bits and every reserved byte
  }
}

TEST(ReduceTypedPropGpu, EveryOperatorAndTypeMatchesTheReference) {
  GPUPRIMS_REQUIRE_GPU();
  const int sms = tr::sm_count();
  EXPECT_TRUE(rc::check("float", [sms] { check_type<float>(sms); }));
  EXPECT_TRUE(rc::check("double", [sms] { check_type<double>(sms); }));
  EXPECT_TRUE(rc::check("half", [sms] { check_type<__half>(sms); }));
  EXPECT_TRUE(rc::check("bfloat16", [sms] { check_type<__nv_bfloat16>(sms); }));
  EXPECT_TRUE(rc::check("int32", [sms] { check_type<std::int32_t>(sms); }));
  EXPECT_TRUE(rc::check("uint32", [sms] { check_type<std::uint32_t>(sms); }));
  EXPECT_TRUE(rc::check("int64", [sms] { check_type<std::int64_t>(sms); }));
}

}  // namespace
