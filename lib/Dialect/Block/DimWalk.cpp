//===- DimWalk.cpp - Which dim of each tile runs along a dim --------------===//
//
// See DimWalk.h.
//
//===----------------------------------------------------------------------===//

#include "DimWalk.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mirage;
using namespace mirage::mb;
using namespace mirage::mb::detail;

double mb::detail::fillOf(Pad pad) {
  return pad == Pad::NegInf ? -std::numeric_limits<double>::infinity() : 0.0;
}

LogicalResult DimWalk::run(Block &block) {
  for (Operation &op : block.without_terminator())
    if (failed(visit(op)))
      return failure();
  return success();
}

/// Requires `operand`, whose dim `dim` runs along the followed dim, to hold
/// `pad` past the end.
LogicalResult DimWalk::require(OpOperand &operand, int64_t dim, Pad pad) {
  Tracked t = of(operand.get());
  if (t.dim == dim && t.pad == pad && mode == Mode::LoopWalk)
    return success();
  return need(operand, dim, pad);
}

LogicalResult DimWalk::visit(Operation &op) {
  if (auto it = dyn_cast<InputIterOp>(op)) {
    Tracked t = seed(it);
    if (t.dim >= 0)
      tracked[it.getTile()] = t;
    return success();
  }
  if (auto loop = dyn_cast<ForLoopOp>(op))
    return visitLoop(loop);
  if (auto saver = dyn_cast<OutputSaverOp>(op))
    return visitSaver(saver);
  if (auto mask = dyn_cast<TailMaskOp>(op); mask && mode == Mode::LoopWalk) {
    // A mask of another dim than the one that runs along the walked dim
    // masks nothing that matters and loses where it runs.
    Tracked in = of(mask.getInput());
    if (in.dim >= 0 && in.dim != static_cast<int64_t>(mask.getDim()))
      return unsupported(&op, "masks dim " + Twine(mask.getDim()) +
                                  ", but dim " + Twine(in.dim) +
                                  " runs along the walked dim");
    double fill = mask.getFill().convertToDouble();
    Pad pad = fill == 0.0                              ? Pad::Zero
              : std::isinf(fill) && std::signbit(fill) ? Pad::NegInf
                                                       : Pad::Unknown;
    tracked[mask.getResult()] = {static_cast<int64_t>(mask.getDim()), pad};
    return success();
  }
  if (llvm::none_of(op.getOperands(), [&](Value v) { return of(v).dim >= 0; }))
    return success();
  if (auto acc = dyn_cast<AccumulatorOpInterface>(op))
    return visitAccumulator(acc);
  if (auto t = dyn_cast<TransposeOp>(op)) {
    Tracked w = of(t.getInput());
    for (auto [k, p] : llvm::enumerate(t.getPerm()))
      if (p == w.dim)
        tracked[t.getResult()] = {static_cast<int64_t>(k), w.pad};
    return success();
  }
  if (auto c = dyn_cast<ConvertOp>(op)) {
    // Zeros and -inf convert to themselves.
    tracked[c.getResult()] = of(c.getInput());
    return success();
  }
  if (auto mm = dyn_cast<MatmulOp>(op))
    return visitMatmul(mm);
  if (isa<ReduceSumOp, ReduceMaxOp>(op)) {
    bool max = isa<ReduceMaxOp>(op);
    int64_t dim =
        max ? cast<ReduceMaxOp>(op).getDim() : cast<ReduceSumOp>(op).getDim();
    Tracked w = of(op.getOperand(0));
    if (w.dim == dim)
      return require(op.getOpOperand(0), dim, max ? Pad::NegInf : Pad::Zero);
    tracked[op.getResult(0)] = {w.dim, Pad::Unknown};
    return success();
  }
  if (auto rms = dyn_cast<RmsNormOp>(op)) {
    Tracked w = of(rms.getInput());
    if (w.dim == rms.getType().getRank() - 1)
      return unsupported(
          &op, mode == Mode::LoopWalk
                   ? "normalises across the walked dim of a loop with a "
                     "tail (its mean would count the elements past the end)"
                   : "normalises across the partitioned dim");
    tracked[rms.getResult()] = {w.dim, Pad::Unknown};
    return success();
  }
  if (auto concat = dyn_cast<ConcatOp>(op))
    if (llvm::any_of(concat.getOperands(), [&](Value v) {
          return of(v).dim == static_cast<int64_t>(concat.getDim());
        }))
      return unsupported(&op, mode == Mode::LoopWalk
                                  ? "concatenates along the walked dim of a "
                                    "loop with a tail"
                                  : "concatenates along the partitioned dim");
  return visitElementwise(op);
}

/// The loop's results run along the followed dim where what its body
/// yields does (GridPartition; a walked loop's body is the whole walk).
LogicalResult DimWalk::visitLoop(ForLoopOp loop) {
  Block &body = loop.getBody().front();
  if (failed(run(body)))
    return failure();
  for (auto [result, yielded] :
       llvm::zip(loop->getResults(), body.getTerminator()->getOperands()))
    if (Tracked t = of(yielded); t.dim >= 0)
      tracked[result] = {t.dim, Pad::Unknown};
  return success();
}

