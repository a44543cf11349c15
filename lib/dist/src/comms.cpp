// Communicators for the GPUs of this process (ncclCommInitAll), for one thread driving them all or
// a thread per GPU. Multi-process jobs make theirs with ncclCommInitRank; the calls do not care.
#include <gpuprims/dist.hpp>

#include <vector>

#include "common/src/cuda_check.hpp"
#include "dist/src/nccl_check.hpp"
#include "dist/src/workspace.hpp"

namespace gpuprims::dist {

Status make_local_comms(ncclComm_t* comms, int count, const int* devices) noexcept {
  if (comms == nullptr || count < 1) return Status::invalid_argument;
  if (devices != nullptr)
    for (int i = 0; i < count; ++i) {
      if (devices[i] < 0) return Status::invalid_argument;
      for (int j = 0; j < i; ++j)
        if (devices[j] == devices[i]) return Status::invalid_argument;
    }
  for (int i = 0; i < count; ++i) comms[i] = nullptr;
  int visible = 0;
  GPUPRIMS_CUDA_TRY(cudaGetDeviceCount(&visible));
  for (int i = 0; i < count; ++i)
    if ((devices != nullptr ? devices[i] : i) >= visible) return Status::unsupported;
  return detail::no_throw([&] {
    std::vector<int> list(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) list[static_cast<std::size_t>(i)] = devices != nullptr ? devices[i] : i;
    const ncclResult_t r = ncclCommInitAll(comms, count, list.data());
    if (r != ncclSuccess)
      for (int i = 0; i < count; ++i) comms[i] = nullptr;
    return detail::status_from(r);
  });
}

Status destroy_local_comms(ncclComm_t* comms, int count) noexcept {
  if (comms == nullptr || count < 0) return Status::invalid_argument;
  Status st = Status::success;
  for (int i = 0; i < count; ++i) {
    if (comms[i] == nullptr) continue;
    const ncclResult_t r = ncclCommDestroy(comms[i]);
    if (r != ncclSuccess && st == Status::success) st = detail::status_from(r);
    comms[i] = nullptr;
  }
  return st;
}

}  // namespace gpuprims::dist
