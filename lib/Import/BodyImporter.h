//===- BodyImporter.h - Scalar bodies of generics as mk ops ----*- C++ -*-===//
//
// The body of an element-wise (or reducing) linalg.generic is a DAG of
// arith/math ops on scalars; BodyImporter translates it op by op into mk ops
// on tensors, each block argument bound to its input (reshaped, transposed
// or cast to the loop's shape and compute type outside the body by
// Generic.cpp), to a scalar when the input is a splat constant, or to a mask
// (Masks.h). Private to lib/Import (Generic.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_IMPORT_BODYIMPORTER_H
#define MIRAGE_LIB_IMPORT_BODYIMPORTER_H

#include "Common.h"
#include "Masks.h"

#include "Mirage/Dialect/Kernel/IR/Kernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseSet.h"

#include <cmath>

namespace mirage::import {

// A private header of lib/Import, included only by Generic.cpp, whose code
// is written against the mlir namespace as every .cpp of lib/Import is.
using namespace mlir;

/// Translates the scalar body of an element-wise generic into mk ops.
class BodyImporter {
public:
  BodyImporter(OpBuilder &b, Location loc, RankedTensorType resultType,
               Block *body)
      : b(b), loc(loc), resultType(resultType), body(body) {}

  /// Maps block argument `arg` to the tensor `value`.
  void bind(Value arg, Value value) { values[arg] = value; }
  /// The tensor bound to `arg`.
  Value lookup(Value arg) const { return values.lookup(arg); }
  /// Maps block argument `arg` to the scalar `c` (the input is a splat
  /// constant or a fill of one: every element it reads is `c`).
  void bindConstant(Value arg, double c) { constants[arg] = c; }
  /// Maps block argument `arg` to a mask computed from indices elsewhere
  /// (an i1 tensor, or one of 0 and a fill), as a band of this body's loop
  /// dims.
  void bindMask(Value arg, BandTensor mask) { masks[arg] = std::move(mask); }
  /// Marks block argument `arg`, bound to a 0/1 float tensor, as a boolean
  /// mask that selects read as their condition (mk.where).
  void markBoolMask(Value arg) { boolMasks.insert(arg); }

  FailureOr<Value> import(Value scalar, Reason &why) {
    if (auto it = values.find(scalar); it != values.end())
      return it->second;
    if (constants.count(scalar)) {
      why = "a bare constant yielded by the body";
      return failure();
    }
    if (masks.count(scalar)) {
      why = "a mask read other than by a select or an add";
      return failure();
    }
    Operation *def = scalar.getDefiningOp();
    if (!def) {
      why = scalar.getParentBlock() == body
                ? "the body reads the output (accumulating) block argument"
                : "the body reads a value defined outside the generic";
      return failure();
    }
    if (def->getBlock() != body && !constantOf(scalar)) {
      why = "the body reads a value defined outside the generic";
      return failure();
    }
    FailureOr<Value> result = importOp(def, why);
    if (succeeded(result))
      values[scalar] = *result;
    return result;
  }

private:
  /// A float constant, also through arith.truncf/extf of one (torch-mlir
  /// keeps eps as an f64 constant truncated in the body); a truncated value
  /// is rounded to its type, as the body computes it.
  std::optional<double> constantOf(Value v) const {
    if (auto it = constants.find(v); it != constants.end())
      return it->second;
    FloatAttr attr;
    if (matchPattern(v, m_Constant(&attr)))
      return attr.getValueAsDouble();
    Operation *def = v.getDefiningOp();
    if (!isa_and_nonnull<arith::TruncFOp, arith::ExtFOp>(def))
      return std::nullopt;
    auto type = dyn_cast<FloatType>(v.getType());
    if (!type)
      return std::nullopt;
    APFloat value(0.0);
    if (auto it = constants.find(def->getOperand(0)); it != constants.end())
      value = APFloat(it->second);
    else if (matchPattern(def->getOperand(0), m_Constant(&attr)))
      value = attr.getValue();
    else
      return std::nullopt;
    bool lost = false;
    value.convert(type.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                  &lost);
    return value.convertToDouble();
  }

