#include "harness.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <sstream>

namespace gpuprims::bench {

void check(cudaError_t err, const char* what) {
  if (err == cudaSuccess) return;
  std::fprintf(stderr, "[bench] CUDA failure: %s: %s\n", what, cudaGetErrorString(err));
  std::exit(2);
}

void check(cublasStatus_t status, const char* what) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  std::fprintf(stderr, "[bench] cuBLAS failure %d: %s\n", static_cast<int>(status), what);
  std::exit(2);
}

bool gpu_info(GpuInfo* out) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::fprintf(stderr, "[bench] no CUDA device found: benchmarks need a GPU\n");
    return false;
  }
  int dev = 0;
  cudaDeviceProp p{};
  BENCH_CUDA(cudaGetDevice(&dev));
  BENCH_CUDA(cudaGetDeviceProperties(&p, dev));
  out->name = p.name;
  out->sm_count = p.multiProcessorCount;
  out->l2_bytes = p.l2CacheSize;
  out->cc_major = p.major;
  out->cc_minor = p.minor;
  out->global_mem_bytes = p.totalGlobalMem;
  BENCH_CUDA(cudaDeviceGetAttribute(&out->sm_clock_khz, cudaDevAttrClockRate, dev));
  BENCH_CUDA(cudaDeviceGetAttribute(&out->mem_clock_khz, cudaDevAttrMemoryClockRate, dev));
  BENCH_CUDA(cudaRuntimeGetVersion(&out->runtime_version));
  BENCH_CUDA(cudaDriverGetVersion(&out->driver_version));
  return true;
}

Timer::Timer(const GpuInfo& gpu) {
  BENCH_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  BENCH_CUDA(cudaEventCreate(&start_));
  BENCH_CUDA(cudaEventCreate(&stop_));
  flush_bytes_ = static_cast<std::size_t>(std::max(gpu.l2_bytes, 1 << 20)) * 2;
  BENCH_CUDA(cudaMalloc(&flush_buffer_, flush_bytes_));
}

Timer::~Timer() {
  cudaFree(flush_buffer_);
  cudaEventDestroy(start_);
  cudaEventDestroy(stop_);
  cudaStreamDestroy(stream_);
}

void Timer::flush() { BENCH_CUDA(cudaMemsetAsync(flush_buffer_, 0x5a, flush_bytes_, stream_)); }

Timing summarize(std::vector<float> ms) {
  Timing t;
  t.reps = static_cast<int>(ms.size());
  if (ms.empty()) return t;
  std::sort(ms.begin(), ms.end());
  const std::size_t n = ms.size();
  t.median_ms = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
  t.min_ms = ms.front();
  t.max_ms = ms.back();
  return t;
}

double measure_copy_gbs(Timer& timer, std::size_t bytes) {
  void *a = nullptr, *b = nullptr;
  BENCH_CUDA(cudaMalloc(&a, bytes));
  BENCH_CUDA(cudaMalloc(&b, bytes));
  BENCH_CUDA(cudaMemset(a, 0x3c, bytes));
  const Timing t =
      timer.time([&] { BENCH_CUDA(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, timer.stream())); });
  cudaFree(a);
  cudaFree(b);
  return 2.0 * static_cast<double>(bytes) / (t.median_ms * 1e-3) / 1e9;
}

namespace {

std::string escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    if (static_cast<unsigned char>(c) < 0x20) continue;
    o += c;
  }
  return o;
}

