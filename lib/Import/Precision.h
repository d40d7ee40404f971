//===- Precision.h - f64 arithmetic of an export computed in f32 -*- C++ -*-===//
//
// Private to lib/Import.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_IMPORT_PRECISION_H
#define MIRAGE_LIB_IMPORT_PRECISION_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mirage::import {

/// Retypes the f64 tensors of `func` (torch-mlir's LayerNorm statistics) to
/// f32, the kernels' compute precision, when they form a closed region of
/// linalg ops, with a remark per demoted op; returns how many linalg ops were
/// demoted. With `enabled` false, or when the region is not closed (a remark
/// says why), nothing changes and the f64 ops stay outside.
unsigned demoteF64(mlir::func::FuncOp func, bool enabled);

} // namespace mirage::import

#endif // MIRAGE_LIB_IMPORT_PRECISION_H
