// The row-wise reductions (reduce_rows.hpp) on a device: every operator x element type against the CPU
// per-row reference of support/rows_check.hpp (exact bytes for integers and min/max/arg*, the bound of
// docs/ERROR-BOUNDS.md for floating-point sums), on shapes of every regime (1 x 1, 1 x 3,000,017,
// huge x 1, 7 x prime, rows of 32 to 2^20, cols == 0), padded and odd leading dimensions, inputs offset
// by one element, NaN / ±inf / ±0 / ties at random positions and rows made of them; both the explicit-workspace and the
// stream-ordered forms; determinism over 10 runs; row_top2_argmin against the CPU top-2 and against
// top2_argmin over each row; rows past one block-per-row launch; bad inputs; one matrix past 2^31 elements. Under the
// sanitizer (GPUPRIMS_SANITIZER=1) the large shapes shrink (keeping their regime) and the huge one is 2^21.
#include <gtest/gtest.h>

#include <gpuprims/reduce.hpp>
#include <gpuprims/reduce_rows.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "common/src/device_buffer.hpp"
#include "reduce/src/rows/plan.hpp"
#include "support/device_helpers.hpp"
#include "support/gpu.hpp"
#include "support/guarded_array.hpp"
#include "support/random.hpp"
#include "support/rows_check.hpp"
#include "support/rows_in_launches.hpp"
#include "testkit/random.hpp"

