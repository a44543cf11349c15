#pragma once
// Running one SGEMM on the device the way every GEMM test wants it (guarded, offset, padded, C
// poisoned or filled) and checking its output against the double reference with the bound of
// docs/ERROR-BOUNDS.md.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <gpuprims/gemm.hpp>

#include "support/guarded_array.hpp"
#include "support/random.hpp"
#include "support/reference.hpp"
#include "testkit/random.hpp"

namespace gpuprims::test {

struct GemmLayout {
  std::int64_t m, n, k;
  std::int64_t lda, ldb, ldc;           // >= the row length
  int off_a = 0, off_b = 0, off_c = 0;  // floats past a 256-byte boundary
  std::string describe() const;
};

// Tight leading dimensions plus the given padding.
GemmLayout make_layout(std::int64_t m, std::int64_t n, std::int64_t k, int pad_a = 0, int pad_b = 0, int pad_c = 0,
                       int off_a = 0, int off_b = 0, int off_c = 0);

struct GemmInputs {
  std::vector<float> A, B, C;  // row-major with the layout's leading dimensions (padding included)
};
GemmInputs make_inputs(const GemmLayout& l, std::mt19937_64& rng, testkit::Dist dist = testkit::Dist::uniform_pm1);

//! Inputs whose fused top-2 (global or per row) is easy to get wrong, for alpha < 0 (the order is
//! then the scaled values'): minima tied many times over (small integers), NaN rows beside -inf
//! minima that tie, every entry NaN, every entry equal, +inf at four places among NaN (the result is
//! two of them, which no float compare ranks), zeros of both signs (equal values: the lowest
//! positions win).
enum class SpecialData { ties, nan_rows_and_infinities, all_nan, all_equal, infinities_among_nan, signed_zeros };
constexpr SpecialData kSpecialData[] = {
    SpecialData::ties,      SpecialData::nan_rows_and_infinities, SpecialData::all_nan,
    SpecialData::all_equal, SpecialData::infinities_among_nan,    SpecialData::signed_zeros};
//! Random inputs of the layout (from seed) made into `data`.
GemmInputs special_inputs(const GemmLayout& l, SpecialData data, std::uint64_t seed);

//! A, B and C of one layout in guarded device memory (GuardedArray: each at its layout offset, guard
//! bands around), A and B uploaded from `in` when all three were allocated; C is left to the test
//! (upload or poison it).
struct GuardedOperands {
  GuardedOperands(const GemmLayout& l, const GemmInputs& in);
  bool ok() const { return a.ok() && b.ok() && c.ok(); }
  std::string guard_damage() const { return a.guard_damage() + b.guard_damage() + c.guard_damage(); }
  GuardedArray a, b, c;
};

struct GemmRun {
  Status status = Status::cuda_error;
  std::vector<float> C;      // the whole m x ldc buffer after the call
  std::string guard_damage;  // empty when untouched
  std::string cuda_error;    // empty when the launch and the sync succeeded
};
// Uploads A, B and C (C replaced by NaN everywhere when poison_c: beta == 0 must not read it), runs
// sgemm, synchronizes and downloads C.
GemmRun run_sgemm(const GemmLayout& l, const GemmInputs& in, gemm::Algorithm algo, float alpha, float beta,
                  bool poison_c);

// Empty when every element of the m x n window is within algo's bound of alpha * sum + beta * C_in
// (NaN fails) and every padding element (columns n..ldc-1) is bitwise what it was; else a description
// of the first problems.
std::string check_gemm(const GemmLayout& l, const ProductReference& ref, float alpha, float beta,
                       const std::vector<float>& c_in, const std::vector<float>& c_out, bool c_was_poisoned,
                       gemm::Algorithm algo = gemm::Algorithm::tuned);

}  // namespace gpuprims::test
