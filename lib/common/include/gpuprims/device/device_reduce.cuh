#pragma once
//! \file
//! Device-wide reduction of n elements with any operator of the reduce_ops.hpp shape (nvcc only): the
//! kernels and host launchers libgpuprims's typed reductions are instantiated from, for nvcc users to
//! instantiate with their own operator and type. Two passes: pass 1 gives one accumulator per block
//! (a capped grid that fills the GPU once; each thread combines its share of 16-byte vectors, handed
//! out as warp chunks by device_reduce_plan.hpp, with a scalar head and tail), pass 2 is one block over the
//! partials that writes
//! op.finish(...). With one block pass 1 writes the result itself. Every assignment of elements to
//! threads is fixed by (n, d_in mod 16, grid), so results are bitwise reproducible run to run.
//!
//! The combine must be associative and commutative: elements reach it in warp-chunk order, not
//! index order (reduce_ops.hpp's operators are; an argmin-like operator gets each element's index).
//!
//! \code
//!   std::size_t bytes = gpuprims::device::reduce_workspace_bytes<MyOp>(n);
//!   // ... allocate bytes (may be 0) ...
//!   gpuprims::Status s = gpuprims::device::reduce(d_in, n, d_out, d_ws, bytes, stream, MyOp{});
//! \endcode
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <gpuprims/device/block_reduce.cuh>
#include <gpuprims/device/dependent_launch.cuh>
#include <gpuprims/device/device_reduce_plan.hpp>
#include <gpuprims/device/reduce_ops.hpp>
#include <gpuprims/status.hpp>

