// Every configuration the tuned rung can pick, forced onto tail-heavy shapes with padded leading
// dimensions and offset pointers (the public API reaches each only for the shapes its table sends
// there), plain and with the fused top-2 against its unfused twin.
#include <gtest/gtest.h>

#include <gpuprims/gemm.hpp>
#include <gpuprims/reduce.hpp>

#include <string>

#include "gemm/src/gemm_internal.hpp"
#include "support/gemm_check.hpp"
#include "support/gpu.hpp"
#include "support/guarded_array.hpp"
#include "support/top2_check.hpp"

namespace {

namespace d = gpuprims::detail;
namespace t = gpuprims::test;
using gpuprims::Status;

class TunedConfigs : public ::testing::TestWithParam<int> {};

TEST_P(TunedConfigs, TailsPaddingOffsetsAndTop2) {
  GPUPRIMS_REQUIRE_GPU();
  const d::RungEntry& cfg = d::kTunedConfigs[GetParam()];
  SCOPED_TRACE(cfg.name);
  const t::GemmLayout layouts[] = {t::make_layout(1, 1, 1), t::make_layout(cfg.bm + 1, cfg.bn - 1, 17),
                                   t::make_layout(2 * cfg.bm + 3, cfg.bn + 5, 33, 1, 2, 3, 3, 2, 1),
                                   t::make_layout(300, 259, 70, 4, 4, 4),
                                   // Interior tiles beside edge ones, k a whole number of slabs and
                                   // 16-byte aligned operands: the loads without edge tests and the
                                   // fixed epilogue forms of interior tiles.
                                   t::make_layout(2 * cfg.bm + 3, 2 * cfg.bn + 4, 64, 0, 0, 4)};
  for (const auto& l : layouts) {
    SCOPED_TRACE(l.describe());
    auto rng = t::make_rng(900 + l.m);
    const t::GemmInputs in = t::make_inputs(l, rng);
    const t::ProductReference ref = t::reference_product(l.m, l.n, l.k, in.A.data(), l.lda, in.B.data(), l.ldb);
    t::GuardedArray a(in.A.size(), l.off_a), b(in.B.size(), l.off_b), c(in.C.size(), l.off_c);
    ASSERT_TRUE(a.ok() && b.ok() && c.ok());
    a.upload(in.A);
    b.upload(in.B);
    c.upload(in.C);
    const float alpha = 0.75f, beta = -0.5f;
    const d::SgemmArgs args{l.m, l.n, l.k, alpha, a.data(), l.lda, b.data(), l.ldb, beta, c.data(), l.ldc,
                            gpuprims::gemm::Algorithm::tuned, nullptr, false};
    ASSERT_STATUS(Status::success, d::sgemm_run(args, &cfg, nullptr, 0, nullptr));
    CUDA_OK(cudaDeviceSynchronize());
    const std::vector<float> out = c.download();
    EXPECT_EQ(t::check_gemm(l, ref, alpha, beta, in.C, out, false), "");
    EXPECT_EQ(a.guard_damage() + b.guard_damage() + c.guard_damage(), "");

    // Fused top-2 with this configuration (C stored again with beta = 0) equals the unfused twin.
    gpuprims::Top2* d_top2 = nullptr;
    CUDA_OK(cudaMalloc(reinterpret_cast<void**>(&d_top2), sizeof(gpuprims::Top2)));
    CUDA_OK(cudaMemset(d_top2, 0x7F, sizeof(gpuprims::Top2)));  // poisoned: the kernel must write it
    const std::size_t ws_bytes = d::top2_workspace_for(l.m, l.n, cfg);
    void* ws = nullptr;
    CUDA_OK(cudaMalloc(&ws, ws_bytes));
    d::SgemmArgs fused = args;
    fused.beta = 0.0f;
    fused.top2 = d_top2;
    fused.want_top2 = true;
    ASSERT_STATUS(Status::success, d::sgemm_run(fused, &cfg, ws, ws_bytes, nullptr));
    gpuprims::Top2 f{};
    CUDA_OK(cudaMemcpy(&f, d_top2, sizeof f, cudaMemcpyDeviceToHost));
    const t::Top2Run twin = t::run_reduce_top2(c.download(), l.m, l.n, l.ldc, l.off_c);
    EXPECT_EQ(t::top2_diff(f, twin.top2), "");
    // The 64-bit-index ranking (taken by outputs of 2^32 entries or more) gives the same answer.
    CUDA_OK(cudaMemset(d_top2, 0x7F, sizeof(gpuprims::Top2)));
    fused.force_wide_index = true;
    ASSERT_STATUS(Status::success, d::sgemm_run(fused, &cfg, ws, ws_bytes, nullptr));
    gpuprims::Top2 wide{};
    CUDA_OK(cudaMemcpy(&wide, d_top2, sizeof wide, cudaMemcpyDeviceToHost));
    EXPECT_EQ(t::top2_diff(wide, twin.top2), "") << "wide-index path";
    // And without C: the product is not stored, the answer is the same.
    CUDA_OK(cudaMemset(d_top2, 0x7F, sizeof(gpuprims::Top2)));
    fused.force_wide_index = false;
    fused.C = nullptr;
    ASSERT_STATUS(Status::success, d::sgemm_run(fused, &cfg, ws, ws_bytes, nullptr));
    gpuprims::Top2 no_c{};
    CUDA_OK(cudaMemcpy(&no_c, d_top2, sizeof no_c, cudaMemcpyDeviceToHost));
    EXPECT_EQ(t::top2_diff(no_c, twin.top2), "") << "C not stored";
    CUDA_OK(cudaFree(ws));
    CUDA_OK(cudaFree(d_top2));
  }
}

INSTANTIATE_TEST_SUITE_P(Every, TunedConfigs, ::testing::Range(0, d::kNumTunedConfigs),
                         [](const auto& info) { return std::string(d::kTunedConfigs[info.param].name); });

}  // namespace
