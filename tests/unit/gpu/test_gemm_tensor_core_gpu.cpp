// The tensor-core rungs (tf32, tf32x3) on what only they can get wrong: tf32x3's accuracy beside the
// FP32 tuned rung on the same inputs (uniform data, and exponents spanning 2^-40..2^40), a long k (the
// tensor cores' own accumulation), non-finite inputs and values near FLT_MAX (the split), subnormal
// remainders, bitwise determinism, and tf32's two ways of reading A (in place, or through an aligned
// copy). These run both rungs' wgmma form wherever the GPU has it
// (pinned: at these sizes the automatic pick would take mma.sync); the TensorCoreForms tests run each form
// over tails, strides, offsets, alpha/beta and the fused top-2s, and the mma.sync form's accuracy on a
// Hopper GPU too. The same matrix runs for every rung's automatic pick in test_gemm_gpu.cpp,
// test_top2_gpu.cpp and the property tests.
#include <gtest/gtest.h>

#include <gpuprims/gemm.hpp>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "common/src/device_buffer.hpp"
#include "gemm/src/gemm_internal.hpp"
#include "gemm/src/rungs/tensor_core_forms.hpp"
#include "support/gemm_check.hpp"
#include "support/gpu.hpp"
#include "support/guarded_array.hpp"
#include "support/top2_check.hpp"
#include "testkit/random.hpp"