namespace gpuprims::device {

namespace reduce_detail {

// ArgMin or ArgMax of half or bfloat16: eight elements per vector, worth the paired instructions.
template <class Op, class T = typename Op::Input>
inline constexpr bool kPairedArg = (std::is_same_v<T, __half> ||
                                    std::is_same_v<T, __nv_bfloat16>)&&(std::is_same_v<Op, ArgMin<T>> ||
                                                                        std::is_same_v<Op, ArgMax<T>>);

// The best of four half2 or bfloat162 words' eight elements by the paired instructions: min ignores
// NaN (NaN only when all are), max returns NaN when any is one. Their choice between -0 and +0 is
// not relied on by either caller.
template <bool kMax, class T2>
__device__ __forceinline__ auto paired_best(const T2 (&w)[4]) {
  const auto best2 = [](T2 a, T2 b) { return kMax ? __hmax2_nan(a, b) : __hmin2(a, b); };
  const T2 m = best2(best2(w[0], w[1]), best2(w[2], w[3]));
  return kMax ? __hmax_nan(m.x, m.y) : __hmin(m.x, m.y);
}

// The position of the first of kWidth elements equal to v (-0 == +0); v must be one of them.
template <int kWidth, class T>
__device__ __forceinline__ int first_equal(const T (&x)[kWidth], T v) {
  int j = kWidth - 1;
#pragma unroll
  for (int k = kWidth - 2; k >= 0; --k) j = x[k] == v ? k : j;
  return j;
}

// The position (0-7, element order) of the first of four half2 or bfloat162 words' eight elements equal
// to v (-0 == +0); v must be one of them.
template <class T2, class T>
__device__ __forceinline__ int paired_first_equal(const T2 (&w)[4], T v) {
  T2 vv;
  vv.x = v;
  vv.y = v;
  // Word i's equal lanes as bits 2i (its low element) and 2i + 1 (its high element): element order.
  unsigned bits = 0;
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const unsigned eq = __heq2_mask(w[i], vv);
    bits |= ((eq & 1u) | ((eq >> 15) & 2u)) << (2 * i);
  }
  return __ffs(static_cast<int>(bits)) - 1;
}

// The best of eight half or bfloat16 elements with the paired min / max instructions, then the first
// element equal to it (-0 == +0, as the arg operators rank them): a few instructions per element
// where eight order keys cost a dozen each. A run whose best is NaN (argmin: all NaN; argmax: any
// NaN, since __hmax2_nan keeps NaN) takes the key path, so NaN ranks as reduce_ops.hpp says.
template <class Op>
__device__ __forceinline__ typename Op::Acc combine_paired_arg(const Op& op, typename Op::Acc acc, const uint4& raw,
                                                               std::int64_t first) {
  using T = typename Op::Input;
  using T2 = std::conditional_t<std::is_same_v<T, __half>, __half2, __nv_bfloat162>;
  constexpr bool kMax = std::is_same_v<Op, ArgMax<T>>;
  T2 w[4];
  std::memcpy(w, &raw, sizeof(w));
  const T v = paired_best<kMax>(w);
  if (__hisnan(v)) {
    T elems[8];
    std::memcpy(elems, &raw, sizeof(elems));
    return combine_run<8>(op, acc, elems, first);
  }
  const int j = paired_first_equal(w, v);
  return op.combine(acc, op.at(op.key_of(v), first + j));
}

// Min or Max of float, half or bfloat16: worth finding the vector's best element with the native
// min / max instructions and keying only that one. Not double: two keys per vector cost less than
// the native pair and its checks (about 0.5% slower at 2^28 on an H100).
template <class Op, class T = typename Op::Input>
inline constexpr bool kNativeMinMax = (std::is_same_v<T, float> || std::is_same_v<T, __half> ||
                                       std::is_same_v<T, __nv_bfloat16>)&&(std::is_same_v<Op, Min<T>> ||
                                                                           std::is_same_v<Op, Max<T>>);

// The better of two floats: fminf ignores a NaN (NaN only when both are), max.NaN (sm_80+) returns
// NaN when either is one. Their choice between -0 and +0 is not relied on.
template <bool kMax>
__device__ __forceinline__ float native_best(float a, float b) {
  if constexpr (!kMax) return fminf(a, b);
  float r;
  asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  return r;
}

// Min / Max of one vector of a floating-point type: its best element by the native instructions, one
// order key for it. Exact: past NaN and ±0 the key order is the value order, and a nonzero value has
// one encoding, so the best value's key is the best key. A vector whose best is NaN or ±0 (where
// NaN's place after +inf and -0 < +0 decide, or a subnormal was flushed) takes the key path.
template <class Op>
__device__ __forceinline__ typename Op::Acc combine_native_minmax(const Op& op, typename Op::Acc acc, const uint4& raw,
                                                                  std::int64_t first) {
  using T = typename Op::Input;
  constexpr bool kMax = std::is_same_v<Op, Max<T>>;
  constexpr int kWidth = static_cast<int>(vector_width(sizeof(T)));
  T elems[kWidth];
  std::memcpy(elems, &raw, sizeof(elems));
  T best;
  if constexpr (sizeof(T) == 2) {
    using T2 = std::conditional_t<std::is_same_v<T, __half>, __half2, __nv_bfloat162>;
    T2 w[4];
    std::memcpy(w, &raw, sizeof(w));
    best = paired_best<kMax>(w);
  } else {
    best = elems[0];
#pragma unroll
    for (int j = 1; j < kWidth; ++j) best = native_best<kMax>(best, elems[j]);
  }
  using Key = typename OrderKey<T>::Key;
  using K = typename OrderKey<T>::K;
  const Key key = OrderKey<T>::key(best, false);
  // The keys of +0 and -0 sit either side of the sign bit; every NaN has kNaN.
  if (key == static_cast<Key>(K::kSign) || key == static_cast<Key>(K::kSign - 1) || key == static_cast<Key>(K::kNaN))
    return combine_run<kWidth>(op, acc, elems, first);
  return op.combine(acc, key);
}

// ArgMin or ArgMax of float or double: worth ranking a vector with the native min / max and keying
// only its best element, as combine_paired_arg does for the 2-byte types.
template <class Op, class T = typename Op::Input>
inline constexpr bool kNativeArg = (std::is_same_v<T, float> ||
                                    std::is_same_v<T, double>)&&(std::is_same_v<Op, ArgMin<T>> ||
                                                                 std::is_same_v<Op, ArgMax<T>>);

// The best of a float or double vector's elements by the native min / max, then the first element
// equal to it (-0 == +0, as the arg operators rank them), one key. argmin: fmin passes over NaN, so
// the best is NaN only when every element is; argmax: a vector holding a NaN (which ranks above +inf)
// takes the key path, as does an all-NaN argmin vector.
template <class Op>
__device__ __forceinline__ typename Op::Acc combine_native_arg(const Op& op, typename Op::Acc acc, const uint4& raw,
                                                               std::int64_t first) {
  using T = typename Op::Input;
  constexpr bool kMax = std::is_same_v<Op, ArgMax<T>>;
  constexpr int kWidth = static_cast<int>(vector_width(sizeof(T)));
  T x[kWidth];
  std::memcpy(x, &raw, sizeof(x));
  T v = x[0];
  bool nan = x[0] != x[0];
#pragma unroll
  for (int j = 1; j < kWidth; ++j) {
    if constexpr (kMax) {
      v = v > x[j] ? v : x[j];
      nan = nan || x[j] != x[j];
    } else {
      v = fmin(v, x[j]);
    }
  }
  if (kMax ? nan : v != v) return combine_run<kWidth>(op, acc, x, first);
  const int j = first_equal(x, v);
  return op.combine(acc, op.at(op.key_of(v), first + j));
}

// op.combine over the elements of one 16-byte vector, in index order; `first` is the index of its
// first element (combine_run: one combine for argmin / argmax).
template <class Op>
__device__ __forceinline__ typename Op::Acc combine_vector(const Op& op, typename Op::Acc acc, const uint4& raw,
                                                           std::int64_t first) {
  using T = typename Op::Input;
  constexpr int kWidth = static_cast<int>(vector_width(sizeof(T)));
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (kPairedArg<Op>) return combine_paired_arg(op, acc, raw, first);
  if constexpr (kNativeMinMax<Op>) return combine_native_minmax(op, acc, raw, first);
#endif
  if constexpr (kNativeArg<Op>) return combine_native_arg(op, acc, raw, first);
  T elems[kWidth];
  std::memcpy(elems, &raw, sizeof(elems));
  return combine_run<kWidth>(op, acc, elems, first);
}

}  // namespace reduce_detail

