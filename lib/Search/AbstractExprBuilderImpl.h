//===- AbstractExprBuilderImpl.h - Terms of mk/mb/mt programs --*- C++ -*-===//
//
// Private to lib/Search: the state of an AbstractExprBuilder (AbstractExpr.h)
// while it walks a function. Its helpers on axes and dims are in
// AbstractExprBuilder.cpp, the terms of single ops in AbstractExprOps.cpp,
// those of graph-defined kernels, loops, accumulators and thread graphs in
// AbstractExprKernels.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_SEARCH_ABSTRACTEXPRBUILDERIMPL_H
#define MIRAGE_LIB_SEARCH_ABSTRACTEXPRBUILDERIMPL_H

#include "Mirage/Search/AbstractExpr.h"

#include "Mirage/Dialect/Block/IR/Block.h"
#include "Mirage/Dialect/Thread/IR/Thread.h"
#include "Mirage/Interfaces/MirageInterfaces.h"
#include "llvm/ADT/DenseMap.h"

namespace mirage::search {

constexpr uint32_t kNoAxis = AxisSpace::kNoAxis;

/// Raw axis as stored in the scratch terms: axis + 1, 0 for none.
inline uint32_t scratchLabel(uint32_t axis) {
  return axis == kNoAxis ? 0 : axis + 1;
}

inline llvm::ArrayRef<int64_t> shapeOf(mlir::Value v) {
  return mlir::cast<mlir::RankedTensorType>(v.getType()).getShape();
}

struct AbstractExprBuilder::Impl {
  using Id = TermBuilder::Id;
  Impl(AxisSpace &axes) : axes(axes) {}

  RecExpr scratch;
  TermBuilder tb{scratch};
  AxisSpace &axes;
  llvm::DenseMap<mlir::Value, AbstractValue> values;
  /// Graph-kernel context: for-loop iterations, the axis the loop walks,
  /// grid dims and, per grid dim, the axis its blocks partition.
  int64_t forloop = 1;
  uint32_t loopAxis = kNoAxis;
  llvm::SmallVector<int64_t, 3> grid;
  uint32_t gridAxis[3] = {kNoAxis, kNoAxis, kNoAxis};

  mlir::LogicalResult visitBlock(mlir::Block &block);
  mlir::LogicalResult visitOp(mlir::Operation *op);
  mlir::LogicalResult visitGraphKernel(mlir::Operation *op, GraphKernelOpInterface kernel);
  mlir::LogicalResult visitForLoop(mb::ForLoopOp loop);
  mlir::LogicalResult visitThreadGraph(mt::ThreadGraphOp op);
  mlir::LogicalResult visitAccumulator(AccumulatorOpInterface acc);

  mlir::FailureOr<AbstractValue> get(mlir::Operation *op, mlir::Value v);

  /// Merges adjacent parts of one axis: [(K, 256), (K, 24)] is (K, 6144).
  void normalize(DimAxes &dim);

  /// Identifies the axes of two dims that are one index (the contracted dims
  /// of a matmul, non-broadcast dims of an element-wise op).
  void unite(DimAxes a, DimAxes b);

  /// Splits the outermost `factor` off `dim` (the part a grid dim or the
  /// loop walks) and returns its axis.
  uint32_t splitOuter(DimAxes &dim, int64_t factor);

  /// Sum (or max) over every part of `dim`.
  Id reduceDim(const DimAxes &dim, Id x, bool isMax = false);

  /// The input of an input iterator as its view presents it: a logical dim
  /// that is a permutation or a merge of whole device dims (its digits, from
  /// the outermost, each one whole device dim) has their parts in that order;
  /// any other (a split of a device dim, a broadcast, GQA's floordiv) is an
  /// index no axis describes, and is forgotten (conservative, as splitOuter).
  AbstractValue viewed(mb::InputIterOp it, const AbstractValue &in);

  /// The tile of an input iterator: dims split by the grid, then by the
  /// loop. Reports the axes the grid dims and the loop walk.
  llvm::SmallVector<DimAxes, 4> tileOf(const AbstractValue &in,
                                 llvm::ArrayRef<int64_t> imap, int64_t fmap,
                                 uint32_t walkedByGrid[3],
                                 uint32_t &walkedByLoop);

  /// Dims of an element-wise result: dims that are not broadcast are one
  /// index, so they are identified.
  llvm::SmallVector<DimAxes, 4> broadcast(llvm::ArrayRef<AbstractValue> args, size_t rank);

  /// The term of scalar function `kind` applied to `args`.
  Id elementwise(ElementwiseKind kind, llvm::ArrayRef<double> params,
                 llvm::ArrayRef<Id> args);

  /// Sum of a body value over the loop iterations: over the walked axis if
  /// the value changes with the iteration, F copies of it otherwise.
  Id loopSum(const AbstractValue &v, Id t);

  Id loopMax(const AbstractValue &v, Id t);
};

} // namespace mirage::search

#endif // MIRAGE_LIB_SEARCH_ABSTRACTEXPRBUILDERIMPL_H