namespace {

using gpuprims::Status;
using gpuprims::gemm::Algorithm;
namespace t = gpuprims::test;

// Max and RMS over the output of |C - ref| / sum |a b| (per element).
struct RelativeError {
  double max = 0, rms = 0;
};

RelativeError relative_error(const t::GemmLayout& l, const t::ProductReference& ref, const std::vector<float>& c) {
  RelativeError e;
  double squares = 0;
  std::int64_t count = 0;
  for (std::int64_t i = 0; i < l.m; ++i)
    for (std::int64_t j = 0; j < l.n; ++j) {
      const std::size_t r = static_cast<std::size_t>(i * l.n + j);
      if (ref.mag[r] == 0) continue;
      const double err = std::fabs(c[static_cast<std::size_t>(i * l.ldc + j)] - ref.sum[r]) / ref.mag[r];
      e.max = std::isnan(err) || !(err <= e.max) ? (std::isnan(err) ? INFINITY : err) : e.max;
      squares += err * err;
      ++count;
    }
  e.rms = std::sqrt(squares / static_cast<double>(count > 0 ? count : 1));
  return e;
}

// Wide-exponent inputs (testkit::scale_exponents): each row of A and each column of B scaled by its
// own 2^e, e uniform in [-40, 40], or with per_element every element.
t::GemmInputs wide_exponent_inputs(const t::GemmLayout& l, std::mt19937_64& rng, bool per_element) {
  t::GemmInputs in = t::make_inputs(l, rng);
  gpuprims::testkit::scale_exponents(in.A, l.m, l.k, l.lda, in.B, l.n, l.ldb, rng(), per_element);
  return in;
}

// tf32x3 and tuned on the same inputs: tf32x3 within its bound, and its RMS relative error within
// `factor` times tuned's (no such check when factor is 0). The max ratio is printed and recorded, not
// asserted: over a few thousand entries it depends on the draw (measured on an H100 at k = 4096 from
// 0.66x to 3.1x, where the RMS ratio stayed between 0.53x and 1.3x). Returns the figures.
std::string compare_with_tuned(const t::GemmLayout& l, const t::GemmInputs& in, const char* data, double factor) {
  const t::ProductReference ref = t::reference_product(l.m, l.n, l.k, in.A.data(), l.lda, in.B.data(), l.ldb);
  const t::GemmRun tuned = t::run_sgemm(l, in, Algorithm::tuned, 1.0f, 0.0f, true);
  const t::GemmRun x3 = t::run_sgemm(l, in, Algorithm::tf32x3, 1.0f, 0.0f, true);
  EXPECT_STATUS(Status::success, tuned.status);
  EXPECT_STATUS(Status::success, x3.status);
  EXPECT_EQ(t::check_gemm(l, ref, 1.0f, 0.0f, in.C, x3.C, true, Algorithm::tf32x3), "");
  const RelativeError et = relative_error(l, ref, tuned.C), e3 = relative_error(l, ref, x3.C);
  const std::string figures = std::string(data) + " " + l.describe() + ": tuned max " +
                              std::to_string(et.max * 16777216) + " rms " + std::to_string(et.rms * 16777216) +
                              ", tf32x3 max " + std::to_string(e3.max * 16777216) + " rms " +
                              std::to_string(e3.rms * 16777216) + " (units of 2^-24)";
  ::testing::Test::RecordProperty(data, figures);
  std::printf("%s\n", figures.c_str());
  if (factor > 0) {
    EXPECT_LE(e3.rms, factor * et.rms) << figures;
  }
  return figures;
}

// Pins the tensor-core rungs to a form for the life of a test, then restores the automatic choice.
class PinnedForm {
 public:
  explicit PinnedForm(gpuprims::detail::TensorCoreForm form) { gpuprims::detail::set_tensor_core_form(form); }
  ~PinnedForm() { gpuprims::detail::set_tensor_core_form(gpuprims::detail::TensorCoreForm::automatic); }
  PinnedForm(const PinnedForm&) = delete;
  PinnedForm& operator=(const PinnedForm&) = delete;
};

// The wgmma form where the device has it, whatever the shape (the shapes here are small enough that
// the automatic pick would take mma.sync; TensorCoreForms covers that form).
class TensorCore : public ::testing::Test {
  const PinnedForm pin_{gpuprims::detail::TensorCoreForm::wgmma};
};

TEST_F(TensorCore, Tf32x3RmsErrorWithinTwiceTheFp32TunedRungsOnUniformData) {
  GPUPRIMS_REQUIRE_GPU();
  // k stays 4096 under the sanitizer: at short k tuned's error is a few roundings and tf32x3's fixed
  // split error per product weighs more (measured: more than 2x tuned's at k = 512).
  const auto l = t::make_layout(t::sized_for_sanitizer<std::int64_t>(256, 128), 257, 4096);
  auto rng = t::make_rng(1201);
  compare_with_tuned(l, t::make_inputs(l, rng), "uniform", 2.0);
}

TEST_F(TensorCore, Tf32x3RmsErrorWithinTwiceTheFp32TunedRungsOnRowsAndColumnsFrom2PowMinus40To40) {
  GPUPRIMS_REQUIRE_GPU();
  // k stays 4096 under the sanitizer: at short k tuned's error is a few roundings and tf32x3's fixed
  // split error per product weighs more (measured: more than 2x tuned's at k = 512).
  const auto l = t::make_layout(t::sized_for_sanitizer<std::int64_t>(256, 128), 257, 4096);
  auto rng = t::make_rng(1202);
  compare_with_tuned(l, wide_exponent_inputs(l, rng, false), "wide_rows_and_columns", 2.0);
}

// Every element with its own exponent: a few products dominate each sum, and the split's fixed error
// per product (up to about 12 units of 2^-24, docs/ERROR-BOUNDS.md) shows against FP32's single
// rounding: measured on an H100, 2.2-2.7x tuned's max and 2.1-2.4x its RMS, so the 2x is not
// met here. Held to tf32x3's bound; the ratios are printed and recorded, not asserted.
TEST_F(TensorCore, Tf32x3WithinItsBoundWhenEveryElementHasItsOwnExponent) {
  GPUPRIMS_REQUIRE_GPU();
  // k stays 4096 under the sanitizer: at short k tuned's error is a few roundings and tf32x3's fixed
  // split error per product weighs more (measured: more than 2x tuned's at k = 512).
  const auto l = t::make_layout(t::sized_for_sanitizer<std::int64_t>(256, 128), 257, 4096);
  auto rng = t::make_rng(1207);
  compare_with_tuned(l, wide_exponent_inputs(l, rng, true), "wide_elements", 0.0);
}

// The call as the public API makes it, or with `plan` forced (nullptr: the automatic plan), into a
// NaN-poisoned C; the C it leaves.
std::vector<float> run_plan(const t::GemmLayout& l, const t::GemmInputs& in, Algorithm algo,
                            const gpuprims::detail::GemmPlan* plan) {
  namespace d = gpuprims::detail;
  t::GuardedOperands ops(l, in);
  EXPECT_TRUE(ops.ok());
  ops.c.poison();
  const d::SgemmArgs args{l.m,   l.n,  l.k,          1.0f,  ops.a.data(), l.lda,   ops.b.data(),
                          l.ldb, 0.0f, ops.c.data(), l.ldc, algo,         nullptr, false};
  d::PreparedCall p;
  EXPECT_STATUS(Status::success, d::prepare_sgemm(args, plan, &p));
  const d::DeviceBuffer<unsigned char> ws(p.workspace_bytes + 16);
  EXPECT_STATUS(Status::success, d::launch_sgemm(args, p, ws.get(), p.workspace_bytes, nullptr));
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(ops.guard_damage(), "");
  return ops.c.download();
}

TEST_F(TensorCore, LongKStaysWithinEachRungsBound) {
  GPUPRIMS_REQUIRE_GPU();
  namespace d = gpuprims::detail;
  // One 128 x 128 tile of output over a long k: the tensor cores' accumulation is what is tested, in
  // one k range (forced) and as the automatic plan splits it (over the idle SMs).
  const auto l = t::make_layout(64, 64, t::sized_for_sanitizer(65536, 4096));
  auto rng = t::make_rng(1203);
  const t::GemmInputs in = t::make_inputs(l, rng);
  const t::ProductReference ref = t::reference_product(l.m, l.n, l.k, in.A.data(), l.lda, in.B.data(), l.ldb);
  for (Algorithm algo : {Algorithm::tf32, Algorithm::tf32x3}) {
    const d::GemmPlan one = d::ladder_plan(d::ladder_rung(algo)->path, l.m, l.n, l.k, 1);
    for (const d::GemmPlan* plan : {&one, static_cast<const d::GemmPlan*>(nullptr)}) {
      SCOPED_TRACE(std::string(gpuprims::gemm::name(algo)) + (plan ? " one k range" : " automatic plan"));
      EXPECT_EQ(t::check_gemm(l, ref, 1.0f, 0.0f, in.C, run_plan(l, in, algo, plan), true, algo), "");
    }
  }
}

// Whether two results are the same kind of number: both NaN, the same infinity, or both finite.
bool same_class(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return true;
}

// Non-finite inputs and values near FLT_MAX in rows 1-6 and columns 5-30 of A and B: tf32x3 (whose
// split turns some of them into NaN that the FP32 rungs do not give, and computes those entries again
// in FP32) must give every entry the class the tuned rung gives it, and a finite entry within its
// bound; tf32 the class too, but where an operand near FLT_MAX rounds to infinity (documented). With
// `fused`, the fused top-2s over the same products too: the global one (C stored) equal to its unfused
// twin over that C and to the call with C not stored, the per-row one to the per-row reference.
void expect_nonfinite_as_in_fp32_rungs(const t::GemmLayout& l, std::uint64_t seed, bool fused) {
  auto rng = t::make_rng(seed);
  t::GemmInputs in = t::make_inputs(l, rng);
  auto a = [&](std::int64_t i, std::int64_t p) -> float& { return in.A[static_cast<std::size_t>(i * l.lda + p)]; };
  auto b = [&](std::int64_t p, std::int64_t j) -> float& { return in.B[static_cast<std::size_t>(p * l.ldb + j)]; };
  a(1, 3) = INFINITY;       // row 1: +-inf, or NaN where B's row 3 holds a zero
  b(3, 5) = 0.0f;           //   (inf * 0)
  a(2, 7) = -INFINITY;      // row 2
  a(3, 0) = NAN;            // row 3: NaN everywhere
  b(10, 20) = INFINITY;     // column 20: +-inf, and NaN in rows 1 and 2 (inf - inf or inf * ...)
  a(5, 9) = FLT_MAX;        // rounds to TF32 infinity: tf32x3 must still give the finite FP32 result
  a(6, 11) = -3.4028e38f;   // near -FLT_MAX, same
  b(12, 30) = 3.40282e38f;  // in B too
  for (std::int64_t p = 0; p < l.k; ++p) b(p, 30) = p == 12 ? b(p, 30) : b(p, 30) * 0.5f;
  const t::GemmRun fp32 = t::run_sgemm(l, in, Algorithm::tuned, 1.0f, 0.0f, true);
  const t::GemmRun x3 = t::run_sgemm(l, in, Algorithm::tf32x3, 1.0f, 0.0f, true);
  const t::GemmRun one = t::run_sgemm(l, in, Algorithm::tf32, 1.0f, 0.0f, true);
  ASSERT_STATUS(Status::success, fp32.status);
  ASSERT_STATUS(Status::success, x3.status);
  ASSERT_STATUS(Status::success, one.status);
  const t::ProductReference ref = t::reference_product(l.m, l.n, l.k, in.A.data(), l.lda, in.B.data(), l.ldb);
  int nonfinite = 0;
  for (std::int64_t i = 0; i < l.m; ++i)
    for (std::int64_t j = 0; j < l.n; ++j) {
      const std::size_t at = static_cast<std::size_t>(i * l.ldc + j);
      const float want = fp32.C[at], got = x3.C[at];
      nonfinite += !std::isfinite(want);
      EXPECT_TRUE(same_class(want, got)) << "C[" << i << "," << j << "]: tuned " << want << ", tf32x3 " << got;
      if (std::isfinite(want) && std::isfinite(got)) {
        const std::size_t r = static_cast<std::size_t>(i * l.n + j);
        EXPECT_LE(std::fabs(got - ref.sum[r]), t::gemm_error_bound(Algorithm::tf32x3, l.k, ref.mag[r]))
            << "C[" << i << "," << j << "]";
      }
      // tf32 rounds FLT_MAX-sized operands to infinity (documented); elsewhere it keeps the class too.
      const bool near_max_operand = i == 5 || i == 6 || j == 30;
      if (!near_max_operand) {
        EXPECT_TRUE(same_class(want, one.C[at]))
            << "C[" << i << "," << j << "]: tuned " << want << ", tf32 " << one.C[at];
      }
    }
  EXPECT_GT(nonfinite, 3 * static_cast<int>(l.n) - 5) << "the inputs make whole rows non-finite";
  if (!fused) return;
  for (Algorithm algo : {Algorithm::tf32, Algorithm::tf32x3}) {
    SCOPED_TRACE(gpuprims::gemm::name(algo));
    const t::Top2Run stored = t::run_sgemm_top2(l, in, algo, 1.0f, 0.0f);
    ASSERT_STATUS(Status::success, stored.status);
    int other_class = 0;  // the fused kernel's own epilogue recomputes its NaN entries too
    for (std::size_t at = 0; at < stored.C.size(); ++at)
      other_class += !same_class(stored.C[at], (algo == Algorithm::tf32x3 ? x3 : one).C[at]);
    EXPECT_EQ(other_class, 0) << "entries of the fused call's C whose class differs from the plain product's";
    const t::Top2Run twin = t::run_reduce_top2(stored.C, l.m, l.n, l.ldc);
    ASSERT_STATUS(Status::success, twin.status);
    EXPECT_EQ(t::top2_diff(stored.top2, twin.top2), "");
    const t::Top2Run unstored = t::run_sgemm_top2(l, in, algo, 1.0f, 0.0f, false);
    ASSERT_STATUS(Status::success, unstored.status);
    EXPECT_EQ(t::top2_diff(unstored.top2, stored.top2), "");
    const t::RowTop2Run rows = t::run_sgemm_row_top2(l, in, algo, 1.0f, 0.0f);
    ASSERT_STATUS(Status::success, rows.status);
    EXPECT_EQ(t::row_top2_bytes_diff(rows.rows, t::reference_row_top2(rows.C.data(), l.m, l.n, l.ldc)), "");
  }
}

TEST_F(TensorCore, NonFiniteInputsAndValuesNearFltMaxComeOutAsInTheFp32Rungs) {
  GPUPRIMS_REQUIRE_GPU();
  expect_nonfinite_as_in_fp32_rungs(t::make_layout(37, 41, 53, 1, 2, 3, 1, 0, 2), 1204, false);
}

// The same inside whole tiles (300 x 264: the wgmma form's first tiles lie wholly inside C, which
// takes 16-byte accesses), where the form's epilogue runs its unchecked path unless the warp holds a
// NaN, and with the fused top-2s; and the mma.sync form likewise.
TEST_F(TensorCore, NonFiniteValuesInsideWholeTilesComeOutAsInTheFp32RungsAndInTheFusedTop2s) {
  GPUPRIMS_REQUIRE_GPU();
  expect_nonfinite_as_in_fp32_rungs(t::make_layout(300, 264, 53), 1207, true);
  const PinnedForm mma_sync(gpuprims::detail::TensorCoreForm::mma_sync);
  expect_nonfinite_as_in_fp32_rungs(t::make_layout(300, 264, 53), 1208, true);
}

TEST_F(TensorCore, SubnormalRemaindersKeepTf32Accuracy) {
  GPUPRIMS_REQUIRE_GPU();
  // A near 2^-120: its TF32 remainders (about 2^-131) are subnormal. Documented: such products keep at
  // least TF32's accuracy (the tf32 bound); normal-range data keeps tf32x3's.
  const auto l = t::make_layout(65, 67, 129);
  auto rng = t::make_rng(1205);
  t::GemmInputs in = t::make_inputs(l, rng);
  for (float& x : in.A) x = std::ldexp(x, -120);
  const t::ProductReference ref = t::reference_product(l.m, l.n, l.k, in.A.data(), l.lda, in.B.data(), l.ldb);
  const t::GemmRun run = t::run_sgemm(l, in, Algorithm::tf32x3, 1.0f, 0.0f, true);
  ASSERT_STATUS(Status::success, run.status);
  EXPECT_EQ(t::check_gemm(l, ref, 1.0f, 0.0f, in.C, run.C, true, Algorithm::tf32), "");
  const RelativeError e = relative_error(l, ref, run.C);
  std::printf("subnormal remainders: tf32x3 max %.3g rms %.3g (units of 2^-24)\n", e.max * 16777216, e.rms * 16777216);
}

TEST_F(TensorCore, SameBitsOverTenRuns) {
  GPUPRIMS_REQUIRE_GPU();
  const auto l = t::make_layout(t::sanitizer_sized_dim(1000), 999, t::sanitizer_sized_dim(777), 3, 0, 1, 1, 0, 2);
  auto rng = t::make_rng(1206);
  const t::GemmInputs in = t::make_inputs(l, rng);
  for (Algorithm algo : {Algorithm::tf32, Algorithm::tf32x3}) {
    const t::GemmRun first = t::run_sgemm(l, in, algo, 0.75f, 0.0f, true);
    ASSERT_STATUS(Status::success, first.status);
    for (int r = 0; r < 9; ++r) {
      const t::GemmRun again = t::run_sgemm(l, in, algo, 0.75f, 0.0f, true);
      ASSERT_EQ(std::memcmp(again.C.data(), first.C.data(), first.C.size() * sizeof(float)), 0)
          << gpuprims::gemm::name(algo) << " run " << r + 2;
    }
  }
}

// tf32's wgmma form reads A in place by tensor copies where A starts 16-byte aligned with lda a
// multiple of 4, and otherwise from an aligned copy the packing pass makes; either way the warps round
// it to TF32 on its way to the MMAs. The same values of A in both kinds of layout (lda a multiple of
// 4; an odd lda; an offset of one float) give the same bits, with m and k off the tiles' and the
// copies' boxes (their zero fill against the copy's zero padding), and the product within tf32's bound.
TEST_F(TensorCore, Tf32ReadsAInPlaceOrThroughTheAlignedCopyWithTheSameBits) {
  GPUPRIMS_REQUIRE_GPU();
  struct Shape {
    std::int64_t m, n, k;
  };
  for (const Shape& sh : {Shape{300, 260, 77}, Shape{t::sanitizer_sized_dim(513), 520, 301}}) {
    const int in_place_pad = static_cast<int>((4 - sh.k % 4) % 4);
    const auto base = t::make_layout(sh.m, sh.n, sh.k, in_place_pad, 1, 2, 0, 1, 2);
    ASSERT_EQ(base.lda % 4, 0);
    auto rng = t::make_rng(1207 + static_cast<std::uint64_t>(sh.k));
    const t::GemmInputs in = t::make_inputs(base, rng);
    const t::ProductReference ref =
        t::reference_product(base.m, base.n, base.k, in.A.data(), base.lda, in.B.data(), base.ldb);
    const t::GemmRun first = t::run_sgemm(base, in, Algorithm::tf32, 1.0f, 0.0f, true);
    ASSERT_STATUS(Status::success, first.status);
    ASSERT_EQ(first.cuda_error, "");
    EXPECT_EQ(t::check_gemm(base, ref, 1.0f, 0.0f, in.C, first.C, true, Algorithm::tf32), "");
    struct ALayout {
      int pad, off;
    };
    for (const ALayout& a : {ALayout{in_place_pad + 1, 0}, ALayout{in_place_pad, 1}, ALayout{in_place_pad + 4, 0}}) {
      const auto l = t::make_layout(sh.m, sh.n, sh.k, a.pad, 1, 2, a.off, 1, 2);
      SCOPED_TRACE(l.describe());
      t::GemmInputs moved = in;
      moved.A.assign(static_cast<std::size_t>(l.m * l.lda), 0.5f);
      for (std::int64_t i = 0; i < l.m; ++i)
        for (std::int64_t j = 0; j < l.k; ++j) moved.A[i * l.lda + j] = in.A[i * base.lda + j];
      const t::GemmRun run = t::run_sgemm(l, moved, Algorithm::tf32, 1.0f, 0.0f, true);
      ASSERT_STATUS(Status::success, run.status);
      ASSERT_EQ(run.cuda_error, "");
      EXPECT_EQ(run.guard_damage, "");
      EXPECT_EQ(std::memcmp(run.C.data(), first.C.data(), first.C.size() * sizeof(float)), 0);
    }
  }
}

int device_cc() {
  int device = 0, major = 0, minor = 0;
  EXPECT_EQ(cudaGetDevice(&device), cudaSuccess);
  EXPECT_EQ(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device), cudaSuccess);
  EXPECT_EQ(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device), cudaSuccess);
  return major * 10 + minor;
}

