#pragma once
// The fused top-2 for outputs of 2^32 entries or more: 64-bit linear indices, formed only for entries
// that can enter the thread's pair, and the exact insertion; blocks merge their threads' pairs and the
// last block merges the blocks' (common/device/top2_last_block_merge.cuh).
#include <cstddef>
#include <cstdint>

#include <gpuprims/status.hpp>

#include "common/device/top2_last_block_merge.cuh"
#include "common/device/top2_order.hpp"
#include "gemm/src/epilogue/visitor_args.hpp"

namespace gpuprims::detail {

class Top2WideVisitor {
 public:
  using Args = Top2LastBlockMerge::Args;
  static constexpr bool kVotesPerTile = false;
  static constexpr bool kRanksRowRuns = false;

  static std::size_t workspace_bytes(std::int64_t blocks) { return Top2LastBlockMerge::workspace_bytes(blocks); }
  static Status begin(const EpilogueStart& s, VisitorArgs* args) {
    return Top2LastBlockMerge::begin(s.workspace, s.top2, s.cols, s.stream, &args->top2_wide);
  }
  static Status end(const EpilogueStart&, const VisitorArgs&) { return Status::success; }
  static Args args_of(const VisitorArgs& args) { return args.top2_wide; }

  __device__ static float prefetch(const Args&) { return 0.0f; }
  __device__ Top2WideVisitor(const Args& args, std::int64_t n, float) : args_(args), n_(n) {}

  __device__ __forceinline__ void visit(float v, std::int64_t r, std::int64_t c) {
    const std::uint32_t key = order_key(v);
    if (best_.may_enter(key)) best_.insert_keyed(key, r * n_ + c);
  }
  __device__ __forceinline__ void visit4(std::int64_t r, std::int64_t c, float4 v) {
    visit(v.x, r, c);
    visit(v.y, r, c + 1);
    visit(v.z, r, c + 2);
    visit(v.w, r, c + 3);
  }
  // The merge is per grid of one block row (blockIdx.x): split-K plans run it in their reduction.
  template <int kThreads>
  __device__ __forceinline__ void finish(int tid) {
    top2_last_block_finish<kThreads>(best_, args_, tid, blockIdx.x, gridDim.x);
  }
  // A persistent block keeps one partial over all its tiles and merges it at finish.
  __device__ __forceinline__ void begin_tile(std::int64_t) {}
  __device__ __forceinline__ void end_tile() {}

 private:
  Args args_;
  std::int64_t n_;
  Top2Partial best_ = Top2Partial::empty();
};

}  // namespace gpuprims::detail
