#pragma once
// Random data for the tests and the benchmarks, from one generator: element i of the stream `seed` is
// a hash of (seed, i) (splitmix64), so the same seed gives the same values on the host and on the
// device, in any order and on any grid. 24 random bits per uniform float.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace gpuprims::testkit {

// p[0..n) uniform in [lo, hi) on the device: launched on the default stream and synchronized
// before it returns, so the data is there for work on any stream.
cudaError_t fill_uniform(float* p, std::int64_t n, std::uint64_t seed, float lo = -1.0f, float hi = 1.0f);

enum class Dist {
  uniform_pm1,      // [-1, 1)
  nonnegative,      // [0, 1)
  mixed_magnitude,  // [-1, 1) * 2^e, e uniform in -20..20
  integers_small,   // the integers -4..4
  wide_magnitude,   // [-1, 1) * 2^e, e uniform in -60..60
  cancelling,       // [-1, 1) * 1e30 +- 1: large terms that cancel
};

// Host data: one draw from rng seeds the stream.
void fill_random(float* data, std::size_t n, std::mt19937_64& rng, Dist dist = Dist::uniform_pm1);
std::vector<float> random_vector(std::size_t n, std::mt19937_64& rng, Dist dist = Dist::uniform_pm1);
// The integers lo..hi (hi - lo < 2^32) as floats: sums stay exact while sum |x| <= 2^24.
std::vector<float> random_integers(std::size_t n, std::mt19937_64& rng, int lo, int hi);

}  // namespace gpuprims::testkit
