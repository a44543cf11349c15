#pragma once
//! \file
//! gpuprims::reduce's typed device-wide reductions: sum, min, max, argmin and argmax over float,
//! double, half, bfloat16, int32, uint32 and int64 (the operators of gpuprims/device/reduce_ops.hpp,
//! which also defines NaN, ±0, ties and empty results). Precompiled in the library; plain C++17. Each
//! has an explicit-workspace form (sized by workspace_bytes<T>(op, n); no allocation) and a form that
//! takes its scratch from the library's stream-ordered allocator. Every form enqueues on the stream
//! and returns without synchronizing; bad arguments return a Status before anything is launched.
//!
//! - Results: sum in sum_type_t<T> (half and bfloat16 accumulate in float; int32 / int64 in int64 and
//!   uint32 in uint64, exact and wrapping modulo 2^64), min / max in T, argmin / argmax as
//!   ArgResult<T> (every byte written).
//! - n == 0 writes the empty result: sum 0, min +inf (the largest integer), max -inf (the lowest
//!   integer), argmin / argmax {-1, that value}.
//! - Pointers: d_in aligned to sizeof(T), d_out to alignof of its type (else misaligned_pointer);
//!   the workspace may have any alignment, except for float sums (4 bytes, see below).
//! - Determinism: integer results and min / max / argmin / argmax are exact, so order-independent.
//!   Floating-point sums combine in an order fixed by (n, device, d_in mod 16): same bits every run.
//! - float sum is the `shuffle` rung of the float ladder (reduce.hpp): same result, same workspace
//!   and the same 4-byte workspace alignment as sum(..., Algorithm::shuffle, stream).
//!
//! Overloads: these are templates constrained to is_reducible_v<T>; the float `sum` forms of reduce.hpp
//! that take an Algorithm are non-templates, so every call written before these existed resolves to
//! them as before (a float call without an Algorithm goes to them too, with `shuffle`). The typed
//! forms are reached by any other T, or for float by passing a stream without an Algorithm.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <gpuprims/device/reduce_ops.hpp>
#include <gpuprims/export.hpp>
#include <gpuprims/reduce.hpp>
#include <gpuprims/status.hpp>

namespace gpuprims::reduce {

//! Enables the typed entry points for the seven precompiled element types only (any other is a
//! compile error).
template <class T>
using if_reducible_t = std::enable_if_t<is_reducible_v<T>, int>;

//! Device scratch bytes that the explicit-workspace form of operator op needs for n elements of T
//! (no device work; 0 when none is needed, and for n < 0 or an unknown op).
template <class T, if_reducible_t<T> = 0>
GPUPRIMS_API std::size_t workspace_bytes(Operator op, std::int64_t n) noexcept;

//! d_out[0] = sum of d_in[0, n) in sum_type_t<T>, with an explicit workspace.
template <class T, if_reducible_t<T> = 0>
GPUPRIMS_API Status sum(const T* d_in, std::int64_t n, sum_type_t<T>* d_out, void* d_workspace,
                        std::size_t workspace_bytes, cudaStream_t stream = nullptr);
//! Same, with scratch taken from the stream-ordered allocator.
template <class T, if_reducible_t<T> = 0>
GPUPRIMS_API Status sum(const T* d_in, std::int64_t n, sum_type_t<T>* d_out, cudaStream_t stream = nullptr);

//! d_out[0] = the smallest element (-0 < +0; NaN only when every element is NaN).
template <class T, if_reducible_t<T> = 0>
GPUPRIMS_API Status min(const T* d_in, std::int64_t n, T* d_out, void* d_workspace, std::size_t workspace_bytes,
                        cudaStream_t stream = nullptr);
//! Same, with scratch taken from the stream-ordered allocator.
template <class T, if_reducible_t<T> = 0>
GPUPRIMS_API Status min(const T* d_in, std::int64_t n, T* d_out, cudaStream_t stream = nullptr);

//! d_out[0] = the largest element (-0 < +0; NaN when any element is NaN).
template <class T, if_reducible_t<T> = 0>
GPUPRIMS_API Status max(const T* d_in, std::int64_t n, T* d_out, void* d_workspace, std::size_t workspace_bytes,
                        cudaStream_t stream = nullptr);
//! Same, with scratch taken from the stream-ordered allocator.
template <class T, if_reducible_t<T> = 0>
GPUPRIMS_API Status max(const T* d_in, std::int64_t n, T* d_out, cudaStream_t stream = nullptr);

//! d_out[0] = {index, value} of the smallest element (-0 == +0, NaN after +inf, lowest index on ties).
template <class T, if_reducible_t<T> = 0>
GPUPRIMS_API Status argmin(const T* d_in, std::int64_t n, ArgResult<T>* d_out, void* d_workspace,
                           std::size_t workspace_bytes, cudaStream_t stream = nullptr);
//! Same, with scratch taken from the stream-ordered allocator.
template <class T, if_reducible_t<T> = 0>
GPUPRIMS_API Status argmin(const T* d_in, std::int64_t n, ArgResult<T>* d_out, cudaStream_t stream = nullptr);

//! d_out[0] = {index, value} of the largest element (-0 == +0, the first NaN wins, lowest index on ties).
template <class T, if_reducible_t<T> = 0>
GPUPRIMS_API Status argmax(const T* d_in, std::int64_t n, ArgResult<T>* d_out, void* d_workspace,
                           std::size_t workspace_bytes, cudaStream_t stream = nullptr);
//! Same, with scratch taken from the stream-ordered allocator.
template <class T, if_reducible_t<T> = 0>
GPUPRIMS_API Status argmax(const T* d_in, std::int64_t n, ArgResult<T>* d_out, cudaStream_t stream = nullptr);

}  // namespace gpuprims::reduce
