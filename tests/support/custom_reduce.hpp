#pragma once
// Two custom operators run through the public device template (gpuprims/device/device_reduce.cuh),
// compiled in custom_reduce.cu as an nvcc user would: a plain functor with an initial value
// (make_reduce_op, CUB's Reduce(op, init) style) and an operator of the reduce_ops.hpp shape written
// here. Host-callable from the .cpp tests.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include <gpuprims/status.hpp>

namespace gpuprims::test {

// max(init, max |x_i|) over int32 (a functor that is not one of the library's operators); inputs
// above INT32_MIN (whose magnitude int32 cannot hold).
std::size_t custom_absmax_workspace_bytes(std::int64_t n);
Status custom_absmax(const std::int32_t* d_in, std::int64_t n, std::int32_t init, std::int32_t* d_out,
                     void* d_workspace, std::size_t workspace_bytes, cudaStream_t stream = nullptr);

// {sum of x_i^2 in double, number of negative x_i} over float: a user operator with its own Acc.
struct SquaresAndNegatives {
  double sum_squares;
  std::int64_t negatives;
};
std::size_t custom_squares_workspace_bytes(std::int64_t n);
Status custom_squares(const float* d_in, std::int64_t n, SquaresAndNegatives* d_out, void* d_workspace,
                      std::size_t workspace_bytes, cudaStream_t stream = nullptr);

}  // namespace gpuprims::test
