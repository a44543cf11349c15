#include "testkit/shapes.hpp"

namespace gpuprims::testkit {

std::string shape_name(std::int64_t m, std::int64_t n, std::int64_t k) {
  return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
}

std::string shape_name(const GemmShape& s) { return shape_name(s.m, s.n, s.k); }

std::vector<GemmShape> path_exemplars() {
  return {{64, 64, 65536, "tiny_output_long_k"},
          {1, 4096, 4096, "narrow"},
          {4096, 1, 4096, "narrow"},
          {100, 8192, 4096, "one_side_64_128"},
          {2339, 7091, 1, "random"}};
}

}  // namespace gpuprims::testkit