  /// 1 / (1 + exp(-x)) (either addition order): returns x, else null.
  Value matchSigmoid(Operation *def) const {
    auto div = dyn_cast<arith::DivFOp>(def);
    if (!div || constantOf(div.getLhs()) != 1.0)
      return {};
    auto add = div.getRhs().getDefiningOp<arith::AddFOp>();
    if (!add)
      return {};
    Value other;
    if (constantOf(add.getLhs()) == 1.0)
      other = add.getRhs();
    else if (constantOf(add.getRhs()) == 1.0)
      other = add.getLhs();
    auto exp = other ? other.getDefiningOp<math::ExpOp>() : nullptr;
    auto neg = exp ? exp.getOperand().getDefiningOp<arith::NegFOp>() : nullptr;
    return neg ? neg.getOperand() : Value();
  }

  /// The factors of a product of single-use arith.mulf nodes rooted at `v`.
  static void productFactors(Value v, bool root, SmallVectorImpl<Value> &out) {
    auto mul = v.getDefiningOp<arith::MulFOp>();
    if (!mul || (!root && !v.hasOneUse())) {
      out.push_back(v);
      return;
    }
    productFactors(mul.getLhs(), false, out);
    productFactors(mul.getRhs(), false, out);
  }

  /// The exact GELU as exporters write it, 0.5 * x * (1 + erf(x / sqrt 2))
  /// in any order of the three factors (x / sqrt 2 also as x * (1 / sqrt
  /// 2)): returns x, else null.
  Value matchGeluErf(Operation *def) const {
    if (!isa<arith::MulFOp>(def))
      return {};
    SmallVector<Value, 4> factors;
    productFactors(def->getResult(0), /*root=*/true, factors);
    if (factors.size() != 3)
      return {};
    auto near = [](std::optional<double> c, double want) {
      return c && std::fabs(*c - want) <= 1e-6 * want;
    };
    Value half, onePlusErf, x;
    for (Value f : factors) {
      if (!half && near(constantOf(f), 0.5))
        half = f;
      else if (auto add = f.getDefiningOp<arith::AddFOp>();
               add && !onePlusErf &&
               (near(constantOf(add.getLhs()), 1.0) ||
                near(constantOf(add.getRhs()), 1.0)))
        onePlusErf = f;
      else
        x = f;
    }
    if (!half || !onePlusErf || !x)
      return {};
    auto add = onePlusErf.getDefiningOp<arith::AddFOp>();
    Value erfValue =
        near(constantOf(add.getLhs()), 1.0) ? add.getRhs() : add.getLhs();
    auto erf = erfValue.getDefiningOp<math::ErfOp>();
    if (!erf)
      return {};
    Operation *scaled = erf.getOperand().getDefiningOp();
    if (auto m = dyn_cast_or_null<arith::MulFOp>(scaled)) {
      for (auto [a, b] : {std::pair(m.getLhs(), m.getRhs()),
                          std::pair(m.getRhs(), m.getLhs())})
        if (a == x && near(constantOf(b), M_SQRT1_2))
          return x;
    } else if (auto d = dyn_cast_or_null<arith::DivFOp>(scaled)) {
      if (d.getLhs() == x && near(constantOf(d.getRhs()), M_SQRT2))
        return x;
    }
    return {};
  }

  RankedTensorType typeOf(Value v) {
    return cast<RankedTensorType>(v.getType());
  }

  /// Result type of an element-wise op on `x` (keeps its broadcast shape).
  template <typename OpTy> Value unary(Value x) {
    return OpTy::create(b, loc, TypeRange{typeOf(x)}, ValueRange{x})
        .getResult();
  }
  template <typename OpTy> Value scalarOp(Value x, double c) {
    return OpTy::create(b, loc, typeOf(x), x, b.getF64FloatAttr(c)).getResult();
  }
  /// The broadcast shape of `x` and `y` (mk's rule: [C0.4], and [C0.19]
  /// for dynamic dims) in the result's element type; `x`'s shape where they
  /// do not broadcast (the op's verifier then says so).
  RankedTensorType broadcastType(Value x, Value y) {
    ArrayRef<int64_t> xs = typeOf(x).getShape(), ys = typeOf(y).getShape();
    FailureOr<SmallVector<int64_t>> shape = broadcastShapes(xs, ys);
    return RankedTensorType::get(succeeded(shape) ? ArrayRef<int64_t>(*shape)
                                                  : xs,
                                 resultType.getElementType());
  }
  template <typename OpTy> FailureOr<Value> binary(Value x, Value y) {
    return OpTy::create(b, loc, TypeRange{broadcastType(x, y)},
                        ValueRange{x, y})
        .getResult();
  }

