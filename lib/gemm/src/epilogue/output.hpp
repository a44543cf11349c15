#pragma once
// What every GEMM epilogue does with a result, whatever else it does: v = alpha * acc (+ beta * C[r, c]
// when beta != 0, the only case C is read), stored to C when requested. Plain C++ (host and device):
// the launchers fill it, kernels receive it by value inside EpilogueParams.
#include <cstdint>

namespace gpuprims::detail {

struct OutputParams {
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
  // The first half of a split-K plan only: words of the reduction's visitor that this kernel sets to
  // ~0 (empty) before the reduction starts, in place of a memset before the call (VisitorArgs::reset,
  // take_k_range). nullptr: none.
  unsigned long long* reset;
  int reset_count;
};

// One result's place in C, for visitors that are handed a thread's values by position (take_run).
struct OutputCell {
  std::int64_t row;
  std::int64_t col;
};

// A kernel's epilogue arguments: the output, and what its visitor (visitors.hpp) receives. Kernels
// take this by value, so each instantiation carries only its own visitor's arguments.
template <class Visitor>
struct EpilogueParams {
  OutputParams out;
  typename Visitor::Args visit;
};

}  // namespace gpuprims::detail
