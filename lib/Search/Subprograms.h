//===- Subprograms.h - The partition's ops, orders and intervals -*- C++
//-*-===//
//
// Private to lib/Search. What the partitioned search (Partition.cpp) cuts:
// the function's ops other than those left between subprograms (layout ops,
// conversions), their dependences and topological orders, and an interval
// of ops outlined into a function of its own, with its boundary and
// canonical text (docs/partitioning.md, "The method" and "Conversions").
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_SEARCH_SUBPROGRAMS_H
#define MIRAGE_LIB_SEARCH_SUBPROGRAMS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace mirage::search::detail {

/// The function's ops and their dependences (distinct producer positions).
struct OpGraph {
  llvm::SmallVector<mlir::Operation *> ops;
  llvm::SmallVector<llvm::SmallVector<unsigned, 2>> preds;
};

/// One interval outlined into a function `@subprogram` of its own module.
struct Outlined {
  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::func::FuncOp func;
  /// Bytes of its arguments and results in their storage types (the
  /// compulsory traffic).
  double bytes = 0;
  /// The canonical text: the function printed with generic value names,
  /// and the storage types of its boundary where they are not its element
  /// type.
  std::string text;
};

/// The ops the partition covers: all but layout ops and conversions.
llvm::SmallVector<mlir::Operation *> partitionedOps(mlir::Block &body);

/// The op that computes `v` through the ops left between subprograms (null
/// for an argument).
mlir::Operation *producerThrough(mlir::Value v);

/// The value `v` converts, through a chain of conversions, when an op of
/// `inside` computes it; otherwise `v`.
mlir::Value
throughConversions(mlir::Value v,
                   const llvm::SmallPtrSetImpl<mlir::Operation *> &inside);

/// The partitioned ops of `body` and their dependences.
OpGraph buildGraph(mlir::Block &body);

/// The body's order, then the breadth and depth orders, without repeats.
llvm::SmallVector<llvm::SmallVector<unsigned>>
topologicalOrders(const OpGraph &g);

/// The values defined outside `ops` and used inside (by first use), and the
/// results used outside or returned; conversions between the ops are
/// neither.
void boundary(llvm::ArrayRef<mlir::Operation *> ops,
              llvm::SmallVectorImpl<mlir::Value> &inputs,
              llvm::SmallVectorImpl<mlir::Value> &outputs);

/// `ops` and the conversions between them: what a splice erases once their
/// outputs are replaced.
llvm::SmallVector<mlir::Operation *>
withConversionsBetween(llvm::ArrayRef<mlir::Operation *> ops);

/// Erases the ops of `dead` that have no use left, users first; the erased
/// entries become null.
void eraseUnused(llvm::MutableArrayRef<mlir::Operation *> dead);

/// `ops` (in a topological order) outlined into `@subprogram` of a module
/// carrying `smemLimit`, in one element type (f32 where they mix storage
/// types).
Outlined outline(llvm::ArrayRef<mlir::Operation *> ops, int64_t smemLimit);

} // namespace mirage::search::detail

#endif // MIRAGE_LIB_SEARCH_SUBPROGRAMS_H
