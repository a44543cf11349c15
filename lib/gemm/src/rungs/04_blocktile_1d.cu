// Instantiates rung 04_blocktile_1d and registers it for dispatch.
#include "gemm/src/kernels/04_blocktile_1d.cuh"
#include "gemm/src/rungs/rungs.hpp"

namespace gpuprims::detail {
const RungEntry kBlockTile1DRung{"blocktile_1d", &launch_blocktile_1d, BlockTile1DConfig::BM, BlockTile1DConfig::BN};
}  // namespace gpuprims::detail
