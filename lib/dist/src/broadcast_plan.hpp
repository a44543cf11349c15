#pragma once
// How B travels in a distributed SGEMM: not at all (replicated), in one broadcast before the GEMM,
// or in row blocks on a second stream that overlap the GEMM of the blocks already there. A function
// of global arguments only, so every rank makes the same plan and issues the same collectives
// (a rank without rows still takes part in every block's broadcast). Host code, tested on the CPU.
#include <cstddef>
#include <cstdint>
#include <vector>

#include <gpuprims/dist.hpp>

namespace gpuprims::dist::detail {

// Overlap pays when the broadcast is long enough to matter and each block still makes a long GEMM:
// B of at least 64 MiB (about 0.2 ms over NVLink, more on PCIe) and k >= 1024 (the smallest block,
// k/16, then has >= 64 rows of k). Below that one broadcast then one GEMM costs about the same.
inline constexpr std::int64_t kOverlapMinBBytes = std::int64_t{64} << 20;
inline constexpr std::int64_t kOverlapMinK = 1024;
// Block boundaries are multiples of this many rows of k, so A_local + k0 and B + k0 * ldb keep the
// 16-byte alignment that the GEMM's float4 loads need (64 also keeps whole k tiles).
inline constexpr std::int64_t kBlockAlign = 64;

struct BroadcastPlan {
  bool broadcast = false;   // B is broadcast at all (broadcast source and k * n > 0)
  bool overlapped = false;  // in row blocks on a second stream, overlapping the GEMM
  // Row boundaries of the blocks in k: block i is rows [bounds[i], bounds[i + 1]) of B (and columns
  // of A). {0, k} for a single block; empty when nothing is broadcast.
  std::vector<std::int64_t> bounds;

  int blocks() const { return bounds.empty() ? 0 : static_cast<int>(bounds.size()) - 1; }
};

// The plan for these global arguments. Overlapped blocks end at k/16, k/8, k/4, k/2 and k (rounded
// down to kBlockAlign): the first block's broadcast is the only one not hidden behind a GEMM, so it
// is small, and each later block is about as large as all blocks before it together, whose GEMM
// takes far longer than its broadcast (about 30x on H100/H200 over NVLink), so it has arrived when
// the GEMM gets there. Five GEMM calls instead of one: four extra passes over C with beta = 1.
BroadcastPlan plan_broadcast(std::int64_t m, std::int64_t n, std::int64_t k, float alpha, int nranks,
                             const BSource& source);

// Floats in block `block`'s broadcast, one contiguous range from row bounds[block], column 0: every
// row with the padding after it, except that the last block ends at column n - 1 of row k - 1. The
// blocks together are exactly the whole broadcast's (k - 1) * ldb + n floats.
std::size_t block_floats(const BroadcastPlan& plan, int block, std::int64_t n, std::int64_t ldb);

}  // namespace gpuprims::dist::detail
