#pragma once
// Grid-level top-2: every block reduces its threads' partial results (warp shuffles, then shared
// memory), writes one partial, and the last block to finish merges all of them ("last block done").
// The merge is exact and order independent, so the answer never depends on scheduling. Shared by
// reduce::top2_argmin and the GEMM's fused epilogue.
#include <cstdint>

#include <gpuprims/top2.hpp>

#include "reduce/src/block/top2_op.hpp"
#if defined(__CUDACC__)
#include "reduce/src/block/block_reduce.cuh"
#endif

namespace gpuprims::detail {

struct Top2GridArgs {
  Top2Partial* partials;   // one per block
  unsigned int* counter;   // zero before the launch; the last block resets it to zero
  Top2* out;               // device result
  std::int64_t cols;       // to turn linear indices back into (row, col)
};

// Workspace layout for a grid of `blocks` blocks: the counter, then the partials (8-byte aligned).
GPUPRIMS_HD std::size_t top2_grid_workspace_bytes(std::int64_t blocks) {
  return 16 + static_cast<std::size_t>(blocks) * sizeof(Top2Partial);
}

inline Top2GridArgs top2_grid_args(void* workspace, Top2* out, std::int64_t cols) {
  auto* base = static_cast<unsigned char*>(workspace);
  return Top2GridArgs{reinterpret_cast<Top2Partial*>(base + 16), reinterpret_cast<unsigned int*>(base), out,
                      cols};
}

#if defined(__CUDACC__)
__device__ __forceinline__ Top2Partial load_partial_cg(const Top2Partial* p) {
  Top2Partial r;
  r.k0 = __ldcg(&p->k0);
  r.k1 = __ldcg(&p->k1);
  r.i0 = static_cast<std::int64_t>(__ldcg(reinterpret_cast<const long long*>(&p->i0)));
  r.i1 = static_cast<std::int64_t>(__ldcg(reinterpret_cast<const long long*>(&p->i1)));
  return r;
}

// Called by every thread of every block, once, at the end of the kernel. block_id is the block's
// linear index and blocks the grid's size.
template <int kThreads>
__device__ void top2_grid_finish(Top2Partial mine, const Top2GridArgs& args, int tid, std::int64_t block_id,
                                 std::int64_t blocks) {
  __shared__ bool is_last_block;
  const Top2Partial block_best = block_reduce<kThreads>(mine, Top2Merge{}, tid);
  if (tid == 0) {
    args.partials[block_id] = block_best;
    __threadfence();  // publish the partial before taking a ticket
    const unsigned int ticket = atomicAdd(args.counter, 1u);
    is_last_block = (ticket == static_cast<unsigned int>(blocks - 1));
  }
  __syncthreads();
  if (!is_last_block) return;
  __threadfence();  // see every other block's partial
  // Four partials in flight per thread: one block reads every partial, so latency, not bandwidth,
  // bounds this loop.
  Top2Partial acc = Top2Partial::empty();
  std::int64_t b = tid;
  for (; b + 3 * kThreads < blocks; b += 4 * kThreads) {
    Top2Partial p[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) p[u] = load_partial_cg(&args.partials[b + u * kThreads]);
#pragma unroll
    for (int u = 0; u < 4; ++u) acc = Top2Merge{}(acc, p[u]);
  }
  for (; b < blocks; b += kThreads) acc = Top2Merge{}(acc, load_partial_cg(&args.partials[b]));
  acc = block_reduce<kThreads>(acc, Top2Merge{}, tid);
  if (tid == 0) {
    *args.out = to_top2(acc, args.cols);
    *args.counter = 0u;  // ready for the next launch on this workspace
  }
}
#endif

}  // namespace gpuprims::detail