  /// Whether every user of the scalar `v` is one of `ops` (so its mk value
  /// may be merged into theirs). Block arguments are bound to values outside.
  bool onlyUsedBy(Value v, ArrayRef<Operation *> ops) const {
    if (!v.getDefiningOp())
      return false;
    return llvm::all_of(v.getUsers(), [&](Operation *u) {
      return llvm::is_contained(ops, u);
    });
  }

  /// select(x > c, x, c) and its variants (either operand of the compare the
  /// constant, either orientation of the select, strict or not, ordered or
  /// not): max(x, c) or min(x, c), as mk.relu or mk.clamp. A NaN compares
  /// false in the ordered predicates, so the select and max differ only
  /// where x is NaN.
  /// mk.band_mask of `x`'s import: keeps `band`, elsewhere `fill` (or x +
  /// fill with `additive`).
  FailureOr<Value> bandMask(Value x, const Band &band, double fill,
                            bool additive, Reason &why) {
    FailureOr<Value> v = import(x, why);
    if (failed(v))
      return failure();
    auto attr = [&](std::optional<int64_t> bound) {
      return bound ? b.getI64IntegerAttr(*bound) : IntegerAttr();
    };
    return mk::BandMaskOp::create(b, loc, typeOf(*v), *v,
                                  b.getDenseI64ArrayAttr(band.dims),
                                  attr(band.lower), attr(band.upper),
                                  b.getF64FloatAttr(fill),
                                  additive ? b.getUnitAttr() : UnitAttr())
        .getResult();
  }

  /// The band where the i1 `cond` holds (negated: fails): a mask bound to a
  /// block argument or a compare of indices in the body.
  FailureOr<Band> bandOf(Value cond, bool negate, Reason &why) {
    if (auto it = masks.find(cond); it != masks.end()) {
      if (it->second.inside) {
        why = "a select on a float mask";
        return failure();
      }
      if (!negate)
        return it->second.band;
      FailureOr<Band> c = complementOf(it->second.band);
      if (failed(c))
        why = "a select that keeps the outside of a two-sided mask";
      return c;
    }
    std::string reason;
    FailureOr<Band> band = bandOfCondition(cond, negate, reason);
    if (failed(band))
      why = reason;
    return band;
  }

  /// What a select by a mask keeps: the value `x` where the mask holds
  /// (select(m, x, c)) or where it fails (select(m, c, x), `keepsOnFalse`),
  /// and the constant `fill` elsewhere.
  struct MaskedChoice {
    Value x;
    double fill;
    bool keepsOnFalse;
  };
  FailureOr<MaskedChoice> maskedChoice(arith::SelectOp select,
                                       StringRef maskKind, Reason &why) {
    Value t = select.getTrueValue(), f = select.getFalseValue();
    std::optional<double> tc = constantOf(t), fc = constantOf(f);
    if (tc.has_value() == fc.has_value()) {
      why = ("a select by " + maskKind +
             " that does not choose between a value and a constant")
                .str();
      return failure();
    }
    double fill = fc ? *fc : *tc;
    if (std::isnan(fill)) {
      why = "a mask filled with NaN";
      return failure();
    }
    return MaskedChoice{fc ? t : f, fill, tc.has_value()};
  }

