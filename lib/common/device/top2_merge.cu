// The host steps of the grid-level top-2 merges (top2_atomic_merge.cuh, top2_last_block_merge.cuh)
// and the result of a top-2 over no entries at all: written once, here, for reduce and gemm alike.
#include <gpuprims/device/dependent_launch.cuh>

#include "common/device/top2_atomic_merge.cuh"
#include "common/device/top2_last_block_merge.cuh"
#include "common/device/top2_result.hpp"
#include "common/src/cuda_check.hpp"
#include "common/src/math.hpp"

namespace gpuprims::detail {
namespace {

__global__ void top2_write_empty_kernel(Top2* out) { *out = to_top2(Top2Partial::empty(), 1); }

// The end of a many-wave grid's last-block merge (Top2LastBlockMerge::end): kEndBlocks blocks each
// merge one chunk of the partials and write the result over the chunk's first partial (no other block
// reads that chunk), then one block merges those. One block of 1024 threads reading all 524288
// partials of a 65536^2 output on 64 x 128 tiles took 173 us (H200, session 53, run GZ): one SM's
// bandwidth.
constexpr int kEndBlocks = 256;
constexpr int kEndThreads = 256;

__device__ std::int64_t end_chunk(std::int64_t blocks) { return (blocks + kEndBlocks - 1) / kEndBlocks; }

__global__ void __launch_bounds__(kEndThreads) top2_partials_chunk_kernel(Top2LastBlockMerge::Args args) {
  const std::int64_t blocks = *args.blocks, chunk = end_chunk(blocks);
  const std::int64_t first = static_cast<std::int64_t>(blockIdx.x) * chunk;
  if (first >= blocks) return;
  const int tid = static_cast<int>(threadIdx.x);
  Top2Partial acc = top2_merge_partials<kEndThreads>(args.partials + first, min_of(chunk, blocks - first), tid);
  acc = block_reduce<kEndThreads>(acc, Top2Merge{}, tid);
  if (tid == 0) args.partials[first] = acc;  // block_reduce's barriers: every read of the chunk is done
}

__global__ void __launch_bounds__(kEndThreads) top2_partials_final_kernel(Top2LastBlockMerge::Args args, Top2* out) {
  const std::int64_t blocks = *args.blocks, chunk = end_chunk(blocks);
  const int tid = static_cast<int>(threadIdx.x);
  Top2Partial acc = Top2Partial::empty();
  for (std::int64_t g = tid; g * chunk < blocks; g += kEndThreads)
    acc = Top2Merge{}(acc, load_partial_cg(&args.partials[g * chunk]));
  acc = block_reduce<kEndThreads>(acc, Top2Merge{}, tid);
  if (tid == 0) *out = to_top2(acc, args.cols);
}

__global__ void top2_atomic_end_kernel(const unsigned long long* words, Top2* out, std::int64_t cols) {
  ::gpuprims::device::wait_for_prerequisite_grid();  // launched as the pushing kernel's dependent, or plainly
  top2_atomic_write_result(PackedTop2{__ldcg(words), __ldcg(words + 1)}, cols, out);
}

}  // namespace

Status Top2AtomicMerge::begin(void* workspace, Top2* d_out, std::int64_t cols, bool in_kernel, bool reset,
                              cudaStream_t stream, Args* args) {
  *args = Args{static_cast<unsigned long long*>(workspace), in_kernel ? d_out : nullptr, cols};
  if (reset)
    GPUPRIMS_CUDA_TRY(cudaMemsetAsync(workspace, 0xff, workspace_bytes(), stream));  // ~0: empty, no block done
  return Status::success;
}

Status Top2AtomicMerge::end(const Args& args, Top2* d_out, bool as_dependent, cudaStream_t stream) {
  if (args.out != nullptr) return Status::success;  // the kernel's last block wrote it
  GPUPRIMS_CUDA_TRY(::gpuprims::device::launch_maybe_dependent(&top2_atomic_end_kernel, dim3(1), dim3(1), stream,
                                                               as_dependent, args.words, d_out, args.cols));
  GPUPRIMS_LAUNCH_CHECK();
  return Status::success;
}

Status Top2LastBlockMerge::begin(void* workspace, Top2* d_out, std::int64_t cols, cudaStream_t stream, Args* args,
                                 bool in_kernel) {
  auto* const base = static_cast<unsigned char*>(workspace);
  *args = Args{reinterpret_cast<Top2Partial*>(base + kPartialsOffset),
               reinterpret_cast<unsigned int*>(base),
               reinterpret_cast<unsigned int*>(base + kBoundOffset),
               reinterpret_cast<std::int64_t*>(base + kBlocksOffset),
               in_kernel ? d_out : nullptr,
               cols};
  static_assert(kBoundOffset == sizeof(unsigned int), "one memset sets the counter and the bound");
  GPUPRIMS_CUDA_TRY(cudaMemsetAsync(base, 0, 2 * sizeof(unsigned int), stream));
  return Status::success;
}

Status Top2LastBlockMerge::end(const Args& args, Top2* d_out, cudaStream_t stream) {
  if (args.out != nullptr) return Status::success;  // the kernel's last block wrote it
  top2_partials_chunk_kernel<<<kEndBlocks, kEndThreads, 0, stream>>>(args);
  GPUPRIMS_LAUNCH_CHECK();
  top2_partials_final_kernel<<<1, kEndThreads, 0, stream>>>(args, d_out);
  GPUPRIMS_LAUNCH_CHECK();
  return Status::success;
}

Status write_empty_top2(Top2* d_out, cudaStream_t stream) {
  top2_write_empty_kernel<<<1, 1, 0, stream>>>(d_out);
  GPUPRIMS_LAUNCH_CHECK();
  return Status::success;
}

}  // namespace gpuprims::detail
