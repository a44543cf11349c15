// RapidCheck over SGEMM launch arithmetic on the CPU: the grouped tile order is a bijection onto the
// output tiles for any grid and group size, and the tuned pick always names a compiled configuration.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <set>

#include "gemm/src/detail/tile_index.hpp"
#include "gemm/src/tuned_pick.hpp"

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

RC_GTEST_PROP(GemmLaunchMathProperty, TunedPickIsAlwaysACompiledConfig, ()) {
  const auto m = *rc::gen::inRange<std::int64_t>(1, std::int64_t{1} << 20);
  const auto n = *rc::gen::inRange<std::int64_t>(1, std::int64_t{1} << 20);
  const auto k = *rc::gen::inRange<std::int64_t>(1, std::int64_t{1} << 20);
  const int c = d::tuned_pick(m, n, k);
  RC_ASSERT(c >= 0 && c < d::kNumTunedConfigs);
}

}  // namespace
