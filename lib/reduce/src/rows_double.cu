// Row-wise reductions (reduce_rows.hpp) instantiated for: double (driver: rows/entry.cuh).
#include <gpuprims/reduce_rows.hpp>

#include "reduce/src/rows/entry.cuh"

GPUPRIMS_INSTANTIATE_ROWS(double)
