// gpuprims::reduce::sum: argument validation, the registry from Algorithm to launcher, and the
// two-pass driver every rung shares (rung 7, single_pass, has its own launcher for small n). Pass 1 writes one partial
// per block (at most kMaxPartials blocks, a grid that fills the GPU once); pass 2 is one block of the same rung over
// the partials and writes d_out[0]. When pass 1 needs one block it writes d_out[0] itself. No atomics: bitwise
// reproducible for a given (n, variant, device, d_in address mod 16), whatever workspace is passed.
#include <gpuprims/reduce.hpp>

#include <cuda_runtime.h>

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "common/src/cluster_launch.cuh"
#include "common/src/cuda_check.hpp"
#include "common/src/device_buffer.hpp"
#include "common/src/device_info.hpp"
#include "common/src/math.hpp"
#include "reduce/src/kernels/01_baseline.cuh"
#include "reduce/src/kernels/02_no_divergence.cuh"
#include "reduce/src/kernels/03_no_bank_conflict.cuh"
#include "reduce/src/kernels/04_add_during_load.cuh"
#include "reduce/src/kernels/05_unroll_last_warp.cuh"
#include "reduce/src/kernels/06_shuffle.cuh"
#include "reduce/src/kernels/07_single_pass.cuh"
#include "reduce/src/plan.hpp"

namespace gpuprims::reduce {
namespace detail {
namespace {

using ::gpuprims::detail::DeviceInfo;
constexpr int kThreads = ReduceTuning::kThreads;
constexpr int kAlgorithmCount = static_cast<int>(kAllAlgorithms.size());

// Every rung's kernel has this signature: out[blockIdx.x] = the block's sum of its share of in[0, n).
using SumKernel = void (*)(const float*, std::int64_t, float*);

// The resident blocks per SM of a kernel, measured once per (device, rung) with the occupancy API.
constexpr int kMaxCachedDevices = 64;
std::atomic<int> g_blocks_per_sm[kMaxCachedDevices][kAlgorithmCount];

Status blocks_per_sm(SumKernel kernel, Algorithm algo, int device, int* out) {
  const bool cacheable = device >= 0 && device < kMaxCachedDevices;
  const int a = static_cast<int>(algo);
  if (cacheable) {
    const int cached = g_blocks_per_sm[device][a].load(std::memory_order_relaxed);
    if (cached > 0) {
      *out = cached;
      return Status::success;
    }
  }
  int blocks = 0;
  GPUPRIMS_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, kThreads, 0));
  if (blocks < 1) blocks = 1;
  if (cacheable) g_blocks_per_sm[device][a].store(blocks, std::memory_order_relaxed);
  *out = blocks;
  return Status::success;
}

// The launcher every rung shares: the plan for this device, then one or two launches.
template <SumKernel kKernel>
Status launch(const float* d_in, std::int64_t n, float* d_out, void* d_workspace, Algorithm algo, const DeviceInfo& dev,
              cudaStream_t stream) {
  int per_sm = 0;
  GPUPRIMS_TRY(blocks_per_sm(kKernel, algo, dev.ordinal, &per_sm));
  const ReducePlan plan = make_plan(n, algo, static_cast<std::int64_t>(dev.sm_count) * per_sm);
  if (plan.passes == 1) {
    kKernel<<<1, kThreads, 0, stream>>>(d_in, n, d_out);
    GPUPRIMS_LAUNCH_CHECK();
    return Status::success;
  }
  // plan.blocks <= max_pass1_blocks(n, algo), so the validated workspace holds every partial even
  // after the start is moved up to a 16-byte boundary.
  float* partials = reinterpret_cast<float*>(align_partials(reinterpret_cast<std::uintptr_t>(d_workspace)));
  kKernel<<<static_cast<unsigned>(plan.blocks), kThreads, 0, stream>>>(d_in, n, partials);
  GPUPRIMS_LAUNCH_CHECK();
  kKernel<<<1, kThreads, 0, stream>>>(partials, plan.blocks, d_out);
  GPUPRIMS_LAUNCH_CHECK();
  return Status::success;
}

// How rung 7 takes a small sum in one launch on a device (07_single_pass.cuh), measured once per device.
enum class SinglePassForm : int { unknown = 0, cluster, cooperative_grid, one_block };
std::atomic<int> g_single_pass_form[kMaxCachedDevices];

constexpr auto kClusterKernel = &sum_single_pass_cluster<SinglePassTuning::kGridThreads, SinglePassTuning::kGridBlocks>;
constexpr auto kGridKernel = &sum_single_pass_grid<SinglePassTuning::kGridThreads, SinglePassTuning::kGridBlocks>;

// The cluster form where the device has clusters, the kernel was built for sm_90 or later (an older
// target's code holds the empty body) and a cluster of kGridBlocks blocks fits (more than the portable
// 8: a device that refuses that size gets the next form); else the cooperative grid where cooperative
// launches are supported and its blocks are resident at once (a cooperative launch is refused
// otherwise); else one block.
Status single_pass_form(const DeviceInfo& dev, SinglePassForm* form) {
  const bool cacheable = dev.ordinal >= 0 && dev.ordinal < kMaxCachedDevices;
  const int cached = cacheable ? g_single_pass_form[dev.ordinal].load(std::memory_order_relaxed) : 0;
  if (cached != 0) {
    *form = static_cast<SinglePassForm>(cached);
    return Status::success;
  }
  *form = SinglePassForm::one_block;
  cudaFuncAttributes attr{};
  GPUPRIMS_CUDA_TRY(cudaFuncGetAttributes(&attr, kClusterKernel));
  if (dev.clusters && attr.binaryVersion >= 90) {
    const ::gpuprims::detail::ClusterLaunch launch(dim3(SinglePassTuning::kGridBlocks), SinglePassTuning::kGridThreads,
                                                   0, SinglePassTuning::kGridBlocks, nullptr);
    int clusters = 0;
    if (cudaFuncSetAttribute(kClusterKernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1) == cudaSuccess &&
        cudaOccupancyMaxActiveClusters(&clusters, kClusterKernel, &launch.config) == cudaSuccess && clusters >= 1) {
      *form = SinglePassForm::cluster;
    } else {
      (void)cudaGetLastError();  // a refused size is an answer here, not an error of the call
    }
  }
  if (*form == SinglePassForm::one_block) {
    int cooperative = 0, per_sm = 0;
    GPUPRIMS_CUDA_TRY(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, dev.ordinal));
    GPUPRIMS_CUDA_TRY(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kGridKernel, SinglePassTuning::kGridThreads, 0));
    if (cooperative != 0 && static_cast<std::int64_t>(per_sm) * dev.sm_count >= SinglePassTuning::kGridBlocks)
      *form = SinglePassForm::cooperative_grid;
  }
  if (cacheable) g_single_pass_form[dev.ordinal].store(static_cast<int>(*form), std::memory_order_relaxed);
  return Status::success;
}