//! Thread level: what global thread gtid of nthreads combines of in[0, n): its warp chunks of the
//! 16-byte vectors (for_each_warp_chunk: kUnroll loads in flight, vector u of a chunk into accumulator
//! u % kAccumulators, the accumulators then combined by a fixed tree; a vector after the whole chunks
//! into accumulator 0), then element j of the head and of the tail when gtid == j. Fewer accumulators
//! than loads take fewer registers; an operator whose result depends on how elements are grouped
//! (a floating-point sum) gets different, still reproducible, bits.
template <int kUnroll, int kAccumulators = kUnroll, class Op>
__device__ __forceinline__ typename Op::Acc thread_reduce(const typename Op::Input* __restrict__ in, std::int64_t n,
                                                          std::int64_t gtid, std::int64_t nthreads, const Op& op) {
  static_assert(kUnroll >= 1 && (kUnroll & (kUnroll - 1)) == 0, "power-of-two unroll");
  static_assert(kAccumulators >= 1 && kUnroll % kAccumulators == 0 && (kAccumulators & (kAccumulators - 1)) == 0,
                "power-of-two accumulators dividing the unroll");
  using T = typename Op::Input;
  using Acc = typename Op::Acc;
  constexpr std::int64_t kWidth = vector_width(sizeof(T));
  const ReduceSplit split = reduce_split(reinterpret_cast<std::uintptr_t>(in), n, sizeof(T));

  Acc acc[kAccumulators];
#pragma unroll
  for (int u = 0; u < kAccumulators; ++u) acc[u] = op.identity();

  if constexpr (kWidth > 1) {
    const uint4* __restrict__ body = reinterpret_cast<const uint4*>(in + split.head);
    for_each_warp_chunk<kUnroll>(
        split.vec_count, gtid, nthreads,
        [&](std::int64_t first) {
      uint4 v[kUnroll];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) v[u] = __ldg(body + first + u * kWarpChunkLanes);
#pragma unroll
      for (int u = 0; u < kUnroll; ++u)
        acc[u % kAccumulators] = reduce_detail::combine_vector(op, acc[u % kAccumulators], v[u],
                                                               split.head + (first + u * kWarpChunkLanes) * kWidth);
        },
        [&](std::int64_t i) {
      acc[0] = reduce_detail::combine_vector(op, acc[0], __ldg(body + i), split.head + i * kWidth);
    });
  }
