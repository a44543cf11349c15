// Shared main for every test binary: prints the random seed and the device, and turns "a test skipped
// while a GPU is present" into a failure.
#include <gtest/gtest.h>

#include <cstdio>

#include "support/gpu.hpp"
#include "support/random.hpp"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (::testing::GTEST_FLAG(list_tests)) return RUN_ALL_TESTS();
  std::printf("[gpuprims] seed %llu (set GPUPRIMS_TEST_SEED to repeat), device: %s\n",
              static_cast<unsigned long long>(gpuprims::test::base_seed()), gpuprims::test::gpu_name().c_str());
  const int rc = RUN_ALL_TESTS();
  const auto* unit = ::testing::UnitTest::GetInstance();
  if (gpuprims::test::gpu_present() && unit->skipped_test_count() > 0) {
    std::printf("[gpuprims] FAIL: %d test(s) skipped although a CUDA device is present\n",
                unit->skipped_test_count());
    return 1;
  }
  return rc;
}
