#pragma once
// Loading pieces the sum rungs share. Rungs 1-3: a block walks tiles of kThreads items (one item per
// thread per tile) and thread 0 adds the tile results in tile order. Rungs 4-6: each thread adds its
// share of the input while loading it: a grid-stride loop of 16-byte loads, kUnroll in flight into
// separate accumulators, with the scalar head (before the first 16-byte boundary) and tail (after the
// last whole float4) given to the first global threads. All global offsets are 64-bit; every
// assignment is fixed by (n, address, grid), so results are bitwise reproducible.
#include <cstdint>

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

__device__ __forceinline__ void add4(float4& acc, const float4& v) {
  acc.x += v.x;
  acc.y += v.y;
  acc.z += v.z;
  acc.w += v.w;
}

// Rungs 4-6: the sum of the items global thread `gtid` (of `nthreads`) owns in in[0, n).
template <int kUnroll>
__device__ __forceinline__ float thread_sum(const float* __restrict__ in, std::int64_t n, std::int64_t gtid,
                                            std::int64_t nthreads) {
  static_assert(kUnroll >= 1 && (kUnroll & (kUnroll - 1)) == 0, "power-of-two unroll");
  const VecSplit split = vec_split(reinterpret_cast<std::uintptr_t>(in), n);
  const float4* __restrict__ body = reinterpret_cast<const float4*>(in + split.head);

  float4 acc[kUnroll];
#pragma unroll
  for (int u = 0; u < kUnroll; ++u) acc[u] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);

  // Main loop: kUnroll independent 16-byte loads in flight, each warp-wide load contiguous.
  std::int64_t i = gtid;
  const std::int64_t last_full = split.vec_count - (kUnroll - 1) * nthreads;  // i < last_full: all in range
  for (; i < last_full; i += kUnroll * nthreads) {
    float4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v[u] = __ldg(body + i + u * nthreads);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) add4(acc[u], v[u]);
  }
  // Fewer than kUnroll float4s left for this thread: one at a time, into the accumulators in turn.
#pragma unroll
  for (int u = 0; u < kUnroll - 1; ++u) {
    if (i < split.vec_count) add4(acc[u], __ldg(body + i));
    i += nthreads;
  }

  // Fixed pairwise tree over the accumulators, then over the four lanes of the float4.
#pragma unroll
  for (int width = kUnroll / 2; width > 0; width /= 2) {
#pragma unroll
    for (int u = 0; u < width; ++u) add4(acc[u], acc[u + width]);
  }
  float s = (acc[0].x + acc[0].y) + (acc[0].z + acc[0].w);

  // Scalar head and tail (each fewer than 4 items): item j of each goes to global thread j.
  if (gtid < split.head) s += __ldg(in + gtid);
  if (gtid < split.tail) s += __ldg(in + split.tail_begin + gtid);
  return s;
}

}  // namespace gpuprims::reduce::detail
