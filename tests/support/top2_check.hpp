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
Top2Run run_sgemm_top2(const GemmLayout& l, const GemmInputs& in, gemm::Algorithm algo, float alpha, float beta,
                       bool store_c = true);

// reduce::top2_argmin over a host matrix uploaded with the given offset.
Top2Run run_reduce_top2(const std::vector<float>& x, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                        int offset = 0);

// Empty when equal (values as numbers: -0.0 == +0.0, NaN == NaN; positions exactly), else a description.
std::string top2_diff(const Top2& got, const Top2& want);
std::string to_string(const Top2& t);

}  // namespace gpuprims::test
