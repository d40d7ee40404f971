//===- Common.cpp - Helpers shared by the importers -----------------------===//

#include "Common.h"

#include "Mirage/Dialect/Kernel/IR/Kernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"

#include <cmath>

using namespace mlir;

namespace mirage::import {

bool isMkTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || tensor.getRank() < 1 || tensor.getRank() > 4 ||
      tensor.getEncoding())
    return false;
  // Dynamic dims are kept where mk's rules allow them ([C0.19]-[C0.21]):
  // checkDynamicDims refuses the ops that reduce or contract one.
  if (llvm::any_of(tensor.getShape(), [](int64_t d) {
        return d <= 0 && !ShapedType::isDynamic(d);
      }))
    return false;
  Type elt = tensor.getElementType();
  return elt.isF16() || elt.isBF16() || elt.isF32();
}

bool isZeroInit(Value init) {
  if (auto fill = init.getDefiningOp<linalg::FillOp>())
    return matchPattern(fill.getInputs()[0], m_AnyZeroFloat());
  return matchPattern(init, m_AnyZeroFloat());
}

bool isMaxIdentityInit(Value init) {
  auto fill = init.getDefiningOp<linalg::FillOp>();
  FloatAttr attr;
  if (!fill || !matchPattern(fill.getInputs()[0], m_Constant(&attr)))
    return false;
  APFloat v = attr.getValue();
  return (v.isInfinity() && v.isNegative()) ||
         v == APFloat::getLargest(v.getSemantics(), /*Negative=*/true);
}

Reason checkTypes(ValueRange operands, TypeRange results) {
  for (Value v : operands)
    if (!isMkTensor(v.getType()))
      return "operand type is not an f16/bf16/f32 tensor of rank 1-4 "
             "without encoding";
  for (Type t : results)
    if (!isMkTensor(t))
      return "result type is not an f16/bf16/f32 tensor of rank 1-4 "
             "without encoding";
  return {};
}

Reason checkDynamicDims(Operation *op, bool keepDynamic) {
  auto dynamic = [](Type t) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    return tensor && !tensor.hasStaticShape();
  };
  bool any = llvm::any_of(op->getOperandTypes(), dynamic) ||
             llvm::any_of(op->getResultTypes(), dynamic);
  if (!any)
    return {};
  if (!keepDynamic)
    return "dynamic dims (kept by the default dynamic-dims=1, "
           "docs/dynamic.md)";
  // A dynamic reduced or contracted dim (a key length) is kept ([C0.20],
  // [C0.21]): its kernel walks it with a `?` loop (docs/dynamic.md).
  const char *reduced = "a dynamic dim is reduced by a min, a product or an "
                        "argmax (mk reduces a dynamic dim by sums and maxima, "
                        "docs/dynamic.md)";
  auto dynamicAt = [](Value v, int64_t d) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    return t && d >= 0 && d < t.getRank() && t.isDynamicDim(d);
  };
  const char *mixed = "a dim that is static in one operand and dynamic in "
                      "another (mk pairs a dynamic dim with dynamic dims or "
                      "a broadcast 1 only, [C0.19])";
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    // Every operand's size of one loop dim: all dynamic or all static.
    SmallVector<int> kind(linalgOp.getNumLoops(), 0); // 1 static, 2 dynamic
    for (OpOperand &operand : op->getOpOperands()) {
      auto t = dyn_cast<RankedTensorType>(operand.get().getType());
      if (!t)
        continue;
      AffineMap map = linalgOp.getMatchingIndexingMap(&operand);
      for (auto [r, e] : llvm::enumerate(map.getResults()))
        if (auto dim = dyn_cast<AffineDimExpr>(e)) {
          int k = t.isDynamicDim(r) ? 2 : 1;
          int &seen = kind[dim.getPosition()];
          if (seen && seen != k)
            return mixed;
          seen = k;
        }
    }
    return {};
  }
  if (isa<tosa::ReduceMinOp, tosa::ReduceProductOp, tosa::ArgMaxOp>(op)) {
    auto axis = op->getAttrOfType<IntegerAttr>("axis");
    return axis && dynamicAt(op->getOperand(0), axis.getInt()) ? reduced
                                                               : Reason();
  }
  if (auto concat = dyn_cast<tosa::ConcatOp>(op))
    return dynamicAt(op->getResult(0), concat.getAxis())
               ? "the concatenated dim is dynamic (docs/dynamic.md)"
               : Reason();
  if (auto matmul = dyn_cast<tosa::MatMulOp>(op)) {
    // The contracted dims pair ([C0.20]); the rows (A's dim 1) and columns
    // (B's dim 2) are the result's.
    Value c = op->getResult(0);
    if (dynamicAt(matmul.getA(), 2) != dynamicAt(matmul.getB(), 1) ||
        dynamicAt(matmul.getA(), 1) != dynamicAt(c, 1) ||
        dynamicAt(matmul.getB(), 2) != dynamicAt(c, 2))
      return mixed;
  }
  // Ops whose tensors have one rank (element-wise ops, tosa.matmul's batch
  // and row dims): a dynamic dim must not meet a static one other than 1.
  SmallVector<RankedTensorType> types;
  for (Type t :
       llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes()))
    if (auto tensor = dyn_cast<RankedTensorType>(t); tensor && tensor.getRank())
      types.push_back(tensor);
  if (types.empty() || llvm::any_of(types, [&](RankedTensorType t) {
        return t.getRank() != types.front().getRank();
      }))
    return {};
  bool isMatmul = isa<tosa::MatMulOp>(op);
  for (int64_t d = 0; d < types.front().getRank(); ++d) {
    if (isMatmul && d > 0)
      break; // the rows and columns of tosa.matmul's operands differ
    bool dynamicDim = false, staticDim = false;
    for (RankedTensorType t : types) {
      if (t.isDynamicDim(d))
        dynamicDim = true;
      else if (t.getDimSize(d) != 1)
        staticDim = true;
    }
    if (dynamicDim && staticDim)
      return mixed;
  }
  return {};
}

