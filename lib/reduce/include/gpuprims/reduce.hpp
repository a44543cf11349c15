#pragma once
// gpuprims::reduce — device-wide sum of floats with seven selectable variants (the classic reduction
// ladder and a single-pass rung), a top-2 argmin over a (strided) matrix or a vector, and (through
// gpuprims/reduce_typed.hpp, included at the end) sum, min, max, argmin and argmax over every
// reducible type. Plain C++17 header.
#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>
#include <cstdint>

#include <gpuprims/device/reduce_ops.hpp>
#include <gpuprims/export.hpp>
#include <gpuprims/status.hpp>
#include <gpuprims/top2.hpp>

namespace gpuprims::reduce {

//! The operators of the typed and row-wise reductions (gpuprims/device/reduce_ops.hpp defines each).
enum class Operator { sum, min, max, argmin, argmax };

//! The variants of the float sum ladder, each selectable; `shuffle` is the default.
enum class Algorithm {
  baseline,          //!< interleaved tree with a divergent modulo test
  no_divergence,     //!< strided indices: whole warps idle instead of diverging
  no_bank_conflict,  //!< sequential addressing
  add_during_load,   //!< each thread adds while loading (16-byte loads, warp chunks in grid-stride order)
  unroll_last_warp,  //!< the last warp unrolled without barriers
  shuffle,           //!< warp shuffles instead of shared memory
  single_pass,       //!< small n: one launch (a cooperative grid of 16 blocks, else one block); above, as shuffle
};

//! Every variant, in ladder order (every enum value from baseline to single_pass, which stays last:
//! a value added after it must replace single_pass as the bound here).
inline constexpr auto kAllAlgorithms = [] {
  std::array<Algorithm, static_cast<std::size_t>(Algorithm::single_pass) + 1> all{};
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<Algorithm>(i);
  return all;
}();

//! "baseline", "no_divergence", ...; "unknown" for a value outside the enum.
GPUPRIMS_API const char* name(Algorithm algo) noexcept;

//! Device scratch bytes that sum() needs for n items (CUB-style query; no device work). O(blocks).
GPUPRIMS_API std::size_t workspace_bytes(std::int64_t n, Algorithm algo = Algorithm::shuffle) noexcept;

//! d_out[0] = sum of d_in[0..n), enqueued on stream. n == 0 gives 0. No allocation, no synchronization.
//! Bitwise deterministic for a given n, variant and device.
GPUPRIMS_API Status sum(const float* d_in, std::int64_t n, float* d_out, void* d_workspace, std::size_t workspace_bytes,
                        Algorithm algo = Algorithm::shuffle, cudaStream_t stream = nullptr);

//! Same, with scratch taken from the stream-ordered allocator.
GPUPRIMS_API Status sum(const float* d_in, std::int64_t n, float* d_out, Algorithm algo = Algorithm::shuffle,
                        cudaStream_t stream = nullptr);

//! Top-2 argmin over a row-major rows x cols matrix with row stride ld (ld >= cols): the two smallest
//! entries by value with their (row, col); NaN sorts after +inf; ties go to the lower row * cols + col;
//! a missing entry (fewer than two elements) is {+inf, -1, -1}. *d_out is device memory. Deterministic.
//! This query gives the scratch of the explicit-workspace form below.
GPUPRIMS_API std::size_t top2_argmin_workspace_bytes(std::int64_t rows, std::int64_t cols) noexcept;
//! Explicit-workspace form: no allocation, no synchronization; d_workspace 16-byte aligned.
GPUPRIMS_API Status top2_argmin(const float* d_in, std::int64_t rows, std::int64_t cols, std::int64_t ld, Top2* d_out,
                                void* d_workspace, std::size_t workspace_bytes, cudaStream_t stream = nullptr);
//! Same, with scratch taken from the stream-ordered allocator.
GPUPRIMS_API Status top2_argmin(const float* d_in, std::int64_t rows, std::int64_t cols, std::int64_t ld, Top2* d_out,
                                cudaStream_t stream = nullptr);
//! Over a vector of n floats: row is 0 and col is the index.
GPUPRIMS_API Status top2_argmin(const float* d_in, std::int64_t n, Top2* d_out, cudaStream_t stream = nullptr);

}  // namespace gpuprims::reduce

#include <gpuprims/reduce_typed.hpp>
