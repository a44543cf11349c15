#pragma once
// GEMM shapes: the type every shape list uses, and the shapes that the tests and the benchmarks
// both name. The benchmarks' own suites (the held-out suite and the autotuner's tuning set) are in
// bench/gemm_shapes.hpp, and the shape lists of one test or one benchmark stay beside it.
#include <cstdint>
#include <string>
#include <vector>

namespace gpuprims::testkit {

struct GemmShape {
  std::int64_t m, n, k;
  std::string cls = {};  // the class it stands for in reports ("" where none)
};

// "MxNxK", the name reports, progress lines and test names give a shape.
std::string shape_name(std::int64_t m, std::int64_t n, std::int64_t k);
std::string shape_name(const GemmShape& s);

// One shape of each kind on which the tuned rung leaves the plain unsplit tiles (for split-K,
// few-rows, few-columns or outer-product plans), in this order: a small output with a long k
// (64 x 64 x 65536), one row (1 x 4096 x 4096), one column (4096 x 1 x 4096), one side of 100
// (100 x 8192 x 4096), k = 1 with an odd ldc (2339 x 7091 x 1, the held-out suite's worst shape
// before the outer-product path); each labelled with its held-out class. top2_bench times the fused call on
// them beside its classic shapes, and the CPU tests check that the workspace queries cover the plans
// picked there.
std::vector<GemmShape> path_exemplars();

}  // namespace gpuprims::testkit