TEST(TensorCoreForms, WgmmaFormRunsExactlyOnComputeCapability90WhenBuilt) {
  GPUPRIMS_REQUIRE_GPU();
  namespace d = gpuprims::detail;
  const bool expected = d::wgmma_form_built() && device_cc() == 90;
  EXPECT_EQ(d::wgmma_form_runs(), expected);
  {
    const PinnedForm pin(d::TensorCoreForm::mma_sync);
    EXPECT_FALSE(d::wgmma_form_runs());
  }
  EXPECT_EQ(d::wgmma_form_runs(), expected);
  // The automatic pick by shape, unsplit: the wgmma form where its packing pass pays off (a large
  // enough product; tf32 needs a larger one or a longer k) and the mma.sync form would not split k;
  // split, tf32x3's alone and only deep splits.
  const Algorithm x3 = Algorithm::tf32x3, one = Algorithm::tf32;
  EXPECT_EQ(d::wgmma_form_runs(x3, 4096, 4096, 4096, 1, 4096), expected);
  EXPECT_EQ(d::wgmma_form_runs(one, 4096, 4096, 4096, 1, 4096), expected);
  EXPECT_FALSE(d::wgmma_form_runs(x3, 512, 4096, 128, 1, 128)) << "2^28 multiply-adds: too small a product";
  EXPECT_FALSE(d::wgmma_form_runs(one, 512, 4096, 128, 1, 128));
  EXPECT_EQ(d::wgmma_form_runs(x3, 3000, 3000, 64, 1, 64), expected) << "short k, 2^29.1 multiply-adds";
  EXPECT_EQ(d::wgmma_form_runs(x3, 16384, 16384, 64, 1, 64), expected) << "short k, large product";
  EXPECT_EQ(d::wgmma_form_runs(one, 16384, 16384, 64, 1, 64), expected);
  EXPECT_EQ(d::wgmma_form_runs(one, 4096, 4096, 64, 1, 64), expected) << "tf32, short k, 2^30 multiply-adds";
  EXPECT_FALSE(d::wgmma_form_runs(one, 2048, 2048, 128, 1, 128)) << "tf32 short k needs a larger product";
  EXPECT_FALSE(d::wgmma_form_runs(x3, 2048, 2048, 64, 1, 64));
  EXPECT_FALSE(d::wgmma_form_runs(x3, 128, 8192, 8192, 1, 8192));
  EXPECT_FALSE(d::wgmma_form_runs(x3, 256, 256, 256, 1, 256));
  EXPECT_FALSE(d::wgmma_form_runs(x3, 512, 512, 512, 8, 64)) << "splits of two slabs run mma.sync";
  EXPECT_FALSE(d::wgmma_form_runs(one, 768, 768, 768, 3, 256)) << "tf32 splits run mma.sync";
  // 64 tiles: mma.sync would split k in two, while the wgmma form keeps fewer blocks resident than
  // the GPU has SMs (clusters stay within a GPC) and on an H100 or H200 does not split them; it then
  // runs them unsplit. Whatever the plan, the form that runs is the one the plan was made for.
  const d::DeviceShape* device = nullptr;
  ASSERT_STATUS(Status::success, d::current_device_shape(&device));
  for (const Algorithm algo : {x3, one}) {
    const d::GemmPlan cube = d::plan_for(algo, 1024, 1024, 1024, true, *device);
    const bool wgmma = d::wgmma_form_runs(algo, 1024, 1024, 1024, cube.splits, cube.k_split);
    if (algo == one) {
      EXPECT_FALSE(wgmma) << "tf32: mma.sync's split plan (" << cube.splits << ")";
    } else if (expected && device->sm_count == 132) {
      EXPECT_TRUE(wgmma && cube.splits == 1) << cube.splits;
    }
  }
  {
    const PinnedForm pin(d::TensorCoreForm::wgmma);
    EXPECT_EQ(d::wgmma_form_runs(x3, 1, 1, 1, 1, 1), expected);
  }
  std::printf("wgmma form built: %d, device cc %d, in use: %d\n", d::wgmma_form_built() ? 1 : 0, device_cc(),
              expected ? 1 : 0);
}

