#pragma once
// gpuprims::reduce row-wise (segmented) reductions: one result per row of a row-major rows x cols
// matrix with leading dimension ld. Plain C++17 header; the kernels are precompiled for the element
// types of is_reducible_v (gpuprims/device/reduce_ops.hpp).
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <gpuprims/device/reduce_ops.hpp>
#include <gpuprims/export.hpp>
#include <gpuprims/reduce.hpp>
#include <gpuprims/status.hpp>
#include <gpuprims/top2.hpp>

namespace gpuprims::reduce {

//! Status, for the element types the row reductions are precompiled for (is_reducible_v).
template <class T>
using reducible_status_t = std::enable_if_t<is_reducible_v<T>, Status>;

//! Common contract of the row reductions below.
//! - Input: d_in[r * ld + c] for r < rows, c < cols (ld >= max(1, cols)); any pointer aligned for T.
//!   Everything is 64-bit: rows * ld may exceed 2^31.
//! - Output: d_out[r] for every r < rows (rows == 0 writes nothing). cols == 0 gives each row the
//!   empty result of reduce_ops.hpp (sum 0; min +inf / largest; max -inf / lowest; arg* index -1).
//! - Semantics (NaN, ±0, ties) are those of reduce_ops.hpp's operators; argmin / argmax report the
//!   column as the index.
//! - Deterministic: the same inputs on the same device give the same bits (floating-point sums are
//!   accumulated in an order fixed by the shape, the device's SM count and the row addresses mod 16).
//! - Bad input (negative sizes, ld < cols, null pointers where there is work, rows * ld overflowing,
//!   pointers misaligned for their type, a workspace that is null, too small or not 16-byte aligned)
//!   returns a Status before anything is enqueued. Never synchronizes.
//! - Explicit-workspace forms take d_ws of at least row_workspace_bytes(...) bytes (may be null when
//!   that is 0); the other forms take scratch from the library's stream-ordered pool.

//! Bytes of workspace the explicit-workspace form of operator op over rows x cols of T needs (0 for
//! invalid sizes). Depends only on its arguments (an upper bound over every device).
template <class T>
GPUPRIMS_API std::size_t row_workspace_bytes(Operator op, std::int64_t rows, std::int64_t cols) noexcept;

//! d_out[r] = sum of row r, in sum_type_t<T> (float for float, half and bfloat16).
template <class T>
GPUPRIMS_API reducible_status_t<T> row_sum(const T* d_in, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                                           sum_type_t<T>* d_out, void* d_ws, std::size_t ws_bytes,
                                           cudaStream_t stream = nullptr);
//! d_out[r] = smallest element of row r.
template <class T>
GPUPRIMS_API reducible_status_t<T> row_min(const T* d_in, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                                           T* d_out, void* d_ws, std::size_t ws_bytes, cudaStream_t stream = nullptr);
//! d_out[r] = largest element of row r.
template <class T>
GPUPRIMS_API reducible_status_t<T> row_max(const T* d_in, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                                           T* d_out, void* d_ws, std::size_t ws_bytes, cudaStream_t stream = nullptr);
//! d_out[r] = {column, value} of the smallest element of row r (lowest column on ties).
template <class T>
GPUPRIMS_API reducible_status_t<T> row_argmin(const T* d_in, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                                              ArgResult<T>* d_out, void* d_ws, std::size_t ws_bytes,
                                              cudaStream_t stream = nullptr);
//! d_out[r] = {column, value} of the largest element of row r (lowest column on ties).
template <class T>
GPUPRIMS_API reducible_status_t<T> row_argmax(const T* d_in, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                                              ArgResult<T>* d_out, void* d_ws, std::size_t ws_bytes,
                                              cudaStream_t stream = nullptr);

//! Stream-ordered forms: scratch from the library's pool.
template <class T>
GPUPRIMS_API reducible_status_t<T> row_sum(const T* d_in, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                                           sum_type_t<T>* d_out, cudaStream_t stream = nullptr);
//! Stream-ordered row_min.
template <class T>
GPUPRIMS_API reducible_status_t<T> row_min(const T* d_in, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                                           T* d_out, cudaStream_t stream = nullptr);
//! Stream-ordered row_max.
template <class T>
GPUPRIMS_API reducible_status_t<T> row_max(const T* d_in, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                                           T* d_out, cudaStream_t stream = nullptr);
//! Stream-ordered row_argmin.
template <class T>
GPUPRIMS_API reducible_status_t<T> row_argmin(const T* d_in, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                                              ArgResult<T>* d_out, cudaStream_t stream = nullptr);
//! Stream-ordered row_argmax.
template <class T>
GPUPRIMS_API reducible_status_t<T> row_argmax(const T* d_in, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                                              ArgResult<T>* d_out, cudaStream_t stream = nullptr);

//! Bytes of workspace row_top2_argmin's explicit-workspace form needs (0 for invalid sizes).
GPUPRIMS_API std::size_t row_top2_workspace_bytes(std::int64_t rows, std::int64_t cols) noexcept;

//! Per row, the two smallest entries in the order of top2_argmin (gpuprims/top2.hpp): by value, NaN
//! after +inf, -0.0 == +0.0 reported as +0.0, any NaN as the canonical quiet NaN, ties to the lower
//! column; d_out[r].first / .second have row = r and col = the column; a missing entry (cols < 2) is
//! {+inf, -1, -1}. Every byte of d_out[r] is written (`reserved` 0). The same result as top2_argmin
//! over the one-row matrix of row r, with its row index set to r.
GPUPRIMS_API Status row_top2_argmin(const float* d_in, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                                    Top2* d_out, void* d_ws, std::size_t ws_bytes, cudaStream_t stream = nullptr);
//! Stream-ordered form.
GPUPRIMS_API Status row_top2_argmin(const float* d_in, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                                    Top2* d_out, cudaStream_t stream = nullptr);

}  // namespace gpuprims::reduce
