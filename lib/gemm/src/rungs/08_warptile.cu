// Instantiates rung 08_warptile and registers it for dispatch.
#include "gemm/src/kernels/08_warptile.cuh"
#include "gemm/src/rungs/rungs.hpp"

namespace gpuprims::detail {
const RungEntry kWarptileRung{"warptile", &launch_warptile<WarptileRungConfig>, WarptileRungConfig::BM, WarptileRungConfig::BN};
}  // namespace gpuprims::detail