// Each form pinned in turn, whatever the shape would pick (the wgmma form only where it runs: on a
// compute capability 9.0 GPU; elsewhere both passes run mma.sync): tails, 1x1x1, a k of one, padded
// leading dimensions, operands offset by 1-3 floats, the (alpha, beta) pairs (beta == 0 over a NaN C),
// guard bands, for both rungs; and the fused top-2 (global, C stored and not, and per row) equal to
// its unfused twin over the stored C. Shapes whose tile counts are odd and even along m and n, so the
// wgmma form runs in every cluster shape (2 x 2, 2 x 1, 1 x 2, 1).
class TensorCoreFormsPinned : public ::testing::TestWithParam<gpuprims::detail::TensorCoreForm> {};

TEST_P(TensorCoreFormsPinned, TailsStridesOffsetsAlphaBetaAndFusedTop2) {
  GPUPRIMS_REQUIRE_GPU();
  const PinnedForm pin(GetParam());
  struct Case {
    std::int64_t m, n, k;
    int pad_a, pad_b, pad_c, off_a, off_b, off_c;
  };
  const Case cases[] = {{1, 1, 1, 0, 0, 0, 0, 0, 0},       {7, 13, 5, 3, 1, 2, 1, 2, 3},
                        {127, 129, 131, 0, 0, 0, 0, 0, 0}, {129, 1, 257, 1, 0, 5, 3, 0, 1},
                        {300, 3, 2, 2, 2, 2, 1, 1, 1},     {t::sanitizer_sized_dim(1000), 999, 77, 4, 4, 4, 0, 0, 0},
                        {257, 385, 100, 0, 3, 1, 2, 1, 0}, {513, 520, 163, 1, 1, 1, 1, 3, 2}};
  struct AlphaBeta {
    float alpha, beta;
    bool poison_c;
  };
  const AlphaBeta alpha_betas[] = {{1.0f, 0.0f, true}, {0.5f, 3.0f, false}, {0.0f, 1.0f, false}};
  std::uint64_t salt = 1300;
  for (const Case& cs : cases) {
    const auto l = t::make_layout(cs.m, cs.n, cs.k, cs.pad_a, cs.pad_b, cs.pad_c, cs.off_a, cs.off_b, cs.off_c);
    auto rng = t::make_rng(++salt);
    const t::GemmInputs in = t::make_inputs(l, rng);
    const t::ProductReference ref = t::reference_product(l.m, l.n, l.k, in.A.data(), l.lda, in.B.data(), l.ldb);
    for (Algorithm algo : {Algorithm::tf32, Algorithm::tf32x3})
      for (const AlphaBeta& ab : alpha_betas) {
        SCOPED_TRACE(std::string(gpuprims::gemm::name(algo)) + " " + l.describe() + " alpha " +
                     std::to_string(ab.alpha) + " beta " + std::to_string(ab.beta));
        const t::GemmRun run = t::run_sgemm(l, in, algo, ab.alpha, ab.beta, ab.poison_c);
        ASSERT_STATUS(Status::success, run.status);
        ASSERT_EQ(run.cuda_error, "");
        EXPECT_EQ(run.guard_damage, "");
        EXPECT_EQ(t::check_gemm(l, ref, ab.alpha, ab.beta, in.C, run.C, ab.poison_c, algo), "");

        const t::Top2Run fused = t::run_sgemm_top2(l, in, algo, ab.alpha, ab.beta);
        ASSERT_STATUS(Status::success, fused.status);
        const t::Top2Run twin = t::run_reduce_top2(fused.C, l.m, l.n, l.ldc);
        ASSERT_STATUS(Status::success, twin.status);
        EXPECT_EQ(t::top2_diff(fused.top2, twin.top2), "");
        if (ab.beta == 0.0f) {
          const t::Top2Run unstored = t::run_sgemm_top2(l, in, algo, ab.alpha, ab.beta, false);
          ASSERT_STATUS(Status::success, unstored.status);
          EXPECT_EQ(t::top2_diff(unstored.top2, fused.top2), "");
        }
        const t::RowTop2Run rows = t::run_sgemm_row_top2(l, in, algo, ab.alpha, ab.beta);
        ASSERT_STATUS(Status::success, rows.status);
        EXPECT_EQ(t::row_top2_bytes_diff(rows.rows, t::reference_row_top2(rows.C.data(), l.m, l.n, l.ldc)), "");
      }
  }
}

