#pragma once
// What every benchmark binary shares: the GPU's description, timing with CUDA events (warm-up, L2
// flushed before every timed run and outside the timed region, median of >= 20 runs), and a small
// JSON writer. Ours and the vendor's run in the same process through the same timer.
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "common/src/device_buffer.hpp"

namespace gpuprims::bench {

struct GpuInfo {
  std::string name;
  int sm_count = 0;
  int l2_bytes = 0;
  int cc_major = 0, cc_minor = 0;
  int sm_clock_khz = 0, mem_clock_khz = 0;
  int runtime_version = 0, driver_version = 0;
  std::size_t global_mem_bytes = 0;
};

// Fails loudly (returns false and prints) when there is no device: benchmarks need one.
bool gpu_info(GpuInfo* out);

// Exits the process with a message when a CUDA or cuBLAS call fails: benchmarks are programs, not
// the library.
void check(cudaError_t err, const char* what);
void check(cublasStatus_t status, const char* what);
#define BENCH_CUDA(expr) ::gpuprims::bench::check((expr), #expr)
#define BENCH_CUBLAS(expr) ::gpuprims::bench::check((expr), #expr)

// count Ts of device memory (cudaMalloc), freed with the buffer, as the tests own theirs; exits with
// a message naming `what` when the allocation fails.
template <class T>
detail::DeviceBuffer<T> device_buffer(std::size_t count, const char* what) {
  detail::DeviceBuffer<T> buffer;
  if (buffer.allocate(count) != Status::success) {
    const cudaError_t err = cudaGetLastError();
    check(err != cudaSuccess ? err : cudaErrorMemoryAllocation, what);
  }
  return buffer;
}

struct Timing {
  double median_ms = 0, min_ms = 0, max_ms = 0;
  int reps = 0;
};

// Median, min and max of the per-run times (ms), as every timer reports them.
Timing summarize(std::vector<float> ms);

struct TimingOptions {
  int warmup = 3;
  int reps = 25;  // >= 20
  bool flush_l2 = true;
};

// Owns the scratch that evicts L2 between runs (a write of twice the L2 size).
class Timer {
 public:
  explicit Timer(const GpuInfo& gpu);
  ~Timer();
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;

  // fn enqueues the work to time on stream(). Returns the statistics of the timed runs.
  template <class F>
  Timing time(F&& fn, const TimingOptions& opt = {}) {
    for (int i = 0; i < opt.warmup; ++i) fn();
    BENCH_CUDA(cudaStreamSynchronize(stream_));
    std::vector<float> ms(static_cast<std::size_t>(opt.reps));
    for (int i = 0; i < opt.reps; ++i) {
      if (opt.flush_l2) flush();
      BENCH_CUDA(cudaEventRecord(start_, stream_));
      fn();
      BENCH_CUDA(cudaEventRecord(stop_, stream_));
      BENCH_CUDA(cudaEventSynchronize(stop_));
      BENCH_CUDA(cudaEventElapsedTime(&ms[static_cast<std::size_t>(i)], start_, stop_));
    }
    BENCH_CUDA(cudaGetLastError());
    return summarize(ms);
  }
  cudaStream_t stream() const { return stream_; }
  void flush();

 private:
  cudaStream_t stream_ = nullptr;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
  void* flush_buffer_ = nullptr;
  std::size_t flush_bytes_ = 0;
};

// Device-to-device copy bandwidth (bytes read + written per second), the memory ceiling.
double measure_copy_gbs(Timer& timer, std::size_t bytes);

// A flat JSON document: top-level fields plus a "results" array of flat records.
using JsonValue = std::variant<std::string, double, std::int64_t, bool>;
using JsonRecord = std::vector<std::pair<std::string, JsonValue>>;

class Report {
 public:
  Report(std::string benchmark, const GpuInfo& gpu, const TimingOptions& opt);
  void set(const std::string& key, JsonValue value);
  void add(JsonRecord record);
  bool write(const std::string& path) const;  // also prints where it went

 private:
  JsonRecord header_;
  std::vector<JsonRecord> results_;
};

// Reads back what Report::write wrote: the top-level fields and the records, each value as its JSON
// text (strings without their quotes). False when the file cannot be read.
using FlatRecord = std::map<std::string, std::string>;
bool read_report(const std::string& path, FlatRecord* header, std::vector<FlatRecord>* records);

// Command-line: --out FILE (default <benchmark>.json), --quick (fewer shapes, for smoke runs).
struct Args {
  std::string out;
  bool quick = false;
};
Args parse_args(int argc, char** argv, const std::string& default_out);

// --beta B: the beta of the timed calls (0 without the flag). False, after a message on stderr, when
// B is missing or not a finite number.
bool parse_beta(int argc, char** argv, float* beta);

// One progress line on stderr: "[bench] name ... 1.234 ms".
void progress(const std::string& what, double ms, const std::string& extra = {});

}  // namespace gpuprims::bench
