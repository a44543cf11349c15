#include "support/top2_check.hpp"

#include <cuda_runtime_api.h>

#include <cmath>
#include <cstring>
#include <sstream>

#include <gpuprims/reduce.hpp>

#include "common/src/device_buffer.hpp"
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
                       bool store_c) {
  Top2Run run;
  GuardedArray a(in.A.size(), l.off_a), b(in.B.size(), l.off_b), c(in.C.size(), l.off_c);
  const detail::DeviceBuffer<Top2> top2(1);
  Top2* const d_top2 = top2.get();
  if (!a.ok() || !b.ok() || !c.ok() || !top2) {
    run.cuda_error = "allocation failed";
    return run;
  }
  cudaMemset(d_top2, 0x7F, sizeof(Top2));  // poison the result
  a.upload(in.A);
  b.upload(in.B);
  if (store_c && beta != 0.0f) c.upload(in.C);
  else c.poison();
  run.status = gemm::sgemm_top2_argmin(l.m, l.n, l.k, alpha, a.data(), l.lda, b.data(), l.ldb, beta,
                                       store_c ? c.data() : nullptr, l.ldc, d_top2, algo);
  finish(run, d_top2);
  run.C = c.download();
  run.guard_damage = a.guard_damage() + b.guard_damage() + c.guard_damage();
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

}  // namespace gpuprims::test
