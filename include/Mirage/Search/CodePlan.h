//===- CodePlan.h - What the generated code does with tiles -----*- C++ -*-===//
//
// The decisions of the GPU lowering that set how fast a kernel can stream:
// the chunk each tile copy moves (16, 8 or 4 bytes, or one element) and the
// depth of the cp.async pipeline of walked tiles. The lowering
// (lib/Conversion) emits them and the cost model (KernelCost.h) prices them,
// from this one definition, so the model cannot credit a kernel with
// bandwidth its code cannot draw (docs/codegen.md).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SEARCH_CODEPLAN_H
#define MIRAGE_SEARCH_CODEPLAN_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace mirage::search {

/// How a tile moves between shared memory and a device tensor: the trailing
/// dims that are contiguous in both memories merged into one row, and the
/// elements per chunk (one vector load, vector store or cp.async).
struct TileCopy {
  /// The first merged dim (rank - 1: none merged). Dims after it span their
  /// whole device dim, so the tile's rows from it on are consecutive in the
  /// device tensor too.
  int64_t mergeFrom = 0;
  /// The tile and device shapes with the merged dims as one; a merged dim
  /// with a dynamic dim in it is dynamic (negative) in `global`.
  llvm::SmallVector<int64_t, 4> tile, global;
  /// The widest of 16, 8 and 4 bytes that divides both merged rows, in
  /// elements; 1 if none does (an element at a time).
  int64_t chunk = 1;
  /// A copy through a view (planViewCopy): the longest run, in elements, of
  /// consecutive logical elements along the last dim that the view keeps
  /// consecutive and aligned in the device tensor (at most 16 bytes); 0
  /// for a copy of a row-major device tensor.
  int64_t viewRun = 0;
};

/// The copy of a tile of shape `tile` of a device tensor of shape `global`
/// whose elements take `elementBytes` bytes. Device tensors are assumed
/// 16-byte aligned. A dynamic device dim (negative, ShapedType::kDynamic)
/// is planned for every size it may take.
TileCopy planTileCopy(llvm::ArrayRef<int64_t> tile,
                      llvm::ArrayRef<int64_t> global, int64_t elementBytes);

/// The copy of a tile of shape `tile` of a logical tensor of shape
/// `logical` that a view (mb::StridedView) maps into its device tensor.
/// `contiguousRun(maxElems)` is the view's StridedView::contiguousRun: a
/// chunk is the widest of 16, 8 and 4 bytes that divides the tile's last
/// dim and fits in that run; no dims are merged (the view decides where
/// the rows lie). The one rule by which the lowering copies viewed tiles
/// and the cost model prices them.
TileCopy planViewCopy(llvm::ArrayRef<int64_t> tile,
                      llvm::ArrayRef<int64_t> logical, int64_t elementBytes,
                      llvm::function_ref<int64_t(int64_t)> contiguousRun);

/// The bytes of a shared-memory slot holding `bytes` bytes of a tile: every
/// slot starts 16-byte aligned, so 16-byte copies and ldmatrix rows line up.
inline int64_t sharedSlotBytes(int64_t bytes) { return (bytes + 15) / 16 * 16; }

//===----------------------------------------------------------------------===//
// Shared-memory layout and bank conflicts
//===----------------------------------------------------------------------===//

/// Shared memory has 32 banks of 4-byte words; a warp's request is served
/// in wavefronts, each of which reads or writes at most one word per bank
/// (lanes reading the same word share it). 16-byte accesses (ldmatrix rows,
/// 16-byte cp.async and vector stores) go in 4 phases of 8 lanes, 8-byte
/// ones in 2 phases of 16, narrower ones in one phase of 32.
constexpr int64_t kSharedBanks = 32;
constexpr int64_t kSharedBankBytes = 4;
/// The unit the swizzle moves and a padded row is padded by: one ldmatrix
/// row, one 16-byte copy chunk.
constexpr int64_t kSharedUnitBytes = 16;