std::string to_json(const JsonValue& v) {
  if (const auto* s = std::get_if<std::string>(&v)) return "\"" + escape(*s) + "\"";
  if (const auto* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  if (const auto* i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
  const double d = std::get<double>(v);
  if (!std::isfinite(d)) return "null";
  std::ostringstream os;
  os.precision(6);
  os << d;
  return os.str();
}

std::string record_json(const JsonRecord& r, const char* indent) {
  std::string o = "{";
  for (std::size_t i = 0; i < r.size(); ++i) {
    o += (i ? ", " : "") + std::string("\"") + escape(r[i].first) + "\": " + to_json(r[i].second);
  }
  (void)indent;
  return o + "}";
}

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

}  // namespace

Report::Report(std::string benchmark, const GpuInfo& gpu, const TimingOptions& opt) {
  header_ = {{"benchmark", benchmark},
             {"gpu", gpu.name},
             {"date", utc_now()},
             {"sm_count", std::int64_t{gpu.sm_count}},
             {"l2_bytes", std::int64_t{gpu.l2_bytes}},
             {"compute_capability", std::to_string(gpu.cc_major) + "." + std::to_string(gpu.cc_minor)},
             {"sm_clock_mhz", std::int64_t{gpu.sm_clock_khz / 1000}},
             {"cuda_runtime", std::int64_t{gpu.runtime_version}},
             {"cuda_driver", std::int64_t{gpu.driver_version}},
             {"timing", std::string("CUDA events; median of ") + std::to_string(opt.reps) + " runs after " +
                            std::to_string(opt.warmup) + " warm-up runs; L2 " +
                            (opt.flush_l2 ? "flushed before every run" : "not flushed")}};
}

void Report::set(const std::string& key, JsonValue value) {
  for (auto& kv : header_)
    if (kv.first == key) {
      kv.second = std::move(value);
      return;
    }
  header_.emplace_back(key, std::move(value));
}

void Report::add(JsonRecord record) { results_.push_back(std::move(record)); }

bool Report::write(const std::string& path) const {
  std::ofstream f(path);
  if (!f) {
    std::fprintf(stderr, "[bench] cannot write %s\n", path.c_str());
    return false;
  }
  f << "{\n";
  for (const auto& kv : header_) f << "  \"" << escape(kv.first) << "\": " << to_json(kv.second) << ",\n";
  f << "  \"results\": [\n";
  for (std::size_t i = 0; i < results_.size(); ++i)
    f << "    " << record_json(results_[i], "") << (i + 1 < results_.size() ? ",\n" : "\n");
  f << "  ]\n}\n";
  std::fprintf(stderr, "[bench] wrote %s\n", path.c_str());
  return static_cast<bool>(f);
}

namespace {

// The fields of one flat JSON object written by record_json / Report::write: "key": value pairs,
// values being numbers, true/false/null or strings with \" and \\ escapes.
FlatRecord parse_flat(const std::string& text) {
  FlatRecord r;
  std::size_t i = 0;
  auto skip_space = [&] {
    while (i < text.size() && (text[i] == ' ' || text[i] == ',' || text[i] == '{' || text[i] == '}')) ++i;
  };
  auto read_string = [&] {
    std::string out;
    for (++i; i < text.size() && text[i] != '"'; ++i) {
      if (text[i] == '\\' && i + 1 < text.size()) ++i;
      out += text[i];
    }
    ++i;
    return out;
  };
  for (skip_space(); i < text.size() && text[i] == '"'; skip_space()) {
    const std::string key = read_string();
    while (i < text.size() && (text[i] == ':' || text[i] == ' ')) ++i;
    if (i < text.size() && text[i] == '"') {
      r[key] = read_string();
    } else {
      const std::size_t end = text.find_first_of(",}", i);
      r[key] = text.substr(i, end == std::string::npos ? std::string::npos : end - i);
      i = end == std::string::npos ? text.size() : end;
    }
  }
  return r;
}

}  // namespace

bool read_report(const std::string& path, FlatRecord* header, std::vector<FlatRecord>* records) {
  std::ifstream f(path);
  if (!f) return false;
  std::string line;
  bool in_results = false;
  while (std::getline(f, line)) {
    const std::size_t start = line.find_first_not_of(' ');
    if (start == std::string::npos) continue;
    if (line.compare(start, 11, "\"results\": ") == 0) {
      in_results = true;
    } else if (in_results && line[start] == '{') {
      records->push_back(parse_flat(line.substr(start)));
    } else if (!in_results && line[start] == '"') {
      const FlatRecord kv = parse_flat(line.substr(start));
      header->insert(kv.begin(), kv.end());
    }
  }
  return true;
}

Args parse_args(int argc, char** argv, const std::string& default_out) {
  Args a;
  a.out = default_out;
  for (int i = 1; i < argc; ++i) {
    const std::string s = argv[i];
    if (s == "--out" && i + 1 < argc) a.out = argv[++i];
    else if (s == "--quick") a.quick = true;
  }
  return a;
}

bool parse_beta(int argc, char** argv, float* beta) {
  *beta = 0.0f;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) != "--beta") continue;
    char* end = nullptr;
    const float value = i + 1 < argc ? std::strtof(argv[i + 1], &end) : 0.0f;
    if (i + 1 >= argc || end == argv[i + 1] || *end != '\0' || !std::isfinite(value)) {
      std::fprintf(stderr, "[bench] --beta takes a finite number, not '%s'\n", i + 1 < argc ? argv[i + 1] : "");
      return false;
    }
    *beta = value;
    ++i;
  }
  return true;
}

void progress(const std::string& what, double ms, const std::string& extra) {
  std::fprintf(stderr, "[bench] %-48s %10.4f ms %s\n", what.c_str(), ms, extra.c_str());
}

}  // namespace gpuprims::bench
