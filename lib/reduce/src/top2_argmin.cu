// reduce::top2_argmin: the two smallest entries of a (strided) matrix or a vector, with their
// positions. Each thread ranks a grid-strided share into its own top-2, then warps, blocks and the
// grid merge with the shared device layer's last-block-done merge (common/device/), as the GEMM's
// fused epilogue does for large outputs. It is also the fused epilogue's unfused twin in the tests.
#include <gpuprims/reduce.hpp>

#include "common/device/top2_last_block_merge.cuh"
#include "common/device/top2_result.hpp"
#include "common/src/cuda_check.hpp"
#include "common/src/device_buffer.hpp"
#include "common/src/device_info.hpp"
#include "common/src/math.hpp"
#include "reduce/src/top2_plan.hpp"

namespace gpuprims {
namespace detail {
namespace {

// Contiguous entries (ld == cols): the linear index is the position itself. 16-byte loads when the
// pointer allows; the first `head` entries (up to the 16-byte boundary) are taken one by one.
template <bool kVec>
__global__ void __launch_bounds__(Top2Tuning::kThreads)
    top2_contiguous_kernel(const float* in, std::int64_t count, std::int64_t head, Top2LastBlockMerge::Args args) {
  constexpr int kThreads = Top2Tuning::kThreads;
  const int tid = threadIdx.x;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * kThreads;
  const std::int64_t first = static_cast<std::int64_t>(blockIdx.x) * kThreads + tid;
  Top2Partial best = Top2Partial::empty();
  if constexpr (kVec) {
    if (first < head) best.insert(in[first], first);
    const std::int64_t vecs = (count - head) / 4;
    const float4* body = reinterpret_cast<const float4*>(in + head);
    for (std::int64_t v = first; v < vecs; v += stride) {
      const float4 x = body[v];
      const std::int64_t i = head + 4 * v;
      best.insert(x.x, i);
      best.insert(x.y, i + 1);
      best.insert(x.z, i + 2);
      best.insert(x.w, i + 3);
    }
    for (std::int64_t i = head + 4 * vecs + first; i < count; i += stride) best.insert(in[i], i);
  } else {
    for (std::int64_t i = first; i < count; i += stride) best.insert(in[i], i);
  }
  top2_last_block_finish<kThreads>(best, args, tid, blockIdx.x, gridDim.x);
}

// Strided rows: blocks take rows in turn, threads stride along a row.
__global__ void __launch_bounds__(Top2Tuning::kThreads)
    top2_strided_kernel(const float* in, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                        Top2LastBlockMerge::Args args) {
  constexpr int kThreads = Top2Tuning::kThreads;
  const int tid = threadIdx.x;
  Top2Partial best = Top2Partial::empty();
  for (std::int64_t r = blockIdx.x; r < rows; r += gridDim.x)
    for (std::int64_t c = tid; c < cols; c += kThreads) best.insert(in[r * ld + c], r * cols + c);
  top2_last_block_finish<kThreads>(best, args, tid, blockIdx.x, gridDim.x);
}

Status validate_top2(const float* in, std::int64_t rows, std::int64_t cols, std::int64_t ld, const Top2* out) {
  if (rows < 0 || cols < 0 || out == nullptr) return Status::invalid_argument;
  const bool any = rows > 0 && cols > 0;
  if (any && in == nullptr) return Status::invalid_argument;
  if (ld < max_of<std::int64_t>(1, cols)) return Status::invalid_argument;
  std::int64_t span = 0, items = 0;
  if (!checked_mul(rows, cols, &items)) return Status::invalid_argument;
  if (any && (!checked_mul(rows - 1, ld, &span) || span > INT64_MAX - cols)) return Status::invalid_argument;
  if (in != nullptr && !float_aligned(in)) return Status::misaligned_pointer;
  if (!is_aligned(out, alignof(Top2))) return Status::misaligned_pointer;
  return Status::success;
}

}  // namespace
}  // namespace detail

namespace reduce {

std::size_t top2_argmin_workspace_bytes(std::int64_t rows, std::int64_t cols) noexcept {
  if (rows < 0 || cols < 0) return 0;
  std::int64_t items = 0;
  if (!detail::checked_mul(rows, cols, &items)) return 0;
  return detail::Top2LastBlockMerge::workspace_bytes(detail::top2_blocks(rows, cols, 0));
}

Status top2_argmin(const float* d_in, std::int64_t rows, std::int64_t cols, std::int64_t ld, Top2* d_out,
                   void* d_workspace, std::size_t workspace_bytes, cudaStream_t stream) {
  using namespace detail;
  GPUPRIMS_TRY(validate_top2(d_in, rows, cols, ld, d_out));
  if (d_workspace == nullptr || workspace_bytes < top2_argmin_workspace_bytes(rows, cols))
    return Status::invalid_argument;
  if (!is_aligned(d_workspace, 16)) return Status::misaligned_pointer;
  const DeviceInfo* device = nullptr;
  GPUPRIMS_TRY(current_device_info(&device));
  if (rows == 0 || cols == 0) return write_empty_top2(d_out, stream);

  const std::int64_t blocks = top2_blocks(rows, cols, device->sm_count);
  Top2LastBlockMerge::Args args{};
  GPUPRIMS_TRY(Top2LastBlockMerge::begin(d_workspace, d_out, cols, stream, &args));
  const unsigned grid = static_cast<unsigned>(blocks);
  if (rows == 1 || ld == cols) {
    const std::int64_t count = rows * cols;
    const auto addr = reinterpret_cast<std::uintptr_t>(d_in);
    const std::int64_t head = min_of<std::int64_t>(count, static_cast<std::int64_t>((16 - addr % 16) % 16 / 4));
    if (count - head >= 4)
      top2_contiguous_kernel<true><<<grid, Top2Tuning::kThreads, 0, stream>>>(d_in, count, head, args);
    else top2_contiguous_kernel<false><<<grid, Top2Tuning::kThreads, 0, stream>>>(d_in, count, 0, args);
  } else {
    top2_strided_kernel<<<grid, Top2Tuning::kThreads, 0, stream>>>(d_in, rows, cols, ld, args);
  }
  GPUPRIMS_LAUNCH_CHECK();
  return Status::success;
}

Status top2_argmin(const float* d_in, std::int64_t rows, std::int64_t cols, std::int64_t ld, Top2* d_out,
                   cudaStream_t stream) {
  using namespace detail;
  GPUPRIMS_TRY(validate_top2(d_in, rows, cols, ld, d_out));
  GPUPRIMS_TRY(require_device());
  const std::size_t bytes = top2_argmin_workspace_bytes(rows, cols);
  StreamScratch scratch(stream);
  GPUPRIMS_TRY(scratch.allocate(bytes));
  return top2_argmin(d_in, rows, cols, ld, d_out, scratch.get(), bytes, stream);
}

Status top2_argmin(const float* d_in, std::int64_t n, Top2* d_out, cudaStream_t stream) {
  return top2_argmin(d_in, 1, n, n > 0 ? n : 1, d_out, stream);
}

}  // namespace reduce
}  // namespace gpuprims
