#pragma once
// The tuned rung's choice: the configuration that measured fastest on the table shape nearest to the
// request (distance = sum of |log2| ratios of m, n and k). The tables are written by
// bench/sgemm_autotune on a real GPU; see the .inc files for where and when. Plain host code, tested
// on the CPU.
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "gemm/src/tuning.hpp"

namespace gpuprims::detail {

struct TunedTableEntry {
  std::int64_t m, n, k;
  int config;  // index into kTunedConfigs
};

// Every call that stores the product: sgemm, and sgemm_top2_argmin with C.
inline constexpr TunedTableEntry kTunedTable[] = {
#include "gemm/src/tuned_table.inc"
};

// sgemm_top2_argmin with C == nullptr, timed separately: with no stores to C a tile's top-2 ranking
// weighs more against its FMAs, and the fastest tile shape can differ (on the H100 at
// 16384 x 16384 x 64, 128 x 256 tiles instead of 64 x 128).
inline constexpr TunedTableEntry kTunedTop2OnlyTable[] = {
#include "gemm/src/tuned_top2_only_table.inc"
};

inline double shape_distance(std::int64_t m, std::int64_t n, std::int64_t k, const TunedTableEntry& e) {
  auto d = [](std::int64_t a, std::int64_t b) {
    return std::fabs(std::log2(static_cast<double>(a < 1 ? 1 : a)) - std::log2(static_cast<double>(b)));
  };
  return d(m, e.m) + d(n, e.n) + d(k, e.k);
}

template <std::size_t N>
int tuned_pick(const TunedTableEntry (&table)[N], std::int64_t m, std::int64_t n, std::int64_t k) {
  int best = table[0].config;
  double best_d = shape_distance(m, n, k, table[0]);
  for (const TunedTableEntry& e : table) {
    const double d = shape_distance(m, n, k, e);
    if (d < best_d) {
      best_d = d;
      best = e.config;
    }
  }
  return best;
}

// The configuration for a call; top2_only: sgemm_top2_argmin with C == nullptr.
inline int tuned_pick(std::int64_t m, std::int64_t n, std::int64_t k, bool top2_only = false) {
  return top2_only ? tuned_pick(kTunedTop2OnlyTable, m, n, k) : tuned_pick(kTunedTable, m, n, k);
}

}  // namespace gpuprims::detail
