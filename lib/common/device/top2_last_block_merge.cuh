#pragma once
// Grid-level top-2 for any number of entries: every block reduces its threads' partial results (warp
// shuffles, then shared memory), writes one partial, and the last block to finish merges all of them
// ("last block done"). The merge is exact and order independent, so the answer never depends on
// scheduling. reduce::top2_argmin uses it, and the GEMM's fused epilogue for outputs of 2^32 entries
// or more (top2_atomic_merge.cuh covers the smaller ones). For that epilogue a finished block also
// publishes its pair's second key as a grid-wide bound (kPublishBound): a block's pair is two real
// entries, so the grid's second can only rank at or before it, and later blocks skip every entry
// above it - the packed merge's pruning, here without 128-bit atomics. The bound only prunes entries
// that cannot be in the result, so the result stays the same bits whatever the timing.
// Two ends, as the packed merge has (top2_atomic_merge.cuh): reduce's grids and GEMM grids of about
// one wave take a ticket per block and the last block merges every partial; a GEMM grid of many
// waves only writes its partials, and two short kernels merge them after the grid (end, in
// top2_merge.cu): there a ticket would hold every block's exit for a fence and an atomic's round
// trip, and the last block's threads would read hundreds of thousands of partials alone.
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
//! steps around the kernel (begin; end, which merges the partials unless the last block did) and the
//! arguments the kernel receives. The kernel side is top2_last_block_finish below the class.
class Top2LastBlockMerge {
 public:
  //! What a kernel receives.
  struct Args {
    Top2Partial* partials;  //!< one per block
    unsigned int* counter;  //!< zero before the launch; the last block resets it to zero
    //! The complement of the least second key a finished block published (kPublishBound), so that a
    //! larger word is a tighter bound and 0 means none yet: zero before the launch, reset by the last
    //! block.
    unsigned int* bound;
    std::int64_t* blocks;  //!< the grid's size, written by block 0 when end() merges (out == nullptr)
    Top2* out;             //!< device result; nullptr: end() merges the partials and writes it
    std::int64_t cols;     //!< turns linear indices back into (row, col)
  };

  //! Workspace for a grid of `blocks` blocks: the counter, the bound (at kBoundOffset), the grid's size
  //! (kBlocksOffset), then (at kPartialsOffset, 8-byte aligned) one partial per block.
  static constexpr std::size_t kBoundOffset = 4;
  static constexpr std::size_t kBlocksOffset = 8;
  static constexpr std::size_t kPartialsOffset = 16;
  GPUPRIMS_HD static std::size_t workspace_bytes(std::int64_t blocks) {
    return kPartialsOffset + static_cast<std::size_t>(blocks) * sizeof(Top2Partial);
  }

  //! Zeroes the counter and the bound in `workspace` (16-byte aligned, workspace_bytes(blocks) long),
  //! stream-ordered, and fills *args. in_kernel: the kernel's last block writes the result to *d_out;
  //! otherwise end() does.
  static Status begin(void* workspace, Top2* d_out, std::int64_t cols, cudaStream_t stream, Args* args,
                      bool in_kernel = true);

  //! After the kernel: the partials merged into *d_out, unless the last block wrote it.
  static Status end(const Args& args, Top2* d_out, cudaStream_t stream);
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

//! A relaxed read of the bound word (blocks raise it concurrently). Issued where it is called (asm
//! volatile), so a kernel can read it before its main loop and use it after.
__device__ __forceinline__ unsigned int top2_bound_word(const Top2LastBlockMerge::Args& args) {
  unsigned int w;
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(w) : "l"(args.bound));
  return w;
}
//! A bound word as a value: an entry whose value v is larger (v > bound) cannot enter the grid's
//! result (top2_may_enter). No bound yet (0, the complement of NaN's key) gives NaN: every entry may.
__device__ __forceinline__ float top2_bound_of_word(unsigned int word) { return value_from_key(~word); }

//! Publishes `second_key` (the second key of two real entries) as the grid's bound, if it is tighter.
__device__ __forceinline__ void top2_publish_bound(const Top2LastBlockMerge::Args& args, std::uint32_t second_key) {
  if (second_key != 0xffffffffu) atomicMax(args.bound, ~second_key);
}

//! The merge of partials[0..blocks) by the kThreads threads of one block, each thread's share (the
//! caller merges the block's). Eight partials in flight per thread: one block reads every partial,
//! so latency, not bandwidth, bounds this loop.
template <int kThreads>
__device__ __forceinline__ Top2Partial top2_merge_partials(const Top2Partial* partials, std::int64_t blocks, int tid) {
  constexpr int kInFlight = 8;
  Top2Partial acc = Top2Partial::empty();
  std::int64_t b = tid;
  for (; b + (kInFlight - 1) * kThreads < blocks; b += kInFlight * kThreads) {
    Top2Partial p[kInFlight];
#pragma unroll
    for (int u = 0; u < kInFlight; ++u) p[u] = load_partial_cg(&partials[b + u * kThreads]);
#pragma unroll
    for (int u = 0; u < kInFlight; ++u) acc = Top2Merge{}(acc, p[u]);
  }
  for (; b < blocks; b += kThreads) acc = Top2Merge{}(acc, load_partial_cg(&partials[b]));
  return acc;
}

//! Called by every thread of every block, once, at the end of the kernel. block_id is the block's
//! linear index and blocks the grid's size; kThreads the block size. kPublishBound: the block's pair
//! also goes into the grid's bound (see the file's comment). Without args.out the block writes its
//! partial and is done (end() merges).
template <int kThreads, bool kPublishBound = false>
__device__ void top2_last_block_finish(Top2Partial mine, const Top2LastBlockMerge::Args& args, int tid,
                                       std::int64_t block_id, std::int64_t blocks) {
  __shared__ bool is_last_block;
  const Top2Partial block_best = block_reduce<kThreads>(mine, Top2Merge{}, tid);
  if (args.out == nullptr) {
    if (tid != 0) return;
    if constexpr (kPublishBound) top2_publish_bound(args, block_best.k1);
    args.partials[block_id] = block_best;
    if (block_id == 0) *args.blocks = blocks;
    return;
  }
  if (tid == 0) {
    if constexpr (kPublishBound) top2_publish_bound(args, block_best.k1);
    args.partials[block_id] = block_best;
    __threadfence();  // publish the partial before taking a ticket
    const unsigned int ticket = atomicAdd(args.counter, 1u);
    is_last_block = (ticket == static_cast<unsigned int>(blocks - 1));
  }
  __syncthreads();
  if (!is_last_block) return;
  __threadfence();  // see every other block's partial
  Top2Partial acc = top2_merge_partials<kThreads>(args.partials, blocks, tid);
  acc = block_reduce<kThreads>(acc, Top2Merge{}, tid);
  if (tid == 0) {
    *args.out = to_top2(acc, args.cols);
    *args.counter = 0u;  // ready for the next launch on this workspace
    if constexpr (kPublishBound) *args.bound = 0u;
  }
}
#endif

}  // namespace gpuprims::detail
