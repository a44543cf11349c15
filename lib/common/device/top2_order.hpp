#pragma once
// The top-2 argmin combine: orderable float keys with NaN last, (key, index) ordering with ties to the
// lower index, insertion of one entry and the merge of two partial results. Host and device, so CI
// tests its algebra on the CPU (associative, commutative, agrees with a sort).
#include <cstdint>
#include <cstring>
#include <limits>

#include <gpuprims/top2.hpp>

#include "common/src/host_device.hpp"

namespace gpuprims::detail {

// Index of an empty slot: larger than any real linear index, so it sorts after every entry.
inline constexpr std::int64_t kNoIndex = std::numeric_limits<std::int64_t>::max();

GPUPRIMS_HD std::uint32_t float_bits(float v) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(v);
#else
  std::uint32_t u;
  std::memcpy(&u, &v, sizeof u);
  return u;
#endif
}

GPUPRIMS_HD float float_from_bits(std::uint32_t u) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(u);
#else
  float v;
  std::memcpy(&v, &u, sizeof v);
  return v;
#endif
}

// Monotone map from float to uint32: a < b (as numbers) iff key(a) < key(b); -0.0 and +0.0 share a
// key (they are equal values, so their order falls to the index); every NaN maps to the largest key,
// after +inf.
GPUPRIMS_HD std::uint32_t order_key(float v) {
  std::uint32_t u = float_bits(v);
  if ((u & 0x7fffffffu) > 0x7f800000u) return 0xffffffffu;  // NaN
  if ((u & 0x7fffffffu) == 0u) u = 0u;                      // -0.0 -> +0.0
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

// The value an order key stands for: the key is invertible except that -0.0 comes back as +0.0 and
// every NaN as the canonical quiet NaN, which is how results report them.
GPUPRIMS_HD float value_from_key(std::uint32_t key) {
  if (key == 0xffffffffu) return float_from_bits(0x7fc00000u);
  return float_from_bits((key & 0x80000000u) ? (key & 0x7fffffffu) : ~key);
}

// The two smallest entries seen so far as (order key, row-major linear index), first < second in
// that order; empty slots have key 0xffffffff and index kNoIndex, after every entry (NaN included).
struct Top2Partial {
  std::uint32_t k0;
  std::uint32_t k1;
  std::int64_t i0;
  std::int64_t i1;

  GPUPRIMS_HD static Top2Partial empty() { return Top2Partial{0xffffffffu, 0xffffffffu, kNoIndex, kNoIndex}; }

  // Whether an entry with this key could enter (ties on the second key are decided by the index).
  GPUPRIMS_HD bool may_enter(std::uint32_t key) const { return key <= k1; }

  GPUPRIMS_HD void insert_keyed(std::uint32_t key, std::int64_t i) {
    if (key < k1 || (key == k1 && i < i1)) {
      if (key < k0 || (key == k0 && i < i0)) {
        k1 = k0;
        i1 = i0;
        k0 = key;
        i0 = i;
      } else {
        k1 = key;
        i1 = i;
      }
    }
  }

  GPUPRIMS_HD void insert(float v, std::int64_t i) { insert_keyed(order_key(v), i); }
};

// Merge of two partial results over disjoint sets of positions: exact, associative and commutative,
// so the grid-level result never depends on the order blocks finish in.
struct Top2Merge {
  GPUPRIMS_HD static bool less(std::uint32_t ka, std::int64_t ia, std::uint32_t kb, std::int64_t ib) {
    return ka < kb || (ka == kb && ia < ib);
  }
  GPUPRIMS_HD Top2Partial operator()(const Top2Partial& a, const Top2Partial& b) const {
    Top2Partial r;
    if (less(a.k0, a.i0, b.k0, b.i0)) {
      r.k0 = a.k0, r.i0 = a.i0;
      const bool a1_first = less(a.k1, a.i1, b.k0, b.i0);
      r.k1 = a1_first ? a.k1 : b.k0;
      r.i1 = a1_first ? a.i1 : b.i0;
    } else {
      r.k0 = b.k0, r.i0 = b.i0;
      const bool a0_first = less(a.k0, a.i0, b.k1, b.i1);
      r.k1 = a0_first ? a.k0 : b.k1;
      r.i1 = a0_first ? a.i0 : b.i1;
    }
    return r;
  }
};

// A thread's own top-2 when every linear index fits 32 bits: each entry is one 64-bit word (order key
// high, index low), whose unsigned order is exactly the entry order, so ranking an entry is a
// branch-free min and max instead of an insertion.
struct PackedTop2 {
  std::uint64_t w0 = ~std::uint64_t{0};
  std::uint64_t w1 = ~std::uint64_t{0};  // ~0 is empty: no entry has index 0xffffffff (count < 2^32)

  GPUPRIMS_HD static std::uint64_t pack(std::uint32_t key, std::uint32_t index) {
    return (static_cast<std::uint64_t>(key) << 32) | index;
  }
  GPUPRIMS_HD void add(std::uint64_t w) {
    const std::uint64_t lo = w < w0 ? w : w0;
    const std::uint64_t hi = w < w0 ? w0 : w;
    w0 = lo;
    w1 = hi < w1 ? hi : w1;
  }
  // The merge of two such pairs over disjoint entries: the smaller first word, then the smaller of
  // the larger first word and both second words (a second word always exceeds its own first).
  GPUPRIMS_HD static PackedTop2 merge(const PackedTop2& a, const PackedTop2& b) {
    PackedTop2 r;
    r.w0 = a.w0 < b.w0 ? a.w0 : b.w0;
    const std::uint64_t loser = a.w0 < b.w0 ? b.w0 : a.w0;
    const std::uint64_t seconds = a.w1 < b.w1 ? a.w1 : b.w1;
    r.w1 = loser < seconds ? loser : seconds;
    return r;
  }
  // Into the general form, merged with what `into` already holds.
  GPUPRIMS_HD void merge_into(Top2Partial& into) const {
    if (w0 != ~std::uint64_t{0})
      into.insert_keyed(static_cast<std::uint32_t>(w0 >> 32), static_cast<std::uint32_t>(w0));
    if (w1 != ~std::uint64_t{0})
      into.insert_keyed(static_cast<std::uint32_t>(w1 >> 32), static_cast<std::uint32_t>(w1));
  }
};

struct PackedTop2Merge {
  GPUPRIMS_HD PackedTop2 operator()(const PackedTop2& a, const PackedTop2& b) const { return PackedTop2::merge(a, b); }
};

// The grid-wide packed pair kept in two global words, `best` and `second`, both ~0 (empty) at the
// start. A partial pair (w0 < w1) enters in two atomic steps:
//   old = atomicMin(best, w0);   atomicMin(second, top2_second_candidate(old, w0, w1));
// Every entry but the overall minimum reaches `second` (it either lost to `best`, or was displaced
// from it and came back as `old`), and the minimum never does, so the final pair is exact for any
// order and any interleaving of the steps. `second` only decreases, so an entry above a value once
// read from it can never be in the result (see top2_may_enter).
GPUPRIMS_HD std::uint64_t top2_second_candidate(std::uint64_t old_best, std::uint64_t w0, std::uint64_t w1) {
  const std::uint64_t loser = old_best < w0 ? w0 : old_best;
  return loser < w1 ? loser : w1;
}

// The value of a `second` word read at some time: an entry whose value v is larger (v > bound) ranks
// after it, so after the final second too. NaN (an empty or NaN word) makes every entry a candidate.
GPUPRIMS_HD float top2_bound_of(std::uint64_t second_word) {
  return value_from_key(static_cast<std::uint32_t>(second_word >> 32));
}
GPUPRIMS_HD bool top2_may_enter(float v, float bound) { return !(v > bound); }

// Linear index -> public entry. A missing entry is {+inf, -1, -1}. The constructor sets `reserved` to
// 0, so every byte of a result written from these is initialized.
GPUPRIMS_HD MinEntry to_min_entry(std::uint32_t key, std::int64_t index, std::int64_t cols) {
  if (index == kNoIndex) return MinEntry{float_from_bits(0x7f800000u), -1, -1};
  return MinEntry{value_from_key(key), index / cols, index % cols};
}

GPUPRIMS_HD Top2 to_top2(const Top2Partial& p, std::int64_t cols) {
  return Top2{to_min_entry(p.k0, p.i0, cols), to_min_entry(p.k1, p.i1, cols)};
}

}  // namespace gpuprims::detail
