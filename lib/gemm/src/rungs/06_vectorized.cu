// Instantiates rung 06_vectorized and registers it for dispatch.
#include "gemm/src/kernels/06_vectorized.cuh"
#include "gemm/src/rungs/rungs.hpp"

namespace gpuprims::detail {
const RungEntry kVectorizedRung{"vectorized", &launch_vectorized<PlainATile<BlockTile2DConfig::BM, BlockTile2DConfig::BK>>, BlockTile2DConfig::BM, BlockTile2DConfig::BN};
}  // namespace gpuprims::detail
