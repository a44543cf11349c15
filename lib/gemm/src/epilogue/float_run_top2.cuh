#pragma once
// The two smallest of a thread's run of values ranked as floats, for the visitors that rank a run at
// once (Top2PackedVisitor::take_run over an interior tile, RowTop2Visitor::take_row over a row of
// one): three float instructions a value (min, max, min) and one pass for the two positions, where
// ranking each value into packed (order key, position) words takes about twenty (key, pack, two
// 64-bit min/max). Only the two winners are then packed.
#include <limits>

namespace gpuprims::detail {

//! The run's two smallest values and their positions in it (s1 holds m1, s2 holds m2).
struct FloatRunTop2 {
  float m1, m2;
  int s1, s2;
};

//! Ranks value(s), s = 0..kCount-1 (positions in increasing order of the entries' order), into *out:
//! true with the lowest position among equal values for each. False where floats cannot tell the
//! entries apart - the least value twice (or +0 and -0, whose order key is shared), a second entry of
//! +inf or none - and the caller ranks every value exactly instead. A NaN never reaches the float
//! pair: fmaxf(m1, NaN) gives m1 a second copy, which ends as m2 only beside a smaller m1, when the
//! real copy is second.
template <int kCount, class Value>
__device__ __forceinline__ bool float_run_top2(const Value& value, FloatRunTop2* out) {
  const float inf = std::numeric_limits<float>::infinity();
  float m1 = inf, m2 = inf;
#pragma unroll
  for (int s = 0; s < kCount; ++s) {
    const float v = value(s);
    m2 = fminf(m2, fmaxf(m1, v));
    m1 = fminf(m1, v);
  }
  if (!(m1 < m2 && m2 < inf)) return false;
  int s1 = 0, s2 = 0;
#pragma unroll
  for (int s = kCount - 1; s >= 0; --s) {
    const float v = value(s);
    s1 = v == m1 ? s : s1;
    s2 = v == m2 ? s : s2;
  }
  *out = FloatRunTop2{m1, m2, s1, s2};
  return true;
}

}  // namespace gpuprims::detail
