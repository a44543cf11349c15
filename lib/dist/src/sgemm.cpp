// dist::sgemm: each rank's rows of C with gemm::sgemm once B is there. B replicated: one local call.
// B broadcast: one broadcast then one call, or (large products, broadcast_plan.hpp) a broadcast per
// row block of B on a second, high-priority stream, each block's GEMM on the caller's stream waiting
// for that block only, so the rest of B arrives while the first blocks are multiplied.
#include <gpuprims/dist.hpp>

#include <algorithm>
#include <memory>
#include <vector>

#include "common/src/cuda_check.hpp"
#include "dist/src/broadcast_plan.hpp"
#include "dist/src/nccl_check.hpp"
#include "dist/src/rank_op.hpp"
#include "dist/src/validate.hpp"
#include "dist/src/workspace.hpp"

namespace gpuprims::dist {
namespace detail {
namespace {

// Workspace of the local calls a plan makes: the largest of gemm::sgemm's for each block of k (the
// blocks run one after another on one stream, so they share it), and for the whole k.
std::size_t local_workspace(const SgemmArgs& a, const BroadcastPlan& plan) {
  std::size_t bytes = gemm::sgemm_workspace_bytes(a.m_local, a.n, a.k, a.algo);
  for (int b = 0; b < plan.blocks(); ++b) {
    const std::int64_t kc = plan.bounds[static_cast<std::size_t>(b) + 1] - plan.bounds[static_cast<std::size_t>(b)];
    bytes = std::max(bytes, gemm::sgemm_workspace_bytes(a.m_local, a.n, kc, a.algo));
  }
  return bytes;
}

class SgemmOp final : public RankOp {
 public:
  SgemmOp(ncclComm_t comm, const SgemmArgs& a, void* ws, std::size_t ws_bytes, bool explicit_ws, cudaStream_t stream)
      : RankOp(comm, stream), a_(a), ws_(ws), ws_bytes_(ws_bytes), explicit_ws_(explicit_ws) {}
  ~SgemmOp() override { release(); }

  Status check_local() const override { return check_sgemm_local(a_, false, nullptr); }

  Status check_ranked() override {
    RowRange range;
    GPUPRIMS_TRY(check_sgemm_ranked(a_, info().nranks, info().rank, &range));
    plan_ = plan_broadcast(a_.m, a_.n, a_.k, a_.alpha, info().nranks, a_.b_source);
    return Status::success;
  }

  Status check_device() override {
    return explicit_ws_ ? check_workspace(ws_, ws_bytes_, local_workspace(a_, plan_)) : Status::success;
  }

  int steps() const override { return plan_.blocks(); }