namespace {

using gpuprims::Status;
using gpuprims::Top2;
using gpuprims::reduce::Operator;
namespace rows = gpuprims::test::rows;
namespace rd = gpuprims::reduce::detail;
using rows::Values;

const Operator kOps[] = {Operator::sum, Operator::min, Operator::max, Operator::argmin, Operator::argmax};

struct Shape {
  std::int64_t rows, cols, ld, offset;
};

std::string label(const Shape& s) {
  return std::to_string(s.rows) + " x " + std::to_string(s.cols) + " ld " + std::to_string(s.ld) + " offset " +
         std::to_string(s.offset);
}

// Under the sanitizer: long rows to 2^17 + their tail, many rows to 4096 + theirs (regimes kept).
Shape sized(Shape s) {
  if (!gpuprims::test::under_sanitizer()) return s;
  const std::int64_t pad = s.ld - s.cols;
  if (s.cols > 131072) s.cols = 131072 + s.cols % 4096;
  if (s.rows > 4096) s.rows = 4096 + s.rows % 64;
  s.ld = s.cols + pad > 0 ? s.cols + pad : 1;
  return s;
}

// Every regime and its edges (rows/plan.hpp): lane groups of 1-32 lanes, block per row, split rows.
std::vector<Shape> shapes() {
  const std::vector<Shape> all = {
      {1, 1, 1, 0},
      {1, 1, 1, 1},
      {5, 0, 1, 0},
      {3, 0, 4, 1},
      {7, 1009, 1009, 0},
      {7, 1009, 1013, 1},
      {1, 3000017, 3000017, 1},
      {3, 1000003, 1000011, 0},
      {1000003, 1, 1, 0},
      {100003, 1, 3, 1},
      {4, 1 << 20, 1 << 20, 0},
      {131072, 32, 32, 0},  // 4-byte elements: 2 lanes of four vectors (sums: 4 of two); 2-byte: 1 lane of four
      {1000, 33, 37, 1},    // 4-byte elements: 4 lanes; 2-byte: 2 lanes, head and tail
      {16384, 256, 256, 0},
      {300, 257, 301, 1},  // lane groups of 32 (4-byte elements) or 16 (2-byte); 8-byte: a block per row
      {500, 509, 511, 1},  // 4-byte elements: 32 lanes of up to four vectors, head and tail
      {200, 512, 512, 0},
      {130, 1024, 1029, 1},  // 2-byte elements: 32 lanes of four vectors (their group_max_cols); others a block
      {40, 1025, 1025, 0},   // 2-byte elements: past the lane groups, a block per row
      {700, 6, 7, 1},        // groups of two lanes, rows at every element offset mod 16 (8-byte: both)
      {300, 65, 67, 1},      // 2-byte elements: 4 lanes of about two vectors, head and tail; 4-byte: 8 lanes
      {2000, 64, 64, 0},     // 2-byte elements: 2 lanes of four vectors (33-64 columns)
      {700, 37, 41, 1},      // 2-byte elements: 2 lanes of about two vectors, head and tail
      {700, 29, 31, 1},      // 2-byte elements: 1 lane, head and tail looped (17-32 columns); 4-byte: 2 or 4 lanes
      {900, 13, 15, 1},      // 4-byte min / max / arg*: 1 lane, head and tail looped (9-16 columns); others scalar
      {3000, 61, 63, 1},     // 4-byte elements: 4 lanes of up to four vectors, head and tail
      {1024, 4096, 4096, 0},
      {513, 4099, 4103, 1},
      {64, 65536, 65536, 1},
      {1201, 16411, 16413, 1},   // long rows, enough for a block each: 512 threads, 1024 for sums of 64 KiB rows
      {200, 7000, 7003, 1},      // sums of 4- and 8-byte rows in 512-thread blocks (48 bytes a thread or more)
      {300, 131075, 131077, 1},  // too few for a block each, too many to split four ways: 1024-thread blocks
      {2, 5, 5, 1},
      {1000, 8, 9, 0},
      {999, 3, 3, 1},
      {257, 17, 17, 0},  // 4-byte elements: 2 lanes (sums 4); 2-byte: 1 lane, a row at every offset mod 16
      {33, 129, 131, 1},
      {5, 300000, 300001, 0},
      {64, 4096, 4096, 0},   // 256-thread blocks, four vectors a thread (float_row_scan.cuh's scans)
      {300, 3001, 3001, 0},  // 128-thread blocks, a batch of four vectors and a partial one
      {400, 1500, 1503, 1},  // 64-thread blocks, five or six vectors a thread
      {100, 3583, 3587, 1},  // 256-thread blocks, three or four vectors a thread
      {9, 40000, 40003, 1},  // split rows, small enough for every value mix
  };
  std::vector<Shape> out;
  for (const Shape& s : all) out.push_back(sized(s));
  return out;
}

bool small(const Shape& s) { return s.rows * s.cols <= (std::int64_t{1} << 20); }

template <class T>
class ReduceRowsGpu : public ::testing::Test {};
using Types = ::testing::Types<float, double, __half, __nv_bfloat16, std::int32_t, std::uint32_t, std::int64_t>;
TYPED_TEST_SUITE(ReduceRowsGpu, Types);

// Every operator, every shape; uniform values everywhere, specials and ties on the smaller shapes.
TYPED_TEST(ReduceRowsGpu, EveryOperatorMatchesTheReference) {
  using T = TypeParam;
  GPUPRIMS_REQUIRE_GPU();
  auto rng = gpuprims::test::make_rng(0x5201 + sizeof(T) * 7 + std::is_integral_v<T>);
  int call = 0;
  for (const Shape& s : shapes()) {
    for (Values v : {Values::uniform, Values::specials, Values::ties, Values::special_rows}) {
      if (v != Values::uniform && !small(s)) continue;
      const rows::Matrix<T> m = rows::make_matrix<T>(s.rows, s.cols, s.ld, s.offset, v, rng);
      const rows::DeviceMatrix<T> dm(m);
      for (Operator op : kOps) {
        SCOPED_TRACE(std::string(rows::name(op)) + " " + label(s) + " values " + std::to_string(static_cast<int>(v)));
        std::string error;
        const bool explicit_ws = (call % 2) == 0;
        const auto out = rows::run(op, m, dm, explicit_ws, (call / 2) % 2 ? 4 : 0, &error);
        ++call;
        ASSERT_EQ("", error);
        EXPECT_EQ("", rows::check(op, m, out, gpuprims::test::sm_count()));
      }
    }
  }
}

// rows == 0 writes nothing and makes no CUDA call: the poisoned output stays as it was.
TYPED_TEST(ReduceRowsGpu, NoRowsWritesNothing) {
  using T = TypeParam;
  GPUPRIMS_REQUIRE_GPU();
  auto rng = gpuprims::test::make_rng(0x5202);
  const rows::Matrix<T> m = rows::make_matrix<T>(1, 8, 8, 0, Values::uniform, rng);
  const rows::DeviceMatrix<T> dm(m);
  gpuprims::test::GuardedArray out(16);
  for (Operator op : kOps) {
    out.poison();
    ASSERT_STATUS(Status::success, rows::call(op, dm.ptr, 0, 8, 8, out.data(), nullptr, 0, true));
    ASSERT_STATUS(Status::success, rows::call(op, dm.ptr, 0, 8, 8, out.data(), nullptr, 0, false));
    CUDA_OK(cudaDeviceSynchronize());
    for (float f : out.download()) {
      std::uint32_t b;
      std::memcpy(&b, &f, sizeof b);
      ASSERT_EQ(0xffffffffu, b) << rows::name(op);
    }
  }
}

// Same inputs, same bits: floating-point sums (split, block and lane paths) and the top-2, 10 runs.
TEST(ReduceRowsGpuDeterminism, SameBitsOverTenRuns) {
  GPUPRIMS_REQUIRE_GPU();
  auto rng = gpuprims::test::make_rng(0x5203);
  for (Shape s :
       {Shape{1, 3000017, 3000017, 1}, Shape{64, 65536, 65536, 1}, Shape{1000, 33, 37, 1}, Shape{300, 4099, 4103, 0}}) {
    s = sized(s);
    SCOPED_TRACE(label(s));
    const rows::Matrix<float> m = rows::make_matrix<float>(s.rows, s.cols, s.ld, s.offset, Values::uniform, rng);
    const rows::DeviceMatrix<float> dm(m);
    std::string error;
    const auto first = rows::run(Operator::sum, m, dm, true, 0, &error);
    ASSERT_EQ("", error);
    const auto first_top2 = rows::run_top2(m, dm, true, &error);
    ASSERT_EQ("", error);
    for (int i = 0; i < 10; ++i) {
      ASSERT_EQ(first, rows::run(Operator::sum, m, dm, i % 2 == 0, 0, &error)) << "run " << i;
      ASSERT_EQ("", error);
      const auto again = rows::run_top2(m, dm, i % 2 == 1, &error);
      ASSERT_EQ("", error);
      ASSERT_EQ(0, std::memcmp(first_top2.data(), again.data(), first_top2.size() * sizeof(Top2))) << "run " << i;
    }
    // Half sums too (accumulated in float; the element width changes the vectors).
    const rows::Matrix<__half> h = rows::make_matrix<__half>(s.rows, s.cols, s.ld, s.offset, Values::uniform, rng);
    const rows::DeviceMatrix<__half> dh(h);
    const auto hfirst = rows::run(Operator::sum, h, dh, true, 0, &error);
    for (int i = 0; i < 10; ++i)
      ASSERT_EQ(hfirst, rows::run(Operator::sum, h, dh, true, 0, &error)) << "half run " << i;
  }
}

// Floating-point sums with specials: NaN anywhere gives NaN, +inf and -inf together NaN, one of them
// that infinity (checked by rows::check for every type with Values::specials above); here one row of
// each kind explicitly.
TEST(ReduceRowsGpuSpecials, SumsOfNaNAndInfinities) {
  GPUPRIMS_REQUIRE_GPU();
  for (std::int64_t cols : {std::int64_t{9}, std::int64_t{1000}, std::int64_t{200003}}) {
    rows::Matrix<float> m;
    m.rows = 4, m.cols = cols, m.ld = cols, m.offset = 0;
    m.data.assign(static_cast<std::size_t>(4 * cols + cols), 0.5f);
    const float inf = std::numeric_limits<float>::infinity();
    m.data[static_cast<std::size_t>(cols / 2)] = std::numeric_limits<float>::quiet_NaN();
    m.data[static_cast<std::size_t>(cols + cols - 1)] = inf;
    m.data[static_cast<std::size_t>(2 * cols)] = inf;
    m.data[static_cast<std::size_t>(2 * cols + cols / 3)] = -inf;
    m.data[static_cast<std::size_t>(3 * cols + 1)] = -inf;
    const rows::DeviceMatrix<float> dm(m);
    std::string error;
    const auto out = rows::run(Operator::sum, m, dm, true, 0, &error);
    ASSERT_EQ("", error);
    float s[4];
    std::memcpy(s, out.data(), sizeof s);
    EXPECT_TRUE(std::isnan(s[0])) << cols;
    EXPECT_EQ(inf, s[1]) << cols;
    EXPECT_TRUE(std::isnan(s[2])) << cols;
    EXPECT_EQ(-inf, s[3]) << cols;
    EXPECT_EQ("", rows::check(Operator::sum, m, out, gpuprims::test::sm_count()));
  }
}

// row_top2_argmin: the CPU top-2 of each row (every byte), and top2_argmin over each row alone with
// its row index fixed up, which the fused GEMM epilogue must also match.
TEST(ReduceRowsGpuTop2, MatchesTheReferenceAndTop2ArgminPerRow) {
  GPUPRIMS_REQUIRE_GPU();
  auto rng = gpuprims::test::make_rng(0x5204);
  int call = 0;
  for (const Shape& s : shapes()) {
    for (Values v : {Values::uniform, Values::specials, Values::ties, Values::special_rows}) {
      if (v != Values::uniform && !small(s)) continue;
      SCOPED_TRACE(label(s) + " values " + std::to_string(static_cast<int>(v)));
      const rows::Matrix<float> m = rows::make_matrix<float>(s.rows, s.cols, s.ld, s.offset, v, rng);
      const rows::DeviceMatrix<float> dm(m);
      std::string error;
      const auto got = rows::run_top2(m, dm, (call++ % 2) == 0, &error);
      ASSERT_EQ("", error);
      EXPECT_EQ("", rows::check_top2(m, got));
      // One row at a time through the global top-2 (a few rows of each shape).
      gpuprims::detail::DeviceBuffer<Top2> one(1);
      ASSERT_TRUE(one);
      for (std::int64_t r = 0; r < s.rows && r < 6; ++r) {
        const std::int64_t row = r < 3 ? r : s.rows - 1 - (r - 3);
        ASSERT_STATUS(Status::success, gpuprims::reduce::top2_argmin(dm.ptr + row * s.ld, 1, s.cols,
                                                                     s.cols > 0 ? s.cols : 1, one.get()));
        Top2 g{};
        CUDA_OK(cudaMemcpy(&g, one.get(), sizeof g, cudaMemcpyDeviceToHost));
        if (g.first.row == 0) g.first.row = row;
        if (g.second.row == 0) g.second.row = row;
        EXPECT_EQ(0, std::memcmp(&g, &got[static_cast<std::size_t>(row)], sizeof g)) << "row " << row;
      }
    }
  }
}

// Rows past one launch of the block-per-row path (RowPlan::grid: 2^30 blocks, more rows than any
// matrix a test can hold) take further launches, each block one row. Here launches of 1, 2, 7 and 64
// rows over 37 rows and over 9 long ones: each output byte for byte the one-launch call's (the same
// blocks, the same trees) and the CPU reference's, nothing written past it.
TEST(ReduceRowsGpuLaunches, RowsPastOneLaunchTakeFurtherLaunches) {
  GPUPRIMS_REQUIRE_GPU();
  namespace t = gpuprims::test;
  auto rng = t::make_rng(0x5208);
  for (const Shape& s : {Shape{37, 1000, 1003, 1}, Shape{9, 5003, 5003, 0}}) {
    const rd::RowPlan plan = rd::make_row_plan(s.rows, s.cols, 16, t::sm_count());
    ASSERT_EQ(rd::RowPath::block_per_row, plan.path) << label(s);
    const int threads = plan.threads;
    const int top2_threads = rd::block_threads(s.cols, rd::RowTuning::kTop2ColsPerThread);
    for (Values v : {Values::uniform, Values::specials, Values::ties}) {
      SCOPED_TRACE(label(s) + " values " + std::to_string(static_cast<int>(v)));
      const rows::Matrix<float> m = rows::make_matrix<float>(s.rows, s.cols, s.ld, s.offset, v, rng);
      const rows::DeviceMatrix<float> dm(m);
      std::string error;
      const auto want_arg = rows::run(Operator::argmin, m, dm, true, 0, &error);
      ASSERT_EQ("", error);
      const auto want_sum = rows::run(Operator::sum, m, dm, true, 0, &error);
      ASSERT_EQ("", error);
      const auto want_top2 = rows::run_top2(m, dm, true, &error);
      ASSERT_EQ("", error);
      ASSERT_EQ("", rows::check(Operator::argmin, m, want_arg, t::sm_count()));
      ASSERT_EQ("", rows::check(Operator::sum, m, want_sum, t::sm_count()));
      ASSERT_EQ("", rows::check_top2(m, want_top2));
      for (std::int64_t grid : {1, 2, 7, 64}) {
        SCOPED_TRACE("launches of " + std::to_string(grid) + " rows");
        const auto rows_n = static_cast<std::size_t>(s.rows);
        t::GuardedArray arg(rows_n * sizeof(gpuprims::ArgResult<float>) / 4);
        t::GuardedArray sum(rows_n);
        t::GuardedArray top2(rows_n * sizeof(Top2) / 4);
        ASSERT_TRUE(arg.ok() && sum.ok() && top2.ok());
        ASSERT_STATUS(Status::success, t::row_argmin_in_launches(
                                           dm.ptr, s.rows, s.cols, s.ld,
                                           reinterpret_cast<gpuprims::ArgResult<float>*>(arg.data()), threads, grid));
        ASSERT_STATUS(Status::success, t::row_sum_in_launches(dm.ptr, s.rows, s.cols, s.ld, sum.data(), threads, grid));
        ASSERT_STATUS(Status::success,
                      t::row_top2_in_launches(dm.ptr, s.rows, s.cols, s.ld, reinterpret_cast<Top2*>(top2.data()),
                                              top2_threads, grid));
        CUDA_OK(cudaDeviceSynchronize());
        const std::vector<float> got_arg = arg.download(), got_sum = sum.download(), got_top2 = top2.download();
        EXPECT_EQ(0, std::memcmp(got_arg.data(), want_arg.data(), want_arg.size()));
        EXPECT_EQ(0, std::memcmp(got_sum.data(), want_sum.data(), want_sum.size()));
        EXPECT_EQ(0, std::memcmp(got_top2.data(), want_top2.data(), want_top2.size() * sizeof(Top2)));
        EXPECT_EQ("", arg.guard_damage());
        EXPECT_EQ("", sum.guard_damage());
        EXPECT_EQ("", top2.guard_damage());
      }
    }
  }
  // A grid of no blocks is refused before any launch.
  gpuprims::detail::DeviceBuffer<float> out(1);
  ASSERT_TRUE(out);
  EXPECT_EQ(Status::invalid_argument, t::row_sum_in_launches(out.get(), 1, 300, 300, out.get(), 64, 0));
}

// Bad inputs on a device: a Status, nothing written, nothing launched.
TEST(ReduceRowsGpuValidation, BadInputsReturnStatusAndWriteNothing) {
  GPUPRIMS_REQUIRE_GPU();
  namespace r = gpuprims::reduce;
  auto rng = gpuprims::test::make_rng(0x5205);
  const std::int64_t cols = 1 << 20;
  const rows::Matrix<float> m = rows::make_matrix<float>(1, cols, cols, 0, Values::uniform, rng);
  const rows::DeviceMatrix<float> dm(m);
  gpuprims::test::GuardedArray out(64);
  const std::size_t wsb = r::row_workspace_bytes<float>(Operator::sum, 1, cols);
  ASSERT_GT(wsb, 0u);
  gpuprims::test::GuardedArray ws(wsb / 4 + 8);
  float* o = out.data();
  EXPECT_STATUS(Status::invalid_argument, r::row_sum(dm.ptr, 1, cols, cols, o, ws.data(), wsb - 1));
  EXPECT_STATUS(Status::invalid_argument, r::row_sum(dm.ptr, 1, cols, cols, o, nullptr, wsb));
  EXPECT_STATUS(Status::misaligned_pointer, r::row_sum(dm.ptr, 1, cols, cols, o, ws.data() + 1, wsb));
  EXPECT_STATUS(Status::invalid_argument, r::row_sum(dm.ptr, 1, cols, cols - 1, o, ws.data(), wsb));
  EXPECT_STATUS(Status::invalid_argument, r::row_sum(dm.ptr, -1, cols, cols, o));
  EXPECT_STATUS(Status::invalid_argument, r::row_max(static_cast<const float*>(nullptr), 1, cols, cols, o));
  EXPECT_STATUS(Status::misaligned_pointer,
                r::row_min(reinterpret_cast<const float*>(reinterpret_cast<const char*>(dm.ptr) + 1), 1, 5, 5, o));
  EXPECT_STATUS(Status::misaligned_pointer,
                r::row_argmin(dm.ptr, 1, 5, 5, reinterpret_cast<gpuprims::ArgResult<float>*>(o + 1)));
  EXPECT_STATUS(Status::invalid_argument,
                r::row_top2_argmin(dm.ptr, 1, cols, cols, reinterpret_cast<Top2*>(o), ws.data(), 1));
  CUDA_OK(cudaDeviceSynchronize());
  CUDA_OK(cudaGetLastError());
  for (float f : out.download()) ASSERT_TRUE(std::isnan(f)) << "an output was written";
  EXPECT_EQ("", out.guard_damage());
  EXPECT_EQ("", ws.guard_damage());
}

// A user stream: the call is enqueued there and the result is right after synchronizing it.
TEST(ReduceRowsGpuStream, RunsOnTheCallersStream) {
  GPUPRIMS_REQUIRE_GPU();
  auto rng = gpuprims::test::make_rng(0x5206);
  const rows::Matrix<std::int32_t> m = rows::make_matrix<std::int32_t>(3, 200003, 200003, 1, Values::uniform, rng);
  const rows::DeviceMatrix<std::int32_t> dm(m);
  cudaStream_t stream = nullptr;
  CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  gpuprims::test::GuardedArray out(6);
  ASSERT_STATUS(Status::success, gpuprims::reduce::row_sum(dm.ptr, 3, 200003, 200003,
                                                           reinterpret_cast<std::int64_t*>(out.data()), stream));
  CUDA_OK(cudaStreamSynchronize(stream));
  CUDA_OK(cudaStreamDestroy(stream));
  std::vector<unsigned char> bytes(3 * sizeof(std::int64_t));
  const auto host = out.download();
  std::memcpy(bytes.data(), host.data(), bytes.size());
  EXPECT_EQ("", rows::check(Operator::sum, m, bytes, gpuprims::test::sm_count()));
}

// Past 2^31 elements: two long rows 2^30 + 7 wide with ld = 2^30 + 9 (split path, row 1 starts past
// 2^30 elements and ends past 2^31), and 2049 short rows of 3 with ld = 2^20 + 1 (lane path, r * ld
// past 2^31). Sums against the device's double reference; argmax / min / top-2 of planted values.
TEST(ReduceRowsGpuHuge, RowsPast2Pow31Elements) {
  GPUPRIMS_REQUIRE_GPU();
  const int log2 = gpuprims::test::sized_for_sanitizer(30, 20);
  const std::int64_t cols = (std::int64_t{1} << log2) + 7, ld = (std::int64_t{1} << log2) + 9;
  const std::int64_t count = 2 * ld + (std::int64_t{1} << (log2 - 4));  // room for short rows past 2^31
  ASSERT_GE(gpuprims::test::gpu_free_bytes(),
            static_cast<std::size_t>(count) * sizeof(float) + (std::size_t{256} << 20))
      << "needs ~8.9 GB of free device memory";
  gpuprims::detail::DeviceBuffer<float> buf(static_cast<std::size_t>(count));
  ASSERT_TRUE(buf);
  CUDA_OK(gpuprims::testkit::fill_uniform(buf.get(), count, gpuprims::test::base_seed() ^ 0x5207, -1.0f, 1.0f));
  // Long rows: sums.
  {
    gpuprims::detail::DeviceBuffer<float> out(2);
    ASSERT_STATUS(Status::success, gpuprims::reduce::row_sum(buf.get(), 2, cols, ld, out.get()));
    float got[2];
    CUDA_OK(cudaMemcpy(got, out.get(), sizeof got, cudaMemcpyDeviceToHost));
    for (int r = 0; r < 2; ++r) {
      gpuprims::test::SumReference ref{};
      CUDA_OK(gpuprims::test::device_reference_sum(buf.get() + r * ld, cols, &ref));
      const double bound =
          rows::sum_bound(2, cols, gpuprims::test::sm_count(), sizeof(float), std::ldexp(1.0, -24), ref.abs_sum);
      const double err = std::fabs(static_cast<double>(got[r]) - ref.sum);
      EXPECT_TRUE(err <= bound) << "row " << r << ": " << got[r] << " vs " << ref.sum << " bound " << bound;
    }
  }
  // Planted extremes near the end of row 1 (past 2^31 elements from the start).
  const float big = 5.0f, low1 = -7.0f, low2 = -6.0f;
  const std::int64_t at_max = cols - 3, at_low1 = cols - 2, at_low2 = 5;
  CUDA_OK(cudaMemcpy(buf.get() + ld + at_max, &big, sizeof big, cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(buf.get() + ld + at_low1, &low1, sizeof low1, cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(buf.get() + ld + at_low2, &low2, sizeof low2, cudaMemcpyHostToDevice));
  {
    gpuprims::detail::DeviceBuffer<gpuprims::ArgResult<float>> arg(2);
    ASSERT_STATUS(Status::success, gpuprims::reduce::row_argmax(buf.get(), 2, cols, ld, arg.get()));
    gpuprims::ArgResult<float> got[2];
    CUDA_OK(cudaMemcpy(got, arg.get(), sizeof got, cudaMemcpyDeviceToHost));
    EXPECT_EQ(at_max, got[1].index);
    EXPECT_EQ(big, got[1].value);
    gpuprims::detail::DeviceBuffer<float> low(2);
    ASSERT_STATUS(Status::success, gpuprims::reduce::row_min(buf.get(), 2, cols, ld, low.get()));
    float lows[2];
    CUDA_OK(cudaMemcpy(lows, low.get(), sizeof lows, cudaMemcpyDeviceToHost));
    EXPECT_EQ(low1, lows[1]);
    gpuprims::detail::DeviceBuffer<Top2> top(2);
    ASSERT_STATUS(Status::success, gpuprims::reduce::row_top2_argmin(buf.get(), 2, cols, ld, top.get()));
    Top2 t[2];
    CUDA_OK(cudaMemcpy(t, top.get(), sizeof t, cudaMemcpyDeviceToHost));
    EXPECT_EQ(low1, t[1].first.value);
    EXPECT_EQ(1, t[1].first.row);
    EXPECT_EQ(at_low1, t[1].first.col);
    EXPECT_EQ(low2, t[1].second.value);
    EXPECT_EQ(at_low2, t[1].second.col);
  }
  // Short rows with r * ld past 2^31: the lane-group path's 64-bit addressing.
  {
    const std::int64_t sld = (std::int64_t{1} << (log2 - 10)) + 1, srows = (count - 3) / sld;
    ASSERT_GT((srows - 1) * sld, std::int64_t{1} << (log2 + 1));  // the last row starts past 2^31
    std::vector<float> host(static_cast<std::size_t>(srows * 3));
    CUDA_OK(cudaMemcpy2D(host.data(), 3 * sizeof(float), buf.get(), static_cast<std::size_t>(sld) * sizeof(float),
                         3 * sizeof(float), static_cast<std::size_t>(srows), cudaMemcpyDeviceToHost));
    gpuprims::detail::DeviceBuffer<float> out(static_cast<std::size_t>(srows));
    ASSERT_STATUS(Status::success, gpuprims::reduce::row_min(buf.get(), srows, 3, sld, out.get()));
    std::vector<float> got(static_cast<std::size_t>(srows));
    CUDA_OK(cudaMemcpy(got.data(), out.get(), got.size() * sizeof(float), cudaMemcpyDeviceToHost));
    for (std::int64_t r = 0; r < srows; ++r) {
      const float* x = host.data() + r * 3;
      const float e = rows::ref_min(x, 3);
      ASSERT_EQ(0, std::memcmp(&e, &got[static_cast<std::size_t>(r)], sizeof e)) << "row " << r;
    }
  }
}

}  // namespace
