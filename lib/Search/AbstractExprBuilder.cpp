//===- AbstractExprBuilder.cpp - Terms of mk/mb/mt programs -------------===//
//
// AbstractExprBuilder: the abstract expression of every value of a function
// of mk ops and of the block and thread graphs inside its kernels
// (docs/search.md, "Abstract expressions and pruning").
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/AbstractExpr.h"

#include "Mirage/Dialect/Block/IR/View.h"
#include "Mirage/Dialect/Kernel/IR/Kernel.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using llvm::Expected;
using llvm::report_fatal_error;

namespace mirage::search {

//===----------------------------------------------------------------------===//
// AbstractExprBuilder
//===----------------------------------------------------------------------===//

namespace {
constexpr uint32_t kNoAxis = AxisSpace::kNoAxis;

/// Raw axis as stored in the scratch terms: axis + 1, 0 for none.
uint32_t scratchLabel(uint32_t axis) { return axis == kNoAxis ? 0 : axis + 1; }

ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}
} // namespace

struct AbstractExprBuilder::Impl {
  using Id = TermBuilder::Id;
  Impl(AxisSpace &axes) : axes(axes) {}

  RecExpr scratch;
  TermBuilder tb{scratch};
  AxisSpace &axes;
  DenseMap<Value, AbstractValue> values;
  /// Graph-kernel context: for-loop iterations, the axis the loop walks,
  /// grid dims and, per grid dim, the axis its blocks partition.
  int64_t forloop = 1;
  uint32_t loopAxis = kNoAxis;
  SmallVector<int64_t, 3> grid;
  uint32_t gridAxis[3] = {kNoAxis, kNoAxis, kNoAxis};

  LogicalResult visitBlock(Block &block);
  LogicalResult visitOp(Operation *op);
  LogicalResult visitGraphKernel(Operation *op, GraphKernelOpInterface kernel);
  LogicalResult visitForLoop(mb::ForLoopOp loop);
  LogicalResult visitThreadGraph(mt::ThreadGraphOp op);
  LogicalResult visitAccumulator(AccumulatorOpInterface acc);

  FailureOr<AbstractValue> get(Operation *op, Value v) {
    auto it = values.find(v);
    if (it == values.end())
      return op->emitError("abstract expression: operand has no term");
    return it->second;
  }

  /// Merges adjacent parts of one axis: [(K, 256), (K, 24)] is (K, 6144).
  void normalize(DimAxes &dim) {
    DimAxes out;
    for (AxisPart p : dim) {
      if (!out.empty() && p.axis != kNoAxis && out.back().axis != kNoAxis &&
          axes.find(out.back().axis) == axes.find(p.axis))
        out.back().size *= p.size;
      else
        out.push_back(p);
    }
    dim = std::move(out);
  }

  /// Identifies the axes of two dims that are one index (the contracted dims
  /// of a matmul, non-broadcast dims of an element-wise op).
  void unite(DimAxes a, DimAxes b) {
    normalize(a);
    normalize(b);
    // Differently split dims (a chunked dim against a plain one) are left
    // apart: identifying a part with the whole would corrupt the labels.
    if (a.size() != b.size())
      return;
    for (auto [x, y] : llvm::zip(a, b))
      if (x.size == y.size)
        axes.unite(x.axis, y.axis);
  }

  /// Splits the outermost `factor` off `dim` (the part a grid dim or the
  /// loop walks) and returns its axis.
  uint32_t splitOuter(DimAxes &dim, int64_t factor) {
    if (factor == 1 || dim.empty())
      return kNoAxis;
    AxisPart &p = dim.front();
    if (p.size % factor != 0) {
      // Not a whole number of the outer part: the walked index mixes parts,
      // which no axis describes. Forget the dim's axes (conservative).
      dim.clear();
      return kNoAxis;
    }
    uint32_t axis = p.axis;
    p.size /= factor;
    if (p.size == 1)
      dim.erase(dim.begin());
    return axis;
  }

  /// Sum (or max) over every part of `dim`.
  Id reduceDim(const DimAxes &dim, Id x, bool isMax = false) {
    for (const AxisPart &p : llvm::reverse(dim))
      x = isMax ? tb.max(p.size, scratchLabel(p.axis), x)
                : tb.sum(p.size, scratchLabel(p.axis), x);
    return x;
  }

