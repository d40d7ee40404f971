//===- MirageInterfaces.cpp - Interfaces and shape rules --------*- C++ -*-===//
//
// Implementation of the interfaces and shape rules shared by mk, mb and mt.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Interfaces/MirageInterfaces.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"
#include <cmath>

using namespace mlir;

#include "Mirage/Interfaces/MirageEnums.cpp.inc"
#include "Mirage/Interfaces/MirageInterfaces.cpp.inc"

namespace mirage {

bool isMirageTensorShape(ArrayRef<int64_t> shape) {
  if (shape.empty() || static_cast<int64_t>(shape.size()) > kMaxRank)
    return false;
  return llvm::all_of(shape, [](int64_t d) { return d > 0; });
}

bool isMirageDynamicTensorShape(ArrayRef<int64_t> shape) {
  if (shape.empty() || static_cast<int64_t>(shape.size()) > kMaxRank)
    return false;
  return llvm::all_of(
      shape, [](int64_t d) { return d > 0 || ShapedType::isDynamic(d); });
}

LogicalResult verifyInBlockGraph(Operation *op) {
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp())
    if (isa<GraphKernelOpInterface>(p))
      return success();
  return op->emitOpError(
      "[C0.2] must be nested inside a graph-defined kernel (mk.graph_kernel)");
}

LogicalResult verifyShapeRules(Operation *op) {
  auto infer = cast<InferTypeOpInterface>(op);
  SmallVector<Type> inferred;
  if (failed(infer.inferReturnTypes(
          op->getContext(), op->getLoc(), op->getOperands(),
          op->getRawDictionaryAttrs(), op->getPropertiesStorage(),
          op->getRegions(), inferred)))
    return failure();
  if (!infer.isCompatibleReturnTypes(inferred, op->getResultTypes())) {
    // Same shape, another element type: a matmul's result precision.
    if (op->getName().stripDialect() == "matmul" && inferred.size() == 1 &&
        op->getNumResults() == 1 &&
        cast<ShapedType>(inferred[0]).getShape() ==
            cast<ShapedType>(op->getResult(0).getType()).getShape())
      return op->emitOpError("[C0.15] result element type ")
             << getElementTypeOrSelf(op->getResult(0).getType())
             << " must be the operands' ("
             << getElementTypeOrSelf(inferred[0]) << ") or f32";
    InFlightDiagnostic diag = op->emitOpError("[C0.14] result type");
    if (op->getNumResults() != 1)
      diag << "s";
    diag << " ";
    llvm::interleaveComma(op->getResultTypes(), diag);
    diag << " should be ";
    llvm::interleaveComma(inferred, diag);
    return diag;
  }
  return success();
}

/// Emits `'<op>' op <message>` at `loc` when a location is given.
template <typename... Args>
static LogicalResult fail(std::optional<Location> loc, StringRef opName,
                          Args &&...args) {
  return emitOptionalError(loc, "'", opName, "' op ",
                           std::forward<Args>(args)...);
}

static std::string dimStr(int64_t d) {
  return ShapedType::isDynamic(d) ? std::string("?") : std::to_string(d);
}

static std::string shapeStr(ArrayRef<int64_t> shape) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "[";
  llvm::interleaveComma(shape, os, [&](int64_t d) { os << dimStr(d); });
  os << "]";
  return s;
}

FailureOr<SmallVector<int64_t>> broadcastShapes(ArrayRef<int64_t> lhs,
                                                ArrayRef<int64_t> rhs) {
  if (lhs.size() != rhs.size())
    return failure();
  SmallVector<int64_t> out;
  for (auto [a, b] : llvm::zip_equal(lhs, rhs)) {
    // [C0.19] A dynamic dim pairs with a dynamic dim (the same size) or is
    // broadcast from a static 1.
    if (ShapedType::isDynamic(a) || ShapedType::isDynamic(b)) {
      if (!ShapedType::isDynamic(a) && a != 1)
        return failure();
      if (!ShapedType::isDynamic(b) && b != 1)
        return failure();
      out.push_back(ShapedType::kDynamic);
      continue;
    }
    if (a != b && a != 1 && b != 1)
      return failure();
    out.push_back(std::max(a, b));
  }
  return out;
}

