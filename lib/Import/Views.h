//===- Views.h - Slices of imported values moved to the inputs --*- C++ -*-===//
//
// mk has no slice op. A static tensor.extract_slice of a value that an mk op
// computes (Q, K and V cut from one packed projection) would split the mk
// function there. Slicing commutes with the element-wise ops, transposes
// and matmuls (rows of the product from rows of A, columns from columns of
// B), so the slices move up to the function's inputs, where they stay
// outside mk and the outlining puts them before the mk run, in the caller.
// Private to lib/Import.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_IMPORT_VIEWS_H
#define MIRAGE_LIB_IMPORT_VIEWS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mirage::import {

/// Moves every static, unit-stride, rank-keeping tensor.extract_slice (or
/// tosa.slice with constant offsets) of
/// `func` whose source an mk op computes, and whose source's users are all
/// such slices, above that op: the op is recomputed on the sliced operands
/// once per slice (mk.matmul: A sliced on its batch and row dims, B on its
/// batch and column dims; element-wise ops: each operand, its size-1 dims
/// kept; mk.transpose: the input, the offsets permuted). Repeats until the
/// slices read values computed outside mk or by ops it does not cross.
/// Returns the slices left that read a value an mk op computes, with why
/// each stays (they split the mk function there).
llvm::SmallVector<std::pair<mlir::Operation *, std::string>>
moveSlicesToInputs(mlir::func::FuncOp func);

} // namespace mirage::import

#endif // MIRAGE_LIB_IMPORT_VIEWS_H
