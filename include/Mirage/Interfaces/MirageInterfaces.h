//===- MirageInterfaces.h - Interfaces shared by mk/mb/mt -------*- C++ -*-===//
//
// Enums, op interfaces, the block-graph trait and the shape rules shared by
// the kernel, block and thread dialects.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_INTERFACES_MIRAGEINTERFACES_H
#define MIRAGE_INTERFACES_MIRAGEINTERFACES_H

#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

#include "Mirage/Interfaces/MirageEnums.h.inc"

namespace mirage {
using mlir::LogicalResult;

/// Maximum rank of a uGraph tensor (DESIGN §3).
constexpr int64_t kMaxRank = 4;

/// True for a shape of rank 1..kMaxRank whose dims are all static and > 0.
bool isMirageTensorShape(llvm::ArrayRef<int64_t> shape);
/// As isMirageTensorShape, but a dim may also be dynamic (kernel level).
bool isMirageDynamicTensorShape(llvm::ArrayRef<int64_t> shape);

/// Verifies that `op` is nested in a graph-defined kernel ([C0.2]).
LogicalResult verifyInBlockGraph(mlir::Operation *op);

/// Marks block-level ops: they may only appear inside a graph-defined kernel.
template <typename ConcreteType>
class InBlockGraph
    : public mlir::OpTrait::TraitBase<ConcreteType, InBlockGraph> {
public:
  static LogicalResult verifyTrait(mlir::Operation *op) {
    return verifyInBlockGraph(op);
  }
};

/// Verifies an op's shape rules through its InferTypeOpInterface and that its
/// result types are the inferred ones ([C0.14]).
LogicalResult verifyShapeRules(mlir::Operation *op);

/// Runs verifyShapeRules before the generic InferTypeOpInterface check, so a
/// broken rule gives one tagged diagnostic.
template <typename ConcreteType>
class ShapeRules : public mlir::OpTrait::TraitBase<ConcreteType, ShapeRules> {
public:
  static LogicalResult verifyTrait(mlir::Operation *op) {
    return verifyShapeRules(op);
  }
};

//===----------------------------------------------------------------------===//
// Shape rules. Each reports a diagnostic at `loc` (when given) prefixed with
// the op name, and on success appends the inferred result type.
//===----------------------------------------------------------------------===//

/// Numpy broadcast of two tensors of equal rank ([C0.4]).
LogicalResult inferBroadcastType(std::optional<mlir::Location> loc,
                                 llvm::StringRef opName, mlir::Type lhs,
                                 mlir::Type rhs,
                                 llvm::SmallVectorImpl<mlir::Type> &results);
/// Broadcast shape of two shapes of equal rank, or failure.
mlir::FailureOr<llvm::SmallVector<int64_t>>
broadcastShapes(llvm::ArrayRef<int64_t> lhs, llvm::ArrayRef<int64_t> rhs);
/// Batched matmul ([C0.5]-[C0.8]).
LogicalResult inferMatmulType(std::optional<mlir::Location> loc,
                              llvm::StringRef opName, mlir::Type lhs,
                              mlir::Type rhs,
                              llvm::SmallVectorImpl<mlir::Type> &results);
/// Reduction over `dim`, which is kept with size 1 ([C0.9]).
LogicalResult inferReduceType(std::optional<mlir::Location> loc,
                              llvm::StringRef opName, mlir::Type input,
                              int64_t dim,
                              llvm::SmallVectorImpl<mlir::Type> &results);
/// Concatenation along `dim` ([C0.9], [C0.12], [C0.13]).
LogicalResult inferConcatType(std::optional<mlir::Location> loc,
                              llvm::StringRef opName, mlir::TypeRange inputs,
                              int64_t dim,
                              llvm::SmallVectorImpl<mlir::Type> &results);
/// Transpose by `perm` ([K1], [K2] of mk.transpose).
LogicalResult inferTransposeType(std::optional<mlir::Location> loc,
                                 llvm::StringRef opName, mlir::Type input,
                                 llvm::ArrayRef<int64_t> perm,
                                 llvm::SmallVectorImpl<mlir::Type> &results);
/// [C0.15] A matmul's result: the inferred type (the operands' element
/// type), or the same shape in f32 (the f32 accumulator written as it is).
bool isCompatibleMatmulResult(mlir::TypeRange inferred, mlir::TypeRange actual);
/// True when converting `from` to `to` (element types, or tensors of them)
/// is exact: equal, or f16/bf16 to f32.
bool isExactWidening(mlir::Type from, mlir::Type to);
/// convert ([C0.16]): tensors keep their shape; scalars are f16/bf16/f32.
LogicalResult verifyConvert(mlir::Operation *op, mlir::Type input,
                            mlir::Type result);
/// band_mask ([C0.17]): one or two distinct dims of `input`, at least one
/// bound, lower <= upper, a fill that is not NaN.
LogicalResult verifyBandMask(mlir::Operation *op, mlir::Type input,
                             llvm::ArrayRef<int64_t> dims,
                             std::optional<int64_t> lower,
                             std::optional<int64_t> upper, double fill);
/// rms_norm constraints ([C0.10], [C0.11]).
LogicalResult verifyRmsNorm(mlir::Operation *op, mlir::Type input,
                            mlir::Type weight, double eps);

/// Size in bytes of one element of a uGraph tensor type.
int64_t elementByteWidth(mlir::Type elementType);

} // namespace mirage

#include "Mirage/Interfaces/MirageInterfaces.h.inc"

#endif // MIRAGE_INTERFACES_MIRAGEINTERFACES_H
