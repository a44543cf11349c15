#pragma once
// Rung 7, single_pass: small sums in one launch, no second kernel and no memset. SinglePassTuning::
// kGridBlocks small blocks spread the loads over that many SMs (a 2^16 sum is bound by memory
// latency, not bandwidth) and meet once, and block 0 adds the block sums in block order. From compute
// capability 9.0 the blocks are one thread block cluster: they meet at the cluster barrier and block
// 0 reads the sums from their shared memory (on an H200 a 2^16 sum took 5.0 us against 5.3 for the
// grid form below; results/nvidia-h200/README.md, session 59). Below 9.0, or where such a cluster
// does not fit, a cooperative grid: the sums go through the workspace and the grid meets at the
// runtime's grid barrier (so no counter of ours to zero). Where neither runs, one block of 1024
// threads with eight float4 loads in flight per thread. Every form but the last adds in the same
// order, so they give the same bits. Above SinglePassTuning::kMaxItems the rung is shuffle.
#include <cooperative_groups.h>

#include <cstdint>

#include "common/device/block_reduce.cuh"
#include "reduce/src/block/sum_op.hpp"
#include "reduce/src/kernels/thread_load.cuh"
#include "reduce/src/plan.hpp"

namespace gpuprims::reduce::detail {

// The sum of block `rank`'s share of in[0, n) in a grid of kBlocks blocks (both forms below), in
// every thread of the block.
template <int kThreads, int kBlocks>
__device__ __forceinline__ float grid_block_sum(const float* __restrict__ in, std::int64_t n, int rank, int tid) {
  constexpr std::int64_t kGridThreads = std::int64_t{kBlocks} * kThreads;
  const std::int64_t gtid = static_cast<std::int64_t>(rank) * kThreads + tid;
  const float v = thread_sum<SinglePassTuning::kGridUnroll>(in, n, gtid, kGridThreads);
  return ::gpuprims::detail::block_reduce<kThreads>(v, ::gpuprims::detail::SumOp{}, tid);
}

// Block 0's sum followed by blocks 1 to kBlocks - 1's, read by read(b): every read in flight at once
// (one at a time, the 15 L2 round trips cost about 1 us on an H100), then the adds in block order,
// so both forms give the same bits.
template <int kBlocks, class Read>
__device__ __forceinline__ float add_in_block_order(float first, Read read) {
  float sums[kBlocks];
#pragma unroll
  for (int b = 1; b < kBlocks; ++b) sums[b] = read(b);
  float total = first;
#pragma unroll
  for (int b = 1; b < kBlocks; ++b) total += sums[b];
  return total;
}

// Launched cooperatively as kBlocks blocks: out[0] = the sum of in[0, n); partials holds kBlocks floats
// (written before the barrier, read after it by block 0 only).
template <int kThreads, int kBlocks>
__global__ void __launch_bounds__(kThreads)
    sum_single_pass_grid(const float* __restrict__ in, std::int64_t n, float* partials, float* __restrict__ out) {
  const int tid = static_cast<int>(threadIdx.x);
  const float s = grid_block_sum<kThreads, kBlocks>(in, n, static_cast<int>(blockIdx.x), tid);
  if (tid == 0) partials[blockIdx.x] = s;
  cooperative_groups::this_grid().sync();  // every block sum is written and visible to the grid
  if (blockIdx.x == 0 && tid == 0) out[0] = add_in_block_order<kBlocks>(s, [&](int b) { return __ldcg(partials + b); });
}

// Launched as one cluster of kBlocks blocks (sm_90; the body is empty in code for older targets, which
// never launch it): out[0] = the sum of in[0, n), the same adds in the same order as
// sum_single_pass_grid<kThreads, kBlocks>.
template <int kThreads, int kBlocks>
__global__ void __launch_bounds__(kThreads)
    sum_single_pass_cluster(const float* __restrict__ in, std::int64_t n, float* __restrict__ out) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  __shared__ float block_sum;
  const int tid = static_cast<int>(threadIdx.x);
  const cooperative_groups::cluster_group cluster = cooperative_groups::this_cluster();
  const int rank = static_cast<int>(cluster.block_rank());
  const float s = grid_block_sum<kThreads, kBlocks>(in, n, rank, tid);
  if (tid == 0) block_sum = s;
  // Arrive with release (this block's sum is written), wait with acquire (every block's is visible).
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
  if (rank == 0) {
    if (tid == 0)
      out[0] = add_in_block_order<kBlocks>(s, [&](int b) { return *cluster.map_shared_rank(&block_sum, b); });
    __syncthreads();  // block 0's threads reach the last barrier after its reads
  }
  // No block leaves while block 0 may still read its shared memory; the others only wait here
  // (a second cluster.sync() in place of the split barrier above was 0.16 us slower at 2^16).
  asm volatile("barrier.cluster.arrive.relaxed.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
#endif
}

// One block: out[0] = the sum of in[0, n).
template <int kThreads>
__global__ void __launch_bounds__(kThreads)
    sum_single_pass_block(const float* __restrict__ in, std::int64_t n, float* __restrict__ out) {
  const int tid = static_cast<int>(threadIdx.x);
  const float v = thread_sum<SinglePassTuning::kOneBlockUnroll>(in, n, tid, kThreads);
  const float s = ::gpuprims::detail::block_reduce<kThreads>(v, ::gpuprims::detail::SumOp{}, tid);
  if (tid == 0) out[0] = s;
}

}  // namespace gpuprims::reduce::detail
