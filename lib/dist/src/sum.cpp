// dist::sum: each rank's reduce::sum into its slot of a gather buffer, the slots gathered in place
// (ncclAllGather, so every rank has every partial), then one device thread adds them in rank order.
// NCCL moves the partials but never adds them: the order of the additions is ours and fixed.
#include <gpuprims/dist.hpp>

#include <memory>
#include <vector>

#include "dist/src/combine_kernels.hpp"
#include "dist/src/nccl_check.hpp"
#include "dist/src/rank_op.hpp"
#include "dist/src/validate.hpp"
#include "dist/src/workspace.hpp"

namespace gpuprims::dist {
namespace detail {
namespace {

// Gathered partials first, then reduce::sum's workspace.
std::size_t sum_needed(std::int64_t n_local, int nranks, reduce::Algorithm algo) {
  return gather_part_bytes(nranks, sizeof(float)) + reduce::workspace_bytes(n_local, algo);
}

class SumOp final : public RankOp {
 public:
  SumOp(ncclComm_t comm, const float* d_in, std::int64_t n_local, float* d_out, reduce::Algorithm algo, void* ws,
        std::size_t ws_bytes, bool explicit_ws, cudaStream_t stream)
      : RankOp(comm, stream),
        d_in_(d_in),
        n_local_(n_local),
        d_out_(d_out),
        algo_(algo),
        scratch_(ws, ws_bytes, explicit_ws) {}
  ~SumOp() override { release(); }

  Status check_local() const override { return check_sum_local(d_in_, n_local_, d_out_, algo_); }
  Status check_ranked() override {
    needed_ = sum_needed(n_local_, info().nranks, algo_);
    return scratch_.is_explicit() ? check_workspace(scratch_.given(), scratch_.given_bytes(), needed_)
                                  : Status::success;
  }
  int steps() const override { return 1; }

  Status before() override {
    GPUPRIMS_TRY(scratch_.obtain(needed_, stream()));
    const std::size_t gather_bytes = gather_part_bytes(info().nranks, sizeof(float));
    const std::size_t ws_bytes = needed_ - gather_bytes;
    return reduce::sum(d_in_, n_local_, slot(), ws_bytes > 0 ? scratch_.bytes() + gather_bytes : nullptr, ws_bytes,
                       algo_, stream());
  }

  Status collective(int) override {
    GPUPRIMS_NCCL_TRY(ncclAllGather(slot(), gathered(), 1, ncclFloat32, comm(), stream()));
    return Status::success;
  }

  Status after(int) override { return launch_sum_in_rank_order(gathered(), info().nranks, d_out_, stream()); }

  void release() override { scratch_.release(); }

 private:
  float* gathered() const { return reinterpret_cast<float*>(scratch_.bytes()); }
  float* slot() const { return gathered() + info().rank; }

  const float* d_in_;
  std::int64_t n_local_;
  float* d_out_;
  reduce::Algorithm algo_;
  Scratch scratch_;
  std::size_t needed_ = 0;
};

}  // namespace
}  // namespace detail

std::size_t sum_workspace_bytes(std::int64_t n_local, int nranks, reduce::Algorithm algo) noexcept {
  if (nranks < 1 || n_local < 0 || !detail::valid_algorithm(algo)) return 0;
  return detail::sum_needed(n_local, nranks, algo);
}

Status sum(ncclComm_t comm, const float* d_in_local, std::int64_t n_local, float* d_out, cudaStream_t stream,
           reduce::Algorithm algo) {
  return detail::no_throw([&] {
    detail::SumOp op(comm, d_in_local, n_local, d_out, algo, nullptr, 0, false, stream);
    return detail::run_one(op);
  });
}

Status sum(ncclComm_t comm, const float* d_in_local, std::int64_t n_local, float* d_out, void* d_workspace,
           std::size_t workspace_bytes, cudaStream_t stream, reduce::Algorithm algo) {
  return detail::no_throw([&] {
    detail::SumOp op(comm, d_in_local, n_local, d_out, algo, d_workspace, workspace_bytes, true, stream);
    return detail::run_one(op);
  });
}

Status sum(const SumCall* calls, int count) {
  if (calls == nullptr || count < 1) return Status::invalid_argument;
  return detail::no_throw([&] {
    std::vector<std::unique_ptr<detail::SumOp>> ops;
    std::vector<detail::RankOp*> raw;
    for (int i = 0; i < count; ++i) {
      const SumCall& c = calls[i];
      ops.push_back(std::make_unique<detail::SumOp>(
          c.comm, c.d_in_local, c.n_local, c.d_out, c.algo, c.d_workspace, c.workspace_bytes,
          detail::has_explicit_workspace(c.d_workspace, c.workspace_bytes), c.stream));
      raw.push_back(ops.back().get());
    }
    return detail::run_group(raw.data(), count);
  });
}

}  // namespace gpuprims::dist
