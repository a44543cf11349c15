#include <gpuprims/status.hpp>

namespace gpuprims {

const char* to_string(Status status) noexcept {
  switch (status) {
    case Status::success: return "success";
    case Status::invalid_argument: return "invalid_argument";
    case Status::misaligned_pointer: return "misaligned_pointer";
    case Status::unsupported: return "unsupported";
    case Status::cuda_error: return "cuda_error";
    case Status::communication_error: return "communication_error";
  }
  return "unknown_status";
}

}  // namespace gpuprims