  /// The input of an input iterator as its view presents it: a logical dim
  /// that is a permutation or a merge of whole device dims (its digits, from
  /// the outermost, each one whole device dim) has their parts in that order;
  /// any other (a split of a device dim, a broadcast, GQA's floordiv) is an
  /// index no axis describes, and is forgotten (conservative, as splitOuter).
  AbstractValue viewed(mb::InputIterOp it, const AbstractValue &in) {
    if (!it.getView())
      return in;
    ArrayRef<int64_t> device = it.getInput().getType().getShape();
    SmallVector<int64_t> logical = it.getLogicalShape();
    std::string why;
    FailureOr<std::optional<mb::StridedView>> view = mb::analyzeView(it, why);
    AbstractValue out = in;
    out.dims.assign(logical.size(), DimAxes());
    if (failed(view))
      return out;
    SmallVector<int64_t> strides = mb::rowMajorStrides(device);
    // The device dim digit `m` covers whole, or -1.
    auto wholeDim = [&](const mb::ViewMode &m) -> int64_t {
      for (size_t j = 0; j < device.size() && j < in.dims.size(); ++j)
        if (strides[j] == m.stride && device[j] == m.extent)
          return j;
      return -1;
    };
    for (auto [k, n] : llvm::enumerate(logical)) {
      DimAxes parts;
      int64_t radix = 1;
      bool whole = true;
      // Innermost digit first (modes are sorted by dim, then radix); each
      // must be one whole device dim.
      for (const mb::ViewMode &m : (*view)->getModes()) {
        if (m.dim != k)
          continue;
        int64_t j = wholeDim(m);
        if (m.radix != radix || j < 0) {
          whole = false;
          break;
        }
        parts.insert(parts.begin(), in.dims[j].begin(), in.dims[j].end());
        radix *= m.extent;
      }
      // A dim without digits (a broadcast) has radix 1 and stays forgotten.
      if (whole && radix == n) {
        normalize(parts);
        out.dims[k] = std::move(parts);
      }
    }
    return out;
  }

  /// The tile of an input iterator: dims split by the grid, then by the
  /// loop. Reports the axes the grid dims and the loop walk.
  SmallVector<DimAxes, 4> tileOf(const AbstractValue &in,
                                 ArrayRef<int64_t> imap, int64_t fmap,
                                 uint32_t walkedByGrid[3],
                                 uint32_t &walkedByLoop) {
    SmallVector<DimAxes, 4> dims = in.dims;
    for (auto [g, d] : llvm::enumerate(imap)) {
      walkedByGrid[g] = kNoAxis;
      if (g < 3 && g < grid.size() && d >= 0 && d < int64_t(dims.size()))
        walkedByGrid[g] = splitOuter(dims[d], grid[g]);
    }
    walkedByLoop = kNoAxis;
    if (fmap >= 0 && fmap < int64_t(dims.size()))
      walkedByLoop = splitOuter(dims[fmap], forloop);
    return dims;
  }

  /// Dims of an element-wise result: dims that are not broadcast are one
  /// index, so they are identified.
  SmallVector<DimAxes, 4> broadcast(ArrayRef<AbstractValue> args, size_t rank) {
    SmallVector<DimAxes, 4> out(rank);
    for (size_t d = 0; d < rank; ++d)
      for (const AbstractValue &a : args) {
        if (d >= a.dims.size() || a.dims[d].empty())
          continue;
        if (out[d].empty())
          out[d] = a.dims[d];
        else
          unite(out[d], a.dims[d]);
      }
    return out;
  }

  /// The term of scalar function `kind` applied to `args`.
  Id elementwise(ElementwiseKind kind, ArrayRef<double> params,
                 ArrayRef<Id> args) {
    switch (kind) {
    case ElementwiseKind::Exp:
      return tb.unary(AOp::Exp, args[0]);
    case ElementwiseKind::Square:
      return tb.unary(AOp::Square, args[0]);
    case ElementwiseKind::Sqrt:
      return tb.unary(AOp::Sqrt, args[0]);
    case ElementwiseKind::Rsqrt:
      return tb.unary(AOp::Rsqrt, args[0]);
    case ElementwiseKind::Silu:
      return tb.unary(AOp::Silu, args[0]);
    case ElementwiseKind::Gelu:
      return tb.unary(AOp::Gelu, args[0]);
    case ElementwiseKind::Relu:
      return tb.unary(AOp::Relu, args[0]);
    case ElementwiseKind::Sigmoid:
      return tb.unary(AOp::Sigmoid, args[0]);
    case ElementwiseKind::Neg:
      return tb.scale(-1.0, args[0]);
    case ElementwiseKind::MulScalar:
      return tb.scale(params[0], args[0]);
    case ElementwiseKind::AddScalar:
      return tb.shift(params[0], args[0]);
    case ElementwiseKind::Clamp:
      return tb.clamp(params[0], params[1], args[0]);
    case ElementwiseKind::Reciprocal:
      return tb.reciprocal(args[0]);
    case ElementwiseKind::Tanh:
      return tb.tanh(args[0]);
    case ElementwiseKind::GeluErf:
      return tb.unary(AOp::GeluErf, args[0]);
    case ElementwiseKind::Convert:
      // A change of storage type is the identity on values.
      return args[0];
    case ElementwiseKind::Add:
      return tb.add(args[0], args[1]);
    case ElementwiseKind::Sub:
      return tb.sub(args[0], args[1]);
    case ElementwiseKind::Mul:
      return tb.mul(args[0], args[1]);
    case ElementwiseKind::Div:
      return tb.div(args[0], args[1]);
    case ElementwiseKind::Pow:
      return tb.binary(AOp::Pow, args[0], args[1]);
    case ElementwiseKind::Max:
      return tb.binary(AOp::Maximum, args[0], args[1]);
    case ElementwiseKind::Where:
      return tb.where(params.empty() ? 0.0 : params[0],
                      params.size() > 1 && params[1] != 0, args[0], args[1]);
    }
    llvm_unreachable("unknown element-wise kind");
  }

