#include "dist/src/rank_op.hpp"

#include "common/src/cuda_check.hpp"
#include "dist/src/nccl_check.hpp"

namespace gpuprims::dist::detail {
namespace {

// Makes `device` current for a scope and restores the caller's device after it (the calls may be
// made from a thread whose current device is another rank's).
class DeviceScope {
 public:
  DeviceScope() = default;
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;
  ~DeviceScope() {
    if (saved_ >= 0 && current_ != saved_) (void)cudaSetDevice(saved_);
  }
  Status enter(int device) {
    if (saved_ < 0) {
      GPUPRIMS_CUDA_TRY(cudaGetDevice(&saved_));
      current_ = saved_;
    }
    if (device != current_) {
      GPUPRIMS_CUDA_TRY(cudaSetDevice(device));
      current_ = device;
    }
    return Status::success;
  }

 private:
  int saved_ = -1;
  int current_ = -1;
};

// The caller's stream must belong to the rank's device (a kernel launched on another device's
// stream fails, which after a collective would leave the other ranks waiting).
Status check_stream_device(const RankOp& op) {
#if CUDART_VERSION >= 12080
  int device = -1;
  GPUPRIMS_CUDA_TRY(cudaStreamGetDevice(op.stream(), &device));
  if (device != op.info().device) return Status::invalid_argument;
#else
  (void)op;
#endif
  return Status::success;
}

// The checks before the first collective, in two parts: those without the communicator (no CUDA
// or NCCL call: a bad argument is reported even with no device), then those that ask NCCL about the
// communicator and CUDA about the device (no work enqueued).
Status check_without_comm(const RankOp& op) {
  if (op.comm() == nullptr) return Status::invalid_argument;
  return op.check_local();
}

Status check_with_comm(RankOp& op, DeviceScope& scope) {
  CommInfo info;
  GPUPRIMS_TRY(query_comm(op.comm(), &info));
  op.set_info(info);
  GPUPRIMS_TRY(op.check_ranked());
  GPUPRIMS_TRY(scope.enter(info.device));
  GPUPRIMS_TRY(check_stream_device(op));
  return op.check_device();
}

// Runs the local work of all ops (one rank each) for one phase, each on its device. A failure
// stops at the failing rank: nothing depends on the later ranks' work yet.
template <class F>
Status each(RankOp* const* ops, int count, DeviceScope& scope, F&& phase) {
  for (int i = 0; i < count; ++i) {
    GPUPRIMS_TRY(scope.enter(ops[i]->info().device));
    GPUPRIMS_TRY(phase(*ops[i]));
  }
  return Status::success;
}

void release_all(RankOp* const* ops, int count, DeviceScope& scope) {
  for (int i = 0; i < count; ++i)
    if (scope.enter(ops[i]->info().device) == Status::success) ops[i]->release();
}

Status run_group_steps(RankOp* const* ops, int count, DeviceScope& scope) {
  GPUPRIMS_TRY(each(ops, count, scope, [](RankOp& op) { return op.before(); }));
  for (int s = 0; s < ops[0]->steps(); ++s) {
    GPUPRIMS_NCCL_TRY(ncclGroupStart());
    Status st = Status::success;
    for (int i = 0; i < count && st == Status::success; ++i) st = ops[i]->collective(s);
    // The group is closed even after a failure: the thread must not stay inside it.
    const ncclResult_t end = ncclGroupEnd();
    GPUPRIMS_TRY(st);
    GPUPRIMS_NCCL_TRY(end);
    GPUPRIMS_TRY(each(ops, count, scope, [s](RankOp& op) { return op.after(s); }));
  }
  return Status::success;
}

}  // namespace

Status query_comm(ncclComm_t comm, CommInfo* out) {
  GPUPRIMS_NCCL_TRY(ncclCommCount(comm, &out->nranks));
  GPUPRIMS_NCCL_TRY(ncclCommUserRank(comm, &out->rank));
  GPUPRIMS_NCCL_TRY(ncclCommCuDevice(comm, &out->device));
  return Status::success;
}

Status run_one(RankOp& op) {
  DeviceScope scope;
  GPUPRIMS_TRY(check_without_comm(op));
  GPUPRIMS_TRY(check_with_comm(op, scope));
  Status st = op.before();
  for (int s = 0; s < op.steps() && st == Status::success; ++s) {
    st = op.collective(s);
    if (st == Status::success) st = op.after(s);
  }
  op.release();
  return st;
}

Status run_group(RankOp* const* ops, int count) {
  if (ops == nullptr || count < 1) return Status::invalid_argument;
  // Every entry is checked before any work: a bad one stops the call with no rank started, and one
  // that is bad without asking NCCL stops it before any NCCL or CUDA call.
  for (int i = 0; i < count; ++i) {
    GPUPRIMS_TRY(check_without_comm(*ops[i]));
    for (int j = 0; j < i; ++j)
      if (ops[j]->comm() == ops[i]->comm()) return Status::invalid_argument;
  }
  DeviceScope scope;
  for (int i = 0; i < count; ++i) {
    GPUPRIMS_TRY(check_with_comm(*ops[i], scope));
    // The global arguments decide the steps; entries that disagree would not match in NCCL.
    if (ops[i]->steps() != ops[0]->steps()) return Status::invalid_argument;
  }
  const Status st = run_group_steps(ops, count, scope);
  release_all(ops, count, scope);
  return st;
}

}  // namespace gpuprims::dist::detail