/// Where the elements of a tile sit in its shared-memory slot. Row `r`
/// (the tile's last dim, `rowElems` elements) starts at element
/// `r * rowPitch`; column `col` of it sits at `col`, or in a swizzled tile
/// at `col ^ (((r >> rowShift) & xorMask) * unitElems)`. Two ways to keep
/// the 8 rows an ldmatrix phase reads at one column (which row-major, with
/// a row pitch of 128 bytes or any multiple, all hit the same 4 banks) on 8
/// different 16-byte bank groups:
/// - padding (rows of a multiple of 128 bytes): rowPitch = rowElems + one
///   16-byte unit, so consecutive rows start 4 banks apart. An element's
///   offset stays linear in its row and column: the k steps of a
///   tensor-core matmul are constant offsets from one address, which the
///   PTX folds into immediates. The slot grows by 16 bytes a row
///   (sharedTileBytes: the one size the search, the lowering and the cost
///   model count). A copy's 8-lane phase of 16-byte chunks (128 bytes)
///   never straddles a row, so copies stay conflict-free.
/// - the XOR swizzle (rows of 32 or 64 bytes): it permutes the units of a
///   row among themselves (no padding; 16-byte units stay whole, so
///   ldmatrix rows and cp.async chunks do), where a padded pitch could not
///   serve both access patterns (an odd number of units a row frees
///   ldmatrix but splits a copy's 8-lane phase over a gap; an even one does
///   the reverse).
struct SharedLayout {
  /// Elements per row, between the starts of consecutive rows, and per
  /// 16-byte unit.
  int64_t rowElems = 1;
  int64_t rowPitch = 1;
  int64_t unitElems = 1;
  /// 0: no swizzle.
  int64_t xorMask = 0;
  /// log2 of the rows that share one 128-byte line (rows under 128 bytes).
  int64_t rowShift = 0;
  bool swizzled() const { return xorMask != 0; }
  bool padded() const { return rowPitch != rowElems; }
  /// Whether an element's place differs from its row-major one.
  bool plain() const { return !swizzled() && !padded(); }
};

/// The layout of a tile of `shape` with elements of `elementBytes` bytes.
/// A tile read across its rows (`readAcrossRows`: the operands of tensor-core
/// matmuls, read by ldmatrix phases of 8 rows and by scalar fragments of
/// 8 rows) with at least two rows of whole 16-byte units is padded when
/// its rows are a multiple of 128 bytes, and swizzled when they are 32 or
/// 64 bytes: xorMask = units - 1 and rowShift = log2(8 / units), so that
/// any 8 consecutive rows put a given unit on 8 different 16-byte bank
/// groups. Other rows (16 bytes: 8 rows already span all banks; 48, 96,
/// ... bytes) stay row-major; the bank rule below prices what conflicts
/// remain.
SharedLayout planSharedLayout(llvm::ArrayRef<int64_t> shape,
                              int64_t elementBytes, bool readAcrossRows);

/// The element offset in its slot of the element of row-major index
/// `linear` of a tile laid out by `layout`: the address function every
/// integer analysis uses (the lowering builds the same arithmetic in IR,
/// KernelEmitter::sharedAccess).
int64_t sharedElementOffset(const SharedLayout &layout, int64_t linear);

/// The bytes of the shared-memory slot of a tile of `elements` elements of
/// `elementBytes` bytes laid out by `layout` (padded rows included),
/// 16-byte aligned.
int64_t sharedTileBytes(const SharedLayout &layout, int64_t elements,
                        int64_t elementBytes);

/// Wavefronts a set of warp accesses takes and the fewest it could take.
struct BankCost {
  int64_t wavefronts = 0;
  int64_t ideal = 0;
  BankCost &operator+=(const BankCost &o) {
    wavefronts += o.wavefronts;
    ideal += o.ideal;
    return *this;
  }
  /// Wavefronts over the conflict-free count (1: no conflict).
  double degree() const {
    return ideal > 0
               ? static_cast<double>(wavefronts) / static_cast<double>(ideal)
               : 1.0;
  }
  /// The replays conflicts add.
  int64_t extra() const { return wavefronts - ideal; }
};

/// The static bank rule: the wavefronts of one warp instruction whose lane
/// `l` accesses `width` bytes (1 to 16) at shared-memory byte address
/// `laneBytes[l]` (negative: the lane takes no part). Per phase (see
/// kSharedBanks) the wavefronts are the most distinct words any bank must
/// serve; ideal is one per phase with an active lane (every phase moves at
/// most 128 bytes).
BankCost sharedAccessCost(llvm::ArrayRef<int64_t> laneBytes, int64_t width);

/// Whether a tile matmul with `m` result rows runs on m16n8k16 with its
/// operand roles swapped (C^T = W^T X^T: n fills the mma's 16 rows, the few
/// rows of a decode matmul its 8 columns; docs/codegen.md).
inline bool mmaSwapsOperands(int64_t m) { return m % 16 != 0; }

/// Whether a tile matmul of an [.., m, k] by [.., k, n] f16 product fits
/// m16n8k16 (plain: m a multiple of 16 and n of 8; swapped: n of 16), k a
/// multiple of 16.
bool mmaFitsShape(int64_t m, int64_t n, int64_t k);

/// Whether a tile matmul of `lhs` [.., m, k] by `rhs` [.., k, n] (one batch
/// dim at most) has a shape the lowering runs on tensor cores when its
/// operands are f16 tiles (KernelEmitter::fitsMma): the tiles whose layout
/// planSharedLayout plans with readAcrossRows.
bool mmaFitsTiles(llvm::ArrayRef<int64_t> lhs, llvm::ArrayRef<int64_t> rhs);

