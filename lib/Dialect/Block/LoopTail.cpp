//===- LoopTail.cpp - The walked tail of a block graph's loop ---*- C++ -*-===//
//
// A loop whose last trip overhangs the dim it walks (a `?` loop, [K21], or
// a static walked tail, [B26]) reads zeros past the end of that dim; the
// reductions across it read their operands through mb.tail_mask, filled
// with the reduction's identity ([B27], [B28], docs/dynamic.md). This file
// tracks which dim of each loop-body tile runs along the walked dim, checks
// the rule and inserts the masks it asks for.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Dialect/Block/IR/Block.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

#include <tuple>

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mirage;
using namespace mirage::mb;

InputIterOp mb::walkingIterator(ForLoopOp loop) {
  for (Operation &op : loop.getBody().front())
    if (auto it = dyn_cast<InputIterOp>(op);
        it && static_cast<int64_t>(it.getFmap()) >= 0)
      return it;
  return {};
}

std::optional<LoopWalk> mb::loopWalk(ForLoopOp loop) {
  InputIterOp it = walkingIterator(loop);
  // fmap is checked by the iterator's verifier ([B6]), which may not have
  // run yet.
  if (!it || static_cast<int64_t>(it.getFmap()) >= it.getType().getRank())
    return std::nullopt;
  int64_t dim = it.getFmap();
  return LoopWalk{it, dim, it.getLogicalShape()[dim],
                  it.getType().getDimSize(dim)};
}

bool mb::hasLoopTail(GraphKernelOpInterface kernel) {
  if (ShapedType::isDynamic(kernel.getForloopRange()))
    return true;
  bool tail = false;
  kernel->walk([&](InputIterOp it) {
    int64_t fmap = static_cast<int64_t>(it.getFmap());
    tail |= fmap >= 0 && llvm::is_contained(tailDims(it), fmap);
  });
  return tail;
}

LogicalResult TailMaskOp::verify() {
  auto loop = dyn_cast_or_null<ForLoopOp>(getOperation()->getParentOp());
  if (!loop)
    return emitOpError("[B27] must be directly in the body of an "
                       "mb.for_loop");
  int64_t rank = getType().getRank();
  int64_t dim = getDim();
  if (dim < 0 || dim >= rank)
    return emitOpError("[B27] dim ")
           << dim << " is not a dim of a rank-" << rank << " tile";
  if (std::isnan(getFill().convertToDouble()))
    return emitOpError("[B27] fill must not be NaN");
  if (!walkingIterator(loop))
    return emitOpError("[B27] no input iterator of the loop walks it: there "
                       "is no walked dim to mask");
  // An iterator's bad fmap is its own verifier's diagnostic ([B6]).
  std::optional<LoopWalk> walk = loopWalk(loop);
  if (!walk)
    return failure();
  int64_t walked = walk->tile;
  if (getType().getDimSize(dim) != walked)
    return emitOpError("[B27] dim ")
           << dim << " has " << getType().getDimSize(dim)
           << " elements, but the loop walks " << walked << " per trip";
  return success();
}

namespace {

/// What a loop-body tile holds past the end of the walked dim.
enum class Pad { Unknown, Zero, NegInf };

struct Walked {
  /// The tile's dim that runs along the walked dim, or -1.
  int64_t dim = -1;
  Pad pad = Pad::Unknown;
};

double fillOf(Pad pad) {
  return pad == Pad::NegInf ? -std::numeric_limits<double>::infinity() : 0.0;
}

/// Walks a loop body in order. For an operand that reduces across the
/// walked dim without its identity past the end, calls `need(operand, dim,
/// pad)`; for an op whose result a tail would make wrong whatever the mask,
/// `unsupported(op, why)`. Stops at the first callback that fails.
class TailWalk {
public:
  using NeedFn = function_ref<LogicalResult(OpOperand &, int64_t, Pad)>;
  using FailFn = function_ref<LogicalResult(Operation *, const Twine &)>;

  TailWalk(NeedFn need, FailFn unsupported)
      : need(need), unsupported(unsupported) {}

  LogicalResult run(ForLoopOp loop) {
    for (Operation &op : loop.getBody().front().without_terminator())
      if (failed(visit(op)))
        return failure();
    return success();
  }

private:
  Walked of(Value v) const { return walked.lookup(v); }

  /// Requires `operand`, whose dim `dim` runs along the walked dim, to
  /// hold `pad` past the end.
  LogicalResult require(OpOperand &operand, int64_t dim, Pad pad) {
    Walked w = of(operand.get());
    if (w.dim == dim && w.pad == pad)
      return success();
    return need(operand, dim, pad);
  }

