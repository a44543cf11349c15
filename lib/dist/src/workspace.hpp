#pragma once
// Where a call's scratch lives: the caller's explicit workspace, or the library's stream-ordered
// pool (the core's StreamScratch, so dist and core share one pool per device). Layout helpers for
// the calls that gather one value per rank: the gathered values first, then the core call's own
// workspace, each part starting on a 256-byte boundary.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <new>

#include <gpuprims/status.hpp>

#include "common/src/device_buffer.hpp"
#include "common/src/math.hpp"

namespace gpuprims::dist::detail {

inline constexpr std::size_t kPartAlign = 256;

// Bytes of the gathered values: nranks of `item` bytes, rounded up to kPartAlign.
inline std::size_t gather_part_bytes(int nranks, std::size_t item) {
  return ::gpuprims::detail::round_up<std::size_t>(static_cast<std::size_t>(nranks) * item, kPartAlign);
}

// One call's scratch: the explicit workspace it was given, or an allocation from the pool that is
// returned (stream-ordered) by release().
class Scratch {
 public:
  Scratch(void* d_workspace, std::size_t bytes, bool explicit_workspace)
      : given_(d_workspace), given_bytes_(bytes), explicit_(explicit_workspace) {}
  bool is_explicit() const { return explicit_; }
  // The explicit workspace, or `bytes` from the pool on `stream` (current device: the rank's).
  Status obtain(std::size_t bytes, cudaStream_t stream) {
    if (explicit_) {
      ptr_ = given_;
      return Status::success;
    }
    pool_ = std::make_unique<::gpuprims::detail::StreamScratch>(stream);
    GPUPRIMS_TRY(pool_->allocate(bytes));
    ptr_ = pool_->get();
    return Status::success;
  }
  unsigned char* bytes() const { return static_cast<unsigned char*>(ptr_); }
  const void* given() const { return given_; }
  std::size_t given_bytes() const { return given_bytes_; }
  void release() { pool_.reset(); }

 private:
  void* given_;
  std::size_t given_bytes_;
  bool explicit_;
  void* ptr_ = nullptr;
  // On the heap, not in a std::optional: GCC 12 then warns of StreamScratch's pointer as maybe
  // uninitialized in the optional's destructor (a false positive).
  std::unique_ptr<::gpuprims::detail::StreamScratch> pool_;
};

// The public entry points return a Status and never throw: host allocations (a few small vectors)
// that fail become Status::unsupported (a valid request this process cannot serve now).
template <class F>
Status no_throw(F&& f) noexcept {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    return Status::unsupported;
  }
}

// The same for the workspace queries: 0, as for arguments no call would accept.
template <class F>
std::size_t no_throw_bytes(F&& f) noexcept {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    return 0;
  }
}

}  // namespace gpuprims::dist::detail
