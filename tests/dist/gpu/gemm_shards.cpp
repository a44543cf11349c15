#include "dist/gpu/gemm_shards.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <sstream>

#include "support/gpu.hpp"
#include "support/reference.hpp"
#include "support/top2_check.hpp"

namespace gpuprims::test {
namespace {

std::vector<float> rows_of(const std::vector<float>& x, std::int64_t begin, std::int64_t count, std::int64_t ld) {
  return std::vector<float>(x.begin() + begin * ld, x.begin() + (begin + count) * ld);
}

}  // namespace

std::string DistGemmCase::describe() const {
  std::ostringstream os;
  os << m << "x" << n << "x" << k << " pads(" << pad_a << "," << pad_b << "," << pad_c << ") "
     << (broadcast ? "broadcast from " + std::to_string(root) : std::string("replicated")) << " alpha " << alpha
     << " beta " << beta << (store_c ? "" : " C not stored") << " " << gemm::name(algo) << " rows";
  if (counts.empty()) os << " even";
  for (auto c : counts) os << " " << c;
  return os.str();
}

std::unique_ptr<DistGemmData> make_dist_gemm(const std::vector<Rank>& ranks, const DistGemmCase& c,
                                             std::mt19937_64& rng) {
  auto d = std::make_unique<DistGemmData>();
  d->whole = make_layout(c.m, c.n, c.k, c.pad_a, c.pad_b, c.pad_c);
  d->in = make_inputs(d->whole, rng, c.dist);
  d->rows = rows_per_rank(c.m, static_cast<int>(ranks.size()), c.counts);
  d->c_poisoned = c.beta == 0.0f;
  std::int64_t begin = 0;
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    const int dev = ranks[r].device;
    d->begins.push_back(begin);
    const std::int64_t rows = d->rows[r];
    // Offsets 0 like the one-GPU runs of support/ (run_sgemm_top2), so each rank's GEMM takes the same
    // load and store paths as the one-GPU call on the same rows.
    d->A.push_back(std::make_unique<RankArray>(dev, static_cast<std::size_t>(rows * d->whole.lda)));
    d->A.back()->upload(rows_of(d->in.A, begin, rows, d->whole.lda));
    d->B.push_back(std::make_unique<RankArray>(dev, d->in.B.size()));
    if (!c.broadcast || static_cast<int>(r) == c.root) d->B.back()->upload(d->in.B);  // else stays NaN
    d->C.push_back(std::make_unique<RankArray>(dev, static_cast<std::size_t>(rows * d->whole.ldc)));
    if (!d->c_poisoned) d->C.back()->upload(rows_of(d->in.C, begin, rows, d->whole.ldc));
    d->top2.push_back(std::make_unique<RankTop2>(dev));
    begin += rows;
  }
  return d;
}

std::vector<dist::SgemmCall> dist_gemm_calls(const std::vector<Rank>& ranks, const DistGemmCase& c,
                                             const DistGemmData& d) {
  std::vector<dist::SgemmCall> calls(ranks.size());
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    dist::SgemmArgs& a = calls[r].args;
    a.m = c.m;
    a.n = c.n;
    a.k = c.k;
    if (!c.counts.empty())
      a.split = dist::RowSplit::explicit_counts(c.counts.data(), static_cast<int>(c.counts.size()));
    a.m_local = d.rows[r];
    a.alpha = c.alpha;
    a.A_local = d.A[r]->data();
    a.lda = d.whole.lda;
    a.B = d.B[r]->data();
    a.ldb = d.whole.ldb;
    a.beta = c.beta;
    a.C_local = c.store_c ? d.C[r]->data() : nullptr;
    a.ldc = d.whole.ldc;
    a.b_source = c.broadcast ? dist::BSource::broadcast_from(c.root) : dist::BSource::replicated();
    a.algo = c.algo;
    calls[r].comm = ranks[r].comm;
    calls[r].d_top2 = d.top2[r]->data();
    calls[r].stream = ranks[r].stream;
  }
  return calls;
}

