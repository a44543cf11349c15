// Instantiates rung 01_naive and registers it for dispatch.
#include "gemm/src/kernels/01_naive.cuh"
#include "gemm/src/rungs/rungs.hpp"

namespace gpuprims::detail {
const RungEntry kNaiveRung{"naive", &launch_naive, SimpleTiling::kTile, SimpleTiling::kTile};
}  // namespace gpuprims::detail
