//===- GeneralizeSizes.h - Dynamic dims back into a program ----*- C++ -*-===//
//
// The search works on static programs: a function with dynamic dims is
// searched specialised at one size per class (docs/dynamic.md).
// generalizeSizes turns the program found back into one with dynamic dims,
// valid at every size: the arguments take the dynamic function's types, the
// ops' result dims follow from their operands', and a kernel's grid dim
// that partitions a dynamic dim becomes `?` (ceil(size / tile) blocks, the
// last tile a tail). Tiles keep the extents the search chose.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_TRANSFORMS_GENERALIZESIZES_H
#define MIRAGE_TRANSFORMS_GENERALIZESIZES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <string>

namespace mirage {

/// Rewrites `function`, a program with the signature of `dynamic`
/// specialised at some sizes, into a program with `dynamic`'s signature
/// (types and `mk.sizes` facts). Fails with the reason in `why` when a dim
/// cannot be made dynamic (a for-loop walks it, a non-mk op uses it, a tile
/// of a kernel covers it without a grid dim free to partition it) or the
/// result does not verify; `function` is then left half rewritten (work on
/// a clone).
mlir::LogicalResult generalizeSizes(mlir::func::FuncOp function,
                                    mlir::func::FuncOp dynamic,
                                    std::string &why);

} // namespace mirage

#endif // MIRAGE_TRANSFORMS_GENERALIZESIZES_H
