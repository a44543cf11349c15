// Instantiates the few-rows path (kernels/few_rows.cuh) for each row count in kFewRowsVariants.
#include "gemm/src/kernels/few_rows.cuh"
#include "gemm/src/rungs/rungs.hpp"

namespace gpuprims::detail {

template <int kRows>
constexpr RungEntry few_rows_entry(const char* name) {
  return RungEntry{name,
                   &launch_few_rows<kRows>,
                   kRows,
                   FewRowsShape::kCols,
                   PathKind::few_rows,
                   true,
                   8,  // a multiple of 4: float4 loads of A along k stay aligned
                   FewRowsShape::step(kRows),
                   &few_rows_occupancy<kRows>};
}

static_assert(kFewRowsVariants[0] == 4 && kFewRowsVariants[1] == 8 && kFewRowsVariants[2] == 16 &&
                  kFewRowsVariants[3] == 32,
              "one entry per variant below");
const RungEntry kFewRowsPaths[kNumFewRowsPaths] = {
    few_rows_entry<4>("few_rows_4"),
    few_rows_entry<8>("few_rows_8"),
    few_rows_entry<16>("few_rows_16"),
    few_rows_entry<32>("few_rows_32"),
};

}  // namespace gpuprims::detail
