#pragma once
// The typed reductions' driver (gpuprims/reduce_typed.hpp): checks, the per-device grid (SM count x
// the pass-1 kernel's occupancy, measured once per device and operator), and the launches of the
// public device template (gpuprims/device/device_reduce.cuh) with the operator's TypedPolicy
// (typed_policy.hpp). The entry points in typed_reduce*.cu instantiate it per operator and type.
#include <gpuprims/device/device_reduce.cuh>
#include <gpuprims/device/reduce_ops.hpp>
#include <gpuprims/reduce.hpp>

#include <cuda_runtime.h>

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "common/src/cuda_check.hpp"
#include "common/src/device_buffer.hpp"
#include "common/src/device_info.hpp"
#include "reduce/src/typed_policy.hpp"

namespace gpuprims::reduce::detail {

// Blocks of Op's pass-1 kernel for the current device: as many as it holds at once, at most
// TypedPolicy's kMaxBlocksPerSm per SM; cached per (device, Op).
template <class Op>
Status typed_resident_blocks(const ::gpuprims::detail::DeviceInfo& dev, std::int64_t* out) {
  constexpr int kMaxCachedDevices = 64;
  static std::atomic<int> per_sm_cache[kMaxCachedDevices];
  const bool cacheable = dev.ordinal >= 0 && dev.ordinal < kMaxCachedDevices;
  int per_sm = cacheable ? per_sm_cache[dev.ordinal].load(std::memory_order_relaxed) : 0;
  if (per_sm <= 0) {
    using Policy = TypedPolicy<Op>;
    GPUPRIMS_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, ::gpuprims::device::reduce_partials_kernel<Op, Policy>, Policy::kThreads, 0));
    if (per_sm < 1) per_sm = 1;
    if (per_sm > Policy::kMaxBlocksPerSm) per_sm = Policy::kMaxBlocksPerSm;
    if (cacheable) per_sm_cache[dev.ordinal].store(per_sm, std::memory_order_relaxed);
  }
  *out = static_cast<std::int64_t>(dev.sm_count) * per_sm;
  return Status::success;
}

// Explicit-workspace form: every check, then the device, then the launches.
template <class Op>
Status run_typed(const typename Op::Input* d_in, std::int64_t n, typename Op::Output* d_out, void* d_workspace,
                 std::size_t workspace_size, cudaStream_t stream) {
  using Policy = TypedPolicy<Op>;
  const Status valid = ::gpuprims::device::reduce_validate<Op, Policy>(d_in, n, d_out, d_workspace, workspace_size);
  if (valid != Status::success) return valid;
  const ::gpuprims::detail::DeviceInfo* dev = nullptr;
  GPUPRIMS_TRY(::gpuprims::detail::current_device_info(&dev));
  std::int64_t resident = 0;
  GPUPRIMS_TRY(typed_resident_blocks<Op>(*dev, &resident));
  return ::gpuprims::device::reduce_on_grid<Op, Policy>(d_in, n, d_out, d_workspace, workspace_size, resident, stream,
                                                        Op{}, dev->dependent_launch);
}

// Stream-ordered form: the data checks, a device, then exactly the workspace from the scratch pool.
template <class Op>
Status run_typed_scratch(const typename Op::Input* d_in, std::int64_t n, typename Op::Output* d_out,
                         cudaStream_t stream) {
  GPUPRIMS_TRY(::gpuprims::device::reduce_validate_args<Op>(d_in, n, d_out));
  GPUPRIMS_TRY(::gpuprims::detail::require_device());
  const std::size_t needed = ::gpuprims::device::reduce_workspace_bytes<Op, TypedPolicy<Op>>(n);
  ::gpuprims::detail::StreamScratch scratch(stream);
  GPUPRIMS_TRY(scratch.allocate(needed));
  return run_typed<Op>(d_in, n, d_out, scratch.get(), needed, stream);
}

}  // namespace gpuprims::reduce::detail

// Explicit instantiations of one entry point's two forms for one type. NAME is the function, OUT its
// output type for element type T.
#define GPUPRIMS_INSTANTIATE_TYPED(NAME, T, OUT)                                                           \
  template GPUPRIMS_API Status NAME<T, 0>(const T*, std::int64_t, OUT*, void*, std::size_t, cudaStream_t); \
  template GPUPRIMS_API Status NAME<T, 0>(const T*, std::int64_t, OUT*, cudaStream_t);