INSTANTIATE_TEST_SUITE_P(Form, TensorCoreFormsPinned,
                         ::testing::Values(gpuprims::detail::TensorCoreForm::mma_sync,
                                           gpuprims::detail::TensorCoreForm::wgmma),
                         [](const auto& info) {
  return info.param == gpuprims::detail::TensorCoreForm::wgmma ? "wgmma" : "mma_sync";
});

// What every run of the wgmma form keeps, checked for one layout and rung: the product within its
// bound over a NaN C (beta == 0), the fused top-2 with C stored (alpha 0.5, beta 2) equal to its
// unfused twin on that C, the top-2 with C not stored equal to a search of the product, and the
// per-row top-2 equal to the per-row reference on its C. Returns the product's run.
t::GemmRun expect_product_and_fused_top2s(const t::GemmLayout& l, const t::GemmInputs& in,
                                          const t::ProductReference& ref, Algorithm algo) {
  t::GemmRun run = t::run_sgemm(l, in, algo, 1.0f, 0.0f, true);
  EXPECT_STATUS(Status::success, run.status);
  EXPECT_EQ(run.cuda_error, "");
  if (run.status != Status::success || !run.cuda_error.empty()) return run;
  EXPECT_EQ(run.guard_damage, "");
  EXPECT_EQ(t::check_gemm(l, ref, 1.0f, 0.0f, in.C, run.C, true, algo), "");
  const t::Top2Run fused = t::run_sgemm_top2(l, in, algo, 0.5f, 2.0f);
  EXPECT_STATUS(Status::success, fused.status);
  if (fused.status == Status::success) {
    EXPECT_EQ(t::check_gemm(l, ref, 0.5f, 2.0f, in.C, fused.C, false, algo), "");
    const t::Top2Run twin = t::run_reduce_top2(fused.C, l.m, l.n, l.ldc);
    EXPECT_STATUS(Status::success, twin.status);
    EXPECT_EQ(t::top2_diff(fused.top2, twin.top2), "");
  }
  const t::Top2Run unstored = t::run_sgemm_top2(l, in, algo, 1.0f, 0.0f, false);
  EXPECT_STATUS(Status::success, unstored.status);
  const t::Top2Run unstored_twin = t::run_reduce_top2(run.C, l.m, l.n, l.ldc);
  EXPECT_STATUS(Status::success, unstored_twin.status);
  EXPECT_EQ(t::top2_diff(unstored.top2, unstored_twin.top2), "");
  const t::RowTop2Run rows = t::run_sgemm_row_top2(l, in, algo, 1.0f, 0.0f);
  EXPECT_STATUS(Status::success, rows.status);
  if (rows.status == Status::success) {
    EXPECT_EQ(t::row_top2_bytes_diff(rows.rows, t::reference_row_top2(rows.C.data(), l.m, l.n, l.ldc)), "");
  }
  return run;
}

