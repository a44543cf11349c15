#pragma once
// Shared-memory layout of the transposed A tile (As[k][m], BK rows of BM floats). Threads store A
// transposed one float at a time: a warp writes 128/BK consecutive m for each of the BK/4 groups of
// four k, and with a plain layout those groups land in the same banks. XOR-ing the float4 column
// index (m / 4) with a function of k spreads them over all 32 banks, while every aligned float4 along m
// stays contiguous, so the compute loop still reads As with 16-byte loads. Host and device (tested on
// the CPU: a bijection, and conflict-free for the store pattern).
#include "common/src/host_device.hpp"

namespace gpuprims::detail {

template <int BM, int BK>
struct SwizzledATile {
  static_assert(BM % 32 == 0, "XOR stays inside an aligned group of 8 float4 columns");
  static_assert(BK == 8 || BK == 16 || BK == 32, "one xor pattern per k group");
  static constexpr int kFloats = BM * BK;

  GPUPRIMS_HD static constexpr int xor_of(int k) { return ((k >> 2) * (32 / BK)) & 7; }
  // Offset of element (k, m) in floats.
  GPUPRIMS_HD static constexpr int offset(int k, int m) { return k * BM + ((((m >> 2) ^ xor_of(k))) << 2) + (m & 3); }

  // The same offset split for the compute loop, for m = base + 16 * s + 4 * t with base % 32 == 0 and
  // 0 <= t < 4: the xor's high bit only swaps sub-tile pairs (s ^ 1), which the unrolled loop folds
  // into an immediate (fixed_part), and its low bits act on t alone, so a thread needs one register
  // per distinct lane_xor (lane_part) instead of recomputing swizzled addresses every slab.
  GPUPRIMS_HD static constexpr int fixed_part(int k, int s) {
    return k * BM + 32 * (s >> 1) + 16 * ((s & 1) ^ (xor_of(k) >> 2));
  }
  GPUPRIMS_HD static constexpr int lane_xor(int k) { return xor_of(k) & 3; }
  GPUPRIMS_HD static constexpr int lane_part(int base, int t, int lane_xor_bits) {
    return base + 4 * (t ^ lane_xor_bits);
  }
};

// The plain transposed layout of the rung below (bank conflicts on the transposing store).
template <int BM, int BK>
struct PlainATile {
  static constexpr int kFloats = BM * BK;
  GPUPRIMS_HD static constexpr int offset(int k, int m) { return k * BM + m; }
};

}  // namespace gpuprims::detail