  /// Sum of a body value over the loop iterations: over the walked axis if
  /// the value changes with the iteration, F copies of it otherwise.
  Id loopSum(const AbstractValue &v, Id t) {
    if (forloop == 1)
      return t;
    if (v.loopVariant && loopAxis != kNoAxis)
      return tb.sum(forloop, scratchLabel(loopAxis), t);
    return tb.scale(double(forloop), t);
  }
  Id loopMax(const AbstractValue &v, Id t) {
    if (forloop == 1 || !v.loopVariant || loopAxis == kNoAxis)
      return t;
    return tb.max(forloop, scratchLabel(loopAxis), t);
  }
};

AbstractExprBuilder::AbstractExprBuilder(RecExpr &expr, AxisSpace &axes)
    : impl(std::make_unique<Impl>(axes)), finalExpr(expr) {}

AbstractExprBuilder::~AbstractExprBuilder() = default;

LogicalResult AbstractExprBuilder::Impl::visitBlock(Block &block) {
  for (Operation &op : block)
    if (failed(visitOp(&op)))
      return failure();
  return success();
}

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

LogicalResult AbstractExprBuilder::build(func::FuncOp func) {
  Impl &s = *impl;
  Block &entry = func.getBody().front();
  for (auto [i, arg] : llvm::enumerate(entry.getArguments())) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type || i >= s.axes.numInputs() ||
        type.getShape() != s.axes.inputShape(i))
      return func.emitError("abstract expression: argument ")
             << i << " does not match the registered input shapes";
    AbstractValue v;
    v.term = s.tb.var(i);
    for (auto [d, size] : llvm::enumerate(type.getShape())) {
      v.dims.emplace_back();
      if (size > 1)
        v.dims.back().push_back(AxisPart{s.axes.axisOf(i, d), size});
    }
    s.values[arg] = v;
  }
  if (failed(s.visitBlock(entry)))
    return failure();

  // The axes are only final now: relabel every sum with its axis's label.
  DenseMap<RecExpr::Id, RecExpr::Id> memo;
  std::function<RecExpr::Id(RecExpr::Id)> relabel = [&](RecExpr::Id id) {
    auto it = memo.find(id);
    if (it != memo.end())
      return it->second;
    ENode n = s.scratch.get(id);
    for (ClassId &c : n.children)
      c = relabel(c);
    if (n.op == opId(AOp::Sum) || n.op == opId(AOp::Max)) {
      uint32_t raw = reductionAxis(n.payload);
      uint32_t label = raw == 0 ? 0 : s.axes.label(raw - 1);
      n.payload = encodeReduction(reductionSize(n.payload), label);
    }
    RecExpr::Id out = finalExpr.add(std::move(n));
    memo[id] = out;
    return out;
  };
  finalTerms.clear();
  // Iterate in program order, not DenseMap order, so that the final
  // RecExpr's node order (and thus its printing and ids) is deterministic.
  auto relabelValue = [&](Value v) {
    if (auto it = s.values.find(v); it != s.values.end())
      finalTerms[v] = relabel(it->second.term);
  };
  for (BlockArgument arg : entry.getArguments())
    relabelValue(arg);
  func.walk([&](Operation *op) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          relabelValue(arg);
    for (Value v : op->getResults())
      relabelValue(v);
  });
  outputs.clear();
  // A candidate under construction may not return anything yet.
  if (entry.empty() || !entry.back().hasTrait<OpTrait::IsTerminator>())
    return success();
  Operation *ret = &entry.back();
  for (Value v : ret->getOperands()) {
    auto it = finalTerms.find(v);
    if (it == finalTerms.end())
      return ret->emitError("abstract expression: result has no term");
    outputs.push_back(it->second);
  }
  return success();
}

std::optional<RecExpr::Id> AbstractExprBuilder::getTerm(Value value) const {
  auto it = finalTerms.find(value);
  if (it == finalTerms.end())
    return std::nullopt;
  return it->second;
}

} // namespace mirage::search