std::string check_dist_c(const DistGemmCase& c, const DistGemmData& d, int sample) {
  std::ostringstream os;
  for (std::size_t r = 0; r < d.rows.size(); ++r) {
    const std::int64_t rows = d.rows[r];
    const std::vector<float> out = d.C[r]->download();
    const std::vector<float> a = rows_of(d.in.A, d.begins[r], rows, d.whole.lda);
    const std::vector<float> c_in = rows_of(d.in.C, d.begins[r], rows, d.whole.ldc);
    std::vector<std::int64_t> which;
    for (std::int64_t i = 0; i < rows; ++i)
      if (sample <= 0 || i == 0 || i == rows - 1 || i % std::max<std::int64_t>(1, rows / sample) == 0)
        which.push_back(i);
    int problems = 0;
    for (std::int64_t i : which) {
      for (std::int64_t j = 0; j < d.whole.ldc && problems < 5; ++j) {
        const std::size_t at = static_cast<std::size_t>(i * d.whole.ldc + j);
        const float got = out[at];
        if (j >= c.n) {  // padding: as it was (NaN when poisoned)
          const bool same = d.c_poisoned ? std::isnan(got) : std::memcmp(&got, &c_in[at], sizeof got) == 0;
          if (!same) os << "rank " << r << " padding C[" << i << "," << j << "] = " << got << "; ", ++problems;
          continue;
        }
        double sum = 0.0, mag = 0.0;
        reference_product_entry(i, j, c.k, a.data(), d.whole.lda, d.in.B.data(), d.whole.ldb, &sum, &mag);
        double want = static_cast<double>(c.alpha) * sum;
        mag = std::fabs(static_cast<double>(c.alpha)) * mag;
        if (c.beta != 0.0f) {
          want += static_cast<double>(c.beta) * c_in[at];
          mag += std::fabs(static_cast<double>(c.beta) * c_in[at]);
        }
        const double err = std::fabs(static_cast<double>(got) - want);
        if (!(err <= gemm_error_bound(c.k, mag)))
          os << "rank " << r << " C[" << i << "," << j << "] = " << got << ", want " << want << " (err " << err << " > "
             << gemm_error_bound(c.k, mag) << "); ",
              ++problems;
      }
    }
  }
  return os.str();
}

std::string check_dist_b(const DistGemmCase& c, const DistGemmData& d) {
  if (c.k == 0 || c.n == 0) return "";
  const std::size_t span = static_cast<std::size_t>((c.k - 1) * d.whole.ldb + c.n);
  std::ostringstream os;
  for (std::size_t r = 0; r < d.B.size(); ++r) {
    const std::vector<float> b = d.B[r]->download();
    if (std::memcmp(b.data(), d.in.B.data(), span * sizeof(float)) != 0) os << "rank " << r << " B differs; ";
  }
  return os.str();
}

std::string dist_guard_damage(const DistGemmData& d) {
  std::string out;
  for (std::size_t r = 0; r < d.rows.size(); ++r)
    for (const RankArray* a : {d.A[r].get(), d.B[r].get(), d.C[r].get()}) {
      const std::string g = a->guard_damage();
      if (!g.empty()) out += "rank " + std::to_string(r) + ": " + g + "; ";
    }
  return out;
}

Top2 one_gpu_top2(const DistGemmCase& c, const DistGemmData& d) {
  OnDevice on(0);
  const Top2Run run = run_sgemm_top2(d.whole, d.in, c.algo, c.alpha, c.beta, c.store_c);
  EXPECT_STATUS(Status::success, run.status);
  EXPECT_EQ(run.cuda_error, "");
  return run.top2;
}

std::string top2_bits_diff(const Top2& got, const Top2& want) {
  if (std::memcmp(&got, &want, sizeof got) == 0) return "";
  return "got " + to_string(got) + " want " + to_string(want);
}

}  // namespace gpuprims::test
