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

#include <optional>
#include <string>

namespace mirage::import {

/// Why an op could not be imported; empty when it was.
using Reason = std::string;

/// A value type mk accepts: ranked tensor, rank 1..4, f16/bf16/f32, no
/// encoding; dims positive or dynamic.
bool isMkTensor(mlir::Type type);
/// For an op with dynamic dims: why it cannot be imported (dynamic dims not
/// kept, or a reduced, contracted or concatenated dim that is dynamic);
/// empty when it may be.
Reason checkDynamicDims(mlir::Operation *op, bool keepDynamic);
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

/// The value of a splat float constant of any shape: an `arith.constant` or
/// `tosa.const` with a splat dense value, a `linalg.fill` of a float
/// constant, or a `tensor.splat` of one; or of ops that compute one from
/// such constants (tosa.reciprocal/rsqrt, tosa.add/sub of splats, scalar
/// arith and math.sqrt/rsqrt), evaluated in f64. Read element-wise, it is
/// that scalar wherever it broadcasts.
std::optional<double> splatValue(mlir::Value v);

/// max(x, lo) then min(., hi) as mk ops: `mk.relu` for [0, +inf) or [0,
/// largest finite value] (TFLite's ReLU), else `mk.clamp`. mk's constants
/// are finite, so an infinite bound becomes the largest finite value of the
/// element type: max(x, c) is clamp(x, c, largest), which differs from it
/// only where x is +inf.
/// With `merge` (the caller knows that `x` has no other user), a clamp or
/// relu producing `x` is merged into it when the ranges overlap
/// (clamp(clamp(x, a, b), c, d) = clamp(x, max(a, c), min(b, d)); torch-mlir
/// writes a clamp as two selects); the producer is erased once unused.
mlir::Value createClamp(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                        double lo, double hi, bool merge);

/// min(x, y) of two tensors: mk has max only, and -max(-x, -y) is exact.
mlir::Value createMin(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                      mlir::Value y);

/// `x` permuted by `perm` (result dim k is input dim perm[k]): `x` itself for
/// the identity, an `mk.reshape` (a view) when only size-1 dims move, since
/// the elements keep their order, else an `mk.transpose`.
mlir::Value createTranspose(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value x, llvm::ArrayRef<int64_t> perm);

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
