#pragma once
// Launch arithmetic of reduce::top2_argmin. Plain host code, tested on the CPU.
#include <cstdint>

#include "common/src/math.hpp"

namespace gpuprims::detail {

struct Top2Tuning {
  static constexpr int kThreads = 256;
  static constexpr int kItemsPerThread = 16;        // before the grid stops growing
  static constexpr std::int64_t kMaxBlocks = 2048;  // bounds the workspace, whatever the device
};

// Blocks for rows x cols entries on a device with sm_count SMs (sm_count <= 0: the upper bound).
inline std::int64_t top2_blocks(std::int64_t rows, std::int64_t cols, int sm_count) {
  const std::int64_t items = rows * cols;
  if (items <= 0) return 0;
  std::int64_t blocks = ceil_div<std::int64_t>(items, std::int64_t{Top2Tuning::kThreads} * Top2Tuning::kItemsPerThread);
  const std::int64_t resident = sm_count > 0 ? std::int64_t{sm_count} * 8 : Top2Tuning::kMaxBlocks;
  blocks = min_of(blocks, min_of(resident, Top2Tuning::kMaxBlocks));
  return max_of<std::int64_t>(blocks, 1);
}

}  // namespace gpuprims::detail
