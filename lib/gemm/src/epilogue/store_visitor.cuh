#pragma once
// The visitor of a plain GEMM: the epilogue stores C (epilogue.cuh) and looks at nothing else. Every
// hook is empty, so a store-only kernel compiles to the stores alone.
//
// The visitor interface (every visitor has these; epilogue.cuh calls them):
//   Args                           what the kernel receives (EpilogueParams::visit)
//   kVotesPerTile                  interior tiles compute all their values, then vote once per warp
//                                  (may_take) before take_run (a filter that rejects most values cheaply)
//   workspace_bytes(blocks)        host: its part of the call's workspace for a grid of `blocks`
//   begin(start, &args), end(...)  host: before the first and after the last launch of the call;
//                                  begin may leave a few words to set to ~0 to the call's first
//                                  kernel instead of a memset (start.kernel_before, VisitorArgs::reset)
//   args_of(VisitorArgs)           host: its member of the call's arguments
//   prefetch(args)                 device: a value read at kernel start, before the main loop
//   kPrefetchAfterLoop             tile kernels whose blocks share an SM may read prefetch after the
//                                  main loop instead (double_buffered_tile)
//   kTileForms                     the specialised tile kernels compiled for it (TileForms)
//   V(args, n, prefetched)         device: constructed after the main loop; a kernel that reads
//                                  nothing ahead passes Epilogue::kNothingPrefetched (NaN), which the
//                                  top-2 visitors take as no bound yet
//   visit(v, r, c)                 one result at (r, c), inside the m x n output
//   visit4(r, c, float4)           four results at (r, c..c+3), inside the output, the warp converged
//   may_take(least), take_run<N>(value, cell)
//                                  kVotesPerTile visitors only: the vote on the smallest of a thread's
//                                  values, and all N of them, value(s) at cell(s) in row-major order
//   kRanksRowRuns                  interior tiles hand over a thread's N values of one row at once
//   row_word(r), take_row<N>(r, values, col, word)
//                                  kRanksRowRuns visitors only: row r's word (the per-row top-2's bound),
//                                  read for each of a thread's rows at the start of an interior tile's
//                                  epilogue; values[s] at (r, col(s)), s = 0..N-1 in increasing column
//                                  order, with that word
//   finish<kThreads>(tid)          every thread, once, after its last visit, the warp converged
//   begin_tile(r), end_tile()      a persistent kernel's (tensor_core_wgmma.cuh): before a tile's main
//                                  loop (r: the one row the thread visits in it), after its visits,
//                                  the warp converged; kernels of one tile per block call neither
#include <cstddef>
#include <cstdint>

#include <gpuprims/status.hpp>

#include "gemm/src/epilogue/visitor_args.hpp"

namespace gpuprims::detail {

class StoreOnlyVisitor {
 public:
  struct Args {};
  static constexpr bool kVotesPerTile = false;
  static constexpr bool kRanksRowRuns = false;
  // No whole-grid kernel: it ran plain calls up to 3.8% slower and faster by 1.1% at most (H200, runs
  // ID and IE in results/nvidia-h200/README.md).
  static constexpr unsigned kTileForms = TileForms::read_c_ahead;
  static constexpr bool kPrefetchAfterLoop = false;

  static std::size_t workspace_bytes(std::int64_t) { return 0; }
  static Status begin(const EpilogueStart&, VisitorArgs*) { return Status::success; }
  static Status end(const EpilogueStart&, const VisitorArgs&) { return Status::success; }
  static Args args_of(const VisitorArgs&) { return Args{}; }

  __device__ static float prefetch(const Args&) { return 0.0f; }
  __device__ StoreOnlyVisitor(const Args&, std::int64_t, float) {}
  __device__ __forceinline__ void visit(float, std::int64_t, std::int64_t) {}
  __device__ __forceinline__ void visit4(std::int64_t, std::int64_t, float4) {}
  template <int kThreads>
  __device__ __forceinline__ void finish(int) {}
  __device__ __forceinline__ void begin_tile(std::int64_t) {}
  __device__ __forceinline__ void end_tile() {}
};

}  // namespace gpuprims::detail
