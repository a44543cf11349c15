#pragma once
// What the multi-GPU tests share: one communicator per visible GPU for the whole binary (made on
// first use by ncclCommInitAll, NVLink multicast off, destroyed after the last test), a stream per
// rank, a one-rank communicator on device 0, and device arrays that remember their GPU.
#include <cuda_runtime_api.h>
#include <nccl.h>

#include <gpuprims/dist.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "support/guarded_array.hpp"

namespace gpuprims::test {

// Rank r of a clique: its communicator, device and a non-blocking stream of that device.
struct Rank {
  ncclComm_t comm = nullptr;
  int device = 0;
  cudaStream_t stream = nullptr;
};

// Every visible GPU, ranks in device order (made once; empty with fewer than two GPUs or when
// ncclCommInitAll failed, whose message comes from clique_error()).
const std::vector<Rank>& all_ranks();
// A one-rank clique on device 0 (empty without a device).
const std::vector<Rank>& one_rank();
std::string clique_error();

// Sets the current device for a scope and restores the previous one.
class OnDevice {
 public:
  explicit OnDevice(int device);
  ~OnDevice();
  OnDevice(const OnDevice&) = delete;
  OnDevice& operator=(const OnDevice&) = delete;

 private:
  int saved_ = 0;
};

// A GuardedArray on one device: made, filled, read and freed with that device current.
class RankArray {
 public:
  RankArray(int device, std::size_t count, int offset_floats = 0);
  ~RankArray();
  RankArray(const RankArray&) = delete;
  RankArray& operator=(const RankArray&) = delete;

  float* data() const { return array_->data(); }
  bool ok() const { return array_->ok(); }
  int device() const { return device_; }
  void poison();
  void upload(const std::vector<float>& host);
  std::vector<float> download() const;
  std::string guard_damage() const;

 private:
  int device_;
  std::unique_ptr<GuardedArray> array_;
};

// A Top2 result in device memory of one device, poisoned before each call.
class RankTop2 {
 public:
  explicit RankTop2(int device);
  ~RankTop2();
  RankTop2(const RankTop2&) = delete;
  RankTop2& operator=(const RankTop2&) = delete;
  Top2* data() const { return ptr_; }
  void poison();
  Top2 download() const;

 private:
  int device_;
  Top2* ptr_ = nullptr;
};

// Waits for every rank's stream; empty when all succeeded, else the errors.
std::string sync_all(const std::vector<Rank>& ranks);

// Row counts of m rows over nranks: the even split, or the explicit counts given (empty: even).
std::vector<std::int64_t> rows_per_rank(std::int64_t m, int nranks, const std::vector<std::int64_t>& counts);

}  // namespace gpuprims::test

// The skip of every multi-GPU test: fewer than two GPUs, or communicators that could not be made.
#define GPUPRIMS_REQUIRE_CLIQUE()                                                            \
  do {                                                                                       \
    GPUPRIMS_REQUIRE_GPUS(2);                                                                \
    ASSERT_FALSE(::gpuprims::test::all_ranks().empty()) << ::gpuprims::test::clique_error(); \
  } while (0)
