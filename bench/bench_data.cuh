#pragma once
// Random benchmark inputs made on the GPU (never zeros: they can run faster than real data), and
// cuBLAS in row-major terms. Shared by the SGEMM and top-2 benchmarks.
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "harness.hpp"

namespace gpuprims::bench {

static __global__ void fill_uniform_kernel(float* p, std::int64_t n, std::uint64_t seed, float lo, float hi) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    std::uint64_t x = seed ^ (static_cast<std::uint64_t>(i) * 0x9e3779b97f4a7c15ull);
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    x ^= x >> 31;
    p[i] = lo + (hi - lo) * static_cast<float>(x >> 40) * (1.0f / 16777216.0f);
  }
}

inline void fill_uniform(float* p, std::int64_t n, std::uint64_t seed, float lo = -1.0f, float hi = 1.0f) {
  fill_uniform_kernel<<<2048, 256>>>(p, n, seed, lo, hi);
  check(cudaGetLastError(), "fill_uniform");
}

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
