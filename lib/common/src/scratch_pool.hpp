#pragma once
// Where the library's own scratch comes from (the forms of a call that take no workspace): a
// stream-ordered pool per device that the library creates and owns. The device's default pool
// returns its memory to the system at every synchronization (release threshold 0), so each call
// paid a fresh mapping: measured on an H100, 30 to 150 us per split-K SGEMM call, more than the
// GEMM itself on small shapes. This pool keeps up to kScratchPoolKeepBytes between calls, and the
// user's default pool is left as it is.
#include <cuda_runtime_api.h>

#include <cstddef>

namespace gpuprims::detail {

inline constexpr std::size_t kScratchPoolKeepBytes = std::size_t{256} << 20;

// The library's pool on `device`, created on first use; null where the device has no memory pools
// (StreamScratch then falls back to the default pool).
cudaMemPool_t scratch_pool(int device);

}  // namespace gpuprims::detail
