// Instantiates the outer-product path (kernels/outer_product.cuh): one kernel per epilogue visitor.
#include "gemm/src/kernels/outer_product.cuh"
#include "gemm/src/rungs/rungs.hpp"

namespace gpuprims::detail {

const RungEntry kOuterProductPath{"outer_k4",
                                  &launch_outer_product,
                                  OuterProductShape::kRows,
                                  OuterProductShape::kWindow,
                                  PathKind::outer_product,
                                  false,  // k is at most 4: nothing to split
                                  1,
                                  OuterProductShape::kMaxK,  // k_step: the most k one block covers
                                  &outer_product_occupancy};

}  // namespace gpuprims::detail