// Rung 7: one launch for small n (SinglePassForm), shuffle above. The grid kernel's block sums go to
// the workspace's first 16-byte boundary, as partials do.
Status launch_single_pass(const float* d_in, std::int64_t n, float* d_out, void* d_workspace, Algorithm algo,
                          const DeviceInfo& dev, cudaStream_t stream) {
  if (!single_launch(n, algo)) return launch<&sum_shuffle<kThreads>>(d_in, n, d_out, d_workspace, algo, dev, stream);
  SinglePassForm form = SinglePassForm::one_block;
  GPUPRIMS_TRY(single_pass_form(dev, &form));
  switch (form) {
    case SinglePassForm::cluster: {
      const ::gpuprims::detail::ClusterLaunch launch(dim3(SinglePassTuning::kGridBlocks),
                                                     SinglePassTuning::kGridThreads, 0, SinglePassTuning::kGridBlocks,
                                                     stream);
      GPUPRIMS_CUDA_TRY(cudaLaunchKernelEx(&launch.config, kClusterKernel, d_in, n, d_out));
      break;
    }
    case SinglePassForm::cooperative_grid: {
      float* partials = reinterpret_cast<float*>(align_partials(reinterpret_cast<std::uintptr_t>(d_workspace)));
      void* args[] = {const_cast<float**>(&d_in), &n, &partials, &d_out};
      GPUPRIMS_CUDA_TRY(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kGridKernel),
                                                    dim3(SinglePassTuning::kGridBlocks),
                                                    dim3(SinglePassTuning::kGridThreads), args, 0, stream));
      break;
    }
    default:
      sum_single_pass_block<SinglePassTuning::kThreads><<<1, SinglePassTuning::kThreads, 0, stream>>>(d_in, n, d_out);
      break;
  }
  GPUPRIMS_LAUNCH_CHECK();
  return Status::success;
}

