#pragma once
// The cluster split-K forms of the tuned rung's tile configurations (kernels/cluster_split_k.cuh),
// declared for the registry (rungs/10_tuned_configs.cu) and instantiated in paths/cluster_split.cu for
// the configurations that take splits: the small tiles, whose outputs leave SMs idle.
#include <gpuprims/status.hpp>

#include "gemm/src/detail/gemm_call.hpp"

namespace gpuprims::detail {

template <class Cfg>
Status launch_cluster_split_k(const GemmCall& c);
template <class Cfg>
Status cluster_split_usable(bool* usable);

}  // namespace gpuprims::detail
