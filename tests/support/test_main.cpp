// Shared main for every test binary: decides which devices the process sees (a CPU test binary none,
// a GPU test binary the GPU ctest assigned it, if any), sizes RapidCheck runs for the sanitizer,
// prints the random seed and the device, and turns "a test skipped while a GPU is present" (two GPUs
// for a multigpu binary) into a failure. GPUPRIMS_TEST_BINARY_NEEDS_GPU (0 or 1) and
// GPUPRIMS_TEST_BINARY_MIN_GPUS (0, 1 or 2) come from tests/CMakeLists.txt, per binary.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "support/gpu.hpp"
#include "support/random.hpp"

#ifndef GPUPRIMS_TEST_BINARY_NEEDS_GPU
#error "tests/CMakeLists.txt defines GPUPRIMS_TEST_BINARY_NEEDS_GPU for every test binary"
#endif
// Devices a binary's tests need (2 for a multigpu binary); tests/CMakeLists.txt defines it too.
#ifndef GPUPRIMS_TEST_BINARY_MIN_GPUS
#define GPUPRIMS_TEST_BINARY_MIN_GPUS GPUPRIMS_TEST_BINARY_NEEDS_GPU
#endif

int main(int argc, char** argv) {
  // Before any CUDA call: the runtime reads CUDA_VISIBLE_DEVICES once, when it starts.
#if GPUPRIMS_TEST_BINARY_NEEDS_GPU
  const std::string binding = gpuprims::test::use_gpus_assigned_by_ctest(GPUPRIMS_TEST_BINARY_MIN_GPUS);
#else
  gpuprims::test::hide_gpus_from_cpu_tests();
  const std::string binding = "CPU tests: every device hidden (CUDA_VISIBLE_DEVICES=-1)";
#endif
  gpuprims::test::use_sanitizer_sized_rapidcheck_runs();
  ::testing::InitGoogleTest(&argc, argv);
  if (::testing::GTEST_FLAG(list_tests)) return RUN_ALL_TESTS();
  if (!binding.empty()) std::printf("[gpuprims] %s\n", binding.c_str());
  if (gpuprims::test::under_sanitizer())
    std::printf("[gpuprims] GPUPRIMS_SANITIZER=1: large cases shrunk for compute-sanitizer\n");
  std::printf("[gpuprims] seed %llu (set GPUPRIMS_TEST_SEED to repeat), device: %s\n",
              static_cast<unsigned long long>(gpuprims::test::base_seed()), gpuprims::test::gpu_name().c_str());
  const int rc = RUN_ALL_TESTS();
  const auto* unit = ::testing::UnitTest::GetInstance();
  // A skip is a failure where the binary's tests had what they need: a device (two for a multigpu
  // binary, whose tests skip on a one-GPU machine with their reason and do not fail it).
  const int needed = std::max(GPUPRIMS_TEST_BINARY_MIN_GPUS, 1);
  if (gpuprims::test::gpu_count() >= needed && unit->skipped_test_count() > 0) {
    std::printf("[gpuprims] FAIL: %d test(s) skipped although %d CUDA device(s) are present\n",
                unit->skipped_test_count(), gpuprims::test::gpu_count());
    return 1;
  }
  return rc;
}
