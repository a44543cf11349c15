#pragma once
// Device-side helpers for inputs too large to make or check on the host (past 2^31 elements).
#include <cuda_runtime_api.h>

#include <cstdint>

#include "support/reference.hpp"

namespace gpuprims::test {

// p[i] = a value in [lo, hi) from a hash of (seed, i): random, reproducible, made on the GPU.
cudaError_t device_fill_uniform(float* p, std::int64_t n, std::uint64_t seed, float lo, float hi);
// The same values on the host, for references of sampled entries.
float host_uniform_value(std::uint64_t seed, std::int64_t i, float lo, float hi);
// Number of NaNs in p[0..n) (unwritten outputs stay NaN-poisoned).
cudaError_t device_count_nan(const float* p, std::int64_t n, std::int64_t* count);
// Sum and sum of |x| in double on the GPU: the reference for huge sums.
cudaError_t device_reference_sum(const float* p, std::int64_t n, SumReference* out);

}  // namespace gpuprims::test
