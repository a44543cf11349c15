#pragma once
// Rung 12, three TF32 products (3xTF32): rung 11's kernel, with each operand x split into a TF32 "big"
// part and the TF32 rounding of its remainder, x = big + small + O(2^-22 x); big*big + big*small +
// small*big (small terms first) drops only small*small and the remainders' rounding. The tensor cores
// sum one slab at a time and slabs add up in FP32, so the error stays in FP32's class
// (docs/ERROR-BOUNDS.md) at three tensor-core products per product. NaN results are recomputed in FP32
// (recompute_nan), so inf and NaN inputs come out as in the FP32 rungs.
#include <cstdint>

#include "gemm/src/kernels/11_tf32.cuh"

namespace gpuprims::detail {

struct ThreeTf32Products {
  static constexpr int kParts = 2;  // big and small (the wgmma form's packing pass)
  static constexpr bool kRecomputesNaN = true;
  static constexpr bool kPromotesPerSlab = true;  // FP32-class accumulation over long k (11_tf32.cuh)

  // x (raw float bits) as big + small, both TF32 (here per fragment; the wgmma form's packing pass
  // calls it once per element).
  __device__ __forceinline__ static void split(std::uint32_t x, std::uint32_t& big, std::uint32_t& small) {
    big = round_to_tf32(__uint_as_float(x));
    small = round_to_tf32(__uint_as_float(x) - __uint_as_float(big));
  }

  template <int kTilesM, int kTilesN>
  __device__ __forceinline__ static void mma(float (&acc)[kTilesM][kTilesN][4], const std::uint32_t (&a)[kTilesM][4],
                                             const std::uint32_t (&b)[kTilesN][2]) {
    std::uint32_t b_big[kTilesN][2], b_small[kTilesN][2];
#pragma unroll
    for (int j = 0; j < kTilesN; ++j)
#pragma unroll
      for (int e = 0; e < 2; ++e) split(b[j][e], b_big[j][e], b_small[j][e]);
#pragma unroll
    for (int i = 0; i < kTilesM; ++i) {
      std::uint32_t a_big[4], a_small[4];
#pragma unroll
      for (int e = 0; e < 4; ++e) split(a[i][e], a_big[e], a_small[e]);
#pragma unroll
      for (int j = 0; j < kTilesN; ++j) {
        mma_tf32(acc[i][j], a_small, b_big[j]);
        mma_tf32(acc[i][j], a_big, b_small[j]);
        mma_tf32(acc[i][j], a_big, b_big[j]);
      }
    }
  }
};

}  // namespace gpuprims::detail
