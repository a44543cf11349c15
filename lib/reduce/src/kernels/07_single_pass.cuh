#pragma once
// Rung 7, single_pass: small sums in one launch, no second kernel and no memset. A cooperative grid of
// SinglePassTuning::kGridBlocks small blocks spreads the loads over that many SMs (a 2^16 sum is bound
// by memory latency, not bandwidth); each block writes its sum to the workspace, the grid meets at one
// grid barrier (the runtime's, so no counter of ours to zero), and block 0 adds the block sums in block
// order. Where a cooperative launch is not available, one block of 1024 threads with eight float4
// loads in flight per thread. Above SinglePassTuning::kMaxItems the rung is shuffle.
#include <cooperative_groups.h>

#include <cstdint>

#include "common/device/block_reduce.cuh"
#include "reduce/src/block/sum_op.hpp"
#include "reduce/src/kernels/thread_load.cuh"
#include "reduce/src/plan.hpp"

namespace gpuprims::reduce::detail {

// Launched cooperatively as kBlocks blocks: out[0] = the sum of in[0, n); partials holds kBlocks floats
// (written before the barrier, read after it by block 0 only).
template <int kThreads, int kBlocks>
__global__ void __launch_bounds__(kThreads)
    sum_single_pass_grid(const float* __restrict__ in, std::int64_t n, float* partials, float* __restrict__ out) {
  const int tid = static_cast<int>(threadIdx.x);
  constexpr std::int64_t kGridThreads = std::int64_t{kBlocks} * kThreads;
  const std::int64_t gtid = static_cast<std::int64_t>(blockIdx.x) * kThreads + tid;
  const float v = thread_sum<SinglePassTuning::kGridUnroll>(in, n, gtid, kGridThreads);
  const float s = ::gpuprims::detail::block_reduce<kThreads>(v, ::gpuprims::detail::SumOp{}, tid);
  if (tid == 0) partials[blockIdx.x] = s;
  cooperative_groups::this_grid().sync();  // every block sum is written and visible to the grid
  if (blockIdx.x == 0 && tid == 0) {
    // Every load in flight at once (one at a time, the 15 L2 round trips cost about 1 us on an H100),
    // then the adds in block order: fixed bits.
    float sums[kBlocks];
#pragma unroll
    for (int b = 1; b < kBlocks; ++b) sums[b] = __ldcg(partials + b);
    float total = s;
#pragma unroll
    for (int b = 1; b < kBlocks; ++b) total += sums[b];
    out[0] = total;
  }
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