  LogicalResult visit(Operation &op) {
    if (auto it = dyn_cast<InputIterOp>(op)) {
      // Reads past the end of the walked dim are zeros.
      int64_t fmap = static_cast<int64_t>(it.getFmap());
      if (fmap >= 0)
        walked[it.getTile()] = {fmap, Pad::Zero};
      return success();
    }
    if (auto mask = dyn_cast<TailMaskOp>(op)) {
      // A mask of another dim than the one that runs along the walked dim
      // masks nothing that matters and loses where it runs.
      Walked in = of(mask.getInput());
      if (in.dim >= 0 && in.dim != static_cast<int64_t>(mask.getDim()))
        return unsupported(&op, "masks dim " + Twine(mask.getDim()) +
                                    ", but dim " + Twine(in.dim) +
                                    " runs along the walked dim");
      double fill = mask.getFill().convertToDouble();
      Pad pad = fill == 0.0                         ? Pad::Zero
                : std::isinf(fill) && std::signbit(fill) ? Pad::NegInf
                                                         : Pad::Unknown;
      walked[mask.getResult()] = {static_cast<int64_t>(mask.getDim()), pad};
      return success();
    }
    if (llvm::none_of(op.getOperands(),
                      [&](Value v) { return of(v).dim >= 0; }))
      return success();
    if (auto acc = dyn_cast<AccumulatorOpInterface>(op))
      return visitAccumulator(acc);
    if (auto t = dyn_cast<TransposeOp>(op)) {
      Walked w = of(t.getInput());
      for (auto [k, p] : llvm::enumerate(t.getPerm()))
        if (p == w.dim)
          walked[t.getResult()] = {static_cast<int64_t>(k), w.pad};
      return success();
    }
    if (auto c = dyn_cast<ConvertOp>(op)) {
      // Zeros and -inf convert to themselves.
      walked[c.getResult()] = of(c.getInput());
      return success();
    }
    if (auto mm = dyn_cast<MatmulOp>(op))
      return visitMatmul(mm);
    if (isa<ReduceSumOp, ReduceMaxOp>(op)) {
      bool max = isa<ReduceMaxOp>(op);
      int64_t dim = max ? cast<ReduceMaxOp>(op).getDim()
                        : cast<ReduceSumOp>(op).getDim();
      Walked w = of(op.getOperand(0));
      if (w.dim == dim)
        return require(op.getOpOperand(0), dim, max ? Pad::NegInf : Pad::Zero);
      walked[op.getResult(0)] = {w.dim, Pad::Unknown};
      return success();
    }
    if (auto rms = dyn_cast<RmsNormOp>(op)) {
      Walked w = of(rms.getInput());
      if (w.dim == rms.getType().getRank() - 1)
        return unsupported(&op, "normalises across the walked dim of a loop "
                                "with a tail (its mean would count the "
                                "elements past the end)");
      walked[rms.getResult()] = {w.dim, Pad::Unknown};
      return success();
    }
    if (auto concat = dyn_cast<ConcatOp>(op))
      if (llvm::any_of(concat.getOperands(), [&](Value v) {
            return of(v).dim == static_cast<int64_t>(concat.getDim());
          }))
        return unsupported(&op, "concatenates along the walked dim of a loop "
                                "with a tail");
    return visitElementwise(op);
  }

  /// Ops whose result dims are their operands' (element-wise ops, thread
  /// graphs, masks, selects, concat along another dim): a result dim runs
  /// along the walked dim where an operand's does and is not broadcast.
  LogicalResult visitElementwise(Operation &op) {
    // Several results (a thread graph's) share one shape.
    if (op.getNumResults() == 0 ||
        llvm::any_of(op.getResultTypes(), [&](Type t) {
          return t != op.getResult(0).getType();
        }))
      return unsupported(&op, "has results of several shapes: cannot tell "
                              "which of their dims run along the walked dim");
    auto result = cast<RankedTensorType>(op.getResult(0).getType());
    int64_t dim = -1;
    for (Value v : op.getOperands()) {
      Walked w = of(v);
      auto type = dyn_cast<RankedTensorType>(v.getType());
      if (w.dim < 0 || !type || type.getRank() != result.getRank())
        continue;
      if (type.getDimSize(w.dim) != result.getDimSize(w.dim))
        continue; // broadcast along it
      if (dim >= 0 && dim != w.dim)
        return unsupported(&op, "combines two dims that run along the "
                                "walked dim");
      dim = w.dim;
    }
    if (dim < 0 && llvm::any_of(op.getOperands(), [&](Value v) {
          auto type = dyn_cast<RankedTensorType>(v.getType());
          return of(v).dim >= 0 && (!type || type.getRank() != result.getRank());
        }))
      return unsupported(&op, "changes the rank of a tile that runs along "
                              "the walked dim");
    for (Value r : op.getResults())
      walked[r] = {dim, Pad::Unknown};
    return success();
  }

  LogicalResult visitMatmul(MatmulOp mm) {
    int64_t r = mm.getType().getRank();
    Walked l = of(mm.getLhs()), q = of(mm.getRhs());
    // A contraction across the walked dim: each walking operand holds
    // zeros past the end, so every product there is zero.
    if (l.dim == r - 1 &&
        failed(require(mm->getOpOperand(0), r - 1, Pad::Zero)))
      return failure();
    if (q.dim == r - 2 &&
        failed(require(mm->getOpOperand(1), r - 2, Pad::Zero)))
      return failure();
    int64_t fromLhs = l.dim >= 0 && l.dim != r - 1 ? l.dim : -1;
    int64_t fromRhs = q.dim >= 0 && q.dim != r - 2 ? q.dim : -1;
    if (fromLhs >= 0 && fromRhs >= 0 && fromLhs != fromRhs)
      return unsupported(mm, "multiplies two tiles along different dims "
                             "that both run along the walked dim");
    walked[mm.getResult()] = {std::max(fromLhs, fromRhs), Pad::Unknown};
    return success();
  }

