#pragma once
// One "GPU present" check for every GPU test. With no device a GPU test skips with a reason; with a
// device present, test_main.cpp fails the run if any test skipped, so a GPU run never passes by
// skipping. Also: the sanitizer-size switch, and which devices a test process sees.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace gpuprims::test {

bool gpu_present();
// CUDA devices this process sees (0 without a device or driver).
int gpu_count();
std::string gpu_name();
// Free device memory in bytes (0 without a device).
std::size_t gpu_free_bytes();
// Multiprocessors of the current device (1 without a device).
int sm_count();

// True when the environment has GPUPRIMS_SANITIZER=1: the process runs under compute-sanitizer
// (scripts/gpu-check.sh --stages sanitize sets it), which slows kernels 10-1000x. Tests then shrink
// their large cases (past 2^31 elements, big GEMMs, long loops) so the whole suite still runs under
// every tool, each test at a size the tool gets through; small cases stay as they are.
bool under_sanitizer();
// `full` normally, `small` under the sanitizer.
template <class T>
T sized_for_sanitizer(T full, T small) {
  return under_sanitizer() ? small : full;
}
// A number of items (a reduction's n): under the sanitizer, one past 2^18 becomes 2^18 plus its
// remainder mod 4096, which keeps its tails (mod 4, a warp, a block, a tile) and its two passes.
std::int64_t sanitizer_sized_count(std::int64_t n);
// A GEMM dimension: under the sanitizer, one past 300 becomes 128 plus its remainder mod 128, which
// keeps its partial tiles and several whole ones (4095 -> 255, 4097 -> 129, 1000 -> 232).
std::int64_t sanitizer_sized_dim(std::int64_t d);

// Called by test_main before anything touches CUDA, so they decide which devices the process sees.
// A GPU test binary under `ctest --resource-spec-file`: CUDA_VISIBLE_DEVICES becomes the GPU(s) ctest
// assigned to the test (CTEST_RESOURCE_GROUP_<i>_GPUS), so tests run concurrently on a multi-GPU
// runner spread over its GPUs. Without those variables nothing changes. ctest may give a multigpu
// test's two groups slots of the same GPU (it does whenever one GPU has the slots free): with fewer
// than `min_distinct` different GPUs assigned, the process keeps every GPU it sees instead, so a
// two-GPU test runs on two GPUs rather than skipping on a two-GPU runner. Returns what it did, for
// the log line ("" when nothing).
std::string use_gpus_assigned_by_ctest(int min_distinct = 1);
// A CPU test binary: CUDA_VISIBLE_DEVICES="" hides every device, so a `cpu` test never runs GPU work
// and checks the same no-device answers on a GPU runner as on a CPU-only one.
void hide_gpus_from_cpu_tests();
// Under the sanitizer, fewer RapidCheck cases per property (RC_PARAMS max_success, unless the caller
// set max_success itself).
void use_sanitizer_sized_rapidcheck_runs();

}  // namespace gpuprims::test

#define GPUPRIMS_REQUIRE_GPU()                                                                      \
  do {                                                                                              \
    if (!::gpuprims::test::gpu_present())                                                           \
      GTEST_SKIP() << "no CUDA device on this machine: GPU test not run (run scripts/gpu-check.sh " \
                      "on a GPU host)";                                                             \
  } while (0)

// A test that needs `count` devices (a multigpu test): skips with the reason when the process sees
// fewer. test_main fails a multigpu binary's skip only when the process sees two devices or more.
#define GPUPRIMS_REQUIRE_GPUS(count)                                                                              \
  do {                                                                                                            \
    if (::gpuprims::test::gpu_count() < (count))                                                                  \
      GTEST_SKIP() << "needs " << (count) << " CUDA devices, this process sees " << ::gpuprims::test::gpu_count() \
                   << ": multi-GPU test not run (run it on a "                                                    \
                      "machine with "                                                                             \
                   << (count) << " GPUs)";                                                                        \
  } while (0)

#define CUDA_OK(expr)                                                                          \
  do {                                                                                         \
    const cudaError_t cuda_ok_err_ = (expr);                                                   \
    ASSERT_EQ(cuda_ok_err_, cudaSuccess) << #expr << ": " << cudaGetErrorString(cuda_ok_err_); \
  } while (0)

// Status comparison with readable failure output.
#define EXPECT_STATUS(expected, expr) EXPECT_STREQ(::gpuprims::to_string(expected), ::gpuprims::to_string(expr))
#define ASSERT_STATUS(expected, expr) ASSERT_STREQ(::gpuprims::to_string(expected), ::gpuprims::to_string(expr))
