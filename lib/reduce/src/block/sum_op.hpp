#pragma once
// The combine operator of the sum ladder. Host and device.
#include "common/src/host_device.hpp"

namespace gpuprims::detail {

struct SumOp {
  GPUPRIMS_HD float operator()(float a, float b) const { return a + b; }
};

}  // namespace gpuprims::detail
