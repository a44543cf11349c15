// gpuprims::reduce typed entry points, part 1: the workspace query of every operator and the typed
// sums, instantiated for every reducible type. Non-float sums run the public device template with
// Sum<T>; float sums are the shuffle rung of the float ladder (reduce.cu), as reduce_typed.hpp says.
#include <gpuprims/reduce.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "reduce/src/typed_reduce_impl.cuh"

namespace gpuprims::reduce {

template <class T, if_reducible_t<T>>
std::size_t workspace_bytes(Operator op, std::int64_t n) noexcept {
  using detail::TypedPolicy;
  using ::gpuprims::device::reduce_workspace_bytes;
  switch (op) {
    case Operator::sum:
      if constexpr (std::is_same_v<T, float>) return workspace_bytes(n, Algorithm::shuffle);
      else return reduce_workspace_bytes<device::Sum<T>, TypedPolicy<device::Sum<T>>>(n);
    case Operator::min: return reduce_workspace_bytes<device::Min<T>, TypedPolicy<device::Min<T>>>(n);
    case Operator::max: return reduce_workspace_bytes<device::Max<T>, TypedPolicy<device::Max<T>>>(n);
    case Operator::argmin: return reduce_workspace_bytes<device::ArgMin<T>, TypedPolicy<device::ArgMin<T>>>(n);
    case Operator::argmax: return reduce_workspace_bytes<device::ArgMax<T>, TypedPolicy<device::ArgMax<T>>>(n);
  }
  return 0;
}

template <class T, if_reducible_t<T>>
Status sum(const T* d_in, std::int64_t n, sum_type_t<T>* d_out, void* d_workspace, std::size_t workspace_size,
           cudaStream_t stream) {
  if constexpr (std::is_same_v<T, float>)
    return sum(d_in, n, d_out, d_workspace, workspace_size, Algorithm::shuffle, stream);
  else return detail::run_typed<device::Sum<T>>(d_in, n, d_out, d_workspace, workspace_size, stream);
}

template <class T, if_reducible_t<T>>
Status sum(const T* d_in, std::int64_t n, sum_type_t<T>* d_out, cudaStream_t stream) {
  if constexpr (std::is_same_v<T, float>) return sum(d_in, n, d_out, Algorithm::shuffle, stream);
  else return detail::run_typed_scratch<device::Sum<T>>(d_in, n, d_out, stream);
}

#define GPUPRIMS_INSTANTIATE_SUM(T)                                                         \
  template GPUPRIMS_API std::size_t workspace_bytes<T, 0>(Operator, std::int64_t) noexcept; \
  GPUPRIMS_INSTANTIATE_TYPED(sum, T, sum_type_t<T>)

GPUPRIMS_INSTANTIATE_SUM(float)
GPUPRIMS_INSTANTIATE_SUM(double)
GPUPRIMS_INSTANTIATE_SUM(__half)
GPUPRIMS_INSTANTIATE_SUM(__nv_bfloat16)
GPUPRIMS_INSTANTIATE_SUM(std::int32_t)
GPUPRIMS_INSTANTIATE_SUM(std::uint32_t)
GPUPRIMS_INSTANTIATE_SUM(std::int64_t)

}  // namespace gpuprims::reduce
