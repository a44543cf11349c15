// Instantiates rung 03_shared_tiled and registers it for dispatch.
#include "gemm/src/kernels/03_shared_tiled.cuh"
#include "gemm/src/rungs/rungs.hpp"

namespace gpuprims::detail {
const RungEntry kSharedTiledRung{"shared_tiled", &launch_shared_tiled, SimpleTiling::kTile, SimpleTiling::kTile};
}  // namespace gpuprims::detail
