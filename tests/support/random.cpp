#include "support/random.hpp"

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

}  // namespace gpuprims::test
