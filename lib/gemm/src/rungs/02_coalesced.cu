// Instantiates rung 02_coalesced and registers it for dispatch.
#include "gemm/src/kernels/02_coalesced.cuh"
#include "gemm/src/rungs/rungs.hpp"

namespace gpuprims::detail {
const RungEntry kCoalescedRung{"coalesced", &launch_coalesced, SimpleTiling::kTile, SimpleTiling::kTile};
}  // namespace gpuprims::detail
