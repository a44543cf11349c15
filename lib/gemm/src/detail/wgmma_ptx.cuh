#pragma once
// The Hopper (sm_90a) instructions of the tensor-core rungs' wgmma form (kernels/tensor_core_wgmma.cuh),
// each behind a function that says what it does: the shared-memory matrix descriptor, the asynchronous
// warpgroup MMA (m64n128k8 and m64n256k8, TF32 inputs from shared memory or A from registers, FP32
// accumulators) and its fence, commit and wait, the proxy fence that makes ordinary shared-memory
// stores visible to the tensor cores, and the mbarriers and the bulk and tensor copies that feed the
// operands.
// They exist only in sm_90a code; compiled for any other target the bodies are empty, and the launcher
// never runs them there (rungs/tensor_core_forms.hpp).
#include <cstdint>

#include "gemm/src/detail/tensor_core_ptx.cuh"

namespace gpuprims::detail {

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define GPUPRIMS_HAS_WGMMA 1
#else
#define GPUPRIMS_HAS_WGMMA 0
#endif

//! Descriptor of a K-major operand in shared memory laid out without swizzle: 8-row x 16-byte core
//! matrices, each 128 contiguous bytes; `k_step_bytes` apart along k (the leading-dimension offset)
//! and `row_group_bytes` apart from one 8-row group to the next (the stride offset). `tile` must be
//! 16-byte aligned.
__device__ __forceinline__ std::uint64_t kmajor_descriptor(const void* tile, std::uint32_t k_step_bytes,
                                                           std::uint32_t row_group_bytes) {
  const std::uint64_t address = shared_address(tile);
  return ((address & 0x3FFFFu) >> 4) | (static_cast<std::uint64_t>(k_step_bytes >> 4) << 16) |
         (static_cast<std::uint64_t>(row_group_bytes >> 4) << 32);  // base offset 0, swizzle mode 0 (none)
}

//! Orders this thread's earlier register and shared-memory accesses before the warpgroup's next MMAs.
__device__ __forceinline__ void wgmma_fence() {
#if GPUPRIMS_HAS_WGMMA
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
}

__device__ __forceinline__ void wgmma_commit() {
#if GPUPRIMS_HAS_WGMMA
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#endif
}

//! Waits until at most kPending of the warpgroup's committed MMA groups are still running.
template <int kPending>
__device__ __forceinline__ void wgmma_wait() {
#if GPUPRIMS_HAS_WGMMA
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(kPending) : "memory");
#endif
}

//! Makes this thread's ordinary shared-memory stores visible to the async proxy (the tensor cores'
//! operand reads) once a barrier has ordered them.
__device__ __forceinline__ void fence_shared_for_async_proxy() {
#if GPUPRIMS_HAS_WGMMA
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}

//! Keeps the compiler from moving reads or writes of `x` across this point: accumulators that an
//! issued MMA still owns are left alone until its wait.
__device__ __forceinline__ void pin_register(float& x) { asm volatile("" : "+f"(x)::"memory"); }

//! d (+)= a * b for the warpgroup's m64n128k8 tile, both operands K-major in shared memory through
//! their descriptors (a: 64 rows, b: 128 columns), d in FP32: thread 4g + t of warp w of the
//! warpgroup holds rows 16w + g and + 8, columns 8j + 2t and + 1, in d[4j..4j+3]. accumulate == 0
//! overwrites d. Asynchronous: d belongs to the MMA, and the operands' shared memory must stay put,
//! until wgmma_wait.
__device__ __forceinline__ void wgmma_m64n128k8_tf32(float (&d)[64], std::uint64_t a, std::uint64_t b, int accumulate) {
#if GPUPRIMS_HAS_WGMMA
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, "
      "%24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, "
      "%46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, "
      "1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]),
        "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]),
        "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),
        "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]),
        "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]),
        "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]),
        "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]),
        "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "l"(a), "l"(b), "r"(accumulate));
#endif
}