  /// select(mask, x, c) or select(mask, c, x) of a mask of loop indices: a
  /// band mask of x filled with c.
  FailureOr<Value> importMaskSelect(arith::SelectOp select, Reason &why) {
    FailureOr<MaskedChoice> c =
        maskedChoice(select, "a mask of loop indices", why);
    if (failed(c))
      return failure();
    FailureOr<Band> band =
        bandOf(select.getCondition(), /*negate=*/c->keepsOnFalse, why);
    if (failed(band))
      return failure();
    return bandMask(c->x, *band, c->fill, /*additive=*/false, why);
  }

  /// select(m, x, c) or select(m, c, x) of a boolean mask read from a
  /// tensor (bound to its 0/1 float conversion): mk.where of m, inverted for
  /// the second (masked_fill: c where m holds).
  FailureOr<Value> importWhere(arith::SelectOp select, Reason &why) {
    FailureOr<MaskedChoice> c = maskedChoice(select, "a boolean mask", why);
    if (failed(c))
      return failure();
    FailureOr<Value> x = import(c->x, why);
    if (failed(x))
      return failure();
    Value m = values.lookup(select.getCondition());
    return mk::WhereOp::create(b, loc, broadcastType(m, *x), m, *x,
                               b.getF64FloatAttr(c->fill),
                               c->keepsOnFalse ? b.getUnitAttr() : UnitAttr())
        .getResult();
  }

  /// An additive mask operand of an add: a float mask tensor of 0 and a
  /// fill bound to a block argument, or select(cond, 0, fill) (either way
  /// round) in the body. The band kept (where 0 is added) and the fill.
  std::optional<std::pair<Band, double>> additiveMask(Value v) {
    Band cond;
    std::optional<double> inside, outside;
    if (auto it = masks.find(v); it != masks.end()) {
      cond = it->second.band;
      inside = it->second.inside;
      outside = it->second.outside;
    } else {
      auto select = v.getDefiningOp<arith::SelectOp>();
      if (!select || select->getBlock() != body ||
          !select.getCondition().getType().isInteger(1))
        return std::nullopt;
      Reason ignored;
      FailureOr<Band> band = bandOf(select.getCondition(), false, ignored);
      if (failed(band))
        return std::nullopt;
      cond = *band;
      inside = constantOf(select.getTrueValue());
      outside = constantOf(select.getFalseValue());
    }
    if (!inside || !outside || std::isnan(*inside) || std::isnan(*outside))
      return std::nullopt;
    if (*inside == 0.0)
      return std::pair(cond, *outside);
    FailureOr<Band> rest = complementOf(cond);
    if (*outside != 0.0 || failed(rest))
      return std::nullopt;
    return std::pair(*rest, *inside);
  }

  FailureOr<Value> importSelect(arith::SelectOp select, Reason &why) {
    auto fail = [&](StringRef msg) -> FailureOr<Value> {
      if (why.empty())
        why = msg.str();
      return failure();
    };
    Value condition = select.getCondition();
    if (boolMasks.contains(condition))
      return importWhere(select, why);
    if (masks.count(condition) ||
        isa_and_nonnull<arith::CmpIOp, arith::AndIOp>(
            condition.getDefiningOp()))
      return importMaskSelect(select, why);
    auto cmp = select.getCondition().getDefiningOp<arith::CmpFOp>();
    if (!cmp || cmp->getBlock() != body)
      return fail("an arith.select whose condition is neither a compare of "
                  "loop indices, an i1 input nor an arith.cmpf in the body");
    Value lhs = cmp.getLhs(), rhs = cmp.getRhs();
    std::optional<double> lc = constantOf(lhs), rc = constantOf(rhs);
    if (lc.has_value() == rc.has_value())
      return fail("an arith.select of a compare that is not of a value "
                  "against a constant (a mask of two tensors' values)");
    Value x = rc ? lhs : rhs;
    double c = rc ? *rc : *lc;
    // The compare as `x > c` (greater) or `x < c` (!greater).
    bool greater;
    switch (cmp.getPredicate()) {
    case arith::CmpFPredicate::OGT:
    case arith::CmpFPredicate::OGE:
    case arith::CmpFPredicate::UGT:
    case arith::CmpFPredicate::UGE:
      greater = true;
      break;
    case arith::CmpFPredicate::OLT:
    case arith::CmpFPredicate::OLE:
    case arith::CmpFPredicate::ULT:
    case arith::CmpFPredicate::ULE:
      greater = false;
      break;
    default:
      return fail("an arith.select of a compare other than <, <=, >, >=");
    }
    if (lc)
      greater = !greater;
    Value t = select.getTrueValue(), f = select.getFalseValue();
    std::optional<double> tc = constantOf(t), fc = constantOf(f);
    // select(x > c, x, c) is max(x, c); select(x > c, c, x) is min(x, c).
    bool takesX;
    if (t == x && fc == c)
      takesX = true;
    else if (f == x && tc == c)
      takesX = false;
    else
      return fail("an arith.select that does not choose between the compared "
                  "value and the same constant (only max/min/clamp against a "
                  "constant are imported)");
    if (std::isnan(c))
      return fail("a compare against NaN");
    FailureOr<Value> v = import(x, why);
    if (failed(v))
      return failure();
    bool isMax = greater == takesX;
    bool merge = onlyUsedBy(x, {select, cmp});
    return isMax ? createClamp(b, loc, *v, c, INFINITY, merge)
                 : createClamp(b, loc, *v, -INFINITY, c, merge);
  }

