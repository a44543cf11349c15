#pragma once
// Rung 11, tensor cores (TF32): the products move from FFMA to mma.sync m16n8k8, whose TF32 inputs keep
// 10 of float's 23 mantissa bits, so results are lossy (docs/ERROR-BOUNDS.md). Slabs come in by
// cp.async, three stages deep, so no register holds them on the way. A policy (`Products`) says how
// fragments become MMAs: here each operand is rounded to TF32 once; rung 12 (12_tf32x3.cuh) splits
// them and recovers FP32 accuracy with the same kernel.
#include <atomic>
#include <cstdint>

#include "common/src/device_info.hpp"
#include "gemm/src/detail/k_range.cuh"
#include "gemm/src/detail/launch.cuh"
#include "gemm/src/detail/tensor_core_ptx.cuh"
#include "gemm/src/detail/tile_load.cuh"
#include "gemm/src/epilogue/epilogue.cuh"
#include "gemm/src/tuning.hpp"

namespace gpuprims::detail {

// One TF32 product per MMA tile: each fragment element rounded to nearest TF32.
struct OneTf32Product {
  static constexpr int kParts = 1;  // TF32 parts per operand (the wgmma form's packing pass)
  static constexpr bool kRecomputesNaN = false;
  static constexpr bool kPromotesPerSlab = false;  // the operands' rounding dominates the error anyway

  template <int kTilesM, int kTilesN>
  __device__ __forceinline__ static void mma(float (&acc)[kTilesM][kTilesN][4], const std::uint32_t (&a)[kTilesM][4],
                                             const std::uint32_t (&b)[kTilesN][2]) {
    std::uint32_t bt[kTilesN][2];
#pragma unroll
    for (int j = 0; j < kTilesN; ++j)
#pragma unroll
      for (int e = 0; e < 2; ++e) bt[j][e] = round_to_tf32(__uint_as_float(b[j][e]));
#pragma unroll
    for (int i = 0; i < kTilesM; ++i) {
      std::uint32_t at[4];
#pragma unroll
      for (int e = 0; e < 4; ++e) at[e] = round_to_tf32(__uint_as_float(a[i][e]));
#pragma unroll
      for (int j = 0; j < kTilesN; ++j) mma_tf32(acc[i][j], at, bt[j]);
    }
  }
};

// Copies one slab of A (BM x BK) and B (BK x BN) into a shared-memory stage with cp.async. Elements
// outside the matrices (edge rows and columns, the k tail) are zero-filled, so the MMAs need no edge
// code. kVec: 16-byte copies (A and B 16-byte aligned, lda and ldb multiples of 4); otherwise one
// 4-byte copy per element.
template <class Cfg, bool kVec>
class TensorCoreSlabCopy {
  static constexpr int kAChunksPerRow = Cfg::BK / 4, kBChunksPerRow = Cfg::BN / 4;
  static constexpr int kARowStep = Cfg::kThreads / kAChunksPerRow, kBRowStep = Cfg::kThreads / kBChunksPerRow;
  static constexpr int kAChunks = Cfg::BM / kARowStep, kBChunks = Cfg::BK / kBRowStep;
  static_assert(Cfg::kThreads % kAChunksPerRow == 0 && Cfg::kThreads % kBChunksPerRow == 0, "fixed column");

 public:
  __device__ TensorCoreSlabCopy(const GemmOperands& op, std::int64_t row0, std::int64_t col0, int tid)
      : a_row_(tid / kAChunksPerRow),
        a_k_((tid % kAChunksPerRow) * 4),
        b_row_(tid / kBChunksPerRow),
        b_col_((tid % kBChunksPerRow) * 4) {
    a_ = op.A + (row0 + a_row_) * op.lda + a_k_;
    b_ = op.B + static_cast<std::int64_t>(b_row_) * op.ldb + col0 + b_col_;
    a_rows_ = 0;
#pragma unroll
    for (int i = 0; i < kAChunks; ++i) a_rows_ |= (row0 + a_row_ + i * kARowStep < op.m ? 1u : 0u) << i;
    b_cols_ = valid_in_vec4(op.n - (col0 + b_col_));
  }

  // Slab `slab` (k from slab * BK) into stage (As, Bs).
  __device__ __forceinline__ void issue(const GemmOperands& op, std::int64_t slab, float* As, float* Bs) const {
    const std::int64_t k0 = slab * Cfg::BK;
    const int a_valid = valid_in_vec4(op.k - (k0 + a_k_));
#pragma unroll
    for (int i = 0; i < kAChunks; ++i) {
      const int valid = ((a_rows_ >> i) & 1u) ? a_valid : 0;
      copy4(&As[(a_row_ + i * kARowStep) * Cfg::kAStride + a_k_], a_ + i * kARowStep * op.lda + k0, valid, op.A);
    }
#pragma unroll
    for (int i = 0; i < kBChunks; ++i) {
      const std::int64_t k_row = k0 + b_row_ + i * kBRowStep;
      const int valid = k_row < op.k ? b_cols_ : 0;
      copy4(&Bs[(b_row_ + i * kBRowStep) * Cfg::kBStride + b_col_], b_ + (k0 + i * kBRowStep) * op.ldb, valid, op.B);
    }
  }

