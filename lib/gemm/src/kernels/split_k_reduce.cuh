#pragma once
// Split-K, second half. The first half (any path whose kernel honours k_range.cuh) left one partial
// product per k split in the workspace; this kernel sums them in split order - the same order every
// run, so results are bitwise reproducible with no floating-point atomics - and sends each sum through
// the epilogue every rung shares (alpha, beta, C stored or not, the fused top-2), over a grid-stride
// loop of split_k_reduce_blocks (plan.hpp) blocks.
#include <cstdint>

#include <gpuprims/device/dependent_launch.cuh>

#include "common/device/warp_reduce.cuh"
#include "common/src/cuda_check.hpp"
#include "common/src/math.hpp"
#include "gemm/src/detail/launch.cuh"
#include "gemm/src/epilogue/epilogue.cuh"
#include "gemm/src/plan.hpp"

namespace gpuprims::detail {

// Partial products of `splits` k ranges, each an m x ldw row-major slice (ldw = partials_ld(n)),
// slice s at base + s * stride.
struct SplitPartials {
  const float* base;
  std::int64_t ldw;
  std::int64_t stride;
  int splits;
};

// Sums of four partials at once, with the shuffle the lane groups combine by.
struct Sum4 {
  float4 v{0.f, 0.f, 0.f, 0.f};
};
__device__ __forceinline__ Sum4 operator+(Sum4 a, Sum4 b) {
  return {make_float4(a.v.x + b.v.x, a.v.y + b.v.y, a.v.z + b.v.z, a.v.w + b.v.w)};
}
__device__ __forceinline__ Sum4 shfl_xor(Sum4 a, int offset) {
  return {make_float4(__shfl_xor_sync(kFullMask, a.v.x, offset), __shfl_xor_sync(kFullMask, a.v.y, offset),
                      __shfl_xor_sync(kFullMask, a.v.z, offset), __shfl_xor_sync(kFullMask, a.v.w, offset))};
}
__device__ __forceinline__ float shfl_xor(float a, int offset) { return __shfl_xor_sync(kFullMask, a, offset); }

// Lane g of a group of kLanes sums partials g, g + kLanes, ... of the output at p, in that order,
// then the group combines by an xor butterfly: a fixed order, and every lane ends with the same bits.
template <int kLanes, class T, class Load>
__device__ __forceinline__ T sum_of_splits(const SplitPartials& parts, const float* p, int g, bool valid, Load load) {
  T sum{};
  if (valid) {
    int s = g;
    for (; s + 3 * kLanes < parts.splits; s += 4 * kLanes) {  // four loads in flight
      T v[4];
#pragma unroll
      for (int u = 0; u < 4; ++u) v[u] = load(p + (s + u * kLanes) * parts.stride);
#pragma unroll
      for (int u = 0; u < 4; ++u) sum = sum + v[u];
    }
    // The last one to three: every load issued before the first sum (a loop of load-then-add waited out
    // each load in turn), the sums in the same order as ever, so the bits do not change.
    T v[3] = {};
#pragma unroll
    for (int u = 0; u < 3; ++u)
      if (s + u * kLanes < parts.splits) v[u] = load(p + (s + u * kLanes) * parts.stride);
#pragma unroll
    for (int u = 0; u < 3; ++u)
      if (s + u * kLanes < parts.splits) sum = sum + v[u];
  }
#pragma unroll
  for (int offset = kLanes / 2; offset > 0; offset /= 2) sum = sum + shfl_xor(sum, offset);
  return sum;
}

// A C that takes 16-byte accesses gets one float4 of a row per lane group; any other C one output per
// group, consecutive groups on consecutive columns, so its stores still cover whole sectors. The loop
// runs while any lane of the warp has an output (the shuffles need the whole warp); lane 0 of each
// group applies the epilogue.
template <int kLanes, class Visitor>
__device__ __forceinline__ void reduce_splits(const SplitPartials& parts, const OutputParams& out,
                                              Epilogue<Visitor>& epi) {
  constexpr int kGroups = kSplitKReduceThreads / kLanes;
  const int g = threadIdx.x % kLanes;
  const std::int64_t warp_first =
      static_cast<std::int64_t>(blockIdx.x) * kGroups + (threadIdx.x / kWarpSize) * (kWarpSize / kLanes);
  const std::int64_t mine = threadIdx.x % kWarpSize / kLanes;
  const std::int64_t step = static_cast<std::int64_t>(gridDim.x) * kGroups;
  if (epi.vector_c()) {
    const std::int64_t per_row = ceil_div<std::int64_t>(out.n, 4);
    for (std::int64_t base = warp_first; base < out.m * per_row; base += step) {
      const std::int64_t q = base + mine;
      const bool valid = q < out.m * per_row;
      const std::int64_t r = valid ? q / per_row : 0, c = valid ? (q - r * per_row) * 4 : 0;
      // A row's last float4 may reach into the padding up to ldw, which no split wrote: there, only
      // the columns that exist are read (as a branch inside the load, so the shuffles stay converged).
      const std::int64_t cols = out.n - c;
      const Sum4 sum =
          sum_of_splits<kLanes, Sum4>(parts, parts.base + r * parts.ldw + c, g, valid, [cols](const float* p) {
            if (cols >= 4) return Sum4{__ldcs(reinterpret_cast<const float4*>(p))};
            return Sum4{make_float4(__ldcs(p), cols > 1 ? __ldcs(p + 1) : 0.0f, cols > 2 ? __ldcs(p + 2) : 0.0f, 0.0f)};
          });
      if (valid && g == 0) epi.apply4(r, c, sum.v);
    }
  } else {
    for (std::int64_t base = warp_first; base < out.m * out.n; base += step) {
      const std::int64_t e = base + mine;
      const bool valid = e < out.m * out.n;
      const std::int64_t r = valid ? e / out.n : 0, c = valid ? e - r * out.n : 0;
      const float sum = sum_of_splits<kLanes, float>(parts, parts.base + r * parts.ldw + c, g, valid,
                                                     [](const float* p) { return __ldcs(p); });
      if (valid && g == 0) epi.apply1(r, c, sum);
    }
  }
}

template <int kLanes, class Visitor>
__global__ void __launch_bounds__(kSplitKReduceThreads)
    split_k_reduce_kernel(SplitPartials parts, EpilogueParams<Visitor> ep) {
  ::gpuprims::device::wait_for_prerequisite_grid();  // launched as a dependent of the kernel that wrote the partials
  // No read of the visitor's state ahead (Visitor::prefetch, the global top-2's bound): there is no
  // main loop here for its latency to pass in, and with a grid of about one wave no block has pushed a
  // pair when the others start. Every thread of the grid reading that one word cost more than the
  // filter saved: on an H200 (ncu, run JD in results/nvidia-h200/README.md) the top-2 reduction of
  // 1000 x 3000 in 16 splits (1056 blocks) took 53.8 us without the read against 56.4 us with it.
  Epilogue<Visitor> epi(ep, Epilogue<Visitor>::kNothingPrefetched);
  reduce_splits<kLanes>(parts, ep.out, epi);
  epi.template finish<kSplitKReduceThreads>(threadIdx.x);
}

template <int kLanes>
cudaError_t launch_split_k_reduce_with(const GemmCall& c, const SplitPartials& parts, unsigned blocks, bool dependent) {
  cudaError_t err = cudaSuccess;
  with_visitor(c.epilogue, [&](auto visitor) {
    using V = typename decltype(visitor)::type;
    err = ::gpuprims::device::launch_maybe_dependent(&split_k_reduce_kernel<kLanes, V>, dim3(blocks),
                                                     dim3(kSplitKReduceThreads), c.stream, dependent, parts,
                                                     epilogue_params<V>(c));
  });
  return err;
}

// The sums of parts through the epilogue of the call c (its mode, its C, alpha, beta, top-2), launched
// right after the kernel that wrote them; `dependent`: as its programmatic dependent (sm_90+).
inline Status launch_split_k_reduce(const GemmCall& c, const SplitPartials& parts, int sm_count, bool dependent) {
  const auto blocks =
      static_cast<unsigned>(split_k_reduce_blocks(c.op.m, c.op.n, parts.splits, sm_count, c.out.c_vec4));
  cudaError_t err = cudaSuccess;
  switch (split_k_reduce_lanes(parts.splits)) {
    case 1: err = launch_split_k_reduce_with<1>(c, parts, blocks, dependent); break;
    case 2: err = launch_split_k_reduce_with<2>(c, parts, blocks, dependent); break;
    case 4: err = launch_split_k_reduce_with<4>(c, parts, blocks, dependent); break;
    case 8: err = launch_split_k_reduce_with<8>(c, parts, blocks, dependent); break;
    case 16: err = launch_split_k_reduce_with<16>(c, parts, blocks, dependent); break;
    default: err = launch_split_k_reduce_with<32>(c, parts, blocks, dependent); break;
  }
  GPUPRIMS_CUDA_TRY(err);
  GPUPRIMS_LAUNCH_CHECK();
  return Status::success;
}

}  // namespace gpuprims::detail
