#include "testkit/random.hpp"

#include <cmath>

namespace gpuprims::testkit {
namespace {

__host__ __device__ inline std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

__host__ __device__ inline std::uint64_t hash(std::uint64_t seed, std::int64_t i) {
  return splitmix64(seed ^ splitmix64(static_cast<std::uint64_t>(i)));
}

// Element i of stream `seed`, uniform in [lo, hi).
__host__ __device__ inline float uniform_value(std::uint64_t seed, std::int64_t i, float lo, float hi) {
  const float unit = static_cast<float>(hash(seed, i) >> 40) * (1.0f / 16777216.0f);  // 24 bits in [0, 1)
  return lo + (hi - lo) * unit;
}

// Element i of stream `seed`, uniform over the integers lo..hi (hi - lo < 2^32).
inline std::int64_t uniform_int(std::uint64_t seed, std::int64_t i, std::int64_t lo, std::int64_t hi) {
  const std::uint64_t range = static_cast<std::uint64_t>(hi - lo) + 1;
  return lo + static_cast<std::int64_t>(((hash(seed, i) >> 32) * range) >> 32);
}

// A second stream of the same seed, independent of the first.
inline std::uint64_t substream(std::uint64_t seed) { return splitmix64(seed ^ 0x5851f42d4c957f2dull); }

__global__ void fill_uniform_kernel(float* p, std::int64_t n, std::uint64_t seed, float lo, float hi) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    p[i] = uniform_value(seed, i, lo, hi);
}

}  // namespace

cudaError_t fill_uniform(float* p, std::int64_t n, std::uint64_t seed, float lo, float hi) {
  if (n <= 0) return cudaSuccess;
  fill_uniform_kernel<<<2048, 256>>>(p, n, seed, lo, hi);
  const cudaError_t err = cudaGetLastError();
  return err != cudaSuccess ? err : cudaDeviceSynchronize();
}

void fill_random(float* data, std::size_t n, std::mt19937_64& rng, Dist dist) {
  const std::uint64_t seed = rng(), other = substream(seed);
  for (std::size_t u = 0; u < n; ++u) {
    const auto i = static_cast<std::int64_t>(u);
    switch (dist) {
      case Dist::uniform_pm1: data[u] = uniform_value(seed, i, -1.0f, 1.0f); break;
      case Dist::nonnegative: data[u] = uniform_value(seed, i, 0.0f, 1.0f); break;
      case Dist::mixed_magnitude:
        data[u] = std::ldexp(uniform_value(seed, i, -1.0f, 1.0f), static_cast<int>(uniform_int(other, i, -20, 20)));
        break;
      case Dist::integers_small: data[u] = static_cast<float>(uniform_int(seed, i, -4, 4)); break;
      case Dist::wide_magnitude:
        data[u] = std::ldexp(uniform_value(seed, i, -1.0f, 1.0f), static_cast<int>(uniform_int(other, i, -60, 60)));
        break;
      case Dist::cancelling:
        data[u] = uniform_value(seed, i, -1.0f, 1.0f) * 1e30f + (uniform_int(other, i, 0, 1) ? 1.0f : -1.0f);
        break;
    }
  }
}

std::vector<float> random_vector(std::size_t n, std::mt19937_64& rng, Dist dist) {
  std::vector<float> v(n);
  fill_random(v.data(), n, rng, dist);
  return v;
}

std::vector<float> random_integers(std::size_t n, std::mt19937_64& rng, int lo, int hi) {
  const std::uint64_t seed = rng();
  std::vector<float> v(n);
  for (std::size_t u = 0; u < n; ++u)
    v[u] = static_cast<float>(uniform_int(seed, static_cast<std::int64_t>(u), lo, hi));
  return v;
}

}  // namespace gpuprims::testkit
