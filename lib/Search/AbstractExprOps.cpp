//===- AbstractExprOps.cpp - Terms of single ops ----------------*- C++ -*-===//
//
// The abstract expression of a single mk, mb or mt op (AbstractExprBuilderImpl.h):
// element-wise ops, masks, reductions, matmuls, layout ops and iterators.
//
//===----------------------------------------------------------------------===//

#include "AbstractExprBuilderImpl.h"

#include "Mirage/Dialect/Kernel/IR/Kernel.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace mirage::search {

LogicalResult AbstractExprBuilder::Impl::visitOp(Operation *op) {
  // Terminators are handled by the op that owns the region.
  if (op->hasTrait<OpTrait::IsTerminator>())
    return success();
  if (auto kernel = dyn_cast<GraphKernelOpInterface>(op))
    return visitGraphKernel(op, kernel);
  if (auto loop = dyn_cast<mb::ForLoopOp>(op))
    return visitForLoop(loop);
  if (auto tg = dyn_cast<mt::ThreadGraphOp>(op))
    return visitThreadGraph(tg);
  if (auto acc = dyn_cast<AccumulatorOpInterface>(op))
    return visitAccumulator(acc);

  SmallVector<AbstractValue> args;
  for (Value v : op->getOperands()) {
    FailureOr<AbstractValue> a = get(op, v);
    if (failed(a))
      return failure();
    args.push_back(*a);
  }
  bool variant = llvm::any_of(args, [](auto &a) { return a.loopVariant; });

  if (isa<mk::BandMaskOp, mb::BandMaskOp>(op)) {
    auto attr = [&](StringRef name) -> std::optional<int64_t> {
      if (auto a = op->getAttrOfType<IntegerAttr>(name))
        return a.getInt();
      return std::nullopt;
    };
    AbstractValue r = args[0];
    r.term = tb.mask(
        encodeMaskKey(attr("lower"), attr("upper"),
                      op->getAttrOfType<FloatAttr>("fill").getValueAsDouble(),
                      op->hasAttr("additive"),
                      op->getAttrOfType<DenseI64ArrayAttr>("dims").size()),
        args[0].term);
    values[op->getResult(0)] = r;
    return success();
  }
  if (auto ew = dyn_cast<ElementwiseOpInterface>(op)) {
    SmallVector<Id> terms;
    for (auto &a : args)
      terms.push_back(a.term);
    AbstractValue r;
    r.term = elementwise(ew.getElementwiseKind(), ew.getScalarParams(), terms);
    r.dims = broadcast(args, shapeOf(op->getResult(0)).size());
    r.loopVariant = variant;
    values[op->getResult(0)] = r;
    return success();
  }

  // Structured ops have the same semantics at the kernel and block levels;
  // they have no interface of their own, so match both spellings.
  AbstractValue r;
  r.loopVariant = variant;
  LogicalResult result =
      TypeSwitch<Operation *, LogicalResult>(op)
          .Case<mk::MatmulOp, mb::MatmulOp>([&](auto) {
            AbstractValue &a = args[0], &b = args[1];
            size_t rank = a.dims.size();
            unite(a.dims[rank - 1], b.dims[rank - 2]);
            r.dims.assign(rank, DimAxes());
            for (size_t d = 0; d + 2 < rank; ++d) {
              unite(a.dims[d], b.dims[d]);
              r.dims[d] = a.dims[d].empty() ? b.dims[d] : a.dims[d];
            }
            r.dims[rank - 2] = a.dims[rank - 2];
            r.dims[rank - 1] = b.dims[rank - 1];
            const DimAxes &k =
                a.dims[rank - 1].empty() ? b.dims[rank - 2] : a.dims[rank - 1];
            r.term = reduceDim(k, tb.mul(a.term, b.term));
            return success();
          })
          .Case<mk::ReduceSumOp, mb::ReduceSumOp, mk::ReduceMaxOp,
                mb::ReduceMaxOp>([&](auto red) {
            int64_t dim = static_cast<int64_t>(red.getDim());
            bool isMax = isa<mk::ReduceMaxOp, mb::ReduceMaxOp>(op);
            // A reduced dim of size > 1 with no known axis has no sum term.
            if (args[0].dims[dim].empty() &&
                shapeOf(op->getOperand(0))[dim] > 1)
              return LogicalResult(op->emitError(
                  "abstract expression: reduced dim has no known axis"));
            r.term = reduceDim(args[0].dims[dim], args[0].term, isMax);
            // Online softmax: a block's maximum over its part of an axis
            // (a tile of a loop step or of a grid chunk) is a shift that
            // accum_rescaled_sum brings to the maximum over the whole axis,
            // so its term is that maximum (as in the search, OpSemantics).
            const DimAxes &reduced = args[0].dims[dim];
            if (isa<mb::ReduceMaxOp>(op) && reduced.size() == 1) {
              int64_t whole = axes.extent(axes.label(reduced[0].axis));
              if (reduced[0].size < whole) {
                r.term =
                    tb.max(whole, scratchLabel(reduced[0].axis), args[0].term);
                r.partMax = true;
              }
            }
            r.dims = args[0].dims;
            r.dims[dim].clear();
            return success();
          })
          .Case<mk::RmsNormOp, mb::RmsNormOp>([&](auto norm) {
            AbstractValue &x = args[0];
            size_t last = x.dims.size() - 1;
            int64_t n = shapeOf(op->getOperand(0))[last];
            Id squares = reduceDim(x.dims[last], tb.unary(AOp::Square, x.term));
            r.term = tb.div(
                x.term, tb.rms(n, norm.getEps().convertToDouble(), squares));
            r.dims = x.dims;
            if (args.size() > 1) {
              // The weight (rank 1) scales the last dim.
              unite(x.dims[last], args[1].dims[0]);
              r.term = tb.mul(r.term, args[1].term);
            }
            return success();
          })
          .Case<mk::ConcatOp, mb::ConcatOp>([&](auto cat) {
            int64_t dim = static_cast<int64_t>(cat.getDim());
            r.term = args[0].term;
            for (auto &a : ArrayRef(args).drop_front())
              r.term = tb.binary(AOp::Concat, r.term, a.term);
            // The concatenated dim is a new index (its parts differ in size);
            // the others are shared.
            SmallVector<AbstractValue> others(args);
            for (auto &a : others)
              a.dims[dim].clear();
            r.dims = broadcast(others, args[0].dims.size());
            return success();
          })
          .Case<mk::TransposeOp>([&](mk::TransposeOp t) {
            r.term = args[0].term;
            for (int64_t p : t.getPerm())
              r.dims.push_back(args[0].dims[p]);
            return success();
          })
          .Case<mb::InputIterOp>([&](mb::InputIterOp it) {
            // A tile is the input restricted to a block and an iteration: the
            // same element term; its dims are what is left of the input's
            // (seen through the view) after the grid and the loop took their
            // parts.
            uint32_t byGrid[3], byLoop;
            r.term = args[0].term;
            r.dims = tileOf(viewed(it, args[0]), it.getImap(),
                            static_cast<int64_t>(it.getFmap()), byGrid, byLoop);
            r.loopVariant = byLoop != kNoAxis;
            return success();
          })
          .Case<mb::OutputSaverOp>([&](mb::OutputSaverOp saver) {
            // Block b_g writes its tile at b_g times the tile along dim
            // omap[g]: that dim is the grid's part of its axis, then the tile.
            r = args[0];
            for (auto [g, dim] : llvm::enumerate(saver.getOmap())) {
              if (g >= grid.size() || grid[g] == 1 || dim < 0)
                continue;
              DimAxes &d = r.dims[dim];
              d.insert(d.begin(), AxisPart{gridAxis[g], grid[g]});
              normalize(d);
            }
            return success();
          })
          .Default([&](Operation *op) {
            return op->emitError("abstract expression: no term for '")
                   << op->getName() << "'";
          });
  if (failed(result))
    return failure();
  values[op->getResult(0)] = r;
  return success();
}

} // namespace mirage::search
