#pragma once
// cuBLAS in row-major terms, shared by the SGEMM and top-2 benchmarks. Their random inputs come from
// testkit::fill_uniform (testkit/random.hpp; never zeros: they can run faster than real data).
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "harness.hpp"

namespace gpuprims::bench {

inline void check_cublas(cublasStatus_t s, const char* what) {
  if (s == CUBLAS_STATUS_SUCCESS) return;
  std::fprintf(stderr, "[bench] cuBLAS failure %d: %s\n", static_cast<int>(s), what);
  std::exit(2);
}

// A cuBLAS handle in FP32 pedantic mode (no TF32), on the given stream.
inline cublasHandle_t make_cublas(cudaStream_t stream) {
  cublasHandle_t h = nullptr;
  check_cublas(cublasCreate(&h), "cublasCreate");
  check_cublas(cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH), "cublasSetMathMode");
  check_cublas(cublasSetStream(h, stream), "cublasSetStream");
  return h;
}

// Row-major C = alpha A B + beta C through column-major cuBLAS (C^T = B^T A^T).
inline void cublas_sgemm_rowmajor(cublasHandle_t h, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
                                  const float* A, const float* B, float beta, float* C) {
  check_cublas(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(n), static_cast<int>(m), static_cast<int>(k),
                           &alpha, B, static_cast<int>(n), A, static_cast<int>(k), &beta, C, static_cast<int>(n)),
               "cublasSgemm");
}

}  // namespace gpuprims::bench
