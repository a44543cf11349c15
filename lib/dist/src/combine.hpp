#pragma once
// How the ranks' results become one: the rank-order sum of gathered partials, and the global top-2
// from the ranks' local ones. Written once for host and device (GPUPRIMS_HD): the kernels of
// combine_kernels.cu run exactly these, and the CPU tests check them against references.
#include <cstdint>

#include <gpuprims/top2.hpp>

#include "common/src/host_device.hpp"
// The top-2 order and merge of the core (the lead is moving this header to a shared device layer).
#include "common/device/top2_order.hpp"

namespace gpuprims::dist::detail {

// p[0] + p[1] + ... + p[count - 1], added left to right in single precision. Starting from p[0]
// (not from 0.0f) keeps a lone -0.0 as it is, so one rank gives exactly its own partial. The order
// is fixed here, never NCCL's, which is what makes every rank and every run agree bit for bit.
GPUPRIMS_HD float sum_in_rank_order(const float* p, int count) {
  float s = p[0];
  for (int r = 1; r < count; ++r) s = s + p[r];
  return s;
}

// A rank's top-2 with its local rows made global (row + row_begin); a missing entry (row -1) stays
// missing. Each rank applies it to its own result before the gather, so the merge needs no table
// of every rank's first row.
GPUPRIMS_HD Top2 globalize_rows(Top2 t, std::int64_t row_begin) {
  if (t.first.row >= 0) t.first.row += row_begin;
  if (t.second.row >= 0) t.second.row += row_begin;
  return t;
}

// A reported entry back to the merge's form: (order key, row-major linear index over `cols`
// columns). Values were reported through value_from_key (-0.0 as +0.0, NaN canonical), so the key
// is the one the rank ranked it by. A missing entry becomes the empty slot.
GPUPRIMS_HD void entry_to_keyed(const MinEntry& e, std::int64_t cols, std::uint32_t* key, std::int64_t* index) {
  if (e.row < 0) {
    *key = 0xffffffffu;
    *index = gpuprims::detail::kNoIndex;
    return;
  }
  *key = gpuprims::detail::order_key(e.value);
  *index = e.row * cols + e.col;
}

GPUPRIMS_HD gpuprims::detail::Top2Partial top2_to_partial(const Top2& t, std::int64_t cols) {
  gpuprims::detail::Top2Partial p;
  entry_to_keyed(t.first, cols, &p.k0, &p.i0);
  entry_to_keyed(t.second, cols, &p.k1, &p.i1);
  return p;
}

// The global top-2 from the ranks' results (rows already global), merged in rank order with the
// core's Top2Merge. The merge is exact over disjoint positions, so the result is the two smallest of
// the union by (value, global row-major index): what one top-2 over the whole matrix gives when the
// entries are the same bits (dist computes them with the whole call's plan, rows_plan.hpp).
GPUPRIMS_HD Top2 merge_in_rank_order(const Top2* per_rank, int count, std::int64_t cols) {
  gpuprims::detail::Top2Partial acc = gpuprims::detail::Top2Partial::empty();
  const gpuprims::detail::Top2Merge merge;
  for (int r = 0; r < count; ++r) acc = merge(acc, top2_to_partial(per_rank[r], cols));
  return gpuprims::detail::to_top2(acc, cols);
}

}  // namespace gpuprims::dist::detail
