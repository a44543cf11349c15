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

// Wide-exponent GEMM operands: row i of A (m x k, row stride lda) times 2^ea_i and column j of B
// (k x n, row stride ldb) times 2^eb_j; with per_element, every element of the two windows times its
// own 2^e instead, so that one output's sum mixes products of very different sizes (the per-row form
// scales whole sums and, relative to each, changes little). Exponents are integers uniform in
// [lo, hi] drawn from seed, the same on every toolchain. Powers of two: exact unless a value leaves
// FP32's range, which |x| <= 1 and |e| <= 40 never do.
void scale_exponents(std::vector<float>& A, std::int64_t m, std::int64_t k, std::int64_t lda, std::vector<float>& B,
                     std::int64_t n, std::int64_t ldb, std::uint64_t seed, bool per_element, int lo = -40, int hi = 40);

}  // namespace gpuprims::testkit