/// A saver of a partitioned tile writes it where the grid dim maps.
LogicalResult DimWalk::visitSaver(OutputSaverOp saver) {
  Tracked t = of(saver.getInput());
  if (mode != Mode::GridPartition || t.dim < 0)
    return success();
  if (saver.getOmap()[gridDim] != t.dim)
    return unsupported(saver, "writes dim " + Twine(t.dim) +
                                  ", which runs along the partitioned dim, "
                                  "where the grid dim does not map it");
  return success();
}

/// Ops whose result dims are their operands' (element-wise ops, thread
/// graphs, masks, selects, concat along another dim): a result dim runs
/// along the followed dim where an operand's does and is not broadcast.
LogicalResult DimWalk::visitElementwise(Operation &op) {
  // Several results (a thread graph's) share one shape.
  if (op.getNumResults() == 0 || llvm::any_of(op.getResultTypes(), [&](Type t) {
        return t != op.getResult(0).getType();
      }))
    return unsupported(&op, "has results of several shapes: cannot tell "
                            "which of their dims run along " +
                                followed());
  auto result = cast<RankedTensorType>(op.getResult(0).getType());
  int64_t dim = -1;
  for (Value v : op.getOperands()) {
    Tracked w = of(v);
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (w.dim < 0 || !type || type.getRank() != result.getRank())
      continue;
    if (type.getDimSize(w.dim) != result.getDimSize(w.dim))
      continue; // broadcast along it
    if (dim >= 0 && dim != w.dim)
      return unsupported(&op, "combines two dims that run along " + followed());
    dim = w.dim;
  }
  if (dim < 0 && llvm::any_of(op.getOperands(), [&](Value v) {
        auto type = dyn_cast<RankedTensorType>(v.getType());
        return of(v).dim >= 0 && (!type || type.getRank() != result.getRank());
      }))
    return unsupported(&op, "changes the rank of a tile that runs along " +
                                followed());
  for (Value r : op.getResults())
    tracked[r] = {dim, Pad::Unknown};
  return success();
}

LogicalResult DimWalk::visitMatmul(MatmulOp mm) {
  int64_t r = mm.getType().getRank();
  Tracked l = of(mm.getLhs()), q = of(mm.getRhs());
  // A contraction across the walked dim: each walking operand holds zeros
  // past the end, so every product there is zero.
  if (l.dim == r - 1 && failed(require(mm->getOpOperand(0), r - 1, Pad::Zero)))
    return failure();
  if (q.dim == r - 2 && failed(require(mm->getOpOperand(1), r - 2, Pad::Zero)))
    return failure();
  int64_t fromLhs = l.dim >= 0 && l.dim != r - 1 ? l.dim : -1;
  int64_t fromRhs = q.dim >= 0 && q.dim != r - 2 ? q.dim : -1;
  if (fromLhs >= 0 && fromRhs >= 0 && fromLhs != fromRhs)
    return unsupported(mm, "multiplies two tiles along different dims that "
                           "both run along " +
                               followed());
  tracked[mm.getResult()] = {std::max(fromLhs, fromRhs), Pad::Unknown};
  return success();
}

LogicalResult DimWalk::visitAccumulator(AccumulatorOpInterface acc) {
  Operation *op = acc;
  OpOperand &input = op->getOpOperand(0);
  Tracked w = of(input.get());
  if (mode == Mode::GridPartition) {
    // The accumulator sums the trips; a `_last` one (and sum_to) also the
    // last dim.
    bool acrossLast =
        w.dim >= 0 &&
        w.dim == cast<RankedTensorType>(input.get().getType()).getRank() - 1;
    switch (acc.getAccumulatorKind()) {
    case AccumulatorKind::SumLast:
    case AccumulatorKind::SumTo:
    case AccumulatorKind::MeanLast:
    case AccumulatorKind::RmsLast:
      if (acrossLast)
        return need(input, w.dim, Pad::Zero);
      break;
    default:
      break;
    }
    tracked[op->getResult(0)] = {w.dim, Pad::Unknown};
    return success();
  }
  switch (acc.getAccumulatorKind()) {
  case AccumulatorKind::Sum:
  case AccumulatorKind::SumLast:
  case AccumulatorKind::SumTo:
    return w.dim >= 0 ? require(input, w.dim, Pad::Zero) : success();
  case AccumulatorKind::Max:
    return w.dim >= 0 ? require(input, w.dim, Pad::NegInf) : success();
  case AccumulatorKind::MeanLast:
  case AccumulatorKind::RmsLast:
    return w.dim >= 0 ? unsupported(op, "divides by the count of the walked "
                                        "elements, which a tail would change")
                      : success();
  case AccumulatorKind::RescaledSum: {
    if (w.dim >= 0 && failed(require(input, w.dim, Pad::Zero)))
      return failure();
    Tracked m = of(op->getOperand(1));
    return m.dim >= 0 ? require(op->getOpOperand(1), m.dim, Pad::NegInf)
                      : success();
  }
  }
  return success();
}
