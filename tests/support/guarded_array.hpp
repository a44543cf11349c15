#pragma once
// Device memory for tests: the usable span starts `offset_floats` floats past a 256-byte boundary,
// with guard bands before and after that the code under test must never touch. The span is poisoned
// with NaN before each run (outputs that were not written then fail a check), and the guards hold a
// byte pattern that is checked after the run.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpuprims::test {

class GuardedArray {
 public:
  static constexpr unsigned char kGuardByte = 0xFD;   // 0xFDFDFDFD: a large negative float, not NaN
  static constexpr unsigned char kPoisonByte = 0xFF;  // 0xFFFFFFFF: NaN

  GuardedArray(std::size_t count, int offset_floats = 0, std::size_t guard_floats = 256);
  GuardedArray(const GuardedArray&) = delete;
  GuardedArray& operator=(const GuardedArray&) = delete;
  ~GuardedArray();

  bool ok() const { return base_ != nullptr; }
  float* data() const { return data_; }
  std::size_t count() const { return count_; }

  void poison();                                // span <- NaN, guards <- pattern
  void upload(const std::vector<float>& host);  // span <- host (host.size() == count), guards <- pattern
  std::vector<float> download() const;
  // Empty when both guards hold their pattern; otherwise says where the first touched byte is.
  std::string guard_damage() const;

 private:
  void write_guards();
  unsigned char* base_ = nullptr;
  float* data_ = nullptr;
  std::size_t count_ = 0, guard_ = 0, offset_ = 0;
};

}  // namespace gpuprims::test
