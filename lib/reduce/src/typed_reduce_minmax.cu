// gpuprims::reduce typed entry points, part 2: min and max of every reducible type, the public device
// template with Min<T> / Max<T> (order keys: exact, so the result does not depend on the grid).
#include <gpuprims/reduce.hpp>

#include <cstddef>
#include <cstdint>

#include "reduce/src/typed_reduce_impl.cuh"

namespace gpuprims::reduce {

template <class T, if_reducible_t<T>>
Status min(const T* d_in, std::int64_t n, T* d_out, void* d_workspace, std::size_t workspace_size,
           cudaStream_t stream) {
  return detail::run_typed<device::Min<T>>(d_in, n, d_out, d_workspace, workspace_size, stream);
}
template <class T, if_reducible_t<T>>
Status min(const T* d_in, std::int64_t n, T* d_out, cudaStream_t stream) {
  return detail::run_typed_scratch<device::Min<T>>(d_in, n, d_out, stream);
}
template <class T, if_reducible_t<T>>
Status max(const T* d_in, std::int64_t n, T* d_out, void* d_workspace, std::size_t workspace_size,
           cudaStream_t stream) {
  return detail::run_typed<device::Max<T>>(d_in, n, d_out, d_workspace, workspace_size, stream);
}
template <class T, if_reducible_t<T>>
Status max(const T* d_in, std::int64_t n, T* d_out, cudaStream_t stream) {
  return detail::run_typed_scratch<device::Max<T>>(d_in, n, d_out, stream);
}

#define GPUPRIMS_INSTANTIATE_MINMAX(T)  \
  GPUPRIMS_INSTANTIATE_TYPED(min, T, T) \
  GPUPRIMS_INSTANTIATE_TYPED(max, T, T)

GPUPRIMS_INSTANTIATE_MINMAX(float)
GPUPRIMS_INSTANTIATE_MINMAX(double)
GPUPRIMS_INSTANTIATE_MINMAX(__half)
GPUPRIMS_INSTANTIATE_MINMAX(__nv_bfloat16)
GPUPRIMS_INSTANTIATE_MINMAX(std::int32_t)
GPUPRIMS_INSTANTIATE_MINMAX(std::uint32_t)
GPUPRIMS_INSTANTIATE_MINMAX(std::int64_t)

}  // namespace gpuprims::reduce
