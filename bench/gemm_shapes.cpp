#include "gemm_shapes.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <tuple>

namespace gpuprims::bench {

using testkit::GemmShape;

namespace {

constexpr double kMaxDim = 16384;
constexpr double kRandomMaxFlops = 68719476736.0;  // 2^36: about 1.4 ms at 50 TFLOP/s
constexpr double kRandomMaxBytes = 1073741824.0;   // 1 GiB of operands

// step times a whole number log-uniform in [1, kMaxDim / step], from the raw generator (not
// std::uniform_real_distribution, whose output the standard leaves to the implementation): the same
// shapes on every toolchain. step 1: log-uniform in [1, kMaxDim].
std::int64_t log_uniform_multiple(std::mt19937_64& rng, std::int64_t step) {
  const double u = static_cast<double>(rng() >> 11) * 0x1.0p-53;
  const std::int64_t most = static_cast<std::int64_t>(kMaxDim) / step;
  const auto d = static_cast<std::int64_t>(std::floor(std::pow(static_cast<double>(most), u) + 0.5));
  return step * std::clamp<std::int64_t>(d, 1, most);
}

using Key = std::tuple<std::int64_t, std::int64_t, std::int64_t>;

// count shapes of class cls with m, n, k from log_uniform_multiple(step), under max_flops and
// max_bytes, no two alike and none in `excluded`.
std::vector<GemmShape> draw_shapes(std::uint64_t seed, int count, double max_flops, double max_bytes, std::int64_t step,
                                   const char* cls, const std::set<Key>& excluded) {
  std::mt19937_64 rng(seed);
  std::set<Key> seen;
  std::vector<GemmShape> out;
  while (static_cast<int>(out.size()) < count) {
    const std::int64_t m = log_uniform_multiple(rng, step), n = log_uniform_multiple(rng, step),
                       k = log_uniform_multiple(rng, step);
    const double md = static_cast<double>(m), nd = static_cast<double>(n), kd = static_cast<double>(k);
    if (2 * md * nd * kd > max_flops || 4 * (md * kd + kd * nd + md * nd) > max_bytes) continue;
    if (excluded.count(Key{m, n, k}) > 0 || !seen.insert(Key{m, n, k}).second) continue;
    out.push_back({m, n, k, cls});
  }
  return out;
}

}  // namespace

std::vector<GemmShape> random_shapes(std::uint64_t seed, int count, double max_flops, double max_bytes) {
  return draw_shapes(seed, count, max_flops, max_bytes, 1, "random", {});
}

std::vector<GemmShape> aligned_suite() {
  std::set<Key> tuning;
  for (const GemmShape& t : tuning_shapes()) tuning.insert(Key{t.m, t.n, t.k});
  return draw_shapes(kAlignedSeed, 32, kRandomMaxFlops, kRandomMaxBytes, 64, "aligned", tuning);
}

std::vector<GemmShape> heldout_suite() {
  std::vector<GemmShape> s = random_shapes(kHeldOutSeed, 64, kRandomMaxFlops, kRandomMaxBytes);
  const GemmShape classes[] = {
      // A small output with a long k: too few tiles to fill the GPU.
      {64, 64, 65536, "tiny_output_long_k"},
      {32, 32, 131072, "tiny_output_long_k"},
      {48, 80, 30000, "tiny_output_long_k"},
      {100, 100, 50000, "tiny_output_long_k"},
      {16, 200, 40000, "tiny_output_long_k"},
      {160, 96, 20000, "tiny_output_long_k"},
      // m or n at most 16: vector-like, bound by reading the large operand.
      {1, 4096, 4096, "narrow"},
      {4096, 1, 4096, "narrow"},
      {8, 8192, 2048, "narrow"},
      {16, 10000, 3000, "narrow"},
      {3000, 5, 7000, "narrow"},
      {12000, 16, 1000, "narrow"},
      {2, 50000, 500, "narrow"},
      {7, 3, 100000, "narrow"},
      // One side 64 to 128: tall-skinny and short-wide outputs.
      {100, 8192, 4096, "one_side_64_128"},
      {8192, 96, 4096, "one_side_64_128"},
      {64, 16384, 1024, "one_side_64_128"},
      {128, 3000, 3000, "one_side_64_128"},
      {4000, 72, 5000, "one_side_64_128"},
      {80, 6000, 6000, "one_side_64_128"},
      {120, 20000, 700, "one_side_64_128"},
      // Squares between the powers of two.
      {700, 700, 700, "squares_between"},
      {1200, 1200, 1200, "squares_between"},
      {1500, 1500, 1500, "squares_between"},
      {1800, 1800, 1800, "squares_between"},
      {2500, 2500, 2500, "squares_between"},
      {3000, 3000, 3000, "squares_between"},
      {3500, 3500, 3500, "squares_between"},
      {5000, 5000, 5000, "squares_between"},
  };
  s.insert(s.end(), std::begin(classes), std::end(classes));
  return s;
}

std::vector<GemmShape> tuning_shapes() {
  std::vector<GemmShape> s;
  const GemmShape structured[] = {
      {256, 256, 256, "square"},    {512, 512, 512, "square"},     {1024, 1024, 1024, "square"},
      {2048, 2048, 2048, "square"}, {4096, 4096, 4096, "square"},  {8192, 8192, 8192, "square"},
      {8192, 8192, 16, "short_k"},  {16384, 16384, 64, "short_k"}, {4096, 4096, 256, "short_k"},
      {64, 64, 32768, "long_k"},    {128, 256, 16384, "long_k"},   {32, 128, 65536, "long_k"},
      {256, 256, 8192, "long_k"},   {512, 1024, 8192, "long_k"},   {1024, 1024, 16384, "long_k"},
      {1, 16384, 4096, "few_rows"}, {4, 4096, 16384, "few_rows"},  {8, 2048, 8192, "few_rows"},
      {16, 8192, 2048, "few_rows"}, {32, 4096, 4096, "few_rows"},  {3, 500, 20000, "few_rows"},
      {8192, 1, 8192, "few_cols"},  {16384, 4, 2048, "few_cols"},  {2048, 8, 16384, "few_cols"},
      {4096, 16, 4096, "few_cols"}, {4096, 32, 4096, "few_cols"},  {500, 3, 20000, "few_cols"},
      {64, 8192, 8192, "one_side"}, {8192, 128, 8192, "one_side"}, {192, 2048, 2048, "one_side"},
  };
  s.insert(s.end(), std::begin(structured), std::end(structured));
  const std::vector<GemmShape> random = random_shapes(kTuningSeed, 48, kRandomMaxFlops, kRandomMaxBytes);
  s.insert(s.end(), random.begin(), random.end());
  // Never a held-out shape.
  std::set<Key> heldout;
  for (const GemmShape& h : heldout_suite()) heldout.insert(Key{h.m, h.n, h.k});
  s.erase(std::remove_if(
              s.begin(), s.end(),
              [&](const GemmShape& t) {
    return heldout.count(Key{t.m, t.n, t.k}) > 0;
              }),
          s.end());
  return s;
}

}  // namespace gpuprims::bench
