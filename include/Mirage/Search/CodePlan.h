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
  /// The tile and device shapes with the merged dims as one.
  llvm::SmallVector<int64_t, 4> tile, global;
  /// The widest of 16, 8 and 4 bytes that divides both merged rows, in
  /// elements; 1 if none does (an element at a time).
  int64_t chunk = 1;
};

/// The copy of a tile of shape `tile` of a device tensor of shape `global`
/// whose elements take `elementBytes` bytes. Device tensors are assumed
/// 16-byte aligned.
TileCopy planTileCopy(llvm::ArrayRef<int64_t> tile,
                      llvm::ArrayRef<int64_t> global, int64_t elementBytes);

/// The bytes of a shared-memory slot holding `bytes` bytes of a tile: every
/// slot starts 16-byte aligned, so 16-byte copies and ldmatrix rows line up.
inline int64_t sharedSlotBytes(int64_t bytes) { return (bytes + 15) / 16 * 16; }

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
