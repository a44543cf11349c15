#include "dist/gpu/dist_env.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#include "support/gpu.hpp"

namespace gpuprims::test {
namespace {

struct Clique {
  bool tried = false;
  std::vector<Rank> ranks;
  std::string error;
};

Clique& many() {
  static Clique c;
  return c;
}
Clique& single() {
  static Clique c;
  return c;
}

void make(Clique& c, int count) {
  c.tried = true;
  if (count < 1) return;
  // NVLink multicast (NVLS) stays off on the lent machines; NCCL reads this at initialization.
  setenv("NCCL_NVLS_ENABLE", "0", 1);
  std::vector<ncclComm_t> comms(static_cast<std::size_t>(count));
  const Status st = dist::make_local_comms(comms.data(), count);
  if (st != Status::success) {
    c.error = std::string("make_local_comms over ") + std::to_string(count) + " GPU(s): " + to_string(st);
    return;
  }
  for (int i = 0; i < count; ++i) {
    Rank r;
    r.comm = comms[static_cast<std::size_t>(i)];
    r.device = i;
    OnDevice on(i);
    if (cudaStreamCreateWithFlags(&r.stream, cudaStreamNonBlocking) != cudaSuccess) c.error = "cudaStreamCreate failed";
    c.ranks.push_back(r);
  }
}

void destroy(Clique& c) {
  for (Rank& r : c.ranks) {
    OnDevice on(r.device);
    if (r.stream != nullptr) (void)cudaStreamDestroy(r.stream);
    (void)dist::destroy_local_comms(&r.comm, 1);
  }
  c.ranks.clear();
}

// Destroys the communicators after the last test, while CUDA and NCCL are still up (a static
// destructor would run after them at exit).
class CliqueEnvironment : public ::testing::Environment {
 public:
  void TearDown() override {
    destroy(many());
    destroy(single());
  }
};
[[maybe_unused]] ::testing::Environment* const g_environment =
    ::testing::AddGlobalTestEnvironment(new CliqueEnvironment);

}  // namespace

const std::vector<Rank>& all_ranks() {
  Clique& c = many();
  if (!c.tried && gpu_count() >= 2) make(c, gpu_count());
  return c.ranks;
}

const std::vector<Rank>& one_rank() {
  Clique& c = single();
  if (!c.tried && gpu_count() >= 1) make(c, 1);
  return c.ranks;
}

std::string clique_error() { return many().error.empty() ? single().error : many().error; }

OnDevice::OnDevice(int device) {
  (void)cudaGetDevice(&saved_);
  (void)cudaSetDevice(device);
}
OnDevice::~OnDevice() { (void)cudaSetDevice(saved_); }

RankArray::RankArray(int device, std::size_t count, int offset_floats) : device_(device) {
  OnDevice on(device_);
  array_ = std::make_unique<GuardedArray>(count, offset_floats);
}
RankArray::~RankArray() {
  OnDevice on(device_);
  array_.reset();
}
void RankArray::poison() {
  OnDevice on(device_);
  array_->poison();
}
void RankArray::upload(const std::vector<float>& host) {
  OnDevice on(device_);
  array_->upload(host);
}
std::vector<float> RankArray::download() const {
  OnDevice on(device_);
  return array_->download();
}
std::string RankArray::guard_damage() const {
  OnDevice on(device_);
  return array_->guard_damage();
}

RankTop2::RankTop2(int device) : device_(device) {
  OnDevice on(device_);
  if (cudaMalloc(reinterpret_cast<void**>(&ptr_), sizeof(Top2)) != cudaSuccess) ptr_ = nullptr;
  poison();
}
RankTop2::~RankTop2() {
  OnDevice on(device_);
  if (ptr_ != nullptr) (void)cudaFree(ptr_);
}
void RankTop2::poison() {
  OnDevice on(device_);
  if (ptr_ != nullptr) (void)cudaMemset(ptr_, 0x7F, sizeof(Top2));
  (void)cudaDeviceSynchronize();
}
Top2 RankTop2::download() const {
  OnDevice on(device_);
  Top2 t;
  std::memset(&t, 0, sizeof t);
  if (ptr_ != nullptr) (void)cudaMemcpy(&t, ptr_, sizeof t, cudaMemcpyDeviceToHost);
  return t;
}

std::string sync_all(const std::vector<Rank>& ranks) {
  std::string errors;
  for (const Rank& r : ranks) {
    OnDevice on(r.device);
    const cudaError_t e = cudaStreamSynchronize(r.stream);
    if (e != cudaSuccess) errors += "rank on device " + std::to_string(r.device) + ": " + cudaGetErrorString(e) + "; ";
    const cudaError_t last = cudaGetLastError();
    if (last != cudaSuccess) errors += std::string("last error: ") + cudaGetErrorString(last) + "; ";
  }
  return errors;
}

std::vector<std::int64_t> rows_per_rank(std::int64_t m, int nranks, const std::vector<std::int64_t>& counts) {
  if (!counts.empty()) return counts;
  std::vector<std::int64_t> out;
  for (int r = 0; r < nranks; ++r) {
    dist::RowRange range;
    (void)dist::even_row_range(m, nranks, r, &range);
    out.push_back(range.count);
  }
  return out;
}

}  // namespace gpuprims::test
