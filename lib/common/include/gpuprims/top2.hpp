#pragma once
// The result type of the top-2 argmin operations (fused in the GEMM epilogue, and over a matrix or
// vector in the reduce module).
#include <cstdint>
#include <type_traits>

#if defined(__CUDACC__)
#define GPUPRIMS_TOP2_HD __host__ __device__
#else
#define GPUPRIMS_TOP2_HD
#endif

namespace gpuprims {

//! One entry of a matrix: its value and its (row, col). A missing entry is {+inf, -1, -1}. Values
//! are reported as numbers: an entry of -0.0 comes back as +0.0 (it ties with +0.0, the lower index
//! winning) and any NaN as the canonical quiet NaN.
//!
//! Every byte is a member: `reserved` fills what would otherwise be 4 bytes of padding after `value`
//! (row is 8-byte aligned). The library writes it as 0 with the rest, so a result copied back from the
//! device is initialized in every byte (compute-sanitizer's initcheck has nothing to report) and two
//! results compare equal with memcmp exactly when their members are equal.
struct MinEntry {
  float value;             //!< the entry's value (+inf for a missing entry)
  std::uint32_t reserved;  //!< always 0
  std::int64_t row;        //!< its row (-1 for a missing entry)
  std::int64_t col;        //!< its column (-1 for a missing entry)

  MinEntry() = default;  //!< trivial: MinEntry{} is all zeros, a bare MinEntry is left unset
  //! {value, row, col}, as before `reserved` existed; `reserved` is always 0.
  GPUPRIMS_TOP2_HD constexpr MinEntry(float v, std::int64_t r, std::int64_t c)
      : value(v), reserved(0), row(r), col(c) {}
};

//! The two smallest entries by value; NaN sorts after +inf; ties go to the lower row-major index.
struct Top2 {
  MinEntry first;   //!< the smallest entry
  MinEntry second;  //!< the next one (missing when there is only one entry)
};

// No padding anywhere: what the library writes is the whole object. (std::has_unique_object_
//! representations cannot say this: it is false for any type with a float member, since -0.0 == +0.0.)
static_assert(sizeof(MinEntry) == sizeof(float) + sizeof(std::uint32_t) + 2 * sizeof(std::int64_t),
              "MinEntry has no padding");
static_assert(sizeof(Top2) == 2 * sizeof(MinEntry), "Top2 has no padding");
static_assert(std::is_trivially_copyable_v<Top2>, "Top2 is copied with cudaMemcpy");

}  // namespace gpuprims

#undef GPUPRIMS_TOP2_HD
