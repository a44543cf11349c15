// The SGEMM module's registry: one line per public gemm::Algorithm, in ladder order. name(), the
// dispatch of a ladder rung (gemm.cu's plan_for), the tests' and benchmarks' rung lists (through
// gemm::kAllAlgorithms, which the static_asserts below tie to this table) and the report (which reads
// the names back from the benchmark's JSON) all derive from it.
// Adding a rung: its kernel file (kernels/NN_name.cuh, with a launcher), its enum value in gemm.hpp,
// and one line here (+ its tile shape in tuning.hpp). The tensor-core rungs' lines name a dispatcher
// (tensor_core_forms.hpp) that picks the form for the device; both forms use the same block tile, and
// both split k (kernels write partials, split_k_reduce.cuh sums them) where their tiles are few.
#include <gpuprims/gemm.hpp>

#include "gemm/src/kernels/01_naive.cuh"
#include "gemm/src/kernels/02_coalesced.cuh"
#include "gemm/src/kernels/03_shared_tiled.cuh"
#include "gemm/src/kernels/04_blocktile_1d.cuh"
#include "gemm/src/kernels/05_blocktile_2d.cuh"
#include "gemm/src/kernels/06_vectorized.cuh"
#include "gemm/src/kernels/07_bank_conflict_free.cuh"
#include "gemm/src/kernels/08_warptile.cuh"
#include "gemm/src/kernels/09_double_buffered.cuh"
#include "gemm/src/rungs/rungs.hpp"
#include "gemm/src/rungs/tensor_core_forms.hpp"

namespace gpuprims {
namespace detail {
namespace {

using gemm::Algorithm;
using VecATile = PlainATile<BlockTile2DConfig::BM, BlockTile2DConfig::BK>;
constexpr int kSimple = SimpleTiling::kTile;
// The tensor-core rungs split k (their split rules, tensor_core_forms.hpp) at whole slabs: the wgmma form's packed
// operands come in slabs, and a split then starts 16-byte aligned for the mma.sync form's copies.
constexpr int kTcSplitAlign = TensorCoreRungConfig::BK;
static_assert(WgmmaTensorCoreConfig::BK == TensorCoreRungConfig::BK, "one slab depth for both forms");

// {algorithm, {name, launcher, output rows and columns of one block}}. The tuned rung has no launcher
// of its own: the cost model picks one of tuned_paths() per shape (cost_model.hpp).
constexpr LadderRung kLadder[] = {
    {Algorithm::naive, {"naive", &launch_naive, kSimple, kSimple}},
    {Algorithm::coalesced, {"coalesced", &launch_coalesced, kSimple, kSimple}},
    {Algorithm::shared_tiled, {"shared_tiled", &launch_shared_tiled, kSimple, kSimple}},
    {Algorithm::blocktile_1d, {"blocktile_1d", &launch_blocktile_1d, BlockTile1DConfig::BM, BlockTile1DConfig::BN}},
    {Algorithm::blocktile_2d, {"blocktile_2d", &launch_blocktile_2d, BlockTile2DConfig::BM, BlockTile2DConfig::BN}},
    {Algorithm::vectorized, {"vectorized", &launch_vectorized<VecATile>, BlockTile2DConfig::BM, BlockTile2DConfig::BN}},
    {Algorithm::bank_conflict_free,
     {"bank_conflict_free", &launch_bank_conflict_free, BlockTile2DConfig::BM, BlockTile2DConfig::BN}},
    {Algorithm::warptile,
     {"warptile", &launch_warptile<WarptileRungConfig>, WarptileRungConfig::BM, WarptileRungConfig::BN}},
    {Algorithm::double_buffered,
     {"double_buffered", &launch_double_buffered<DoubleBufferedRungConfig>, DoubleBufferedRungConfig::BM,
      DoubleBufferedRungConfig::BN}},
    {Algorithm::tuned, {"tuned", nullptr, 0, 0}},
    {Algorithm::tf32,
     {"tf32", &launch_tf32_rung, TensorCoreRungConfig::BM, TensorCoreRungConfig::BN, PathKind::tile, true,
      kTcSplitAlign, kTcSplitAlign, nullptr, nullptr, nullptr, &tf32_workspace_bytes, &tf32_splits}},
    {Algorithm::tf32x3,
     {"tf32x3", &launch_tf32x3_rung, TensorCoreRungConfig::BM, TensorCoreRungConfig::BN, PathKind::tile, true,
      kTcSplitAlign, kTcSplitAlign, nullptr, nullptr, nullptr, &tf32x3_workspace_bytes, &tf32x3_splits}},
};

constexpr std::size_t kRungs = sizeof(kLadder) / sizeof(kLadder[0]);
static_assert(kRungs == gemm::kAllAlgorithms.size(), "one registry line per gemm::Algorithm");

constexpr bool ladder_matches_enum() {
  for (std::size_t i = 0; i < kRungs; ++i)
    if (kLadder[i].algo != gemm::kAllAlgorithms[i] || static_cast<std::size_t>(kLadder[i].algo) != i) return false;
  return true;
}
static_assert(ladder_matches_enum(), "registry lines in enum order, indexed by the enum value");

}  // namespace

const LadderRung* ladder_rung(Algorithm algo) {
  const auto i = static_cast<std::size_t>(algo);
  return i < kRungs ? &kLadder[i] : nullptr;
}

}  // namespace detail

namespace gemm {

const char* name(Algorithm algo) noexcept {
  const detail::LadderRung* rung = detail::ladder_rung(algo);
  return rung ? rung->path.name : "unknown";
}

}  // namespace gemm
}  // namespace gpuprims
