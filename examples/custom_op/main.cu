// A custom associative operator through libgpuprims's public device template, from a user's own .cu
// file: the largest |x| of a vector of ints (a plain functor with an initial value, as CUB's
// DeviceReduce::Reduce(op, init) takes them), and the typed argmax next to it for comparison. Nothing
// in the library changes for the operator. Without a device it says so and exits 0.
#include <cuda_runtime_api.h>

#include <gpuprims/device/device_reduce.cuh>
#include <gpuprims/reduce.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

// Associative and commutative, as the device template requires; inputs above INT32_MIN.
struct AbsMax {
  __host__ __device__ std::int32_t operator()(std::int32_t a, std::int32_t b) const {
    const std::int32_t x = a < 0 ? -a : a, y = b < 0 ? -b : b;
    return x < y ? y : x;
  }
};

}  // namespace

int main() {
  const std::int64_t n = 1000003;
  std::vector<std::int32_t> h(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    h[static_cast<std::size_t>(i)] = static_cast<std::int32_t>((i * 7919) % 20001) - 10000;
  h[123457] = -77777;  // the answer
  const auto op = gpuprims::device::make_reduce_op(AbsMax{}, std::int32_t{0});
  const std::size_t ws_bytes = gpuprims::device::reduce_workspace_bytes<decltype(op)>(n);

  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("custom_op: no usable CUDA device here (workspace for n = %lld: %zu bytes)\n",
                static_cast<long long>(n), ws_bytes);
    return EXIT_SUCCESS;
  }
  std::int32_t* d_in = nullptr;
  std::int32_t* d_out = nullptr;
  gpuprims::ArgResult<std::int32_t>* d_arg = nullptr;
  void* d_ws = nullptr;
  bool ok = cudaMalloc(&d_in, sizeof(std::int32_t) * h.size()) == cudaSuccess &&
            cudaMalloc(&d_out, sizeof(std::int32_t)) == cudaSuccess &&
            cudaMalloc(&d_arg, sizeof(*d_arg)) == cudaSuccess && cudaMalloc(&d_ws, ws_bytes + 1) == cudaSuccess &&
            cudaMemcpy(d_in, h.data(), sizeof(std::int32_t) * h.size(), cudaMemcpyHostToDevice) == cudaSuccess;
  std::int32_t absmax = 0;
  gpuprims::ArgResult<std::int32_t> arg{};
  if (ok) {
    const gpuprims::Status s1 = gpuprims::device::reduce(d_in, n, d_out, d_ws, ws_bytes, nullptr, op);
    const gpuprims::Status s2 = gpuprims::reduce::argmax(d_in, n, d_arg);
    ok = s1 == gpuprims::Status::success && s2 == gpuprims::Status::success &&
         cudaMemcpy(&absmax, d_out, sizeof absmax, cudaMemcpyDeviceToHost) == cudaSuccess &&
         cudaMemcpy(&arg, d_arg, sizeof arg, cudaMemcpyDeviceToHost) == cudaSuccess;
  }
  std::printf("custom_op: max |x| = %d (expected 77777); argmax = {%lld, %d} (expected {%d, 10000})\n", absmax,
              static_cast<long long>(arg.index), arg.value, 1720);  // the first i with (i * 7919) % 20001 == 20000
  ok = ok && absmax == 77777 && arg.index == 1720 && arg.value == 10000;
  (void)cudaFree(d_in);
  (void)cudaFree(d_out);
  (void)cudaFree(d_arg);
  (void)cudaFree(d_ws);
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