using Launcher = Status (*)(const float*, std::int64_t, float*, void*, Algorithm, const DeviceInfo&, cudaStream_t);

struct Entry {
  Algorithm algo;
  const char* name;
  Launcher launcher;
};

// The reduce module's registry, in ladder order (index == enum value): name(), dispatch, and through
// reduce::kAllAlgorithms (tied to it below) the tests' and benchmarks' variant lists. Adding a
// variant: its kernel file, its enum value and kAllAlgorithms entry in reduce.hpp, and one line here.
constexpr Entry kTable[] = {
    {Algorithm::baseline, "baseline", &launch<&sum_baseline<kThreads>>},
    {Algorithm::no_divergence, "no_divergence", &launch<&sum_no_divergence<kThreads>>},
    {Algorithm::no_bank_conflict, "no_bank_conflict", &launch<&sum_no_bank_conflict<kThreads>>},
    {Algorithm::add_during_load, "add_during_load", &launch<&sum_add_during_load<kThreads>>},
    {Algorithm::unroll_last_warp, "unroll_last_warp", &launch<&sum_unroll_last_warp<kThreads>>},
    {Algorithm::shuffle, "shuffle", &launch<&sum_shuffle<kThreads>>},
    {Algorithm::single_pass, "single_pass", &launch_single_pass},
};
static_assert(sizeof(kTable) / sizeof(kTable[0]) == kAlgorithmCount, "one entry per Algorithm");

constexpr bool table_in_enum_order() {
  for (int i = 0; i < kAlgorithmCount; ++i)
    if (static_cast<int>(kTable[i].algo) != i || kTable[i].algo != kAllAlgorithms[i]) return false;
  return true;
}
static_assert(table_in_enum_order(), "kTable is indexed by the enum value");

// Everything but the workspace. No CUDA call.
Status validate(const float* d_in, std::int64_t n, const float* d_out, Algorithm algo) {
  using ::gpuprims::detail::float_aligned;
  if (!valid_algorithm(algo)) return Status::invalid_argument;
  if (n < 0) return Status::invalid_argument;
  if (d_out == nullptr) return Status::invalid_argument;
  if (d_in == nullptr && n > 0) return Status::invalid_argument;
  if (!float_aligned(d_out)) return Status::misaligned_pointer;
  if (d_in != nullptr && !float_aligned(d_in)) return Status::misaligned_pointer;
  return Status::success;
}

}  // namespace
}  // namespace detail

const char* name(Algorithm algo) noexcept {
  if (!detail::valid_algorithm(algo)) return "unknown";
  return detail::kTable[static_cast<int>(algo)].name;
}

std::size_t workspace_bytes(std::int64_t n, Algorithm algo) noexcept { return detail::workspace_bytes_for(n, algo); }

Status sum(const float* d_in, std::int64_t n, float* d_out, void* d_workspace, std::size_t workspace_size,
           Algorithm algo, cudaStream_t stream) {
  GPUPRIMS_TRY(detail::validate(d_in, n, d_out, algo));
  const std::size_t needed = detail::workspace_bytes_for(n, algo);
  if (needed > 0) {
    if (d_workspace == nullptr || workspace_size < needed) return Status::invalid_argument;
    if (!::gpuprims::detail::float_aligned(d_workspace)) return Status::misaligned_pointer;
  }
  // Validation is over; from here on CUDA is touched.
  const ::gpuprims::detail::DeviceInfo* dev = nullptr;
  GPUPRIMS_TRY(::gpuprims::detail::current_device_info(&dev));
  if (n == 0) {
    GPUPRIMS_CUDA_TRY(cudaMemsetAsync(d_out, 0, sizeof(float), stream));
    return Status::success;
  }
  return detail::kTable[static_cast<int>(algo)].launcher(d_in, n, d_out, d_workspace, algo, *dev, stream);
}

Status sum(const float* d_in, std::int64_t n, float* d_out, Algorithm algo, cudaStream_t stream) {
  GPUPRIMS_TRY(detail::validate(d_in, n, d_out, algo));
  GPUPRIMS_TRY(::gpuprims::detail::require_device());
  const std::size_t needed = detail::workspace_bytes_for(n, algo);
  ::gpuprims::detail::StreamScratch scratch(stream);
  GPUPRIMS_TRY(scratch.allocate(needed));
  return sum(d_in, n, d_out, scratch.get(), needed, algo, stream);
}

}  // namespace gpuprims::reduce
