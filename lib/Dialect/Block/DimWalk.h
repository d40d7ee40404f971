//===- DimWalk.h - Which dim of each tile runs along a dim ------*- C++ -*-===//
//
// Follows one dim of a kernel's tensors through a block graph: which dim of
// each tile runs along it, and what a tile holds past its end. Two users:
// the walked tail of a loop (LoopTail.cpp: the dim the loop walks, through
// the loop body; the reductions across it ask for masks) and the dim a grid
// dim partitions (GridPartition.cpp: through the whole block graph; an op
// that combines elements along it makes the blocks depend on each other).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_DIALECT_BLOCK_DIMWALK_H
#define MIRAGE_LIB_DIALECT_BLOCK_DIMWALK_H

#include "Mirage/Dialect/Block/IR/Block.h"

#include "llvm/ADT/DenseMap.h"

namespace mirage::mb::detail {

/// What a tile holds past the end of the followed dim.
enum class Pad { Unknown, Zero, NegInf };

/// The fill of mb.tail_mask that gives `pad`.
double fillOf(Pad pad);

struct Tracked {
  /// The tile's dim that runs along the followed dim, or -1.
  int64_t dim = -1;
  Pad pad = Pad::Unknown;
};

/// Walks a block graph in order. For an operand that an op reduces across
/// the followed dim without its identity past the end, calls `need(operand,
/// dim, pad)`; for an op that a tail or a partition would make wrong
/// whatever the operands hold, `unsupported(op, why)`. Stops at the first
/// callback that fails.
class DimWalk {
public:
  enum class Mode {
    /// The dim a loop walks, over the loop body: each trip holds a tile
    /// of it, the accumulators sum across it, mb.tail_mask marks its tail.
    LoopWalk,
    /// A dim a grid dim partitions, over the whole block graph (the loop
    /// body, then its results): the accumulators sum the trips of another
    /// dim; a saver writes it where the grid dim maps.
    GridPartition,
  };
  using SeedFn = llvm::function_ref<Tracked(InputIterOp)>;
  using NeedFn =
      llvm::function_ref<mlir::LogicalResult(mlir::OpOperand &, int64_t, Pad)>;
  using FailFn = llvm::function_ref<mlir::LogicalResult(mlir::Operation *,
                                                        const llvm::Twine &)>;

  /// `seed` says which dim of an input iterator's tile runs along the
  /// followed dim (-1: none) and what it reads past the end; `gridDim` is
  /// the partitioning grid dim (GridPartition only).
  DimWalk(Mode mode, SeedFn seed, NeedFn need, FailFn unsupported,
          int64_t gridDim = -1)
      : mode(mode), gridDim(gridDim), seed(seed), need(need),
        unsupported(unsupported) {}

  /// Visits the ops of `block` in order (a loop's body, or a kernel's).
  mlir::LogicalResult run(mlir::Block &block);

private:
  Tracked of(mlir::Value v) const { return tracked.lookup(v); }
  /// The followed dim in diagnostics.
  llvm::StringRef followed() const {
    return mode == Mode::LoopWalk ? "the walked dim" : "the partitioned dim";
  }
  mlir::LogicalResult require(mlir::OpOperand &operand, int64_t dim, Pad pad);
  mlir::LogicalResult visit(mlir::Operation &op);
  mlir::LogicalResult visitLoop(ForLoopOp loop);
  mlir::LogicalResult visitSaver(OutputSaverOp saver);
  mlir::LogicalResult visitElementwise(mlir::Operation &op);
  mlir::LogicalResult visitMatmul(MatmulOp mm);
  mlir::LogicalResult visitAccumulator(AccumulatorOpInterface acc);

  Mode mode;
  int64_t gridDim;
  SeedFn seed;
  NeedFn need;
  FailFn unsupported;
  llvm::DenseMap<mlir::Value, Tracked> tracked;
};

} // namespace mirage::mb::detail

#endif // MIRAGE_LIB_DIALECT_BLOCK_DIMWALK_H