/// The shared-memory reads of one tensor-core matmul of an `lhs` [.., m, k]
/// by `rhs` [.., k, n] f16 tile pair laid out by `lhsLayout` and
/// `rhsLayout`, with the lane addressing of KernelEmitterMma.cpp: per
/// 16x8 result tile and 16-wide k step, ldmatrix.x4 of A (lane l: row
/// l % 16, column block l / 16) and ldmatrix.x2.trans of B (lane l: row
/// l % 16); with swapped roles, ldmatrix.x4.trans of W (lane l: row
/// l % 8 + 8 (l / 16), column block (l / 8) % 2) and four 2-byte loads
/// of X per lane (row g = l / 4 clamped to m - 1, columns 2 (l % 4) + 0, 1,
/// 8, 9). Summed over every instruction of the block.
BankCost mmaSharedCost(llvm::ArrayRef<int64_t> lhs, llvm::ArrayRef<int64_t> rhs,
                       const SharedLayout &lhsLayout,
                       const SharedLayout &rhsLayout);

/// The shared-memory side of a tile copy (`plan`, elements of
/// `elementBytes` bytes) into or out of a tile laid out by `layout`:
/// consecutive lanes move consecutive chunks of the merged tile
/// (KernelEmitterCopies.cpp, forEachChunk), 32 chunks per warp
/// instruction. Summed over the tile.
BankCost copySharedCost(const TileCopy &plan, const SharedLayout &layout,
                        int64_t elementBytes);

/// Whether an input tile is copied anew in every iteration of the kernel's
/// for-loop (`walked`: its iterator has an fmap) of `forloop` iterations;
/// otherwise the lowering loads it once, before the loop.
inline bool tileWalksLoop(bool walked, int64_t forloop) {
  return walked && forloop > 1;
}

/// The narrowest chunk cp.async moves (4, 8 or 16 bytes): a tile whose
/// chunk is narrower is copied synchronously.
constexpr int64_t kMinAsyncCopyBytes = 4;

/// Most buffers of a walked tile's cp.async pipeline.
constexpr int64_t kMaxPipelineStages = 4;

/// The pipeline depth the lowering picks for a kernel whose loop has
/// `forloop` iterations and whose shared memory with `s` buffers per walked
/// tile is `smemFor(s)`: the most stages (at most kMaxPipelineStages and
/// `forloop`) that fit in `limit` bytes (the kernel's mk.smem_limit, itself
/// at most what one block may use); 1 (no pipeline) if only that fits, 0 if
/// not even that does.
int64_t choosePipelineStages(int64_t forloop, int64_t limit,
                             llvm::function_ref<int64_t(int64_t)> smemFor);

/// Lanes of a warp: the widest butterfly of warp shuffles.
constexpr int64_t kWarpSize = 32;

/// How a block of `threads` threads reduces `rows` rows of `count`
/// elements each (rms_norm's sum of squares, reduce_sum / reduce_max, the
/// row sums of sum_last / mean_last / rms_last / sum_to accumulators).
/// Every thread reduces a strided part of a row in registers, then a
/// butterfly of `gpu.shuffle xor` (`shfl.sync.bfly`) combines the lanes
/// that share the row:
/// - a segment of `groupSize` lanes (a power of two, at most a warp) per
///   row, rows in rounds of ceil(threads / groupSize): no shared memory;
/// - or, when there are too few rows to give each a warp and a row is
///   longer than a warp (`wholeBlock`), every thread on every row, one
///   butterfly per warp and row, then one shared-memory step across the
///   warps (`partialBytes`: an f32 per row and warp).
struct RowReducePlan {
  int64_t groupSize = 1;
  bool wholeBlock = false;
  /// Shuffle rounds per row: log2 of the lanes of a butterfly.
  int64_t shuffleSteps = 0;
  /// Shared memory of the warps' partial results (whole-block plans).
  int64_t partialBytes = 0;
};

RowReducePlan planRowReduction(int64_t rows, int64_t count, int64_t threads);

/// The rows one thread of a block of `threads` takes part in under `plan`
/// (its strided parts of them): every row for whole-block plans, else one
/// per round.
int64_t rowPartsPerThread(const RowReducePlan &plan, int64_t rows,
                          int64_t threads);

/// Most accumulator values one thread keeps in registers with
/// `register-accumulators` (the GPU pipelines): elements of an element-wise
/// accumulator, or its parts of the rows of a row-sum accumulator
/// (sum_last, mean_last, rms_last, sum_to), which are then reduced once,
/// after the loop, instead of in every iteration. More stay in shared
/// memory.
constexpr int64_t kMaxRegisterAccumElems = 16;

} // namespace mirage::search

#endif // MIRAGE_SEARCH_CODEPLAN_H