// The wgmma form is persistent: no more blocks than stay resident (at most one per SM), each taking
// tiles in turn, its next tile's slabs loading while a tile's results go out. Outputs of 255 to 324
// tiles (tf32's 256-wide tiles: 136 to 162), more than any GPU here keeps resident, in each cluster shape (odd and even
// tile counts along m and n), with short k (one to three slabs a tile, so a block's sequence of slabs crosses tiles
// often) and padded, offset operands: what expect_product_and_fused_top2s checks.
TEST(TensorCoreForms, WgmmaFormBlocksTakingManyTilesEachKeepTheProductAndTheFusedTop2s) {
  GPUPRIMS_REQUIRE_GPU();
  namespace d = gpuprims::detail;
  const PinnedForm pin(d::TensorCoreForm::wgmma);
  struct Case {
    std::int64_t m, n, k;
    int pad, off;
  };
  const Case cases[] = {{2100, 1900, 40, 0, 0}, {2200, 2100, 33, 3, 1}, {2100, 2200, 64, 1, 2}, {2304, 2200, 70, 4, 3}};
  std::uint64_t salt = 1700;
  for (const Case& cs : cases) {
    const auto l = t::make_layout(cs.m, cs.n, cs.k, cs.pad, cs.pad, cs.pad, cs.off, cs.off, cs.off);
    auto rng = t::make_rng(++salt);
    const t::GemmInputs in = t::make_inputs(l, rng);
    const t::ProductReference ref = t::reference_product(l.m, l.n, l.k, in.A.data(), l.lda, in.B.data(), l.ldb);
    for (Algorithm algo : {Algorithm::tf32, Algorithm::tf32x3}) {
      SCOPED_TRACE(std::string(gpuprims::gemm::name(algo)) + " " + l.describe());
      expect_product_and_fused_top2s(l, in, ref, algo);
    }
  }
}

// Pins the wgmma form's cluster shape for the life of a test, then restores the automatic pick.
class PinnedCluster {
 public:
  explicit PinnedCluster(gpuprims::detail::WgmmaClusterShape shape) {
    gpuprims::detail::pin_wgmma_cluster_shape(shape);
  }
  ~PinnedCluster() { gpuprims::detail::pin_wgmma_cluster_shape({0, 0}); }
  PinnedCluster(const PinnedCluster&) = delete;
  PinnedCluster& operator=(const PinnedCluster&) = delete;
};

// Every cluster shape of the wgmma form pinned in turn (the automatic pick takes clusters of 8 for
// tf32x3 only on outputs of 12 or more tiles per SM, too large for a test against the CPU product):
// 2 x 4 and 4 x 2 (tf32x3; tf32 gives way to its own pick), 2 x 2, 2 x 1, 1 x 2 and single blocks,
// over tile grids of 8 x 8 (one tile per block), 16 x 16 with a short k (blocks taking several tiles,
// slab sequences crossing tiles) and 8 x 5 (no 2 x 4 or 4 x 2 fits: the pick instead), with tails,
// padded and offset operands: what expect_product_and_fused_top2s checks, and bitwise the same C as the
// automatic pick's clusters.
TEST(TensorCoreForms, WgmmaFormInEveryClusterShapeKeepsTheProductAndTheFusedTop2s) {
  GPUPRIMS_REQUIRE_GPU();
  namespace d = gpuprims::detail;
  const PinnedForm form(d::TensorCoreForm::wgmma);
  struct Case {
    std::int64_t m, n, k;
    int pad, off;
  };
  const Case cases[] = {{1000, 1000, 100, 1, 1}, {2040, 2000, 40, 0, 0}, {1000, 520, 163, 3, 2}};
  const d::WgmmaClusterShape shapes[] = {{2, 4}, {4, 2}, {2, 2}, {2, 1}, {1, 2}, {1, 1}};
  std::uint64_t salt = 1800;
  for (const Case& cs : cases) {
    const auto l = t::make_layout(cs.m, cs.n, cs.k, cs.pad, cs.pad, cs.pad, cs.off, cs.off, cs.off);
    auto rng = t::make_rng(++salt);
    const t::GemmInputs in = t::make_inputs(l, rng);
    const t::ProductReference ref = t::reference_product(l.m, l.n, l.k, in.A.data(), l.lda, in.B.data(), l.ldb);
    for (Algorithm algo : {Algorithm::tf32, Algorithm::tf32x3}) {
      const t::GemmRun automatic = t::run_sgemm(l, in, algo, 1.0f, 0.0f, true);
      ASSERT_STATUS(Status::success, automatic.status);
      for (const d::WgmmaClusterShape shape : shapes) {
        const PinnedCluster pin(shape);
        const d::WgmmaClusterShape taken = d::wgmma_cluster_for(algo == Algorithm::tf32x3, false, l.m, l.n, l.k);
        SCOPED_TRACE(std::string(gpuprims::gemm::name(algo)) + " " + l.describe() + " cluster pinned " +
                     std::to_string(shape.m) + "x" + std::to_string(shape.n) + ", taken " + std::to_string(taken.m) +
                     "x" + std::to_string(taken.n));
        // Block tiles of 128 x 128 (tf32x3) or 128 x 256 (tf32).
        const std::int64_t tile_n = algo == Algorithm::tf32 ? 256 : 128;
        const std::int64_t tiles_m = (l.m + 127) / 128, tiles_n = (l.n + tile_n - 1) / tile_n;
        const bool fits = tiles_m % shape.m == 0 && tiles_n % shape.n == 0;
        if (fits && (algo == Algorithm::tf32x3 || shape.m * shape.n <= 4)) {
          EXPECT_TRUE(taken.m == shape.m && taken.n == shape.n);
        } else {
          EXPECT_EQ(tiles_m % taken.m, 0);
          EXPECT_EQ(tiles_n % taken.n, 0);
        }
        const t::GemmRun run = expect_product_and_fused_top2s(l, in, ref, algo);
        ASSERT_EQ(run.C.size(), automatic.C.size());
        EXPECT_EQ(std::memcmp(run.C.data(), automatic.C.data(), run.C.size() * sizeof(float)), 0)
            << "the clusters change where slabs come from, not the sums";
      }
    }
  }
}

