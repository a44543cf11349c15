#include "support/guarded_array.hpp"

#include <cuda_runtime_api.h>

namespace gpuprims::test {

GuardedArray::GuardedArray(std::size_t count, int offset_floats, std::size_t guard_floats)
    : count_(count), guard_(guard_floats), offset_(static_cast<std::size_t>(offset_floats)) {
  // guard_ is a multiple of 64 floats, so data_ - offset_ is 256-byte aligned (cudaMalloc gives 256).
  guard_ = (guard_ + 63) / 64 * 64;
  void* p = nullptr;
  const std::size_t bytes = (guard_ + offset_ + count_ + guard_) * sizeof(float);
  if (cudaMalloc(&p, bytes) != cudaSuccess) {
    (void)cudaGetLastError();
    return;
  }
  base_ = static_cast<unsigned char*>(p);
  data_ = reinterpret_cast<float*>(base_) + guard_ + offset_;
  poison();
}

GuardedArray::~GuardedArray() {
  if (base_ != nullptr) (void)cudaFree(base_);
}

void GuardedArray::write_guards() {
  (void)cudaMemset(base_, kGuardByte, (guard_ + offset_) * sizeof(float));
  (void)cudaMemset(data_ + count_, kGuardByte, guard_ * sizeof(float));
}

void GuardedArray::poison() {
  if (base_ == nullptr) return;
  write_guards();
  (void)cudaMemset(data_, kPoisonByte, count_ * sizeof(float));
  (void)cudaDeviceSynchronize();
}

void GuardedArray::upload(const std::vector<float>& host) {
  if (base_ == nullptr) return;
  write_guards();
  (void)cudaMemcpy(data_, host.data(), count_ * sizeof(float), cudaMemcpyHostToDevice);
  (void)cudaDeviceSynchronize();
}

std::vector<float> GuardedArray::download() const {
  std::vector<float> host(count_);
  if (base_ != nullptr && count_ > 0)
    (void)cudaMemcpy(host.data(), data_, count_ * sizeof(float), cudaMemcpyDeviceToHost);
  return host;
}

std::string GuardedArray::guard_damage() const {
  if (base_ == nullptr) return "no allocation";
  const std::size_t front = (guard_ + offset_) * sizeof(float), back = guard_ * sizeof(float);
  std::vector<unsigned char> f(front), b(back);
  if (cudaMemcpy(f.data(), base_, front, cudaMemcpyDeviceToHost) != cudaSuccess ||
      cudaMemcpy(b.data(), data_ + count_, back, cudaMemcpyDeviceToHost) != cudaSuccess)
    return "could not read the guards back";
  for (std::size_t i = 0; i < front; ++i)
    if (f[i] != kGuardByte) return "front guard touched at byte " + std::to_string(i) + " of " + std::to_string(front);
  for (std::size_t i = 0; i < back; ++i)
    if (b[i] != kGuardByte) return "back guard touched at byte " + std::to_string(i) + " past the end";
  return {};
}

}  // namespace gpuprims::test
