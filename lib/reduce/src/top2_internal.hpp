#pragma once
// Host entries shared by the top-2 paths: {missing, missing} when there are no entries at all, and
// the two ends of the atomic grid merge (top2_atomic.cuh) around the kernel that pushes into it.
#include <cuda_runtime_api.h>

#include <cstdint>

#include <gpuprims/status.hpp>
#include <gpuprims/top2.hpp>

namespace gpuprims::detail {

Status write_empty_top2(Top2* d_out, cudaStream_t stream);

// Sets the two words at `words` to empty (stream-ordered).
Status top2_atomic_begin(unsigned long long* words, cudaStream_t stream);
// After the pushing kernel: the words as the public result; cols turns linear indices into (row, col).
Status top2_atomic_end(const unsigned long long* words, Top2* d_out, std::int64_t cols, cudaStream_t stream);

}  // namespace gpuprims::detail