  Status before() override {
    if (!plan_.broadcast) return multiply(0, a_.k, a_.beta);  // B is on every rank already
    if (!plan_.overlapped) return Status::success;            // one broadcast on the caller's stream
    // The side stream: high priority, so the broadcast's kernel gets SMs as the GEMM's blocks
    // retire instead of queueing behind the whole grid.
    int least = 0, greatest = 0;
    GPUPRIMS_CUDA_TRY(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    GPUPRIMS_CUDA_TRY(cudaStreamCreateWithPriority(&side_, cudaStreamNonBlocking, greatest));
    events_.assign(static_cast<std::size_t>(plan_.blocks()) + 1, nullptr);
    for (cudaEvent_t& e : events_) GPUPRIMS_CUDA_TRY(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    // B may still be read by work queued before this call: the broadcast into it waits for that.
    GPUPRIMS_CUDA_TRY(cudaEventRecord(events_.back(), stream()));
    GPUPRIMS_CUDA_TRY(cudaStreamWaitEvent(side_, events_.back(), 0));
    return Status::success;
  }

  Status collective(int block) override {
    // In place: the root sends its B block, every other rank receives into its own.
    float* p = a_.B + plan_.bounds[static_cast<std::size_t>(block)] * a_.ldb;
    GPUPRIMS_NCCL_TRY(ncclBroadcast(p, p, block_floats(plan_, block, a_.n, a_.ldb), ncclFloat32, a_.b_source.root,
                                    comm(), plan_.overlapped ? side_ : stream()));
    return Status::success;
  }

  Status after(int block) override {
    if (!plan_.overlapped) return multiply(0, a_.k, a_.beta);
    cudaEvent_t arrived = events_[static_cast<std::size_t>(block)];
    GPUPRIMS_CUDA_TRY(cudaEventRecord(arrived, side_));
    GPUPRIMS_CUDA_TRY(cudaStreamWaitEvent(stream(), arrived, 0));
    // The first block applies beta; the later ones add to what is there.
    return multiply(plan_.bounds[static_cast<std::size_t>(block)], plan_.bounds[static_cast<std::size_t>(block) + 1],
                    block == 0 ? a_.beta : 1.0f);
  }

  void release() override {
    // Both return at once and free their resources when the queued work is done; the caller's
    // stream already waits for every event, so nothing after the call races with the side stream.
    for (cudaEvent_t e : events_)
      if (e != nullptr) (void)cudaEventDestroy(e);
    events_.clear();
    if (side_ != nullptr) (void)cudaStreamDestroy(side_);
    side_ = nullptr;
  }

 private:
  // C_local (+)= alpha * A_local[:, k0:k1] * B[k0:k1, :] on the caller's stream.
  Status multiply(std::int64_t k0, std::int64_t k1, float beta) {
    const float* A = a_.A_local != nullptr ? a_.A_local + k0 : nullptr;
    const float* B = a_.B != nullptr ? a_.B + k0 * a_.ldb : nullptr;
    if (explicit_ws_)
      return gemm::sgemm(a_.m_local, a_.n, k1 - k0, a_.alpha, A, a_.lda, B, a_.ldb, beta, a_.C_local, a_.ldc, ws_,
                         ws_bytes_, a_.algo, stream());
    return gemm::sgemm(a_.m_local, a_.n, k1 - k0, a_.alpha, A, a_.lda, B, a_.ldb, beta, a_.C_local, a_.ldc, a_.algo,
                       stream());
  }

  SgemmArgs a_;
  void* ws_;
  std::size_t ws_bytes_;
  bool explicit_ws_;
  BroadcastPlan plan_;
  cudaStream_t side_ = nullptr;
  std::vector<cudaEvent_t> events_;  // one per block (arrived), then the call's start
};

}  // namespace
}  // namespace detail

std::size_t sgemm_workspace_bytes(const SgemmArgs& args) noexcept {
  return detail::no_throw_bytes([&]() -> std::size_t {
    if (detail::check_sgemm_local(args, false, nullptr) != Status::success) return 0;
    // Enough for one rank or several (the plan overlaps only with more than one rank).
    const detail::BroadcastPlan plan = detail::plan_broadcast(args.m, args.n, args.k, args.alpha, 2, args.b_source);
    return detail::local_workspace(args, plan);
  });
}

Status sgemm(ncclComm_t comm, const SgemmArgs& args, cudaStream_t stream) {
  return detail::no_throw([&] {
    detail::SgemmOp op(comm, args, nullptr, 0, false, stream);
    return detail::run_one(op);
  });
}

Status sgemm(ncclComm_t comm, const SgemmArgs& args, void* d_workspace, std::size_t workspace_bytes,
             cudaStream_t stream) {
  return detail::no_throw([&] {
    detail::SgemmOp op(comm, args, d_workspace, workspace_bytes, true, stream);
    return detail::run_one(op);
  });
}

Status sgemm(const SgemmCall* calls, int count) {
  if (calls == nullptr || count < 1) return Status::invalid_argument;
  return detail::no_throw([&] {
    std::vector<std::unique_ptr<detail::SgemmOp>> ops;
    std::vector<detail::RankOp*> raw;
    for (int i = 0; i < count; ++i) {
      const SgemmCall& c = calls[i];
      ops.push_back(std::make_unique<detail::SgemmOp>(c.comm, c.args, c.d_workspace, c.workspace_bytes,
                                                      detail::has_explicit_workspace(c.d_workspace, c.workspace_bytes),
                                                      c.stream));
      raw.push_back(ops.back().get());
    }
    return detail::run_group(raw.data(), count);
  });
}

}  // namespace gpuprims::dist