Reason checkSameElementType(ValueRange operands, Type result) {
  auto shaped = dyn_cast<ShapedType>(result);
  if (!shaped)
    return "the result is not a tensor";
  for (Value v : operands) {
    auto t = dyn_cast<ShapedType>(v.getType());
    if (!t)
      return "a scalar (non-tensor) operand is not imported";
    if (t.getElementType() != shaped.getElementType())
      return "mixed element types (a cast) have no mk counterpart";
  }
  return {};
}

bool isBroadcastMap(AffineMap map, ShapedType type) {
  if (map.getNumResults() != map.getNumDims() ||
      (int64_t)map.getNumResults() != type.getRank() || map.getNumSymbols())
    return false;
  for (auto [i, expr] : llvm::enumerate(map.getResults())) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
      if (dim.getPosition() != i)
        return false;
      continue;
    }
    auto c = dyn_cast<AffineConstantExpr>(expr);
    if (!c || c.getValue() != 0 || type.getDimSize(i) != 1)
      return false;
  }
  return true;
}

void replaceOp(Operation *op, Value value) {
  op->getResult(0).replaceAllUsesWith(value);
  op->erase();
}

namespace {

/// The real value of `v`, a float scalar or a tensor with the same value at
/// every element, computed from constants (see splatValue); `depth` bounds
/// the chain of ops looked through.
std::optional<double> constantValue(Value v, int depth) {
  if (depth > 8)
    return std::nullopt;
  FloatAttr scalar;
  if (matchPattern(v, m_Constant(&scalar)))
    return scalar.getValueAsDouble();
  DenseFPElementsAttr dense;
  if (isa<RankedTensorType>(v.getType()) && matchPattern(v, m_Constant(&dense)))
    return dense.isSplat() ? std::optional<double>(
                                 dense.getSplatValue<APFloat>().convertToDouble())
                           : std::nullopt;
  Operation *def = v.getDefiningOp();
  if (!def)
    return std::nullopt;
  auto operand = [&](unsigned i) -> std::optional<double> {
    return i < def->getNumOperands()
               ? constantValue(def->getOperand(i), depth + 1)
               : std::nullopt;
  };
  auto unary = [&](auto f) -> std::optional<double> {
    if (std::optional<double> x = operand(0))
      return f(*x);
    return std::nullopt;
  };
  auto binary = [&](auto f) -> std::optional<double> {
    std::optional<double> x = operand(0), y = operand(1);
    if (x && y)
      return f(*x, *y);
    return std::nullopt;
  };
  if (auto fill = dyn_cast<linalg::FillOp>(def))
    return fill.getNumDpsInputs() == 1 && fill->getNumResults() == 1
               ? constantValue(fill.getInputs()[0], depth + 1)
               : std::nullopt;
  if (auto splat = dyn_cast<tensor::SplatOp>(def))
    return constantValue(splat.getInput(), depth + 1);
  if (isa<tosa::ReciprocalOp>(def))
    return unary([](double x) { return 1.0 / x; });
  if (isa<tosa::RsqrtOp, math::RsqrtOp>(def))
    return unary([](double x) { return 1.0 / std::sqrt(x); });
  if (isa<math::SqrtOp>(def))
    return unary([](double x) { return std::sqrt(x); });
  if (isa<arith::NegFOp>(def))
    return unary([](double x) { return -x; });
  // Scalar arithmetic (a scale computed at the top level and filled into a
  // tensor); tosa's binary ops broadcast, so a splat operand pair gives a
  // splat too.
  if (isa<arith::DivFOp>(def))
    return binary([](double x, double y) { return x / y; });
  if (isa<arith::MulFOp>(def))
    return binary([](double x, double y) { return x * y; });
  if (isa<arith::AddFOp, tosa::AddOp>(def))
    return binary([](double x, double y) { return x + y; });
  if (isa<arith::SubFOp, tosa::SubOp>(def))
    return binary([](double x, double y) { return x - y; });
  return std::nullopt;
}

} // namespace

