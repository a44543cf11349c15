// The dist calls' argument checks on the CPU (this binary sees no device): each bad argument gives
// its Status, and none reaches CUDA or NCCL. Checks that need no communicator are shown through the
// public calls with a communicator pointer that NCCL would crash on (so a call that reached NCCL
// would not return); those against the rank count and rank index through the internal checks that
// the calls run with NCCL's answers.
#include <gtest/gtest.h>

#include <gpuprims/dist.hpp>

#include <cstdint>
#include <limits>

#include "dist/src/validate.hpp"
#include "gemm/src/rows_plan.hpp"
#include "support/gpu.hpp"

namespace {

using gpuprims::Status;
using gpuprims::Top2;
namespace dist = gpuprims::dist;
namespace dd = gpuprims::dist::detail;

// Not a communicator: any NCCL call on it would fault. Every call below must return before one.
ncclComm_t bogus_comm() { return reinterpret_cast<ncclComm_t>(std::uintptr_t{0x10}); }

// Stand-ins for device buffers: the checks look at the pointers only.
alignas(64) float g_buffer[256];
alignas(64) Top2 g_top2[4];

const float* misaligned(const float* p) { return reinterpret_cast<const float*>(reinterpret_cast<const char*>(p) + 2); }

// Rank 0 of 2 under the even split of 8 rows: 4 rows of A (8 x 3) and C (8 x 4), B 3 x 4.
dist::SgemmArgs valid_args() {
  dist::SgemmArgs a;
  a.m = 8;
  a.n = 4;
  a.k = 3;
  a.m_local = 4;
  a.alpha = 1.0f;
  a.A_local = g_buffer;
  a.lda = 3;
  a.B = g_buffer + 64;
  a.ldb = 4;
  a.beta = 0.5f;
  a.C_local = g_buffer + 128;
  a.ldc = 4;
  return a;
}

// The public sgemm and sgemm_top2_argmin (both forms) on a bogus communicator: every one must give
// `expected` without touching it.
void expect_both(Status expected, const dist::SgemmArgs& a, const char* what) {
  SCOPED_TRACE(what);
  EXPECT_STATUS(expected, dist::sgemm(bogus_comm(), a));
  EXPECT_STATUS(expected, dist::sgemm(bogus_comm(), a, g_buffer, sizeof g_buffer));
  EXPECT_STATUS(expected, dist::sgemm_top2_argmin(bogus_comm(), a, g_top2));
  EXPECT_STATUS(expected, dist::sgemm_top2_argmin(bogus_comm(), a, g_top2, g_buffer, sizeof g_buffer));
}

TEST(DistValidation, ValidArgumentsPassTheChecksWithoutACommunicator) {
  const dist::SgemmArgs a = valid_args();
  EXPECT_STATUS(Status::success, dd::check_sgemm_local(a, false, nullptr));
  EXPECT_STATUS(Status::success, dd::check_sgemm_local(a, true, g_top2));
  dist::RowRange range;
  EXPECT_STATUS(Status::success, dd::check_sgemm_ranked(a, 2, 0, &range));
  EXPECT_EQ(range.begin, 0);
  EXPECT_EQ(range.count, 4);
  // A null communicator is a bad argument too, before anything else is looked at.
  EXPECT_STATUS(Status::invalid_argument, dist::sgemm(nullptr, a));
  EXPECT_STATUS(Status::invalid_argument, dist::sgemm_top2_argmin(nullptr, a, g_top2));
  EXPECT_STATUS(Status::invalid_argument, dist::sum(nullptr, g_buffer, 4, g_buffer + 8));
}

TEST(DistValidation, SizesAndShards) {
  auto a = valid_args();
  a.m = -1;
  expect_both(Status::invalid_argument, a, "negative m");
  a = valid_args();
  a.n = -1;
  expect_both(Status::invalid_argument, a, "negative n");
  a = valid_args();
  a.k = -1;
  expect_both(Status::invalid_argument, a, "negative k");
  a = valid_args();
  a.m_local = -1;
  expect_both(Status::invalid_argument, a, "negative m_local");
  a = valid_args();
  a.m_local = 9;
  expect_both(Status::invalid_argument, a, "m_local > m");
  const std::int64_t wrong_sum[] = {4, 3};
  a = valid_args();
  a.split = dist::RowSplit::explicit_counts(wrong_sum, 2);
  expect_both(Status::invalid_argument, a, "explicit counts that do not sum to m");
  const std::int64_t negative[] = {10, -2};
  a.split = dist::RowSplit::explicit_counts(negative, 2);
  expect_both(Status::invalid_argument, a, "a negative count");
  a.split = dist::RowSplit::explicit_counts(wrong_sum, 0);
  expect_both(Status::invalid_argument, a, "an explicit split without entries");
}

TEST(DistValidation, AgainstTheCommunicator) {
  dist::RowRange range;
  auto a = valid_args();
  const std::int64_t counts[] = {4, 4};
  a.split = dist::RowSplit::explicit_counts(counts, 2);
  EXPECT_STATUS(Status::success, dd::check_sgemm_ranked(a, 2, 1, &range));
  EXPECT_EQ(range.begin, 4);
  EXPECT_STATUS(Status::invalid_argument, dd::check_sgemm_ranked(a, 3, 0, &range)) << "rows array of 2 on 3 ranks";
  a = valid_args();
  EXPECT_STATUS(Status::invalid_argument, dd::check_sgemm_ranked(a, 3, 0, &range))
      << "4 local rows, but the even split of 8 over 3 gives rank 0 three";
  EXPECT_STATUS(Status::success, dd::check_sgemm_ranked(a, 2, 1, &range));
  a.m_local = 3;
  EXPECT_STATUS(Status::invalid_argument, dd::check_sgemm_ranked(a, 2, 1, &range)) << "a shard of the wrong size";
  a = valid_args();
  a.b_source = dist::BSource::broadcast_from(2);
  EXPECT_STATUS(Status::invalid_argument, dd::check_sgemm_ranked(a, 2, 0, &range)) << "root out of range";
  a.b_source = dist::BSource::broadcast_from(1);
  EXPECT_STATUS(Status::success, dd::check_sgemm_ranked(a, 2, 0, &range));
}

TEST(DistValidation, BroadcastRoot) {
  auto a = valid_args();
  a.b_source = dist::BSource::broadcast_from(-1);
  expect_both(Status::invalid_argument, a, "negative root");
  a.b_source.kind = static_cast<dist::BSource::Kind>(7);
  a.b_source.root = 0;
  expect_both(Status::invalid_argument, a, "unknown B source");
}

TEST(DistValidation, PointersAndLeadingDimensions) {
  auto a = valid_args();
  a.A_local = nullptr;
  expect_both(Status::invalid_argument, a, "null A_local");
  a = valid_args();
  a.B = nullptr;
  expect_both(Status::invalid_argument, a, "null B");
  a = valid_args();
  a.C_local = nullptr;
  EXPECT_STATUS(Status::invalid_argument, dist::sgemm(bogus_comm(), a)) << "null C";
  EXPECT_STATUS(Status::invalid_argument, dist::sgemm_top2_argmin(bogus_comm(), a, g_top2)) << "null C with beta != 0";
  a.beta = 0.0f;
  EXPECT_STATUS(Status::success, dd::check_sgemm_local(a, true, g_top2)) << "C not stored: allowed with beta == 0";
  a = valid_args();
  a.lda = 2;
  expect_both(Status::invalid_argument, a, "lda < k");
  a = valid_args();
  a.ldb = 3;
  expect_both(Status::invalid_argument, a, "ldb < n");
  a = valid_args();
  a.ldc = 3;
  expect_both(Status::invalid_argument, a, "ldc < n");
  a = valid_args();
  a.A_local = misaligned(g_buffer);
  expect_both(Status::misaligned_pointer, a, "A_local not 4-byte aligned");
  a = valid_args();
  a.algo = static_cast<gpuprims::gemm::Algorithm>(99);
  expect_both(Status::invalid_argument, a, "unknown algorithm");
  a = valid_args();
  EXPECT_STATUS(Status::invalid_argument, dist::sgemm_top2_argmin(bogus_comm(), a, nullptr)) << "null d_top2";
  EXPECT_STATUS(Status::misaligned_pointer,
                dist::sgemm_top2_argmin(bogus_comm(), a, reinterpret_cast<Top2*>(g_buffer + 1)))
      << "misaligned d_top2";
}

TEST(DistValidation, BIsNeededOnEveryRankWhenBroadcast) {
  // A rank without rows multiplies nothing, so the core would not need its B; the broadcast writes it.
  auto a = valid_args();
  a.m = 4;
  a.m_local = 0;
  a.A_local = nullptr;
  a.C_local = nullptr;
  a.B = nullptr;
  EXPECT_STATUS(Status::success, dd::check_sgemm_local(a, false, nullptr)) << "replicated: B unused here";
  a.b_source = dist::BSource::broadcast_from(1);
  expect_both(Status::invalid_argument, a, "broadcast into a null B");
  a.k = 0;
  EXPECT_STATUS(Status::success, dd::check_sgemm_local(a, false, nullptr)) << "k == 0: nothing to broadcast";
}

TEST(DistValidation, Top2IndicesFitInt64) {
  auto a = valid_args();
  a.m = std::int64_t{1} << 40;
  a.n = std::int64_t{1} << 30;
  a.m_local = 0;
  a.ldb = a.n;
  a.ldc = a.n;
  a.k = 1;
  a.lda = 1;
  a.split = dist::RowSplit::even();
  EXPECT_STATUS(Status::invalid_argument, dd::check_sgemm_local(a, true, g_top2)) << "m * n past int64";
}

TEST(DistValidation, Sum) {
  float* out = g_buffer + 8;
  EXPECT_STATUS(Status::invalid_argument, dist::sum(bogus_comm(), g_buffer, -1, out)) << "negative n_local";
  EXPECT_STATUS(Status::invalid_argument, dist::sum(bogus_comm(), nullptr, 5, out)) << "null input";
  EXPECT_STATUS(Status::invalid_argument, dist::sum(bogus_comm(), g_buffer, 5, nullptr)) << "null output";
  EXPECT_STATUS(Status::misaligned_pointer, dist::sum(bogus_comm(), misaligned(g_buffer), 5, out));
  EXPECT_STATUS(Status::misaligned_pointer, dist::sum(bogus_comm(), g_buffer, 5, const_cast<float*>(misaligned(out))));
  EXPECT_STATUS(Status::invalid_argument,
                dist::sum(bogus_comm(), g_buffer, 5, out, nullptr, static_cast<gpuprims::reduce::Algorithm>(42)))
      << "unknown algorithm";
  EXPECT_STATUS(Status::invalid_argument, dist::sum(bogus_comm(), g_buffer, -1, out, g_buffer + 16, 64));
  EXPECT_STATUS(Status::success, dd::check_sum_local(nullptr, 0, out, gpuprims::reduce::Algorithm::shuffle))
      << "an empty shard needs no input";
}

TEST(DistValidation, Workspace) {
  EXPECT_STATUS(Status::success, dd::check_workspace(nullptr, 0, 0));
  EXPECT_STATUS(Status::invalid_argument, dd::check_workspace(nullptr, 0, 256));
  EXPECT_STATUS(Status::invalid_argument, dd::check_workspace(g_buffer, 255, 256));
  EXPECT_STATUS(Status::misaligned_pointer, dd::check_workspace(g_buffer + 1, 1024, 256));
  EXPECT_STATUS(Status::success, dd::check_workspace(g_buffer + 4, 256, 256));
  // The gathered partials come first, one 256-byte-rounded part, then reduce::sum's workspace.
  const std::int64_t n = (std::int64_t{1} << 20) + 3;
  EXPECT_EQ(dist::sum_workspace_bytes(n, 3), 256 + gpuprims::reduce::workspace_bytes(n));
  EXPECT_EQ(dist::sum_workspace_bytes(0, 100), 512u);
  EXPECT_EQ(dist::sum_workspace_bytes(-1, 2), 0u);
  EXPECT_EQ(dist::sum_workspace_bytes(10, 0), 0u);
  const dist::SgemmArgs a = valid_args();
  EXPECT_EQ(dist::top2_workspace_bytes(a, 6),
            512 + gpuprims::detail::top2_rows_workspace_bytes(a.m, a.m_local, a.n, a.k, a.algo));
  EXPECT_EQ(dist::top2_workspace_bytes(a, 0), 0u);
  auto bad = a;
  bad.lda = 0;
  EXPECT_EQ(dist::top2_workspace_bytes(bad, 2), 0u);
  EXPECT_EQ(dist::sgemm_workspace_bytes(bad), 0u);
}

TEST(DistValidation, ArrayFormsCheckEveryEntryBeforeAnyCall) {
  EXPECT_STATUS(Status::invalid_argument, dist::sgemm(static_cast<const dist::SgemmCall*>(nullptr), 2));
  EXPECT_STATUS(Status::invalid_argument, dist::sum(static_cast<const dist::SumCall*>(nullptr), 1));
  dist::SgemmCall calls[2];
  calls[0].comm = bogus_comm();
  calls[0].args = valid_args();
  calls[0].d_top2 = g_top2;
  calls[1] = calls[0];
  calls[1].comm = reinterpret_cast<ncclComm_t>(std::uintptr_t{0x20});
  EXPECT_STATUS(Status::invalid_argument, dist::sgemm(calls, 0));
  // The second entry is bad: the call returns before asking NCCL about the first.
  calls[1].args.lda = 1;
  EXPECT_STATUS(Status::invalid_argument, dist::sgemm(calls, 2));
  EXPECT_STATUS(Status::invalid_argument, dist::sgemm_top2_argmin(calls, 2));
  // Two entries with one communicator.
  calls[1] = calls[0];
  EXPECT_STATUS(Status::invalid_argument, dist::sgemm(calls, 2));
  dist::SumCall sums[2];
  sums[0].comm = bogus_comm();
  sums[0].d_in_local = g_buffer;
  sums[0].n_local = 4;
  sums[0].d_out = g_buffer + 8;
  sums[1] = sums[0];
  EXPECT_STATUS(Status::invalid_argument, dist::sum(sums, 2)) << "one communicator twice";
  sums[1].comm = reinterpret_cast<ncclComm_t>(std::uintptr_t{0x20});
  sums[1].d_out = nullptr;
  EXPECT_STATUS(Status::invalid_argument, dist::sum(sums, 2));
}

}  // namespace
