// The host steps of the grid-level top-2 merges (top2_atomic_merge.cuh, top2_last_block_merge.cuh)
// and the result of a top-2 over no entries at all: written once, here, for reduce and gemm alike.
#include "common/device/top2_atomic_merge.cuh"
#include "common/device/top2_last_block_merge.cuh"
#include "common/device/top2_result.hpp"
#include "common/src/cuda_check.hpp"

namespace gpuprims::detail {
namespace {

__global__ void top2_write_empty_kernel(Top2* out) { *out = to_top2(Top2Partial::empty(), 1); }

__global__ void top2_atomic_end_kernel(const unsigned long long* words, Top2* out, std::int64_t cols) {
  top2_atomic_write_result(PackedTop2{words[0], words[1]}, cols, out);
}

}  // namespace

Status Top2AtomicMerge::begin(void* workspace, Top2* d_out, std::int64_t cols, bool in_kernel, bool reset,
                              cudaStream_t stream, Args* args) {
  *args = Args{static_cast<unsigned long long*>(workspace), in_kernel ? d_out : nullptr, cols};
  if (reset)
    GPUPRIMS_CUDA_TRY(cudaMemsetAsync(workspace, 0xff, workspace_bytes(), stream));  // ~0: empty, no block done
  return Status::success;
}

Status Top2AtomicMerge::end(const Args& args, Top2* d_out, cudaStream_t stream) {
  if (args.out != nullptr) return Status::success;  // the kernel's last block wrote it
  top2_atomic_end_kernel<<<1, 1, 0, stream>>>(args.words, d_out, args.cols);
  GPUPRIMS_LAUNCH_CHECK();
  return Status::success;
}

Status Top2LastBlockMerge::begin(void* workspace, Top2* d_out, std::int64_t cols, cudaStream_t stream, Args* args) {
  auto* const base = static_cast<unsigned char*>(workspace);
  *args =
      Args{reinterpret_cast<Top2Partial*>(base + kPartialsOffset), reinterpret_cast<unsigned int*>(base), d_out, cols};
  GPUPRIMS_CUDA_TRY(cudaMemsetAsync(args->counter, 0, sizeof(unsigned int), stream));
  return Status::success;
}

Status write_empty_top2(Top2* d_out, cudaStream_t stream) {
  top2_write_empty_kernel<<<1, 1, 0, stream>>>(d_out);
  GPUPRIMS_LAUNCH_CHECK();
  return Status::success;
}

}  // namespace gpuprims::detail
