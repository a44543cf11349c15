#include "support/reference.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <thread>

namespace gpuprims::test {

SumReference reference_sum(const float* x, std::int64_t n) {
  // Pairwise in blocks keeps the double reference itself far below the float bound.
  double sum = 0.0, abs_sum = 0.0;
  constexpr std::int64_t kBlock = 4096;
  for (std::int64_t b = 0; b < n; b += kBlock) {
    double s = 0.0, a = 0.0;
    const std::int64_t e = std::min(n, b + kBlock);
    for (std::int64_t i = b; i < e; ++i) {
      s += x[i];
      a += std::fabs(static_cast<double>(x[i]));
    }
    sum += s;
    abs_sum += a;
  }
  return {sum, abs_sum};
}

double sum_error_bound(double abs_sum, double items_per_thread, double log2_threads, double passes, double c) {
  return c * (items_per_thread + log2_threads + passes + 2.0) * kUnitRoundoff * abs_sum;
}

namespace {

template <class F>
void parallel_rows(std::int64_t rows, F&& body) {
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  const std::int64_t workers = std::min<std::int64_t>(hw, std::max<std::int64_t>(1, rows / 8));
  if (workers <= 1) {
    body(std::int64_t{0}, rows);
    return;
  }
  std::vector<std::thread> pool;
  const std::int64_t chunk = (rows + workers - 1) / workers;
  for (std::int64_t w = 0; w < workers; ++w) {
    const std::int64_t b = w * chunk, e = std::min(rows, b + chunk);
    if (b < e) pool.emplace_back([&body, b, e] { body(b, e); });
  }
  for (auto& t : pool) t.join();
}

}  // namespace

ProductReference reference_product(std::int64_t m, std::int64_t n, std::int64_t k, const float* A, std::int64_t lda,
                                   const float* B, std::int64_t ldb) {
  ProductReference ref;
  ref.m = m;
  ref.n = n;
  ref.k = k;
  ref.sum.assign(static_cast<std::size_t>(m * n), 0.0);
  ref.mag.assign(static_cast<std::size_t>(m * n), 0.0);
  parallel_rows(m, [&](std::int64_t r0, std::int64_t r1) {
    for (std::int64_t i = r0; i < r1; ++i) {
      double* acc = &ref.sum[static_cast<std::size_t>(i * n)];
      double* mag = &ref.mag[static_cast<std::size_t>(i * n)];
      for (std::int64_t p = 0; p < k; ++p) {
        const double a = A[i * lda + p];
        const double abs_a = std::fabs(a);
        const float* brow = B + p * ldb;
        for (std::int64_t j = 0; j < n; ++j) {
          const double b = brow[j];
          acc[j] += a * b;
          mag[j] += abs_a * std::fabs(b);
        }
      }
    }
  });
  return ref;
}

void reference_product_entry(std::int64_t i, std::int64_t j, std::int64_t k, const float* A, std::int64_t lda,
                             const float* B, std::int64_t ldb, double* sum, double* mag) {
  double acc = 0.0, m = 0.0;
  for (std::int64_t p = 0; p < k; ++p) {
    const double a = A[i * lda + p], b = B[p * ldb + j];
    acc += a * b;
    m += std::fabs(a) * std::fabs(b);
  }
  *sum = acc;
  *mag = m;
}

Top2 reference_top2(const float* x, std::int64_t rows, std::int64_t cols, std::int64_t ld) {
  struct Item {
    float v;
    std::int64_t idx;
  };
  // Rank: NaN after everything, -0.0 equal to +0.0, then index.
  auto less = [](const Item& a, const Item& b) {
    const bool an = std::isnan(a.v), bn = std::isnan(b.v);
    if (an != bn) return bn;
    if (!an && a.v != b.v) return a.v < b.v;
    return a.idx < b.idx;
  };
  std::vector<Item> items;
  items.reserve(static_cast<std::size_t>(rows * cols));
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 0; c < cols; ++c) items.push_back({x[r * ld + c], r * cols + c});
  const std::size_t keep = std::min<std::size_t>(2, items.size());
  std::partial_sort(items.begin(), items.begin() + static_cast<std::ptrdiff_t>(keep), items.end(), less);
  const MinEntry missing{std::numeric_limits<float>::infinity(), -1, -1};
  Top2 t{missing, missing};
  if (keep > 0) t.first = {items[0].v, items[0].idx / cols, items[0].idx % cols};
  if (keep > 1) t.second = {items[1].v, items[1].idx / cols, items[1].idx % cols};
  return t;
}

}  // namespace gpuprims::test