// The wgmma form reads A and B split and packed into the call's workspace: the query names exactly
// that (both operands, padded to whole 128-row tiles and 32-deep slabs, two parts each) when the form
// runs and nothing otherwise; the explicit-workspace call refuses 16 bytes too few before any launch
// (C untouched) and, given exactly enough, writes the allocating form's bits.
TEST(TensorCoreForms, Tf32x3WorkspaceHoldsThePackedOperandsWhenTheWgmmaFormRuns) {
  GPUPRIMS_REQUIRE_GPU();
  namespace d = gpuprims::detail;
  namespace g = gpuprims::gemm;
  const std::int64_t m = 1100, n = 1030, k = 400;  // 9 x 9 tiles, 13 slabs; pays off (wgmma_form_pays_off)
  ASSERT_TRUE(d::wgmma_form_pays_off(Algorithm::tf32x3, m, n, k));
  const d::DeviceShape* device = nullptr;
  ASSERT_STATUS(Status::success, d::current_device_shape(&device));
  ASSERT_EQ(d::plan_for(Algorithm::tf32x3, m, n, k, true, *device).splits, 1)
      << "81 tiles fill more than half of this GPU's SMs: no split partials in the workspace";
  const std::size_t packed = (9 + 9) * 13 * 2 * 128 * 32 * sizeof(float);
  const std::size_t need = g::sgemm_workspace_bytes(m, n, k, Algorithm::tf32x3);
  EXPECT_EQ(need, d::wgmma_form_runs() ? packed : 0u);
  EXPECT_EQ(g::sgemm_workspace_bytes(m, n, 130, Algorithm::tf32x3), 0u) << "2^27.1 multiply-adds do not pay";
  // tf32 packs one part, rounded once, instead of two, where its longer k pays off (10 slabs here), and
  // B in whole 256-column block tiles (10 packed tiles of 128 for 9).
  EXPECT_EQ(g::sgemm_workspace_bytes(m, n, 130, Algorithm::tf32), 0u);
  EXPECT_EQ(g::sgemm_workspace_bytes(m, n, 300, Algorithm::tf32),
            d::wgmma_form_runs() ? (9 + 10) * 10 * 1 * 128 * 32 * sizeof(float) : 0u);
  EXPECT_EQ(g::sgemm_workspace_bytes(m, n, 0, Algorithm::tf32x3), 0u);
  // A short side: the form does not pay off (and 32 x 3 tiles fill more than half the SMs: no split).
  EXPECT_EQ(g::sgemm_workspace_bytes(4000, 300, 70, Algorithm::tf32x3), 0u);
  if (d::wgmma_form_runs()) {
    EXPECT_GT(g::top2_workspace_bytes(m, n, k, Algorithm::tf32x3), packed);
  }
  {
    const PinnedForm pin(d::TensorCoreForm::mma_sync);
    EXPECT_EQ(g::sgemm_workspace_bytes(m, n, k, Algorithm::tf32x3), 0u);
  }
  {
    const PinnedForm pin(d::TensorCoreForm::wgmma);
    EXPECT_EQ(g::sgemm_workspace_bytes(4000, 300, 70, Algorithm::tf32x3),
              d::wgmma_form_runs() ? (32 + 3) * 3 * 2 * 128 * 32 * sizeof(float) : 0u);
  }

  const auto l = t::make_layout(m, n, k, 1, 2, 3, 1, 0, 2);
  auto rng = t::make_rng(1400);
  const t::GemmInputs in = t::make_inputs(l, rng);
  const t::GemmRun allocating = t::run_sgemm(l, in, Algorithm::tf32x3, 1.5f, 0.5f, false);
  ASSERT_STATUS(Status::success, allocating.status);
  ASSERT_EQ(allocating.cuda_error, "");

  t::GuardedOperands ops(l, in);
  t::GuardedArray ws(need / sizeof(float) + 1);
  ASSERT_TRUE(ops.ok() && ws.ok());
  ops.c.upload(in.C);
  const auto call = [&](std::size_t bytes) {
    return g::sgemm(m, n, k, 1.5f, ops.a.data(), l.lda, ops.b.data(), l.ldb, 0.5f, ops.c.data(), l.ldc,
                    need > 0 ? ws.data() : nullptr, bytes, Algorithm::tf32x3);
  };
  if (need > 0) {
    ASSERT_STATUS(Status::invalid_argument, call(need - 16));
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const std::vector<float> untouched = ops.c.download();
    EXPECT_EQ(std::memcmp(untouched.data(), in.C.data(), in.C.size() * sizeof(float)), 0);
  }
  ASSERT_STATUS(Status::success, call(need));
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const std::vector<float> out = ops.c.download();
  EXPECT_EQ(std::memcmp(out.data(), allocating.C.data(), out.size() * sizeof(float)), 0);
  EXPECT_EQ(ops.guard_damage() + ws.guard_damage(), "");
}

