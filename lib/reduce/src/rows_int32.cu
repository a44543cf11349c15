// Row-wise reductions (reduce_rows.hpp) instantiated for: std::int32_t std::uint32_t (driver: rows/entry.cuh).
#include <gpuprims/reduce_rows.hpp>

#include "reduce/src/rows/entry.cuh"

GPUPRIMS_INSTANTIATE_ROWS(std::int32_t)
GPUPRIMS_INSTANTIATE_ROWS(std::uint32_t)
