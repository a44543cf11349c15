#pragma once
//! \file
//! Which launch features a device has, by its compute capability: the one place the library's launch
//! rules read them from (host code, g++ or nvcc; the device side of dependent launch is
//! dependent_launch.cuh).

namespace gpuprims::device {

//! Programmatic dependent launch (a kernel scheduled before the previous one in its stream completes,
//! waiting for it with griddepcontrol.wait): compute capability 9.0 and up.
constexpr bool has_dependent_launch(int cc_major) noexcept { return cc_major >= 9; }

//! Thread block clusters (cudaLaunchAttributeClusterDimension): compute capability 9.0 and up.
constexpr bool has_clusters(int cc_major) noexcept { return cc_major >= 9; }

}  // namespace gpuprims::device
