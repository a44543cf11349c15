#pragma once
// Device-side checks of data too large to check on the host (past 2^31 elements). Inputs that large
// are made on the device by testkit::fill_uniform (testkit/random.hpp).
#include <cuda_runtime_api.h>

#include <cstdint>

#include "support/reference.hpp"

namespace gpuprims::test {

// Number of NaNs in p[0..n) (unwritten outputs stay NaN-poisoned).
cudaError_t device_count_nan(const float* p, std::int64_t n, std::int64_t* count);
// Sum and sum of |x| in double on the GPU: the reference for huge sums.
cudaError_t device_reference_sum(const float* p, std::int64_t n, SumReference* out);

}  // namespace gpuprims::test
