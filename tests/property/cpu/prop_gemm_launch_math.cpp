// RapidCheck over SGEMM launch arithmetic on the CPU: the grouped tile order is a bijection onto the
// output tiles for any grid and group size, and the tuned pick never selects a plan whose
// preconditions the shape violates (path limits on m and n, split ranges that cover k exactly).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <set>

#include "gemm/src/cost_model.hpp"
#include "gemm/src/detail/tile_index.hpp"

namespace {

namespace d = gpuprims::detail;

RC_GTEST_PROP(GemmLaunchMathProperty, TileOrderIsABijection, ()) {
  const std::int64_t tiles_m = *rc::gen::inRange<std::int64_t>(1, 60);
  const std::int64_t tiles_n = *rc::gen::inRange<std::int64_t>(1, 60);
  const std::int64_t group = *rc::gen::inRange<std::int64_t>(1, 17);
  std::set<std::pair<std::int64_t, std::int64_t>> seen;
  for (std::int64_t b = 0; b < tiles_m * tiles_n; ++b) {
    const d::TileCoord t = d::tile_coord(b, tiles_m, tiles_n, group);
    RC_ASSERT(t.tm >= 0 && t.tm < tiles_m && t.tn >= 0 && t.tn < tiles_n);
    seen.insert({t.tm, t.tn});
  }
  RC_ASSERT(static_cast<std::int64_t>(seen.size()) == tiles_m * tiles_n);
}

RC_GTEST_PROP(GemmLaunchMathProperty, EdgesFirstOrderIsABijectionWithTheEdgesFirst, ()) {
  const std::int64_t bm = *rc::gen::element<std::int64_t>(32, 64, 128, 256);
  const std::int64_t bn = *rc::gen::element<std::int64_t>(64, 128, 256);
  const std::int64_t m = *rc::gen::inRange<std::int64_t>(1, 40 * bm);
  const std::int64_t n = *rc::gen::inRange<std::int64_t>(1, 40 * bn);
  const std::int64_t group = *rc::gen::inRange<std::int64_t>(1, 17);
  const std::int64_t tiles_m = (m + bm - 1) / bm, tiles_n = (n + bn - 1) / bn;
  std::set<std::pair<std::int64_t, std::int64_t>> seen;
  bool interior_seen = false;
  for (std::int64_t b = 0; b < tiles_m * tiles_n; ++b) {
    const d::TileCoord t = d::tile_coord_edges_first(b, m, n, bm, bn, group);
    RC_ASSERT(t.tm >= 0 && t.tm < tiles_m && t.tn >= 0 && t.tn < tiles_n);
    const bool edge = (t.tm + 1) * bm > m || (t.tn + 1) * bn > n;
    RC_ASSERT(!(interior_seen && edge));
    interior_seen = interior_seen || !edge;
    seen.insert({t.tm, t.tn});
  }
  RC_ASSERT(static_cast<std::int64_t>(seen.size()) == tiles_m * tiles_n);
}

// Shapes biased to the edges of the paths' limits (1, 4, 16, 32, 33 ...) as well as anywhere up to 2^24.
rc::Gen<std::int64_t> dim() {
  return rc::gen::oneOf(rc::gen::inRange<std::int64_t>(1, 65),
                        rc::gen::element<std::int64_t>(1, 4, 5, 8, 9, 16, 17, 32, 33),
                        rc::gen::inRange<std::int64_t>(1, std::int64_t{1} << 24));
}

RC_GTEST_PROP(GemmLaunchMathProperty, TunedPickAlwaysFitsTheShape, ()) {
  const std::int64_t m = *dim(), n = *dim(), k = *dim();
  d::DeviceShape device;
  device.sm_count = *rc::gen::inRange(1, 200);
  for (int& occ : device.occupancy) occ = *rc::gen::inRange(0, 9);
  device.clusters = *rc::gen::arbitrary<bool>();
  const bool store_c = *rc::gen::arbitrary<bool>();
  const auto call = *rc::gen::element(d::PickFor::plain, d::PickFor::top2, d::PickFor::row_top2);
  const d::GemmPlan plan = d::pick_plan(m, n, k, store_c, device, d::constants_for(call));
  RC_LOG() << m << "x" << n << "x" << k << " -> " << d::plan_label(plan) << " of " << plan.k_split;
  RC_ASSERT(d::plan_fits(plan, m, n, k));
  RC_ASSERT(plan.splits <= d::kMaxSplits);
  RC_ASSERT(!plan.cluster || device.clusters);
}

}  // namespace
