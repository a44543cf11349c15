// Instantiates the stream-K form (kernels/stream_k.cuh) of the tuned tile configuration that has one in
// the registry (rungs/10_tuned_configs.cu): 128 x 128 x 8. The 128 x 256 and 256 x 128 forms were
// built and measured slower than their plain kernels on an H200 (4096^3: 2.939 against 2.747 ms for
// 128 x 256; 2500^3: 0.971 against 0.899 for 256 x 128; results/nvidia-h200/README.md, run DQ). They
// use 253 of 255 registers and spill in their scalar-load and top-2 instantiations. Session 41's probes
// (run EF) of the present form, whole tiles on blocks of their own, found those tiles 3% (128 x 256) and
// 6.5% (256 x 128) slower than the plain kernel's at 4096^3 once the shared part's code sat beside them.
#include "gemm/src/kernels/stream_k.cuh"
#include "gemm/src/paths/stream_k.hpp"
#include "gemm/src/tuning.hpp"

namespace gpuprims::detail {

template Status launch_stream_k<TunedConfig0>(const GemmCall&);

}  // namespace gpuprims::detail
