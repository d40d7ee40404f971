//===- AbstractExprKernels.cpp - Terms of kernels and loops -----*- C++ -*-===//
//
// The abstract expressions of graph-defined kernels, for-loops, accumulators
// and thread graphs (AbstractExprBuilderImpl.h): the block graph's tiles
// mapped back to whole tensors over the grid and the loop.
//
//===----------------------------------------------------------------------===//

#include "AbstractExprBuilderImpl.h"

#include <algorithm>

using namespace mlir;

namespace mirage::search {

LogicalResult
AbstractExprBuilder::Impl::visitGraphKernel(Operation *op,
                                            GraphKernelOpInterface kernel) {
  Region &region = op->getRegion(0);
  Block &body = region.front();
  for (auto [arg, operand] :
       llvm::zip(body.getArguments(), op->getOperands())) {
    FailureOr<AbstractValue> v = get(op, operand);
    if (failed(v))
      return failure();
    values[arg] = *v;
  }
  int64_t savedF = forloop;
  uint32_t savedLoopAxis = loopAxis;
  SmallVector<int64_t, 3> savedGrid = grid;
  uint32_t savedGridAxis[3];
  std::copy(gridAxis, gridAxis + 3, savedGridAxis);
  forloop = kernel.getForloopRange();
  grid.assign(kernel.getGridDims().begin(), kernel.getGridDims().end());
  // Every input iterator advances with the blocks of each grid dim and with
  // the one loop index: the parts they walk are one axis per grid dim and one
  // for the loop, identified across iterators.
  std::fill(gridAxis, gridAxis + 3, kNoAxis);
  loopAxis = kNoAxis;
  auto join = [&](uint32_t &slot, uint32_t a) {
    if (a == kNoAxis)
      return;
    if (slot == kNoAxis)
      slot = a;
    else
      axes.unite(slot, a);
  };
  WalkResult walk = body.walk([&](mb::InputIterOp it) {
    FailureOr<AbstractValue> in = get(it, it.getInput());
    if (failed(in))
      return WalkResult::interrupt();
    uint32_t byGrid[3], byLoop;
    (void)tileOf(viewed(it, *in), it.getImap(),
                 static_cast<int64_t>(it.getFmap()), byGrid, byLoop);
    for (unsigned g = 0; g < 3 && g < it.getImap().size(); ++g)
      join(gridAxis[g], byGrid[g]);
    join(loopAxis, byLoop);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted() || failed(visitBlock(body)))
    return failure();
  forloop = savedF;
  loopAxis = savedLoopAxis;
  grid = savedGrid;
  std::copy(savedGridAxis, savedGridAxis + 3, gridAxis);
  Operation *ret = body.getTerminator();
  for (auto [res, v] : llvm::zip(op->getResults(), ret->getOperands())) {
    FailureOr<AbstractValue> a = get(ret, v);
    if (failed(a))
      return failure();
    AbstractValue out = *a;
    out.loopVariant = false;
    values[res] = out;
  }
  return success();
}

LogicalResult AbstractExprBuilder::Impl::visitForLoop(mb::ForLoopOp loop) {
  Block &body = loop.getBody().front();
  if (failed(visitBlock(body)))
    return failure();
  Operation *yield = body.getTerminator();
  for (auto [res, v] : llvm::zip(loop.getResults(), yield->getOperands())) {
    FailureOr<AbstractValue> a = get(yield, v);
    if (failed(a))
      return failure();
    values[res] = *a;
  }
  return success();
}

LogicalResult
AbstractExprBuilder::Impl::visitAccumulator(AccumulatorOpInterface acc) {
  Operation *op = acc.getOperation();
  FailureOr<AbstractValue> in = get(op, acc.getAccumulated());
  if (failed(in))
    return failure();
  const AbstractValue &x = *in;
  size_t last = x.dims.size() - 1;
  int64_t n = shapeOf(acc.getAccumulated())[last];
  const DimAxes &lastDim = x.dims[last];
  AbstractValue r;
  r.dims = x.dims;
  r.loopVariant = false;
  switch (acc.getAccumulatorKind()) {
  case AccumulatorKind::Sum:
    r.term = loopSum(x, x.term);
    break;
  case AccumulatorKind::SumLast:
    r.term = loopSum(x, reduceDim(lastDim, x.term));
    r.dims[last].clear();
    break;
  case AccumulatorKind::MeanLast:
    r.term = tb.scale(1.0 / double(forloop * n),
                      loopSum(x, reduceDim(lastDim, x.term)));
    r.dims[last].clear();
    break;
  case AccumulatorKind::RmsLast: {
    double eps = cast<mb::AccumRmsLastOp>(op).getEps().convertToDouble();
    Id squares = loopSum(x, reduceDim(lastDim, tb.unary(AOp::Square, x.term)));
    r.term = tb.rms(forloop * n, eps, squares);
    r.dims[last].clear();
    break;
  }
  case AccumulatorKind::SumTo: {
    int64_t dimx = static_cast<int64_t>(cast<mb::AccumSumToOp>(op).getDimx());
    int64_t run = n / dimx;
    // Entry j sums a contiguous run of n/dimx elements: the innermost part
    // of the last dim is summed, the outer dimx entries remain.
    DimAxes &d = r.dims[last];
    if (run > 1 && !d.empty() && d.back().size % run == 0) {
      AxisPart inner = d.back();
      r.term = loopSum(x, tb.sum(run, scratchLabel(inner.axis), x.term));
      d.back().size /= run;
      if (d.back().size == 1)
        d.pop_back();
    } else {
      r.term = loopSum(x, tb.sum(run, 0, x.term));
    }
    break;
  }
  case AccumulatorKind::Max:
    // The running maximum of a part maximum is (a larger part of) the
    // whole axis's maximum, the term it already has.
    r.term = x.partMax ? x.term : loopMax(x, x.term);
    r.partMax = x.partMax;
    break;
  case AccumulatorKind::RescaledSum: {
    if (failed(get(op, op->getOperand(1))))
      return failure();
    // sum_i x_i * exp(m_i - max_i m_i): each step's x, relative to its
    // maximum m_i, brought to the final maximum. In the online-softmax view
    // x's term is already relative to the whole axis's maximum (its m is a
    // part maximum, or a saved one), so this is the loop sum of x.
    r.term = loopSum(x, x.term);
    break;
  }
  }
  values[op->getResult(0)] = r;
  return success();
}

LogicalResult
AbstractExprBuilder::Impl::visitThreadGraph(mt::ThreadGraphOp op) {
  SmallVector<AbstractValue> ins;
  for (Value v : op.getInputs()) {
    FailureOr<AbstractValue> a = get(op, v);
    if (failed(a))
      return failure();
    ins.push_back(*a);
  }
  Block &body = op.getBody().front();
  DenseMap<Value, Id> scalars;
  for (auto [arg, in] : llvm::zip(body.getArguments(), ins))
    scalars[arg] = in.term;
  for (Operation &inner : body.without_terminator()) {
    auto ew = dyn_cast<ElementwiseOpInterface>(&inner);
    if (!ew)
      return inner.emitError("abstract expression: no term for '")
             << inner.getName() << "'";
    SmallVector<Id> terms;
    for (Value v : inner.getOperands()) {
      auto it = scalars.find(v);
      if (it == scalars.end())
        return inner.emitError("abstract expression: operand has no term");
      terms.push_back(it->second);
    }
    scalars[inner.getResult(0)] =
        elementwise(ew.getElementwiseKind(), ew.getScalarParams(), terms);
  }
  bool variant = llvm::any_of(ins, [](auto &a) { return a.loopVariant; });
  Operation *yield = body.getTerminator();
  for (auto [res, v] : llvm::zip(op.getResults(), yield->getOperands())) {
    auto it = scalars.find(v);
    if (it == scalars.end())
      return yield->emitError("abstract expression: result has no term");
    AbstractValue r;
    r.term = it->second;
    r.dims = broadcast(ins, shapeOf(res).size());
    r.loopVariant = variant;
    values[res] = r;
  }
  return success();
}

} // namespace mirage::search
