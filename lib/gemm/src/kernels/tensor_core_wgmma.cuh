#pragma once
// Rung 12 on Hopper (sm_90a): the same slabs, products and epilogue as 11_tf32.cuh, but the MMAs are
// warpgroup MMAs (wgmma m64n128k8), issued asynchronously by two warpgroups, in place of mma.sync
// m16n8k8 from each warp. A's fragments still come from shared memory by ldmatrix and are split in
// registers; B, which the TF32 wgmma takes only k-major, is rewritten (and split) once per slab into
// core-matrix order while the previous slab's MMAs run. Same products in the same order per slab.
#include <cstdint>

#include "common/src/device_info.hpp"
#include "gemm/src/detail/launch.cuh"
#include "gemm/src/detail/wgmma_ptx.cuh"
#include "gemm/src/epilogue/epilogue.cuh"
#include "gemm/src/kernels/11_tf32.cuh"
#include "gemm/src/tuning.hpp"

namespace gpuprims::detail {

// Operand buffers: kParts k-major B tiles of one slab (BN x BK, core matrix (n / 8, k / 4) at
// ((n / 8) * (BK / 4) + k / 4) * 32 floats, element (n % 8, k % 4) at (n % 8) * 4 + k % 4 in it).
template <class Cfg>
struct WgmmaLayout {
  static constexpr int kKChunks = Cfg::BK / 4;                     // core matrices along k
  static constexpr std::uint32_t kKStepBytes = 128;                // next core matrix along k
  static constexpr std::uint32_t kRowGroupBytes = kKChunks * 128;  // next 8 rows of n
};

// B's raw slab (Bs: BK x BN, row-major, kBStride apart) into the k-major parts `big` and `small`
// (Products::split). Warp w writes whole core matrices w, w + kWarps, ...: lane l takes (n % 8, k % 4)
// = (l / 4, l % 4), so the reads hit 32 banks (kBStride = 8 mod 32) and the writes are 128 contiguous
// bytes.
template <class Cfg, class Products>
__device__ __forceinline__ void rewrite_b_kmajor(const float* Bs, float* big, float* small, int warp, int lane) {
  constexpr int kChunks = WgmmaLayout<Cfg>::kKChunks, kCores = (Cfg::BN / 8) * kChunks;
#pragma unroll
  for (int core = warp; core < kCores; core += Cfg::kWarps) {
    const int n = (core / kChunks) * 8 + lane / 4, k = (core % kChunks) * 4 + lane % 4;
    std::uint32_t b = 0, s = 0;
    Products::split(__float_as_uint(Bs[k * Cfg::kBStride + n]), b, s);
    big[core * 32 + lane] = __uint_as_float(b);
    if constexpr (Products::kTerms == 3) small[core * 32 + lane] = __uint_as_float(s);
  }
}

// This warp's A fragments of one slab (its 16 rows, every k8 step) from the raw slab As, split.
template <class Cfg, class Products>
__device__ __forceinline__ void load_a_split(const float* As, int wm, int lane, std::uint32_t (&big)[Cfg::BK / 8][4],
                                             std::uint32_t (&small)[Cfg::BK / 8][4]) {
  const float* const a_lane = As + (wm + (lane % 8) + ((lane / 8) & 1) * 8) * Cfg::kAStride + (lane / 16) * 4;
#pragma unroll
  for (int kk = 0; kk < Cfg::BK / 8; ++kk) {
    std::uint32_t raw[4];
    load_matrix_x4(raw, a_lane + kk * 8);
#pragma unroll
    for (int e = 0; e < 4; ++e) Products::split(raw[e], big[kk][e], small[kk][e]);
  }
}

// The warpgroup's MMAs of one slab into d: per k8 step small*big, big*small, big*big (rung 12's
// order) or the one product. The first overwrites d when `fresh`.
template <class Cfg, class Products>
__device__ __forceinline__ void wgmma_slab(float (&d)[64], const std::uint32_t (&a_big)[Cfg::BK / 8][4],
                                           const std::uint32_t (&a_small)[Cfg::BK / 8][4], const float* b_big,
                                           const float* b_small, bool fresh) {
  using L = WgmmaLayout<Cfg>;
#pragma unroll
  for (int kk = 0; kk < Cfg::BK / 8; ++kk) {
    const std::uint64_t big = kmajor_descriptor(b_big + kk * 2 * 32, L::kKStepBytes, L::kRowGroupBytes);
    const int keep = (fresh && kk == 0) ? 0 : 1;
    if constexpr (Products::kTerms == 3) {
      const std::uint64_t small = kmajor_descriptor(b_small + kk * 2 * 32, L::kKStepBytes, L::kRowGroupBytes);
      wgmma_m64n128k8_tf32(d, a_small[kk], big, keep);
      wgmma_m64n128k8_tf32(d, a_big[kk], small, 1);
      wgmma_m64n128k8_tf32(d, a_big[kk], big, 1);
    } else {
      wgmma_m64n128k8_tf32(d, a_big[kk], big, keep);
    }
  }
}

template <class Cfg, class Products, bool kVec, class Visitor>
__global__ void __launch_bounds__(Cfg::kThreads, 1)
    wgmma_tensor_core_kernel(GemmOperands op, EpilogueParams<Visitor> ep) {
  constexpr int kParts = Products::kTerms == 3 ? 2 : 1, kKSteps = Cfg::BK / 8;
  extern __shared__ float4 smem_f4[];  // Cfg::smem_bytes(kParts), set at launch
  float* const smem = reinterpret_cast<float*>(smem_f4);
  const TileCoord tile = tile_coord(blockIdx.x, ceil_div<std::int64_t>(op.m, Cfg::BM),
                                    ceil_div<std::int64_t>(op.n, Cfg::BN), Cfg::kGroupM);
  const std::int64_t row0 = tile.tm * Cfg::BM, col0 = tile.tn * Cfg::BN;
  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const int wm = (warp / 4) * 64 + (warp % 4) * 16;  // this warp's 16 rows: warpgroup, then warp in it

  const float prefetched = Epilogue<Visitor>::prefetch(ep);
  const TensorCoreSlabCopy<Cfg, kVec> copy(op, row0, col0, tid);
  const auto stage_a = [&](int s) { return smem + s * Cfg::kStageFloats; };
  const auto stage_b = [&](int s) { return smem + s * Cfg::kStageFloats + Cfg::BM * Cfg::kAStride; };
  // Operand buffer `buf` (0, 1), part 0 (big) or 1 (small).
  const auto operand = [&](int buf, int part) {
    return smem + Cfg::kStages * Cfg::kStageFloats + (buf * kParts + (kParts == 2 ? part : 0)) * Cfg::kOperandFloats;
  };

  float acc[64], slab[64];
#pragma unroll
  for (int i = 0; i < 64; ++i) acc[i] = slab[i] = 0.0f;
  std::uint32_t a_big[kKSteps][4], a_small[kKSteps][4];

  // Slabs 0 .. kStages - 2 in flight; slab 0 rewritten; slab kStages - 1 in flight behind it.
  const std::int64_t slabs = ceil_div<std::int64_t>(op.k, Cfg::BK);
#pragma unroll
  for (int s = 0; s < Cfg::kStages - 1; ++s) {
    if (s < slabs) copy.issue(op, s, stage_a(s), stage_b(s));
    async_commit();
  }
  async_wait<Cfg::kStages - 2>();
  __syncthreads();
  rewrite_b_kmajor<Cfg, Products>(stage_b(0), operand(0, 0), operand(0, 1), warp, lane);
  load_a_split<Cfg, Products>(stage_a(0), wm, lane, a_big, a_small);
  if (Cfg::kStages - 1 < slabs) copy.issue(op, Cfg::kStages - 1, stage_a(Cfg::kStages - 1), stage_b(Cfg::kStages - 1));
  async_commit();
  fence_shared_for_async_proxy();
  __syncthreads();

  // Step s: the MMAs of slab s go out (operand buffer s % 2, A in registers); while they run, slab s + 1
  // (landed: kStages groups were committed before step 0, one per step since) is rewritten into the
  // other buffer, which the MMAs of slab s - 1 read and are done with (each warpgroup waited for them
  // before the barrier that ended step s - 1), and its A fragments split into registers; the copy of
  // slab s + kStages goes into the stage slab s came from (rewritten in step s - 1, before a barrier).
  for (std::int64_t s = 0; s < slabs; ++s) {
    const int buf = static_cast<int>(s & 1);
    wgmma_fence();
    if constexpr (Products::kPromotesPerSlab)
      wgmma_slab<Cfg, Products>(slab, a_big, a_small, operand(buf, 0), operand(buf, 1), true);
    else wgmma_slab<Cfg, Products>(acc, a_big, a_small, operand(buf, 0), operand(buf, 1), false);
    wgmma_commit();

    std::uint32_t next_big[kKSteps][4], next_small[kKSteps][4];
    const bool more = s + 1 < slabs;
    if (more) {
      async_wait<Cfg::kStages - 2>();
      __syncthreads();
      const int next_stage = static_cast<int>((s + 1) % Cfg::kStages), free_stage = static_cast<int>(s % Cfg::kStages);
      if (s + Cfg::kStages < slabs) copy.issue(op, s + Cfg::kStages, stage_a(free_stage), stage_b(free_stage));
      async_commit();
      rewrite_b_kmajor<Cfg, Products>(stage_b(next_stage), operand(buf ^ 1, 0), operand(buf ^ 1, 1), warp, lane);
      load_a_split<Cfg, Products>(stage_a(next_stage), wm, lane, next_big, next_small);
      fence_shared_for_async_proxy();
    }
    wgmma_wait<0>();
#pragma unroll
    for (int i = 0; i < 64; ++i) {
      pin_register(acc[i]);
      pin_register(slab[i]);
    }
    if constexpr (Products::kPromotesPerSlab) {
      // The tensor cores' accumulation truncates (11_tf32.cuh): the slab's sum is added in FP32.
#pragma unroll
      for (int i = 0; i < 64; ++i) acc[i] += slab[i];
    }
    if (more) {
#pragma unroll
      for (int kk = 0; kk < kKSteps; ++kk)
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          a_big[kk][e] = next_big[kk][e];
          a_small[kk][e] = next_small[kk][e];
        }
    }
    __syncthreads();
  }
  async_wait<0>();
  __syncthreads();  // every warp is done with the stages: the results take their place