 private:
  // Four consecutive floats at src, of which the first `valid` exist, into dst (16-byte aligned).
  // A copy that reads nothing still names a valid address: `base`, the matrix's first element.
  __device__ __forceinline__ static void copy4(float* dst, const float* src, int valid, const float* base) {
    if constexpr (kVec) {
      copy16_async(dst, valid > 0 ? src : base, valid * 4);
    } else {
#pragma unroll
      for (int e = 0; e < 4; ++e) copy4_async(dst + e, valid > e ? src + e : base, valid > e);
    }
  }

  int a_row_, a_k_, b_row_, b_col_;
  const float* a_;
  const float* b_;
  unsigned a_rows_;
  int b_cols_;
};

// The MMAs of one slab (stage As, Bs) for the warp tile at (wm, wn): per k8 step, the A fragments of
// the warp's kTilesM row tiles by ldmatrix, the B fragments of its kTilesN column tiles by plain
// reads (B is k-major in shared memory, which ldmatrix cannot transpose at 32 bits), then Products.
template <class Cfg, class Products>
__device__ __forceinline__ void tensor_core_slab(const float* As, const float* Bs, int wm, int wn, int lane,
                                                 float (&acc)[Cfg::kTilesM][Cfg::kTilesN][4]) {
  const int g = lane / 4, t = lane % 4;
  // ldmatrix row address of this lane: matrix lane / 8 is rows (lane / 8 & 1) * 8.. of k (lane / 16) * 4..
  const float* const a_lane = As + (wm + (lane % 8) + ((lane / 8) & 1) * 8) * Cfg::kAStride + (lane / 16) * 4;
  const float* const b_lane = Bs + t * Cfg::kBStride + wn + g;
#pragma unroll
  for (int kk = 0; kk < Cfg::BK; kk += 8) {
    std::uint32_t a[Cfg::kTilesM][4];
    std::uint32_t b[Cfg::kTilesN][2];
#pragma unroll
    for (int i = 0; i < Cfg::kTilesM; ++i) load_matrix_x4(a[i], a_lane + i * 16 * Cfg::kAStride + kk);
#pragma unroll
    for (int j = 0; j < Cfg::kTilesN; ++j) {
      b[j][0] = __float_as_uint(b_lane[kk * Cfg::kBStride + j * 8]);
      b[j][1] = __float_as_uint(b_lane[(kk + 4) * Cfg::kBStride + j * 8]);
    }
    Products::mma(acc, a, b);
  }
}

// A NaN result of a split product may be an artefact of the split (an infinite operand times a zero
// remainder, or a value near FLT_MAX whose TF32 rounding overflowed): the entry is computed again in
// FP32, one fused multiply-add per k in order, so inf and NaN come out as the FP32 rungs give them.
// Finite inputs whose FP32 result is finite never produce a NaN here, so this runs only on data that
// has non-finite values or overflows.
__device__ __noinline__ inline float fp32_dot(const GemmOperands& op, std::int64_t r, std::int64_t c) {
  float s = 0.0f;
  for (std::int64_t p = 0; p < op.k; ++p) s = fmaf(op.A[r * op.lda + p], op.B[p * op.ldb + c], s);
  return s;
}

// The result at (r, c), computed again in FP32 when it is a NaN inside the output.
__device__ __forceinline__ float recompute_nan(const GemmOperands& op, std::int64_t r, std::int64_t c, float v) {
  return (isnan(v) && r < op.m && c < op.n) ? fp32_dot(op, r, c) : v;
}

// Whether any of a thread's results is a NaN: one test for all of them, in two independent chains.
template <int kCount>
__device__ __forceinline__ bool any_nan(const float (&v)[kCount]) {
  static_assert(kCount % 2 == 0, "pairs of results");
  bool even = false, odd = false;
#pragma unroll
  for (int e = 0; e < kCount; e += 2) {
    even |= isnan(v[e]);
    odd |= isnan(v[e + 1]);
  }
  return even | odd;
}

// Four results of row r (columns c to c + 3), with one test on the common path, no NaN (the mma.sync
// form's tiles; the wgmma form tests a whole tile at once with any_nan). Written out, not as four
// calls of the one-result form above: when the wgmma form used it, the bounds checks (64-bit compares)
// per result were a tenth of its epilogue, and with those calls its fused top-2 at 16384^2 x 64
// (tf32x3, C not stored) took 0.60 ms against 0.535 (H100, both builds in one session).
__device__ __forceinline__ void recompute_nan(const GemmOperands& op, std::int64_t r, std::int64_t c, float4& v) {
  if (!(isnan(v.x) | isnan(v.y) | isnan(v.z) | isnan(v.w)) || r >= op.m) return;
  if (isnan(v.x) && c < op.n) v.x = fp32_dot(op, r, c);
  if (isnan(v.y) && c + 1 < op.n) v.y = fp32_dot(op, r, c + 1);
  if (isnan(v.z) && c + 2 < op.n) v.z = fp32_dot(op, r, c + 2);
  if (isnan(v.w) && c + 3 < op.n) v.w = fp32_dot(op, r, c + 3);
}

// The block's BM x BN results, gathered in shared memory (ctile, rows kCStride floats apart), through
// the epilogue in whole 16-byte row pieces. (The persistent wgmma form, tensor_core_wgmma.cuh, sends
// its results out from registers instead: shared memory holds its next tile's slabs by then.)
template <class Cfg, class Products, class Visitor>
__device__ __forceinline__ void tensor_core_tile_out(const GemmOperands& op, const EpilogueParams<Visitor>& ep,
                                                     float prefetched, const float* ctile, std::int64_t row0,
                                                     std::int64_t col0, int tid) {
  Epilogue<Visitor> epi(ep, prefetched);
  constexpr int kVecsPerRow = Cfg::BN / 4, kVecsPerThread = Cfg::BM * kVecsPerRow / Cfg::kThreads;
  static_assert(Cfg::BM * kVecsPerRow % Cfg::kThreads == 0, "whole rows of vectors per pass");
  const auto result = [&](int v, std::int64_t* r, std::int64_t* c) {
    const int idx = tid + v * Cfg::kThreads;
    *r = row0 + idx / kVecsPerRow;
    *c = col0 + (idx % kVecsPerRow) * 4;
    float4 x = *reinterpret_cast<const float4*>(ctile + (idx / kVecsPerRow) * Cfg::kCStride + (idx % kVecsPerRow) * 4);
    if constexpr (Products::kRecomputesNaN) recompute_nan(op, *r, *c, x);
    return x;
  };
  if (epi.interior(row0, col0, Cfg::BM, Cfg::BN)) {
    epi.with_interior_form([&](auto store, auto beta) {
#pragma unroll 4
      for (int v = 0; v < kVecsPerThread; ++v) {
        std::int64_t r = 0, c = 0;
        const float4 x = result(v, &r, &c);
        epi.apply4_vec(r, c, x, decltype(store)::value, decltype(beta)::value);
      }
    });
  } else {
#pragma unroll 4
    for (int v = 0; v < kVecsPerThread; ++v) {
      std::int64_t r = 0, c = 0;
      const float4 x = result(v, &r, &c);
      epi.apply4(r, c, x);
    }
  }
  epi.template finish<Cfg::kThreads>(tid);
}

template <class Cfg, class Products, bool kVec, class Visitor>
__global__ void __launch_bounds__(Cfg::kThreads, Cfg::kMinBlocksPerSm)
    tensor_core_kernel(GemmOperands op, EpilogueParams<Visitor> ep) {
  // A split-K plan: this block row's k range and partial (k_range.cuh). No early
  // allow_dependent_launch here: letting the split-K reduction's blocks in at kernel start slowed the
  // small split plans (H100, session 20: tf32x3 at 512^3 in 8 splits 0.0169 -> 0.0177-0.0182 ms, tf32
  // 0.0134 -> 0.0142, over three runs); the reduction still follows as a dependent launch.
  take_k_range(op, ep.out);
  extern __shared__ float4 smem_f4[];  // Cfg::kSmemBytes, set at launch
  float* const smem = reinterpret_cast<float*>(smem_f4);
  const TileCoord tile = tile_coord(blockIdx.x, ceil_div<std::int64_t>(op.m, Cfg::BM),
                                    ceil_div<std::int64_t>(op.n, Cfg::BN), Cfg::kGroupM);
  const std::int64_t row0 = tile.tm * Cfg::BM, col0 = tile.tn * Cfg::BN;
  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const int wm = (warp / Cfg::kWarpsN) * Cfg::WM, wn = (warp % Cfg::kWarpsN) * Cfg::WN;

  const float prefetched = Epilogue<Visitor>::prefetch(ep);
  using Acc = float[Cfg::kTilesM][Cfg::kTilesN][4];
  Acc acc = {};
  const TensorCoreSlabCopy<Cfg, kVec> copy(op, row0, col0, tid);
  const auto stage_a = [&](int s) { return smem + s * Cfg::kStageFloats; };
  const auto stage_b = [&](int s) { return smem + s * Cfg::kStageFloats + Cfg::BM * Cfg::kAStride; };

  // kStages - 1 slabs in flight before the first is read; then each step waits for the oldest, issues
  // the slab kStages - 1 ahead into the stage read one step ago (every warp is past the barrier, so
  // done with it), and runs the MMAs of the oldest. Groups are committed even when empty, so the wait
  // count stays the same to the end.
  const std::int64_t slabs = ceil_div<std::int64_t>(op.k, Cfg::BK);
#pragma unroll
  for (int s = 0; s < Cfg::kStages - 1; ++s) {
    if (s < slabs) copy.issue(op, s, stage_a(s), stage_b(s));
    async_commit();
  }
  int read_stage = 0, write_stage = Cfg::kStages - 1;
  for (std::int64_t s = 0; s < slabs; ++s) {
    async_wait<Cfg::kStages - 2>();
    __syncthreads();
    if (s + Cfg::kStages - 1 < slabs) copy.issue(op, s + Cfg::kStages - 1, stage_a(write_stage), stage_b(write_stage));
    async_commit();
    if constexpr (Products::kPromotesPerSlab) {
      // The tensor cores' FP32 accumulation does not round to nearest (it aligns and truncates), and
      // over a long k its error grows far past FP32's: the MMAs sum only one slab, which is then added
      // to acc by ordinary (round-to-nearest) FP32 adds.
      Acc slab = {};
      tensor_core_slab<Cfg, Products>(stage_a(read_stage), stage_b(read_stage), wm, wn, lane, slab);
#pragma unroll
      for (int i = 0; i < Cfg::kTilesM; ++i)
#pragma unroll
        for (int j = 0; j < Cfg::kTilesN; ++j)
#pragma unroll
          for (int e = 0; e < 4; ++e) acc[i][j][e] += slab[i][j][e];
    } else {
      tensor_core_slab<Cfg, Products>(stage_a(read_stage), stage_b(read_stage), wm, wn, lane, acc);
    }
    read_stage = read_stage + 1 == Cfg::kStages ? 0 : read_stage + 1;
    write_stage = write_stage + 1 == Cfg::kStages ? 0 : write_stage + 1;
  }
  async_wait<0>();
  __syncthreads();  // every warp is done with the stages: the results take their place

  // The results through shared memory, so they leave as whole 16-byte row pieces.
  float* const ctile = smem;
  const int g = lane / 4, t = lane % 4;
#pragma unroll
  for (int i = 0; i < Cfg::kTilesM; ++i)
#pragma unroll
    for (int j = 0; j < Cfg::kTilesN; ++j) {
      float* const at = ctile + (wm + i * 16 + g) * Cfg::kCStride + wn + j * 8 + 2 * t;
      *reinterpret_cast<float2*>(at) = make_float2(acc[i][j][0], acc[i][j][1]);
      *reinterpret_cast<float2*>(at + 8 * Cfg::kCStride) = make_float2(acc[i][j][2], acc[i][j][3]);
    }
  __syncthreads();
  tensor_core_tile_out<Cfg, Products>(op, ep, prefetched, ctile, row0, col0, tid);
}

// Raises kKernel's dynamic shared-memory limit to `bytes` (above the default 48 KB) on `device`, once
// per device.
template <auto kKernel>
Status allow_dynamic_smem(const DeviceInfo& device, int bytes) {
  static std::atomic<std::uint64_t> done{0};  // bit d: device d has it (one flag set per kernel)
  const std::uint64_t bit = device.ordinal < 64 ? std::uint64_t{1} << device.ordinal : 0;
  if (bit != 0 && (done.load(std::memory_order_relaxed) & bit) != 0) return Status::success;
  GPUPRIMS_CUDA_TRY(cudaFuncSetAttribute(kKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  done.fetch_or(bit, std::memory_order_relaxed);
  return Status::success;
}

template <class Cfg, class Products>
Status launch_tensor_core(const GemmCall& c) {
  const DeviceInfo* device = nullptr;
  GPUPRIMS_TRY(current_device_info(&device));
  if (device->cc_major < 8) return Status::unsupported;  // no TF32 MMAs below compute capability 8.0
  unsigned blocks = 0;
  GPUPRIMS_TRY(tile_grid(c, Cfg::BM, Cfg::BN, &blocks));
  Status st = Status::success;
  const Status launched = launch_by_vec_and_epilogue(c, [&](auto vec, auto visitor) {
    using V = typename decltype(visitor)::type;
    constexpr auto kernel = &tensor_core_kernel<Cfg, Products, decltype(vec)::value, V>;
    st = allow_dynamic_smem<kernel>(*device, Cfg::kSmemBytes);
    if (st == Status::success)
      kernel<<<dim3(blocks, c.splits), Cfg::kThreads, Cfg::kSmemBytes, c.stream>>>(c.op, epilogue_params<V>(c));
  });
  return st != Status::success ? st : launched;
}

}  // namespace gpuprims::detail