//! wgmma_m64n128k8_tf32 for a 64 x 256 tile: b holds 256 columns, d[4j..4j+3] for j < 32.
__device__ __forceinline__ void wgmma_m64n256k8_tf32(float (&d)[128], std::uint64_t a, std::uint64_t b,
                                                     int accumulate) {
#if GPUPRIMS_HAS_WGMMA
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 "
      "{"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, "
      "%22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, "
      "%42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, "
      "%62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, "
      "%82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, "
      "%101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, "
      "%117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
      "}, %128, %129, p, 1, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]),
        "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]),
        "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),
        "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]),
        "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]),
        "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]),
        "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]),
        "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]),
        "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]),
        "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]),
        "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]),
        "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]),
        "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]),
        "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]),
        "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]),
        "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
      : "l"(a), "l"(b), "r"(accumulate));
#endif
}

//! wgmma_m64n256k8_tf32 with A from registers: a[0..3] hold the warpgroup's 64 x 8 slice of A as TF32
//! bit patterns, thread 4g + t of warp w holding rows 16w + g (a[0], a[2]) and 16w + g + 8 (a[1],
//! a[3]) at k = t (a[0], a[1]) and t + 4 (a[2], a[3]), the m16n8k8 fragment's layout. Like d, they
//! belong to the MMA until wgmma_wait, and a wgmma_fence must order their writes before it.
__device__ __forceinline__ void wgmma_m64n256k8_tf32_rs(float (&d)[128], const std::uint32_t (&a)[4], std::uint64_t b,
                                                        int accumulate) {
#if GPUPRIMS_HAS_WGMMA
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %133, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 "
      "{"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, "
      "%22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, "
      "%42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, "
      "%62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, "
      "%82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, "
      "%102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, "
      "%119, %120, %121, %122, %123, %124, %125, %126, %127"
      "}, {%128, %129, %130, %131}, %132, p, 1, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]),
        "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]),
        "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),
        "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]),
        "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]),
        "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]),
        "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]),
        "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]),
        "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]),
        "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]),
        "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]),
        "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]),
        "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]),
        "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]),
        "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]),
        "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b), "r"(accumulate));
#endif
}

//! The warpgroup's m64nNk8 MMA for N = 2 * (floats of d): 128 or 256 columns.
template <int kFloats>
__device__ __forceinline__ void wgmma_m64nk8_tf32(float (&d)[kFloats], std::uint64_t a, std::uint64_t b,
                                                  int accumulate) {
  static_assert(kFloats == 64 || kFloats == 128, "n128 or n256");
  if constexpr (kFloats == 64) wgmma_m64n128k8_tf32(d, a, b, accumulate);
  else wgmma_m64n256k8_tf32(d, a, b, accumulate);
}

//! An mbarrier (8 bytes of shared memory) made ready for `count` arrivals per phase.
__device__ __forceinline__ void mbarrier_init(std::uint64_t* bar, unsigned count) {
#if GPUPRIMS_HAS_WGMMA
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(shared_address(bar)), "r"(count) : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
#endif
}

//! This thread's arrival on bar (its phase completes when all `count` have arrived and every byte it
//! expects has landed).
__device__ __forceinline__ void mbarrier_arrive(std::uint64_t* bar) {
#if GPUPRIMS_HAS_WGMMA
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(shared_address(bar)) : "memory");
#endif
}

//! This thread's arrival on bar, announcing `bytes` that bulk copies will deliver to the same phase.
__device__ __forceinline__ void mbarrier_arrive_expect_bytes(std::uint64_t* bar, unsigned bytes) {
#if GPUPRIMS_HAS_WGMMA
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(shared_address(bar)), "r"(bytes)
               : "memory");
#endif
}

//! Waits until the phase of bar with this parity (0, 1, 0, ... from init) has completed.
__device__ __forceinline__ void mbarrier_wait(std::uint64_t* bar, unsigned parity) {
#if GPUPRIMS_HAS_WGMMA
  asm volatile(
      "{\n.reg .pred done;\nwait_%=:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
      "@!done bra wait_%=;\n}\n" ::"r"(shared_address(bar)),
      "r"(parity)
      : "memory");
#endif
}

