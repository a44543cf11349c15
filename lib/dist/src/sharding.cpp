// Row sharding: which global rows each rank holds. Pure host arithmetic in 64 bits (m may exceed
// 2^31; nothing here overflows for any m >= 0).
#include <gpuprims/dist.hpp>

namespace gpuprims::dist {

Status even_row_range(std::int64_t m, int nranks, int rank, RowRange* out) noexcept {
  if (out == nullptr || m < 0 || nranks < 1 || rank < 0 || rank >= nranks) return Status::invalid_argument;
  const std::int64_t base = m / nranks;
  const std::int64_t extra = m % nranks;  // the first `extra` ranks hold one row more
  const std::int64_t r = rank;
  out->count = base + (r < extra ? 1 : 0);
  out->begin = r * base + (r < extra ? r : extra);  // <= m: no overflow
  return Status::success;
}

Status row_range(std::int64_t m, const RowSplit& split, int nranks, int rank, RowRange* out) noexcept {
  if (split.counts == nullptr) return even_row_range(m, nranks, rank, out);
  if (out == nullptr || m < 0 || nranks < 1 || rank < 0 || rank >= nranks || split.size != nranks)
    return Status::invalid_argument;
  // Every entry is checked (not only those before `rank`), so each rank rejects the same split.
  std::int64_t total = 0, begin = 0;
  for (int r = 0; r < nranks; ++r) {
    const std::int64_t c = split.counts[r];
    if (c < 0 || c > m - total) return Status::invalid_argument;  // negative, or the sum passes m
    if (r == rank) begin = total;
    total += c;
  }
  if (total != m) return Status::invalid_argument;
  out->begin = begin;
  out->count = split.counts[rank];
  return Status::success;
}

}  // namespace gpuprims::dist
