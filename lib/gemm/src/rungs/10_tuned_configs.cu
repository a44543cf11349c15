// Instantiates the tuned rung's candidate configurations (all on the double-buffered kernel). Which
// one runs for a shape is decided by tuned_pick.hpp from the measured table.
#include "gemm/src/kernels/09_double_buffered.cuh"
#include "gemm/src/rungs/rungs.hpp"

namespace gpuprims::detail {

#define GPUPRIMS_TUNED_ENTRY(Cfg, label) \
  RungEntry { label, &launch_double_buffered<Cfg>, Cfg::BM, Cfg::BN }

const RungEntry kTunedConfigs[kNumTunedConfigs] = {
    GPUPRIMS_TUNED_ENTRY(TunedConfig0, "db_128x128x8_w32x64"),
    GPUPRIMS_TUNED_ENTRY(TunedConfig1, "db_128x128x16_w32x64"),
    GPUPRIMS_TUNED_ENTRY(TunedConfig2, "db_128x256x8_w64x64"),
    GPUPRIMS_TUNED_ENTRY(TunedConfig3, "db_256x128x8_w64x64"),
    GPUPRIMS_TUNED_ENTRY(TunedConfig4, "db_64x128x16_w32x64"),
    GPUPRIMS_TUNED_ENTRY(TunedConfig5, "db_64x64x16_w32x32"),
    GPUPRIMS_TUNED_ENTRY(TunedConfig6, "db_32x64x32_w32x32"),
};

#undef GPUPRIMS_TUNED_ENTRY

}  // namespace gpuprims::detail
