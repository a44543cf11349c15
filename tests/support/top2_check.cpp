#include "support/top2_check.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <sstream>

#include <gpuprims/reduce.hpp>

#include "common/src/device_buffer.hpp"
#include "gemm/src/gemm_internal.hpp"
#include "support/guarded_array.hpp"

namespace gpuprims::test {
namespace {

// Results report -0.0 as +0.0 and any NaN as the canonical NaN, so values compare as numbers.
bool same_value(float a, float b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

void finish(Top2Run& run, Top2* d_top2) {
  cudaError_t err = cudaGetLastError();
  if (err == cudaSuccess) err = cudaDeviceSynchronize();
  if (err != cudaSuccess) run.cuda_error = cudaGetErrorString(err);
  if (cudaMemcpy(&run.top2, d_top2, sizeof(Top2), cudaMemcpyDeviceToHost) != cudaSuccess) run.cuda_error += " copy";
}

}  // namespace

std::string to_string(const Top2& t) {
  std::ostringstream os;
  os << "{(" << t.first.value << " @ " << t.first.row << "," << t.first.col << "), (" << t.second.value << " @ "
     << t.second.row << "," << t.second.col << ")}";
  return os.str();
}

std::string top2_diff(const Top2& got, const Top2& want) {
  const bool same = same_value(got.first.value, want.first.value) && got.first.row == want.first.row &&
                    got.first.col == want.first.col && same_value(got.second.value, want.second.value) &&
                    got.second.row == want.second.row && got.second.col == want.second.col;
  return same ? std::string() : "got " + to_string(got) + " want " + to_string(want);
}

Top2Run run_sgemm_top2(const GemmLayout& l, const GemmInputs& in, gemm::Algorithm algo, float alpha, float beta,
                       bool store_c, bool wide_index) {
  Top2Run run;
  GuardedOperands ops(l, in);
  const detail::DeviceBuffer<Top2> top2(1);
  Top2* const d_top2 = top2.get();
  if (!ops.ok() || !top2) {
    run.cuda_error = "allocation failed";
    return run;
  }
  cudaMemset(d_top2, 0x7F, sizeof(Top2));  // poison the result
  if (store_c && beta != 0.0f) ops.c.upload(in.C);
  else ops.c.poison();
  float* const c = store_c ? ops.c.data() : nullptr;
  if (wide_index) {
    detail::SgemmArgs args{l.m,   l.n,  l.k, alpha, ops.a.data(), l.lda,  ops.b.data(),
                           l.ldb, beta, c,   l.ldc, algo,         d_top2, true};
    args.force_wide_index = true;
    detail::PreparedCall prepared;
    run.status = detail::prepare_sgemm(args, nullptr, &prepared);
    const detail::DeviceBuffer<unsigned char> ws(prepared.workspace_bytes);
    if (run.status == Status::success && prepared.workspace_bytes > 0 && !ws) {
      run.cuda_error = "allocation failed";
      return run;
    }
    if (run.status == Status::success)
      run.status = detail::launch_sgemm(args, prepared, ws.get(), prepared.workspace_bytes, nullptr);
    finish(run, d_top2);
  } else {
    run.status = gemm::sgemm_top2_argmin(l.m, l.n, l.k, alpha, ops.a.data(), l.lda, ops.b.data(), l.ldb, beta, c, l.ldc,
                                         d_top2, algo);
    finish(run, d_top2);
  }
  run.C = ops.c.download();
  run.guard_damage = ops.guard_damage();
  return run;
}

Top2Run run_reduce_top2(const std::vector<float>& x, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                        int offset) {
  Top2Run run;
  GuardedArray a(x.size(), offset);
  const detail::DeviceBuffer<Top2> top2(1);
  Top2* const d_top2 = top2.get();
  if (!a.ok() || !top2) {
    run.cuda_error = "allocation failed";
    return run;
  }
  cudaMemset(d_top2, 0x7F, sizeof(Top2));
  a.upload(x);
  run.status = reduce::top2_argmin(a.data(), rows, cols, ld, d_top2);
  finish(run, d_top2);
  run.guard_damage = a.guard_damage();
  return run;
}

RowTop2Run run_sgemm_row_top2(const GemmLayout& l, const GemmInputs& in, gemm::Algorithm algo, float alpha, float beta,
                              bool store_c, bool explicit_workspace) {
  RowTop2Run run;
  constexpr std::size_t kFloatsPerTop2 = sizeof(Top2) / sizeof(float);
  const std::size_t rows = static_cast<std::size_t>(std::max<std::int64_t>(l.m, 0));
  GuardedOperands ops(l, in);
  GuardedArray out(std::max<std::size_t>(rows, 1) * kFloatsPerTop2);
  const std::size_t ws_bytes = explicit_workspace ? gemm::row_top2_workspace_bytes(l.m, l.n, l.k, algo) : 0;
  const detail::DeviceBuffer<unsigned char> ws(std::max<std::size_t>(ws_bytes, 1));
  if (!ops.ok() || !out.ok() || !ws) {
    run.cuda_error = "allocation failed";
    return run;
  }
  auto* const d_out = reinterpret_cast<Top2*>(out.data());
  out.poison();
  cudaMemset(d_out, 0x7F, rows * sizeof(Top2));  // poison the result (not NaN: 0x7F7F7F7F is a number)
  if (store_c && beta != 0.0f) ops.c.upload(in.C);
  else ops.c.poison();
  float* const d_c = store_c ? ops.c.data() : nullptr;
  run.status = explicit_workspace
                   ? gemm::sgemm_row_top2_argmin(l.m, l.n, l.k, alpha, ops.a.data(), l.lda, ops.b.data(), l.ldb, beta,
                                                 d_c, l.ldc, d_out, ws.get(), ws_bytes, algo)
                   : gemm::sgemm_row_top2_argmin(l.m, l.n, l.k, alpha, ops.a.data(), l.lda, ops.b.data(), l.ldb, beta,
                                                 d_c, l.ldc, d_out, algo);
  cudaError_t err = cudaGetLastError();
  if (err == cudaSuccess) err = cudaDeviceSynchronize();
  if (err != cudaSuccess) run.cuda_error = cudaGetErrorString(err);
  run.rows.resize(rows);
  if (rows > 0 && cudaMemcpy(run.rows.data(), d_out, rows * sizeof(Top2), cudaMemcpyDeviceToHost) != cudaSuccess)
    run.cuda_error += " copy";
  run.C = ops.c.download();
  run.guard_damage = ops.guard_damage() + out.guard_damage();
  return run;
}

std::vector<Top2> reference_row_top2(const float* x, std::int64_t rows, std::int64_t cols, std::int64_t ld) {
  // Rank: NaN after everything (+inf included), -0.0 equal to +0.0, then the lower column.
  auto less = [](float a, std::int64_t ia, float b, std::int64_t ib) {
    const bool an = std::isnan(a), bn = std::isnan(b);
    if (an != bn) return bn;
    if (!an && a != b) return a < b;
    return ia < ib;
  };
  auto reported = [](float v) {
    if (std::isnan(v)) {
      const std::uint32_t canonical = 0x7fc00000u;
      float q;
      std::memcpy(&q, &canonical, sizeof q);
      return q;
    }
    return v == 0.0f ? 0.0f : v;  // -0.0 -> +0.0
  };
  const MinEntry missing{std::numeric_limits<float>::infinity(), -1, -1};
  std::vector<Top2> out;
  out.reserve(static_cast<std::size_t>(std::max<std::int64_t>(rows, 0)));
  std::vector<std::int64_t> cols_order(static_cast<std::size_t>(std::max<std::int64_t>(cols, 0)));
  for (std::int64_t r = 0; r < rows; ++r) {
    const float* row = x + r * ld;
    std::iota(cols_order.begin(), cols_order.end(), std::int64_t{0});
    const std::size_t keep = std::min<std::size_t>(2, cols_order.size());
    std::partial_sort(cols_order.begin(), cols_order.begin() + static_cast<std::ptrdiff_t>(keep), cols_order.end(),
                      [&](std::int64_t a, std::int64_t b) { return less(row[a], a, row[b], b); });
    Top2 t{missing, missing};
    if (keep > 0) t.first = MinEntry{reported(row[cols_order[0]]), r, cols_order[0]};
    if (keep > 1) t.second = MinEntry{reported(row[cols_order[1]]), r, cols_order[1]};
    out.push_back(t);
  }
  return out;
}

std::string row_top2_bytes_diff(const std::vector<Top2>& got, const std::vector<Top2>& want) {
  if (got.size() != want.size())
    return "got " + std::to_string(got.size()) + " rows, want " + std::to_string(want.size());
  std::ostringstream os;
  int shown = 0;
  for (std::size_t r = 0; r < got.size() && shown < 5; ++r) {
    // Every byte, `reserved` and the float bits included (the object is compared as written).
    std::array<unsigned char, sizeof(Top2)> g{}, w{};
    std::memcpy(g.data(), &got[r], sizeof(Top2));
    std::memcpy(w.data(), &want[r], sizeof(Top2));
    if (g == w) continue;
    os << "row " << r << ": got " << to_string(got[r]) << " (reserved " << got[r].first.reserved << ","
       << got[r].second.reserved << ") want " << to_string(want[r]) << "; ";
    ++shown;
  }
  return os.str();
}

}  // namespace gpuprims::test
