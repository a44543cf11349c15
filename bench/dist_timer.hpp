#pragma once
// Timing work that spans several GPUs: per rank CUDA events, and a common start. Before each timed
// run every rank's stream flushes L2, then spins in a one-thread "gate" kernel on a flag in mapped
// host memory; the host enqueues the whole run (collectives included) behind the gates and then
// opens them all at once. Each rank's time is from its start event (right after its gate) to its
// stop event; the run's time is the largest of them, i.e. from the common start to the last rank's
// end. Warm-up runs first, then the median over the timed runs, like bench/harness.hpp's Timer.
#include <cuda_runtime_api.h>

#include <vector>

#include "harness.hpp"

namespace gpuprims::bench {

class MultiTimer {
 public:
  // One entry per rank, in rank order; l2_bytes sizes each rank's flush (twice the L2).
  MultiTimer(const std::vector<int>& devices, int l2_bytes);
  ~MultiTimer();
  MultiTimer(const MultiTimer&) = delete;
  MultiTimer& operator=(const MultiTimer&) = delete;

  cudaStream_t stream(int rank) const { return ranks_[static_cast<std::size_t>(rank)].stream; }
  int device(int rank) const { return ranks_[static_cast<std::size_t>(rank)].device; }

  // fn() enqueues one run on the streams of ranks [0, used) (and may issue collectives). Exits with
  // a message when a gate timed out: the enqueue blocked on the device, and the timing is void.
  template <class F>
  Timing time(int used, F&& fn, const TimingOptions& opt) {
    for (int i = 0; i < opt.warmup; ++i) {
      fn();
      sync(used);
    }
    std::vector<float> ms;
    for (int i = 0; i < opt.reps; ++i) {
      arm(used, opt.flush_l2);
      fn();
      ms.push_back(release_and_measure(used));
    }
    return summarize(ms);
  }

 private:
  struct Rank {
    int device = 0;
    cudaStream_t stream = nullptr;
    cudaEvent_t start = nullptr, stop = nullptr;
    void* flush = nullptr;
  };
  void sync(int used);
  void arm(int used, bool flush_l2);
  float release_and_measure(int used);

  std::vector<Rank> ranks_;
  std::size_t flush_bytes_ = 0;
  volatile int* gate_ = nullptr;  // [0]: open, [1]: a gate timed out (mapped host memory)
};

}  // namespace gpuprims::bench
