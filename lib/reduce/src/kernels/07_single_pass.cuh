#pragma once
// Rung 7, single_pass: small sums in one launch, no second kernel and no memset. On sm_90 a cluster of
// 8 blocks x 1024 threads: each block reduces its grid-stride share as shuffle does, then block rank 0
// reads the other blocks' sums from their shared memory (distributed shared memory) and adds them in
// rank order. Elsewhere (or when a cluster cannot be launched) one block of 1024 threads with eight
// float4 loads in flight per thread. Above SinglePassTuning::kMaxItems the rung is shuffle.
#include <cooperative_groups.h>

#include <cstdint>

#include "common/device/block_reduce.cuh"
#include "reduce/src/block/sum_op.hpp"
#include "reduce/src/kernels/thread_load.cuh"
#include "reduce/src/plan.hpp"

namespace gpuprims::reduce::detail {

// One cluster of SinglePassTuning::kClusterBlocks blocks (launched as exactly one cluster; block rank
// == blockIdx.x): out[0] = the sum of in[0, n). Compiled empty below sm_90, where the host never
// launches it (it checks the kernel's binary version).
template <int kThreads>
__global__ void __launch_bounds__(kThreads)
    sum_single_pass_cluster(const float* __restrict__ in, std::int64_t n, float* __restrict__ out) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  namespace cg = cooperative_groups;
  __shared__ float block_sum;
  const cg::cluster_group cluster = cg::this_cluster();
  const int tid = static_cast<int>(threadIdx.x);
  const std::int64_t nthreads = static_cast<std::int64_t>(gridDim.x) * kThreads;
  const std::int64_t gtid = static_cast<std::int64_t>(blockIdx.x) * kThreads + tid;
  const float v = thread_sum<SinglePassTuning::kClusterUnroll>(in, n, gtid, nthreads);
  const float s = ::gpuprims::detail::block_reduce<kThreads>(v, ::gpuprims::detail::SumOp{}, tid);
  if (tid == 0) block_sum = s;
  cluster.sync();  // every block's sum is in its shared memory and visible to the cluster
  if (cluster.block_rank() == 0 && tid == 0) {
    float total = block_sum;
    const unsigned blocks = cluster.num_blocks();
    for (unsigned r = 1; r < blocks; ++r) total += *cluster.map_shared_rank(&block_sum, r);
    out[0] = total;
  }
  cluster.sync();  // no block may exit (and free its shared memory) before rank 0 has read it
#else
  (void)in;
  (void)n;
  (void)out;
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
