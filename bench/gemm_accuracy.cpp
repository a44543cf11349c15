#include "gemm_accuracy.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpuprims::bench {

std::vector<std::int64_t> sample_rows(std::int64_t m, int count) {
  std::vector<std::int64_t> rows;
  if (m <= 0 || count <= 0) return rows;
  if (m <= count || count == 1) {
    for (std::int64_t i = 0; i < std::min<std::int64_t>(m, count); ++i) rows.push_back(i);
    return rows;
  }
  for (int r = 0; r < count; ++r) rows.push_back(r * (m - 1) / (count - 1));
  return rows;
}

RowReference reference_rows(const std::vector<float>& A, const std::vector<float>& B, std::int64_t n, std::int64_t k,
                            const std::vector<std::int64_t>& rows) {
  RowReference ref;
  ref.rows = rows;
  ref.n = n;
  const std::size_t count = rows.size() * static_cast<std::size_t>(n);
  ref.value.assign(count, 0.0);
  ref.abs_sum.assign(count, 0.0);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    double* value = ref.value.data() + r * static_cast<std::size_t>(n);
    double* abs_sum = ref.abs_sum.data() + r * static_cast<std::size_t>(n);
    const float* a = A.data() + rows[r] * k;
    for (std::int64_t p = 0; p < k; ++p) {
      const double ap = a[p];
      const float* b = B.data() + p * n;
      for (std::int64_t j = 0; j < n; ++j) {
        const double t = ap * b[j];  // exact: two 24-bit significands fit in double's 53
        value[j] += t;
        abs_sum[j] += std::fabs(t);
      }
    }
  }
  return ref;
}

ErrorStats relative_errors(const RowReference& ref, const std::vector<float>& C, std::int64_t ldc) {
  ErrorStats s;
  bool any_nan = false;
  double sum_sq = 0;
  const auto n = static_cast<std::size_t>(ref.n);
  for (std::size_t r = 0; r < ref.rows.size(); ++r) {
    const float* c = C.data() + ref.rows[r] * ldc;
    for (std::size_t j = 0; j < n; ++j) {
      const double diff = std::fabs(static_cast<double>(c[j]) - ref.value[r * n + j]);
      const double scale = ref.abs_sum[r * n + j];
      double e = 0;
      if (scale > 0) e = diff / scale;
      else if (diff != 0) e = std::isnan(diff) ? diff : std::numeric_limits<double>::infinity();
      if (!std::isfinite(c[j])) ++s.nonfinite;
      ++s.elements;
      if (std::isnan(e)) any_nan = true;
      else s.max = std::max(s.max, e);
      sum_sq += e * e;  // NaN and inf carry into the RMS as they are
    }
  }
  if (any_nan) s.max = std::numeric_limits<double>::quiet_NaN();
  s.rms = s.elements > 0 ? std::sqrt(sum_sq / static_cast<double>(s.elements)) : 0.0;
  return s;
}

}  // namespace gpuprims::bench