#pragma unroll
  for (int width = kAccumulators / 2; width > 0; width /= 2) {
#pragma unroll
    for (int u = 0; u < width; ++u) acc[u] = op.combine(acc[u], acc[u + width]);
  }
  Acc s = acc[0];
  if constexpr (kWidth > 1) {
    if (gtid < split.head) s = op.combine(s, op.lift(in[gtid], gtid));
  } else {
    // No vector loads (an element size that does not divide 16): a plain grid-stride loop.
    for (std::int64_t i = gtid; i < split.head; i += nthreads) s = op.combine(s, op.lift(in[i], i));
  }
  if (gtid < split.tail) s = op.combine(s, op.lift(in[split.tail_begin + gtid], split.tail_begin + gtid));
  return s;
}

//! Pass 1 of a grid: partials[blockIdx.x] = the block's combine of its share of in[0, n).
template <class Op, class Policy>
__global__ void __launch_bounds__(Policy::kThreads, reduce_min_blocks_per_sm<Policy>)
    reduce_partials_kernel(const typename Op::Input* __restrict__ in, std::int64_t n,
                           typename Op::Acc* __restrict__ partials, Op op) {
  constexpr int kThreads = Policy::kThreads;
  const int tid = static_cast<int>(threadIdx.x);
  const std::int64_t nthreads = static_cast<std::int64_t>(gridDim.x) * kThreads;
  const std::int64_t gtid = static_cast<std::int64_t>(blockIdx.x) * kThreads + tid;
  const typename Op::Acc v = thread_reduce<Policy::kUnroll, reduce_accumulators<Policy>>(in, n, gtid, nthreads, op);
  allow_dependent_launch();  // pass 2 may be scheduled now; it waits for this grid to complete
  const typename Op::Acc s = block_reduce<kThreads>(v, CombineWith<Op>{op}, tid);
  if (tid == 0) partials[blockIdx.x] = s;
}

//! One block over the input (n small enough for one pass): *out = op.finish(combine of in[0, n)).
template <class Op, class Policy>
__global__ void __launch_bounds__(Policy::kThreads)
    reduce_single_block_kernel(const typename Op::Input* __restrict__ in, std::int64_t n,
                               typename Op::Output* __restrict__ out, Op op) {
  constexpr int kThreads = Policy::kThreads;
  const int tid = static_cast<int>(threadIdx.x);
  const typename Op::Acc v = thread_reduce<Policy::kUnroll, reduce_accumulators<Policy>>(in, n, tid, kThreads, op);
  const typename Op::Acc s = block_reduce<kThreads>(v, CombineWith<Op>{op}, tid);
  if (tid == 0) *out = op.finish(s);
}

//! Pass 2: one block over `count` partials (thread t combines partials t, t + kThreads, ... in order,
//! then the block tree): *out = op.finish(...). count == 0 writes op.finish(op.identity()). It may run
//! as a programmatic dependent of pass 1 (dependent_launch.cuh), so it first waits for that grid.
template <class Op, class Policy>
__global__ void __launch_bounds__(Policy::kThreads)
    reduce_finish_kernel(const typename Op::Acc* __restrict__ partials, std::int64_t count,
                         typename Op::Output* __restrict__ out, Op op) {
  constexpr int kThreads = Policy::kThreads;
  const int tid = static_cast<int>(threadIdx.x);
  wait_for_prerequisite_grid();
  typename Op::Acc v = op.identity();
  for (std::int64_t i = tid; i < count; i += kThreads) v = op.combine(v, partials[i]);
  const typename Op::Acc s = block_reduce<kThreads>(v, CombineWith<Op>{op}, tid);
  if (tid == 0) *out = op.finish(s);
}

