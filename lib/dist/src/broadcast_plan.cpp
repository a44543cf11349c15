#include "dist/src/broadcast_plan.hpp"

namespace gpuprims::dist::detail {

BroadcastPlan plan_broadcast(std::int64_t m, std::int64_t n, std::int64_t k, float alpha, int nranks,
                             const BSource& source) {
  BroadcastPlan plan;
  if (source.kind != BSource::Kind::broadcast || k <= 0 || n <= 0) return plan;
  plan.broadcast = true;
  // B's size without padding, in floats. k * n <= (k - 1) * ldb + n, which the caller checked fits
  // int64 before planning.
  const bool big_b = k * n >= kOverlapMinBBytes / static_cast<std::int64_t>(sizeof(float));
  plan.overlapped = nranks > 1 && m > 0 && alpha != 0.0f && k >= kOverlapMinK && big_b;
  if (!plan.overlapped) {
    plan.bounds = {0, k};
    return plan;
  }
  plan.bounds.push_back(0);
  for (int shift : {4, 3, 2, 1}) plan.bounds.push_back((k >> shift) / kBlockAlign * kBlockAlign);
  plan.bounds.push_back(k);
  return plan;
}

std::size_t block_floats(const BroadcastPlan& plan, int block, std::int64_t n, std::int64_t ldb) {
  const std::int64_t rows =
      plan.bounds[static_cast<std::size_t>(block) + 1] - plan.bounds[static_cast<std::size_t>(block)];
  // Every block but the last also carries the padding after its last row, so the blocks together
  // send exactly what the whole broadcast would: (k - 1) * ldb + n floats from B[0] on.
  const bool last = block + 1 == plan.blocks();
  return static_cast<std::size_t>(last ? (rows - 1) * ldb + n : rows * ldb);
}

}  // namespace gpuprims::dist::detail
