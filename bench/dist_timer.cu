#include "dist_timer.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>

namespace gpuprims::bench {
namespace {

constexpr unsigned long long kGateTimeoutNs = 20ull * 1000 * 1000 * 1000;

__device__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Spins until the host opens the gate (gate[0] != 0). Gives up after 20 s and says so in gate[1]: if
// the host's enqueue of the timed run waited for the device, the gate would otherwise never open.
__global__ void gate_kernel(volatile int* gate) {
  const unsigned long long t0 = global_ns();
  while (gate[0] == 0) {
    if (global_ns() - t0 > kGateTimeoutNs) {
      gate[1] = 1;
      return;
    }
  }
}

}  // namespace

MultiTimer::MultiTimer(const std::vector<int>& devices, int l2_bytes) {
  flush_bytes_ = static_cast<std::size_t>(std::max(l2_bytes, 1 << 20)) * 2;
  int* gate = nullptr;
  BENCH_CUDA(
      cudaHostAlloc(reinterpret_cast<void**>(&gate), 2 * sizeof(int), cudaHostAllocMapped | cudaHostAllocPortable));
  gate[0] = gate[1] = 0;
  gate_ = gate;
  for (int device : devices) {
    Rank r;
    r.device = device;
    BENCH_CUDA(cudaSetDevice(device));
    BENCH_CUDA(cudaStreamCreateWithFlags(&r.stream, cudaStreamNonBlocking));
    BENCH_CUDA(cudaEventCreate(&r.start));
    BENCH_CUDA(cudaEventCreate(&r.stop));
    BENCH_CUDA(cudaMalloc(&r.flush, flush_bytes_));
    ranks_.push_back(r);
  }
  BENCH_CUDA(cudaSetDevice(devices.front()));
}

MultiTimer::~MultiTimer() {
  for (Rank& r : ranks_) {
    cudaSetDevice(r.device);
    cudaFree(r.flush);
    cudaEventDestroy(r.start);
    cudaEventDestroy(r.stop);
    cudaStreamDestroy(r.stream);
  }
  cudaFreeHost(const_cast<int*>(gate_));
}

void MultiTimer::sync(int used) {
  for (int i = 0; i < used; ++i) {
    BENCH_CUDA(cudaSetDevice(ranks_[static_cast<std::size_t>(i)].device));
    BENCH_CUDA(cudaStreamSynchronize(ranks_[static_cast<std::size_t>(i)].stream));
  }
  BENCH_CUDA(cudaSetDevice(ranks_.front().device));
}

void MultiTimer::arm(int used, bool flush_l2) {
  sync(used);
  gate_[0] = 0;
  gate_[1] = 0;
  std::atomic_thread_fence(std::memory_order_seq_cst);
  for (int i = 0; i < used; ++i) {
    Rank& r = ranks_[static_cast<std::size_t>(i)];
    BENCH_CUDA(cudaSetDevice(r.device));
    if (flush_l2) BENCH_CUDA(cudaMemsetAsync(r.flush, 0x5a, flush_bytes_, r.stream));
    int* gate_dev = nullptr;
    BENCH_CUDA(cudaHostGetDevicePointer(reinterpret_cast<void**>(&gate_dev), const_cast<int*>(gate_), 0));
    gate_kernel<<<1, 1, 0, r.stream>>>(gate_dev);
    BENCH_CUDA(cudaGetLastError());
    BENCH_CUDA(cudaEventRecord(r.start, r.stream));
  }
  BENCH_CUDA(cudaSetDevice(ranks_.front().device));
}

float MultiTimer::release_and_measure(int used) {
  for (int i = 0; i < used; ++i) {
    Rank& r = ranks_[static_cast<std::size_t>(i)];
    BENCH_CUDA(cudaSetDevice(r.device));
    BENCH_CUDA(cudaEventRecord(r.stop, r.stream));
  }
  std::atomic_thread_fence(std::memory_order_seq_cst);
  gate_[0] = 1;  // every gate opens within the time a store takes to reach the GPUs
  float worst = 0.0f;
  for (int i = 0; i < used; ++i) {
    Rank& r = ranks_[static_cast<std::size_t>(i)];
    BENCH_CUDA(cudaSetDevice(r.device));
    BENCH_CUDA(cudaEventSynchronize(r.stop));
    float ms = 0.0f;
    BENCH_CUDA(cudaEventElapsedTime(&ms, r.start, r.stop));
    worst = std::max(worst, ms);
  }
  BENCH_CUDA(cudaSetDevice(ranks_.front().device));
  if (gate_[1] != 0) {
    std::fprintf(stderr, "[bench] a start gate timed out: the timed run's enqueue waited for the device\n");
    std::exit(2);
  }
  return worst;
}

}  // namespace gpuprims::bench