//! Device scratch bytes reduce() needs for n elements with operator Op (no device work; may be 0).
template <class Op, class Policy = DeviceReducePolicy>
constexpr std::size_t reduce_workspace_bytes(std::int64_t n) noexcept {
  return reduce_workspace_size<Policy>(n, sizeof(typename Op::Input), sizeof(typename Op::Acc));
}

//! The checks of reduce()'s data arguments, before any CUDA call: n >= 0, d_out non-null and aligned
//! for Output, d_in non-null when n > 0 and aligned to its element size (16-byte vector loads start at
//! an element boundary).
template <class Op>
Status reduce_validate_args(const typename Op::Input* d_in, std::int64_t n, const typename Op::Output* d_out) noexcept {
  using T = typename Op::Input;
  using Out = typename Op::Output;
  if (n < 0 || d_out == nullptr || (d_in == nullptr && n > 0)) return Status::invalid_argument;
  if (reinterpret_cast<std::uintptr_t>(d_out) % alignof(Out) != 0) return Status::misaligned_pointer;
  if (d_in != nullptr && reinterpret_cast<std::uintptr_t>(d_in) % alignof(T) != 0) return Status::misaligned_pointer;
  if (vector_width(sizeof(T)) > 1 && d_in != nullptr && reinterpret_cast<std::uintptr_t>(d_in) % sizeof(T) != 0)
    return Status::misaligned_pointer;
  return Status::success;
}

//! Every check of reduce(): the data arguments, then the workspace (non-null and at least
//! reduce_workspace_bytes when that is not 0; any alignment).
template <class Op, class Policy = DeviceReducePolicy>
Status reduce_validate(const typename Op::Input* d_in, std::int64_t n, const typename Op::Output* d_out,
                       const void* d_workspace, std::size_t workspace_bytes) noexcept {
  const Status args = reduce_validate_args<Op>(d_in, n, d_out);
  if (args != Status::success) return args;
  const std::size_t needed = reduce_workspace_bytes<Op, Policy>(n);
  if (needed > 0 && (d_workspace == nullptr || workspace_bytes < needed)) return Status::invalid_argument;
  return Status::success;
}

//! reduce() on a GPU known to hold `resident_blocks` pass-1 blocks at once (the caller measured it,
//! e.g. SM count x cudaOccupancyMaxActiveBlocksPerMultiprocessor of reduce_partials_kernel). The grid
//! is min(reduce_max_blocks(n), resident_blocks): the same resident_blocks give the same bits. With
//! dependent_pass2 (for devices of compute capability 9.0+) pass 2 is launched as a programmatic
//! dependent of pass 1, which hides the gap between them; the result is the same.
template <class Op, class Policy = DeviceReducePolicy>
Status reduce_on_grid(const typename Op::Input* d_in, std::int64_t n, typename Op::Output* d_out, void* d_workspace,
                      std::size_t workspace_bytes, std::int64_t resident_blocks, cudaStream_t stream = nullptr,
                      Op op = Op{}, bool dependent_pass2 = false) {
  const Status valid = reduce_validate<Op, Policy>(d_in, n, d_out, d_workspace, workspace_bytes);
  if (valid != Status::success) return valid;
  constexpr int kThreads = Policy::kThreads;
  const std::int64_t blocks = reduce_grid<Policy>(n, sizeof(typename Op::Input), resident_blocks);
  if (blocks <= 1) {
    // n == 0: the finish kernel over no partials writes the empty result (stream-ordered, no memset).
    if (n == 0) reduce_finish_kernel<Op, Policy><<<1, kThreads, 0, stream>>>(nullptr, 0, d_out, op);
    else reduce_single_block_kernel<Op, Policy><<<1, kThreads, 0, stream>>>(d_in, n, d_out, op);
    return cudaPeekAtLastError() == cudaSuccess ? Status::success : Status::cuda_error;
  }
  // Partials at the first kPartialsAlign boundary: the result does not depend on the workspace address.
  const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(d_workspace);
  auto* partials = reinterpret_cast<typename Op::Acc*>((base + (Policy::kPartialsAlign - 1)) &
                                                       ~static_cast<std::uintptr_t>(Policy::kPartialsAlign - 1));
  reduce_partials_kernel<Op, Policy><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(d_in, n, partials, op);
  if (cudaPeekAtLastError() != cudaSuccess) return Status::cuda_error;
  const cudaError_t err =
      launch_maybe_dependent(&reduce_finish_kernel<Op, Policy>, dim3(1), dim3(kThreads), stream, dependent_pass2,
                             static_cast<const typename Op::Acc*>(partials), blocks, d_out, op);
  return err == cudaSuccess && cudaPeekAtLastError() == cudaSuccess ? Status::success : Status::cuda_error;
}

