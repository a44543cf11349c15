#include "common/src/scratch_pool.hpp"

#include <array>
#include <cstdint>
#include <mutex>

#include "common/src/cuda_check.hpp"
#include "common/src/device_buffer.hpp"

namespace gpuprims::detail {
namespace {

constexpr int kMaxDevices = 64;

struct Pools {
  std::mutex mutex;
  std::array<bool, kMaxDevices> tried{};
  std::array<cudaMemPool_t, kMaxDevices> pool{};
};

Pools& pools() {
  static Pools p;
  return p;
}

// A pool of the device's own memory that keeps up to kScratchPoolKeepBytes between calls.
cudaMemPool_t make_pool(int device) {
  int supported = 0;
  if (cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, device) != cudaSuccess || !supported) {
    (void)cudaGetLastError();
    return nullptr;
  }
  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device;
  cudaMemPool_t pool = nullptr;
  if (cudaMemPoolCreate(&pool, &props) != cudaSuccess) {
    (void)cudaGetLastError();
    return nullptr;
  }
  std::uint64_t keep = kScratchPoolKeepBytes;
  if (cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep) != cudaSuccess) {
    (void)cudaGetLastError();
    (void)cudaMemPoolDestroy(pool);
    return nullptr;
  }
  return pool;
}

}  // namespace

cudaMemPool_t scratch_pool(int device) {
  if (device < 0 || device >= kMaxDevices) return nullptr;
  Pools& p = pools();
  std::lock_guard<std::mutex> lock(p.mutex);
  if (!p.tried[device]) {
    p.pool[device] = make_pool(device);
    p.tried[device] = true;
  }
  return p.pool[device];
}

Status StreamScratch::allocate(std::size_t bytes) {
  if (bytes == 0) return Status::success;
  int device = 0;
  GPUPRIMS_CUDA_TRY(cudaGetDevice(&device));
  if (cudaMemPool_t pool = scratch_pool(device)) {
    GPUPRIMS_CUDA_TRY(cudaMallocFromPoolAsync(&ptr_, bytes, pool, stream_));
  } else {
    GPUPRIMS_CUDA_TRY(cudaMallocAsync(&ptr_, bytes, stream_));
  }
  return Status::success;
}

}  // namespace gpuprims::detail
