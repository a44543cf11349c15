// The host steps of the per-row top-2 visitor (row_top2_visitor.cuh): every row's slot set to empty
// before the GEMM's kernels, and after them one kernel that turns each row's two packed words into
// its public Top2 (row r, the packed column; missing entries {+inf, -1, -1}).
#include "common/src/cuda_check.hpp"
#include "gemm/src/epilogue/row_top2_visitor.cuh"

namespace gpuprims::detail {
namespace {

constexpr int kEndThreads = 256;

__device__ MinEntry row_entry(unsigned long long word, std::int64_t row) {
  if (word == ~0ull) return MinEntry{float_from_bits(0x7f800000u), -1, -1};
  return MinEntry{value_from_key(static_cast<std::uint32_t>(word >> 32)), row, static_cast<std::uint32_t>(word)};
}

__global__ void __launch_bounds__(kEndThreads)
    row_top2_end_kernel(const unsigned long long* slots, Top2* out, std::int64_t rows) {
  const std::int64_t step = static_cast<std::int64_t>(gridDim.x) * kEndThreads;
  for (std::int64_t r = static_cast<std::int64_t>(blockIdx.x) * kEndThreads + threadIdx.x; r < rows; r += step) {
    const ulonglong2 slot = reinterpret_cast<const ulonglong2*>(slots)[r];
    out[r] = Top2{row_entry(slot.x, r), row_entry(slot.y, r)};
  }
}

}  // namespace

Status row_top2_begin(void* workspace, std::int64_t rows, cudaStream_t stream, RowTop2Args* args) {
  args->slots = static_cast<unsigned long long*>(workspace);
  if (rows > 0) GPUPRIMS_CUDA_TRY(cudaMemsetAsync(workspace, 0xff, RowTop2Visitor::workspace_bytes(rows), stream));
  return Status::success;
}

Status row_top2_end(const RowTop2Args& args, Top2* d_out, std::int64_t rows, cudaStream_t stream) {
  if (rows <= 0) return Status::success;
  // Enough blocks to cover the rows, at most 65535 (a grid-stride loop takes the rest).
  const std::int64_t blocks = (rows + kEndThreads - 1) / kEndThreads;
  row_top2_end_kernel<<<static_cast<unsigned>(blocks < 65535 ? blocks : 65535), kEndThreads, 0, stream>>>(args.slots,
                                                                                                          d_out, rows);
  GPUPRIMS_LAUNCH_CHECK();
  return Status::success;
}

}  // namespace gpuprims::detail
