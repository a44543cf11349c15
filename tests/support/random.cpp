#include "support/random.hpp"

#include <cmath>
#include <cstdlib>
#include <string>

namespace gpuprims::test {

std::uint64_t base_seed() {
  static const std::uint64_t seed = [] {
    if (const char* env = std::getenv("GPUPRIMS_TEST_SEED")) return static_cast<std::uint64_t>(std::stoull(env));
    std::random_device rd;
    return (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
  }();
  return seed;
}

std::mt19937_64 make_rng(std::uint64_t salt) {
  std::seed_seq seq{static_cast<std::uint32_t>(base_seed()), static_cast<std::uint32_t>(base_seed() >> 32),
                    static_cast<std::uint32_t>(salt), static_cast<std::uint32_t>(salt >> 32)};
  return std::mt19937_64(seq);
}

void fill_random(float* data, std::size_t n, std::mt19937_64& rng, Dist dist) {
  std::uniform_real_distribution<float> pm1(-1.0f, 1.0f);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::uniform_int_distribution<int> exponent(-20, 20);
  std::uniform_int_distribution<int> small_int(-4, 4);
  for (std::size_t i = 0; i < n; ++i) {
    switch (dist) {
      case Dist::uniform_pm1: data[i] = pm1(rng); break;
      case Dist::nonnegative: data[i] = unit(rng); break;
      case Dist::mixed_magnitude: data[i] = std::ldexp(pm1(rng), exponent(rng)); break;
      case Dist::integers_small: data[i] = static_cast<float>(small_int(rng)); break;
    }
  }
}

std::vector<float> random_vector(std::size_t n, std::mt19937_64& rng, Dist dist) {
  std::vector<float> v(n);
  fill_random(v.data(), n, rng, dist);
  return v;
}

}  // namespace gpuprims::test
