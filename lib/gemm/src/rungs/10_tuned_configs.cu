// Instantiates the tuned rung's tile paths: rung 9's double-buffered kernel in several tile shapes,
// each able to split k over block rows (the small tiles also in one launch, through a cluster:
// paths/cluster_split.cu; 128 x 128 x 8 also in a stream-K form: paths/stream_k.cu).
// Which one runs for a shape, and in which form, is the cost model's choice (cost_model.hpp).
#include "gemm/src/kernels/09_double_buffered.cuh"
#include "gemm/src/paths/cluster_split.hpp"
#include "gemm/src/paths/stream_k.hpp"
#include "gemm/src/rungs/rungs.hpp"

namespace gpuprims::detail {

// run_cluster / cluster_usable: the cluster split-K form (paths/cluster_split.cu), or nullptr;
// run_stream_k: the stream-K form (paths/stream_k.cu), or nullptr.
#define GPUPRIMS_TUNED_ENTRY(Cfg, label, run_cluster, cluster_usable, run_stream_k)                  \
  RungEntry {                                                                                        \
    label, &launch_double_buffered<Cfg>, Cfg::BM, Cfg::BN, PathKind::tile, true, Cfg::BK, Cfg::BK,   \
        &double_buffered_occupancy<Cfg>, run_cluster, cluster_usable, nullptr, nullptr, run_stream_k \
  }

const RungEntry kTunedConfigs[kNumTunedConfigs] = {
    GPUPRIMS_TUNED_ENTRY(TunedConfig0, "db_128x128x8_w32x64", nullptr, nullptr, &launch_stream_k<TunedConfig0>),
    GPUPRIMS_TUNED_ENTRY(TunedConfig1, "db_128x128x16_w32x64", nullptr, nullptr, nullptr),
    GPUPRIMS_TUNED_ENTRY(TunedConfig2, "db_128x256x8_w64x64", nullptr, nullptr, nullptr),
    GPUPRIMS_TUNED_ENTRY(TunedConfig3, "db_256x128x8_w64x64", nullptr, nullptr, nullptr),
    GPUPRIMS_TUNED_ENTRY(TunedConfig4, "db_64x128x16_w32x64", &launch_cluster_split_k<TunedConfig4>,
                         &cluster_split_usable<TunedConfig4>, nullptr),
    GPUPRIMS_TUNED_ENTRY(TunedConfig5, "db_64x64x16_w32x32", &launch_cluster_split_k<TunedConfig5>,
                         &cluster_split_usable<TunedConfig5>, nullptr),
    GPUPRIMS_TUNED_ENTRY(TunedConfig6, "db_32x64x32_w32x32", &launch_cluster_split_k<TunedConfig6>,
                         &cluster_split_usable<TunedConfig6>, nullptr),
};

#undef GPUPRIMS_TUNED_ENTRY

}  // namespace gpuprims::detail
