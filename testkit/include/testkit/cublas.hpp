#pragma once
// cuBLAS in row-major terms, the reference the tests and the benchmarks compare SGEMM against.
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <cstdint>

namespace gpuprims::testkit {

// Owns a cuBLAS handle in the math mode the caller names (CUBLAS_PEDANTIC_MATH: FP32 throughout, no
// TF32), issuing its work on `stream`. status() is CUBLAS_STATUS_SUCCESS when creating and setting
// it up worked; the handle is destroyed with the object.
class CublasHandle {
 public:
  CublasHandle(cublasMath_t math, cudaStream_t stream);
  ~CublasHandle();
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;

  cublasStatus_t status() const { return status_; }
  cublasHandle_t get() const { return handle_; }

 private:
  cublasHandle_t handle_ = nullptr;
  cublasStatus_t status_ = CUBLAS_STATUS_NOT_INITIALIZED;
};

// Row-major C = alpha * A * B + beta * C (A m x k, B k x n, C m x n; leading dimensions in elements)
// through column-major cuBLAS: C^T = B^T A^T, one cublasSgemm on the handle's stream, in the handle's
// math mode. CUBLAS_STATUS_INVALID_VALUE when a dimension or leading dimension does not fit in int.
cublasStatus_t sgemm_rowmajor(cublasHandle_t handle, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
                              const float* A, std::int64_t lda, const float* B, std::int64_t ldb, float beta, float* C,
                              std::int64_t ldc);

}  // namespace gpuprims::testkit
