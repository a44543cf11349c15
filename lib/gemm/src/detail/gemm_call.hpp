#pragma once
// One validated SGEMM request as every rung's launcher receives it: the product's operands, what the
// epilogue does with each result, and the stream. Plain C++ (host side).
#include <cuda_runtime_api.h>

#include <cstdint>

#include "reduce/src/block/top2_atomic.cuh"
#include "reduce/src/block/top2_grid.cuh"

namespace gpuprims::detail {

// What the epilogue does with acc = sum_p A[r,p] B[p,c]: v = alpha * acc (+ beta * C[r,c] when beta != 0,
// which is the only case C is read); v is stored when `store`, and ranked for the top-2 when the
// kernel is the top-2 instantiation.
struct EpilogueParams {
  float* C;
  std::int64_t ldc;
  float alpha;
  float beta;
  std::int64_t m;
  std::int64_t n;
  bool store;
  bool c_vec4;  // C is 16-byte aligned and ldc % 4 == 0: 4 consecutive columns move as one float4
  // Split-K partial products: block row y (blockIdx.y) writes its slice at C + y * split_stride. 0
  // (one slice) unless the kernel is the first half of a split-K plan (plan.hpp).
  std::int64_t split_stride;
  Top2GridArgs top2;          // top2_wide: last block done over per-block partials
  Top2AtomicArgs top2_atomic;  // top2_packed: atomics on two packed words
};

// What a kernel's epilogue is compiled for: storing C only, or also ranking the top-2, with packed
// (key, 32-bit index) words merged by atomics when the output has fewer than 2^32 entries, else with
// 64-bit indices merged by the last block.
// Separate instantiations keep each kernel's code to what it runs (one kernel holding both ranking
// paths was measured 12% slower on an H200 from instruction-fetch stalls alone).
enum class EpilogueMode { store, top2_packed, top2_wide };

// The product's operands as kernels receive them (by value). Kernels that split k over block rows
// (blockIdx.y) take k_split of it each, the last the rest; k_split == k when k is not split.
struct GemmOperands {
  std::int64_t m, n, k;
  const float* A;
  std::int64_t lda;
  const float* B;
  std::int64_t ldb;
  std::int64_t k_split;
};

struct GemmCall {
  GemmOperands op;
  bool ab_vec4;  // A and B 16-byte aligned, lda and ldb multiples of 4: float4 loads are legal
  EpilogueMode mode;  // top2_packed: epi.top2_atomic is set; top2_wide: epi.top2; store: neither
  EpilogueParams epi;
  int splits;  // block rows of the grid (gridDim.y): 1, or the k splits of a split-K plan
  cudaStream_t stream;
};

}  // namespace gpuprims::detail
