#pragma once
// Grid-level top-2 by atomics on packed (order key, 32-bit index) words, for outputs with fewer than
// 2^32 entries: the fused GEMM epilogue's grid merge. Two global words hold the grid's pair (the
// algebra is top2_second_candidate in top2_op.hpp); warps push their partial pairs with two 64-bit
// atomicMin, and a one-thread kernel turns the words into the public Top2 after the grid.
//
// Why not last-block-done (top2_grid.cuh): that needs every block to publish a partial and wait for a
// ticket. With short k a GEMM has tens of thousands of small blocks, and the wait sat on every
// block's critical path. Here a block waits for nothing, and once the first blocks have pushed,
// `second` bounds every later entry, so most warps find no candidate and push nothing.
#include <cstddef>
#include <cstdint>

#include <gpuprims/top2.hpp>

#include "reduce/src/block/top2_op.hpp"
#if defined(__CUDACC__)
#include "reduce/src/block/warp_reduce.cuh"
#endif

namespace gpuprims::detail {

// words[0] = best, words[1] = second; both ~0 (empty) before the grid starts.
struct Top2AtomicArgs {
  unsigned long long* words;
};

inline constexpr std::size_t kTop2AtomicWorkspaceBytes = 2 * sizeof(unsigned long long);

#if defined(__CUDACC__)
// A relaxed read of `second` (other blocks update it concurrently): the bound below which entries
// may still enter. Issued where it is called (asm volatile), so a kernel can read it early and let the
// load's latency pass during its main loop.
__device__ __forceinline__ float top2_atomic_bound(const Top2AtomicArgs& args) {
  unsigned long long w;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(w) : "l"(args.words + 1));
  return top2_bound_of(w);
}

// Merges the warp's pairs and pushes the result. All 32 lanes must call it; a warp without any
// entry pushes nothing.
__device__ __forceinline__ void top2_atomic_push_warp(PackedTop2 mine, const Top2AtomicArgs& args) {
  const bool has_entry = mine.w0 != ~std::uint64_t{0};
  if (!__any_sync(kFullMask, has_entry)) return;
  const PackedTop2 warp_pair = warp_reduce(mine, PackedTop2Merge{});
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  if (lane == 0 && warp_pair.w0 != ~std::uint64_t{0}) {
    const unsigned long long old = atomicMin(args.words, static_cast<unsigned long long>(warp_pair.w0));
    atomicMin(args.words + 1,
              static_cast<unsigned long long>(top2_second_candidate(old, warp_pair.w0, warp_pair.w1)));
  }
}
#endif

}  // namespace gpuprims::detail
