#pragma once
// Grid-level top-2 by atomics on packed (order key, 32-bit index) words, for outputs with fewer than
// 2^32 entries: the fused GEMM epilogue's grid merge. Two global words hold the grid's pair (the
// algebra is top2_second_candidate in top2_order.hpp); warps push their partial pairs with two 64-bit
// atomicMin. The public Top2 is written after the grid by one of two ends:
// - a grid of more than one wave (epilogue_in_one_wave, gemm/src/plan.hpp, compares it with the
//   kernel's occupancy), or a split-K reduction of a few blocks (epilogue_ends_in_dependent there,
//   the kernel launched as its programmatic dependent): a one-thread kernel after the grid. Here a block
//   waits for nothing, and once the first blocks have pushed, `second` bounds every later entry, so
//   most warps find no candidate and push nothing. A ticket per block (last-block-done) would sit on
//   every block's critical path, and with short k a GEMM has tens of thousands of small blocks.
// - a grid that is (about) one wave: its blocks merge their warps' pairs first, push once, and take a
//   ticket; the last block writes the result. Every block then runs at once, so the tickets overlap,
//   and the call saves a launch (about 3 us, a tenth of a small split-K GEMM). Its blocks mostly start
//   before any bound exists, so the block merge also saves eight of every nine pushes.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include <gpuprims/status.hpp>
#include <gpuprims/top2.hpp>

#include "common/device/top2_order.hpp"
#if defined(__CUDACC__)
#include "common/device/block_reduce.cuh"
#include "common/device/warp_reduce.cuh"
#endif

namespace gpuprims::detail {

//! The atomic grid merge as one object: its workspace, the host steps around the pushing kernel
//! (begin, end) and the arguments that kernel receives. The kernel side is the functions below the
//! class (top2_atomic_bound, top2_atomic_push_warp, top2_atomic_finish).
class Top2AtomicMerge {
 public:
  //! What the kernel receives: words[0] = best, words[1] = second, both ~0 (empty) after begin();
  //! words[2] counts the blocks done, from ~0, so the first block's ticket is 0 (one memset sets all
  //! three). With `out` set the kernel's last block writes the result there (top2_atomic_finish).
  struct Args {
    unsigned long long* words;
    Top2* out;          //!< nullptr: end() writes the result after the kernel
    std::int64_t cols;  //!< turns linear indices back into (row, col)
  };

  //! The words of the workspace (best, second, blocks done).
  static constexpr int kWords = 3;
  //! Workspace bytes, whatever the grid.
  static constexpr std::size_t workspace_bytes() { return kWords * sizeof(unsigned long long); }

  //! Fills *args for the one kernel that pushes into the words in `workspace` (8-byte aligned,
  //! workspace_bytes() long) and, with `reset`, sets them to empty (~0), stream-ordered; without it the
  //! caller has a kernel before the pushing one set them (the split-K partials' kernel, gemm.cu).
  //! in_kernel: that kernel's grid is about one wave, and its last block writes the result to *d_out;
  //! otherwise end() does.
  static Status begin(void* workspace, Top2* d_out, std::int64_t cols, bool in_kernel, bool reset, cudaStream_t stream,
                      Args* args);

  //! After the pushing kernel: the pair as the public result in *d_out, unless that kernel wrote it.
  //! as_dependent: by a kernel launched as that kernel's programmatic dependent (the device must have
  //! dependent launch, and the pushing kernel must be the stream's last), so its launch overlaps the
  //! pushing grid's end; it waits for that grid to complete before it reads the words.
  static Status end(const Args& args, Top2* d_out, bool as_dependent, cudaStream_t stream);
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

//! One thread's push of a merged pair into the grid's words (nothing for an empty pair).
__device__ __forceinline__ void top2_atomic_push(PackedTop2 pair, const Top2AtomicMerge::Args& args) {
  if (pair.w0 == ~std::uint64_t{0}) return;
  const unsigned long long old = atomicMin(args.words, static_cast<unsigned long long>(pair.w0));
  atomicMin(args.words + 1, static_cast<unsigned long long>(top2_second_candidate(old, pair.w0, pair.w1)));
}

//! One packed word as a public entry (~0: missing). Row and column come from 32-bit arithmetic:
//! the words serve outputs under 2^32 entries, so the index and cols fit, and a 64-bit division is a
//! long routine on the last block's path (on an H200 the 32-bit form took 0.09-0.16 us off the split
//! reduction's top-2, run JF in results/nvidia-h200/README.md).
__device__ __forceinline__ MinEntry top2_packed_entry(std::uint64_t word, std::uint32_t cols) {
  if (word == ~std::uint64_t{0}) return to_min_entry(0xffffffffu, kNoIndex, 1);
  const auto index = static_cast<std::uint32_t>(word);
  const std::uint32_t row = index / cols;
  return MinEntry{value_from_key(static_cast<std::uint32_t>(word >> 32)), row, index - row * cols};
}

//! The grid's two words, once every push is in, as the public result (the end kernel or the last
//! block). The words in numeric order are the entries in the top-2's order (key, then index), as
//! PackedTop2::merge_into would insert them.
__device__ __forceinline__ void top2_atomic_write_result(PackedTop2 words, std::int64_t cols, Top2* out) {
  const std::uint64_t first = words.w0 < words.w1 ? words.w0 : words.w1;
  const std::uint64_t second = words.w0 < words.w1 ? words.w1 : words.w0;
  const auto c = static_cast<std::uint32_t>(cols);
  *out = Top2{top2_packed_entry(first, c), top2_packed_entry(second, c)};
}

//! Merges the warp's pairs and pushes the result. All 32 lanes must call it; a warp without any
//! entry pushes nothing.
__device__ __forceinline__ void top2_atomic_push_warp(PackedTop2 mine, const Top2AtomicMerge::Args& args) {
  const bool has_entry = mine.w0 != ~std::uint64_t{0};
  if (!__any_sync(kFullMask, has_entry)) return;
  const PackedTop2 warp_pair = warp_reduce(mine, PackedTop2Merge{});
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  if (lane == 0) top2_atomic_push(warp_pair, args);
}

//! Every thread of every block, once, after its last entry (kThreads: the block size). Without
//! args.out the warps push as they are; with it the block merges first, pushes once and takes a
//! ticket, and the last block turns the words into the public result.
template <int kThreads>
__device__ __forceinline__ void top2_atomic_finish(PackedTop2 mine, const Top2AtomicMerge::Args& args, int tid) {
  if (args.out == nullptr) {
    top2_atomic_push_warp(mine, args);
    return;
  }
  const PackedTop2 block_pair = block_reduce<kThreads>(mine, PackedTop2Merge{}, tid);
  if (tid != 0) return;
  top2_atomic_push(block_pair, args);
  // The ticket is a release, for this thread's pushes and, through block_reduce's barrier, every
  // earlier push of the block's warps (a persistent kernel's per-tile ones); and an acquire, so the
  // last block sees every block's pushes: one acq_rel atomic in place of a relaxed one between two
  // full fences (__threadfence, fence.sc).
  unsigned long long ticket;
  asm volatile("atom.acq_rel.gpu.global.add.u64 %0, [%1], 1;" : "=l"(ticket) : "l"(args.words + 2) : "memory");
  const unsigned long long blocks = static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z;
  if (ticket + 1ull != blocks - 1) return;  // the word starts at ~0: the first block's ticket is 0
  top2_atomic_write_result(PackedTop2{__ldcg(args.words), __ldcg(args.words + 1)}, args.cols, args.out);
}
#endif

}  // namespace gpuprims::detail