LogicalResult inferBroadcastType(std::optional<Location> loc, StringRef opName,
                                 Type lhs, Type rhs,
                                 SmallVectorImpl<Type> &results) {
  auto l = cast<RankedTensorType>(lhs), r = cast<RankedTensorType>(rhs);
  if (l.getElementType() != r.getElementType())
    return fail(loc, opName, "[C0.8] operand element types differ: ",
                l.getElementType(), " vs ", r.getElementType());
  if (l.getRank() != r.getRank())
    return fail(loc, opName, "[C0.4] operands must have equal rank, got ",
                l.getRank(), " and ", r.getRank());
  FailureOr<SmallVector<int64_t>> shape =
      broadcastShapes(l.getShape(), r.getShape());
  if (failed(shape)) {
    // Tell a dynamic dim paired with a static one from a plain mismatch.
    for (auto [a, b] : llvm::zip_equal(l.getShape(), r.getShape()))
      if (ShapedType::isDynamic(a) != ShapedType::isDynamic(b) &&
          (ShapedType::isDynamic(a) ? b : a) != 1)
        return fail(loc, opName, "[C0.19] shapes ", shapeStr(l.getShape()),
                    " and ", shapeStr(r.getShape()),
                    " pair a dynamic dim with a static dim other than 1");
    return fail(loc, opName, "[C0.4] shapes ", shapeStr(l.getShape()), " and ",
                shapeStr(r.getShape()),
                " do not broadcast (each dim must be equal or 1)");
  }
  results.push_back(RankedTensorType::get(*shape, l.getElementType()));
  return success();
}

LogicalResult inferMatmulType(std::optional<Location> loc, StringRef opName,
                              Type lhs, Type rhs,
                              SmallVectorImpl<Type> &results) {
  auto l = cast<RankedTensorType>(lhs), r = cast<RankedTensorType>(rhs);
  if (l.getRank() < 2 || l.getRank() != r.getRank())
    return fail(loc, opName,
                "[C0.5] operands must have equal rank >= 2, got ranks ",
                l.getRank(), " and ", r.getRank());
  if (l.getElementType() != r.getElementType())
    return fail(loc, opName, "[C0.8] operand element types differ: ",
                l.getElementType(), " vs ", r.getElementType());
  int64_t rank = l.getRank();
  // A dynamic contraction (attention's key length) runs over one size.
  if (l.isDynamicDim(rank - 1) != r.isDynamicDim(rank - 2))
    return fail(loc, opName,
                "[C0.20] the contracted dims must be both static or both "
                "dynamic: lhs ",
                shapeStr(l.getShape()), ", rhs ", shapeStr(r.getShape()));
  if (l.getDimSize(rank - 1) != r.getDimSize(rank - 2))
    return fail(loc, opName, "[C0.6] contraction dims differ: lhs ",
                shapeStr(l.getShape()), " has ", l.getDimSize(rank - 1),
                " columns but rhs ", shapeStr(r.getShape()), " has ",
                r.getDimSize(rank - 2), " rows");
  if (l.getShape().drop_back(2) != r.getShape().drop_back(2))
    return fail(loc, opName, "[C0.7] batch dims differ: ",
                shapeStr(l.getShape()), " vs ", shapeStr(r.getShape()));
  SmallVector<int64_t> shape(l.getShape().drop_back(1));
  shape.push_back(r.getDimSize(rank - 1));
  results.push_back(RankedTensorType::get(shape, l.getElementType()));
  return success();
}

LogicalResult inferReduceType(std::optional<Location> loc, StringRef opName,
                              Type input, int64_t dim,
                              SmallVectorImpl<Type> &results) {
  auto t = cast<RankedTensorType>(input);
  if (dim < 0 || dim >= t.getRank())
    return fail(loc, opName, "[C0.9] dim ", dim, " is out of range for rank ",
                t.getRank());
  SmallVector<int64_t> shape(t.getShape());
  shape[dim] = 1;
  results.push_back(RankedTensorType::get(shape, t.getElementType()));
  return success();
}

LogicalResult inferConcatType(std::optional<Location> loc, StringRef opName,
                              TypeRange inputs, int64_t dim,
                              SmallVectorImpl<Type> &results) {
  if (inputs.size() < 2)
    return fail(loc, opName, "[C0.12] needs at least two operands, got ",
                inputs.size());
  auto first = cast<RankedTensorType>(inputs.front());
  if (dim < 0 || dim >= first.getRank())
    return fail(loc, opName, "[C0.9] dim ", dim, " is out of range for rank ",
                first.getRank());
  SmallVector<int64_t> shape(first.getShape());
  shape[dim] = 0;
  for (auto [i, type] : llvm::enumerate(inputs)) {
    auto t = cast<RankedTensorType>(type);
    if (t.getRank() != first.getRank() ||
        t.getElementType() != first.getElementType())
      return fail(loc, opName, "[C0.12] operand #", i, " of type ", t,
                  " differs in rank or element type from operand #0 ", first);
    if (t.isDynamicDim(dim))
      return fail(loc, opName, "[C0.21] operand #", i,
                  " has a dynamic size in the concatenated dim ", dim);
    for (int64_t d = 0; d < t.getRank(); ++d)
      if (d != dim && t.getDimSize(d) != first.getDimSize(d))
        return fail(loc, opName, "[C0.13] operand #", i, " differs in dim ", d,
                    " (", dimStr(t.getDimSize(d)), " vs ",
                    dimStr(first.getDimSize(d)), ")");
    shape[dim] += t.getDimSize(dim);
  }
  results.push_back(RankedTensorType::get(shape, first.getElementType()));
  return success();
}

