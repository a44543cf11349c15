// Instantiates the cluster split-K form (kernels/cluster_split_k.cuh) of the tuned tile configurations
// that have one in the registry (rungs/10_tuned_configs.cu): 64 x 128, 64 x 64 and 32 x 64. The large
// tiles fill the GPU with few splits or none, where the two-launch form's cost hardly shows.
#include "gemm/src/kernels/cluster_split_k.cuh"
#include "gemm/src/paths/cluster_split.hpp"
#include "gemm/src/tuning.hpp"

namespace gpuprims::detail {

template Status launch_cluster_split_k<TunedConfig4>(const GemmCall&);
template Status launch_cluster_split_k<TunedConfig5>(const GemmCall&);
template Status launch_cluster_split_k<TunedConfig6>(const GemmCall&);
template Status cluster_split_usable<TunedConfig4>(bool*);
template Status cluster_split_usable<TunedConfig5>(bool*);
template Status cluster_split_usable<TunedConfig6>(bool*);

}  // namespace gpuprims::detail
