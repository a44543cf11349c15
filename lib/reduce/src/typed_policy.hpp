#pragma once
// The typed reductions' tuning, apart from the kernels. Elements of 4 and 8 bytes: 8 loads of 16 bytes
// in flight per thread and at most 4 blocks of 256 per SM, so each warp streams a contiguous 4 KiB
// chunk (device_reduce_plan.hpp's warp chunks) with the same 128 KiB in flight per SM as 8 blocks x 4
// loads. Measured on an H100 at 2^28 elements, against CUB: with the device template's default
// (4 loads, as many blocks as fit) the kernels whose registers allow 5 or 6 blocks per SM ran 0.3-0.8%
// behind (int64 argmin 0.992x, double min 0.997x); with 8 loads and 4 blocks per SM every 4- and
// 8-byte kernel probed ran 1.002x-1.017x. Two-byte elements keep the default (1.03x-1.10x already).
//
// The 8 loads were in the source, not all in the machine code: with no minimum of resident blocks in
// __launch_bounds__, ptxas (CUDA 13.0, sm_90) compiled the 4- and 8-byte kernels for up to 8 blocks
// an SM (32-64 registers) and, to fit, put the first use of a load before the last loads, so at most
// 3-6 of the 8 were in flight (scripts/sass_loads_in_flight.py): 48-96 KB an SM, not 128. A minimum
// of 2 blocks (up to 128 registers) let it issue all 8 first, at 64-94 registers; on an H200 at 2^28
// (run DC) the 32-bit integer sums, min and max then took 0.7-3.1% less time, the 32-bit integer arg
// and the 64-bit operators 0.5-0.8% less, but not double argmin / argmax: eight (key, index)
// accumulators kept the arg kernels at 2-3 blocks an SM. So where the accumulator is exact (every
// operator but the floating-point sums) the 8 loads go into 2 accumulators (the same bits whatever the
// grouping) and the minimum is the grid cap of 4: every such kernel then takes at most 64 registers
// and issues all 8 loads before the first use, except ArgMax<int64_t>: with 1, 2 or 4 accumulators
// and any minimum that leaves it 64 registers, ptxas issues at most 5 first, and with 2 it ran 0.7%
// slower than before (run DD). It and the double sum keep 8 accumulators (the double sum its grouping
// and error bound as they were) and the minimum of 2: all 8 loads first at 94 and 72 registers (2
// and 3 blocks). Two-byte elements issue all 4 loads either way, and a minimum would cost them blocks
// (44-58 registers against 32-48), so they keep none.
// Plain C++17: the tests read the same unroll for their error bound.
#include <gpuprims/device/device_reduce_plan.hpp>
#include <gpuprims/device/reduce_ops.hpp>

#include <cstdint>
#include <type_traits>

namespace gpuprims::reduce::detail {

template <class Op>
struct TypedPolicy : ::gpuprims::device::DeviceReducePolicy {
  static constexpr bool kWide = sizeof(typename Op::Input) >= 4;
  // An accumulator that is not a floating-point number (an integer sum, an order key, a key and an
  // index) combines exactly, so how the vectors are grouped into accumulators does not change a bit.
  static constexpr bool kExact = !std::is_floating_point_v<typename Op::Acc>;
  static constexpr int kUnroll = kWide ? 8 : 4;  // 16-byte loads in flight per thread
  static constexpr int kMaxBlocksPerSm =
      kWide ? 4 : 8;  // cap on the pass-1 grid per SM (8: every block of 256 that fits)
  // ptxas's exception (above): ArgMax<int64_t> issues at most 5 of its 8 loads first at 64 registers,
  // whatever the grouping, so it keeps the floating-point sums' form.
  static constexpr bool kTwoAccumulators =
      kWide && kExact && !std::is_same_v<Op, ::gpuprims::device::ArgMax<std::int64_t>>;
  static constexpr int kAccumulators = kTwoAccumulators ? 2 : kUnroll;
  static constexpr int kMinBlocksPerSm = !kWide             ? 0
                                         : kTwoAccumulators ? kMaxBlocksPerSm
                                                            : 2;  // __launch_bounds__ minimum (above)
  static_assert(kThreads >= 32 * kUnroll, "warp_chunk_vectors_bound's precondition");
};

}  // namespace gpuprims::reduce::detail
