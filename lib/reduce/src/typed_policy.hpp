#pragma once
// The typed reductions' tuning, apart from the kernels. Elements of 4 and 8 bytes: 8 loads of 16 bytes
// in flight per thread and at most 4 blocks of 256 per SM, so each warp streams a contiguous 4 KiB
// chunk (device_reduce_plan.hpp's warp chunks) with the same 128 KiB in flight per SM as 8 blocks x 4
// loads. Measured on an H100 at 2^28 elements, against CUB: with the device template's default
// (4 loads, as many blocks as fit) the kernels whose registers allow 5 or 6 blocks per SM ran 0.3-0.8%
// behind (int64 argmin 0.992x, double min 0.997x); with 8 loads and 4 blocks per SM every 4- and
// 8-byte kernel probed ran 1.002x-1.017x. Two-byte elements keep the default (1.03x-1.10x already).
// Plain C++17: the tests read the same unroll for their error bound.
#include <gpuprims/device/device_reduce_plan.hpp>

namespace gpuprims::reduce::detail {

template <class Op>
struct TypedPolicy : ::gpuprims::device::DeviceReducePolicy {
  static constexpr bool kWide = sizeof(typename Op::Input) >= 4;
  static constexpr int kUnroll = kWide ? 8 : 4;  // 16-byte loads in flight per thread
  static constexpr int kMaxBlocksPerSm =
      kWide ? 4 : 8;  // cap on the pass-1 grid per SM (8: every block of 256 that fits)
  static_assert(kThreads >= 32 * kUnroll, "warp_chunk_vectors_bound's precondition");
};

}  // namespace gpuprims::reduce::detail
