#pragma once
// Host entry shared by the top-2 paths: writes {missing, missing} when there are no entries at all.
#include <cuda_runtime_api.h>

#include <gpuprims/status.hpp>
#include <gpuprims/top2.hpp>

namespace gpuprims::detail {

Status write_empty_top2(Top2* d_out, cudaStream_t stream);

}  // namespace gpuprims::detail
