#pragma once
// The public result of a top-2 over no entries at all ({missing, missing}), written on the device:
// reduce::top2_argmin of an empty matrix and the fused GEMM epilogue of an empty output share it.
#include <cuda_runtime_api.h>

#include <gpuprims/status.hpp>
#include <gpuprims/top2.hpp>

namespace gpuprims::detail {

//! *d_out = {missing, missing} (top2.hpp), stream-ordered.
Status write_empty_top2(Top2* d_out, cudaStream_t stream);

}  // namespace gpuprims::detail
