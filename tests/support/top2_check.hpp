#pragma once
// Helpers for the top-2 tests: run the fused GEMM epilogue (C stored or not), and compare results.
#include <string>
#include <vector>

#include <gpuprims/gemm.hpp>

#include "support/gemm_check.hpp"

namespace gpuprims::test {

struct Top2Run {
  Status status = Status::cuda_error;
  Top2 top2{};
  std::vector<float> C;  // the m x ldc buffer after the call (poison-filled when not stored)
  std::string guard_damage, cuda_error;
};

// sgemm_top2_argmin on the layout; with store_c false, C is passed as nullptr (beta must be 0).
// wide_index: the same call through the internal entry point with the 64-bit-index top-2 forced (the
// path of outputs with 2^32 entries or more), on the workspace its plan asks for.
Top2Run run_sgemm_top2(const GemmLayout& l, const GemmInputs& in, gemm::Algorithm algo, float alpha, float beta,
                       bool store_c = true, bool wide_index = false);

// reduce::top2_argmin over a host matrix uploaded with the given offset.
Top2Run run_reduce_top2(const std::vector<float>& x, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                        int offset = 0);

struct RowTop2Run {
  Status status = Status::cuda_error;
  std::vector<Top2> rows;  // d_out[0..m) after the call (poisoned before it)
  std::vector<float> C;    // the m x ldc buffer after the call (poison-filled when not stored)
  std::string guard_damage, cuda_error;
};

// gemm::sgemm_row_top2_argmin on the layout, the output in a guarded buffer poisoned with 0x7F bytes;
// with store_c false, C is passed as nullptr (beta must be 0). explicit_workspace: the caller's
// workspace form, sized by row_top2_workspace_bytes (else the stream-ordered form).
RowTop2Run run_sgemm_row_top2(const GemmLayout& l, const GemmInputs& in, gemm::Algorithm algo, float alpha, float beta,
                              bool store_c = true, bool explicit_workspace = false);

// Per-row top-2 of a host matrix, written out independently of the library: NaN after +inf, -0.0
// equal to +0.0 and reported as +0.0, any NaN reported as the canonical quiet NaN (0x7fc00000), ties to
// the lower column, missing entries {+inf, -1, -1}, `reserved` 0: what the library must write, byte
// for byte.
std::vector<Top2> reference_row_top2(const float* x, std::int64_t rows, std::int64_t cols, std::int64_t ld);

// Empty when got and want are equal in every byte (memcmp), else the first differing rows.
std::string row_top2_bytes_diff(const std::vector<Top2>& got, const std::vector<Top2>& want);

// Empty when equal (values as numbers: -0.0 == +0.0, NaN == NaN; positions exactly), else a description.
std::string top2_diff(const Top2& got, const Top2& want);
std::string to_string(const Top2& t);

}  // namespace gpuprims::test
