#pragma once
// Grid-level top-2 by atomics on packed (order key, 32-bit index) words, for outputs with fewer than
// 2^32 entries: the fused GEMM epilogue's grid merge. Two global words hold the grid's pair (the
// algebra is top2_second_candidate in top2_order.hpp); warps push their partial pairs with two 64-bit
// atomicMin, and a one-thread kernel turns the words into the public Top2 after the grid.
//
// Why not last-block-done (top2_last_block_merge.cuh): that needs every block to publish a partial and
// wait for a ticket. With short k a GEMM has tens of thousands of small blocks, and the wait sat on
// every block's critical path. Here a block waits for nothing, and once the first blocks have pushed,
// `second` bounds every later entry, so most warps find no candidate and push nothing.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include <gpuprims/status.hpp>
#include <gpuprims/top2.hpp>

#include "common/device/top2_order.hpp"
#if defined(__CUDACC__)
#include "common/device/warp_reduce.cuh"
#endif

namespace gpuprims::detail {

//! The atomic grid merge as one object: its workspace, the host steps around the pushing kernels
//! (begin, end) and the arguments those kernels receive. The kernel side is the two functions below
//! the class (top2_atomic_bound, top2_atomic_push_warp).
class Top2AtomicMerge {
 public:
  //! What a kernel receives: words[0] = best, words[1] = second, both ~0 (empty) after begin().
  struct Args {
    unsigned long long* words;
  };

  //! Workspace bytes, whatever the grid: the two words.
  static constexpr std::size_t workspace_bytes() { return 2 * sizeof(unsigned long long); }

  //! Sets the words in `workspace` (8-byte aligned, workspace_bytes() long) to empty, stream-ordered,
  //! and fills *args for the kernels that push into them.
  static Status begin(void* workspace, cudaStream_t stream, Args* args);

  //! After every pushing kernel: the pair as the public result in *d_out; cols turns linear indices
  //! back into (row, col).
  static Status end(const Args& args, Top2* d_out, std::int64_t cols, cudaStream_t stream);
};

#if defined(__CUDACC__)
//! A relaxed read of `second` (other blocks update it concurrently), the word whose value bounds what
//! may still enter. Issued where it is called (asm volatile), so a kernel can read it early and let the
//! load's latency pass during its main loop, as long as nothing uses the word before then.
__device__ __forceinline__ unsigned long long top2_atomic_second(const Top2AtomicMerge::Args& args) {
  unsigned long long w;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(w) : "l"(args.words + 1));
  return w;
}
//! That bound as a value (top2_bound_of): waits for the read where it is called.
__device__ __forceinline__ float top2_atomic_bound(const Top2AtomicMerge::Args& args) {
  return top2_bound_of(top2_atomic_second(args));
}

//! Merges the warp's pairs and pushes the result. All 32 lanes must call it; a warp without any
//! entry pushes nothing.
__device__ __forceinline__ void top2_atomic_push_warp(PackedTop2 mine, const Top2AtomicMerge::Args& args) {
  const bool has_entry = mine.w0 != ~std::uint64_t{0};
  if (!__any_sync(kFullMask, has_entry)) return;
  const PackedTop2 warp_pair = warp_reduce(mine, PackedTop2Merge{});
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  if (lane == 0 && warp_pair.w0 != ~std::uint64_t{0}) {
    const unsigned long long old = atomicMin(args.words, static_cast<unsigned long long>(warp_pair.w0));
    atomicMin(args.words + 1, static_cast<unsigned long long>(top2_second_candidate(old, warp_pair.w0, warp_pair.w1)));
  }
}
#endif

}  // namespace gpuprims::detail
