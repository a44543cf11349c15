#pragma once
// Launch arithmetic of reduce::sum, in one place and apart from the kernels: the tuning constants, the
// pass-1 grid for n items, the number of passes, the longest chain of sequential additions one thread
// performs (for the error bound of docs/ERROR-BOUNDS.md), the workspace, and the split of an input
// into a scalar head, a 16-byte-aligned float4 body and a scalar tail. Plain C++17 (g++ compiles it
// for the CPU tests); GPUPRIMS_HD where the kernels use it too.
#include <cstddef>
#include <cstdint>

#include <gpuprims/device/device_reduce_plan.hpp>
#include <gpuprims/reduce.hpp>

#include "common/src/host_device.hpp"
#include "common/src/math.hpp"

namespace gpuprims::reduce::detail {

// Every tuning constant of the sum ladder (rungs 1-6, and rung 7 above its single-launch size).
struct ReduceTuning {
  // Threads per block, every rung and both passes (a power of two, >= 64 for the unrolled last warp).
  static constexpr int kThreads = 256;
  // log2(kThreads): depth of every block-level tree.
  static constexpr int kLog2Threads = 8;
  // Cap on pass-1 blocks, so the partials (and the workspace) stay O(1) in n and one block of pass 2
  // reduces them. The real grid is min(needed, sm_count * resident blocks per SM, kMaxPartials).
  static constexpr std::int64_t kMaxPartials = 2048;
  // Rungs 4-7: floats per vector load (16 bytes) and vector loads in flight per thread per iteration,
  // each into its own accumulator: kUnroll in rungs 4 and 5 (32 registers, 8 blocks of 256 an SM),
  // kShuffleUnroll in rung 6 and in rung 7 above its single-launch size (the default, and the typed
  // float sum). Rung 6 asks for kShuffleMinBlocksPerSm resident blocks in its __launch_bounds__:
  // without a minimum ptxas schedules it for 8 blocks an SM and puts the first add before the fifth
  // load, so only 4 of the 8 are in flight (scripts/sass_loads_in_flight.py); with it, 59 registers and
  // all 8. On an H200 (results/nvidia-h200/README.md, run DI) that took float sums of 2^28 from
  // 0.997-0.999x CUB to 1.001-1.003x; rungs 4 and 5 with 8 loads (4 in flight) were 1.3-1.4% slower
  // there and 11-13% at 2^16, so they keep 4.
  static constexpr int kVecWidth = 4;
  static constexpr int kUnroll = 4;
  static constexpr int kShuffleUnroll = 8;
  static constexpr int kShuffleMinBlocksPerSm = 4;
};
static_assert((ReduceTuning::kThreads & (ReduceTuning::kThreads - 1)) == 0, "power-of-two block");
static_assert((1 << ReduceTuning::kLog2Threads) == ReduceTuning::kThreads, "log2 matches");
static_assert(ReduceTuning::kThreads >= 64, "the unrolled last warp needs two warps of data");
static_assert(ReduceTuning::kMaxPartials >= 1, "at least one partial");
static_assert(ReduceTuning::kThreads >= 32 * ReduceTuning::kUnroll &&
                  ReduceTuning::kThreads >= 32 * ReduceTuning::kShuffleUnroll,
              "warp_chunk_vectors_bound's precondition");

// Rung 7, single_pass: for n <= kMaxItems one launch. Where cooperative launches run, a grid of
// kGridBlocks blocks of kGridThreads (spread over that many SMs: a small sum is bound by memory
// latency) whose block sums meet in the workspace across one grid barrier; elsewhere one block of
// kThreads. Above kMaxItems the rung is shuffle (rung 6), two passes, ReduceTuning's constants.
struct SinglePassTuning {
  static constexpr int kThreads = 1024;  // the one-block kernel
  static constexpr int kLog2Threads = 10;
  static constexpr int kGridBlocks = 16;
  static constexpr int kGridThreads = 256;
  static constexpr int kGridUnroll = 4;      // float4 loads in flight per thread, grid kernel
  static constexpr int kOneBlockUnroll = 8;  // one block: more loads in flight to cover the latency alone
  // The largest n taken in one launch: 2^17 floats are 512 KiB, 32 KiB per block of the grid.
  static constexpr std::int64_t kMaxItems = std::int64_t{1} << 17;
};
static_assert((1 << SinglePassTuning::kLog2Threads) == SinglePassTuning::kThreads, "log2 matches");
static_assert(SinglePassTuning::kGridThreads <= SinglePassTuning::kThreads,
              "the one-block kernel's tree term bounds the grid kernel's");
static_assert(SinglePassTuning::kThreads >= 32 * SinglePassTuning::kOneBlockUnroll &&
                  SinglePassTuning::kGridUnroll <= SinglePassTuning::kOneBlockUnroll,
              "warp_chunk_vectors_bound's precondition; the one-block kernel's chain bounds the grid kernel's");
static_assert(SinglePassTuning::kGridBlocks * SinglePassTuning::kGridThreads >= SinglePassTuning::kThreads,
              "the one-block kernel's chain bounds the grid kernel's");

// How a rung takes its items from global memory.
enum class LoadShape {
  tile_per_thread,  // rungs 1-3: one item per thread per tile of kThreads items; a block loops over tiles
  grid_stride_vec,  // rungs 4-7: float4 loads in warp chunks (device_reduce_plan.hpp), several in flight
                    // (vector_unroll); scalar head and tail
};

// ceil(a / b) for a >= 0, b > 0 without the overflow of (a + b - 1) / b near INT64_MAX.
GPUPRIMS_HD constexpr std::int64_t ceil_div_i64(std::int64_t a, std::int64_t b) { return a / b + (a % b != 0 ? 1 : 0); }

GPUPRIMS_HD constexpr bool valid_algorithm(Algorithm algo) {
  return static_cast<int>(algo) >= 0 && static_cast<int>(algo) < static_cast<int>(kAllAlgorithms.size());
}

// True when the single_pass rung takes n items in one launch (no second kernel; its grid kernel keeps
// one float per block in the workspace).
GPUPRIMS_HD constexpr bool single_launch(std::int64_t n, Algorithm algo) {
  return algo == Algorithm::single_pass && n <= SinglePassTuning::kMaxItems;
}

GPUPRIMS_HD constexpr LoadShape load_shape(Algorithm algo) {
  return static_cast<int>(algo) < static_cast<int>(Algorithm::add_during_load) ? LoadShape::tile_per_thread
                                                                               : LoadShape::grid_stride_vec;
}

// 16-byte loads in flight per thread per iteration of rungs 4-7 above a single launch (ReduceTuning):
// the unroll both the kernels and the plan's chains use.
GPUPRIMS_HD constexpr int vector_unroll(Algorithm algo) {
  return algo == Algorithm::shuffle || algo == Algorithm::single_pass ? ReduceTuning::kShuffleUnroll
                                                                      : ReduceTuning::kUnroll;
}

// Items one block of pass 1 should get at least: a tile (rungs 1-3) or one unrolled iteration of every
// thread (rungs 4-7).
GPUPRIMS_HD constexpr std::int64_t items_per_block_min(Algorithm algo) {
  return load_shape(algo) == LoadShape::tile_per_thread
             ? std::int64_t{ReduceTuning::kThreads}
             : std::int64_t{ReduceTuning::kThreads} * ReduceTuning::kVecWidth * vector_unroll(algo);
}

// Blocks pass 1 would use with an unlimited GPU: ceil(n / items_per_block_min), capped at kMaxPartials.
// An upper bound of the real grid on every device; 0 for n <= 0. A single launch counts as one block
// (it writes d_out itself; its grid kernel's block sums have their own room, workspace_bytes_for).
GPUPRIMS_HD constexpr std::int64_t max_pass1_blocks(std::int64_t n, Algorithm algo) {
  if (n <= 0) return 0;
  if (single_launch(n, algo)) return 1;
  return ::gpuprims::detail::min_of(ceil_div_i64(n, items_per_block_min(algo)), ReduceTuning::kMaxPartials);
}

// The partials start at the first 16-byte boundary of the workspace (which the API only requires to
// be 4-byte aligned), so pass 2 reads them the same way wherever the workspace is: the result does not
// depend on the workspace's address.
inline constexpr std::uintptr_t kPartialsAlign = 16;
GPUPRIMS_HD constexpr std::uintptr_t align_partials(std::uintptr_t workspace_addr) {
  return (workspace_addr + (kPartialsAlign - 1)) & ~(kPartialsAlign - 1);
}
// Bytes for `blocks` partials placed that way in a 4-byte-aligned workspace.
GPUPRIMS_HD constexpr std::size_t partials_bytes(std::int64_t blocks) {
  return static_cast<std::size_t>(blocks) * sizeof(float) + (kPartialsAlign - sizeof(float));
}

// Workspace for n items: room for one float per pass-1 block when there are two passes, and for the
// grid kernel's block sums in a single launch. Depends on n and the rung only (no device query): the
// compile-time caps bound the real grid.
GPUPRIMS_HD constexpr std::size_t workspace_bytes_for(std::int64_t n, Algorithm algo) {
  if (!valid_algorithm(algo) || n <= 0) return 0;
  if (single_launch(n, algo)) return partials_bytes(SinglePassTuning::kGridBlocks);
  const std::int64_t blocks = max_pass1_blocks(n, algo);
  return blocks > 1 ? partials_bytes(blocks) : 0;
}

// The longest chain of sequential additions (items accumulated one after another) that one thread of
// one block performs when `blocks` blocks of kThreads threads of rung `algo` reduce n items (as two
// passes, not a single launch). Rungs 1-3: thread 0 adds the result of every tile its block owns, in
// order. Rungs 4-7: every item a thread loads (its warp chunks: warp_chunk_vectors_bound float4s),
// counted as if added one by one (its accumulators make the real chain shorter), plus one head and
// one tail scalar.
GPUPRIMS_HD constexpr std::int64_t chain_items(std::int64_t n, std::int64_t blocks, Algorithm algo) {
  if (n <= 0 || blocks <= 0) return 0;
  constexpr std::int64_t T = ReduceTuning::kThreads;
  if (load_shape(algo) == LoadShape::tile_per_thread) return ceil_div_i64(ceil_div_i64(n, T), blocks);
  constexpr std::int64_t V = ReduceTuning::kVecWidth;
  return V * ::gpuprims::device::warp_chunk_vectors_bound(ceil_div_i64(n, V), blocks * T, vector_unroll(algo)) + 2;
}

// The chain of a single launch, an upper bound for both of its kernels: one block of 1024 threads
// (the longer per-thread chain, counted as chain_items counts it: the grid kernel has at least as many
// threads and a smaller unroll) plus the kGridBlocks block sums that block 0 of the grid adds in block
// order.
GPUPRIMS_HD constexpr std::int64_t single_launch_chain(std::int64_t n) {
  if (n <= 0) return 0;
  constexpr std::int64_t V = ReduceTuning::kVecWidth;
  return V * ::gpuprims::device::warp_chunk_vectors_bound(ceil_div_i64(n, V), SinglePassTuning::kThreads,
                                                          SinglePassTuning::kOneBlockUnroll) +
         2 + SinglePassTuning::kGridBlocks;
}

// log2(threads) of the error bound's tree term: 10 for a single launch (its one-block kernel's 1024
// threads bound the grid kernel's 256), else 8.
GPUPRIMS_HD constexpr int bound_log2_threads(std::int64_t n, Algorithm algo) {
  return single_launch(n, algo) ? SinglePassTuning::kLog2Threads : ReduceTuning::kLog2Threads;
}

struct ReducePlan {
  int threads = ReduceTuning::kThreads;
  std::int64_t blocks = 0;                  // pass-1 grid (0 when n == 0)
  int passes = 0;                           // 0 (n == 0: a memset), 1 (pass 1 writes d_out) or 2
  std::int64_t items_per_thread = 0;        // pass 1: longest sequential chain of one thread
  std::int64_t pass2_items_per_thread = 0;  // pass 2 (one block over the partials), 0 with one pass
  std::size_t workspace_bytes = 0;          // what this grid uses (<= workspace_bytes_for(n, algo))

