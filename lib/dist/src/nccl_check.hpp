#pragma once
// NCCL failures as Status values, like common/src/cuda_check.hpp does for CUDA: every NCCL call of
// the dist component goes through GPUPRIMS_NCCL_TRY.
#include <nccl.h>

#include <gpuprims/status.hpp>

namespace gpuprims::dist::detail {

// Any NCCL failure is a communication_error, including ncclInvalidArgument and ncclInvalidUsage:
// the library checks its own arguments before calling NCCL, so NCCL rejecting a call means the
// communicator or the ranks disagree, not that the caller passed a bad value. ncclInProgress (a
// communicator made in non-blocking mode, which this library does not support) is one too.
inline Status status_from(ncclResult_t r) noexcept {
  return r == ncclSuccess ? Status::success : Status::communication_error;
}

}  // namespace gpuprims::dist::detail

#define GPUPRIMS_NCCL_TRY(expr)                                                                              \
  do {                                                                                                       \
    const ncclResult_t gpuprims_nccl_res_ = (expr);                                                          \
    if (gpuprims_nccl_res_ != ncclSuccess) return ::gpuprims::dist::detail::status_from(gpuprims_nccl_res_); \
  } while (0)
