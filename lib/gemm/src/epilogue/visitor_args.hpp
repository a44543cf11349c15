#pragma once
// The host's view of the epilogue visitors (visitors.cuh): which one a call runs, and the arguments
// each receives. Plain C++, so the launch request (detail/gemm_call.hpp) can carry them.
#include <cuda_runtime_api.h>

#include <cstdint>

#include <gpuprims/top2.hpp>

#include "common/device/top2_atomic_merge.cuh"
#include "common/device/top2_last_block_merge.cuh"

namespace gpuprims::detail {

// Which visitor a kernel's epilogue is compiled with: none (C stored only); the fused top-2, with
// packed (key, 32-bit index) words merged by atomics when the output has fewer than 2^32 entries,
// else with 64-bit indices merged by the last block; or the per-row top-2 (row_top2_visitor.cuh).
// Separate instantiations keep each kernel's code to what it runs (one kernel holding both ranking
// paths was measured 12% slower on an H200 from instruction-fetch stalls alone).
enum class EpilogueKind { store, top2_packed, top2_wide, row_top2 };

// Which specialised forms of the tile kernels (rung 9, kernels/09_double_buffered.cuh) are compiled
// for a visitor (Visitor::kTileForms), as bits: the kernels that read C ahead for beta != 0, and those
// for a whole grid (GridForm, detail/warp_tile.cuh) with C stored or not. A visitor without a form
// takes the general kernel there, which keeps what the rarely used visitors compile small.
struct TileForms {
  static constexpr unsigned read_c_ahead = 1u, whole_stored = 2u, whole_unstored = 4u;
};

// The per-row top-2's: slots[2 * r] and slots[2 * r + 1] hold row r's first and second packed
// (order key, column) words, ~0 (empty) after begin.
struct RowTop2Args {
  unsigned long long* slots;
};

// The visitors' arguments: a call sets the member of its kind (its visitor's begin() does), the others
// stay empty. reset: words the visitor's begin() left for the call's first kernel to set to ~0
// (EpilogueStart::kernel_before; OutputParams::reset), instead of a memset of its own.
struct VisitorArgs {
  Top2AtomicMerge::Args top2_packed{};
  Top2LastBlockMerge::Args top2_wide{};
  RowTop2Args row_top2{};
  unsigned long long* reset = nullptr;
  int reset_count = 0;
};

// What a visitor's host steps (begin before the first launch, end after the last) work with: the
// call's workspace (the visitor's part of it, 16-byte aligned), its outputs beyond C, and the stream.
struct EpilogueStart {
  void* workspace;
  Top2* top2;         // the fused top-2's result (device memory; one per row for the per-row form)
  std::int64_t cols;  // n: linear indices back into (row, col)
  cudaStream_t stream;
  std::int64_t rows;   // m: the per-row top-2's slot count
  bool one_wave;       // the kernel that runs the epilogue has few enough blocks to all run at once
                       // (epilogue_in_one_wave, plan.hpp): its last block may finish the grid's merge
  bool kernel_before;  // another kernel of the call (a split-K plan's partial products) runs before
                       // the one that runs the epilogue: it can set a few words (VisitorArgs::reset)
  bool end_dependent;  // the epilogue's kernel is a small split-K reduction whose global top-2 is
                       // written by a kernel launched as its programmatic dependent, not by its last
                       // block (epilogue_ends_in_dependent, plan.hpp)
};

}  // namespace gpuprims::detail