std::optional<double> splatValue(Value v) {
  // Ops on constants are evaluated in f64, not folded in the export's
  // element type: 1/384 stays the real 1/384 (rounded once, to the
  // attribute of the mk op that reads it), as the real-valued program has it.
  if (!isa<RankedTensorType>(v.getType()))
    return std::nullopt;
  return constantValue(v, 0);
}

Value createClamp(OpBuilder &b, Location loc, Value x, double lo, double hi,
                  bool merge) {
  Operation *inner = x.getDefiningOp();
  if (merge && inner && isa<mk::ClampOp, mk::ReluOp>(inner)) {
    double innerLo = 0.0, innerHi = INFINITY;
    if (auto c = dyn_cast<mk::ClampOp>(inner)) {
      innerLo = c.getMin().convertToDouble();
      innerHi = c.getMax().convertToDouble();
    }
    double newLo = std::max(lo, innerLo), newHi = std::min(hi, innerHi);
    if (newLo <= newHi) {
      x = inner->getOperand(0);
      lo = newLo;
      hi = newHi;
      if (inner->use_empty())
        inner->erase();
    }
  }
  // An infinite bound is no bound (max(x, c) is clamp(x, c, +inf), exact
  // for an infinite x too); a clamp to [+0, +inf] is mk.relu. A finite
  // bound at the type's largest value (TFLite's ReLU clamps to [0,
  // FLT_MAX]) stays a clamp: it differs from relu at x = +inf.
  if (lo == 0.0 && !std::signbit(lo) && hi == INFINITY)
    return mk::ReluOp::create(b, loc, TypeRange{x.getType()}, ValueRange{x})
        .getResult();
  return mk::ClampOp::create(b, loc, x.getType(), x, b.getF64FloatAttr(lo),
                             b.getF64FloatAttr(hi))
      .getResult();
}

Value createMin(OpBuilder &b, Location loc, Value x, Value y) {
  auto neg = [&](Value v) {
    return mk::NegOp::create(b, loc, TypeRange{v.getType()}, ValueRange{v})
        .getResult();
  };
  Value max = mk::MaxOp::create(b, loc, neg(x), neg(y)).getResult();
  return neg(max);
}

Value createTranspose(OpBuilder &b, Location loc, Value x,
                      ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(x.getType());
  bool identity = true;
  int64_t last = -1;
  bool keepsOrder = true;
  SmallVector<int64_t> shape;
  for (auto [k, p] : llvm::enumerate(perm)) {
    identity &= p == (int64_t)k;
    shape.push_back(type.getDimSize(p));
    if (type.getDimSize(p) == 1)
      continue;
    keepsOrder &= p > last;
    last = p;
  }
  if (identity)
    return x;
  if (keepsOrder)
    return mk::ReshapeOp::create(
               b, loc, RankedTensorType::get(shape, type.getElementType()), x)
        .getResult();
  return mk::TransposeOp::create(b, loc, x, b.getDenseI64ArrayAttr(perm))
      .getResult();
}

} // namespace mirage::import
