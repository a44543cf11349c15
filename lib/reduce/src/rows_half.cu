// Row-wise reductions (reduce_rows.hpp) instantiated for: __half __nv_bfloat16 (driver: rows/entry.cuh).
#include <gpuprims/reduce_rows.hpp>

#include "reduce/src/rows/entry.cuh"

GPUPRIMS_INSTANTIATE_ROWS(__half)
GPUPRIMS_INSTANTIATE_ROWS(__nv_bfloat16)
