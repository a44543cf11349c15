#pragma once
// Status: what every libgpuprims entry point returns. Nothing in the library throws across the API,
// prints or exits; a failure is a value.
#include <gpuprims/export.hpp>

namespace gpuprims {

enum class Status {
  success,
  invalid_argument,    // null pointer, negative size, ld too small, unknown algorithm, workspace too small
  misaligned_pointer,  // a float pointer not aligned to 4 bytes
  unsupported,         // a valid request this build or device cannot serve (e.g. no CUDA device)
  cuda_error,          // a CUDA runtime call or launch failed
  communication_error, // an NCCL call failed (gpuprims::dist only; the core library never returns it)
};

GPUPRIMS_API const char* to_string(Status status) noexcept;

}  // namespace gpuprims
