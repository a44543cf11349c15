#include "support/gpu.hpp"

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace gpuprims::test {
namespace {

// RapidCheck cases per property under the sanitizer (ctest's runs use 200).
constexpr int kSanitizerRapidCheckCases = 10;

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::string::size_type begin = 0;
  while (begin <= s.size()) {
    const std::string::size_type end = s.find(sep, begin);
    const std::string part = s.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
    if (!part.empty()) parts.push_back(part);
    if (end == std::string::npos) break;
    begin = end + 1;
  }
  return parts;
}

bool is_number(const std::string& s) { return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos; }

}  // namespace

int gpu_count() {
  static const int count = [] {
    int n = 0;
    const cudaError_t err = cudaGetDeviceCount(&n);
    if (err != cudaSuccess) {
      (void)cudaGetLastError();
      return 0;
    }
    return n;
  }();
  return count;
}

bool gpu_present() { return gpu_count() > 0; }

std::string gpu_name() {
  if (!gpu_present()) return "none";
  cudaDeviceProp prop{};
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess || cudaGetDeviceProperties(&prop, device) != cudaSuccess) return "?";
  return prop.name;
}

std::size_t gpu_free_bytes() {
  if (!gpu_present()) return 0;
  std::size_t free_bytes = 0, total = 0;
  if (cudaMemGetInfo(&free_bytes, &total) != cudaSuccess) return 0;
  return free_bytes;
}

int sm_count() {
  int device = 0, sms = 1;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess)
    return 1;
  return sms;
}

bool under_sanitizer() {
  static const bool on = [] {
    const char* env = std::getenv("GPUPRIMS_SANITIZER");
    return env != nullptr && std::strcmp(env, "1") == 0;
  }();
  return on;
}

std::int64_t sanitizer_sized_count(std::int64_t n) {
  constexpr std::int64_t kMaxItems = std::int64_t{1} << 18;
  return under_sanitizer() && n > kMaxItems ? kMaxItems + n % 4096 : n;
}

std::int64_t sanitizer_sized_dim(std::int64_t d) { return under_sanitizer() && d > 300 ? 128 + d % 128 : d; }

std::string use_gpus_assigned_by_ctest(int min_distinct) {
  const char* groups_env = std::getenv("CTEST_RESOURCE_GROUP_COUNT");
  if (groups_env == nullptr) return "";
  // Each group that holds GPUs has CTEST_RESOURCE_GROUP_<g>_GPUS = "id:0,slots:1" (several
  // allocations of the type in one group are joined by ';').
  std::vector<std::string> ids;
  const int groups = std::atoi(groups_env);
  for (int g = 0; g < groups; ++g) {
    const char* gpus = std::getenv(("CTEST_RESOURCE_GROUP_" + std::to_string(g) + "_GPUS").c_str());
    if (gpus == nullptr) continue;
    for (const std::string& allocation : split(gpus, ';'))
      for (const std::string& field : split(allocation, ','))
        if (field.rfind("id:", 0) == 0) {
          const std::string id = field.substr(3);
          bool seen = false;
          for (const auto& have : ids) seen = seen || have == id;
          if (!seen) ids.push_back(id);
        }
  }
  if (ids.empty()) return "";
  if (static_cast<int>(ids.size()) < min_distinct)
    return "ctest assigned " + std::to_string(ids.size()) + " distinct GPU(s) to a test that needs " +
           std::to_string(min_distinct) + "; keeping every GPU this process sees";
  // scripts/gpu-resource-spec.sh numbers the devices this process would see, so an id is an index
  // into an existing CUDA_VISIBLE_DEVICES (a runner that already restricts the job), else a CUDA
  // ordinal of its own.
  const char* visible_env = std::getenv("CUDA_VISIBLE_DEVICES");
  const std::vector<std::string> visible = visible_env ? split(visible_env, ',') : std::vector<std::string>{};
  std::string chosen;
  for (const std::string& id : ids) {
    std::string device = id;
    if (!visible.empty() && is_number(id) && std::stoul(id) < visible.size()) device = visible[std::stoul(id)];
    chosen += (chosen.empty() ? "" : ",") + device;
  }
  setenv("CUDA_VISIBLE_DEVICES", chosen.c_str(), 1);
  return "ctest assigned this test GPU " + chosen + " (CUDA_VISIBLE_DEVICES)";
}

void hide_gpus_from_cpu_tests() {
  // An index that names no device hides it and every one after it, so "-1" hides them all.
  setenv("CUDA_VISIBLE_DEVICES", "-1", 1);
}

void use_sanitizer_sized_rapidcheck_runs() {
  if (!under_sanitizer()) return;
  const char* given = std::getenv("RC_PARAMS");
  const std::string params = given ? given : "";
  if (params.find("max_success") != std::string::npos) return;
  const std::string sized =
      "max_success=" + std::to_string(kSanitizerRapidCheckCases) + (params.empty() ? "" : " ") + params;
  setenv("RC_PARAMS", sized.c_str(), 1);
}

}  // namespace gpuprims::test
