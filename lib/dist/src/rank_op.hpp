#pragma once
// One rank's share of a distributed call, cut into the steps that two drivers run:
//   run_one    a rank driven by its own thread or process: check, local work, then each collective
//              followed at once by the work that depends on it;
//   run_group  one thread driving several ranks: check every rank, local work on every rank, then
//              per step one ncclGroupStart/End around all ranks' collectives, and only after
//              ncclGroupEnd (when NCCL has really enqueued them) the work that depends on them.
// Neither driver waits for a device. Every check comes before the first collective and the first
// enqueued work, so a bad argument never leaves a rank waiting in a collective for others.
#include <cuda_runtime_api.h>
#include <nccl.h>

#include <gpuprims/status.hpp>

namespace gpuprims::dist::detail {

// What a call needs to know about its communicator.
struct CommInfo {
  int nranks = 0;
  int rank = 0;
  int device = 0;  // the CUDA device of this rank
};

// ncclCommCount, ncclCommUserRank and ncclCommCuDevice (host-side queries, no device work).
Status query_comm(ncclComm_t comm, CommInfo* out);

class RankOp {
 public:
  RankOp(ncclComm_t comm, cudaStream_t stream) : comm_(comm), stream_(stream) {}
  RankOp(const RankOp&) = delete;
  RankOp& operator=(const RankOp&) = delete;
  virtual ~RankOp() = default;

  ncclComm_t comm() const { return comm_; }
  cudaStream_t stream() const { return stream_; }
  const CommInfo& info() const { return info_; }

  // Checks that need no communicator; no CUDA or NCCL call.
  virtual Status check_local() const = 0;
  // Checks against the communicator's size and this rank's index, then the plan of collective
  // steps (the same on every rank: it depends on global arguments only); no CUDA or NCCL call.
  virtual Status check_ranked() = 0;
  // Checks that need this rank's device (made current by the driver): the workspace, whose size
  // the core's queries compute from the device. No work enqueued.
  virtual Status check_device() { return Status::success; }
  // Collective steps of the call; each enqueues NCCL calls only.
  virtual int steps() const = 0;
  // Local work before the first step (scratch, local compute whose result is sent).
  virtual Status before() = 0;
  virtual Status collective(int step) = 0;
  // Local work that needs step `step`'s collective done (stream-ordered after it).
  virtual Status after(int step) = 0;
  // Returns scratch, side streams and events (stream-ordered; the device's work continues).
  virtual void release() {}

  // For the drivers.
  void set_info(const CommInfo& info) { info_ = info; }

 private:
  ncclComm_t comm_;
  cudaStream_t stream_;
  CommInfo info_;
};

Status run_one(RankOp& op);
Status run_group(RankOp* const* ops, int count);

}  // namespace gpuprims::dist::detail
