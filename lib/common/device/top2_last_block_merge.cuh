#pragma once
// Grid-level top-2 for any number of entries: every block reduces its threads' partial results (warp
// shuffles, then shared memory), writes one partial, and the last block to finish merges all of them
// ("last block done"). The merge is exact and order independent, so the answer never depends on
// scheduling. reduce::top2_argmin uses it, and the GEMM's fused epilogue for outputs of 2^32 entries
// or more (top2_atomic_merge.cuh covers the smaller ones).
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include <gpuprims/status.hpp>
#include <gpuprims/top2.hpp>

#include "common/device/top2_order.hpp"
#if defined(__CUDACC__)
#include "common/device/block_reduce.cuh"
#endif

namespace gpuprims::detail {

//! The last-block-done merge as one object: its workspace for a grid of `blocks` blocks, the host
//! step before the kernel (begin; the last block writes the result itself, so there is no end) and
//! the arguments the kernel receives. The kernel side is top2_last_block_finish below the class.
class Top2LastBlockMerge {
 public:
  //! What a kernel receives.
  struct Args {
    Top2Partial* partials;  //!< one per block
    unsigned int* counter;  //!< zero before the launch; the last block resets it to zero
    Top2* out;              //!< device result
    std::int64_t cols;      //!< turns linear indices back into (row, col)
  };

  //! Workspace for a grid of `blocks` blocks: the counter, then (at kPartialsOffset, 8-byte aligned)
  //! one partial per block.
  static constexpr std::size_t kPartialsOffset = 16;
  GPUPRIMS_HD static std::size_t workspace_bytes(std::int64_t blocks) {
    return kPartialsOffset + static_cast<std::size_t>(blocks) * sizeof(Top2Partial);
  }

  //! Zeroes the counter in `workspace` (16-byte aligned, workspace_bytes(blocks) long), stream-ordered,
  //! and fills *args: the kernel's last block writes the result to *d_out.
  static Status begin(void* workspace, Top2* d_out, std::int64_t cols, cudaStream_t stream, Args* args);
};

#if defined(__CUDACC__)
__device__ __forceinline__ Top2Partial load_partial_cg(const Top2Partial* p) {
  Top2Partial r;
  r.k0 = __ldcg(&p->k0);
  r.k1 = __ldcg(&p->k1);
  r.i0 = static_cast<std::int64_t>(__ldcg(reinterpret_cast<const long long*>(&p->i0)));
  r.i1 = static_cast<std::int64_t>(__ldcg(reinterpret_cast<const long long*>(&p->i1)));
  return r;
}

//! Called by every thread of every block, once, at the end of the kernel. block_id is the block's
//! linear index and blocks the grid's size; kThreads the block size.
template <int kThreads>
__device__ void top2_last_block_finish(Top2Partial mine, const Top2LastBlockMerge::Args& args, int tid,
                                       std::int64_t block_id, std::int64_t blocks) {
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
