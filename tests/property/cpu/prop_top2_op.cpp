// RapidCheck over the top-2 combine's algebra on the CPU: the merge of partial results over disjoint
// positions is commutative and associative, and any split of a sequence merged in any order gives the
// first two of a stable sort by (value, NaN last, index). The same for the packed words and the
// atomic grid merge, under any interleaving of its steps and any timing of the bound reads.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "common/device/top2_order.hpp"

namespace {

namespace d = gpuprims::detail;

// Values with many ties, both zeros, infinities and NaN.
rc::Gen<float> interesting_float() {
  return rc::gen::oneOf(rc::gen::map(rc::gen::inRange(-3, 4), [](int v) { return static_cast<float>(v); }),
                        rc::gen::element(0.0f, -0.0f, INFINITY, -INFINITY, NAN), rc::gen::arbitrary<float>());
}

d::Top2Partial partial_of(const std::vector<float>& v, std::int64_t first_index) {
  d::Top2Partial p = d::Top2Partial::empty();
  for (std::size_t i = 0; i < v.size(); ++i) p.insert(v[i], first_index + static_cast<std::int64_t>(i));
  return p;
}

bool same(const d::Top2Partial& a, const d::Top2Partial& b) {
  return a.i0 == b.i0 && a.i1 == b.i1 && a.k0 == b.k0 && a.k1 == b.k1;
}

RC_GTEST_PROP(Top2OpProperty, MergeIsCommutative, ()) {
  const auto x = *rc::gen::container<std::vector<float>>(interesting_float());
  const auto y = *rc::gen::container<std::vector<float>>(interesting_float());
  const auto a = partial_of(x, 0), b = partial_of(y, static_cast<std::int64_t>(x.size()));
  RC_ASSERT(same(d::Top2Merge{}(a, b), d::Top2Merge{}(b, a)));
}

RC_GTEST_PROP(Top2OpProperty, MergeIsAssociative, ()) {
  const auto x = *rc::gen::container<std::vector<float>>(interesting_float());
  const auto y = *rc::gen::container<std::vector<float>>(interesting_float());
  const auto z = *rc::gen::container<std::vector<float>>(interesting_float());
  const auto a = partial_of(x, 0);
  const auto b = partial_of(y, static_cast<std::int64_t>(x.size()));
  const auto c = partial_of(z, static_cast<std::int64_t>(x.size() + y.size()));
  const d::Top2Merge merge;
  RC_ASSERT(same(merge(merge(a, b), c), merge(a, merge(b, c))));
}

RC_GTEST_PROP(Top2OpProperty, AnySplitAgreesWithASort, ()) {
  const auto v = *rc::gen::container<std::vector<float>>(interesting_float());
  const auto pieces = *rc::gen::inRange<std::size_t>(1, 6);
  // Split into contiguous pieces, reduce each, merge in reverse order.
  d::Top2Partial acc = d::Top2Partial::empty();
  const std::size_t step = v.size() / pieces + 1;
  for (std::size_t start = 0; start < v.size(); start += step) {
    const std::size_t end = std::min(v.size(), start + step);
    const std::vector<float> part(v.begin() + static_cast<std::ptrdiff_t>(start),
                                  v.begin() + static_cast<std::ptrdiff_t>(end));
    acc = d::Top2Merge{}(partial_of(part, static_cast<std::int64_t>(start)), acc);
  }
  std::vector<std::int64_t> idx(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) idx[i] = static_cast<std::int64_t>(i);
  std::stable_sort(idx.begin(), idx.end(), [&](std::int64_t a, std::int64_t b) {
    const float x = v[static_cast<std::size_t>(a)], y = v[static_cast<std::size_t>(b)];
    if (std::isnan(x) || std::isnan(y)) return !std::isnan(x) && std::isnan(y);
    return x < y;
  });
  RC_ASSERT(acc.i0 == (v.size() > 0 ? idx[0] : d::kNoIndex));
  RC_ASSERT(acc.i1 == (v.size() > 1 ? idx[1] : d::kNoIndex));
}

RC_GTEST_PROP(Top2OpProperty, PackedFormAgreesWithInsertion, ()) {
  // The GEMM epilogue's branch-free (key, 32-bit index) words rank exactly like the general insertion.
  const auto v = *rc::gen::container<std::vector<float>>(interesting_float());
  d::PackedTop2 packed;
  d::Top2Partial exact = d::Top2Partial::empty();
  for (std::size_t i = 0; i < v.size(); ++i) {
    packed.add(d::PackedTop2::pack(d::order_key(v[i]), static_cast<std::uint32_t>(i)));
    exact.insert(v[i], static_cast<std::int64_t>(i));
  }
  d::Top2Partial from_packed = d::Top2Partial::empty();
  packed.merge_into(from_packed);
  RC_ASSERT(same(from_packed, exact));
}

d::Top2Partial unpacked(const d::PackedTop2& p) {
  d::Top2Partial r = d::Top2Partial::empty();
  p.merge_into(r);
  return r;
}

d::PackedTop2 packed_of(const std::vector<float>& v, std::uint32_t first_index) {
  d::PackedTop2 p;
  for (std::size_t i = 0; i < v.size(); ++i)
    p.add(d::PackedTop2::pack(d::order_key(v[i]), first_index + static_cast<std::uint32_t>(i)));
  return p;
}

RC_GTEST_PROP(Top2OpProperty, PackedMergeAgreesWithTheGeneralMerge, ()) {
  const auto x = *rc::gen::container<std::vector<float>>(interesting_float());
  const auto y = *rc::gen::container<std::vector<float>>(interesting_float());
  const auto first_y = static_cast<std::uint32_t>(x.size());
  const d::PackedTop2 a = packed_of(x, 0), b = packed_of(y, first_y);
  const d::Top2Partial general = d::Top2Merge{}(partial_of(x, 0), partial_of(y, first_y));
  RC_ASSERT(same(unpacked(d::PackedTop2::merge(a, b)), general));
  RC_ASSERT(same(unpacked(d::PackedTop2::merge(b, a)), general));
}

// A model of the fused epilogue's grid merge (top2_atomic.cuh): "warps" own contiguous pieces of the
// entries; each one reads the bound from `second` at some moment, ranks only the entries that may
// enter, then does its two atomicMin steps. A random schedule interleaves the steps of all warps.
RC_GTEST_PROP(Top2OpProperty, AtomicGridMergeIsExactUnderAnySchedule, ()) {
  const auto v = *rc::gen::container<std::vector<float>>(interesting_float());
  const auto warps = *rc::gen::inRange<std::size_t>(1, 8);
  struct Warp {
    std::size_t begin, end;
    int step = 0;  // 0: read the bound and rank, 1: atomicMin(best), 2: atomicMin(second), 3: done
    d::PackedTop2 pair;
    std::uint64_t old_best = 0;
  };
  std::vector<Warp> ws;
  const std::size_t piece = v.size() / warps + 1;
  for (std::size_t b = 0; b < v.size(); b += piece) {
    Warp w;
    w.begin = b;
    w.end = std::min(v.size(), b + piece);
    ws.push_back(w);
  }
  std::uint64_t best = ~std::uint64_t{0}, second = ~std::uint64_t{0};
  auto running = [&] {
    std::vector<std::size_t> r;
    for (std::size_t i = 0; i < ws.size(); ++i)
      if (ws[i].step < 3) r.push_back(i);
    return r;
  };
  for (auto live = running(); !live.empty(); live = running()) {
    Warp& w = ws[live[*rc::gen::inRange<std::size_t>(0, live.size())]];
    if (w.step == 0) {
      const float bound = d::top2_bound_of(second);
      for (std::size_t i = w.begin; i < w.end; ++i)
        if (d::top2_may_enter(v[i], bound))
          w.pair.add(d::PackedTop2::pack(d::order_key(v[i]), static_cast<std::uint32_t>(i)));
      w.step = w.pair.w0 == ~std::uint64_t{0} ? 3 : 1;  // nothing to push
    } else if (w.step == 1) {
      w.old_best = best;
      best = std::min(best, w.pair.w0);
      w.step = 2;
    } else {
      second = std::min(second, d::top2_second_candidate(w.old_best, w.pair.w0, w.pair.w1));
      w.step = 3;
    }
  }
  RC_ASSERT(same(unpacked(d::PackedTop2{best, second}), partial_of(v, 0)));
}

// A model of the per-row top-2's slot merge (gemm/src/epilogue/row_top2_visitor.cuh), for one row:
// each entry (a column) belongs to one of several pushers, in any spread; a pusher reads the slot's
// second word when it comes to the row, ranks all its entries, and skips the push when its pair's
// first word is not below what it read; else its two atomicMin steps. A random schedule interleaves
// every pusher's steps.
RC_GTEST_PROP(Top2OpProperty, RowSlotMergeIsExactUnderAnySchedule, ()) {
  const auto v = *rc::gen::container<std::vector<float>>(interesting_float());
  const auto pushers = *rc::gen::inRange<std::size_t>(1, 8);
  struct Pusher {
    std::vector<std::uint32_t> cols;
    int step = 0;  // 0: read the bound, 1: rank and decide, 2: atomicMin(first), 3: atomicMin(second), 4: done
    std::uint64_t bound = 0, old_first = 0;
    d::PackedTop2 pair;
  };
  std::vector<Pusher> ps(pushers);
  for (std::size_t c = 0; c < v.size(); ++c)
    ps[*rc::gen::inRange<std::size_t>(0, pushers)].cols.push_back(static_cast<std::uint32_t>(c));
  std::uint64_t first = ~std::uint64_t{0}, second = ~std::uint64_t{0};
  auto running = [&] {
    std::vector<std::size_t> r;
    for (std::size_t i = 0; i < ps.size(); ++i)
      if (ps[i].step < 4) r.push_back(i);
    return r;
  };
  for (auto live = running(); !live.empty(); live = running()) {
    Pusher& p = ps[live[*rc::gen::inRange<std::size_t>(0, live.size())]];
    if (p.step == 0) {
      p.bound = second;
      p.step = 1;
    } else if (p.step == 1) {
      for (std::uint32_t c : p.cols) p.pair.add(d::PackedTop2::pack(d::order_key(v[c]), c));
      p.step = p.pair.w0 < p.bound ? 2 : 4;
    } else if (p.step == 2) {
      p.old_first = first;
      first = std::min(first, p.pair.w0);
      p.step = 3;
    } else {
      second = std::min(second, d::top2_second_candidate(p.old_first, p.pair.w0, p.pair.w1));
      p.step = 4;
    }
  }
  RC_ASSERT(same(unpacked(d::PackedTop2{first, second}), partial_of(v, 0)));
}

RC_GTEST_PROP(Top2OpProperty, KeyRoundTripsExceptSignedZeroAndNanPayload, (float v)) {
  const float back = d::value_from_key(d::order_key(v));
  if (std::isnan(v)) RC_ASSERT(std::isnan(back));
  else if (v == 0.0f) RC_ASSERT(back == 0.0f && !std::signbit(back));
  else RC_ASSERT(back == v);
}

}  // namespace
