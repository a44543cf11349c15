// Instantiates rung 09_double_buffered and registers it for dispatch.
#include "gemm/src/kernels/09_double_buffered.cuh"
#include "gemm/src/rungs/rungs.hpp"

namespace gpuprims::detail {
const RungEntry kDoubleBufferedRung{"double_buffered", &launch_double_buffered<DoubleBufferedRungConfig>, DoubleBufferedRungConfig::BM, DoubleBufferedRungConfig::BN};
}  // namespace gpuprims::detail
