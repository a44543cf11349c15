// gpuprims::reduce typed entry points, part 3: argmin and argmax of every reducible type, the public
// device template with ArgMin<T> / ArgMax<T> ((key, index): exact, lowest index on ties, so the result
// does not depend on the grid). ArgResult<T> is built whole by finish(), every byte written.
#include <gpuprims/reduce.hpp>

#include <cstddef>
#include <cstdint>

#include "reduce/src/typed_reduce_impl.cuh"

namespace gpuprims::reduce {

template <class T, if_reducible_t<T>>
Status argmin(const T* d_in, std::int64_t n, ArgResult<T>* d_out, void* d_workspace, std::size_t workspace_size,
              cudaStream_t stream) {
  return detail::run_typed<device::ArgMin<T>>(d_in, n, d_out, d_workspace, workspace_size, stream);
}
template <class T, if_reducible_t<T>>
Status argmin(const T* d_in, std::int64_t n, ArgResult<T>* d_out, cudaStream_t stream) {
  return detail::run_typed_scratch<device::ArgMin<T>>(d_in, n, d_out, stream);
}
template <class T, if_reducible_t<T>>
Status argmax(const T* d_in, std::int64_t n, ArgResult<T>* d_out, void* d_workspace, std::size_t workspace_size,
              cudaStream_t stream) {
  return detail::run_typed<device::ArgMax<T>>(d_in, n, d_out, d_workspace, workspace_size, stream);
}
template <class T, if_reducible_t<T>>
Status argmax(const T* d_in, std::int64_t n, ArgResult<T>* d_out, cudaStream_t stream) {
  return detail::run_typed_scratch<device::ArgMax<T>>(d_in, n, d_out, stream);
}

#define GPUPRIMS_INSTANTIATE_ARG(T)                   \
  GPUPRIMS_INSTANTIATE_TYPED(argmin, T, ArgResult<T>) \
  GPUPRIMS_INSTANTIATE_TYPED(argmax, T, ArgResult<T>)

GPUPRIMS_INSTANTIATE_ARG(float)
GPUPRIMS_INSTANTIATE_ARG(double)
GPUPRIMS_INSTANTIATE_ARG(__half)
GPUPRIMS_INSTANTIATE_ARG(__nv_bfloat16)
GPUPRIMS_INSTANTIATE_ARG(std::int32_t)
GPUPRIMS_INSTANTIATE_ARG(std::uint32_t)
GPUPRIMS_INSTANTIATE_ARG(std::int64_t)

}  // namespace gpuprims::reduce
