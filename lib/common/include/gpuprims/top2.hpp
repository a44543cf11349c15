#pragma once
// The result type of the top-2 argmin operations (fused in the GEMM epilogue, and over a matrix or
// vector in the reduce module).
#include <cstdint>

namespace gpuprims {

// One entry of a matrix: its value and its (row, col). A missing entry is {+inf, -1, -1}. Values
// are reported as numbers: an entry of -0.0 comes back as +0.0 (it ties with +0.0, the lower index
// winning) and any NaN as the canonical quiet NaN.
struct MinEntry {
  float value;
  std::int64_t row;
  std::int64_t col;
};

// The two smallest entries by value; NaN sorts after +inf; ties go to the lower row-major index.
struct Top2 {
  MinEntry first;
  MinEntry second;
};

}  // namespace gpuprims
