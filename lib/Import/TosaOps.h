//===- TosaOps.h - Import tosa ops into mk ----------------------*- C++ -*-===//
//
// Private to lib/Import.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_IMPORT_TOSAOPS_H
#define MIRAGE_LIB_IMPORT_TOSAOPS_H

#include "Common.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mirage::import {

/// Imports one tosa op other than concat, tile and reshape (NamedOps.h,
/// importReshapes); returns why not, empty on success.
Reason importTosaOp(mlir::Operation *op, mlir::OpBuilder &b);

/// Replaces every exact GELU written in tosa ops, 0.5 * x * (1 + erf(x *
/// (1 / sqrt 2))) with the factors in any order and every intermediate used
/// once, by mk.gelu_erf(x) (tosa.erf alone has no mk counterpart). Runs
/// before the op-by-op import; returns the number replaced.
unsigned importTosaGeluErf(mlir::func::FuncOp func, mlir::OpBuilder &b);

} // namespace mirage::import

#endif // MIRAGE_LIB_IMPORT_TOSAOPS_H
