#pragma once
// Fresh random data every run: one base seed per process (from std::random_device, or from
// GPUPRIMS_TEST_SEED to repeat a failure), printed by test_main.
#include <cstdint>
#include <random>
#include <vector>

namespace gpuprims::test {

std::uint64_t base_seed();
// A generator seeded from the base seed and a per-call-site salt.
std::mt19937_64 make_rng(std::uint64_t salt);

enum class Dist { uniform_pm1, nonnegative, mixed_magnitude, integers_small };

std::vector<float> random_vector(std::size_t n, std::mt19937_64& rng, Dist dist = Dist::uniform_pm1);
void fill_random(float* data, std::size_t n, std::mt19937_64& rng, Dist dist = Dist::uniform_pm1);

}  // namespace gpuprims::test
