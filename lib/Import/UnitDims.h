//===- UnitDims.h - Drop leading size-1 dims of imported mk ops -*- C++ -*-===//
//
// Exporters keep leading size-1 dims (a batch of 1, tosa.matmul's rank 3)
// and reshape around them; after import these are mk.reshape views that
// split the programs the search gets. Dropping the leading dims that are 1
// in every operand and result of an op is exact, and once the reshapes
// around the ops cancel out, the mk runs are free of them. Private to
// lib/Import.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_IMPORT_UNITDIMS_H
#define MIRAGE_LIB_IMPORT_UNITDIMS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mirage::import {

/// Rewrites every mk op of `func`'s body whose operands and results (those
/// of the result's rank) share k >= 1 leading size-1 dims into the op
/// without them, between mk.reshape ops, then folds the chains of reshapes
/// (a reshape of a reshape, a reshape to its input's type) and merges equal
/// reshapes of one value. Ops whose dropped form does not verify are left as
/// they are. Then moves reshapes past the element-wise ops between two
/// reshapes (a reduction's kept dim dropped for a scale and put back for a
/// broadcast cancels out) and folds again. Returns the number of ops
/// rewritten.
unsigned dropLeadingUnitDims(mlir::func::FuncOp func);

} // namespace mirage::import

#endif // MIRAGE_LIB_IMPORT_UNITDIMS_H
