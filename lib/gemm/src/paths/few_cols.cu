// Instantiates the few-columns path (kernels/few_cols.cuh) for each column count in kFewColsVariants.
#include "gemm/src/kernels/few_cols.cuh"
#include "gemm/src/rungs/rungs.hpp"

namespace gpuprims::detail {

template <int kCols>
constexpr RungEntry few_cols_entry(const char* name) {
  return RungEntry{name,
                   &launch_few_cols<kCols>,
                   FewColsShape::rows_per_block(kCols),
                   kCols,
                   PathKind::few_cols,
                   true,
                   4,  // float4 loads of A along k stay aligned
                   FewColsShape::kKStep,
                   &few_cols_occupancy<kCols>};
}

static_assert(kFewColsVariants[0] == 4 && kFewColsVariants[1] == 8 && kFewColsVariants[2] == 16 &&
                  kFewColsVariants[3] == 32,
              "one entry per variant below");
const RungEntry kFewColsPaths[kNumFewColsPaths] = {
    few_cols_entry<4>("few_cols_4"),
    few_cols_entry<8>("few_cols_8"),
    few_cols_entry<16>("few_cols_16"),
    few_cols_entry<32>("few_cols_32"),
};

}  // namespace gpuprims::detail
