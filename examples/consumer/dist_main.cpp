// Uses gpuprims::dist through the installed package (find_package(gpuprims COMPONENTS dist)) with a
// plain C++ compiler: the sharding arithmetic, an argument check, and on a machine with a GPU a sum
// over a one-rank communicator, checked against the host.
#include <cuda_runtime_api.h>

#include <gpuprims/dist.hpp>

#include <cstdio>
#include <vector>

int main() {
  namespace dist = gpuprims::dist;
  using gpuprims::Status;
  int failures = 0;
  auto expect = [&](bool ok, const char* what) {
    std::printf("consumer_dist: %-44s %s\n", what, ok ? "ok" : "FAILED");
    failures += ok ? 0 : 1;
  };
  dist::RowRange r;
  expect(dist::even_row_range(10, 4, 1, &r) == Status::success && r.begin == 3 && r.count == 3,
         "rank 1 of 4 holds rows [3, 6) of 10");
  expect(dist::sum(nullptr, nullptr, 0, nullptr) == Status::invalid_argument, "a null communicator is a Status");

  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("consumer_dist: no CUDA device here; the one-rank sum is not run\n");
    return failures == 0 ? 0 : 1;
  }
  ncclComm_t comm = nullptr;
  expect(dist::make_local_comms(&comm, 1) == Status::success, "make_local_comms on device 0");
  const std::vector<float> x = {1, 2, 3, 4, 5, 6};
  float *dx = nullptr, *dsum = nullptr;
  cudaMalloc(reinterpret_cast<void**>(&dx), sizeof(float) * x.size());
  cudaMalloc(reinterpret_cast<void**>(&dsum), sizeof(float));
  cudaMemcpy(dx, x.data(), sizeof(float) * x.size(), cudaMemcpyHostToDevice);
  expect(dist::sum(comm, dx, static_cast<std::int64_t>(x.size()), dsum) == Status::success, "dist::sum on one rank");
  float sum = 0;
  cudaMemcpy(&sum, dsum, sizeof sum, cudaMemcpyDeviceToHost);
  expect(sum == 21.0f, "sum of 1..6 is 21");
  cudaFree(dx);
  cudaFree(dsum);
  expect(dist::destroy_local_comms(&comm, 1) == Status::success, "destroy_local_comms");
  return failures == 0 ? 0 : 1;
}
