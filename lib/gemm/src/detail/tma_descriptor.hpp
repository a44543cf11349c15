#pragma once
// Host side of the copy engine's tensor copies (wgmma_ptx.cuh, tensor_copy_to_shared): the tensor map
// of a row-major float matrix, built by the driver's cuTensorMapEncodeTiled. The driver entry point is
// looked up through the runtime once per process, so the library needs no link to libcuda.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <limits>

#include <gpuprims/status.hpp>

#include "common/src/math.hpp"

namespace gpuprims::detail {

//! Whether the copy engine can read a row-major float matrix (rows x cols, ld floats from one row to
//! the next) in place: a 16-byte aligned start and rows a multiple of 16 bytes apart, and sides whose
//! box corners (up to `margin` past the edge) fit the copy's 32-bit signed coordinates.
inline bool tensor_copy_reads(const float* base, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                              std::int64_t margin) {
  constexpr std::int64_t kMaxCoordinate = std::numeric_limits<std::int32_t>::max();
  return is_aligned(base, 16) && ld % 4 == 0 && ld > 0 && rows > 0 && cols > 0 && rows <= kMaxCoordinate - margin &&
         cols <= kMaxCoordinate - margin && ld < (std::int64_t{1} << 38);
}

//! The tensor map of that matrix read in boxes of box_rows x box_cols floats (box_cols * 4 == 128
//! bytes: one 128-byte swizzle span per row), landing 128-byte swizzled in shared memory: row r of a
//! box at 128 r bytes, its 16-byte piece j at piece j ^ (r % 8) of that row. Entries past the
//! matrix's edge land as zeros. Precondition: tensor_copy_reads(base, rows, cols, ld, ...).
inline Status encode_row_major_tensor_map(CUtensorMap* map, const float* base, std::int64_t rows, std::int64_t cols,
                                          std::int64_t ld, int box_rows, int box_cols) {
  using Encode = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                              const cuuint64_t*, const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave,
                              CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
  static const Encode encode = [] {
    void* entry = nullptr;
    cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &entry, 12000, cudaEnableDefault, &found) !=
            cudaSuccess ||
        found != cudaDriverEntryPointSuccess) {
      (void)cudaGetLastError();  // a failed lookup is not the caller's launch error
      entry = nullptr;
    }
    return reinterpret_cast<Encode>(entry);
  }();
  if (encode == nullptr) return Status::unsupported;
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(cols), static_cast<cuuint64_t>(rows)};
  const cuuint64_t strides[1] = {static_cast<cuuint64_t>(ld) * sizeof(float)};
  const cuuint32_t box[2] = {static_cast<cuuint32_t>(box_cols), static_cast<cuuint32_t>(box_rows)};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult result = encode(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, const_cast<float*>(base), dims, strides, box,
                                 element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                 CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return result == CUDA_SUCCESS ? Status::success : Status::cuda_error;
}

}  // namespace gpuprims::detail
