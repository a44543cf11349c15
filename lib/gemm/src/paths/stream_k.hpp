#pragma once
// The stream-K form of the tuned rung's tile configurations (kernels/stream_k.cuh), declared for the
// registry (rungs/10_tuned_configs.cu) and instantiated in paths/stream_k.cu for 128 x 128 x 8, a tile
// of which an SM holds one: there a part-empty last wave costs a whole wave's time.
#include <gpuprims/status.hpp>

#include "gemm/src/detail/gemm_call.hpp"

namespace gpuprims::detail {

template <class Cfg>
Status launch_stream_k(const GemmCall& c);

}  // namespace gpuprims::detail
