// The SGEMM module's host side: names, requests into plans (a ladder rung, or the tuned rung's cost
// model pick), the workspace each plan needs, the launches (the plan's kernel, then the split-K
// reduction when k is split, the one cluster launch of a cluster plan, or the stream-K launch), and the
// public entry points.
#include <gpuprims/gemm.hpp>

#include "common/device/top2_result.hpp"
#include "common/src/cuda_check.hpp"
#include "common/src/device_buffer.hpp"
#include "common/src/device_info.hpp"
#include "common/src/math.hpp"
#include "gemm/src/epilogue/visitors.cuh"
#include "gemm/src/gemm_internal.hpp"
#include "gemm/src/kernels/split_k_reduce.cuh"

namespace gpuprims {
namespace detail {
namespace {

bool has_output(const SgemmArgs& a) { return a.m > 0 && a.n > 0; }

// Which constants the call's pick ranks with (cost_model.hpp, PickFor).
PickFor pick_for(bool want_top2, bool per_row) {
  return !want_top2 ? PickFor::plain : per_row ? PickFor::row_top2 : PickFor::top2;
}

// Whether C takes 16-byte accesses (aligned, ldc % 4 == 0); true without C (nothing is stored).
bool c_takes_vec4(const SgemmArgs& a) { return a.C == nullptr || (is_aligned(a.C, 16) && a.ldc % 4 == 0); }

// Plans without a device (the call then says unsupported, after checking its arguments) and the
// public queries without one are sized by this stand-in.
const DeviceShape& no_device_shape() {
  static const DeviceShape shape = [] {
    DeviceShape s;
    s.sm_count = 1;
    return s;
  }();
  return shape;
}

// The tuned pick ranks up to a few hundred plans (about 5 us of host time for a tiny output with a
// long k, as much as the GEMM itself); code that calls with the same shapes over and over finds its
// plan here instead. Per thread, so no lock; per device shape, so a device switch misses.
struct PickCache {
  struct Entry {
    const DeviceShape* device = nullptr;
    std::int64_t m = -1, n = -1, k = -1;
    bool store_c = false;
    PickFor call = PickFor::plain;
    GemmPlan plan;
  };
  static constexpr int kEntries = 16;
  Entry entries[kEntries];
  int next = 0;
};

GemmPlan cached_pick(std::int64_t m, std::int64_t n, std::int64_t k, bool store_c, PickFor call,
                     const DeviceShape& device) {
  thread_local PickCache cache;
  for (const PickCache::Entry& e : cache.entries)
    if (e.device == &device && e.m == m && e.n == n && e.k == k && e.store_c == store_c && e.call == call)
      return e.plan;
  const GemmPlan plan = pick_plan(m, n, k, store_c, device, constants_for(call));
  cache.entries[cache.next] = PickCache::Entry{&device, m, n, k, store_c, call, plan};
  cache.next = (cache.next + 1) % PickCache::kEntries;
  return plan;
}

}  // namespace

GemmPlan plan_for(gemm::Algorithm algo, std::int64_t m, std::int64_t n, std::int64_t k, bool store_c,
                  const DeviceShape& device, bool c_vec4, PickFor call) {
  const LadderRung* rung = ladder_rung(algo);
  if (rung != nullptr && rung->path.run != nullptr) {
    const RungEntry& path = rung->path;
    return ladder_plan(path, m, n, k, path.ladder_splits ? path.ladder_splits(m, n, k, device.sm_count) : 1);
  }
  if (outer_product_serves(m, n, k, store_c, c_vec4, call)) return make_plan(kOuterProductPath, k, 1);
  return cached_pick(m, n, k, store_c, call, device);
}

GemmPlan ladder_plan(const RungEntry& path, std::int64_t m, std::int64_t n, std::int64_t k, int splits) {
  GemmPlan plan = make_plan(path, k, splits);
  if (path.workspace_bytes != nullptr) plan.rung_bytes = path.workspace_bytes(m, n, k, plan.splits, plan.k_split);
  return plan;
}

// The scale-only case runs the coalesced kernel with k = 0 and alpha = 0, whatever the algorithm.
GemmPlan scale_only_plan() { return make_plan(ladder_rung(gemm::Algorithm::coalesced)->path, 0, 1); }

WorkspaceLayout call_workspace_layout(const GemmPlan& plan, std::int64_t m, std::int64_t n, bool want_top2,
                                      int sm_count, bool per_row) {
  std::size_t top2 = 0;
  if (want_top2 && per_row) {
    top2 = RowTop2Visitor::workspace_bytes(m);
  } else if (want_top2) {
    const std::int64_t blocks = (m <= 0 || n <= 0) ? 0
                                                   : max_of(epilogue_blocks(plan, m, n, sm_count),
                                                            plan_blocks_x(*scale_only_plan().path, m, n));
    // Either top-2 visitor may run (the packed one unless the output has 2^32 entries or more).
    top2 = max_of(Top2PackedVisitor::workspace_bytes(blocks), Top2WideVisitor::workspace_bytes(blocks));
  }
  WorkspaceLayout layout;
  layout.total = top2;
  if (const std::size_t partials = partials_bytes(plan, m, n); partials > 0) {
    layout.partials = workspace_part(layout.total);
    layout.total = layout.partials + partials;
  }
  if (plan.rung_bytes > 0) {
    layout.rung = workspace_part(layout.total);
    layout.total = layout.rung + plan.rung_bytes;
  }
  return layout;
}

std::size_t call_workspace_bytes(const GemmPlan& plan, std::int64_t m, std::int64_t n, bool want_top2, int sm_count,
                                 bool per_row) {
  return call_workspace_layout(plan, m, n, want_top2, sm_count, per_row).total;
}

Status prepare_sgemm(const SgemmArgs& a, const GemmPlan* forced, PreparedCall* out) {
  GPUPRIMS_TRY(validate_sgemm(a));
  PreparedCall p;
  const bool product = has_product(a);
  // Nothing to compute and nothing to report: no CUDA call at all (as cuBLAS's quick return). The
  // per-row top-2 of no rows reports nothing either.
  if ((!a.want_top2 && (!has_output(a) || (!product && a.beta == 1.0f))) || (a.per_row && a.m == 0)) {
    p.no_work = true;
    *out = p;
    return Status::success;
  }
  // Without a device the call cannot run, but its workspace is still checked first (a bad argument
  // is reported before a missing device), against the plan the public queries size it by.
  const DeviceShape* device = nullptr;
  p.device_status = current_device_shape(&device);
  if (p.device_status != Status::success) device = &no_device_shape();
  p.sm_count = device->sm_count;
  p.dependent_launch = device->dependent_launch;
  p.clusters = device->clusters;
  const bool store_c = a.C != nullptr;
  const bool computes = product && has_output(a);
  if (!computes) p.plan = scale_only_plan();
  else if (forced) p.plan = *forced;
  else p.plan = plan_for(a.algo, a.m, a.n, a.k, store_c, *device, c_takes_vec4(a), pick_for(a.want_top2, a.per_row));
  if (!plan_fits(p.plan, a.m, a.n, computes ? a.k : 0)) return Status::invalid_argument;
  p.workspace_bytes = call_workspace_bytes(p.plan, a.m, a.n, a.want_top2, p.sm_count, a.per_row);
  p.epilogue_one_wave =
      epilogue_in_one_wave(p.plan, a.m, a.n, p.sm_count, resident_blocks_per_sm(*device, p.plan.path));
  p.epilogue_end_dependent =
      epilogue_ends_in_dependent(p.plan, a.m, a.n, p.sm_count, c_takes_vec4(a), p.dependent_launch) &&
      operands_outlast_a_launch(a.m, a.n, a.k);
  *out = p;
  return Status::success;
}

Status launch_sgemm(const SgemmArgs& a, const PreparedCall& p, void* workspace, std::size_t workspace_bytes,
                    cudaStream_t stream) {
  if (p.no_work) return Status::success;
  if (p.workspace_bytes > 0) {
    if (workspace == nullptr || workspace_bytes < p.workspace_bytes) return Status::invalid_argument;
    if (!is_aligned(workspace, 16)) return Status::misaligned_pointer;
  }
  GPUPRIMS_TRY(p.device_status);
  // A forced cluster plan on a device without clusters (the pick never makes one there).
  if (p.plan.cluster && !p.clusters) return Status::unsupported;
  // Rows of no columns: every row's slots stay empty, so begin and end alone write {missing, missing}.
  if (!has_output(a) && a.per_row) {
    RowTop2Args slots{};
    GPUPRIMS_TRY(row_top2_begin(workspace, a.m, stream, &slots));
    return row_top2_end(slots, a.top2, a.m, stream);
  }
  if (!has_output(a)) return write_empty_top2(a.top2, stream);

  const GemmPlan& plan = p.plan;
  GemmCall c{};
  c.op = GemmOperands{a.m, a.n, plan.k_split == 0 ? 0 : a.k, a.A, a.lda, a.B, a.ldb, plan.k_split};
  c.ab_vec4 = is_aligned(a.A, 16) && is_aligned(a.B, 16) && a.lda % 4 == 0 && a.ldb % 4 == 0;
  c.epilogue = !a.want_top2                                                     ? EpilogueKind::store
               : a.per_row                                                      ? EpilogueKind::row_top2
               : (!a.force_wide_index && a.m * a.n <= std::int64_t{0xffffffff}) ? EpilogueKind::top2_packed
                                                                                : EpilogueKind::top2_wide;
  c.out.C = a.C;
  c.out.ldc = a.ldc;
  c.out.alpha = c.op.k > 0 ? a.alpha : 0.0f;
  c.out.beta = a.beta;
  c.out.m = a.m;
  c.out.n = a.n;
  c.out.store = a.C != nullptr;
  c.out.c_vec4 = c_takes_vec4(a);
  c.splits = 1;
  c.stream = stream;

  // Workspace: the visitor's part first, then the split partials, then the path's own.
  auto* const ws = static_cast<unsigned char*>(workspace);
  const WorkspaceLayout layout = call_workspace_layout(plan, a.m, a.n, a.want_top2, p.sm_count, a.per_row);
  c.rung_workspace = plan.rung_bytes > 0 ? ws + layout.rung : nullptr;
  const bool split_launches = plan.splits > 1 && !plan.cluster;  // partial products, then their reduction
  const EpilogueStart start{
      ws, a.top2, a.n, stream, a.m, p.epilogue_one_wave, split_launches, p.epilogue_end_dependent};
  GPUPRIMS_TRY(with_visitor(c.epilogue, [&](auto v) { return decltype(v)::type::begin(start, &c.visit); }));

  if (plan.stream_k_blocks > 0) {
    // One wave of blocks over the tiles and their k slabs; partial tiles and tickets in the workspace.
    auto* const parts = ws + layout.partials;
    c.stream_k = StreamKArgs{stream_k_schedule_for(plan, a.m, a.n, a.k), reinterpret_cast<float*>(parts),
                             reinterpret_cast<unsigned*>(parts + stream_k_tickets_offset(plan))};
    GPUPRIMS_TRY(plan.path->run_stream_k(c));
  } else if (plan.splits == 1) {
    GPUPRIMS_TRY(plan.path->run(c));
  } else if (plan.cluster) {
    c.splits = plan.splits;  // blocks per tile, summed inside the launch through the call's epilogue
    GPUPRIMS_TRY(plan.path->run_cluster(c));
  } else {
    // Each split's partial product, as is (alpha 1, beta 0: exact), into its slice of the workspace;
    // then the sums in split order through the call's own epilogue.
    const SplitPartials parts{reinterpret_cast<const float*>(ws + layout.partials), partials_ld(a.n),
                              a.m * partials_ld(a.n), plan.splits};
    GemmCall part = c;
    part.epilogue = EpilogueKind::store;
    part.splits = plan.splits;
    part.visit = VisitorArgs{};
    part.out = OutputParams{};
    part.out.C = const_cast<float*>(parts.base);
    part.out.ldc = parts.ldw;
    part.out.alpha = 1.0f;
    part.out.beta = 0.0f;
    part.out.m = a.m;
    part.out.n = a.n;
    part.out.store = true;
    part.out.c_vec4 = true;
    part.out.split_stride = parts.stride;
    part.out.reset = c.visit.reset;  // the reduction's visitor words, if it left them to this kernel
    part.out.reset_count = c.visit.reset_count;
    GPUPRIMS_TRY(plan.path->run(part));
    GPUPRIMS_TRY(launch_split_k_reduce(c, parts, p.sm_count, p.dependent_launch));
  }
  return with_visitor(c.epilogue, [&](auto v) { return decltype(v)::type::end(start, c.visit); });
}

Status sgemm_run(const SgemmArgs& a, const GemmPlan* forced, void* workspace, std::size_t workspace_bytes,
                 cudaStream_t stream) {
  PreparedCall p;
  GPUPRIMS_TRY(prepare_sgemm(a, forced, &p));
  return launch_sgemm(a, p, workspace, workspace_bytes, stream);
}

namespace {

// The allocating forms: the exact workspace of this call from the stream-ordered allocator.
Status run_with_scratch(const SgemmArgs& a, cudaStream_t stream) {
  PreparedCall p;
  GPUPRIMS_TRY(prepare_sgemm(a, nullptr, &p));
  GPUPRIMS_TRY(p.device_status);
  StreamScratch scratch(stream);
  GPUPRIMS_TRY(scratch.allocate(p.workspace_bytes));
  return launch_sgemm(a, p, scratch.get(), p.workspace_bytes, stream);
}

// Workspace for the public queries, which know neither alpha nor (for top-2) whether C will be
// given: enough for every plan the call could take. 0 for arguments no call would accept.
std::size_t query_workspace(std::int64_t m, std::int64_t n, std::int64_t k, gemm::Algorithm algo, bool want_top2,
                            bool per_row = false) {
  if (m < 0 || n < 0 || k < 0 || !known_algorithm(algo)) return 0;
  const DeviceShape* device = nullptr;
  if (current_device_shape(&device) != Status::success) device = &no_device_shape();
  std::size_t bytes = call_workspace_bytes(scale_only_plan(), m, n, want_top2, device->sm_count, per_row);
  for (bool store_c : {true, false}) {
    if (!want_top2 && !store_c) continue;
    const GemmPlan plan = plan_for(algo, m, n, k, store_c, *device, true, pick_for(want_top2, per_row));
    bytes = max_of(bytes, call_workspace_bytes(plan, m, n, want_top2, device->sm_count, per_row));
  }
  return bytes;
}

}  // namespace
}  // namespace detail

namespace gemm {

std::size_t sgemm_workspace_bytes(std::int64_t m, std::int64_t n, std::int64_t k, Algorithm algo) noexcept {
  return detail::query_workspace(m, n, k, algo, false);
}

Status sgemm(std::int64_t m, std::int64_t n, std::int64_t k, float alpha, const float* A, std::int64_t lda,
             const float* B, std::int64_t ldb, float beta, float* C, std::int64_t ldc, void* d_workspace,
             std::size_t workspace_bytes, Algorithm algo, cudaStream_t stream) {
  const detail::SgemmArgs a{m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, algo, nullptr, false};
  return detail::sgemm_run(a, nullptr, d_workspace, workspace_bytes, stream);
}

Status sgemm(std::int64_t m, std::int64_t n, std::int64_t k, float alpha, const float* A, std::int64_t lda,
             const float* B, std::int64_t ldb, float beta, float* C, std::int64_t ldc, Algorithm algo,
             cudaStream_t stream) {
  const detail::SgemmArgs a{m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, algo, nullptr, false};
  return detail::run_with_scratch(a, stream);
}

std::size_t top2_workspace_bytes(std::int64_t m, std::int64_t n, std::int64_t k, Algorithm algo) noexcept {
  return detail::query_workspace(m, n, k, algo, true);
}

Status sgemm_top2_argmin(std::int64_t m, std::int64_t n, std::int64_t k, float alpha, const float* A, std::int64_t lda,
                         const float* B, std::int64_t ldb, float beta, float* C, std::int64_t ldc, Top2* d_top2,
                         void* d_workspace, std::size_t workspace_bytes, Algorithm algo, cudaStream_t stream) {
  const detail::SgemmArgs a{m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, algo, d_top2, true};
  return detail::sgemm_run(a, nullptr, d_workspace, workspace_bytes, stream);
}

Status sgemm_top2_argmin(std::int64_t m, std::int64_t n, std::int64_t k, float alpha, const float* A, std::int64_t lda,
                         const float* B, std::int64_t ldb, float beta, float* C, std::int64_t ldc, Top2* d_top2,
                         Algorithm algo, cudaStream_t stream) {
  const detail::SgemmArgs a{m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, algo, d_top2, true};
  return detail::run_with_scratch(a, stream);
}

std::size_t row_top2_workspace_bytes(std::int64_t m, std::int64_t n, std::int64_t k, Algorithm algo) noexcept {
  return detail::query_workspace(m, n, k, algo, true, true);
}

Status sgemm_row_top2_argmin(std::int64_t m, std::int64_t n, std::int64_t k, float alpha, const float* A,
                             std::int64_t lda, const float* B, std::int64_t ldb, float beta, float* C, std::int64_t ldc,
                             Top2* d_out, void* d_workspace, std::size_t workspace_bytes, Algorithm algo,
                             cudaStream_t stream) {
  detail::SgemmArgs a{m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, algo, d_out, true};
  a.per_row = true;
  return detail::sgemm_run(a, nullptr, d_workspace, workspace_bytes, stream);
}

Status sgemm_row_top2_argmin(std::int64_t m, std::int64_t n, std::int64_t k, float alpha, const float* A,
                             std::int64_t lda, const float* B, std::int64_t ldb, float beta, float* C, std::int64_t ldc,
                             Top2* d_out, Algorithm algo, cudaStream_t stream) {
  detail::SgemmArgs a{m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, algo, d_out, true};
  a.per_row = true;
  return detail::run_with_scratch(a, stream);
}

}  // namespace gemm
}  // namespace gpuprims
