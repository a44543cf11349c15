#pragma once
// The tuned rung's choice: the configuration that measured fastest on the table shape nearest to the
// request (distance = sum of |log2| ratios of m, n and k). The table is written by bench/sgemm_autotune
// on a real GPU; see tuned_table.inc for where and when. Plain host code, tested on the CPU.
#include <cmath>
#include <cstdint>

#include "gemm/src/tuning.hpp"

namespace gpuprims::detail {

struct TunedTableEntry {
  std::int64_t m, n, k;
  int config;  // index into kTunedConfigs
};

inline constexpr TunedTableEntry kTunedTable[] = {
#include "gemm/src/tuned_table.inc"
};

inline double shape_distance(std::int64_t m, std::int64_t n, std::int64_t k, const TunedTableEntry& e) {
  auto d = [](std::int64_t a, std::int64_t b) {
    return std::fabs(std::log2(static_cast<double>(a < 1 ? 1 : a)) - std::log2(static_cast<double>(b)));
  };
  return d(m, e.m) + d(n, e.n) + d(k, e.k);
}

inline int tuned_pick(std::int64_t m, std::int64_t n, std::int64_t k) {
  int best = kTunedTable[0].config;
  double best_d = shape_distance(m, n, k, kTunedTable[0]);
  for (const TunedTableEntry& e : kTunedTable) {
    const double d = shape_distance(m, n, k, e);
    if (d < best_d) {
      best_d = d;
      best = e.config;
    }
  }
  return best;
}

}  // namespace gpuprims::detail
