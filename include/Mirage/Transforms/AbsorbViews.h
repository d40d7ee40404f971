//===- AbsorbViews.h - Layout ops folded into kernel views ------*- C++ -*-===//
//
// The head split and merge around attention, GQA's K/V repeat and the
// transposed weights of nn.Linear exports are mk.reshape / mk.transpose /
// mk.concat ops between kernels: each a kernel of its own that copies a
// tensor into another layout. absorbViews folds every such chain next to a
// graph-defined kernel into the views of its input iterators (the kernel
// reads the chain's source in place) or of its output savers (the kernel
// writes the chain's result directly), DESIGN §3.4, and erases the ops left
// without users. The superoptimizer runs it on its result; the pass
// `--mirage-absorb-views` runs it alone.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_TRANSFORMS_ABSORBVIEWS_H
#define MIRAGE_TRANSFORMS_ABSORBVIEWS_H

#include "mlir/IR/Region.h"

namespace mirage {

/// A layout op: mk.transpose, mk.reshape, or mk.concat of one value with
/// itself (a repeat). The partitioned search leaves these out of its
/// subprograms; absorbViews folds them into the kernels around them.
bool isLayoutOp(mlir::Operation *op);

/// Whether the kernels next to layout op `op` take it into their views once
/// every mk op is a kernel (after --mirage-wrap-kernels): each use of its
/// chain ends in an mk op, or the chain (transposes and reshapes, each the
/// only user of the previous value) starts at an mk op's result. A reshape
/// alone is a view of its buffer either way. The cost model counts the other
/// layout ops (one that feeds the function's result directly from an
/// argument, say) as kernels of their own.
bool foldsIntoKernels(mlir::Operation *op);

/// What absorbViews changed.
struct AbsorbedViews {
  /// Kernel operands now read through a view of a chain's source.
  unsigned inputs = 0;
  /// Kernel results now written through a view into a chain's result.
  unsigned outputs = 0;
  /// View ops erased (no user left).
  unsigned erased = 0;
};

/// Folds the chains of mk.transpose, mk.reshape and mk.concat of one value
/// with itself (a repeat) that feed a graph-defined kernel's operand, or that
/// a kernel's result feeds alone (transposes and reshapes only: a saver's view
/// is one-to-one), into the kernel's views, in every block of `region`; a
/// chain whose composition is not a strided view (a reshape that cuts a
/// broadcast dim unevenly) is left as it is.
AbsorbedViews absorbViews(mlir::Region &region);

} // namespace mirage

#endif // MIRAGE_TRANSFORMS_ABSORBVIEWS_H
