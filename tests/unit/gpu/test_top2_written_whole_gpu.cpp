// Every top-2 entry point writes its whole result, all 48 bytes of a Top2, on every path: the reduce
// module's vector, strided and empty cases (and its explicit-workspace form), the fused GEMM epilogue
// with and without C, its scale-only and empty cases, and the 64-bit-index path whose last block
// writes the result. Each case runs twice: into an output filled with 0xA5 bytes (a byte left
// unwritten shows in the result), and into freshly allocated memory nothing was written to, as a
// user's program would. Under compute-sanitizer --tool initcheck the second copy back is reported if
// any byte was not written (the suite's other tests fill their outputs first, which hides that).
#include <gtest/gtest.h>

#include <gpuprims/gemm.hpp>
#include <gpuprims/reduce.hpp>

#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "common/src/device_buffer.hpp"
#include "gemm/src/gemm_internal.hpp"
#include "support/gemm_check.hpp"
#include "support/gpu.hpp"
#include "support/guarded_array.hpp"
#include "support/reference.hpp"
#include "support/top2_check.hpp"
#include "testkit/random.hpp"

namespace {

using gpuprims::Status;
using gpuprims::Top2;
using gpuprims::gemm::Algorithm;
namespace t = gpuprims::test;
namespace tk = gpuprims::testkit;
namespace d = gpuprims::detail;
using gpuprims::detail::DeviceBuffer;

// Runs one entry point into `out` on the default stream.
using Call = std::function<Status(Top2* out)>;

struct Outcome {
  Top2 result{};
  std::string error;  // empty when the call, the sync and the copy back all succeeded
};

// One call into a fresh cudaMalloc'd Top2: filled with 0xA5 bytes first, or not touched at all.
Outcome run_into_fresh_output(const Call& call, bool fill_first) {
  Outcome o;
  const DeviceBuffer<Top2> out(1);
  if (!out) {
    o.error = "cudaMalloc failed";
    return o;
  }
  if (fill_first) (void)cudaMemset(out.get(), 0xA5, sizeof(Top2));
  const Status st = call(out.get());
  cudaError_t err = cudaDeviceSynchronize();
  if (err == cudaSuccess) err = cudaMemcpy(&o.result, out.get(), sizeof(Top2), cudaMemcpyDeviceToHost);
  if (st != Status::success) o.error = std::string("status ") + gpuprims::to_string(st);
  if (err != cudaSuccess) o.error += std::string(" ") + cudaGetErrorString(err);
  return o;
}

// The result equals `want`, `reserved` is 0 in both entries, and the run into unfilled memory gave
// the same 48 bytes as the run into 0xA5 bytes.
void expect_written_whole(const std::string& what, const Call& call, const Top2& want) {
  SCOPED_TRACE(what);
  const Outcome filled = run_into_fresh_output(call, true);
  const Outcome fresh = run_into_fresh_output(call, false);
  ASSERT_EQ(filled.error, "");
  ASSERT_EQ(fresh.error, "");
  EXPECT_EQ(t::top2_diff(filled.result, want), "");
  EXPECT_EQ(filled.result.first.reserved, 0u);
  EXPECT_EQ(filled.result.second.reserved, 0u);
  EXPECT_EQ(0, std::memcmp(&filled.result, &fresh.result, sizeof(Top2)))
      << "0xA5-filled: " << t::to_string(filled.result) << ", unfilled: " << t::to_string(fresh.result);
}

TEST(Top2WrittenWhole, ReduceTop2EveryPath) {
  GPUPRIMS_REQUIRE_GPU();
  auto rng = t::make_rng(0x70b2);
  const std::vector<float> x = tk::random_vector(1000, rng, tk::Dist::integers_small);
  t::GuardedArray in(x.size());
  ASSERT_TRUE(in.ok());
  in.upload(x);
  const float* p = in.data();
  namespace r = gpuprims::reduce;

  expect_written_whole(
      "vector of 1000 (16-byte loads)", [&](Top2* out) { return r::top2_argmin(p, 1000, out); },
      t::reference_top2(x.data(), 1, 1000, 1000));
  expect_written_whole(
      "vector of 3 (scalar loads)", [&](Top2* out) { return r::top2_argmin(p, 3, out); },
      t::reference_top2(x.data(), 1, 3, 3));
  expect_written_whole(
      "one entry: the second is missing", [&](Top2* out) { return r::top2_argmin(p, 1, out); },
      t::reference_top2(x.data(), 1, 1, 1));
  expect_written_whole(
      "strided 5 x 7, ld 9", [&](Top2* out) { return r::top2_argmin(p, 5, 7, 9, out); },
      t::reference_top2(x.data(), 5, 7, 9));
  expect_written_whole(
      "no entries", [&](Top2* out) { return r::top2_argmin(p, 0, 7, 7, out); }, t::reference_top2(x.data(), 0, 7, 7));
  const std::size_t ws_bytes = r::top2_argmin_workspace_bytes(40, 25);
  const DeviceBuffer<unsigned char> ws(ws_bytes);
  ASSERT_TRUE(ws);
  expect_written_whole(
      "explicit workspace, 40 x 25", [&](Top2* out) { return r::top2_argmin(p, 40, 25, 25, out, ws.get(), ws_bytes); },
      t::reference_top2(x.data(), 40, 25, 25));
}

TEST(Top2WrittenWhole, FusedGemmTop2EveryPath) {
  GPUPRIMS_REQUIRE_GPU();
  // Small integers: the product is exact in float, so the reference is exact too.
  const t::GemmLayout l = t::make_layout(67, 45, 9);
  auto rng = t::make_rng(0x70b3);
  const t::GemmInputs in = t::make_inputs(l, rng, tk::Dist::integers_small);
  const t::ProductReference ref = t::reference_product(l.m, l.n, l.k, in.A.data(), l.lda, in.B.data(), l.ldb);
  std::vector<float> product(ref.sum.size());
  for (std::size_t i = 0; i < product.size(); ++i) product[i] = static_cast<float>(ref.sum[i]);
  const Top2 want_product = t::reference_top2(product.data(), l.m, l.n, l.n);
  const Top2 want_c = t::reference_top2(in.C.data(), l.m, l.n, l.ldc);  // alpha = 0, beta = 1: C itself
  const Top2 want_empty = t::reference_top2(nullptr, 0, 0, 1);

  t::GuardedOperands ops(l, in);
  ASSERT_TRUE(ops.ok());
  namespace g = gpuprims::gemm;
  const float *A = ops.a.data(), *B = ops.b.data();
  float* C = ops.c.data();
  auto fused = [&](float alpha, float beta, float* c_or_null, Algorithm algo) {
    return [=, &l](Top2* out) {
      return g::sgemm_top2_argmin(l.m, l.n, l.k, alpha, A, l.lda, B, l.ldb, beta, c_or_null, l.ldc, out, algo);
    };
  };
  for (Algorithm algo : {Algorithm::tuned, Algorithm::naive}) {
    const std::string rung = g::name(algo);
    expect_written_whole(rung + ": C stored", fused(1.0f, 0.0f, C, algo), want_product);
    expect_written_whole(rung + ": C not stored", fused(1.0f, 0.0f, nullptr, algo), want_product);
    ops.c.upload(in.C);
    expect_written_whole(rung + ": scale only (alpha = 0, beta = 1)", fused(0.0f, 1.0f, C, algo), want_c);
  }
  expect_written_whole(
      "no entries (m = 0)",
      [&](Top2* out) { return g::sgemm_top2_argmin(0, l.n, l.k, 1.0f, A, l.lda, B, l.ldb, 0.0f, nullptr, l.ldc, out); },
      want_empty);

  const std::size_t ws_bytes = g::top2_workspace_bytes(l.m, l.n, l.k);
  const DeviceBuffer<unsigned char> ws(ws_bytes);
  ASSERT_TRUE(ws);
  expect_written_whole(
      "explicit workspace",
      [&](Top2* out) {
    return g::sgemm_top2_argmin(l.m, l.n, l.k, 1.0f, A, l.lda, B, l.ldb, 0.0f, nullptr, l.ldc, out, ws.get(), ws_bytes);
      },
      want_product);
  // The 64-bit-index path (outputs of 2^32 entries or more), forced: the grid's last block writes the
  // result.
  expect_written_whole(
      "64-bit-index path, last block writes",
      [&](Top2* out) {
    d::SgemmArgs args{l.m, l.n, l.k, 1.0f, A, l.lda, B, l.ldb, 0.0f, C, l.ldc, Algorithm::tuned, out, true};
    args.force_wide_index = true;
    return d::sgemm_run(args, nullptr, ws.get(), ws_bytes, nullptr);
      },
      want_product);
}

}  // namespace
