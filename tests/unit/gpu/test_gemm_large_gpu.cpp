// Large SGEMMs: 4096^3 against cuBLAS (FP32, pedantic) plus double-precision checks of sampled rows, and
// a C of more than 2^31 elements (64-bit offsets) checked on sampled entries against a double
// reference, with every element shown written (no NaN left from the poison). Under the sanitizer
// (GPUPRIMS_SANITIZER=1) both run the same checks smaller: 512^3, and a 500 x 430 output.
#include <gtest/gtest.h>

#include <gpuprims/gemm.hpp>
#include <gpuprims/reduce.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include "common/src/device_buffer.hpp"
#include "support/device_helpers.hpp"
#include "support/gpu.hpp"
#include "support/random.hpp"
#include "support/reference.hpp"
#include "testkit/cublas.hpp"
#include "testkit/random.hpp"

namespace {

using gpuprims::Status;
using gpuprims::gemm::Algorithm;
using gpuprims::gemm::kAllAlgorithms;
namespace t = gpuprims::test;
namespace tk = gpuprims::testkit;

using gpuprims::detail::DeviceBuffer;

TEST(GemmLarge, Square4096AgainstCublasAndDoubleRows) {
  GPUPRIMS_REQUIRE_GPU();
  const int N = t::sized_for_sanitizer(4096, 512);
  const std::size_t count = static_cast<std::size_t>(N) * N;
  DeviceBuffer<float> A(count), B(count), C(count), ref(count), absA(count), absB(count), mag(count);
  ASSERT_TRUE(A && B && C && ref && absA && absB && mag);
  const std::uint64_t seed = t::base_seed() ^ 0x4096;
  CUDA_OK(tk::fill_uniform(A.get(), count, seed, -1.0f, 1.0f));
  CUDA_OK(tk::fill_uniform(B.get(), count, seed + 1, -1.0f, 1.0f));
  std::vector<float> hA(count), hB(count);
  CUDA_OK(cudaMemcpy(hA.data(), A.get(), count * 4, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(hB.data(), B.get(), count * 4, cudaMemcpyDeviceToHost));
  std::vector<float> h_abs(count);
  for (std::size_t i = 0; i < count; ++i) h_abs[i] = std::fabs(hA[i]);
  CUDA_OK(cudaMemcpy(absA.get(), h_abs.data(), count * 4, cudaMemcpyHostToDevice));
  for (std::size_t i = 0; i < count; ++i) h_abs[i] = std::fabs(hB[i]);
  CUDA_OK(cudaMemcpy(absB.get(), h_abs.data(), count * 4, cudaMemcpyHostToDevice));

  {
    // FP32 pedantic (no TF32): cuBLAS is then within the FP32 bound below, as ours must be.
    const tk::CublasHandle cublas(CUBLAS_PEDANTIC_MATH, nullptr);
    ASSERT_EQ(cublas.status(), CUBLAS_STATUS_SUCCESS);
    ASSERT_EQ(tk::sgemm_rowmajor(cublas.get(), N, N, N, 1.0f, A.get(), N, B.get(), N, 0.0f, ref.get(), N),
              CUBLAS_STATUS_SUCCESS);
    ASSERT_EQ(tk::sgemm_rowmajor(cublas.get(), N, N, N, 1.0f, absA.get(), N, absB.get(), N, 0.0f, mag.get(), N),
              CUBLAS_STATUS_SUCCESS);
    CUDA_OK(cudaDeviceSynchronize());
  }
  std::vector<float> h_ref(count), h_mag(count), h_c(count);
  CUDA_OK(cudaMemcpy(h_ref.data(), ref.get(), count * 4, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(h_mag.data(), mag.get(), count * 4, cudaMemcpyDeviceToHost));

  const int sample_rows[] = {0, 1, 127, 128, N / 2 - 1, N * 3 / 4 + 9, N - 2, N - 1};
  for (Algorithm algo : kAllAlgorithms) {
    SCOPED_TRACE(gpuprims::gemm::name(algo));
    CUDA_OK(cudaMemset(C.get(), 0xFF, count * 4));
    ASSERT_STATUS(Status::success,
                  gpuprims::gemm::sgemm(N, N, N, 1.0f, A.get(), N, B.get(), N, 0.0f, C.get(), N, algo));
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaMemcpy(h_c.data(), C.get(), count * 4, cudaMemcpyDeviceToHost));
    std::size_t bad = 0;
    for (std::size_t i = 0; i < count; ++i) {
      // Both ours and cuBLAS are within their bounds of the exact product, so they differ by at most the sum.
      const double bound = t::gemm_error_bound(N, h_mag[i]) + t::gemm_error_bound(algo, N, h_mag[i]);
      if (!(std::fabs(static_cast<double>(h_c[i]) - h_ref[i]) <= bound) && bad++ < 3)
        ADD_FAILURE() << "C[" << i / N << "," << i % N << "] = " << h_c[i] << ", cuBLAS " << h_ref[i];
    }
    EXPECT_EQ(bad, 0u);
    for (int r : sample_rows) {
      for (int j = 0; j < N; j += 7) {
        double sum = 0, m = 0;
        t::reference_product_entry(r, j, N, hA.data(), N, hB.data(), N, &sum, &m);
        const double got = h_c[static_cast<std::size_t>(r) * N + j];
        ASSERT_TRUE(std::fabs(got - sum) <= t::gemm_error_bound(algo, N, m)) << "row " << r << " col " << j;
      }
    }
  }
}

TEST(GemmHuge, OutputPast2Pow31ElementsSampledAgainstDouble) {
  GPUPRIMS_REQUIRE_GPU();
  const std::int64_t m = t::sized_for_sanitizer<std::int64_t>(50000, 500);
  const std::int64_t n = t::sized_for_sanitizer<std::int64_t>(43000, 430), k = 7, lda = 8;
  // The linear index the samples sit around: 2^31 (inside the output), or its middle when smaller.
  const std::int64_t pivot = std::min(std::int64_t{1} << 31, m * n / 2);
  if (!t::under_sanitizer()) {
    ASSERT_GT(m * n, std::int64_t{1} << 31) << "past 2^31 elements";
  }
  ASSERT_GT(t::gpu_free_bytes(), static_cast<std::size_t>(m * n * 4 + (std::int64_t{1} << 30)))
      << "this test needs about 9 GB of device memory";
  auto rng = t::make_rng(31);
  const std::vector<float> hA = tk::random_vector(static_cast<std::size_t>(m * lda), rng);
  const std::vector<float> hB = tk::random_vector(static_cast<std::size_t>(k * n), rng);
  DeviceBuffer<float> A(hA.size()), B(hB.size()), C(static_cast<std::size_t>(m * n));
  DeviceBuffer<gpuprims::Top2> fused(1), unfused(1);
  ASSERT_TRUE(A && B && C && fused && unfused);
  CUDA_OK(cudaMemcpy(A.get(), hA.data(), hA.size() * 4, cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(B.get(), hB.data(), hB.size() * 4, cudaMemcpyHostToDevice));

  std::vector<std::pair<std::int64_t, std::int64_t>> samples = {{0, 0}, {m - 1, n - 1}, {m - 1, 0}, {0, n - 1}};
  for (std::int64_t lin = pivot - 5; lin < pivot + 5; ++lin) samples.emplace_back(lin / n, lin % n);
  std::uniform_int_distribution<std::int64_t> ri(0, m - 1), rj(0, n - 1);
  for (int s = 0; s < 2000; ++s) samples.emplace_back(ri(rng), rj(rng));

  for (Algorithm algo : kAllAlgorithms) {
    SCOPED_TRACE(gpuprims::gemm::name(algo));
    CUDA_OK(cudaMemset(C.get(), 0xFF, static_cast<std::size_t>(m * n) * 4));
    ASSERT_STATUS(Status::success,
                  gpuprims::gemm::sgemm(m, n, k, 1.0f, A.get(), lda, B.get(), n, 0.0f, C.get(), n, algo));
    CUDA_OK(cudaDeviceSynchronize());
    std::int64_t nan_left = -1;
    CUDA_OK(t::device_count_nan(C.get(), m * n, &nan_left));
    EXPECT_EQ(nan_left, 0) << "elements not written";
    for (const auto& [i, j] : samples) {
      float got = 0;
      CUDA_OK(cudaMemcpy(&got, C.get() + i * n + j, 4, cudaMemcpyDeviceToHost));
      double sum = 0, mag = 0;
      t::reference_product_entry(i, j, k, hA.data(), lda, hB.data(), n, &sum, &mag);
      ASSERT_TRUE(std::fabs(got - sum) <= t::gemm_error_bound(algo, k, mag)) << "C[" << i << "," << j << "] = " << got;
    }
  }
  // The fused top-2 over more than 2^31 entries equals the unfused twin's over the stored C.
  ASSERT_STATUS(Status::success, gpuprims::gemm::sgemm_top2_argmin(m, n, k, 1.0f, A.get(), lda, B.get(), n, 0.0f,
                                                                   C.get(), n, fused.get()));
  ASSERT_STATUS(Status::success, gpuprims::reduce::top2_argmin(C.get(), m, n, n, unfused.get()));
  gpuprims::Top2 f{}, u{};
  CUDA_OK(cudaMemcpy(&f, fused.get(), sizeof f, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(&u, unfused.get(), sizeof u, cudaMemcpyDeviceToHost));
  EXPECT_EQ(f.first.row, u.first.row);
  EXPECT_EQ(f.first.col, u.first.col);
  EXPECT_EQ(f.second.row, u.second.row);
  EXPECT_EQ(f.second.col, u.second.col);
  EXPECT_EQ(f.first.value, u.first.value);
  EXPECT_EQ(f.second.value, u.second.value);
}

// The global top-2 of an output under 2^32 entries writes rows and columns from its packed 32-bit
// indices with 32-bit arithmetic (top2_atomic_write_result): its two smallest entries planted past
// linear index 2^31, the second a tie broken by the lower column, come back exact. C is not stored, so
// the output takes no memory; k = 2 over small integers, so every entry is exact. Under the sanitizer
// the output shrinks to 300 x 300 (the same checks, below 2^31).
TEST(GemmLarge, FusedTop2PlantedPastIndex2To31WithoutC) {
  GPUPRIMS_REQUIRE_GPU();
  const std::int64_t m = t::sized_for_sanitizer<std::int64_t>(46341, 300);
  const std::int64_t n = m, k = 2;  // 46341^2 = 2^31 + 4633 entries
  // C[i][j] = a_i + b_j: A's row i is (1, a_i), B's column j is (b_j, 1).
  std::vector<float> hA(static_cast<std::size_t>(m * k)), hB(static_cast<std::size_t>(k * n));
  for (std::int64_t i = 0; i < m; ++i) {
    hA[i * k] = 1.0f;
    hA[i * k + 1] = static_cast<float>(1 + i % 7);
  }
  for (std::int64_t j = 0; j < n; ++j) {
    hB[j] = static_cast<float>(1 + j % 5);
    hB[n + j] = 1.0f;
  }
  hA[(m - 1) * k + 1] = -10.0f;  // the last row: b_j - 10, at least -9 but where planted below
  hB[n - 1] = -5.0f;             // (m-1, n-1) = -15, the smallest, at linear index m * n - 1
  hB[n - 2] = -4.0f;             // (m-1, n-2) and (m-1, n-3) = -14: the second is the lower column
  hB[n - 3] = -4.0f;
  DeviceBuffer<float> A(hA.size()), B(hB.size());
  DeviceBuffer<gpuprims::Top2> out(1);
  ASSERT_TRUE(A && B && out);
  CUDA_OK(cudaMemcpy(A.get(), hA.data(), hA.size() * 4, cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(B.get(), hB.data(), hB.size() * 4, cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemset(out.get(), 0x7f, sizeof(gpuprims::Top2)));
  ASSERT_STATUS(Status::success,
                gpuprims::gemm::sgemm_top2_argmin(m, n, k, 1.0f, A.get(), k, B.get(), n, 0.0f, nullptr, n, out.get()));
  CUDA_OK(cudaDeviceSynchronize());
  gpuprims::Top2 got{};
  CUDA_OK(cudaMemcpy(&got, out.get(), sizeof got, cudaMemcpyDeviceToHost));
  if (m == 46341) {
    ASSERT_GT((m - 1) * n + (n - 3), std::int64_t{1} << 31) << "both entries past 2^31";
  }
  EXPECT_EQ(got.first.value, -15.0f);
  EXPECT_EQ(got.first.row, m - 1);
  EXPECT_EQ(got.first.col, n - 1);
  EXPECT_EQ(got.first.reserved, 0u);
  EXPECT_EQ(got.second.value, -14.0f);
  EXPECT_EQ(got.second.row, m - 1);
  EXPECT_EQ(got.second.col, n - 3);
  EXPECT_EQ(got.second.reserved, 0u);
}

}  // namespace
