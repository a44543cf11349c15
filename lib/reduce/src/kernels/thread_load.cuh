#pragma once
// Loading pieces the sum rungs share. Rungs 1-3: a block walks tiles of kThreads items (one item per
// thread per tile) and thread 0 adds the tile results in tile order. Rungs 4-7: each thread adds its
// share of the input while loading it: the warp chunks of gpuprims/device/device_reduce_plan.hpp
// (kUnroll 16-byte loads in flight into separate accumulators; each rung's vector_unroll, plan.hpp),
// with the scalar head (before the first 16-byte boundary) and tail (after the last whole float4)
// given to the first global threads. All global offsets are 64-bit; every assignment is fixed by
// (n, address, grid), so results are bitwise reproducible.
#include <cstdint>

#include <gpuprims/device/device_reduce_plan.hpp>

#include "reduce/src/plan.hpp"

namespace gpuprims::reduce::detail {

// Rungs 1-3. `tree` reduces sdata[0, kThreads) into sdata[0] and ends with a block barrier (so the
// next tile may overwrite sdata, and thread 0 may read sdata[0]). Returns the block's sum in thread 0.
template <int kThreads, class Tree>
__device__ __forceinline__ float tiled_block_sum(const float* __restrict__ in, std::int64_t n, float* sdata,
                                                 Tree tree) {
  const int tid = static_cast<int>(threadIdx.x);
  const std::int64_t tiles = ceil_div_i64(n, kThreads);
  float acc = 0.0f;
  for (std::int64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const std::int64_t i = tile * kThreads + tid;
    sdata[tid] = i < n ? in[i] : 0.0f;
    __syncthreads();
    tree(sdata, tid);
    // Only thread 0 ever writes sdata[0] (in the load and in every tree), and tree() ended with a
    // barrier, so this read needs no further barrier before the next tile's loads. The read is
    // volatile so the compiler cannot hoist it out of the branch: a plain load was issued by every
    // thread (value unused), which racecheck rightly reports against thread 0's next-tile store.
    if (tid == 0) acc += *static_cast<volatile float*>(&sdata[0]);
  }
  return acc;
}

// Rungs 4-7: the sum of the items global thread `gtid` (of `nthreads`) owns in in[0, n).
template <int kUnroll>
__device__ __forceinline__ float thread_sum(const float* __restrict__ in, std::int64_t n, std::int64_t gtid,
                                            std::int64_t nthreads) {
  static_assert(kUnroll >= 1 && (kUnroll & (kUnroll - 1)) == 0, "power-of-two unroll");
  using ::gpuprims::device::kWarpChunkLanes;
  const VecSplit split = vec_split(reinterpret_cast<std::uintptr_t>(in), n);
  const float4* __restrict__ body = reinterpret_cast<const float4*>(in + split.head);

  // One float per accumulator, each vector added as (x + y) + (z + w): with 4 loads the kernel stays
  // within 32 registers, 8 blocks of 256 per SM. Four float4 accumulators took 43 registers, 5 blocks
  // per SM, and that grid read 2^28 floats about 1% slower than CUB on an H100; this one about 0.7%
  // faster. Rung 6's 8 loads take 59 registers, 4 blocks per SM (ReduceTuning).
  float acc[kUnroll];
#pragma unroll
  for (int u = 0; u < kUnroll; ++u) acc[u] = 0.0f;
  // The scalar head and tail (each fewer than 4 items; item j of each goes to global thread j) are
  // loaded before the vectors and added after them: issued after the vector loop, they waited for its
  // adds and made a small sum of a pointer off a 16-byte boundary two trips to memory, not one.
  const bool has_head = gtid < split.head, has_tail = gtid < split.tail;
  const float head = has_head ? __ldg(in + gtid) : 0.0f;
  const float tail = has_tail ? __ldg(in + split.tail_begin + gtid) : 0.0f;

  // kUnroll independent 16-byte loads in flight; each warp's chunk is one contiguous run.
  ::gpuprims::device::for_each_warp_chunk<kUnroll>(
      split.vec_count, gtid, nthreads,
      [&](std::int64_t first) {
    float4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v[u] = __ldg(body + first + u * kWarpChunkLanes);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) acc[u] += (v[u].x + v[u].y) + (v[u].z + v[u].w);
      },
      [&](std::int64_t i) {
    const float4 v = __ldg(body + i);
    acc[0] += (v.x + v.y) + (v.z + v.w);
  });

  // Fixed pairwise tree over the accumulators.
#pragma unroll
  for (int width = kUnroll / 2; width > 0; width /= 2) {
#pragma unroll
    for (int u = 0; u < width; ++u) acc[u] += acc[u + width];
  }
  float s = acc[0];

  if (has_head) s += head;
  if (has_tail) s += tail;
  return s;
}

}  // namespace gpuprims::reduce::detail
