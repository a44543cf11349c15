#include "testkit/cublas.hpp"

#include <climits>
#include <initializer_list>

namespace gpuprims::testkit {

CublasHandle::CublasHandle(cublasMath_t math, cudaStream_t stream) {
  status_ = cublasCreate(&handle_);
  if (status_ != CUBLAS_STATUS_SUCCESS) {
    handle_ = nullptr;
    return;
  }
  status_ = cublasSetMathMode(handle_, math);
  if (status_ == CUBLAS_STATUS_SUCCESS) status_ = cublasSetStream(handle_, stream);
}

CublasHandle::~CublasHandle() {
  if (handle_ != nullptr) (void)cublasDestroy(handle_);
}

cublasStatus_t sgemm_rowmajor(cublasHandle_t handle, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
                              const float* A, std::int64_t lda, const float* B, std::int64_t ldb, float beta, float* C,
                              std::int64_t ldc) {
  for (std::int64_t v : {m, n, k, lda, ldb, ldc})
    if (v < 0 || v > INT_MAX) return CUBLAS_STATUS_INVALID_VALUE;
  return cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(n), static_cast<int>(m), static_cast<int>(k),
                     &alpha, B, static_cast<int>(ldb), A, static_cast<int>(lda), &beta, C, static_cast<int>(ldc));
}

}  // namespace gpuprims::testkit
