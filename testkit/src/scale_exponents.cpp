#include <cmath>
#include <random>

#include "testkit/random.hpp"

namespace gpuprims::testkit {

void scale_exponents(std::vector<float>& A, std::int64_t m, std::int64_t k, std::int64_t lda, std::vector<float>& B,
                     std::int64_t n, std::int64_t ldb, std::uint64_t seed, bool per_element, int lo, int hi) {
  std::mt19937_64 rng(seed);
  const std::uint64_t span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo) + 1;  // lo <= hi
  // Modulo of the raw generator, not std::uniform_int_distribution (implementation-defined output):
  // the same exponents on every toolchain; the bias of 2^64 mod 81 is immaterial here.
  auto exponent = [&] { return lo + static_cast<int>(rng() % span); };
  auto a = [&](std::int64_t i, std::int64_t p) -> float& { return A[static_cast<std::size_t>(i * lda + p)]; };
  auto b = [&](std::int64_t p, std::int64_t j) -> float& { return B[static_cast<std::size_t>(p * ldb + j)]; };
  if (per_element) {
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t p = 0; p < k; ++p) a(i, p) = std::ldexp(a(i, p), exponent());
    for (std::int64_t p = 0; p < k; ++p)
      for (std::int64_t j = 0; j < n; ++j) b(p, j) = std::ldexp(b(p, j), exponent());
    return;
  }
  for (std::int64_t i = 0; i < m; ++i) {
    const int e = exponent();
    for (std::int64_t p = 0; p < k; ++p) a(i, p) = std::ldexp(a(i, p), e);
  }
  for (std::int64_t j = 0; j < n; ++j) {
    const int e = exponent();
    for (std::int64_t p = 0; p < k; ++p) b(p, j) = std::ldexp(b(p, j), e);
  }
}

}  // namespace gpuprims::testkit
