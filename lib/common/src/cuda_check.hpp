#pragma once
// Turns CUDA runtime failures into Status values. Inside the library every CUDA call goes through
// GPUPRIMS_CUDA_TRY, and every launch is followed by GPUPRIMS_LAUNCH_CHECK.
#include <cuda_runtime_api.h>

#include <gpuprims/status.hpp>

namespace gpuprims::detail {

inline Status status_from(cudaError_t err) noexcept {
  switch (err) {
    case cudaSuccess: return Status::success;
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorNoKernelImageForDevice:
    case cudaErrorUnsupportedPtxVersion:
    case cudaErrorStubLibrary:
    case cudaErrorCallRequiresNewerDriver: return Status::unsupported;
    default: return Status::cuda_error;
  }
}

}  // namespace gpuprims::detail

#define GPUPRIMS_CUDA_TRY(expr)                                                              \
  do {                                                                                       \
    const cudaError_t gpuprims_err_ = (expr);                                                \
    if (gpuprims_err_ != cudaSuccess) return ::gpuprims::detail::status_from(gpuprims_err_); \
  } while (0)

// After a kernel launch: a bad configuration or a missing kernel image shows up here.
#define GPUPRIMS_LAUNCH_CHECK() GPUPRIMS_CUDA_TRY(cudaPeekAtLastError())

#define GPUPRIMS_TRY(expr)                                                \
  do {                                                                    \
    const ::gpuprims::Status gpuprims_st_ = (expr);                       \
    if (gpuprims_st_ != ::gpuprims::Status::success) return gpuprims_st_; \
  } while (0)
