//===- AbstractExprBuilder.cpp - Terms of mk/mb/mt programs -----*- C++ -*-===//
//
// AbstractExprBuilder: the abstract expression of every value of a function
// of mk ops and of the block and thread graphs inside its kernels
// (docs/search.md, "Abstract expressions and pruning"). This file: the
// walk, its results, and the helpers on axes and dims the visitors share.
//
//===----------------------------------------------------------------------===//

#include "AbstractExprBuilderImpl.h"

#include "Mirage/Dialect/Block/IR/View.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;

namespace mirage::search {

FailureOr<AbstractValue> AbstractExprBuilder::Impl::get(Operation *op, Value v) {
  auto it = values.find(v);
  if (it == values.end())
    return op->emitError("abstract expression: operand has no term");
  return it->second;
}

void AbstractExprBuilder::Impl::normalize(DimAxes &dim) {
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

void AbstractExprBuilder::Impl::unite(DimAxes a, DimAxes b) {
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

uint32_t AbstractExprBuilder::Impl::splitOuter(DimAxes &dim, int64_t factor) {
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

AbstractExprBuilder::Impl::Id AbstractExprBuilder::Impl::reduceDim(const DimAxes &dim, Id x, bool isMax) {
  for (const AxisPart &p : llvm::reverse(dim))
    x = isMax ? tb.max(p.size, scratchLabel(p.axis), x)
              : tb.sum(p.size, scratchLabel(p.axis), x);
  return x;
}

AbstractValue AbstractExprBuilder::Impl::viewed(mb::InputIterOp it, const AbstractValue &in) {
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

SmallVector<DimAxes, 4> AbstractExprBuilder::Impl::tileOf(const AbstractValue &in,
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

SmallVector<DimAxes, 4> AbstractExprBuilder::Impl::broadcast(ArrayRef<AbstractValue> args, size_t rank) {
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

AbstractExprBuilder::Impl::Id AbstractExprBuilder::Impl::elementwise(ElementwiseKind kind, ArrayRef<double> params,
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

AbstractExprBuilder::Impl::Id AbstractExprBuilder::Impl::loopSum(const AbstractValue &v, Id t) {
  if (forloop == 1)
    return t;
  if (v.loopVariant && loopAxis != kNoAxis)
    return tb.sum(forloop, scratchLabel(loopAxis), t);
  return tb.scale(double(forloop), t);
}

AbstractExprBuilder::Impl::Id AbstractExprBuilder::Impl::loopMax(const AbstractValue &v, Id t) {
  if (forloop == 1 || !v.loopVariant || loopAxis == kNoAxis)
    return t;
  return tb.max(forloop, scratchLabel(loopAxis), t);
}

AbstractExprBuilder::AbstractExprBuilder(RecExpr &expr, AxisSpace &axes)
    : impl(std::make_unique<Impl>(axes)), finalExpr(expr) {}

AbstractExprBuilder::~AbstractExprBuilder() = default;

LogicalResult AbstractExprBuilder::Impl::visitBlock(Block &block) {
  for (Operation &op : block)
    if (failed(visitOp(&op)))
      return failure();
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