  FailureOr<Value> importOp(Operation *def, Reason &why) {
    auto operand = [&](unsigned i) { return import(def->getOperand(i), why); };
    auto fail = [&](StringRef msg) -> FailureOr<Value> {
      if (why.empty())
        why = msg.str();
      return failure();
    };
    if (Value x = matchGeluErf(def)) {
      FailureOr<Value> t = import(x, why);
      if (failed(t))
        return failure();
      return unary<mk::GeluErfOp>(*t);
    }
    if (Value x = matchSigmoid(def)) {
      FailureOr<Value> t = import(x, why);
      if (failed(t))
        return failure();
      return unary<mk::SigmoidOp>(*t);
    }
    if (auto select = dyn_cast<arith::SelectOp>(def))
      return importSelect(select, why);
    // max(x, 0) is relu, as torch-mlir writes it (either operand order);
    // max/min against another constant is a clamp with one infinite bound.
    bool isMax = isa<arith::MaximumFOp, arith::MaxNumFOp>(def);
    bool isMin = isa<arith::MinimumFOp, arith::MinNumFOp>(def);
    // x + mask: an additive mask of loop indices (0 kept, fill added).
    if (isa<arith::AddFOp>(def))
      for (unsigned i = 0; i < 2; ++i)
        if (auto mask = additiveMask(def->getOperand(i)))
          return bandMask(def->getOperand(1 - i), mask->first, mask->second,
                          /*additive=*/true, why);
    if (isMax || isMin ||
        isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
            math::PowFOp>(def)) {
      std::optional<double> lc = constantOf(def->getOperand(0));
      std::optional<double> rc = constantOf(def->getOperand(1));
      if (lc && rc)
        return fail("a body op on two constants");
      if (rc || lc) {
        FailureOr<Value> x = operand(rc ? 0 : 1);
        if (failed(x))
          return failure();
        double c = rc ? *rc : *lc;
        // Identities: x + 0, x - 0, x * 1, x / 1, x ^ 1.
        if ((isa<arith::AddFOp>(def) && c == 0.0) ||
            (isa<arith::SubFOp>(def) && rc && c == 0.0) ||
            (isa<arith::MulFOp>(def) && c == 1.0) ||
            (isa<arith::DivFOp, math::PowFOp>(def) && rc && c == 1.0))
          return *x;
        if (isa<arith::AddFOp>(def))
          return scalarOp<mk::AddScalarOp>(*x, c);
        if (isa<arith::MulFOp>(def))
          return scalarOp<mk::MulScalarOp>(*x, c);
        if (isa<arith::SubFOp>(def))
          return rc ? scalarOp<mk::AddScalarOp>(*x, -c)
                    : scalarOp<mk::AddScalarOp>(unary<mk::NegOp>(*x), c);
        if (isa<arith::DivFOp>(def) && rc && c != 0.0)
          return scalarOp<mk::MulScalarOp>(*x, 1.0 / c);
        if (isa<arith::DivFOp>(def) && lc)
          return c == 1.0 ? unary<mk::ReciprocalOp>(*x)
                          : scalarOp<mk::MulScalarOp>(
                                unary<mk::ReciprocalOp>(*x), c);
        if (isa<math::PowFOp>(def) && rc) {
          if (c == 2.0)
            return unary<mk::SquareOp>(*x);
          if (c == 0.5)
            return unary<mk::SqrtOp>(*x);
          if (c == -0.5)
            return unary<mk::RsqrtOp>(*x);
          if (c == -1.0)
            return unary<mk::ReciprocalOp>(*x);
        }
        if ((isMax || isMin) && !std::isnan(c)) {
          bool merge = onlyUsedBy(def->getOperand(rc ? 0 : 1), {def});
          return isMax ? createClamp(b, loc, *x, c, INFINITY, merge)
                       : createClamp(b, loc, *x, -INFINITY, c, merge);
        }
        return fail("a constant operand in this position has no mk form");
      }
      FailureOr<Value> x = operand(0);
      if (failed(x))
        return failure();
      FailureOr<Value> y = operand(1);
      if (failed(y))
        return failure();
      if (isa<arith::AddFOp>(def))
        return binary<mk::AddOp>(*x, *y);
      if (isa<arith::SubFOp>(def))
        return binary<mk::SubOp>(*x, *y);
      if (isa<arith::MulFOp>(def)) {
        if (*x == *y)
          return unary<mk::SquareOp>(*x);
        return binary<mk::MulOp>(*x, *y);
      }
      if (isa<arith::DivFOp>(def))
        return binary<mk::DivOp>(*x, *y);
      if (isMax)
        return binary<mk::MaxOp>(*x, *y);
      if (isMin) {
        FailureOr<Value> max =
            binary<mk::MaxOp>(unary<mk::NegOp>(*x), unary<mk::NegOp>(*y));
        return unary<mk::NegOp>(*max);
      }
      return binary<mk::PowOp>(*x, *y);
    }
    // |x| = max(x, -x).
    if (auto abs = dyn_cast<math::AbsFOp>(def)) {
      FailureOr<Value> x = operand(0);
      if (failed(x))
        return failure();
      return binary<mk::MaxOp>(*x, unary<mk::NegOp>(*x));
    }
    if (auto fpowi = dyn_cast<math::FPowIOp>(def)) {
      IntegerAttr e;
      if (!matchPattern(fpowi.getRhs(), m_Constant(&e)) || e.getInt() != 2)
        return fail("math.fpowi with an exponent other than the constant 2");
      FailureOr<Value> x = operand(0);
      if (failed(x))
        return failure();
      return unary<mk::SquareOp>(*x);
    }
    if (def->getNumOperands() == 1 &&
        isa<arith::NegFOp, math::ExpOp, math::SqrtOp, math::RsqrtOp,
            math::TanhOp>(def)) {
      FailureOr<Value> x = operand(0);
      if (failed(x))
        return failure();
      if (isa<arith::NegFOp>(def))
        return unary<mk::NegOp>(*x);
      if (isa<math::ExpOp>(def))
        return unary<mk::ExpOp>(*x);
      if (isa<math::SqrtOp>(def))
        return unary<mk::SqrtOp>(*x);
      if (isa<math::TanhOp>(def))
        return unary<mk::TanhOp>(*x);
      return unary<mk::RsqrtOp>(*x);
    }
    if (constantOf(def->getResult(0)))
      return fail("a bare constant yielded by the body");
    return fail(("body op '" + def->getName().getStringRef() +
                 "' has no mk counterpart")
                    .str());
  }

  OpBuilder &b;
  Location loc;
  RankedTensorType resultType;
  Block *body;
  DenseMap<Value, Value> values;
  DenseMap<Value, double> constants;
  DenseMap<Value, BandTensor> masks;
  llvm::DenseSet<Value> boolMasks;
};

} // namespace mirage::import

#endif // MIRAGE_LIB_IMPORT_BODYIMPORTER_H
