//===- TosaOps.cpp - Import tosa ops into mk ------------------------------===//
//
// The element-wise, reduction, matmul and transpose ops of tosa, splat
// constant operands as mk's scalar ops, and the exact GELU written in tosa
// ops. tosa.concat and tosa.tile are in NamedOps.cpp, reshapes in
// ImportPass.cpp.
//
//===----------------------------------------------------------------------===//

#include "TosaOps.h"
#include "Common.h"

#include "Mirage/Dialect/Kernel/IR/Kernel.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>

using namespace mlir;

namespace mirage::import {
namespace {

/// The value of a splat float constant of any shape (TFLite writes 1/n and
/// eps with all-1 dims, 1/sqrt(d) with the full shape), or nullopt.
std::optional<double> scalarSplat(Value v) { return splatValue(v); }

/// tosa.add/sub/mul/maximum/minimum with one operand a splat constant:
/// mk.add_scalar or mk.mul_scalar (c - x as add_scalar(neg(x), c)), x + 0,
/// x - 0 and x * 1 as x, max/min as mk.relu/mk.clamp. nullopt when neither
/// operand is one.
std::optional<Reason> importScalarConstantOperand(Operation *op, OpBuilder &b) {
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  std::optional<double> lc = scalarSplat(lhs), rc = scalarSplat(rhs);
  if (lc.has_value() == rc.has_value())
    return std::nullopt;
  Value x = rc ? lhs : rhs;
  double c = rc ? *rc : *lc;
  if (Reason r = checkTypes(x, op->getResultTypes()); !r.empty())
    return r;
  if (Reason r = checkSameElementType(x, op->getResultTypes()[0]); !r.empty())
    return r;
  if (x.getType() != op->getResult(0).getType())
    return Reason("a scalar constant that changes the shape");
  b.setInsertionPoint(op);
  Location loc = op->getLoc();
  FloatAttr attr = b.getF64FloatAttr(c);
  Value v;
  bool isMax = isa<tosa::MaximumOp>(op), isMin = isa<tosa::MinimumOp>(op);
  if ((isa<tosa::AddOp>(op) && c == 0.0) ||
      (isa<tosa::SubOp>(op) && rc && c == 0.0) ||
      (isa<tosa::MulOp>(op) && c == 1.0))
    v = x;
  else if (isMax || isMin) {
    if (std::isnan(c))
      return Reason("a max/min against NaN");
    bool merge = x.hasOneUse();
    v = isMax ? createClamp(b, loc, x, c, INFINITY, merge)
              : createClamp(b, loc, x, -INFINITY, c, merge);
  } else if (isa<tosa::MulOp>(op))
    v = mk::MulScalarOp::create(b, loc, x.getType(), x, attr).getResult();
  else if (isa<tosa::AddOp>(op))
    v = mk::AddScalarOp::create(b, loc, x.getType(), x, attr).getResult();
  else if (rc)
    v = mk::AddScalarOp::create(b, loc, x.getType(), x, b.getF64FloatAttr(-c))
            .getResult();
  else
    v = mk::AddScalarOp::create(
            b, loc, x.getType(),
            mk::NegOp::create(b, loc, TypeRange{x.getType()}, ValueRange{x})
                .getResult(),
            attr)
            .getResult();
  replaceOp(op, v);
  return Reason();
}

/// The factors of a product of single-use tosa.mul nodes (shift 0) rooted at
/// `v`.
void productFactors(Value v, bool root, SmallVectorImpl<Value> &out) {
  auto mul = v.getDefiningOp<tosa::MulOp>();
  if (!mul || !matchPattern(mul.getShift(), m_Zero()) ||
      (!root && !v.hasOneUse())) {
    out.push_back(v);
    return;
  }
  productFactors(mul.getInput1(), false, out);
  productFactors(mul.getInput2(), false, out);
}

bool near(std::optional<double> c, double want) {
  return c && std::fabs(*c - want) <= 1e-6 * want;
}

/// The exact GELU rooted at the tosa.mul `root`: 0.5 * x * (1 + erf(x *
/// (1 / sqrt 2))), the three factors in any order and grouping, every
/// intermediate used once. Returns x and the ops the pattern covers, root
/// first.
Value matchGeluErf(tosa::MulOp root, SmallVectorImpl<Operation *> &covered) {
  SmallVector<Value, 4> factors;
  productFactors(root.getResult(), /*root=*/true, factors);
  if (factors.size() != 3)
    return {};
  Value x;
  tosa::AddOp onePlusErf;
  bool half = false;
  for (Value f : factors) {
    auto add = f.getDefiningOp<tosa::AddOp>();
    if (!half && near(scalarSplat(f), 0.5))
      half = true;
    else if (add && !onePlusErf &&
             (near(scalarSplat(add.getInput1()), 1.0) ||
              near(scalarSplat(add.getInput2()), 1.0)))
      onePlusErf = add;
    else
      x = f;
  }
  if (!half || !onePlusErf || !x || !onePlusErf->hasOneUse() ||
      x.getType() != root.getType())
    return {};
  Value erfValue = near(scalarSplat(onePlusErf.getInput1()), 1.0)
                       ? onePlusErf.getInput2()
                       : onePlusErf.getInput1();
  auto erf = erfValue.getDefiningOp<tosa::ErfOp>();
  if (!erf || !erf->hasOneUse())
    return {};
  auto scaled = erf.getInput().getDefiningOp<tosa::MulOp>();
  if (!scaled || !scaled->hasOneUse() ||
      !matchPattern(scaled.getShift(), m_Zero()))
    return {};
  bool scaledX = (scaled.getInput1() == x &&
                  near(scalarSplat(scaled.getInput2()), M_SQRT1_2)) ||
                 (scaled.getInput2() == x &&
                  near(scalarSplat(scaled.getInput1()), M_SQRT1_2));
  if (!scaledX)
    return {};
  // The product's inner muls, then the erf chain.
  SmallVector<Operation *> worklist{root};
  while (!worklist.empty()) {
    Operation *mul = worklist.pop_back_val();
    covered.push_back(mul);
    for (Value operand : mul->getOperands().take_front(2))
      if (auto inner = operand.getDefiningOp<tosa::MulOp>();
          inner && operand.hasOneUse() && !llvm::is_contained(factors, operand))
        worklist.push_back(inner);
  }
  covered.append({onePlusErf, erf, scaled});
  return x;
}

/// tosa.clamp of a float tensor: mk.clamp (mk.relu for [0, +inf)). Its
/// nan_mode only matters for NaN inputs, which max/min propagate.
Reason importClamp(tosa::ClampOp op, OpBuilder &b) {
  auto lo = dyn_cast<FloatAttr>(op.getMinValAttr());
  auto hi = dyn_cast<FloatAttr>(op.getMaxValAttr());
  if (!lo || !hi)
    return "tosa.clamp with integer bounds";
  Value x = op.getInput();
  if (Reason r = checkTypes(x, op->getResultTypes()); !r.empty())
    return r;
  if (Reason r = checkSameElementType(x, op->getResultTypes()[0]); !r.empty())
    return r;
  double l = lo.getValueAsDouble(), h = hi.getValueAsDouble();
  if (!(l <= h))
    return "tosa.clamp with min > max or a NaN bound";
  b.setInsertionPoint(op);
  replaceOp(op, createClamp(b, op.getLoc(), x, l, h, x.hasOneUse()));
  return {};
}

/// tosa.select(m, x, c) or tosa.select(m, c, x) of a boolean tensor m that
/// no compare here computes (an argument: torch's masked_fill, a padding
/// mask) and a splat c: mk.where of m's 0/1 float conversion (a tosa.cast
/// that stays outside the mk ops, as mk holds no booleans), or of 1 - m for
/// the second form. m broadcasts to x as mk.where's operands do.
Reason importBooleanSelect(tosa::SelectOp op, OpBuilder &b) {
  Value m = op.getInput1(), t = op.getInput2(), f = op.getInput3();
  std::optional<double> tc = scalarSplat(t), fc = scalarSplat(f);
  if (tc.has_value() == fc.has_value())
    return "tosa.select by a boolean tensor that does not choose between a "
           "value and a constant";
  Value x = fc ? t : f;
  double fill = fc ? *fc : *tc;
  if (std::isnan(fill))
    return "a mask filled with NaN";
  if (Reason r = checkTypes(x, op->getResultTypes()); !r.empty())
    return r;
  if (x.getType() != op->getResult(0).getType())
    return "a select that broadcasts the selected value";
  auto xType = cast<RankedTensorType>(x.getType());
  auto mType = dyn_cast<RankedTensorType>(m.getType());
  if (!mType || !mType.hasStaticShape() ||
      mType.getRank() != xType.getRank() ||
      llvm::any_of(llvm::zip(mType.getShape(), xType.getShape()),
                   [](auto d) {
                     auto [md, xd] = d;
                     return md != xd && md != 1;
                   }))
    return "a boolean mask that does not broadcast to the selected value";
  b.setInsertionPoint(op);
  Location loc = op.getLoc();
  auto floatMask = mType.clone(xType.getElementType());
  Value mask =
      tosa::CastOp::create(b, loc, floatMask, m).getResult();
  // select(m, c, x) keeps x where m is 0: the inverted where
  // (masked_fill).
  replaceOp(op,
            mk::WhereOp::create(b, loc, xType, mask, x, b.getF64FloatAttr(fill),
                                tc ? b.getUnitAttr() : UnitAttr())
                .getResult());
  return {};
}

/// tosa.select(x > c, x, c) and its variants (tosa.greater or
/// tosa.greater_equal, the constant on either side, either orientation):
/// max(x, c) or min(x, c) as mk.relu or mk.clamp, as in linalg bodies.
/// Other boolean conditions: importBooleanSelect.
Reason importSelect(tosa::SelectOp op, OpBuilder &b) {
  Operation *cmp = op.getInput1().getDefiningOp();
  if (!isa_and_nonnull<tosa::GreaterOp, tosa::GreaterEqualOp>(cmp))
    return importBooleanSelect(op, b);
  Value lhs = cmp->getOperand(0), rhs = cmp->getOperand(1);
  std::optional<double> lc = scalarSplat(lhs), rc = scalarSplat(rhs);
  if (lc.has_value() == rc.has_value())
    return "tosa.select of a compare that is not of a value against a "
           "constant (a mask of two tensors' values)";
  Value x = rc ? lhs : rhs;
  double c = rc ? *rc : *lc;
  bool greater = rc.has_value(); // x > c, else c > x
  Value t = op.getInput2(), f = op.getInput3();
  bool takesX;
  if (t == x && scalarSplat(f) == c)
    takesX = true;
  else if (f == x && scalarSplat(t) == c)
    takesX = false;
  else
    return "tosa.select that does not choose between the compared value and "
           "the same constant (only max/min/clamp against a constant are "
           "imported)";
  if (std::isnan(c))
    return "a compare against NaN";
  if (Reason r = checkTypes(x, op->getResultTypes()); !r.empty())
    return r;
  if (Reason r = checkSameElementType(x, op->getResultTypes()[0]); !r.empty())
    return r;
  if (x.getType() != op->getResult(0).getType())
    return "a select that broadcasts the compared value";
  b.setInsertionPoint(op);
  bool merge = llvm::all_of(x.getUsers(), [&](Operation *u) {
    return u == op.getOperation() || u == cmp;
  });
  Value v = greater == takesX
                ? createClamp(b, op.getLoc(), x, c, INFINITY, merge)
                : createClamp(b, op.getLoc(), x, -INFINITY, c, merge);
  // The compare goes with the other dead producers (ImportPass.cpp).
  replaceOp(op, v);
  return {};
}

} // namespace

unsigned importTosaGeluErf(func::FuncOp func, OpBuilder &b) {
  SmallVector<tosa::MulOp> muls(func.getBody().getOps<tosa::MulOp>());
  unsigned count = 0;
  for (tosa::MulOp root : llvm::reverse(muls)) {
    // Inner muls of an earlier match are gone; the walk goes from the last
    // op up, so roots are seen before their inner muls.
    if (!root->getBlock())
      continue;
    SmallVector<Operation *> covered;
    Value x = matchGeluErf(root, covered);
    if (!x || !isMkTensor(x.getType()))
      continue;
    b.setInsertionPoint(root);
    Value gelu = mk::GeluErfOp::create(b, root.getLoc(), TypeRange{x.getType()},
                                       ValueRange{x})
                     .getResult();
    root.getResult().replaceAllUsesWith(gelu);
    SmallVector<Operation *> constants;
    for (Operation *op : covered)
      for (Value operand : op->getOperands())
        if (auto c = operand.getDefiningOp<tosa::ConstOp>())
          constants.push_back(c);
    for (Operation *op : covered)
      op->erase();
    for (Operation *c : constants)
      if (c->getBlock() && c->use_empty())
        c->erase();
    ++count;
  }
  return count;
}

Reason importTosaOp(Operation *op, OpBuilder &b) {
  if (auto mm = dyn_cast<tosa::MatMulOp>(op)) {
    if (!matchPattern(mm.getAZp(), m_AnyZeroFloat()) ||
        !matchPattern(mm.getBZp(), m_AnyZeroFloat()))
      return "tosa.matmul with non-zero (or non-float) zero points";
    // bf16/f16 operands with an f32 accumulator type: one mk.matmul that
    // writes its f32 accumulator ([C0.15]).
    Type eltA = getElementTypeOrSelf(mm.getA().getType());
    if (eltA == getElementTypeOrSelf(mm.getB().getType()) &&
        getElementTypeOrSelf(mm.getType()).isF32() &&
        isExactWidening(eltA, getElementTypeOrSelf(mm.getType())) &&
        checkTypes({mm.getA(), mm.getB()}, mm->getResultTypes()).empty()) {
      b.setInsertionPoint(op);
      replaceOp(op, mk::MatmulOp::create(b, op->getLoc(), mm.getType(),
                                         mm.getA(), mm.getB())
                        .getResult());
      return {};
    }
    return importSimple<mk::MatmulOp>(op, {mm.getA(), mm.getB()}, b);
  }
  if (auto cast = dyn_cast<tosa::CastOp>(op)) {
    // Between float types: a change of storage type.
    if (Reason r = checkTypes(cast.getInput(), cast->getResultTypes());
        !r.empty())
      return "tosa.cast: " + r;
    b.setInsertionPoint(op);
    replaceOp(op, mk::ConvertOp::create(b, op->getLoc(), cast.getType(),
                                        cast.getInput())
                      .getResult());
    return {};
  }
  if (auto mul = dyn_cast<tosa::MulOp>(op)) {
    if (!matchPattern(mul.getShift(), m_Zero()))
      return "tosa.mul with a non-zero shift";
    // A splat operand (1/n as the reciprocal of a splat too) is a scalar;
    // x * reciprocal(y) is x / y.
    if (std::optional<Reason> r = importScalarConstantOperand(op, b))
      return *r;
    for (auto [x, r] : {std::pair(mul.getInput1(), mul.getInput2()),
                        std::pair(mul.getInput2(), mul.getInput1())})
      if (auto recip = r.getDefiningOp<tosa::ReciprocalOp>())
        return importSimple<mk::DivOp>(op, {x, recip.getInput1()}, b);
    // x * x is a square (so that rms_norm's pieces are recognised).
    if (mul.getInput1() == mul.getInput2())
      return importSimple<mk::SquareOp>(op, {mul.getInput1()}, b);
    return importSimple<mk::MulOp>(op, {mul.getInput1(), mul.getInput2()}, b);
  }
  if (isa<tosa::ReduceSumOp, tosa::ReduceMaxOp>(op)) {
    uint32_t axis = isa<tosa::ReduceSumOp>(op)
                        ? cast<tosa::ReduceSumOp>(op).getAxis()
                        : cast<tosa::ReduceMaxOp>(op).getAxis();
    if (auto max = dyn_cast<tosa::ReduceMaxOp>(op))
      if (max.getNanMode() != tosa::NanPropagationMode::PROPAGATE)
        return "tosa.reduce_max with nan_mode other than PROPAGATE";
    if (Reason r = checkTypes(op->getOperands(), op->getResultTypes());
        !r.empty())
      return r;
    b.setInsertionPoint(op);
    IntegerAttr dim = b.getI64IntegerAttr(axis);
    Value v =
        isa<tosa::ReduceSumOp>(op)
            ? mk::ReduceSumOp::create(b, op->getLoc(), op->getOperand(0), dim)
                  .getResult()
            : mk::ReduceMaxOp::create(b, op->getLoc(), op->getOperand(0), dim)
                  .getResult();
    op->getResult(0).replaceAllUsesWith(v);
    op->erase();
    return {};
  }
  if (auto tr = dyn_cast<tosa::TransposeOp>(op)) {
    if (Reason r = checkTypes(op->getOperands(), op->getResultTypes());
        !r.empty())
      return r;
    b.setInsertionPoint(op);
    SmallVector<int64_t> perm(tr.getPerms().begin(), tr.getPerms().end());
    Value v = createTranspose(b, op->getLoc(), tr.getInput1(), perm);
    op->getResult(0).replaceAllUsesWith(v);
    op->erase();
    return {};
  }
  if (isa<tosa::AddOp, tosa::SubOp>(op))
    if (std::optional<Reason> r = importScalarConstantOperand(op, b))
      return *r;
  if (isa<tosa::AddOp>(op))
    return importSimple<mk::AddOp>(op, op->getOperands(), b);
  if (isa<tosa::SubOp>(op))
    return importSimple<mk::SubOp>(op, op->getOperands(), b);
  if (isa<tosa::PowOp>(op)) {
    // A splat exponent of all-1 dims (HF's x.pow(2) through torch-mlir):
    // the op of that power, so that rms_norm's pieces are recognised.
    std::optional<double> c = scalarSplat(op->getOperand(1));
    Value x = op->getOperand(0);
    if (c && (*c == 2.0 || *c == 0.5 || *c == -0.5 || *c == -1.0 ||
              *c == 1.0) &&
        x.getType() == op->getResult(0).getType()) {
      if (*c == 2.0)
        return importSimple<mk::SquareOp>(op, {x}, b);
      if (*c == 0.5)
        return importSimple<mk::SqrtOp>(op, {x}, b);
      if (*c == -1.0)
        return importSimple<mk::ReciprocalOp>(op, {x}, b);
      if (*c == 1.0) {
        if (Reason r = checkTypes(x, op->getResultTypes()); !r.empty())
          return r;
        replaceOp(op, x);
        return {};
      }
      return importSimple<mk::RsqrtOp>(op, {x}, b);
    }
    return importSimple<mk::PowOp>(op, op->getOperands(), b);
  }
  if (isa<tosa::ExpOp>(op))
    return importSimple<mk::ExpOp>(op, op->getOperands(), b);
  if (isa<tosa::RsqrtOp>(op))
    return importSimple<mk::RsqrtOp>(op, op->getOperands(), b);
  if (isa<tosa::SigmoidOp>(op))
    return importSimple<mk::SigmoidOp>(op, op->getOperands(), b);
  if (isa<tosa::TanhOp>(op))
    return importSimple<mk::TanhOp>(op, op->getOperands(), b);
  if (isa<tosa::ReciprocalOp>(op))
    return importSimple<mk::ReciprocalOp>(op, op->getOperands(), b);
  if (auto max = dyn_cast<tosa::MaximumOp>(op)) {
    if (max.getNanMode() != tosa::NanPropagationMode::PROPAGATE)
      return "tosa.maximum with nan_mode other than PROPAGATE";
    if (std::optional<Reason> r = importScalarConstantOperand(op, b))
      return *r;
    return importSimple<mk::MaxOp>(op, op->getOperands(), b);
  }
  if (auto min = dyn_cast<tosa::MinimumOp>(op)) {
    if (min.getNanMode() != tosa::NanPropagationMode::PROPAGATE)
      return "tosa.minimum with nan_mode other than PROPAGATE";
    if (std::optional<Reason> r = importScalarConstantOperand(op, b))
      return *r;
    if (Reason r = checkTypes(op->getOperands(), op->getResultTypes());
        !r.empty())
      return r;
    if (Reason r = checkSameElementType(op->getOperands(),
                                        op->getResultTypes()[0]);
        !r.empty())
      return r;
    b.setInsertionPoint(op);
    replaceOp(op, createMin(b, op->getLoc(), min.getInput1(), min.getInput2()));
    return {};
  }
  if (auto clamp = dyn_cast<tosa::ClampOp>(op))
    return importClamp(clamp, b);
  if (auto select = dyn_cast<tosa::SelectOp>(op))
    return importSelect(select, b);
  if (isa<tosa::NegateOp>(op))
    return "tosa.negate (zero-point operands) is not imported yet";
  if (isa<tosa::ErfOp>(op))
    return "tosa.erf outside an exact GELU (mk has no erf)";
  return "this tosa op is not imported yet";
}

} // namespace mirage::import
