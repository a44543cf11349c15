#pragma once
// Launch arithmetic of the row-wise reductions (reduce_rows.hpp), apart from the kernels: the tuning
// constants, the regime choice (a lane group per row, a block per row, or several blocks per row with
// a combine pass), the block size, grids, the workspace, and the chain lengths of float sums for the
// error bound of docs/ERROR-BOUNDS.md. Plain C++17: g++ compiles it for the CPU tests.
#include <cstddef>
#include <cstdint>

#include "common/src/host_device.hpp"
#include "common/src/math.hpp"

namespace gpuprims::reduce::detail {

using ::gpuprims::detail::min_of;
using ::gpuprims::detail::round_up;

// Every tuning constant of the row-wise reductions.
struct RowTuning {
  // Threads per block of every row kernel (a power of two, whole warps) but the block-per-row kernel
  // on long rows.
  static constexpr int kThreads = 256;
  static constexpr int kLog2Threads = 8;
  // Rows of at least kLongCols columns that take the block-per-row path get blocks of kLongThreads
  // (sums: kSumBytesPerThread below):
  // on an H100, 512-thread blocks (at most 4 per SM, half as many rows read at once) read float rows of
  // 16384 and 65536 columns 0.6-1.5% faster than 256-thread ones, and 4096-column rows 3-13% slower
  // (probe runs, session 18). Each thread then still has two batches of four vectors on float rows.
  static constexpr int kLongThreads = 512;
  static constexpr std::int64_t kLongCols = 16384;
  // Rows of kVeryLongCols or more take blocks of kVeryLongThreads: on an H100, 1024-thread blocks read
  // rows of 2^17 to 2^19 floats (1024 to 256 of them) 1.0-2.6% faster than 512-thread ones, and faster
  // than two to four splits a row (probe of session 21).
  static constexpr int kVeryLongThreads = 1024;
  static constexpr std::int64_t kVeryLongCols = std::int64_t{1} << 17;
  // Sums size their blocks by bytes, not columns: each thread kSumBytesPerThread bytes of the row or
  // more (three 16-byte vectors), up to kLongThreads; rows of kLongSumMinBytes or more take
  // kVeryLongThreads. Every sum kernel keeps to 32 registers, so two 1024-thread blocks share an SM, as
  // four of 512 do.
  // - 1024 threads from 64 KiB: on an H200 (session 63, run JQ: 300-8192 rows of 16384 to 100000
  //   columns; results/nvidia-h200/README.md), 1024-thread blocks read sums of float, double, int32 and
  //   half rows of 64 KiB or more faster than 512-thread ones at 103 of 117 shapes (0.1-2.7%, median of
  //   all 0.6%), as fast at 4, slower at 10 (0.3-1.6%; six of them 300 rows). Below 64 KiB they lost
  //   where a thread has three to four vectors and a warp straddles the batches (rows of 56000 bytes:
  //   float sums at 14000 columns 8% slower than 512, half at 28000 7%; session 64, run JW).
  // - 48 bytes below that (session 64, runs JV and JW: sums of double, int64, float, int32 and half at
  //   300 to 32000 columns and 300 rows to 2^27 elements, in blocks of 64 to 1024 threads): against the
  //   rule of 12 columns a thread up to 256 threads (24 for halves) it had, the geomean of the speed
  //   over CUB's moved from 1.0587x to 1.0645x (run JV, 180 shapes of 1536-12000 columns), 1.0583x to
  //   1.0653x (its second round) and 1.1086x to 1.1197x (run JW, 110 shapes), and the shapes below CUB
  //   from 38, 36 and 4 to 17, 16 and 0. 8-byte rows take 128 threads at 768-1535 columns (64 before),
  //   256 at 1536-3071 (128), 512 at 3072-8191 (256), 1024 from 8192 (256 up to 16383); 4-byte rows
  //   512 at 6144-16383 columns (256). Of the 470 timings,
  //   25 lost more than 0.5% to the old rule (up to 2.9%; 8-byte rows of 1400 to 5000 columns, mostly
  //   of 1000 and 3000 rows).
  // The other operators keep columns a thread up to kThreads (and 512 from kLongCols): their kernels
  // take 38-40 registers, one 1024-thread block an SM.
  static constexpr std::int64_t kSumBytesPerThread = 48;
  static constexpr std::int64_t kLongSumMinBytes = 65536;
  // Shorter rows on the block-per-row path get kColsPerThread columns a thread or more (sums: by bytes,
  // kSumBytesPerThread, since session 64; three or four 16-byte
  // vectors of floats, loaded at once): blocks of 64 threads up to 1535 columns (from past group_max_cols),
  // 128 to 3071, kThreads beyond. On an H100, 256-thread blocks on rows of
  // 512-2048 floats left threads with one or two vectors each and read at 0.60-0.82x DeviceSegmentedReduce;
  // 64 and 128 threads read at 0.99-1.95x there (probe of session 21). The edges moved down from 2048 and
  // 4096 columns (16 a thread) in session 23: float argmin / sum / min and int32 sum read rows of 1536-1792
  // columns 0.5-1.0% faster in blocks of 128 than of 64, and rows of 3072-3584 0.4-1.1% faster in blocks of
  // 256 than of 128; at 2048 and 2560, 128 stays level with or ahead of 256 (float argmin 0.993x CUB against
  // 0.951x at 2048).
  static constexpr int kMinBlockThreads = 64;
  static constexpr std::int64_t kColsPerThread = 12;
  // Rows of 2-byte elements keep three 16-byte vectors a thread too (24 columns): at 12 (one or two
  // vectors a thread), half argmin read rows of 1536 and 3072 columns at 2311-2399 GB/s against
  // 2934-3755 at 2048 and 4096-8192 on an H200 (session 34, run CP); at 24, half argmin took 25-35%
  // less time at 1536-4096 columns, bfloat16 min 10-11% less at 1536 and 3072, half sums up to 3%
  // (run CQ).
  static constexpr std::int64_t kHalfColsPerThread = 24;
  // The per-row top-2 keeps 16 columns a thread (edges at 2048 and 4096): each thread's insertions
  // and the block's merge of 16-byte pairs cost more than a vector's load, and in blocks of 128 and
  // 256 it read rows of 1536 and 3072 floats at 1738-1739 GB/s against 1983 and 2042 in blocks of 64
  // and 128 (H100, session 23, run AX).
  static constexpr std::int64_t kTop2ColsPerThread = 16;
  // Rows of at most this many columns take the lane-group path (a group of 1-32 lanes per row); rows
  // of elements that lane groups read in vectors (group_vector_element) up to group_max_cols.
  static constexpr std::int64_t kGroupMaxCols = 256;
  // A lane group is sized so each lane takes about this many columns of its row, read one at a time
  // (rows that lane groups do not read in vectors).
  static constexpr std::int64_t kGroupItemsPerLane = 4;
  // Rows of 2- and 4-byte elements longer than kGroupVectorMinBytes read 16-byte vectors, as a block
  // per row reads (row_ops.cuh's thread_range); shorter ones one element at a time. Sums of 4-byte
  // elements and the per-row top-2 take vectors past 64 bytes (16 floats), every other operator past
  // 32 (8 floats, 16 halves): see group_vector_rule.
  // Past 64 bytes: on an H200, float argmin, min, max and the per-row top-2 took 25-37% less time at
  // 32-128 columns in vectors, two a lane, than one element at a time four a lane, int32 sums 13-16%
  // less at 64 and 128, float sums 3% less at 64-256 and 7% more at 32; one vector a lane (four
  // columns) was 16-36% slower than one element at a time (session 33, runs CJ and CK).
  // Past 32 bytes, in one lane of up to four vectors (session 35, run CV, an H200, against one element
  // at a time): float argmin, min and max at 16 columns took 27-30% less time, half argmin, bfloat16
  // min and half sums at 32 columns 69%, 63% and 27% less; float sums took 3.5% more at 16 columns,
  // int32 sums 1.0% less, the per-row top-2 11.9% more.
  static constexpr std::int64_t kGroupVectorMinBytes = 64;
  static constexpr std::int64_t kGroupVectorMinBytesSelect = 32;
  // Vector groups may be narrower than a vector's elements (thread_range loops over the head and the
  // tail there), down to one lane, except for sums of 4-byte elements, which keep a lane per element
  // of a vector (four): in run CV, groups sized by kGroupVectorsPerLane alone took 16% less time than
  // that floor for float argmin and the per-row top-2 at 32 columns (two lanes, not four), 4% less for
  // float min and max, and for 2-byte rows, whose floor was eight lanes, 50% (half argmin), 39%
  // (bfloat16 min) and 26% (half sums) less at 64 columns (two lanes), 21%, 6% and 0.6% less at 128
  // (four); but float and int32 sums took 7.8% and 13.5% more at 32 columns.
  static constexpr int kGroupMinLanesSum4 = 4;
  // Those groups are sized at this many vectors a lane (at least group_vector_rule's lanes, at most 32
  // lanes), which also bounds the lane-group path (group_max_cols: 512 floats, 1024 halves).
  // On an H200, four vectors a lane against two took 21-24% less time for float argmin and 18-23% for
  // the per-row top-2 at 64-256 columns, 24-38% for half argmin at 256-512, 10-25% for bfloat16 min,
  // 1.6-13% for half, float and int32 sums and float min / max; float sums at 64 columns took 1.2% more
  // (session 34, run CT). Against one 64-thread block a row, a warp of four vectors a lane took 16-24%
  // less time on rows of 512 floats or int32s (session 33, run CM).
  static constexpr std::int64_t kGroupVectorsPerLane = 4;
  // Lane-group grid: at most this many blocks per SM (the kernel strides over rows beyond it).
  static constexpr std::int64_t kGroupBlocksPerSm = 16;
  // Blocks of kThreads one SM keeps resident (2048 threads): a row count below sm_count times this
  // leaves the GPU partly idle with one block per row, so long rows are then split into at most
  // that many blocks in all (one wave).
  static constexpr std::int64_t kBlocksPerSm = 8;
  // A split takes at least this many columns (16 per thread), and a row at most kMaxSplits splits.
  static constexpr std::int64_t kMinColsPerSplit = std::int64_t{kThreads} * 16;
  static constexpr std::int64_t kMaxSplits = 1024;
  // Rows that would get fewer splits than this take a block each instead: the split's partials and its
  // second launch cost more than the idle SMs of a block per row (on an H100, 512 rows of 2^18 floats
  // in two splits: 0.98x DeviceSegmentedReduce; a 1024-thread block per row: 1.01x).
  static constexpr std::int64_t kMinSplits = 4;
  // SM counts above this are planned as this many (bounds the workspace any device can ask for).
  static constexpr int kMaxSmCount = 512;
  // Blocks of one block-per-row launch, a row each (rows beyond it take further launches).
  static constexpr std::int64_t kMaxBlockGrid = std::int64_t{1} << 30;
  // Bytes of one vector load.
  static constexpr int kVecBytes = 16;
  // Rows of at most this many columns are walked with 32-bit column numbers (fewer instructions a
  // vector; on an H100 float argmin at 4096 columns 0.5% faster, probe of session 21); the bound
  // leaves room for a thread's last batch to step past the row without overflowing.
  static constexpr std::int64_t kMaxInt32Cols = std::int64_t{1} << 30;
};
static_assert((1 << RowTuning::kLog2Threads) == RowTuning::kThreads, "log2 matches");
static_assert((RowTuning::kLongThreads & (RowTuning::kLongThreads - 1)) == 0 && RowTuning::kLongThreads % 32 == 0,
              "whole warps, a power of two (the chain's tree depth is log2_of(threads))");
static_assert(RowTuning::kThreads % 32 == 0, "whole warps");
static_assert(RowTuning::kMaxInt32Cols >= RowTuning::kVeryLongCols,
              "only kVeryLongThreads blocks (and split rows) ever see rows past 32-bit column numbers");
static_assert(RowTuning::kMaxSplits <= std::int64_t{RowTuning::kThreads} * 64, "the combine's chain stays short");

enum class RowPath {
  none,           // rows == 0: nothing is written
  lane_group,     // a group of `lanes` lanes per row, many rows per block (also cols == 0)
  block_per_row,  // one block (`threads` wide) per row, 16-byte loads where the row's address allows
  split_row,      // `splits` blocks per row write partials; a combine kernel reduces them in split order
};

struct RowPlan {
  RowPath path = RowPath::none;
  int lanes = 0;                      // lane_group: lanes per row (1, 2, 4, 8, 16 or 32)
  bool group_vectors = false;         // lane_group: rows read in 16-byte vectors (group_reads_vectors)
  int threads = RowTuning::kThreads;  // threads per block of the main kernel (block_per_row: block_threads)
  std::int64_t splits = 1;            // split_row: blocks per row (>= RowTuning::kMinSplits)
  std::int64_t split_cols = 0;        // split_row: columns per split (a multiple of 4; the last may be short)
  std::int64_t grid = 0;              // blocks of the main kernel
  std::size_t workspace = 0;          // bytes of partials (split_row only)
};

// The SM count a plan uses: the device's, clamped to [1, kMaxSmCount]; <= 0 (unknown, e.g. the
// workspace query) plans for the largest device.
constexpr std::int64_t planning_sm_count(int sm_count) {
  return sm_count <= 0 ? RowTuning::kMaxSmCount
                       : (sm_count > RowTuning::kMaxSmCount ? RowTuning::kMaxSmCount : sm_count);
}

// Lanes per row for cols columns, about per_lane a lane: the power of two near cols / per_lane, in
// [1, 32].
constexpr int group_lanes(std::int64_t cols, std::int64_t per_lane = RowTuning::kGroupItemsPerLane) {
  int lanes = 1;
  while (lanes < 32 && std::int64_t{lanes} * per_lane < cols) lanes *= 2;
  return lanes;
}

// What a row operator does with each element, as far as its plan goes: sums add it, min / max /
// argmin / argmax compare it (select), the per-row top-2 inserts it into a pair.
enum class RowWork { sum, select, top2 };

// Whether lane groups may read rows of elem_bytes-wide elements in 16-byte vectors: 2- and 4-byte
// elements. Not 8-byte ones: on an H200, double and int64 sums at 64-256 columns took 4.7-7.5% more
// time in vectors, two a lane, than one element at a time, four a lane (session 34, run CO); half and
// bfloat16 argmin, min and sums took 8-67% less time at 128-1024 columns (runs CO and CQ).
constexpr bool group_vector_element(std::size_t elem_bytes) { return elem_bytes == 2 || elem_bytes == 4; }

// Elements of elem_bytes in one 16-byte vector.
constexpr std::int64_t per_vector(std::size_t elem_bytes) {
  return RowTuning::kVecBytes / static_cast<std::int64_t>(elem_bytes);
}

// The longest rows of elem_bytes-wide elements the lane-group path takes: 32 lanes of
// kGroupVectorsPerLane vectors where the groups read vectors, kGroupMaxCols otherwise.
constexpr std::int64_t group_max_cols(std::size_t elem_bytes) {
  return group_vector_element(elem_bytes) ? 32 * RowTuning::kGroupVectorsPerLane * per_vector(elem_bytes)
                                          : RowTuning::kGroupMaxCols;
}

// Which rows a lane group reads in vectors (longer than min_bytes), and its fewest lanes then.
struct GroupVectorRule {
  std::int64_t min_bytes;
  int min_lanes;
};
// RowTuning's rule for work on elements elem_bytes wide: sums of 4-byte elements past 64 bytes with a
// lane per element of a vector; the per-row top-2 past 64 bytes; the others past 32 bytes; both down to
// one lane.
constexpr GroupVectorRule group_vector_rule(RowWork work, std::size_t elem_bytes) {
  if (work == RowWork::sum && elem_bytes == 4) return {RowTuning::kGroupVectorMinBytes, RowTuning::kGroupMinLanesSum4};
  if (work == RowWork::top2) return {RowTuning::kGroupVectorMinBytes, 1};
  return {RowTuning::kGroupVectorMinBytesSelect, 1};
}

// Whether lane groups read rows of cols elements elem_bytes wide in 16-byte vectors for work: 2- and
// 4-byte elements, rows longer than the rule's bytes.
constexpr bool group_reads_vectors(std::int64_t cols, RowWork work, std::size_t elem_bytes) {
  return group_vector_element(elem_bytes) &&
         cols * static_cast<std::int64_t>(elem_bytes) > group_vector_rule(work, elem_bytes).min_bytes;
}

// Lanes a row of cols elements elem_bytes wide gets on the lane-group path: for vector reads, about
// kGroupVectorsPerLane vectors a lane, at least the rule's lanes (thread_range loops over the head and
// tail of a group narrower than a vector); otherwise about kGroupItemsPerLane elements a lane.
constexpr int group_lanes_for(std::int64_t cols, RowWork work, std::size_t elem_bytes) {
  if (!group_reads_vectors(cols, work, elem_bytes)) return group_lanes(cols, RowTuning::kGroupItemsPerLane);
  const int lanes = group_lanes(cols, RowTuning::kGroupVectorsPerLane * per_vector(elem_bytes));
  const int min_lanes = group_vector_rule(work, elem_bytes).min_lanes;
  return lanes < min_lanes ? min_lanes : lanes;
}

// block_threads' columns a thread for work other than sums (sum_block_threads): kTop2ColsPerThread for
// the per-row top-2, kHalfColsPerThread for the others on 2-byte elements, kColsPerThread otherwise.
constexpr std::int64_t row_cols_per_thread(RowWork work, std::size_t elem_bytes = 4) {
  return work == RowWork::top2 ? RowTuning::kTop2ColsPerThread
         : elem_bytes == 2     ? RowTuning::kHalfColsPerThread
                               : RowTuning::kColsPerThread;
}

// The largest power of two in [kMinBlockThreads, most] that leaves each thread `share` of `amount` or
// more (kMinBlockThreads when even that many would get less): block_threads' columns, sum_block_threads'
// bytes.
constexpr int threads_with_share(std::int64_t amount, std::int64_t share, int most) {
  int t = RowTuning::kMinBlockThreads;
  while (t < most && std::int64_t{t} * 2 * share <= amount) t *= 2;
  return t;
}

// Threads of the block-per-row kernel on rows of cols columns: kVeryLongThreads from kVeryLongCols,
// kLongThreads from kLongCols, else the largest power of two in [kMinBlockThreads, kThreads] that leaves
// each thread cols_per_thread columns or more (kMinBlockThreads on shorter rows). Sums take
// sum_block_threads instead (row_block_threads).
constexpr int block_threads(std::int64_t cols, std::int64_t cols_per_thread = RowTuning::kColsPerThread) {
  if (cols >= RowTuning::kVeryLongCols) return RowTuning::kVeryLongThreads;
  if (cols >= RowTuning::kLongCols) return RowTuning::kLongThreads;
  return threads_with_share(cols, cols_per_thread, RowTuning::kThreads);
}

// Threads of the block-per-row kernel on a sum of rows of cols elements elem_bytes wide:
// kVeryLongThreads from kLongSumMinBytes a row (and from kVeryLongCols columns, which only
// kVeryLongThreads blocks walk past 32-bit column numbers), else the largest power of two in
// [kMinBlockThreads, kLongThreads] that leaves each thread kSumBytesPerThread bytes or more.
constexpr int sum_block_threads(std::int64_t cols, std::size_t elem_bytes) {
  if (cols >= RowTuning::kVeryLongCols) return RowTuning::kVeryLongThreads;
  const std::int64_t bytes = cols * static_cast<std::int64_t>(elem_bytes);
  if (bytes >= RowTuning::kLongSumMinBytes) return RowTuning::kVeryLongThreads;
  return threads_with_share(bytes, RowTuning::kSumBytesPerThread, RowTuning::kLongThreads);
}

// Threads of the block-per-row kernel for work on rows of cols elements elem_bytes wide: sums by bytes
// (sum_block_threads), the others by columns (block_threads with row_cols_per_thread).
constexpr int row_block_threads(std::int64_t cols, RowWork work, std::size_t elem_bytes) {
  return work == RowWork::sum ? sum_block_threads(cols, elem_bytes)
                              : block_threads(cols, row_cols_per_thread(work, elem_bytes));
}

// 256-byte rounding of the partials, so a caller's workspace can be carved after them later.
constexpr std::size_t round_up_256(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

// The plan for a valid rows x cols reduction whose per-thread accumulator is acc_bytes wide, on a
// device with sm_count SMs (<= 0: unknown, planned as the largest), for work on elements elem_bytes
// wide (the lane groups' vector rule, block_threads' columns a thread).
constexpr RowPlan make_row_plan(std::int64_t rows, std::int64_t cols, std::size_t acc_bytes, int sm_count,
                                RowWork work = RowWork::sum, std::size_t elem_bytes = 4) {
  RowPlan p{};
  if (rows <= 0) return p;
  const std::int64_t sms = planning_sm_count(sm_count);
  if (cols <= group_max_cols(elem_bytes)) {
    p.path = RowPath::lane_group;
    p.group_vectors = group_reads_vectors(cols, work, elem_bytes);
    p.lanes = group_lanes_for(cols, work, elem_bytes);
    const std::int64_t rows_per_block = std::int64_t{RowTuning::kThreads} / p.lanes;
    const std::int64_t blocks = rows / rows_per_block + (rows % rows_per_block != 0 ? 1 : 0);
    p.grid = min_of<std::int64_t>(blocks, sms * RowTuning::kGroupBlocksPerSm);
    return p;
  }
  const std::int64_t fill = sms * RowTuning::kBlocksPerSm;
  std::int64_t splits = 1;
  std::int64_t per = cols;
  if (rows < fill) {
    const std::int64_t by_fill = fill / rows;  // rows * splits <= fill: one wave of blocks
    const std::int64_t by_cols = cols / RowTuning::kMinColsPerSplit;
    splits = min_of(min_of(by_fill, by_cols), RowTuning::kMaxSplits);
  }
  if (splits >= RowTuning::kMinSplits) {
    // Split boundaries on multiples of 4 columns; recount so that no split is empty.
    per = cols / splits + (cols % splits != 0 ? 1 : 0);
    per = round_up<std::int64_t>(per, 4);
    splits = cols / per + (cols % per != 0 ? 1 : 0);
  }
  if (splits >= RowTuning::kMinSplits) {
    p.path = RowPath::split_row;
    p.splits = splits;
    p.split_cols = per;
    p.grid = rows * splits;
    p.workspace = round_up_256(static_cast<std::size_t>(rows * splits) * acc_bytes);
    return p;
  }
  p.path = RowPath::block_per_row;
  p.threads = row_block_threads(cols, work, elem_bytes);
  p.grid = min_of(rows, RowTuning::kMaxBlockGrid);
  return p;
}

// Longest chain of sequential additions one thread makes in the main kernel of a float sum (the error
// bound's "items per thread"), the depth of the tree after it, and the passes.
struct RowSumChain {
  std::int64_t items = 0;
  int tree_log2 = 0;
  int passes = 1;
};

constexpr int log2_of(std::int64_t pow2) {
  int l = 0;
  while ((std::int64_t{1} << l) < pow2) ++l;
  return l;
}

// Items one thread of `threads` adds in thread_range over len columns, at most: a scalar head (one
// item), vectors of at most 8 items, a scalar tail (one item).
constexpr std::int64_t range_chain_items(std::int64_t len, std::int64_t threads) {
  return len / threads + 8 + 2 * ((7 + threads - 1) / threads);
}

constexpr RowSumChain row_sum_chain(const RowPlan& p, std::int64_t cols) {
  RowSumChain c{};
  const std::int64_t t = RowTuning::kThreads;
  switch (p.path) {
    case RowPath::none: break;
    case RowPath::lane_group:
      // Vector reads: as a block per row of `lanes` threads; else one at a time, a lane at most
      // ceil(cols / lanes).
      c.items = p.group_vectors ? range_chain_items(cols, p.lanes) : cols / p.lanes + 1;
      c.tree_log2 = log2_of(p.lanes);
      break;
    case RowPath::block_per_row:
      c.items = range_chain_items(cols, p.threads);
      c.tree_log2 = log2_of(p.threads);
      break;
    case RowPath::split_row:
      // One split like a row, then the combine: a chain of splits / kThreads partials and a block tree.
      c.items = range_chain_items(p.split_cols, t) + p.splits / t + 1;
      c.tree_log2 = 2 * RowTuning::kLog2Threads;
      c.passes = 2;
      break;
  }
  return c;
}

}  // namespace gpuprims::reduce::detail
