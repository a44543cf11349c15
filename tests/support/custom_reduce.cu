// Custom operators through the public device template, as an nvcc user writes them: nothing of the
// library changes for them (see custom_reduce.hpp).
#include "support/custom_reduce.hpp"

#include <gpuprims/device/device_reduce.cuh>

namespace gpuprims::test {
namespace {

struct AbsMax {
  __host__ __device__ std::int32_t operator()(std::int32_t a, std::int32_t b) const {
    const std::int32_t x = a < 0 ? -a : a, y = b < 0 ? -b : b;
    return x < y ? y : x;
  }
};
using AbsMaxOp = device::BinaryOpReduce<std::int32_t, AbsMax>;

// Sum of squares in double (order-dependent: fixed by the template's grid) and an exact count.
struct SquaresOp {
  using Input = float;
  using Acc = SquaresAndNegatives;
  using Output = SquaresAndNegatives;
  __host__ __device__ Acc identity() const { return Acc{0.0, 0}; }
  __host__ __device__ Acc lift(float x, std::int64_t) const {
    return Acc{static_cast<double>(x) * static_cast<double>(x), x < 0.0f ? 1 : 0};
  }
  __host__ __device__ Acc combine(Acc a, Acc b) const {
    return Acc{a.sum_squares + b.sum_squares, a.negatives + b.negatives};
  }
  __host__ __device__ Output finish(Acc a) const { return a; }
};

}  // namespace

std::size_t custom_absmax_workspace_bytes(std::int64_t n) { return device::reduce_workspace_bytes<AbsMaxOp>(n); }

Status custom_absmax(const std::int32_t* d_in, std::int64_t n, std::int32_t init, std::int32_t* d_out,
                     void* d_workspace, std::size_t workspace_bytes, cudaStream_t stream) {
  return device::reduce(d_in, n, d_out, d_workspace, workspace_bytes, stream, device::make_reduce_op(AbsMax{}, init));
}

std::size_t custom_squares_workspace_bytes(std::int64_t n) { return device::reduce_workspace_bytes<SquaresOp>(n); }

Status custom_squares(const float* d_in, std::int64_t n, SquaresAndNegatives* d_out, void* d_workspace,
                      std::size_t workspace_bytes, cudaStream_t stream) {
  return device::reduce<SquaresOp>(d_in, n, d_out, d_workspace, workspace_bytes, stream);
}

}  // namespace gpuprims::test