  // Thread 4g + t of warp w in its warpgroup holds rows 16w + g (+ 8), columns 8j + 2t (+ 1).
  float* const ctile = smem;
  const int g = lane / 4, t = lane % 4;
#pragma unroll
  for (int j = 0; j < 16; ++j) {
    float* const at = ctile + (wm + g) * Cfg::kCStride + j * 8 + 2 * t;
    *reinterpret_cast<float2*>(at) = make_float2(acc[4 * j], acc[4 * j + 1]);
    *reinterpret_cast<float2*>(at + 8 * Cfg::kCStride) = make_float2(acc[4 * j + 2], acc[4 * j + 3]);
  }
  __syncthreads();
  tensor_core_tile_out<Cfg, Products>(op, ep, prefetched, ctile, row0, col0, tid);
}

//! The wgmma form's launcher: sm_90a code, so only for a compute capability 9.0 device (the caller,
//! rungs/tensor_core_forms.cu, checks; so does this).
template <class Products, class Cfg = WgmmaTensorCoreConfig>
Status launch_wgmma_tensor_core(const GemmCall& c) {
  constexpr int kSmem = Cfg::smem_bytes(Products::kTerms == 3 ? 2 : 1);
  const DeviceInfo* device = nullptr;
  GPUPRIMS_TRY(current_device_info(&device));
  if (device->cc_major != 9 || device->cc_minor != 0) return Status::unsupported;
  unsigned blocks = 0;
  GPUPRIMS_TRY(tile_grid(c, Cfg::BM, Cfg::BN, &blocks));
  Status st = Status::success;
  const Status launched = launch_by_vec_and_epilogue(c, [&](auto vec, auto visitor) {
    using V = typename decltype(visitor)::type;
    constexpr auto kernel = &wgmma_tensor_core_kernel<Cfg, Products, decltype(vec)::value, V>;
    st = allow_dynamic_smem<kernel>(*device, kSmem);
    if (st == Status::success) kernel<<<blocks, Cfg::kThreads, kSmem, c.stream>>>(c.op, epilogue_params<V>(c));
  });
  return st != Status::success ? st : launched;
}

}  // namespace gpuprims::detail
