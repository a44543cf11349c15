#pragma once
// Fresh random data every run: one base seed per process (from std::random_device, or from
// GPUPRIMS_TEST_SEED to repeat a failure), printed by test_main. The data itself comes from
// testkit/random.hpp, the generator the benchmarks use too.
#include <cstdint>
#include <random>

namespace gpuprims::test {

std::uint64_t base_seed();
// A generator seeded from the base seed and a per-call-site salt.
std::mt19937_64 make_rng(std::uint64_t salt);

}  // namespace gpuprims::test
