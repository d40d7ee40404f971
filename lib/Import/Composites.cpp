//===- Composites.cpp - Fuse imported parts into composite mk ops ---------===//
//
// Matched forms (x the same value throughout, every intermediate used once):
//   div:      mul(x, reciprocal(y))                 (either operand order)
//   sigmoid:  reciprocal(add_scalar(exp(neg(x)), 1))
//   silu:     mul(x, sigmoid(x))                    (either operand order)
//             div(x, add_scalar(exp(neg(x)), 1))
//   rms_norm: mul(x, rsqrt(add_scalar(m, eps)))     (either operand order)
//             div(x, sqrt(add_scalar(m, eps)))
//   with m = mul_scalar(reduce_sum(square(x), last dim), c), c * n == 1 for n
//   the size of the last dim.
//   clamp:    clamp(clamp(x)), clamp(relu(x))      (ranges that overlap; the
//             import writes max/min against a constant as a clamp with an
//             infinite bound, so relu6 = min(max(x, 0), 6) ends here)
// Anything else stays as its parts.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Import/Composites.h"
#include "Mirage/Dialect/Kernel/IR/Kernel.h"

#include "Common.h"

#include "mlir/IR/Builders.h"
#include <cmath>

using namespace mlir;

namespace mirage {
namespace {

/// The defining op of `v` when it is an OpTy whose result has one use.
template <typename OpTy> OpTy singleUse(Value v) {
  auto op = v.getDefiningOp<OpTy>();
  return op && op->hasOneUse() ? op : OpTy();
}

/// Mean of squares over the last dim of `x`: returns the eps-added value's
/// operand chain root check; `e` is the add_scalar(mean, eps) value.
std::optional<double> matchMeanSquarePlusEps(Value e, Value x) {
  auto add = singleUse<mk::AddScalarOp>(e);
  if (!add)
    return std::nullopt;
  auto mean = singleUse<mk::MulScalarOp>(add.getInput());
  if (!mean)
    return std::nullopt;
  auto sum = singleUse<mk::ReduceSumOp>(mean.getInput());
  auto type = cast<RankedTensorType>(x.getType());
  if (!sum || (int64_t)sum.getDim() != type.getRank() - 1)
    return std::nullopt;
  auto square = singleUse<mk::SquareOp>(sum.getInput());
  if (!square || square.getInput() != x)
    return std::nullopt;
  double n = type.getShape().back();
  if (std::abs(mean.getScalar().convertToDouble() * n - 1.0) > 1e-6)
    return std::nullopt;
  double eps = add.getScalar().convertToDouble();
  if (eps < 0)
    return std::nullopt;
  return eps;
}

/// The x of 1 + exp(-x) (add_scalar 1 of exp of neg, each used once), the
/// denominator of a sigmoid written out; null otherwise. `chain` gets the
/// three ops.
Value matchOnePlusExpNeg(Value d, SmallVectorImpl<Operation *> &chain) {
  auto add = singleUse<mk::AddScalarOp>(d);
  if (!add || add.getScalar().convertToDouble() != 1.0)
    return {};
  auto exp = singleUse<mk::ExpOp>(add.getInput());
  if (!exp)
    return {};
  auto neg = singleUse<mk::NegOp>(exp.getInput());
  if (!neg)
    return {};
  chain.append({add, exp, neg});
  return neg.getInput();
}

/// Replaces `op` by a `OpTy` of `x` and erases `op` and `chain` (users
/// first).
template <typename OpTy>
void replaceByUnary(OpBuilder &b, Operation *op, Value x,
                    ArrayRef<Operation *> chain) {
  b.setInsertionPoint(op);
  Value v = OpTy::create(b, op->getLoc(), TypeRange{op->getResult(0).getType()},
                         ValueRange{x})
                .getResult();
  op->getResult(0).replaceAllUsesWith(v);
  op->erase();
  for (Operation *c : chain)
    c->erase();
}

} // namespace

unsigned fuseComposites(func::FuncOp func) {
  unsigned count = 0;
  OpBuilder b(func.getContext());
  // Clamps of a single-use clamp or relu, in program order (so a chain
  // merges from its start).
  SmallVector<mk::ClampOp> clamps;
  func.walk([&](mk::ClampOp op) { clamps.push_back(op); });
  for (mk::ClampOp op : clamps) {
    Operation *inner = op.getInput().getDefiningOp();
    if (!isa_and_nonnull<mk::ClampOp, mk::ReluOp>(inner) ||
        !inner->hasOneUse())
      continue;
    b.setInsertionPoint(op);
    Value merged = import::createClamp(
        b, op.getLoc(), op.getInput(), op.getMin().convertToDouble(),
        op.getMax().convertToDouble(), /*merge=*/true);
    op.getResult().replaceAllUsesWith(merged);
    op->erase();
    if (inner->getBlock() && inner->use_empty()) {
      inner->erase();
      ++count;
    }
  }
  // Sigmoids written out, so that the silu below sees them.
  SmallVector<mk::ReciprocalOp> reciprocals;
  func.walk([&](mk::ReciprocalOp op) { reciprocals.push_back(op); });
  for (mk::ReciprocalOp op : reciprocals) {
    SmallVector<Operation *> chain;
    Value x = matchOnePlusExpNeg(op.getInput(), chain);
    if (!x || x.getType() != op.getType())
      continue;
    replaceByUnary<mk::SigmoidOp>(b, op, x, chain);
    ++count;
  }
  SmallVector<Operation *> ops;
  func.walk([&](Operation *op) {
    if (isa<mk::MulOp, mk::DivOp>(op))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    Value lhs = op->getOperand(0), rhs = op->getOperand(1);
    Type type = op->getResult(0).getType();
    b.setInsertionPoint(op);
    if (isa<mk::MulOp>(op)) {
      // silu
      for (auto [x, s] : {std::pair(lhs, rhs), std::pair(rhs, lhs)}) {
        auto sig = singleUse<mk::SigmoidOp>(s);
        if (!sig || sig.getInput() != x || x.getType() != type)
          continue;
        Value silu =
            mk::SiluOp::create(b, op->getLoc(), TypeRange{type}, ValueRange{x})
                .getResult();
        op->getResult(0).replaceAllUsesWith(silu);
        op->erase();
        sig->erase();
        ++count;
        break;
      }
      if (!op->getBlock())
        continue;
      // x * reciprocal(y) is x / y (torch's `e * (1 / s)`); tosa's form
      // folds at import already. The rms_norm match below then sees the div.
      for (auto [x, r] : {std::pair(lhs, rhs), std::pair(rhs, lhs)}) {
        // y broadcasts to x as reciprocal(y) did; x must be the full shape.
        auto recip = singleUse<mk::ReciprocalOp>(r);
        if (!recip || x.getType() != type)
          continue;
        auto div = mk::DivOp::create(b, op->getLoc(), TypeRange{type},
                                     ValueRange{x, recip.getInput()});
        op->getResult(0).replaceAllUsesWith(div.getResult());
        op->erase();
        recip->erase();
        op = div;
        lhs = div->getOperand(0);
        rhs = div->getOperand(1);
        ++count;
        break;
      }
    }
    if (isa<mk::DivOp>(op)) {
      // silu as x / (1 + exp(-x))
      SmallVector<Operation *> chain;
      if (matchOnePlusExpNeg(rhs, chain) == lhs && lhs.getType() == type) {
        replaceByUnary<mk::SiluOp>(b, op, lhs, chain);
        ++count;
        continue;
      }
    }
    // rms_norm
    for (auto [x, r] : {std::pair(lhs, rhs), std::pair(rhs, lhs)}) {
      if (isa<mk::DivOp>(op) && x != lhs)
        break;
      // [C0.21] rms_norm normalises a static last dim.
      if (x.getType() != type ||
          cast<RankedTensorType>(type).isDynamicDim(
              cast<RankedTensorType>(type).getRank() - 1))
        continue;
      Operation *root = nullptr;
      Value e;
      if (isa<mk::MulOp>(op)) {
        if (auto rs = singleUse<mk::RsqrtOp>(r))
          root = rs, e = rs.getInput();
      } else if (auto sq = singleUse<mk::SqrtOp>(r)) {
        root = sq, e = sq.getInput();
      }
      if (!root)
        continue;
      std::optional<double> eps = matchMeanSquarePlusEps(e, x);
      if (!eps)
        continue;
      // Collect the chain before rewriting: add, mean, sum, square.
      SmallVector<Operation *> chain;
      Operation *it = e.getDefiningOp();
      for (int i = 0; i < 4; ++i) {
        chain.push_back(it);
        it = it->getOperand(0).getDefiningOp();
      }
      Value norm = mk::RmsNormOp::create(b, op->getLoc(), TypeRange{type}, x,
                                         Value(), b.getF64FloatAttr(*eps))
                       .getResult();
      op->getResult(0).replaceAllUsesWith(norm);
      op->erase();
      root->erase();
      for (Operation *c : chain)
        c->erase();
      ++count;
      break;
    }
  }
  return count;
}

} // namespace mirage
