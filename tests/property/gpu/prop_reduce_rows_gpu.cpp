// RapidCheck: the row-wise reductions against the CPU per-row reference of support/rows_check.hpp
// over random shapes (biased to the regime edges of rows/plan.hpp), leading-dimension padding, start
// offsets, workspace offsets, operators, element types and value mixes (uniform, ties, specials).
// Exact bytes for integers and min/max/arg*, docs/ERROR-BOUNDS.md's bound for floating-point sums;
// and the top-2 per row. Each case also runs twice and must give the same bytes.
#include <gtest/gtest.h>

#include <rapidcheck.h>

#include <gpuprims/reduce_rows.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "reduce/src/rows/plan.hpp"
#include "support/gpu.hpp"
#include "support/random.hpp"
#include "support/rows_check.hpp"

namespace {

using gpuprims::reduce::Operator;
namespace rows = gpuprims::test::rows;
namespace rd = gpuprims::reduce::detail;

struct Shape {
  std::int64_t rows, cols, ld, offset;
};

// Rows x cols with at most ~2^21 elements (2^18 under the sanitizer), biased to the regime edges.
rc::Gen<Shape> gen_shape() {
  const std::int64_t budget = gpuprims::test::sized_for_sanitizer(std::int64_t{1} << 21, std::int64_t{1} << 18);
  std::vector<std::int64_t> edges = {0, 1, 2, 3, 4, 5, 7, 8, 9, 31, 32, 33, 127, 128, 129};
  for (std::int64_t e : {rd::RowTuning::kGroupMaxCols, rd::group_max_cols(2), rd::group_max_cols(4),
                         rd::RowTuning::kMinColsPerSplit * 2, rd::RowTuning::kLongCols, std::int64_t{65536}})
    for (std::int64_t d = -2; d <= 2; ++d) edges.push_back(e + d);
  return rc::gen::mapcat(
      rc::gen::oneOf(rc::gen::elementOf(edges), rc::gen::inRange<std::int64_t>(0, 300),
                     rc::gen::inRange<std::int64_t>(0, 5000), rc::gen::inRange<std::int64_t>(0, budget)),
      [budget](std::int64_t cols) {
    const std::int64_t max_rows = std::max<std::int64_t>(1, budget / std::max<std::int64_t>(cols, 1));
    return rc::gen::apply(
        [cols](std::int64_t r, std::int64_t pad, std::int64_t offset) {
      return Shape{r, cols, std::max<std::int64_t>(cols, 1) + pad, offset};
        },
        rc::gen::oneOf(rc::gen::inRange<std::int64_t>(0, std::min<std::int64_t>(max_rows, 8) + 1),
                       rc::gen::inRange<std::int64_t>(0, max_rows + 1)),
        rc::gen::oneOf(rc::gen::just<std::int64_t>(0), rc::gen::inRange<std::int64_t>(0, 10)),
        rc::gen::inRange<std::int64_t>(0, 4));
      });
}

rc::Gen<rows::Values> gen_values() {
  return rc::gen::element(rows::Values::uniform, rows::Values::ties, rows::Values::specials,
                          rows::Values::special_rows);
}

template <class T>
void check_one(const Shape& s, rows::Values v, Operator op, std::uint64_t seed) {
  auto rng = gpuprims::test::make_rng(seed);
  const rows::Matrix<T> m = rows::make_matrix<T>(s.rows, s.cols, s.ld, s.offset, v, rng);
  const rows::DeviceMatrix<T> dm(m);
  const bool explicit_ws = *rc::gen::arbitrary<bool>();
  const int ws_offset = *rc::gen::element(0, 4, 8);
  RC_LOG() << rows::name(op) << " " << s.rows << " x " << s.cols << " ld " << s.ld << " offset " << s.offset
           << " values " << static_cast<int>(v) << " explicit_ws " << explicit_ws;
  std::string error;
  const auto out = rows::run(op, m, dm, explicit_ws, ws_offset, &error);
  RC_LOG() << error;
  RC_ASSERT(error.empty());
  const std::string mismatch = rows::check(op, m, out, gpuprims::test::sm_count());
  RC_LOG() << mismatch;
  RC_ASSERT(mismatch.empty());
  const auto again = rows::run(op, m, dm, !explicit_ws, (ws_offset + 4) % 12, &error);
  RC_ASSERT(error.empty());
  RC_ASSERT(again == out);
}

TEST(ReduceRowsPropGpu, EveryOperatorMatchesThePerRowReference) {
  GPUPRIMS_REQUIRE_GPU();
  EXPECT_TRUE(rc::check("row reductions equal the CPU per-row reference (sums within the bound)", [] {
    const Shape s = *gen_shape();
    const rows::Values v = *gen_values();
    const Operator op =
        *rc::gen::element(Operator::sum, Operator::min, Operator::max, Operator::argmin, Operator::argmax);
    const std::uint64_t seed = *rc::gen::arbitrary<std::uint64_t>();
    switch (*rc::gen::inRange(0, 7)) {
      case 0: check_one<float>(s, v, op, seed); break;
      case 1: check_one<double>(s, v, op, seed); break;
      case 2: check_one<__half>(s, v, op, seed); break;
      case 3: check_one<__nv_bfloat16>(s, v, op, seed); break;
      case 4: check_one<std::int32_t>(s, v, op, seed); break;
      case 5: check_one<std::uint32_t>(s, v, op, seed); break;
      default: check_one<std::int64_t>(s, v, op, seed); break;
    }
  }));
}

TEST(ReduceRowsPropGpu, Top2MatchesThePerRowReference) {
  GPUPRIMS_REQUIRE_GPU();
  EXPECT_TRUE(rc::check("row_top2_argmin equals the CPU per-row top-2, every byte", [] {
    const Shape s = *gen_shape();
    const rows::Values v = *gen_values();
    auto rng = gpuprims::test::make_rng(*rc::gen::arbitrary<std::uint64_t>());
    const rows::Matrix<float> m = rows::make_matrix<float>(s.rows, s.cols, s.ld, s.offset, v, rng);
    const rows::DeviceMatrix<float> dm(m);
    RC_LOG() << s.rows << " x " << s.cols << " ld " << s.ld << " offset " << s.offset << " values "
             << static_cast<int>(v);
    std::string error;
    const auto got = rows::run_top2(m, dm, *rc::gen::arbitrary<bool>(), &error);
    RC_LOG() << error;
    RC_ASSERT(error.empty());
    const std::string mismatch = rows::check_top2(m, got);
    RC_LOG() << mismatch;
    RC_ASSERT(mismatch.empty());
  }));
}

}  // namespace
