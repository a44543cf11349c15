#pragma once
// What every row kernel shares: the per-row top-2 as an operator of reduce_ops.hpp's shape (its
// accumulator is the shared Top2Partial, its result the public Top2 with the row filled in), the
// thread-level accumulate (an insertion for the top-2, lift + combine otherwise), and one thread's
// share of a contiguous column range read with 16-byte loads between a scalar head and tail (each
// vector combined as device_reduce.cuh's pass 1 combines it).
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <gpuprims/device/device_reduce.cuh>
#include <gpuprims/device/reduce_ops.hpp>
#include <gpuprims/top2.hpp>

#include "common/device/top2_order.hpp"
#include "reduce/src/rows/float_row_scan.cuh"

namespace gpuprims::reduce::detail {

// The two smallest entries of a row in the global top-2's order (top2_order.hpp): index = column.
struct Top2RowOp {
  using Input = float;
  using Acc = ::gpuprims::detail::Top2Partial;
  using Output = Top2;
  __host__ __device__ Acc identity() const { return Acc::empty(); }
  __host__ __device__ Acc lift(float x, std::int64_t col) const {
    Acc a = Acc::empty();
    a.insert(x, col);
    return a;
  }
  __host__ __device__ Acc combine(Acc a, Acc b) const { return ::gpuprims::detail::Top2Merge{}(a, b); }
  __host__ __device__ static MinEntry entry(std::uint32_t key, std::int64_t col, std::int64_t row) {
    if (col == ::gpuprims::detail::kNoIndex) return MinEntry{::gpuprims::detail::float_from_bits(0x7f800000u), -1, -1};
    return MinEntry{::gpuprims::detail::value_from_key(key), row, col};
  }
  __host__ __device__ Output finish_row(Acc a, std::int64_t row) const {
    return Top2{entry(a.k0, a.i0, row), entry(a.k1, a.i1, row)};
  }
};

// acc <- acc followed by element x at column c.
template <class Op>
__device__ __forceinline__ typename Op::Acc accumulate(const Op& op, typename Op::Acc acc, typename Op::Input x,
                                                       std::int64_t c) {
  if constexpr (std::is_same_v<Op, Top2RowOp>) {
    acc.insert(x, c);
    return acc;
  } else {
    return op.combine(acc, op.lift(x, c));
  }
}

// The result written for row r.
template <class Op>
__device__ __forceinline__ typename Op::Output row_result(const Op& op, typename Op::Acc acc, std::int64_t r) {
  if constexpr (std::is_same_v<Op, Top2RowOp>) return op.finish_row(acc, r);
  else return op.finish(acc);
}

// acc <- acc followed by the elements of one 16-byte vector whose first column is c: the top-2
// inserts them one by one; the other operators take the device reduction's vector step (argmin /
// argmax rank the vector on keys and combine once, min / max key only its best element).
template <class Op>
__device__ __forceinline__ typename Op::Acc accumulate_vector(const Op& op, typename Op::Acc acc, const uint4& raw,
                                                              std::int64_t c) {
  using T = typename Op::Input;
  constexpr int kPerVec = 16 / static_cast<int>(sizeof(T));
  if constexpr (std::is_same_v<Op, Top2RowOp>) {
    T items[kPerVec];
    std::memcpy(static_cast<void*>(items), &raw, sizeof raw);
#pragma unroll
    for (int k = 0; k < kPerVec; ++k) acc = accumulate(op, acc, items[k], c + k);
    return acc;
  } else {
    return ::gpuprims::device::reduce_detail::combine_vector(op, acc, raw, c);
  }
}

// Calls take(raw, c) for thread tid's 16-byte vectors body[tid], body[tid + kThreads], ... below
// vecs, in column order (c: the vector's first column). Up to four vectors are loaded before any is
// taken, the last batch too (its loads predicated): a row of one or two vectors a thread would
// otherwise wait for each load in turn, and a take with a branch in it (the top-2's insertion, a rare
// fall-back) would keep the compiler from issuing the next loads early.
template <int kThreads, int kPerVec, class Col, class Take>
__device__ __forceinline__ void for_each_vector(const uint4* body, Col start, Col vecs, int tid, Take&& take) {
  constexpr int kBatch = 4;
  Col v = tid;
  for (; v + (kBatch - 1) * kThreads < vecs; v += kBatch * kThreads) {
    uint4 raw[kBatch];
#pragma unroll
    for (int b = 0; b < kBatch; ++b) raw[b] = body[v + b * kThreads];
#pragma unroll
    for (int b = 0; b < kBatch; ++b) take(raw[b], static_cast<Col>(start + (v + b * kThreads) * kPerVec));
  }
  if (v < vecs) {
    uint4 raw[kBatch - 1];
#pragma unroll
    for (int b = 0; b < kBatch - 1; ++b) {
      if (v + b * kThreads < vecs) raw[b] = body[v + b * kThreads];
    }
#pragma unroll
    for (int b = 0; b < kBatch - 1; ++b) {
      if (v + b * kThreads < vecs) take(raw[b], static_cast<Col>(start + (v + b * kThreads) * kPerVec));
    }
  }
}

// Thread tid's share of columns [c0, c1) of `row`, accumulated into acc in column order: columns up to
// the first 16-byte boundary strided by kThreads (one per thread where kThreads >= a vector's
// elements), then 16-byte vectors strided by kThreads, then the remaining columns as the head. The row
// may start anywhere T is aligned. Col holds a column (std::int32_t where the row is short enough,
// RowTuning::kMaxInt32Cols: fewer instructions a vector).
template <int kThreads, class Col, class Op>
__device__ __forceinline__ typename Op::Acc thread_range(const Op& op, const typename Op::Input* row, Col c0, Col c1,
                                                         int tid, typename Op::Acc acc) {
  using T = typename Op::Input;
  constexpr int kPerVec = 16 / static_cast<int>(sizeof(T));
  const auto addr = reinterpret_cast<std::uintptr_t>(row + c0);
  Col head = static_cast<Col>((16 - addr % 16) % 16 / sizeof(T));
  if (head > c1 - c0) head = c1 - c0;
  // The head and the tail: one test a thread where kThreads covers a vector's elements (the form the
  // block kernels were measured with: a loop there made the per-row top-2 1.5-2.2% slower at 2048-8192
  // columns, run CW), a loop in narrower lane groups.
  if constexpr (kThreads >= kPerVec) {
    if (tid < head) acc = accumulate(op, acc, row[c0 + tid], c0 + tid);
  } else {
    for (Col h = tid; h < head; h += kThreads) acc = accumulate(op, acc, row[c0 + h], c0 + h);
  }
  const Col start = c0 + head;
  const Col vecs = (c1 - start) / kPerVec;
  const uint4* body = reinterpret_cast<const uint4*>(row + start);
  const auto exact = [&](const uint4& raw, Col c) { acc = accumulate_vector(op, acc, raw, c); };
  if constexpr (kScannedArg<Op>) {
    // float, half and bfloat16 argmin / argmax, min / max: float_row_scan.cuh's scans (the same result).
    ArgScan<Op, Col> scan;
    for_each_vector<kThreads, kPerVec>(body, start, vecs, tid,
                                       [&](const uint4& raw, Col c) { scan.take(op, acc, raw, c); });
    acc = scan.finish(op, acc);
  } else if constexpr (kScannedMinMax<Op>) {
    MinMaxScan<Op> scan;
    for_each_vector<kThreads, kPerVec>(body, start, vecs, tid, [&](const uint4& raw, Col) { scan.take(raw); });
    if (tid < vecs) {
      if (scan.exact()) acc = scan.finish(op, acc);
      else for_each_vector<kThreads, kPerVec>(body, start, vecs, tid, exact);  // its best is ±0: read again
    }
  } else {
    for_each_vector<kThreads, kPerVec>(body, start, vecs, tid, exact);
  }
  const Col tail = start + vecs * kPerVec + tid;
  if constexpr (kThreads >= kPerVec) {
    if (tail < c1) acc = accumulate(op, acc, row[tail], tail);
  } else {
    for (Col t = tail; t < c1; t += kThreads) acc = accumulate(op, acc, row[t], t);
  }
  return acc;
}

}  // namespace gpuprims::reduce::detail