//! *d_out = op.finish(combine of d_in[0, n)), enqueued on stream; no allocation, no synchronization.
//! d_workspace holds reduce_workspace_bytes<Op>(n) bytes (any alignment; may be null when that is 0).
//! n == 0 writes op.finish(op.identity()). Bad arguments return a Status before anything is launched.
//! Queries the current device's SM count, compute capability and the kernel's occupancy on every call
//! (the library's own entry points cache them; call reduce_on_grid to do the same).
template <class Op, class Policy = DeviceReducePolicy>
Status reduce(const typename Op::Input* d_in, std::int64_t n, typename Op::Output* d_out, void* d_workspace,
              std::size_t workspace_bytes, cudaStream_t stream = nullptr, Op op = Op{}) {
  const Status valid = reduce_validate<Op, Policy>(d_in, n, d_out, d_workspace, workspace_bytes);
  if (valid != Status::success) return valid;
  int device = 0, sms = 0, per_sm = 0, cc_major = 0;
  if (cudaGetDevice(&device) != cudaSuccess) return Status::unsupported;
  if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess) return Status::cuda_error;
  if (cudaDeviceGetAttribute(&cc_major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess)
    return Status::cuda_error;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, reduce_partials_kernel<Op, Policy>, Policy::kThreads, 0) !=
      cudaSuccess)
    return Status::cuda_error;
  const std::int64_t resident = static_cast<std::int64_t>(sms) * (per_sm < 1 ? 1 : per_sm);
  return reduce_on_grid<Op, Policy>(d_in, n, d_out, d_workspace, workspace_bytes, resident, stream, op,
                                    has_dependent_launch(cc_major));
}

//! A plain binary functor and an initial value as an operator of the reduce_ops.hpp shape, the way
//! CUB's DeviceReduce::Reduce(op, init) takes them: the result is op(init, combine of the elements),
//! init applied once (it need not be an identity of op); op must be associative and commutative.
//! T must be trivially copyable. Built by make_reduce_op(op, init).
template <class T, class BinaryOp>
struct BinaryOpReduce {
  //! An element, or nothing yet (has == 0): the operator needs no identity element.
  struct Acc {
    T value;            //!< the combine so far (meaningless when has == 0)
    std::uint32_t has;  //!< 1 when value holds at least one element
  };
  using Input = T;   //!< element
  using Output = T;  //!< result
  BinaryOp op;       //!< the user's functor
  T init;            //!< applied once, first

  //! Nothing.
  __host__ __device__ __forceinline__ Acc identity() const {
    Acc a;
    std::memset(&a, 0, sizeof(a));
    return a;
  }
  //! The element.
  __host__ __device__ __forceinline__ Acc lift(T x, std::int64_t) const {
    Acc a = identity();
    a.value = x;
    a.has = 1;
    return a;
  }
  //! op(a, b), skipping an empty side.
  __host__ __device__ __forceinline__ Acc combine(Acc a, Acc b) const {
    if (!a.has) return b;
    if (!b.has) return a;
    a.value = op(a.value, b.value);
    return a;
  }
  //! op(init, a), or init for nothing.
  __host__ __device__ __forceinline__ T finish(Acc a) const { return a.has ? op(init, a.value) : init; }
};

//! A BinaryOpReduce from a functor and an initial value.
template <class T, class BinaryOp>
__host__ __device__ BinaryOpReduce<T, BinaryOp> make_reduce_op(BinaryOp op, T init) {
  static_assert(std::is_trivially_copyable_v<T>, "the element type is copied as bytes");
  return BinaryOpReduce<T, BinaryOp>{op, init};
}

}  // namespace gpuprims::device
