//===- Masks.cpp - Masks from index compares in linalg bodies -------------===//
//
// See Masks.h.
//
//===----------------------------------------------------------------------===//

#include "Masks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Matchers.h"

#include <map>

using namespace mlir;

namespace mirage::import {
namespace {

/// sum(coeff[d] * i[d]) + constant over loop indices.
struct Linear {
  std::map<int64_t, int64_t> coeff;
  int64_t constant = 0;
};

void dropZeros(Linear &l) {
  for (auto it = l.coeff.begin(); it != l.coeff.end();)
    it = it->second == 0 ? l.coeff.erase(it) : std::next(it);
}

/// `v` as a linear form of loop indices (linalg.index, integer constants,
/// index casts, addi, subi), or nullopt.
std::optional<Linear> linearOf(Value v) {
  APInt c;
  if (matchPattern(v, m_ConstantInt(&c)))
    return Linear{{}, c.getSExtValue()};
  Operation *def = v.getDefiningOp();
  if (auto idx = dyn_cast_or_null<linalg::IndexOp>(def))
    return Linear{{{static_cast<int64_t>(idx.getDim()), 1}}, 0};
  if (isa_and_nonnull<arith::IndexCastOp, arith::IndexCastUIOp,
                      arith::ExtSIOp, arith::ExtUIOp>(def))
    return linearOf(def->getOperand(0));
  if (!isa_and_nonnull<arith::AddIOp, arith::SubIOp>(def))
    return std::nullopt;
  std::optional<Linear> a = linearOf(def->getOperand(0)),
                        b = linearOf(def->getOperand(1));
  if (!a || !b)
    return std::nullopt;
  int64_t sign = isa<arith::SubIOp>(def) ? -1 : 1;
  for (auto [d, k] : b->coeff)
    a->coeff[d] += sign * k;
  a->constant += sign * b->constant;
  dropZeros(*a);
  return a;
}

/// Whether the form is never negative (so that an unsigned compare of it
/// agrees with a signed one).
bool nonNegative(const Linear &l) {
  return l.constant >= 0 &&
         llvm::all_of(l.coeff, [](const auto &e) { return e.second > 0; });
}

/// Two dims in increasing order: i[r] - i[c] in [l, u] is i[c] - i[r] in
/// [-u, -l].
void putInOrder(Band &b) {
  if (b.dims.size() != 2 || b.dims[0] < b.dims[1])
    return;
  std::swap(b.dims[0], b.dims[1]);
  std::optional<int64_t> lower = b.lower;
  b.lower = b.upper ? std::optional<int64_t>(-*b.upper) : std::nullopt;
  b.upper = lower ? std::optional<int64_t>(-*lower) : std::nullopt;
}

FailureOr<Band> bandOfCompare(arith::CmpIOp cmp, bool negate,
                              std::string &why) {
  std::optional<Linear> l = linearOf(cmp.getLhs()), r = linearOf(cmp.getRhs());
  if (!l || !r) {
    why = "a compare of values other than loop indices and constants";
    return failure();
  }
  using P = arith::CmpIPredicate;
  P pred = cmp.getPredicate();
  bool isUnsigned = pred == P::ult || pred == P::ule || pred == P::ugt ||
                    pred == P::uge;
  if (isUnsigned && !(nonNegative(*l) && nonNegative(*r))) {
    why = "an unsigned compare of index expressions that may be negative";
    return failure();
  }
  // F = L - R; the condition is `F pred 0`.
  Linear f = *l;
  for (auto [d, k] : r->coeff)
    f.coeff[d] -= k;
  f.constant -= r->constant;
  dropZeros(f);
  // As <, <=, >, >=, == or !=, negated if asked.
  enum Rel { LT, LE, GT, GE, EQ, NE } rel;
  switch (pred) {
  case P::slt:
  case P::ult:
    rel = LT;
    break;
  case P::sle:
  case P::ule:
    rel = LE;
    break;
  case P::sgt:
  case P::ugt:
    rel = GT;
    break;
  case P::sge:
  case P::uge:
    rel = GE;
    break;
  case P::eq:
    rel = EQ;
    break;
  case P::ne:
    rel = NE;
    break;
  }
  if (negate) {
    static const Rel opposite[] = {GE, GT, LE, LT, NE, EQ};
    rel = opposite[rel];
  }
  Band band;
  if (f.coeff.size() == 1 && std::abs(f.coeff.begin()->second) == 1) {
    band.dims = {f.coeff.begin()->first};
  } else if (f.coeff.size() == 2 &&
             f.coeff.begin()->second == -f.coeff.rbegin()->second &&
             std::abs(f.coeff.begin()->second) == 1) {
    band.dims = {f.coeff.begin()->first, f.coeff.rbegin()->first};
  } else {
    why = "a compare that is not of one index, or of the difference of two, "
          "against a constant";
    return failure();
  }
  // Make the coefficient of the last dim +1: F = i[c] (- i[r]) + k.
  if (f.coeff.rbegin()->second < 0) {
    f.constant = -f.constant;
    static const Rel flipped[] = {GT, GE, LT, LE, EQ, NE};
    rel = flipped[rel];
  }
  int64_t k = f.constant;
  switch (rel) {
  case LT:
    band.upper = -k - 1;
    break;
  case LE:
    band.upper = -k;
    break;
  case GT:
    band.lower = -k + 1;
    break;
  case GE:
    band.lower = -k;
    break;
  case EQ:
    band.lower = band.upper = -k;
    break;
  case NE:
    why = "a compare for inequality (its elements are no band)";
    return failure();
  }
  return band;
}

} // namespace

FailureOr<Band> bandOfCondition(Value cond, bool negate, std::string &why) {
  if (auto cmp = cond.getDefiningOp<arith::CmpIOp>())
    return bandOfCompare(cmp, negate, why);
  auto andOp = cond.getDefiningOp<arith::AndIOp>();
  if (!andOp) {
    why = "a condition that is not an arith.cmpi of loop indices (or an "
          "arith.andi of such compares)";
    return failure();
  }
  if (negate) {
    why = "the complement of two compares (no band)";
    return failure();
  }
  FailureOr<Band> a = bandOfCondition(andOp.getLhs(), false, why);
  if (failed(a))
    return failure();
  FailureOr<Band> b = bandOfCondition(andOp.getRhs(), false, why);
  if (failed(b))
    return failure();
  if (a->dims != b->dims) {
    why = "an arith.andi of compares of different indices";
    return failure();
  }
  Band both = *a;
  if (b->lower)
    both.lower = both.lower ? std::max(*both.lower, *b->lower) : *b->lower;
  if (b->upper)
    both.upper = both.upper ? std::min(*both.upper, *b->upper) : *b->upper;
  if (both.lower && both.upper && *both.lower > *both.upper) {
    why = "compares that no index satisfies";
    return failure();
  }
  return both;
}

FailureOr<Band> complementOf(const Band &band) {
  if (band.lower && band.upper)
    return failure();
  Band c = band;
  c.lower = band.upper ? std::optional<int64_t>(*band.upper + 1) : std::nullopt;
  c.upper = band.lower ? std::optional<int64_t>(*band.lower - 1) : std::nullopt;
  return c;
}

std::optional<BandTensor> bandTensorOf(Value tensor) {
  auto gen = tensor.getDefiningOp<linalg::GenericOp>();
  if (!gen || gen->getNumResults() != 1 || !gen.hasPureTensorSemantics() ||
      gen.getNumReductionLoops() != 0)
    return std::nullopt;
  Block &body = gen.getRegion().front();
  // Its inputs and output are not read: only the indices are.
  if (llvm::any_of(body.getArguments(),
                   [](BlockArgument a) { return !a.use_empty(); }))
    return std::nullopt;
  AffineMap out = gen.getIndexingMapsArray().back();
  if (!out.isPermutation())
    return std::nullopt;
  Value yielded = body.getTerminator()->getOperand(0);
  BandTensor t;
  std::string why;
  Value cond = yielded;
  if (auto select = yielded.getDefiningOp<arith::SelectOp>()) {
    FloatAttr inside, outside;
    if (!matchPattern(select.getTrueValue(), m_Constant(&inside)) ||
        !matchPattern(select.getFalseValue(), m_Constant(&outside)))
      return std::nullopt;
    t.inside = inside.getValueAsDouble();
    t.outside = outside.getValueAsDouble();
    cond = select.getCondition();
  } else if (!yielded.getType().isInteger(1)) {
    return std::nullopt;
  }
  FailureOr<Band> band = bandOfCondition(cond, false, why);
  if (failed(band))
    return std::nullopt;
  // Loop dims to the tensor's dims (the output map is a permutation).
  t.band = *band;
  for (int64_t &d : t.band.dims)
    d = *out.getResultPosition(getAffineDimExpr(d, gen.getContext()));
  putInOrder(t.band);
  return t;
}

std::optional<Band> bandThroughMap(const Band &band, AffineMap map) {
  Band b = band;
  for (int64_t &d : b.dims) {
    if (d >= static_cast<int64_t>(map.getNumResults()))
      return std::nullopt;
    auto dim = dyn_cast<AffineDimExpr>(map.getResult(d));
    if (!dim)
      return std::nullopt;
    d = dim.getPosition();
  }
  if (b.dims.size() == 2 && b.dims[0] == b.dims[1])
    return std::nullopt;
  putInOrder(b);
  return b;
}

} // namespace mirage::import
