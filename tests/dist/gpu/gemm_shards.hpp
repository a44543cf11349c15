#pragma once
// A distributed GEMM case for the tests: the whole problem on the host (A, B, C with their paddings),
// each rank's rows of A and C and its B buffer on its device, the calls, and the checks (C rows
// against the double reference with the bound of docs/ERROR-BOUNDS.md, B after a broadcast, the
// top-2 against the one-GPU calls).
#include <gpuprims/dist.hpp>

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "dist/gpu/dist_env.hpp"
#include "support/gemm_check.hpp"

namespace gpuprims::test {

struct DistGemmCase {
  std::int64_t m = 0, n = 0, k = 0;
  std::vector<std::int64_t> counts;  // rows per rank; empty: the even split
  bool broadcast = false;
  int root = 0;
  float alpha = 1.0f, beta = 0.0f;
  bool store_c = true;  // top-2: C_local == nullptr when false (beta must be 0)
  int pad_a = 0, pad_b = 0, pad_c = 0;
  gemm::Algorithm algo = gemm::Algorithm::tuned;
  testkit::Dist dist = testkit::Dist::uniform_pm1;
  std::string describe() const;
};

struct DistGemmData {
  GemmLayout whole{};
  GemmInputs in;  // the whole problem, host
  std::vector<std::int64_t> rows, begins;
  std::vector<std::unique_ptr<RankArray>> A, B, C;
  std::vector<std::unique_ptr<RankTop2>> top2;
  bool c_poisoned = false;  // C was NaN everywhere (beta == 0)
};

// Uploads the case to every rank: A's and C's rows, B on every rank (replicated) or on the root only
// (broadcast: the others' B is NaN until the call fills it).
std::unique_ptr<DistGemmData> make_dist_gemm(const std::vector<Rank>& ranks, const DistGemmCase& c,
                                             std::mt19937_64& rng);

// One entry per rank for the array forms.
std::vector<dist::SgemmCall> dist_gemm_calls(const std::vector<Rank>& ranks, const DistGemmCase& c,
                                             const DistGemmData& d);

// Empty when every rank's C rows are within the bound (all rows, or `sample` rows per rank: its first,
// its last and some between) and their padding is untouched; else the first problems.
std::string check_dist_c(const DistGemmCase& c, const DistGemmData& d, int sample = 0);
// Empty when every rank's B holds the root's (k - 1) * ldb + n floats bit for bit.
std::string check_dist_b(const DistGemmCase& c, const DistGemmData& d);
// Guard bands of every buffer.
std::string dist_guard_damage(const DistGemmData& d);

// The one-GPU answer on device 0: gemm::sgemm_top2_argmin over the whole matrix (what dist promises
// bit for bit).
Top2 one_gpu_top2(const DistGemmCase& c, const DistGemmData& d);

// "" when equal bit for bit.
std::string top2_bits_diff(const Top2& got, const Top2& want);

}  // namespace gpuprims::test
