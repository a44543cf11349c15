#pragma once
//! \file
//! Launch arithmetic of the device-wide reduction (device_reduce.cuh), apart from its kernels and
//! plain C++17, so host code and CPU tests can use it: the tuning policy, the split of an input into a
//! scalar head, a body of 16-byte vectors and a scalar tail, the vectors each thread takes (warp
//! chunks), the pass-1 grid, and the workspace.
#include <cstddef>
#include <cstdint>
#include <type_traits>

#if defined(__CUDACC__)
#define GPUPRIMS_PLAN_HD __host__ __device__ __forceinline__
#else
#define GPUPRIMS_PLAN_HD inline
#endif

namespace gpuprims::device {

//! The default tuning of the device-wide reduction. A policy is any type with these four members. It
//! may add `static constexpr int kAccumulators` (a power of two dividing kUnroll; absent: kUnroll),
//! the accumulators a thread's kUnroll loads go into, and `static constexpr int kMinBlocksPerSm`,
//! pass 1's __launch_bounds__ minimum of resident blocks (0 or absent: none), which decides the
//! register budget ptxas compiles for (reduce_accumulators and reduce_min_blocks_per_sm read them).
struct DeviceReducePolicy {
  static constexpr int kThreads = 256;               //!< threads per block, both passes (power of two)
  static constexpr int kUnroll = 4;                  //!< 16-byte loads in flight per thread (power of two)
  static constexpr std::int64_t kMaxBlocks = 2048;   //!< cap on pass-1 blocks (and partials)
  static constexpr std::size_t kPartialsAlign = 16;  //!< partials start at this boundary of the workspace
};

//! Policy::kAccumulators where the policy has one, else Policy::kUnroll.
template <class Policy, class = void>
inline constexpr int reduce_accumulators = Policy::kUnroll;
template <class Policy>
inline constexpr int reduce_accumulators<Policy, std::void_t<decltype(Policy::kAccumulators)>> = Policy::kAccumulators;

//! Policy::kMinBlocksPerSm where the policy has one, else 0 (no minimum).
template <class Policy, class = void>
inline constexpr int reduce_min_blocks_per_sm = 0;
template <class Policy>
inline constexpr int reduce_min_blocks_per_sm<Policy, std::void_t<decltype(Policy::kMinBlocksPerSm)>> =
    Policy::kMinBlocksPerSm;

//! Elements of `elem_size` bytes per 16-byte vector load: 16 / elem_size when that divides 16, else 1
//! (no vector loads: every element is a scalar of the head).
GPUPRIMS_PLAN_HD constexpr std::int64_t vector_width(std::size_t elem_size) {
  return (elem_size > 0 && elem_size <= 16 && 16 % elem_size == 0) ? static_cast<std::int64_t>(16 / elem_size) : 1;
}

//! Split of n elements of elem_size bytes starting at byte address addr (a multiple of elem_size):
//! scalars [0, head) up to the first 16-byte boundary, vec_count vectors of vector_width elements, and
//! scalars [tail_begin, n). head and tail are each below vector_width. Without vector loads
//! (vector_width 1) every element is in the head.
struct ReduceSplit {
  std::int64_t head;        //!< scalars before the first 16-byte boundary
  std::int64_t vec_count;   //!< 16-byte vectors after them
  std::int64_t tail_begin;  //!< head + width * vec_count
  std::int64_t tail;        //!< scalars after the last whole vector
};

//! The split above (n >= 0).
GPUPRIMS_PLAN_HD constexpr ReduceSplit reduce_split(std::uintptr_t addr, std::int64_t n, std::size_t elem_size) {
  const std::int64_t width = vector_width(elem_size);
  if (width == 1) return ReduceSplit{n > 0 ? n : 0, 0, n > 0 ? n : 0, 0};
  const auto to_boundary = static_cast<std::int64_t>(((16u - (addr & 15u)) & 15u) / elem_size);
  const std::int64_t head = to_boundary < n ? to_boundary : (n > 0 ? n : 0);
  const std::int64_t vec_count = n > head ? (n - head) / width : 0;
  const std::int64_t tail_begin = head + width * vec_count;
  return ReduceSplit{head, vec_count, tail_begin, n > tail_begin ? n - tail_begin : 0};
}

//! Lanes of a warp chunk (the warp size).
inline constexpr std::int64_t kWarpChunkLanes = 32;

//! How the grid-wide reductions hand 16-byte vectors to threads: warps take chunks of
//! kWarpChunkLanes * kUnroll consecutive vectors in grid-stride order, and lane l loads vectors l,
//! l + 32, ... of its warp's chunk. Every load instruction reads 512 consecutive bytes and a warp's
//! kUnroll loads read one contiguous run; a plain grid stride (thread t loads t, t + threads, ...)
//! puts a warp's loads in kUnroll runs a whole grid apart, which an H100 streams 1-2% slower (every
//! operator and type at 2^28 elements). The vectors after the last whole chunk go one each to global
//! threads 0, 1, ...
//!
//! Calls chunk(first) for each whole chunk of [0, count) that global thread gtid's warp takes (the
//! thread's vectors of it are first + u * kWarpChunkLanes, u < kUnroll), then rest(i) for each vector
//! i after the whole chunks that it takes. nthreads (the grid's threads) and the block size are
//! multiples of kWarpChunkLanes; the assignment depends on (count, gtid, nthreads) alone. Host and
//! device: the kernels call it with device lambdas, the CPU tests with host ones.
#if defined(__CUDACC__)
#pragma nv_exec_check_disable
#endif
template <int kUnroll, class Chunk, class Rest>
GPUPRIMS_PLAN_HD void for_each_warp_chunk(std::int64_t count, std::int64_t gtid, std::int64_t nthreads, Chunk&& chunk,
                                          Rest&& rest) {
  constexpr std::int64_t kChunk = kWarpChunkLanes * kUnroll;
  const std::int64_t chunks = count / kChunk;
  const std::int64_t warps = nthreads / kWarpChunkLanes;
  const std::int64_t lane = gtid % kWarpChunkLanes;
  for (std::int64_t c = gtid / kWarpChunkLanes; c < chunks; c += warps) chunk(c * kChunk + lane);
  for (std::int64_t i = chunks * kChunk + gtid; i < count; i += nthreads) rest(i);
}

//! The most vectors one thread takes of `count` under for_each_warp_chunk in a grid
//! of nthreads threads with kUnroll loads per chunk: ceil(count / nthreads) + unroll, for
//! nthreads >= 32 * unroll. (Its warp takes at most ceil(chunks / warps) chunks, unroll vectors each,
//! which is below ceil(count / nthreads) + unroll; the vectors after the whole chunks are fewer than
//! one chunk, so at most one each.) Monotone in count, so a bound for any count up to it.
GPUPRIMS_PLAN_HD constexpr std::int64_t warp_chunk_vectors_bound(std::int64_t count, std::int64_t nthreads,
                                                                 int unroll) {
  if (count <= 0 || nthreads <= 0) return 0;
  return count / nthreads + (count % nthreads != 0 ? 1 : 0) + unroll;
}

//! Pass-1 blocks with an unlimited GPU: enough that every thread has one whole unrolled iteration of
//! vector loads, at least 1, at most Policy::kMaxBlocks; 0 for n <= 0. An upper bound of the real grid.
template <class Policy = DeviceReducePolicy>
GPUPRIMS_PLAN_HD constexpr std::int64_t reduce_max_blocks(std::int64_t n, std::size_t elem_size) {
  if (n <= 0) return 0;
  const std::int64_t per_block = std::int64_t{Policy::kThreads} * Policy::kUnroll * vector_width(elem_size);
  const std::int64_t blocks = n / per_block + (n % per_block != 0 ? 1 : 0);
  return blocks < Policy::kMaxBlocks ? blocks : Policy::kMaxBlocks;
}

//! The pass-1 grid on a GPU holding `resident_blocks` blocks at once: min(reduce_max_blocks, resident),
//! at least 1 for n > 0. One block means one pass (it writes the result itself).
template <class Policy = DeviceReducePolicy>
GPUPRIMS_PLAN_HD constexpr std::int64_t reduce_grid(std::int64_t n, std::size_t elem_size,
                                                    std::int64_t resident_blocks) {
  const std::int64_t most = reduce_max_blocks<Policy>(n, elem_size);
  if (most == 0) return 0;
  const std::int64_t resident = resident_blocks < 1 ? 1 : resident_blocks;
  return most < resident ? most : resident;
}

//! Workspace bytes for n elements: room for one accumulator of acc_size bytes per pass-1 block, placed
//! at the first kPartialsAlign boundary of the workspace, when there are two passes; 0 for one.
template <class Policy = DeviceReducePolicy>
GPUPRIMS_PLAN_HD constexpr std::size_t reduce_workspace_size(std::int64_t n, std::size_t elem_size,
                                                             std::size_t acc_size) {
  const std::int64_t blocks = reduce_max_blocks<Policy>(n, elem_size);
  return blocks > 1 ? static_cast<std::size_t>(blocks) * acc_size + (Policy::kPartialsAlign - 1) : 0;
}

}  // namespace gpuprims::device

#undef GPUPRIMS_PLAN_HD
