//===- Outline.h - Outline mk regions into functions ------------*- C++ -*-===//
//
// After import, a function mixes mk ops with ops that stayed outside. Each
// maximal run of consecutive mk ops (a convex subgraph: no path leaves and
// re-enters it) becomes a private function of mk ops, called in its place.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_IMPORT_OUTLINE_H
#define MIRAGE_IMPORT_OUTLINE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mirage {

/// Outlines the runs of mk ops of `func` into new functions inserted after it
/// in `symbolTable`'s module; a function whose body is only mk ops is left
/// as it is. Returns the number of functions created.
unsigned outlineMkRuns(mlir::func::FuncOp func, mlir::SymbolTable &symbolTable);

} // namespace mirage

#endif // MIRAGE_IMPORT_OUTLINE_H
