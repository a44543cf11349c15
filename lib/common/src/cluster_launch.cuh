#pragma once
// The cudaLaunchKernelEx configuration of a cluster launch, for every module that launches thread
// block clusters (the GEMM's cluster split-K and tensor-core kernels, the single-pass sum). nvcc only.
#include <cuda_runtime_api.h>

#include <cstddef>

#include <gpuprims/device/dependent_launch.cuh>

namespace gpuprims::detail {

// A cudaLaunchKernelEx configuration of `grid` blocks in clusters of `cluster_blocks` consecutive
// blocks along x, with the attributes it points at kept beside it (so it is not copyable). dependent:
// also a programmatic dependent of the stream's previous kernel (dependent_launch.cuh; the kernel
// waits for that grid before it reads what it wrote).
struct ClusterLaunch {
  cudaLaunchAttribute attributes[2]{};
  cudaLaunchConfig_t config{};
  ClusterLaunch(dim3 grid, int threads, int smem_bytes, int cluster_blocks, cudaStream_t stream,
                bool dependent = false) {
    attributes[0].id = cudaLaunchAttributeClusterDimension;
    attributes[0].val.clusterDim.x = static_cast<unsigned>(cluster_blocks);
    attributes[0].val.clusterDim.y = 1;
    attributes[0].val.clusterDim.z = 1;
    attributes[1] = ::gpuprims::device::dependent_launch_attribute();
    config.gridDim = grid;
    config.blockDim = dim3(static_cast<unsigned>(threads));
    config.dynamicSmemBytes = static_cast<std::size_t>(smem_bytes);
    config.stream = stream;
    config.attrs = attributes;
    config.numAttrs = dependent ? 2 : 1;
  }
  ClusterLaunch(const ClusterLaunch&) = delete;
  ClusterLaunch& operator=(const ClusterLaunch&) = delete;
};

}  // namespace gpuprims::detail
