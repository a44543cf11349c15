// Instantiates rung 05_blocktile_2d and registers it for dispatch.
#include "gemm/src/kernels/05_blocktile_2d.cuh"
#include "gemm/src/rungs/rungs.hpp"

namespace gpuprims::detail {
const RungEntry kBlockTile2DRung{"blocktile_2d", &launch_blocktile_2d, BlockTile2DConfig::BM, BlockTile2DConfig::BN};
}  // namespace gpuprims::detail
