// Instantiates rung 07_bank_conflict_free and registers it for dispatch.
#include "gemm/src/kernels/07_bank_conflict_free.cuh"
#include "gemm/src/rungs/rungs.hpp"

namespace gpuprims::detail {
const RungEntry kBankConflictFreeRung{"bank_conflict_free", &launch_bank_conflict_free, BlockTile2DConfig::BM, BlockTile2DConfig::BN};
}  // namespace gpuprims::detail
