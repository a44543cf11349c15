#pragma once
// The few PTX instructions the tensor-core rungs (11, 12) are built from, each behind a function that
// says what it does: asynchronous global -> shared copies (cp.async, sm_80+), the 8 x 4 TF32 matrix
// load (ldmatrix), rounding to TF32, and the m16n8k8 TF32 MMA with FP32 accumulation. On a device
// below sm_80 none of them exist; the rungs' launchers refuse such a device (Status::unsupported), so
// the bodies compiled for it are never run.
#include <cstdint>

namespace gpuprims::detail {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define GPUPRIMS_HAS_TF32_MMA 1
#else
#define GPUPRIMS_HAS_TF32_MMA 0
#endif

__device__ __forceinline__ std::uint32_t shared_address(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

// 16 bytes from global src to shared dst (both 16-byte aligned), of which the first src_bytes (0..16)
// are read and the rest zero-filled: a partial vector at an edge, or none (src_bytes == 0 reads nothing
// but src must still be a valid address). Bypasses L1 (.cg): each element is used once per block.
__device__ __forceinline__ void copy16_async(void* dst, const void* src, int src_bytes) {
#if GPUPRIMS_HAS_TF32_MMA
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(shared_address(dst)), "l"(src), "r"(src_bytes));
#endif
}

// One float (4-byte aligned), or a zero when !valid: the form for operands without 16-byte alignment.
__device__ __forceinline__ void copy4_async(void* dst, const void* src, bool valid) {
#if GPUPRIMS_HAS_TF32_MMA
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(shared_address(dst)), "l"(src),
               "r"(valid ? 4 : 0));
#endif
}

__device__ __forceinline__ void async_commit() {
#if GPUPRIMS_HAS_TF32_MMA
  asm volatile("cp.async.commit_group;\n" ::);
#endif
}

// Waits until at most kPending of this thread's committed groups are still in flight.
template <int kPending>
__device__ __forceinline__ void async_wait() {
#if GPUPRIMS_HAS_TF32_MMA
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
#endif
}

// Four 8 x 4 float matrices from shared memory, one register each per thread: lanes 8j..8j+7 give the
// row addresses (16-byte aligned, 4 floats each) of matrix j, and lane l receives element
// (row l / 4, column l % 4) of every matrix - the layout of an m16n8k8 TF32 A fragment when the four
// matrices are rows 0-7 / 8-15 of k 0-3, then of k 4-7.
__device__ __forceinline__ void load_matrix_x4(std::uint32_t (&r)[4], const float* row_address) {
#if GPUPRIMS_HAS_TF32_MMA
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(shared_address(row_address)));
#else
  r[0] = r[1] = r[2] = r[3] = 0;
#endif
}

// x rounded to TF32 (10 mantissa bits, ties away from zero), as the 32-bit pattern the MMA takes.
__device__ __forceinline__ std::uint32_t round_to_tf32(float x) {
  std::uint32_t r = 0;
#if GPUPRIMS_HAS_TF32_MMA
  asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
#else
  r = __float_as_uint(x);
#endif
  return r;
}

// d += a * b for one m16n8k8 tile: TF32 operands (lane l = 4g + t holds A (g, t), (g + 8, t),
// (g, t + 4), (g + 8, t + 4) and B (k t, n g), (k t + 4, n g)), FP32 accumulators (d: (g, 2t),
// (g, 2t + 1), (g + 8, 2t), (g + 8, 2t + 1)).
__device__ __forceinline__ void mma_tf32(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]) {
#if GPUPRIMS_HAS_TF32_MMA
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#endif
}

}  // namespace gpuprims::detail
