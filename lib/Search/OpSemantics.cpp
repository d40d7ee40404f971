//===- OpSemantics.cpp - What a search op computes and costs ----*- C++ -*-===//
//
// Result dims and terms of the search ops, and their cost-model view
// (OpSemantics.h).
//
//===----------------------------------------------------------------------===//

#include "OpSemantics.h"

#include "Mirage/Interfaces/MirageInterfaces.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;

namespace mirage::search::detail {

std::optional<SValue> applyOp(TermBuilder &tb, Kind kind, const Params &p,
                              ArrayRef<const SValue *> args,
                              function_ref<int64_t(uint32_t)> size,
                              const LoopCtx &loop) {
  SValue r;
  const SValue &x = *args[0];
  r.variant = llvm::any_of(args, [](const SValue *a) { return a->variant; });
  r.after = llvm::any_of(args, [](const SValue *a) { return a->after; });
  for (const SValue *a : args)
    r.vars |= a->vars;
  r.shifted = llvm::any_of(args, [](const SValue *a) { return a->shifted; });
  // A step maximum is a shift: it is subtracted from an unshifted value or
  // accumulated (accum_max, or as the maximum of accum_rescaled_sum); any
  // other use is outside online softmax.
  for (auto [i, a] : llvm::enumerate(args))
    if (a->stepMax && !(kind == Kind::Sub && i == 1 && !args[0]->shifted) &&
        !(kind == Kind::AccMax) && !(kind == Kind::AccRescaledSum && i == 1))
      return std::nullopt;
  auto loopSum = [&](RecExpr::Id t) {
    if (loop.forloop == 1)
      return t;
    if (x.variant && loop.axis)
      return tb.sum(loop.forloop, loop.axis, t);
    return tb.scale(static_cast<double>(loop.forloop), t);
  };
  auto lastNonUnit = [&]() { return !x.labels.empty() && x.labels.back(); };
  switch (kind) {
  case Kind::Exp:
  case Kind::Square:
  case Kind::Sqrt:
  case Kind::Rsqrt:
  case Kind::Silu:
  case Kind::Gelu:
  case Kind::Relu:
  case Kind::Sigmoid: {
    static const AOp map[] = {AOp::Exp,  AOp::Square, AOp::Sqrt, AOp::Rsqrt,
                              AOp::Silu, AOp::Gelu,   AOp::Relu, AOp::Sigmoid};
    r.labels = x.labels;
    r.term = tb.unary(map[static_cast<unsigned>(kind)], x.term);
    return r;
  }
  case Kind::Neg:
    r.labels = x.labels;
    r.term = tb.scale(-1.0, x.term);
    return r;
  case Kind::MulScalar:
    r.labels = x.labels;
    r.term = tb.scale(p.a, x.term);
    return r;
  case Kind::AddScalar:
    r.labels = x.labels;
    r.term = tb.shift(p.a, x.term);
    return r;
  case Kind::Clamp:
    r.labels = x.labels;
    r.term = tb.clamp(p.a, p.b, x.term);
    return r;
  case Kind::Reciprocal:
    r.labels = x.labels;
    r.term = tb.reciprocal(x.term);
    return r;
  case Kind::BandMask: {
    int64_t rank = static_cast<int64_t>(x.labels.size());
    if (p.maskDims[1] < 0 || p.maskDims[1] >= rank || p.maskDims[0] >= rank)
      return std::nullopt;
    // After the loop a tile has no place along the walked axis (an
    // accumulator sums the steps): a mask there cannot be placed.
    for (int64_t d : p.maskDims)
      if (d >= 0 && x.after && loop.axis && x.labels[d] == loop.axis &&
          loop.forloop > 1)
        return std::nullopt;
    r.labels = x.labels;
    r.term = tb.mask(encodeMaskKey(p.lower, p.upper, p.a, p.additive,
                                   p.maskDims[0] >= 0 ? 2 : 1),
                     x.term);
    return r;
  }
  case Kind::Tanh:
    r.labels = x.labels;
    r.term = tb.tanh(x.term);
    return r;
  case Kind::GeluErf:
    r.labels = x.labels;
    r.term = tb.unary(AOp::GeluErf, x.term);
    return r;
  case Kind::Add:
  case Kind::Sub:
  case Kind::Mul:
  case Kind::Div:
  case Kind::Pow:
  case Kind::Max:
  case Kind::Where: {
    const SValue &y = *args[1];
    if (x.labels.size() != y.labels.size())
      return std::nullopt;
    // Broadcasting only across dims of size 1: two dims of different axes
    // never meet (the target has no such identification).
    for (auto [a, b] : llvm::zip(x.labels, y.labels)) {
      if (a && b && a != b)
        return std::nullopt;
      r.labels.push_back(a ? a : b);
    }
    if (kind == Kind::Add)
      r.term = tb.add(x.term, y.term);
    else if (kind == Kind::Sub)
      r.term = tb.sub(x.term, y.term);
    else if (kind == Kind::Mul)
      r.term = tb.mul(x.term, y.term);
    else if (kind == Kind::Div)
      r.term = tb.div(x.term, y.term);
    else if (kind == Kind::Pow)
      r.term = tb.binary(AOp::Pow, x.term, y.term);
    else if (kind == Kind::Where)
      r.term = tb.where(p.a, p.b != 0, x.term, y.term);
    else
      r.term = tb.binary(AOp::Maximum, x.term, y.term);
    return r;
  }
  case Kind::Matmul: {
    const SValue &y = *args[1];
    size_t rank = x.labels.size();
    if (rank < 2 || y.labels.size() != rank)
      return std::nullopt;
    uint32_t k = x.labels[rank - 1];
    if (k != y.labels[rank - 2])
      return std::nullopt;
    for (size_t d = 0; d + 2 < rank; ++d) {
      if (x.labels[d] != y.labels[d])
        return std::nullopt;
      r.labels.push_back(x.labels[d]);
    }
    r.labels.push_back(x.labels[rank - 2]);
    r.labels.push_back(y.labels[rank - 1]);
    RecExpr::Id prod = tb.mul(x.term, y.term);
    r.term = k ? tb.sum(size(k), k, prod) : prod;
    return r;
  }
  case Kind::ReduceSum:
  case Kind::ReduceMax: {
    if (p.dim < 0 || p.dim >= static_cast<int64_t>(x.labels.size()))
      return std::nullopt;
    uint32_t l = x.labels[p.dim];
    // A reduction over one element (a dim the grid splits into tiles of
    // 1) is the identity: it would only drop the dim's axis.
    if (!l || size(l) == 1)
      return std::nullopt;
    r.labels = x.labels;
    r.labels[p.dim] = 0;
    if (kind == Kind::ReduceSum) {
      r.term = tb.sum(size(l), l, x.term);
      return r;
    }
    r.term = tb.max(size(l), l, x.term);
    // The maximum of one loop step's part of the walked axis: it stands for
    // the maximum over the whole axis, which online softmax rescales every
    // step's results to (accum_rescaled_sum).
    if (loop.forloop > 1 && loop.axis && l == loop.axis && x.variant) {
      if (x.shifted)
        return std::nullopt;
      r.term = tb.max(loop.forloop, l, r.term);
      r.stepMax = r.shifted = true;
    }
    return r;
  }
  case Kind::RmsNorm: {
    if (!lastNonUnit())
      return std::nullopt;
    uint32_t l = x.labels.back();
    int64_t n = size(l);
    RecExpr::Id squares = tb.sum(n, l, tb.unary(AOp::Square, x.term));
    r.labels = x.labels;
    r.term = tb.div(x.term, tb.rms(n, p.a, squares));
    return r;
  }
  case Kind::AccSum:
  case Kind::AccMax:
    // Only a step maximum itself is accumulated while shifted: its running
    // maximum is the whole axis's, the term it already has.
    if (x.after || (x.shifted && !(kind == Kind::AccMax && x.stepMax)))
      return std::nullopt;
    r.labels = x.labels;
    if (kind == Kind::AccSum) {
      r.term = loopSum(x.term);
    } else {
      r.term = loop.forloop == 1 || !x.variant || !loop.axis || x.stepMax
                   ? x.term
                   : tb.max(loop.forloop, loop.axis, x.term);
    }
    r.variant = false;
    r.after = true;
    r.shifted = false;
    return r;
  case Kind::AccRescaledSum: {
    // acc' = acc * exp(M - M') + x * exp(m - M'): each step's x, relative
    // to its maximum m, is brought to the running maximum, so the result is
    // the sum over the loop of x relative to the whole axis's maximum,
    // which is the term x already has.
    const SValue &m = *args[1];
    if (x.after || m.after || !x.shifted || !m.stepMax ||
        m.labels.size() != x.labels.size())
      return std::nullopt;
    for (auto [a, b] : llvm::zip(x.labels, m.labels))
      if (b && a != b)
        return std::nullopt;
    r.labels = x.labels;
    r.term = loopSum(x.term);
    r.variant = false;
    r.after = true;
    r.shifted = false;
    return r;
  }
  case Kind::AccSumLast:
  case Kind::AccMeanLast:
  case Kind::AccRmsLast: {
    if (x.after || x.shifted || !lastNonUnit())
      return std::nullopt;
    uint32_t l = x.labels.back();
    int64_t n = size(l);
    r.labels = x.labels;
    r.labels.back() = 0;
    r.variant = false;
    r.after = true;
    if (kind == Kind::AccSumLast) {
      r.term = loopSum(tb.sum(n, l, x.term));
    } else if (kind == Kind::AccMeanLast) {
      r.term = tb.scale(1.0 / static_cast<double>(loop.forloop * n),
                        loopSum(tb.sum(n, l, x.term)));
    } else {
      RecExpr::Id sq = loopSum(tb.sum(n, l, tb.unary(AOp::Square, x.term)));
      r.term = tb.rms(loop.forloop * n, p.a, sq);
    }
    return r;
  }
  }
  return std::nullopt;
}

CostOp costOpOf(Kind kind, ArrayRef<int64_t> resultShape,
                ArrayRef<ArrayRef<int64_t>> argShapes, bool inLoop) {
  static const ElementwiseKind elementwise[] = {
      ElementwiseKind::Exp,        ElementwiseKind::Square,
      ElementwiseKind::Sqrt,       ElementwiseKind::Rsqrt,
      ElementwiseKind::Silu,       ElementwiseKind::Gelu,
      ElementwiseKind::Relu,       ElementwiseKind::Sigmoid,
      ElementwiseKind::Neg,        ElementwiseKind::MulScalar,
      ElementwiseKind::AddScalar,  ElementwiseKind::Clamp,
      ElementwiseKind::Reciprocal, ElementwiseKind::Tanh,
      ElementwiseKind::GeluErf,    ElementwiseKind::Add,
      ElementwiseKind::Sub,        ElementwiseKind::Mul,
      ElementwiseKind::Div,        ElementwiseKind::Pow,
      ElementwiseKind::Max,        ElementwiseKind::Where};
  static_assert(static_cast<unsigned>(Kind::Where) == 21 &&
                    static_cast<unsigned>(Kind::AccRescaledSum) -
                            static_cast<unsigned>(Kind::AccSum) ==
                        5,
                "the tables follow the order of Kind");
  CostOp c;
  c.inLoop = inLoop;
  c.result.assign(resultShape.begin(), resultShape.end());
  for (ArrayRef<int64_t> a : argShapes)
    c.args.emplace_back(a.begin(), a.end());
  switch (kind) {
  case Kind::Matmul:
    c.cls = CostOp::Class::Matmul;
    break;
  case Kind::ReduceSum:
  case Kind::ReduceMax:
    c.cls = CostOp::Class::Reduce;
    break;
  case Kind::RmsNorm:
    c.cls = CostOp::Class::RmsNorm;
    break;
  case Kind::BandMask:
    c.cls = CostOp::Class::Mask;
    break;
  case Kind::AccSum:
  case Kind::AccSumLast:
  case Kind::AccMeanLast:
  case Kind::AccRmsLast:
  case Kind::AccMax:
  case Kind::AccRescaledSum: {
    static const AccumulatorKind acc[] = {
        AccumulatorKind::Sum,      AccumulatorKind::SumLast,
        AccumulatorKind::MeanLast, AccumulatorKind::RmsLast,
        AccumulatorKind::Max,      AccumulatorKind::RescaledSum};
    c.cls = CostOp::Class::Accumulate;
    c.accumulator =
        acc[static_cast<unsigned>(kind) - static_cast<unsigned>(Kind::AccSum)];
    break;
  }
  default:
    c.cls = CostOp::Class::Elementwise;
    c.elementwise = elementwise[static_cast<unsigned>(kind)];
    break;
  }
  return c;
}

} // namespace mirage::search::detail
