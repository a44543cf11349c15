// The tuned rung's paths as one list (rungs.hpp), built from the arrays their translation units define.
#include "gemm/src/rungs/rungs.hpp"

namespace gpuprims::detail {

const std::array<const RungEntry*, kNumTunedPaths>& tuned_paths() {
  static const std::array<const RungEntry*, kNumTunedPaths> paths = [] {
    std::array<const RungEntry*, kNumTunedPaths> p{};
    int i = 0;
    for (const RungEntry& e : kTunedConfigs) p[i++] = &e;
    for (const RungEntry& e : kFewRowsPaths) p[i++] = &e;
    for (const RungEntry& e : kFewColsPaths) p[i++] = &e;
    return p;
  }();
  return paths;
}

}  // namespace gpuprims::detail
