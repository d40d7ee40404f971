//===- Common.h - Helpers shared by the importers ---------------*- C++ -*-===//
//
// Type checks and small matchers used by every part of `--mirage-import`.
// Private to lib/Import.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_IMPORT_COMMON_H
#define MIRAGE_LIB_IMPORT_COMMON_H

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"

#include <string>

namespace mirage::import {

/// Why an op could not be imported; empty when it was.
using Reason = std::string;

/// A value type mk accepts: static ranked tensor, rank 1..4, f16/bf16/f32,
/// no encoding.
bool isMkTensor(mlir::Type type);
/// True when `init` is a tensor of zeros (linalg.fill of 0.0 or a splat 0.0).
bool isZeroInit(mlir::Value init);
/// True when `init` is filled with -inf or the lowest finite value (what
/// torch-mlir uses as the identity of max).
bool isMaxIdentityInit(mlir::Value init);
/// Checks the operand and result types are all mk tensors.
Reason checkTypes(mlir::ValueRange operands, mlir::TypeRange results);
/// Checks every operand has the element type of `result`.
Reason checkSameElementType(mlir::ValueRange operands, mlir::Type result);
/// A broadcast-compatible input map: result i is d_i, or a literal 0 on a
/// size-1 dim of the input; its rank equals the iteration rank.
bool isBroadcastMap(mlir::AffineMap map, mlir::ShapedType type);
/// Replaces the single result of `op` with `value` and erases `op`.
void replaceOp(mlir::Operation *op, mlir::Value value);

/// Element-wise named linalg ops and element-wise tosa ops.
template <typename MkOp>
Reason importSimple(mlir::Operation *op, mlir::ValueRange inputs,
                    mlir::OpBuilder &b) {
  if (Reason r = checkTypes(inputs, op->getResultTypes()); !r.empty())
    return r;
  if (Reason r = checkSameElementType(inputs, op->getResultTypes()[0]);
      !r.empty())
    return r;
  b.setInsertionPoint(op);
  mlir::Value v =
      MkOp::create(b, op->getLoc(), op->getResultTypes(), inputs).getResult();
  op->getResult(0).replaceAllUsesWith(v);
  op->erase();
  return {};
}

} // namespace mirage::import

#endif // MIRAGE_LIB_IMPORT_COMMON_H
