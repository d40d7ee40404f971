//===- Common.cpp - Helpers shared by the importers -----------------------===//

#include "Common.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace mirage::import {

bool isMkTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape() || tensor.getRank() < 1 ||
      tensor.getRank() > 4 || tensor.getEncoding())
    return false;
  if (llvm::any_of(tensor.getShape(), [](int64_t d) { return d <= 0; }))
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
      return "operand type is not a static f16/bf16/f32 tensor of rank 1-4 "
             "without encoding";
  for (Type t : results)
    if (!isMkTensor(t))
      return "result type is not a static f16/bf16/f32 tensor of rank 1-4 "
             "without encoding";
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

} // namespace mirage::import