  // "items per thread" of the docs/ERROR-BOUNDS.md bound: the chains of both passes, one after the
  // other.
  GPUPRIMS_HD constexpr std::int64_t bound_items() const { return items_per_thread + pass2_items_per_thread; }
};

// The plan for n >= 0 items of a valid rung on a GPU that holds `resident_blocks` blocks of this rung at
// once (sm_count * blocks per SM, at least 1).
GPUPRIMS_HD constexpr ReducePlan make_plan(std::int64_t n, Algorithm algo, std::int64_t resident_blocks) {
  ReducePlan p;
  if (n <= 0) return p;
  if (single_launch(n, algo)) {
    p.threads = SinglePassTuning::kThreads;
    p.blocks = 1;  // as the one-block kernel: the grid kernel's blocks meet inside the launch
    p.passes = 1;
    p.items_per_thread = single_launch_chain(n);
    p.workspace_bytes = workspace_bytes_for(n, algo);  // the grid kernel's block sums
    return p;
  }
  const std::int64_t resident = resident_blocks < 1 ? 1 : resident_blocks;
  p.blocks = ::gpuprims::detail::min_of(max_pass1_blocks(n, algo), resident);
  if (p.blocks < 1) p.blocks = 1;
  p.passes = p.blocks > 1 ? 2 : 1;
  p.items_per_thread = chain_items(n, p.blocks, algo);
  p.pass2_items_per_thread = p.passes == 2 ? chain_items(p.blocks, 1, algo) : 0;
  p.workspace_bytes = p.passes == 2 ? partials_bytes(p.blocks) : 0;
  return p;
}

// An upper bound of plan.bound_items() over every GPU with at least sm_count resident blocks (one per
// SM): pass 1 with the fewest blocks, pass 2 with the most. For tests, which do not know the occupancy
// the library measured.
GPUPRIMS_HD constexpr std::int64_t bound_items_upper(std::int64_t n, Algorithm algo, std::int64_t sm_count) {
  if (n <= 0) return 0;
  if (single_launch(n, algo)) return single_launch_chain(n);
  const std::int64_t most = max_pass1_blocks(n, algo);
  std::int64_t fewest = ::gpuprims::detail::min_of(most, sm_count < 1 ? std::int64_t{1} : sm_count);
  if (fewest < 1) fewest = 1;
  return chain_items(n, fewest, algo) + (most > 1 ? chain_items(most, 1, algo) : 0);
}

// Split of n floats starting at byte address `addr` (4-byte aligned) into a scalar head up to the first
// 16-byte boundary, a body of float4s, and a scalar tail of fewer than 4 floats.
struct VecSplit {
  std::int64_t head;        // scalars [0, head), head <= 3
  std::int64_t vec_count;   // float4s covering [head, head + 4 * vec_count)
  std::int64_t tail_begin;  // head + 4 * vec_count
  std::int64_t tail;        // scalars [tail_begin, n), tail <= 3
};

GPUPRIMS_HD constexpr VecSplit vec_split(std::uintptr_t addr, std::int64_t n) {
  const std::int64_t to_boundary = static_cast<std::int64_t>(((16u - (addr & 15u)) & 15u) / 4u);
  const std::int64_t head = to_boundary < n ? to_boundary : (n > 0 ? n : 0);
  const std::int64_t vec_count = n > head ? (n - head) / 4 : 0;
  const std::int64_t tail_begin = head + 4 * vec_count;
  return VecSplit{head, vec_count, tail_begin, (n > tail_begin ? n - tail_begin : 0)};
}

}  // namespace gpuprims::reduce::detail
