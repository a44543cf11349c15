// RapidCheck over the algebra of the min, max, argmin and argmax operators (reduce_ops.hpp) on the
// CPU, for every reducible type: combine is associative and commutative on lifted elements and on
// partial results, and any split of a sequence into chunks, folded chunk by chunk and the chunk results
// combined in any order, gives the sequential fold's bits and the reference's (support/typed_reference).
// Integer sums (exact, wrapping) likewise. The key-only shortcut over a run of consecutive elements
// (combine_run) gives the one-by-one combine's bits.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <gpuprims/device/reduce_ops.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#include "support/typed_reference.hpp"
#include "support/typed_values.hpp"

namespace {

namespace dev = gpuprims::device;
namespace tr = gpuprims::test;

template <class Acc>
bool same_bytes(const Acc& a, const Acc& b) {
  return std::memcmp(&a, &b, sizeof(Acc)) == 0;
}

// Inputs from a seed: specials at random places, any bit pattern or few distinct values (ties).
template <class T>
std::vector<T> draw_values(std::size_t n) {
  std::mt19937_64 rng(*rc::gen::arbitrary<std::uint64_t>());
  return tr::mixed_values<T>(n, rng, *rc::gen::arbitrary<bool>());
}

// Associative and commutative on partial results of disjoint index ranges.
template <class Op>
void check_combine_laws() {
  using T = typename Op::Input;
  const Op op;
  const auto x = draw_values<T>(*rc::gen::inRange<std::size_t>(3, 60));
  std::vector<typename Op::Acc> acc;
  for (std::size_t i = 0; i < x.size(); ++i) acc.push_back(op.lift(x[i], static_cast<std::int64_t>(i)));
  acc.push_back(op.identity());
  const auto pick = [&] { return acc[*rc::gen::inRange<std::size_t>(0, acc.size())]; };
  const auto a = pick(), b = pick(), c = pick();
  RC_ASSERT(same_bytes(op.combine(op.combine(a, b), c), op.combine(a, op.combine(b, c))));
  RC_ASSERT(same_bytes(op.combine(a, b), op.combine(b, a)));
}

// Chunks folded separately and combined in a random order agree with the sequential fold.
template <class Op>
void check_order_independence() {
  using T = typename Op::Input;
  const Op op;
  const auto x = draw_values<T>(*rc::gen::inRange<std::size_t>(0, 300));
  typename Op::Acc sequential = op.identity();
  for (std::size_t i = 0; i < x.size(); ++i)
    sequential = op.combine(sequential, op.lift(x[i], static_cast<std::int64_t>(i)));
  std::vector<typename Op::Acc> chunks;
  std::size_t begin = 0;
  while (begin < x.size()) {
    const std::size_t len = *rc::gen::inRange<std::size_t>(1, x.size() - begin + 1);
    typename Op::Acc c = op.identity();
    for (std::size_t i = begin; i < begin + len; ++i) c = op.combine(c, op.lift(x[i], static_cast<std::int64_t>(i)));
    chunks.push_back(c);
    begin += len;
  }
  std::vector<std::size_t> order(chunks.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::mt19937_64 shuffle_rng(*rc::gen::arbitrary<std::uint64_t>());
  std::shuffle(order.begin(), order.end(), shuffle_rng);
  typename Op::Acc any_order = op.identity();
  for (std::size_t k : order) any_order = op.combine(any_order, chunks[k]);
  RC_ASSERT(same_bytes(sequential, any_order));
  const auto got = op.finish(any_order);
  if constexpr (std::is_same_v<Op, dev::Min<T>>) RC_ASSERT(tr::bits_of(tr::reference_min(x)) == tr::bits_of(got));
  if constexpr (std::is_same_v<Op, dev::Max<T>>) RC_ASSERT(tr::bits_of(tr::reference_max(x)) == tr::bits_of(got));
  if constexpr (std::is_same_v<Op, dev::ArgMin<T>> || std::is_same_v<Op, dev::ArgMax<T>>) {
    const auto ref = tr::reference_arg(x, std::is_same_v<Op, dev::ArgMax<T>>);
    RC_ASSERT(ref.index == got.index);
    RC_ASSERT(tr::bits_of(ref.value) == tr::bits_of(got.value));
  }
  if constexpr (std::is_same_v<Op, dev::Sum<T>> && !tr::is_float_like_v<T>) RC_ASSERT(tr::reference_int_sum(x) == got);
}

// combine_run over a 16-byte load's worth of consecutive elements (the pass-1 shortcut of
// device_reduce.cuh: argmin / argmax rank the run on keys alone) gives the bits of one combine per
// element, from any accumulator of earlier or later indices.
template <class Op>
void check_run_shortcut() {
  using T = typename Op::Input;
  constexpr int kRun = static_cast<int>(16 / sizeof(T)) > 0 ? static_cast<int>(16 / sizeof(T)) : 1;
  const Op op;
  const auto x = draw_values<T>(kRun + 1);
  const std::int64_t first = *rc::gen::inRange<std::int64_t>(1, 1 << 20);
  // The accumulator: nothing yet, or one element before the run or after it.
  const int where = *rc::gen::inRange(0, 3);
  const typename Op::Acc acc = where == 0 ? op.identity() : op.lift(x[kRun], where == 1 ? first - 1 : first + kRun);
  typename Op::Acc one_by_one = acc;
  for (int j = 0; j < kRun; ++j) one_by_one = op.combine(one_by_one, op.lift(x[j], first + j));
  RC_ASSERT(same_bytes(one_by_one, dev::combine_run<kRun>(op, acc, x.data(), first)));
}

template <class T>
void check_all_operators() {
  check_run_shortcut<dev::Min<T>>();
  check_run_shortcut<dev::ArgMin<T>>();
  check_run_shortcut<dev::ArgMax<T>>();
  static_assert(dev::ranks_by_key<dev::ArgMin<T>>::value && dev::ranks_by_key<dev::ArgMax<T>>::value &&
                    !dev::ranks_by_key<dev::Min<T>>::value,
                "argmin and argmax take the key-only run shortcut; min does not need it");
  check_combine_laws<dev::Min<T>>();
  check_combine_laws<dev::Max<T>>();
  check_combine_laws<dev::ArgMin<T>>();
  check_combine_laws<dev::ArgMax<T>>();
  check_order_independence<dev::Min<T>>();
  check_order_independence<dev::Max<T>>();
  check_order_independence<dev::ArgMin<T>>();
  check_order_independence<dev::ArgMax<T>>();
  if constexpr (!tr::is_float_like_v<T>) {
    check_combine_laws<dev::Sum<T>>();
    check_order_independence<dev::Sum<T>>();
  }
}

RC_GTEST_PROP(ReduceOpsProperty, FloatOperatorsAreExactInAnyOrder, ()) { check_all_operators<float>(); }
RC_GTEST_PROP(ReduceOpsProperty, DoubleOperatorsAreExactInAnyOrder, ()) { check_all_operators<double>(); }
RC_GTEST_PROP(ReduceOpsProperty, HalfOperatorsAreExactInAnyOrder, ()) { check_all_operators<__half>(); }
RC_GTEST_PROP(ReduceOpsProperty, Bfloat16OperatorsAreExactInAnyOrder, ()) { check_all_operators<__nv_bfloat16>(); }
RC_GTEST_PROP(ReduceOpsProperty, Int32OperatorsAreExactInAnyOrder, ()) { check_all_operators<std::int32_t>(); }
RC_GTEST_PROP(ReduceOpsProperty, Uint32OperatorsAreExactInAnyOrder, ()) { check_all_operators<std::uint32_t>(); }
RC_GTEST_PROP(ReduceOpsProperty, Int64OperatorsAreExactInAnyOrder, ()) { check_all_operators<std::int64_t>(); }

}  // namespace