LogicalResult inferTransposeType(std::optional<Location> loc, StringRef opName,
                                 Type input, ArrayRef<int64_t> perm,
                                 SmallVectorImpl<Type> &results) {
  auto t = cast<RankedTensorType>(input);
  if (static_cast<int64_t>(perm.size()) != t.getRank())
    return fail(loc, opName, "[K1] perm has ", perm.size(),
                " entries but the operand has rank ", t.getRank());
  llvm::SmallBitVector seen(perm.size());
  for (int64_t p : perm) {
    if (p < 0 || p >= t.getRank() || seen.test(p))
      return fail(loc, opName, "[K2] perm ", shapeStr(perm),
                  " is not a permutation of 0..", t.getRank() - 1);
    seen.set(p);
  }
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(t.getDimSize(p));
  results.push_back(RankedTensorType::get(shape, t.getElementType()));
  return success();
}

LogicalResult verifyRmsNorm(Operation *op, Type input, Type weight,
                            double eps) {
  if (!(eps >= 0.0))
    return op->emitOpError("[C0.10] eps must be >= 0, got ") << eps;
  auto in = cast<RankedTensorType>(input);
  if (in.isDynamicDim(in.getRank() - 1))
    return op->emitOpError("[C0.21] the normalised (last) dim must be "
                           "static, got ")
           << in;
  if (!weight)
    return success();
  auto w = cast<RankedTensorType>(weight);
  if (w.getRank() != 1 || w.getDimSize(0) != in.getShape().back() ||
      w.getElementType() != in.getElementType())
    return op->emitOpError("[C0.11] weight must be a rank-1 tensor of ")
           << in.getShape().back() << " elements of " << in.getElementType()
           << ", got " << w;
  return success();
}

bool isExactWidening(Type from, Type to) {
  from = getElementTypeOrSelf(from);
  to = getElementTypeOrSelf(to);
  return from == to || (to.isF32() && (from.isF16() || from.isBF16()));
}

bool isCompatibleMatmulResult(TypeRange inferred, TypeRange actual) {
  if (inferred.size() != 1 || actual.size() != 1)
    return inferred == actual;
  if (inferred[0] == actual[0])
    return true;
  auto i = dyn_cast<RankedTensorType>(inferred[0]);
  auto a = dyn_cast<RankedTensorType>(actual[0]);
  return i && a && i.getShape() == a.getShape() &&
         a.getElementType().isF32();
}

LogicalResult verifyConvert(Operation *op, Type input, Type result) {
  auto in = dyn_cast<ShapedType>(input);
  auto out = dyn_cast<ShapedType>(result);
  if (in && out && in.getShape() != out.getShape())
    return op->emitOpError("[C0.16] result shape ")
           << shapeStr(out.getShape()) << " differs from the operand's "
           << shapeStr(in.getShape());
  if (!in != !out)
    return op->emitOpError("[C0.16] operand and result must both be tensors "
                           "or both scalars");
  return success();
}

LogicalResult verifyBandMask(Operation *op, Type input, ArrayRef<int64_t> dims,
                             std::optional<int64_t> lower,
                             std::optional<int64_t> upper, double fill) {
  int64_t rank = cast<RankedTensorType>(input).getRank();
  if (dims.empty() || dims.size() > 2)
    return op->emitOpError("[C0.17] dims must hold one or two dims, got ")
           << dims.size();
  for (int64_t d : dims)
    if (d < 0 || d >= rank)
      return op->emitOpError("[C0.17] dim ")
             << d << " is not a dim of a rank-" << rank << " tensor";
  if (dims.size() == 2 && dims[0] == dims[1])
    return op->emitOpError("[C0.17] dims must be two different dims, got ")
           << dims[0] << " twice";
  if (!lower && !upper)
    return op->emitOpError("[C0.17] needs a lower or an upper bound (a mask "
                           "without either keeps every element)");
  if (lower && upper && *lower > *upper)
    return op->emitOpError("[C0.17] lower = ")
           << *lower << " is above upper = " << *upper
           << " (the band is empty)";
  if (std::isnan(fill))
    return op->emitOpError("[C0.17] fill must not be NaN");
  return success();
}

int64_t elementByteWidth(Type elementType) {
  return (elementType.getIntOrFloatBitWidth() + 7) / 8;
}

} // namespace mirage
