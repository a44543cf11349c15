#pragma once
// The SGEMM shape sets: the held-out suite sgemm_bench judges the tuned rung on (random shapes from a
// fixed seed plus the shape classes that used to hurt), and the tuning set sgemm_autotune fits the
// cost model to (another seed, plus one shape of each kind every path serves). The two never share a
// shape, so the held-out figures are of shapes the model was not fitted to.
#include <cstdint>
#include <vector>

#include "testkit/shapes.hpp"

namespace gpuprims::bench {

inline constexpr std::uint64_t kHeldOutSeed = 20261122;
inline constexpr std::uint64_t kTuningSeed = 7;
inline constexpr std::uint64_t kAlignedSeed = 20261130;

// count shapes with m, n, k log-uniform in [1, 16384], at most max_flops (2mnk) and max_bytes (A, B
// and C once), no two alike; class "random".
std::vector<testkit::GemmShape> random_shapes(std::uint64_t seed, int count, double max_flops, double max_bytes);

// >= 60 random shapes (kHeldOutSeed) and the classes tiny_output_long_k, narrow (m or n <= 16),
// one_side_64_128 and squares_between (squares between powers of two).
std::vector<testkit::GemmShape> heldout_suite();

// Random shapes (kTuningSeed) and a structured set covering every path, none in heldout_suite().
std::vector<testkit::GemmShape> tuning_shapes();

// A second held-out set, of the sizes model code tends to bring: 32 random shapes (kAlignedSeed) whose
// m, n and k are multiples of 64 from 64 to 16384 (log-uniform in the multiple), under the held-out
// caps; class "aligned". Whole tiles for some tile paths and not for others, which the random suite
// almost never gives. None is a tuning shape; for judging the pick, never for fitting it.
std::vector<testkit::GemmShape> aligned_suite();

}  // namespace gpuprims::bench
