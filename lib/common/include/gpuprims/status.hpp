#pragma once
// Status: what every libgpuprims entry point returns. Nothing in the library throws across the API,
// prints or exits; a failure is a value.
#include <gpuprims/export.hpp>

namespace gpuprims {

//! The outcome of a call. Bad arguments are reported before anything is launched or enqueued.
enum class Status {
  success,              //!< the work is enqueued on the stream (or there was none)
  invalid_argument,     //!< null pointer, negative size, ld too small, unknown algorithm, workspace too small
  misaligned_pointer,   //!< a float pointer not aligned to 4 bytes
  unsupported,          //!< a valid request this build or device cannot serve (e.g. no CUDA device)
  cuda_error,           //!< a CUDA runtime call or launch failed
  communication_error,  //!< an NCCL call failed (gpuprims::dist only; the core library never returns it)
};

//! "success", "invalid_argument", ...; "unknown" for a value outside the enum.
GPUPRIMS_API const char* to_string(Status status) noexcept;

}  // namespace gpuprims
