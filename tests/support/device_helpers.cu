#include "support/device_helpers.hpp"

namespace gpuprims::test {
namespace {

__global__ void count_nan_kernel(const float* p, std::int64_t n, unsigned long long* count) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  unsigned long long local = 0;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    local += (p[i] != p[i]) ? 1ull : 0ull;
  if (local != 0) atomicAdd(count, local);
}

__global__ void double_sum_kernel(const float* p, std::int64_t n, double* out) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  double s = 0.0, a = 0.0;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    s += p[i];
    a += fabs(static_cast<double>(p[i]));
  }
  atomicAdd(&out[0], s);  // reference only: double atomics, order-dependent far below float error
  atomicAdd(&out[1], a);
}

constexpr int kThreads = 256;
constexpr int kBlocks = 2048;

}  // namespace

cudaError_t device_count_nan(const float* p, std::int64_t n, std::int64_t* count) {
  unsigned long long* d = nullptr;
  cudaError_t err = cudaMalloc(&d, sizeof *d);
  if (err != cudaSuccess) return err;
  unsigned long long h = 0;
  err = cudaMemset(d, 0, sizeof *d);
  if (err == cudaSuccess && n > 0) {
    count_nan_kernel<<<kBlocks, kThreads>>>(p, n, d);
    err = cudaGetLastError();
  }
  if (err == cudaSuccess) err = cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(d);
  *count = static_cast<std::int64_t>(h);
  return err;
}

cudaError_t device_reference_sum(const float* p, std::int64_t n, SumReference* out) {
  double* d = nullptr;
  cudaError_t err = cudaMalloc(&d, 2 * sizeof(double));
  if (err != cudaSuccess) return err;
  double h[2] = {0.0, 0.0};
  err = cudaMemset(d, 0, 2 * sizeof(double));
  if (err == cudaSuccess && n > 0) {
    double_sum_kernel<<<kBlocks, kThreads>>>(p, n, d);
    err = cudaGetLastError();
  }
  if (err == cudaSuccess) err = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(d);
  *out = SumReference{h[0], h[1]};
  return err;
}

}  // namespace gpuprims::test