  LogicalResult visitAccumulator(AccumulatorOpInterface acc) {
    Operation *op = acc;
    OpOperand &input = op->getOpOperand(0);
    Walked w = of(input.get());
    switch (acc.getAccumulatorKind()) {
    case AccumulatorKind::Sum:
    case AccumulatorKind::SumLast:
    case AccumulatorKind::SumTo:
      return w.dim >= 0 ? require(input, w.dim, Pad::Zero) : success();
    case AccumulatorKind::Max:
      return w.dim >= 0 ? require(input, w.dim, Pad::NegInf) : success();
    case AccumulatorKind::MeanLast:
    case AccumulatorKind::RmsLast:
      return w.dim >= 0
                 ? unsupported(op, "divides by the count of the walked "
                                   "elements, which a tail would change")
                 : success();
    case AccumulatorKind::RescaledSum: {
      if (w.dim >= 0 && failed(require(input, w.dim, Pad::Zero)))
        return failure();
      Walked m = of(op->getOperand(1));
      return m.dim >= 0 ? require(op->getOpOperand(1), m.dim, Pad::NegInf)
                        : success();
    }
    }
    return success();
  }

  NeedFn need;
  FailFn unsupported;
  llvm::DenseMap<Value, Walked> walked;
};

/// [B28] the walking iterators of a loop with a tail agree on the walked
/// extent and the tile along it.
LogicalResult checkWalkingIterators(ForLoopOp loop, std::string &why) {
  std::optional<std::pair<int64_t, int64_t>> first;
  for (Operation &op : loop.getBody().front()) {
    auto it = dyn_cast<InputIterOp>(op);
    if (!it || static_cast<int64_t>(it.getFmap()) < 0)
      continue;
    int64_t fmap = it.getFmap();
    std::pair<int64_t, int64_t> walk = {it.getLogicalShape()[fmap],
                                        it.getType().getDimSize(fmap)};
    if (!first) {
      first = walk;
      continue;
    }
    if (walk.second != first->second ||
        (!ShapedType::isDynamic(walk.first) &&
         !ShapedType::isDynamic(first->first) && walk.first != first->first)) {
      why = "walking input iterators of a loop with a tail must walk one "
            "extent with one tile";
      return failure();
    }
  }
  return success();
}

} // namespace

LogicalResult mb::verifyLoopTail(GraphKernelOpInterface kernel) {
  ForLoopOp loop;
  kernel->walk([&](ForLoopOp l) { loop = l; });
  if (!loop || !hasLoopTail(kernel))
    return success();
  std::string why;
  if (failed(checkWalkingIterators(loop, why)))
    return loop.emitOpError("[B28] ") << why;
  auto need = [&](OpOperand &operand, int64_t dim, Pad pad) {
    return operand.getOwner()->emitOpError("[B28] operand #")
           << operand.getOperandNumber()
           << " runs along the walked dim of a loop with a tail (dim " << dim
           << "): it must be read through mb.tail_mask with fill "
           << (pad == Pad::NegInf ? "-inf" : "0")
           << " (or, for a sum, straight from its input iterator)";
  };
  auto unsupported = [&](Operation *op, const Twine &reason) {
    return op->emitOpError("[B28] ") << reason;
  };
  return TailWalk(need, unsupported).run(loop);
}

LogicalResult mb::maskLoopTail(GraphKernelOpInterface kernel,
                               std::string &why) {
  ForLoopOp loop;
  kernel->walk([&](ForLoopOp l) { loop = l; });
  if (!loop || !hasLoopTail(kernel))
    return success();
  if (failed(checkWalkingIterators(loop, why)))
    return failure();
  // One mask per value, dim and fill, right after the value: its users
  // share it.
  llvm::DenseMap<std::tuple<Value, int64_t, int>, Value> masks;
  auto need = [&](OpOperand &operand, int64_t dim, Pad pad) {
    Value v = operand.get();
    Value &masked = masks[{v, dim, static_cast<int>(pad)}];
    if (!masked) {
      OpBuilder b(operand.getOwner());
      b.setInsertionPointAfterValue(v);
      masked = TailMaskOp::create(b, v.getLoc(), v.getType(), v,
                                  b.getI64IntegerAttr(dim),
                                  b.getF64FloatAttr(fillOf(pad)));
    }
    operand.set(masked);
    return success();
  };
  auto unsupported = [&](Operation *op, const Twine &reason) {
    why = ("'" + op->getName().getStringRef() + "' " + reason).str();
    return failure();
  };
  return TailWalk(need, unsupported).run(loop);
}
