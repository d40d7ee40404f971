//===- Generic.h - Import of element-wise and reduction generics -*- C++ -*-===//
//
// linalg.generic with an arith/math body (element-wise, or reducing one dim
// with addf/maximumf), and the element-wise named linalg ops through their
// generic form. Private to lib/Import.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_IMPORT_GENERIC_H
#define MIRAGE_LIB_IMPORT_GENERIC_H

#include "Common.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mirage::import {

/// A linalg.generic: a copy (importCopyGeneric), a contraction
/// (importContraction), a reduction of one dim, or an element-wise body
/// translated into mk ops. Of several results only one may be used
/// (torch-mlir's max also yields an argmax that softmax never reads); that
/// one is imported. Returns why not, empty on success; on failure nothing
/// is changed.
Reason importGeneric(mlir::linalg::GenericOp op, mlir::OpBuilder &b);

/// An element-wise named linalg op imported through its generic form; on
/// failure the named op is put back as it was.
Reason importThroughGeneric(mlir::linalg::LinalgOp named, mlir::OpBuilder &b);

/// Whether `op` is a named element-wise linalg op (all loops parallel, one
/// result) that importThroughGeneric takes.
bool isNamedElementwise(mlir::Operation *op);

} // namespace mirage::import

#endif // MIRAGE_LIB_IMPORT_GENERIC_H
