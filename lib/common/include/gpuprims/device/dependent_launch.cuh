#pragma once
//! \file
//! Programmatic dependent launch (compute capability 9.0; nvcc only): a second kernel (the split-K
//! reduction after a GEMM's partial products, a reduction's pass over its block partials) is launched
//! so that its blocks may be scheduled while the kernel before it is still finishing, onto the
//! multiprocessors its last wave leaves idle, and wait there for that grid to complete. That hides the
//! launch gap between the two kernels (a few microseconds: as much as a GEMM on a small output, about
//! 0.4% of a reduction over 1 GiB). Elsewhere, and on older devices, both device calls are no-ops and
//! the launch is ordinary. Which devices have it: has_dependent_launch (launch_features.hpp).
#include <cuda_runtime_api.h>

#include <gpuprims/device/launch_features.hpp>

namespace gpuprims::device {

//! In the first kernel: its dependent may be scheduled once every block of this grid has got here.
__device__ __forceinline__ void allow_dependent_launch() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;");
#endif
}

//! In the dependent kernel, before it reads anything the first kernel wrote: waits until that grid has
//! completed and its memory operations are visible.
__device__ __forceinline__ void wait_for_prerequisite_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

//! The cudaLaunchKernelEx attribute that makes a launch a programmatic dependent of the previous
//! kernel in its stream (only for devices where has_dependent_launch holds).
inline cudaLaunchAttribute dependent_launch_attribute() {
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute.val.programmaticStreamSerializationAllowed = 1;
  return attribute;
}

//! Launches kernel<<<grid, block, 0, stream>>>(args...), as a programmatic dependent of the previous
//! kernel in the stream when `dependent` (callers pass has_dependent_launch of the device).
template <class... KernelArgs, class... Args>
cudaError_t launch_maybe_dependent(void (*kernel)(KernelArgs...), dim3 grid, dim3 block, cudaStream_t stream,
                                   bool dependent, Args&&... args) {
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = 0;
  config.stream = stream;
  cudaLaunchAttribute attribute[1] = {dependent_launch_attribute()};
  config.attrs = attribute;
  config.numAttrs = dependent ? 1 : 0;
  return cudaLaunchKernelEx(&config, kernel, static_cast<KernelArgs>(args)...);
}

}  // namespace gpuprims::device
