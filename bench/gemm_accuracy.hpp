#pragma once
// The host side of sgemm_bench's accuracy suite: a double-precision reference on a sample of rows of a
// row-major FP32 product, and the error of a computed C against it, per element relative to the
// magnitudes that went into it: |C_ij - ref_ij| / sum_p |A_ip B_pj|. That denominator is the one the
// bounds of docs/ERROR-BOUNDS.md are relative to (c (k + 2) u times it), so the figure compares across
// inputs of any scale and across cancellation; units of u = 2^-24 (FP32's unit roundoff) put it beside
// those bounds. A measurement, not a test: the statistics keep NaN and inf (a NaN error makes the
// maximum NaN; it is never skipped).
#include <cstdint>
#include <vector>

namespace gpuprims::bench {

inline constexpr double kFp32Unit = 0x1p-24;  // FP32 unit roundoff; errors are also given in units of it

// count row indices spread evenly over [0, m), the first and the last row included (all rows when
// m <= count).
std::vector<std::int64_t> sample_rows(std::int64_t m, int count);

// The exact products of the sampled rows, summed in double: value[r * n + j] = sum_p A_ip B_pj and
// abs_sum[r * n + j] = sum_p |A_ip B_pj| for i = rows[r] (A m x k, row stride k; B k x n, row stride n).
struct RowReference {
  std::vector<std::int64_t> rows;
  std::int64_t n = 0;
  std::vector<double> value, abs_sum;
};
RowReference reference_rows(const std::vector<float>& A, const std::vector<float>& B, std::int64_t n, std::int64_t k,
                            const std::vector<std::int64_t>& rows);

// Statistics of e_ij = |C_ij - ref_ij| / sum_p |A_ip B_pj| over the sampled rows, all columns. An
// element with a zero denominator has e = 0 when C is 0 there and inf otherwise. max and rms are NaN
// when any e is NaN (C NaN where the reference is finite), inf when any e is inf.
struct ErrorStats {
  double max = 0, rms = 0;
  std::int64_t elements = 0;   // elements compared
  std::int64_t nonfinite = 0;  // of them, those whose C is NaN or inf
};
// C: the whole m x n output, row stride ldc.
ErrorStats relative_errors(const RowReference& ref, const std::vector<float>& C, std::int64_t ldc);

}  // namespace gpuprims::bench
