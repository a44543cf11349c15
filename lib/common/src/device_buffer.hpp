#pragma once
// RAII owner of device memory. Used where the library needs scratch it allocates itself (stream-
// ordered), and by the tests and benchmarks.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <utility>

#include <gpuprims/status.hpp>

#include "common/src/cuda_check.hpp"

namespace gpuprims::detail {

// Scratch from the stream-ordered allocator (the library's pool, scratch_pool.hpp), freed on the same
// stream when it goes out of scope.
class StreamScratch {
 public:
  explicit StreamScratch(cudaStream_t stream) : stream_(stream) {}
  StreamScratch(const StreamScratch&) = delete;
  StreamScratch& operator=(const StreamScratch&) = delete;
  ~StreamScratch() {
    if (ptr_ != nullptr) (void)cudaFreeAsync(ptr_, stream_);
  }
  // scratch_pool.cpp. Exported from the shared library for gpuprims::dist, whose allocating forms
  // take their scratch from the same pool; not part of the public API.
  GPUPRIMS_API Status allocate(std::size_t bytes);
  void* get() const { return ptr_; }

 private:
  cudaStream_t stream_;
  void* ptr_ = nullptr;
};

// Plain device allocation of count Ts (cudaMalloc), for tests and benchmarks.
template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) { (void)allocate(count); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept { swap(other); }
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    swap(other);
    return *this;
  }
  ~DeviceBuffer() { reset(); }

  Status allocate(std::size_t count) {
    reset();
    if (count == 0) return Status::success;
    void* p = nullptr;
    GPUPRIMS_CUDA_TRY(cudaMalloc(&p, count * sizeof(T)));
    ptr_ = static_cast<T*>(p);
    count_ = count;
    return Status::success;
  }
  void reset() {
    if (ptr_ != nullptr) (void)cudaFree(ptr_);
    ptr_ = nullptr;
    count_ = 0;
  }
  T* get() const { return ptr_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }
  explicit operator bool() const { return ptr_ != nullptr; }

 private:
  void swap(DeviceBuffer& other) noexcept {
    std::swap(ptr_, other.ptr_);
    std::swap(count_, other.count_);
  }
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace gpuprims::detail