//! `bytes` (a multiple of 16; both addresses 16-byte aligned) from global memory into shared memory by
//! the copy engine, completing on bar as transferred bytes.
__device__ __forceinline__ void bulk_copy_to_shared(void* dst, const void* src, unsigned bytes, std::uint64_t* bar) {
#if GPUPRIMS_HAS_WGMMA
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"(
                   shared_address(dst)),
               "l"(src), "r"(bytes), "r"(shared_address(bar))
               : "memory");
#endif
}

//! The multicast form of bulk_copy_to_shared: the bytes land at dst's offset in every CTA of the
//! cluster whose rank bit is set in cta_mask, each completing on the mbarrier at bar's offset there.
__device__ __forceinline__ void bulk_copy_to_cluster(void* dst, const void* src, unsigned bytes, std::uint64_t* bar,
                                                     std::uint16_t cta_mask) {
#if GPUPRIMS_HAS_WGMMA
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1], %2, [%3], "
      "%4;\n" ::"r"(shared_address(dst)),
      "l"(src), "r"(bytes), "r"(shared_address(bar)), "h"(cta_mask)
      : "memory");
#endif
}

//! The box of a 2-D tensor map (a row-major matrix; tma_descriptor.hpp) whose first corner is column
//! c0, row c1, from global memory into shared memory by the copy engine, completing on bar as
//! transferred bytes (the whole box: entries past the matrix's edge land as zeros). dst is aligned as
//! the map's swizzle needs (1024 bytes for 128-byte swizzling). `map` is a __grid_constant__ kernel
//! parameter.
__device__ __forceinline__ void tensor_copy_to_shared(void* dst, const void* map, int c0, int c1, std::uint64_t* bar) {
#if GPUPRIMS_HAS_WGMMA
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], "
      "[%4];\n" ::"r"(shared_address(dst)),
      "l"(map), "r"(c0), "r"(c1), "r"(shared_address(bar))
      : "memory");
#endif
}

//! The multicast form of tensor_copy_to_shared: the box lands at dst's offset in every CTA of the
//! cluster whose rank bit is set in cta_mask, each completing on the mbarrier at bar's offset there.
__device__ __forceinline__ void tensor_copy_to_cluster(void* dst, const void* map, int c0, int c1, std::uint64_t* bar,
                                                       std::uint16_t cta_mask) {
#if GPUPRIMS_HAS_WGMMA
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, "
      "{%2, %3}], [%4], %5;\n" ::"r"(shared_address(dst)),
      "l"(map), "r"(c0), "r"(c1), "r"(shared_address(bar)), "h"(cta_mask)
      : "memory");
#endif
}

//! This thread's arrival on the mbarrier at bar's offset in the cluster's CTA of rank `cta` (this
//! one included). Release at CTA scope (the default), as the consumer release of a stage needs: only
//! reads of it precede the arrival.
__device__ __forceinline__ void mbarrier_arrive_in_cta(std::uint64_t* bar, unsigned cta) {
#if GPUPRIMS_HAS_WGMMA
  asm volatile(
      "{\n.reg .b32 remote;\nmapa.shared::cluster.u32 remote, %0, %1;\n"
      "mbarrier.arrive.shared::cluster.b64 _, [remote];\n}\n" ::"r"(shared_address(bar)),
      "r"(cta)
      : "memory");
#endif
}

//! This CTA's rank in its cluster.
__device__ __forceinline__ unsigned cluster_cta_rank() {
  unsigned rank = 0;
#if GPUPRIMS_HAS_WGMMA
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(rank));
#endif
  return rank;
}

//! Every thread of every CTA of the cluster arrives, then waits for all: writes before it (shared
//! memory, mbarrier inits) are visible cluster-wide after it.
__device__ __forceinline__ void cluster_sync_all() {
#if GPUPRIMS_HAS_WGMMA
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;\n" ::: "memory");
#endif
}

}  // namespace gpuprims::detail
