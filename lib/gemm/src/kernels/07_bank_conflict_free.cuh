#pragma once
// Rung 7, bank-conflict-free: rung 6's kernel with the transposed A tile in the XOR-swizzled layout of
// detail/smem_layout.hpp. Rung 6's transposing store puts the two k groups a warp writes in the same
// banks (2-way conflicts on every store); the swizzle spreads them over all 32 banks and keeps the
// float4 reads of the compute loop contiguous (ncu: shared store bank conflicts go to zero).
#include "gemm/src/kernels/06_vectorized.cuh"

namespace gpuprims::detail {

inline Status launch_bank_conflict_free(const GemmCall& c) {
  return launch_vectorized<SwizzledATile<BlockTile2DConfig::BM, BlockTile2DConfig::BK>>(c);
}

}  // namespace gpuprims::detail
