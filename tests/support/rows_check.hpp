#pragma once
// The row-wise reductions (reduce_rows.hpp) against a CPU reference, for the unit and property GPU
// tests: random matrices of any element type (uniform, tie-heavy, or with NaN / ±inf / ±0 at random
// positions) with padded leading dimensions and offset starts, whose padding holds values that would
// change any result if read; one call on a device through guarded, poisoned buffers; and the per-row
// reference: exact (bitwise, every byte) for integer sums, min, max, argmin, argmax and the top-2,
// and docs/ERROR-BOUNDS.md's bound for floating-point sums with the chain lengths of rows/plan.hpp.
// The reference is written from the semantics of reduce_ops.hpp and top2.hpp, not from their code.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <gpuprims/reduce_rows.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "reduce/src/rows/plan.hpp"
#include "support/guarded_array.hpp"

namespace gpuprims::test::rows {

using reduce::Operator;

// uniform: [-1, 1]; ties: six values (-2, -1, -0, +0, 1, 2); specials: uniform with NaN / ±inf / ±0
// at one position in 16; special_rows: rows made mostly or only of NaN, infinities and zeros (by row:
// every element NaN; NaN and ±inf only; NaN but for one element in 16; ±0 with +inf and NaN; ±0 with
// -inf; ±0 / ±inf / NaN at seven in eight),
// so whole vectors and whole thread shares are NaN or infinite (float_arg_scan.cuh's rare paths).
enum class Values { uniform, ties, specials, special_rows };

inline const char* name(Operator op) {
  switch (op) {
    case Operator::sum: return "sum";
    case Operator::min: return "min";
    case Operator::max: return "max";
    case Operator::argmin: return "argmin";
    case Operator::argmax: return "argmax";
  }
  return "?";
}

template <class T>
inline constexpr bool kFloating = !std::is_integral_v<T>;

template <class T>
double to_double(T x) {
  if constexpr (std::is_same_v<T, __half>) return static_cast<double>(__half2float(x));
  else if constexpr (std::is_same_v<T, __nv_bfloat16>) return static_cast<double>(__bfloat162float(x));
  else return static_cast<double>(x);
}

template <class T>
T from_double(double v) {
  if constexpr (std::is_same_v<T, __half>) return __float2half(static_cast<float>(v));
  else if constexpr (std::is_same_v<T, __nv_bfloat16>) return __float2bfloat16(static_cast<float>(v));
  else return static_cast<T>(v);
}

// The bits of a T, widened.
template <class T>
std::uint64_t bits_of(T x) {
  std::uint64_t b = 0;
  std::memcpy(&b, &x, sizeof(T));
  return b;
}
template <class T>
T from_bits(std::uint64_t b) {
  T x;
  std::memcpy(static_cast<void*>(&x), &b, sizeof(T));
  return x;
}

template <class T>
T canonical_nan() {
  if constexpr (std::is_same_v<T, float>) return from_bits<T>(0x7fc00000u);
  else if constexpr (std::is_same_v<T, double>) return from_bits<T>(0x7ff8000000000000ull);
  else if constexpr (std::is_same_v<T, __half>) return from_bits<T>(0x7e00u);
  else return from_bits<T>(0x7fc0u);
}
// A NaN with a payload and sign that differ from the canonical one.
template <class T>
T odd_nan() {
  if constexpr (std::is_same_v<T, float>) return from_bits<T>(0xffc00123u);
  else if constexpr (std::is_same_v<T, double>) return from_bits<T>(0xfff8000000000123ull);
  else if constexpr (std::is_same_v<T, __half>) return from_bits<T>(0xfe01u);
  else return from_bits<T>(0xffc1u);
}

template <class T>
bool is_nan(T x) {
  if constexpr (kFloating<T>) return std::isnan(to_double(x));
  else return false;
}
template <class T>
bool is_neg(T x) {
  return std::signbit(to_double(x));
}

// Largest / lowest value of T (+inf / -inf for floating types).
template <class T>
T top() {
  if constexpr (kFloating<T>) return from_double<T>(std::numeric_limits<double>::infinity());
  else return std::numeric_limits<T>::max();
}
template <class T>
T bottom() {
  if constexpr (kFloating<T>) return from_double<T>(-std::numeric_limits<double>::infinity());
  else return std::numeric_limits<T>::lowest();
}

// A host matrix: `offset` leading elements, then rows of ld elements (the last one cols long).
template <class T>
struct Matrix {
  std::int64_t rows = 0, cols = 0, ld = 1, offset = 0;
  std::vector<T> data;
  const T* row(std::int64_t r) const { return data.data() + offset + r * ld; }
  std::int64_t count() const { return offset + (rows > 0 && cols > 0 ? (rows - 1) * ld + cols : 0); }
};

template <class T>
T random_value(std::mt19937_64& rng, Values v, std::int64_t row) {
  if constexpr (kFloating<T>) {
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    if (v == Values::special_rows) {
      const auto nan = [&]() { return rng() % 2 ? canonical_nan<T>() : odd_nan<T>(); };
      const T zero = from_double<T>(rng() % 2 ? -0.0 : 0.0);
      switch (row % 6) {
        case 0: return nan();
        case 1: return rng() % 3 == 0 ? nan() : (rng() % 2 ? top<T>() : bottom<T>());
        case 2: return rng() % 16 == 0 ? from_double<T>(u(rng)) : nan();
        case 3: return rng() % 2 ? zero : (rng() % 2 ? top<T>() : nan());  // min / argmin at ±0
        case 4: return rng() % 2 ? zero : bottom<T>();                     // max / argmax at ±0
        default: break;
      }
      if (rng() % 8 == 0) return from_double<T>(u(rng));
      switch (rng() % 5) {
        case 0: return nan();
        case 1: return top<T>();
        case 2: return bottom<T>();
        case 3: return from_double<T>(-0.0);
        default: return from_double<T>(0.0);
      }
    }
    if (v == Values::ties) {
      const double set[] = {-2.0, -1.0, -0.0, 0.0, 1.0, 2.0};
      return from_double<T>(set[rng() % 6]);
    }
    if (v == Values::specials && rng() % 16 == 0) {
      switch (rng() % 6) {
        case 0: return canonical_nan<T>();
        case 1: return odd_nan<T>();
        case 2: return top<T>();
        case 3: return bottom<T>();
        case 4: return from_double<T>(-0.0);
        default: return from_double<T>(0.0);
      }
    }
    return from_double<T>(u(rng));
  } else {
    if (v == Values::ties) return static_cast<T>(static_cast<int>(rng() % 5) - (std::is_signed_v<T> ? 2 : 0));
    if ((v == Values::specials && rng() % 16 == 0) || v == Values::special_rows) {
      switch (rng() % 3) {
        case 0: return std::numeric_limits<T>::lowest();
        case 1: return std::numeric_limits<T>::max();
        default: return T{0};
      }
    }
    return static_cast<T>(rng());
  }
}

// Values read by mistake would change any result: NaN for floating types, the extremes for integers.
template <class T>
T padding_value(std::int64_t i) {
  if constexpr (kFloating<T>) return (i & 1) ? odd_nan<T>() : (i & 2) ? bottom<T>() : top<T>();
  else return (i & 1) ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
}

template <class T>
Matrix<T> make_matrix(std::int64_t rows, std::int64_t cols, std::int64_t ld, std::int64_t offset, Values v,
                      std::mt19937_64& rng) {
  Matrix<T> m;
  m.rows = rows, m.cols = cols, m.ld = ld, m.offset = offset;
  m.data.resize(static_cast<std::size_t>(m.count() + ld));  // one row of slack past the end: padding too
  for (std::size_t i = 0; i < m.data.size(); ++i) {
    const std::int64_t p = static_cast<std::int64_t>(i) - offset;
    const bool inside = p >= 0 && p / ld < rows && p % ld < cols;
    m.data[i] = inside ? random_value<T>(rng, v, p / ld) : padding_value<T>(static_cast<std::int64_t>(i));
  }
  return m;
}

// ---- the reference --------------------------------------------------------------------------------

template <class T>
T ref_min(const T* x, std::int64_t n) {
  if constexpr (kFloating<T>) {
    std::int64_t best = -1;
    for (std::int64_t c = 0; c < n; ++c) {
      if (is_nan(x[c])) continue;
      const double v = to_double(x[c]);
      if (best < 0 || v < to_double(x[best]) || (v == 0.0 && to_double(x[best]) == 0.0 && is_neg(x[c]))) best = c;
    }
    if (best >= 0) return x[best];
    return n == 0 ? top<T>() : canonical_nan<T>();  // empty, or every element NaN
  } else {
    T best = top<T>();
    for (std::int64_t c = 0; c < n; ++c) best = x[c] < best ? x[c] : best;
    return best;
  }
}

template <class T>
T ref_max(const T* x, std::int64_t n) {
  if constexpr (kFloating<T>) {
    std::int64_t best = -1;
    for (std::int64_t c = 0; c < n; ++c) {
      if (is_nan(x[c])) return canonical_nan<T>();
      const double v = to_double(x[c]);
      if (best < 0 || v > to_double(x[best]) || (v == 0.0 && to_double(x[best]) == 0.0 && !is_neg(x[c]))) best = c;
    }
    return best >= 0 ? x[best] : bottom<T>();
  } else {
    T best = bottom<T>();
    for (std::int64_t c = 0; c < n; ++c) best = x[c] > best ? x[c] : best;
    return best;
  }
}

// As argmin / argmax report a value: -0 as +0, any NaN as the canonical NaN.
template <class T>
T reported(T x) {
  if constexpr (kFloating<T>) {
    if (is_nan(x)) return canonical_nan<T>();
    if (to_double(x) == 0.0) return from_double<T>(0.0);
  }
  return x;
}

template <class T>
ArgResult<T> ref_arg(const T* x, std::int64_t n, bool is_min) {
  std::int64_t best = -1;
  for (std::int64_t c = 0; c < n; ++c) {
    if (best < 0) {
      best = c;
      continue;
    }
    if constexpr (kFloating<T>) {  // NaN after every number; -0 == +0 (a strict < keeps the first)
      const bool bn = is_nan(x[best]), cn = is_nan(x[c]);
      const double vb = to_double(x[best]), vc = to_double(x[c]);
      if (is_min ? (bn ? !cn : (!cn && vc < vb)) : (!bn && (cn || vc > vb))) best = c;
    } else {  // integers exactly (an int64 does not fit a double)
      if (is_min ? x[c] < x[best] : x[c] > x[best]) best = c;
    }
  }
  ArgResult<T> r{};
  r.index = best;
  r.value = best >= 0 ? reported(x[best]) : (is_min ? top<T>() : bottom<T>());
  return r;
}

// Exact integer sums (wrapping as the library's do).
template <class T>
sum_type_t<T> ref_int_sum(const T* x, std::int64_t n) {
  using S = sum_type_t<T>;
  using U = std::make_unsigned_t<S>;
  U s = 0;
  for (std::int64_t c = 0; c < n; ++c) s = static_cast<U>(s + static_cast<U>(static_cast<S>(x[c])));
  return static_cast<S>(s);
}

inline Top2 ref_top2(const float* x, std::int64_t n, std::int64_t row) {
  // Order: value (NaN after +inf, -0 == +0), then column.
  auto before = [&](std::int64_t a, std::int64_t b) {
    const bool an = std::isnan(x[a]), bn = std::isnan(x[b]);
    if (an != bn) return bn;
    if (!an && x[a] != x[b]) return x[a] < x[b];
    return a < b;
  };
  std::int64_t i0 = -1, i1 = -1;
  for (std::int64_t c = 0; c < n; ++c) {
    if (i0 < 0 || before(c, i0)) {
      i1 = i0;
      i0 = c;
    } else if (i1 < 0 || before(c, i1)) {
      i1 = c;
    }
  }
  auto entry = [&](std::int64_t c) {
    if (c < 0) return MinEntry{std::numeric_limits<float>::infinity(), -1, -1};
    return MinEntry{reported(x[c]), row, c};
  };
  return Top2{entry(i0), entry(i1)};
}

// docs/ERROR-BOUNDS.md: c * (chain + tree + passes + 2) * u * sum|x|, with the plan's chain on this
// device for elements elem_bytes wide, u of the sum type; plus the long-double reference's own rounding.
inline double sum_bound(std::int64_t rows, std::int64_t cols, int sm_count, std::size_t elem_bytes, double unit,
                        double abs_sum) {
  const reduce::detail::RowPlan p =
      reduce::detail::make_row_plan(rows, cols, 8, sm_count, reduce::detail::RowWork::sum, elem_bytes);
  const reduce::detail::RowSumChain c = reduce::detail::row_sum_chain(p, cols);
  const double terms = static_cast<double>(c.items + c.tree_log2 + c.passes + 2);
  return 2.0 * terms * unit * abs_sum + static_cast<double>(cols) * std::ldexp(1.0, -62) * abs_sum;
}

// ---- one call on a device -------------------------------------------------------------------------

template <class T>
std::size_t out_bytes(Operator op) {
  switch (op) {
    case Operator::sum: return sizeof(sum_type_t<T>);
    case Operator::min:
    case Operator::max: return sizeof(T);
    default: return sizeof(ArgResult<T>);
  }
}

// The input on the device: a GuardedArray whose span holds the host matrix's bytes.
template <class T>
struct DeviceMatrix {
  explicit DeviceMatrix(const Matrix<T>& m) : array((m.data.size() * sizeof(T) + 3) / 4) {
    std::vector<float> staged(array.count());
    std::memcpy(staged.data(), m.data.data(), m.data.size() * sizeof(T));
    array.upload(staged);
    ptr = reinterpret_cast<const T*>(array.data()) + m.offset;
  }
  GuardedArray array;
  const T* ptr = nullptr;
};

template <class T>
Status call(Operator op, const T* in, std::int64_t rows, std::int64_t cols, std::int64_t ld, void* out, void* ws,
            std::size_t wsb, bool explicit_ws, cudaStream_t stream = nullptr) {
  namespace r = reduce;
  switch (op) {
    case Operator::sum: {
      auto* o = static_cast<sum_type_t<T>*>(out);
      return explicit_ws ? r::row_sum(in, rows, cols, ld, o, ws, wsb, stream)
                         : r::row_sum(in, rows, cols, ld, o, stream);
    }
    case Operator::min: {
      auto* o = static_cast<T*>(out);
      return explicit_ws ? r::row_min(in, rows, cols, ld, o, ws, wsb, stream)
                         : r::row_min(in, rows, cols, ld, o, stream);
    }
    case Operator::max: {
      auto* o = static_cast<T*>(out);
      return explicit_ws ? r::row_max(in, rows, cols, ld, o, ws, wsb, stream)
                         : r::row_max(in, rows, cols, ld, o, stream);
    }
    case Operator::argmin: {
      auto* o = static_cast<ArgResult<T>*>(out);
      return explicit_ws ? r::row_argmin(in, rows, cols, ld, o, ws, wsb, stream)
                         : r::row_argmin(in, rows, cols, ld, o, stream);
    }
    case Operator::argmax: {
      auto* o = static_cast<ArgResult<T>*>(out);
      return explicit_ws ? r::row_argmax(in, rows, cols, ld, o, ws, wsb, stream)
                         : r::row_argmax(in, rows, cols, ld, o, stream);
    }
  }
  return Status::invalid_argument;
}

// Runs op over the matrix (explicit workspace in its own guarded array at ws_offset floats, or the
// stream-ordered form) and returns the output bytes; `error` gets what went wrong ("" when nothing).
template <class T>
std::vector<unsigned char> run(Operator op, const Matrix<T>& m, const DeviceMatrix<T>& dm, bool explicit_ws,
                               int ws_offset_floats, std::string* error) {
  const std::size_t ob = out_bytes<T>(op) * static_cast<std::size_t>(m.rows);
  GuardedArray out((ob + 3) / 4 + 1);
  const std::size_t wsb = reduce::row_workspace_bytes<T>(op, m.rows, m.cols);
  GuardedArray ws((wsb + 3) / 4 + 1, ws_offset_floats);
  std::vector<unsigned char> bytes(ob);
  if (!out.ok() || !ws.ok() || !dm.array.ok()) {
    *error = "device allocation failed";
    return bytes;
  }
  const Status st = call(op, dm.ptr, m.rows, m.cols, m.ld, out.data(), wsb > 0 ? ws.data() : nullptr, wsb, explicit_ws);
  const cudaError_t sync = cudaDeviceSynchronize();
  std::ostringstream err;
  if (st != Status::success) err << "status " << to_string(st) << "; ";
  if (sync != cudaSuccess) err << "CUDA " << cudaGetErrorString(sync) << "; ";
  const std::vector<float> host = out.download();
  std::memcpy(bytes.data(), host.data(), ob);
  const std::string gd_out = out.guard_damage(), gd_ws = ws.guard_damage(), gd_in = dm.array.guard_damage();
  if (!gd_out.empty()) err << "output " << gd_out << "; ";
  if (!gd_ws.empty()) err << "workspace " << gd_ws << "; ";
  if (!gd_in.empty()) err << "input " << gd_in << "; ";
  *error = err.str();
  return bytes;
}

// Compares the output bytes with the reference, row by row; "" when every row matches.
template <class T>
std::string check(Operator op, const Matrix<T>& m, const std::vector<unsigned char>& out, int sm_count) {
  std::ostringstream err;
  int reported_rows = 0;
  auto fail = [&](std::int64_t r, const std::string& what) {
    if (reported_rows++ < 5) err << "row " << r << ": " << what << "; ";
  };
  for (std::int64_t r = 0; r < m.rows; ++r) {
    const T* x = m.row(r);
    const unsigned char* got = out.data() + static_cast<std::size_t>(r) * out_bytes<T>(op);
    switch (op) {
      case Operator::sum: {
        using S = sum_type_t<T>;
        S g;
        std::memcpy(&g, got, sizeof g);
        if constexpr (kFloating<T>) {
          long double s = 0, a = 0;
          bool nan = false, pinf = false, ninf = false;
          for (std::int64_t c = 0; c < m.cols; ++c) {
            const double v = to_double(x[c]);
            nan |= std::isnan(v), pinf |= v == INFINITY, ninf |= v == -INFINITY;
            s += v, a += std::fabs(v);
          }
          const double gd = static_cast<double>(g);
          if (nan || (pinf && ninf)) {
            if (!std::isnan(gd)) fail(r, "sum " + std::to_string(gd) + ", expected NaN");
          } else if (pinf || ninf) {
            if (gd != (pinf ? INFINITY : -INFINITY)) fail(r, "sum " + std::to_string(gd) + ", expected inf");
          } else {
            const double unit = std::is_same_v<S, double> ? std::ldexp(1.0, -53) : std::ldexp(1.0, -24);
            const double bound = sum_bound(m.rows, m.cols, sm_count, sizeof(T), unit, static_cast<double>(a));
            const double e = std::fabs(gd - static_cast<double>(s));
            if (!(e <= bound))
              fail(r, "sum " + std::to_string(gd) + " vs " + std::to_string(static_cast<double>(s)) + " error " +
                          std::to_string(e) + " > bound " + std::to_string(bound));
          }
        } else {
          const S e = ref_int_sum(x, m.cols);
          if (g != e) fail(r, "sum " + std::to_string(g) + ", expected " + std::to_string(e));
        }
        break;
      }
      case Operator::min:
      case Operator::max: {
        const T e = op == Operator::min ? ref_min(x, m.cols) : ref_max(x, m.cols);
        if (std::memcmp(&e, got, sizeof(T)) != 0) {
          T g;
          std::memcpy(static_cast<void*>(&g), got, sizeof g);
          fail(r, std::string(name(op)) + " " + std::to_string(to_double(g)) + " (bits " + std::to_string(bits_of(g)) +
                      "), expected " + std::to_string(to_double(e)) + " (bits " + std::to_string(bits_of(e)) + ")");
        }
        break;
      }
      case Operator::argmin:
      case Operator::argmax: {
        const ArgResult<T> e = ref_arg(x, m.cols, op == Operator::argmin);
        if (std::memcmp(&e, got, sizeof e) != 0) {
          ArgResult<T> g;
          std::memcpy(static_cast<void*>(&g), got, sizeof g);
          fail(r, std::string(name(op)) + " {" + std::to_string(g.index) + ", " + std::to_string(to_double(g.value)) +
                      "}, expected {" + std::to_string(e.index) + ", " + std::to_string(to_double(e.value)) +
                      "} (or a byte differs)");
        }
        break;
      }
    }
  }
  if (reported_rows > 5) err << reported_rows << " rows wrong in all";
  return err.str();
}

// The same for row_top2_argmin: every byte of each row's Top2.
inline std::string check_top2(const Matrix<float>& m, const std::vector<Top2>& out) {
  std::ostringstream err;
  int wrong = 0;
  for (std::int64_t r = 0; r < m.rows; ++r) {
    const Top2 e = ref_top2(m.row(r), m.cols, r);
    const Top2& g = out[static_cast<std::size_t>(r)];
    if (std::memcmp(&e, &g, sizeof e) != 0 && wrong++ < 5)
      err << "row " << r << ": {" << g.first.value << " @" << g.first.row << "," << g.first.col << "; "
          << g.second.value << " @" << g.second.row << "," << g.second.col << "} expected {" << e.first.value << " @"
          << e.first.row << "," << e.first.col << "; " << e.second.value << " @" << e.second.row << "," << e.second.col
          << "} (or a byte differs); ";
  }
  if (wrong > 5) err << wrong << " rows wrong in all";
  return err.str();
}

// row_top2_argmin on a device (explicit workspace or not); output bytes as Top2s.
inline std::vector<Top2> run_top2(const Matrix<float>& m, const DeviceMatrix<float>& dm, bool explicit_ws,
                                  std::string* error) {
  const std::size_t ob = sizeof(Top2) * static_cast<std::size_t>(m.rows);
  GuardedArray out(ob / 4 + 1);
  const std::size_t wsb = reduce::row_top2_workspace_bytes(m.rows, m.cols);
  GuardedArray ws((wsb + 3) / 4 + 1);
  std::vector<Top2> result(static_cast<std::size_t>(m.rows));
  auto* o = reinterpret_cast<Top2*>(out.data());
  const Status st = explicit_ws
                        ? reduce::row_top2_argmin(dm.ptr, m.rows, m.cols, m.ld, o, wsb > 0 ? ws.data() : nullptr, wsb)
                        : reduce::row_top2_argmin(dm.ptr, m.rows, m.cols, m.ld, o);
  const cudaError_t sync = cudaDeviceSynchronize();
  std::ostringstream err;
  if (st != Status::success) err << "status " << to_string(st) << "; ";
  if (sync != cudaSuccess) err << "CUDA " << cudaGetErrorString(sync) << "; ";
  const std::vector<float> host = out.download();
  if (ob > 0) std::memcpy(static_cast<void*>(result.data()), host.data(), ob);
  if (!out.guard_damage().empty()) err << "output " << out.guard_damage() << "; ";
  if (!ws.guard_damage().empty()) err << "workspace " << ws.guard_damage() << "; ";
  if (!dm.array.guard_damage().empty()) err << "input " << dm.array.guard_damage() << "; ";
  *error = err.str();
  return result;
}

}  // namespace gpuprims::test::rows
