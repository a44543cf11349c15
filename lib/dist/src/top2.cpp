// dist::sgemm_top2_argmin: B broadcast first if asked (the top-2 needs whole entries, so no overlap
// with the GEMM), then each rank's fused GEMM + top-2 over its rows (with the one-GPU call's plan)
// into its slot of a gather buffer,
// its rows made global in place, the slots gathered in place (ncclAllGather), and the rank-order
// merge into the caller's result on every rank. Three tiny device steps after the GEMM; no host read.
#include <gpuprims/dist.hpp>

#include <memory>
#include <vector>

#include "common/src/cuda_check.hpp"
#include "dist/src/broadcast_plan.hpp"
#include "dist/src/combine_kernels.hpp"
#include "dist/src/nccl_check.hpp"
#include "dist/src/rank_op.hpp"
#include "dist/src/validate.hpp"
#include "dist/src/workspace.hpp"
#include "gemm/src/rows_plan.hpp"

namespace gpuprims::dist {
namespace detail {
namespace {

// Gathered results first (one Top2 per rank, 8-byte aligned slots), then the core call's workspace.
std::size_t top2_needed(const SgemmArgs& a, int nranks) {
  return gather_part_bytes(nranks, sizeof(Top2)) +
         ::gpuprims::detail::top2_rows_workspace_bytes(a.m, a.m_local, a.n, a.k, a.algo);
}

class Top2Op final : public RankOp {
 public:
  Top2Op(ncclComm_t comm, const SgemmArgs& a, Top2* d_top2, void* ws, std::size_t ws_bytes, bool explicit_ws,
         cudaStream_t stream)
      : RankOp(comm, stream), a_(a), d_top2_(d_top2), scratch_(ws, ws_bytes, explicit_ws) {}
  ~Top2Op() override { release(); }

  Status check_local() const override { return check_sgemm_local(a_, true, d_top2_); }

  Status check_ranked() override {
    GPUPRIMS_TRY(check_sgemm_ranked(a_, info().nranks, info().rank, &range_));
    // One broadcast of the whole B or none: the fused epilogue ranks whole entries.
    broadcast_ = plan_broadcast(a_.m, a_.n, a_.k, a_.alpha, info().nranks, a_.b_source).broadcast;
    return Status::success;
  }

  Status check_device() override {
    needed_ = top2_needed(a_, info().nranks);
    return scratch_.is_explicit() ? check_workspace(scratch_.given(), scratch_.given_bytes(), needed_)
                                  : Status::success;
  }

  // [broadcast B,] gather the ranks' results.
  int steps() const override { return broadcast_ ? 2 : 1; }

  Status before() override {
    GPUPRIMS_TRY(scratch_.obtain(needed_, stream()));
    return broadcast_ ? Status::success : local_top2();
  }

  Status collective(int step) override {
    if (broadcast_ && step == 0) {
      const std::size_t floats = static_cast<std::size_t>((a_.k - 1) * a_.ldb + a_.n);
      GPUPRIMS_NCCL_TRY(ncclBroadcast(a_.B, a_.B, floats, ncclFloat32, a_.b_source.root, comm(), stream()));
      return Status::success;
    }
    // In place: this rank's slot is gathered[rank], and every rank receives all slots in rank order.
    GPUPRIMS_NCCL_TRY(ncclAllGather(slot(), gathered(), sizeof(Top2), ncclUint8, comm(), stream()));
    return Status::success;
  }

  Status after(int step) override {
    if (broadcast_ && step == 0) return local_top2();
    return launch_merge_in_rank_order(gathered(), info().nranks, a_.n, d_top2_, stream());
  }

  void release() override { scratch_.release(); }

 private:
  Top2* gathered() const { return reinterpret_cast<Top2*>(scratch_.bytes()); }
  Top2* slot() const { return gathered() + info().rank; }

  // This rank's top-2 over its rows, into its slot, rows made global. The GEMM runs with the plan
  // of the one-GPU call on all m rows (rows_plan.hpp), so each entry is the bits that call computes:
  // a plan of its own for m_local rows could split k differently (split-K for a smaller output, the
  // few-rows kernel below 32 rows) and round differently.
  Status local_top2() {
    const std::size_t gather_bytes = gather_part_bytes(info().nranks, sizeof(Top2));
    unsigned char* ws = scratch_.bytes() + gather_bytes;
    const std::size_t ws_bytes = needed_ - gather_bytes;
    const ::gpuprims::detail::SgemmArgs rows{a_.m_local, a_.n,    a_.k,       a_.alpha, a_.A_local, a_.lda, a_.B,
                                             a_.ldb,     a_.beta, a_.C_local, a_.ldc,   a_.algo,    slot(), true};
    GPUPRIMS_TRY(::gpuprims::detail::sgemm_top2_rows(a_.m, rows, ws_bytes > 0 ? ws : nullptr, ws_bytes, stream()));
    return launch_globalize_rows(slot(), range_.begin, stream());
  }

  SgemmArgs a_;
  Top2* d_top2_;
  Scratch scratch_;
  RowRange range_;
  bool broadcast_ = false;
  std::size_t needed_ = 0;
};

}  // namespace
}  // namespace detail

std::size_t top2_workspace_bytes(const SgemmArgs& args, int nranks) noexcept {
  return detail::no_throw_bytes([&]() -> std::size_t {
    // A placeholder result pointer: the query knows no d_top2, and only the arguments matter.
    alignas(Top2) static unsigned char placeholder[sizeof(Top2)];
    if (nranks < 1 || detail::check_sgemm_local(args, true, reinterpret_cast<Top2*>(placeholder)) != Status::success)
      return 0;
    return detail::top2_needed(args, nranks);
  });
}

Status sgemm_top2_argmin(ncclComm_t comm, const SgemmArgs& args, Top2* d_top2, cudaStream_t stream) {
  return detail::no_throw([&] {
    detail::Top2Op op(comm, args, d_top2, nullptr, 0, false, stream);
    return detail::run_one(op);
  });
}

Status sgemm_top2_argmin(ncclComm_t comm, const SgemmArgs& args, Top2* d_top2, void* d_workspace,
                         std::size_t workspace_bytes, cudaStream_t stream) {
  return detail::no_throw([&] {
    detail::Top2Op op(comm, args, d_top2, d_workspace, workspace_bytes, true, stream);
    return detail::run_one(op);
  });
}

Status sgemm_top2_argmin(const SgemmCall* calls, int count) {
  if (calls == nullptr || count < 1) return Status::invalid_argument;
  return detail::no_throw([&] {
    std::vector<std::unique_ptr<detail::Top2Op>> ops;
    std::vector<detail::RankOp*> raw;
    for (int i = 0; i < count; ++i) {
      const SgemmCall& c = calls[i];
      ops.push_back(std::make_unique<detail::Top2Op>(c.comm, c.args, c.d_top2, c.d_workspace, c.workspace_bytes,
                                                     detail::has_explicit_workspace(c.d_workspace, c.workspace_bytes),
                                                     c.stream));
      raw.push_back(ops.back().get());
    }
    return detail::run_group(raw.data(), count);
  });
}

}  // namespace gpuprims::dist
