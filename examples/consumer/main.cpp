// Uses libgpuprims through its installed package with a plain C++ compiler. On a machine with a GPU
// it sums a vector, multiplies two small matrices and finds the two smallest entries of the product,
// checking each against a host computation; without one it prints the Status it got and exits 0.
#include <cuda_runtime_api.h>

#include <gpuprims/gpuprims.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

namespace {

int report_no_device(gpuprims::Status st) {
  std::printf("consumer: linked libgpuprims %d.%d.%d; no usable CUDA device here, sgemm returned %s\n",
              GPUPRIMS_VERSION_MAJOR, GPUPRIMS_VERSION_MINOR, GPUPRIMS_VERSION_PATCH, gpuprims::to_string(st));
  return st == gpuprims::Status::unsupported ? 0 : 1;
}

}  // namespace

int main() {
  constexpr int m = 3, n = 4, k = 2;
  std::vector<float> a = {1, 2, 3, 4, 5, 6}, b = {1, 0, -1, 2, 0, 1, 1, -3};
  float *da = nullptr, *db = nullptr, *dc = nullptr, *dsum = nullptr;
  gpuprims::Top2* dtop2 = nullptr;
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    // No device or driver: the library says so with a Status before any launch, so these host
    // arrays are never touched (they only have to look like valid, aligned pointers).
    float placeholder[4];
    return report_no_device(gpuprims::gemm::sgemm(m, n, k, 1.0f, placeholder, k, placeholder, n, 0.0f, placeholder, n));
  }
  if (cudaMalloc(reinterpret_cast<void**>(&da), sizeof(float) * a.size()) != cudaSuccess) {
    std::printf("consumer: cudaMalloc failed on a present device: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 1;
  }
  cudaMalloc(reinterpret_cast<void**>(&db), sizeof(float) * b.size());
  cudaMalloc(reinterpret_cast<void**>(&dc), sizeof(float) * m * n);
  cudaMalloc(reinterpret_cast<void**>(&dsum), sizeof(float));
  cudaMalloc(reinterpret_cast<void**>(&dtop2), sizeof(gpuprims::Top2));
  cudaMemcpy(da, a.data(), sizeof(float) * a.size(), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), sizeof(float) * b.size(), cudaMemcpyHostToDevice);

  int failures = 0;
  auto expect = [&](bool ok, const char* what) {
    std::printf("consumer: %-44s %s\n", what, ok ? "ok" : "FAILED");
    failures += ok ? 0 : 1;
  };
  using gpuprims::Status;
  expect(gpuprims::reduce::sum(da, static_cast<std::int64_t>(a.size()), dsum) == Status::success, "reduce::sum");
  expect(gpuprims::gemm::sgemm_top2_argmin(m, n, k, 1.0f, da, k, db, n, 0.0f, dc, n, dtop2) == Status::success,
         "gemm::sgemm_top2_argmin");
  float sum = 0;
  gpuprims::Top2 top2{};
  std::vector<float> c(m * n);
  cudaMemcpy(&sum, dsum, sizeof sum, cudaMemcpyDeviceToHost);
  cudaMemcpy(&top2, dtop2, sizeof top2, cudaMemcpyDeviceToHost);
  cudaMemcpy(c.data(), dc, sizeof(float) * c.size(), cudaMemcpyDeviceToHost);
  expect(sum == 21.0f, "sum of 1..6 is 21");
  // The host product, and its two smallest entries (ties to the lower row-major index).
  std::vector<float> want(m * n);
  int first = 0, second = -1;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float v = 0;
      for (int p = 0; p < k; ++p) v += a[i * k + p] * b[p * n + j];
      want[i * n + j] = v;
    }
  for (int e = 1; e < m * n; ++e) {
    if (want[e] < want[first]) {
      second = first;
      first = e;
    } else if (second < 0 || want[e] < want[second]) {
      second = e;
    }
  }
  bool product_ok = true;
  for (int e = 0; e < m * n; ++e) product_ok = product_ok && std::fabs(c[e] - want[e]) < 1e-5f;
  expect(product_ok, "C = A B matches the host");
  expect(top2.first.value == want[first] && top2.first.row == first / n && top2.first.col == first % n &&
             top2.second.value == want[second] && top2.second.row == second / n && top2.second.col == second % n,
         "two smallest entries with their positions");
  expect(gpuprims::gemm::sgemm(m, n, k, 1.0f, da, k - 1, db, n, 0.0f, dc, n) == Status::invalid_argument,
         "bad leading dimension is a Status");
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  cudaFree(dsum);
  cudaFree(dtop2);
  return failures == 0 ? 0 : 1;
}
