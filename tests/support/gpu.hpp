#pragma once
// One "GPU present" check for every GPU test. With no device a GPU test skips with a reason; with a
// device present, test_main.cpp fails the run if any test skipped, so a GPU run never passes by
// skipping.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <string>

namespace gpuprims::test {

bool gpu_present();
std::string gpu_name();
// Free device memory in bytes (0 without a device).
std::size_t gpu_free_bytes();
// Multiprocessors of the current device (1 without a device).
int sm_count();

}  // namespace gpuprims::test

#define GPUPRIMS_REQUIRE_GPU()                                                                  \
  do {                                                                                          \
    if (!::gpuprims::test::gpu_present())                                                       \
      GTEST_SKIP() << "no CUDA device on this machine: GPU test not run (run scripts/gpu-check.sh " \
                      "on a GPU host)";                                                         \
  } while (0)

#define CUDA_OK(expr)                                                                          \
  do {                                                                                         \
    const cudaError_t cuda_ok_err_ = (expr);                                                   \
    ASSERT_EQ(cuda_ok_err_, cudaSuccess) << #expr << ": " << cudaGetErrorString(cuda_ok_err_); \
  } while (0)

// Status comparison with readable failure output.
#define EXPECT_STATUS(expected, expr) EXPECT_STREQ(::gpuprims::to_string(expected), ::gpuprims::to_string(expr))
#define ASSERT_STATUS(expected, expr) ASSERT_STREQ(::gpuprims::to_string(expected), ::gpuprims::to_string(expr))
