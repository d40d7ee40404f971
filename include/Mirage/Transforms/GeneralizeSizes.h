//===- GeneralizeSizes.h - Dynamic dims back into a program ----*- C++ -*-===//
//
// The search works on static programs: a function with dynamic dims is
// searched specialised at one size per class (docs/dynamic.md).
// generalizeSizes turns the program found back into one with dynamic dims,
// valid at every size: the arguments take the dynamic function's types, the
// ops' result dims follow from their operands', and a kernel's grid dim
// that partitions a dynamic dim becomes `?` (ceil(size / tile) blocks, the
// last tile a tail), a loop that walks one a `?` loop (ceil(size / tile)
// trips, the last one's tail masked). Tiles keep the extents the search
// chose, except a tile that held the whole size, which grows to the largest
// size it is meant for, and a walked tile that no longer fits in shared
// memory once views became tile transposes, which halves until it does.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_TRANSFORMS_GENERALIZESIZES_H
#define MIRAGE_TRANSFORMS_GENERALIZESIZES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/ArrayRef.h"

#include <string>

namespace mirage {

/// A size the program was specialised at and the largest value of it the
/// program is meant for (its size class's upper bound).
struct SizeBound {
  int64_t searchedAt = 0, largest = 0;
};

/// Rewrites `function`, a program with the signature of `dynamic`
/// specialised at some sizes, into a program with `dynamic`'s signature
/// (types and `mk.sizes` facts). `bounds` says, for the values the sizes
/// were specialised at, the largest size the program is meant for (none:
/// the size it was found at): a kernel of one trip whose tile held a whole
/// size walks it in tiles of that extent, one trip up to it (where two
/// sizes were specialised at the tile's extent, the smaller bound). Fails
/// with the reason in `why`
/// when a dim cannot be made dynamic (a view other than a permutation reads
/// it, a non-mk op uses it, a tile of a kernel covers it without a grid dim
/// free to partition it, a reduction across it a tail would make wrong) or
/// the result does not verify; `function` is then left half rewritten
/// (work on a clone).
mlir::LogicalResult generalizeSizes(mlir::func::FuncOp function,
                                    mlir::func::FuncOp dynamic,
                                    std::string &why,
                                    llvm::ArrayRef<SizeBound> bounds = {});

} // namespace mirage

#endif // MIRAGE_TRANSFORMS_GENERALIZESIZES_H
