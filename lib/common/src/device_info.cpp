#include "common/src/device_info.hpp"

#include <cuda_runtime_api.h>

#include <gpuprims/device/launch_features.hpp>

#include <array>
#include <mutex>

#include "common/src/cuda_check.hpp"

namespace gpuprims::detail {
namespace {

constexpr int kMaxDevices = 64;

struct Cache {
  std::mutex mutex;
  std::array<bool, kMaxDevices> filled{};
  std::array<DeviceInfo, kMaxDevices> info{};
};

Cache& cache() {
  static Cache c;
  return c;
}

Status query(int device, DeviceInfo* info) {
  info->ordinal = device;
  GPUPRIMS_CUDA_TRY(cudaDeviceGetAttribute(&info->sm_count, cudaDevAttrMultiProcessorCount, device));
  GPUPRIMS_CUDA_TRY(cudaDeviceGetAttribute(&info->cc_major, cudaDevAttrComputeCapabilityMajor, device));
  GPUPRIMS_CUDA_TRY(cudaDeviceGetAttribute(&info->cc_minor, cudaDevAttrComputeCapabilityMinor, device));
  info->dependent_launch = ::gpuprims::device::has_dependent_launch(info->cc_major);
  info->clusters = ::gpuprims::device::has_clusters(info->cc_major);
  return Status::success;
}

}  // namespace

Status current_device_info(const DeviceInfo** out) noexcept {
  int device = 0;
  // With no driver or no device, cudaGetDevice fails; that is "unsupported", not an error.
  const cudaError_t err = cudaGetDevice(&device);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();  // do not leave a sticky-looking error for the caller's next check
    const Status st = status_from(err);
    return st == Status::cuda_error ? Status::unsupported : st;
  }
  if (device < 0 || device >= kMaxDevices) return Status::unsupported;
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  if (!c.filled[device]) {
    GPUPRIMS_TRY(query(device, &c.info[device]));
    c.filled[device] = true;
  }
  *out = &c.info[device];
  return Status::success;
}

Status require_device() noexcept {
  const DeviceInfo* info = nullptr;
  return current_device_info(&info);
}

}  // namespace gpuprims::detail