// Split-K plans of both rungs in each form, forced: 1 range, 3 (which divide no k here), 16 (a short
// last range) and 1000 (trimmed to whole 32-deep slabs), over tails, padded leading dimensions and
// offsets: the product (alpha, beta; beta = 0 over a NaN C) within the rung's bound, and the fused
// top-2 (global, C stored and not; per row) equal to the unfused twin over the stored C. The
// partials are summed in split order before the epilogue (split_k_reduce.cuh).
class TensorCoreSplits : public ::testing::TestWithParam<gpuprims::detail::TensorCoreForm> {};

TEST_P(TensorCoreSplits, ForcedSplitsOfEveryDepthKeepTheProductAndTheFusedTop2s) {
  GPUPRIMS_REQUIRE_GPU();
  namespace d = gpuprims::detail;
  const PinnedForm pin(GetParam());
  const d::DeviceShape* device = nullptr;
  ASSERT_STATUS(Status::success, d::current_device_shape(&device));
  const t::GemmLayout layouts[] = {t::make_layout(1, 1, 1), t::make_layout(129, 127, 33),
                                   t::make_layout(259, 133, 333, 1, 2, 3, 3, 2, 1),
                                   t::make_layout(300, 259, 1000, 4, 4, 4)};
  for (const t::GemmLayout& l : layouts) {
    auto rng = t::make_rng(1500 + l.m);
    const t::GemmInputs in = t::make_inputs(l, rng);
    const t::ProductReference ref = t::reference_product(l.m, l.n, l.k, in.A.data(), l.lda, in.B.data(), l.ldb);
    for (Algorithm algo : {Algorithm::tf32, Algorithm::tf32x3}) {
      int last = 0;
      for (const int want : {1, 3, 16, 1000}) {
        const d::GemmPlan plan = d::ladder_plan(d::ladder_rung(algo)->path, l.m, l.n, l.k, want);
        if (plan.splits == last) continue;
        last = plan.splits;
        SCOPED_TRACE(std::string(gpuprims::gemm::name(algo)) + " " + l.describe() + " splits " +
                     std::to_string(plan.splits) + " of " + std::to_string(plan.k_split));
        ASSERT_TRUE(d::plan_fits(plan, l.m, l.n, l.k));
        t::GuardedOperands ops(l, in);
        ASSERT_TRUE(ops.ok());
        const std::size_t ws_bytes = std::max(d::call_workspace_bytes(plan, l.m, l.n, true, device->sm_count),
                                              d::call_workspace_bytes(plan, l.m, l.n, true, device->sm_count, true));
        const d::DeviceBuffer<unsigned char> ws(ws_bytes + 16);
        ASSERT_TRUE(ws);
        for (const float beta : {-0.5f, 0.0f}) {
          if (beta == 0.0f) ops.c.poison();
          else ops.c.upload(in.C);
          const d::SgemmArgs args{l.m,   l.n,  l.k,          0.75f, ops.a.data(), l.lda,   ops.b.data(),
                                  l.ldb, beta, ops.c.data(), l.ldc, algo,         nullptr, false};
          ASSERT_STATUS(Status::success, d::sgemm_run(args, &plan, ws.get(), ws_bytes, nullptr));
          CUDA_OK(cudaDeviceSynchronize());
          EXPECT_EQ(t::check_gemm(l, ref, 0.75f, beta, in.C, ops.c.download(), beta == 0.0f, algo), "")
              << "beta " << beta;
        }
        // C now holds the beta = 0 product; the fused forms over it (stored again, or not) and per row.
        const std::vector<float> stored = ops.c.download();
        const t::Top2Run twin = t::run_reduce_top2(stored, l.m, l.n, l.ldc, l.off_c);
        ASSERT_STATUS(Status::success, twin.status);
        const d::DeviceBuffer<gpuprims::Top2> top2(static_cast<std::size_t>(l.m));
        ASSERT_TRUE(top2);
        for (const bool store : {true, false}) {
          CUDA_OK(cudaMemset(top2.get(), 0x7F, sizeof(gpuprims::Top2)));
          const d::SgemmArgs fused{l.m,   l.n,          l.k,        0.75f, ops.a.data(),
                                   l.lda, ops.b.data(), l.ldb,      0.0f,  store ? ops.c.data() : nullptr,
                                   l.ldc, algo,         top2.get(), true};
          ASSERT_STATUS(Status::success, d::sgemm_run(fused, &plan, ws.get(), ws_bytes, nullptr));
          gpuprims::Top2 got{};
          CUDA_OK(cudaMemcpy(&got, top2.get(), sizeof got, cudaMemcpyDeviceToHost));
          EXPECT_EQ(t::top2_diff(got, twin.top2), "") << (store ? "C stored" : "C not stored");
        }
        d::SgemmArgs rows{l.m,   l.n,  l.k,          0.75f, ops.a.data(), l.lda,      ops.b.data(),
                          l.ldb, 0.0f, ops.c.data(), l.ldc, algo,         top2.get(), true};
        rows.per_row = true;
        CUDA_OK(cudaMemset(top2.get(), 0x7F, static_cast<std::size_t>(l.m) * sizeof(gpuprims::Top2)));
        ASSERT_STATUS(Status::success, d::sgemm_run(rows, &plan, ws.get(), ws_bytes, nullptr));
        std::vector<gpuprims::Top2> got(static_cast<std::size_t>(l.m));
        CUDA_OK(cudaMemcpy(got.data(), top2.get(), got.size() * sizeof(gpuprims::Top2), cudaMemcpyDeviceToHost));
        EXPECT_EQ(t::row_top2_bytes_diff(got, t::reference_row_top2(stored.data(), l.m, l.n, l.ldc)), "");
        EXPECT_EQ(ops.guard_damage(), "");
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Form, TensorCoreSplits,
                         ::testing::Values(gpuprims::detail::TensorCoreForm::mma_sync,
                                           gpuprims::detail::TensorCoreForm::wgmma),
                         [](const auto& info) {
  return info.param == gpuprims::detail::TensorCoreForm::wgmma ? "wgmma" : "mma_sync";
});

TEST(TensorCoreForms, MmaSyncFormTf32x3RmsErrorWithinTwiceTheFp32TunedRungs) {
  GPUPRIMS_REQUIRE_GPU();
  const PinnedForm pin(gpuprims::detail::TensorCoreForm::mma_sync);
  const auto l = t::make_layout(t::sized_for_sanitizer<std::int64_t>(256, 128), 257, 4096);
  auto rng = t::make_rng(1211);
  compare_with_tuned(l, t::make_inputs(l, rng), "mma_sync_uniform", 2.0);
}

}  // namespace
