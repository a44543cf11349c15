#pragma once
// The dispatch entries each rung's translation unit defines: its launcher and its output tile shape
// (the tile shape sizes the top-2 workspace: one partial per block).
#include <gpuprims/status.hpp>

#include "gemm/src/detail/gemm_call.hpp"
#include "gemm/src/tuning.hpp"

namespace gpuprims::detail {

struct RungEntry {
  const char* name;
  Status (*run)(const GemmCall&);
  int bm;
  int bn;
};

extern const RungEntry kNaiveRung;
extern const RungEntry kCoalescedRung;
extern const RungEntry kSharedTiledRung;
extern const RungEntry kBlockTile1DRung;
extern const RungEntry kBlockTile2DRung;
extern const RungEntry kVectorizedRung;
extern const RungEntry kBankConflictFreeRung;
extern const RungEntry kWarptileRung;
extern const RungEntry kDoubleBufferedRung;
extern const RungEntry kTunedConfigs[kNumTunedConfigs];

}  // namespace gpuprims::detail
