//===- TargetImport.cpp - The function to superoptimize ---------*- C++ -*-===//
//
// From a func.func of pre-defined mk ops to the Target of the search
// (TargetImport.h).
//
//===----------------------------------------------------------------------===//

#include "TargetImport.h"

#include "OpSemantics.h"

#include "Mirage/Dialect/Kernel/IR/Kernel.h"
#include "Mirage/Interfaces/MirageInterfaces.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace mirage::search::detail {

/// The search op of a pre-defined mk op, filling its scalar parameters;
/// nullopt for an op outside the search's vocabulary.
static std::optional<Kind> kindOf(Operation *op, Params &p) {
  if (auto ew = dyn_cast<ElementwiseOpInterface>(op)) {
    SmallVector<double, 2> s = ew.getScalarParams();
    if (!s.empty())
      p.a = s[0];
    if (s.size() > 1)
      p.b = s[1];
    switch (ew.getElementwiseKind()) {
    case ElementwiseKind::Exp:
      return Kind::Exp;
    case ElementwiseKind::Square:
      return Kind::Square;
    case ElementwiseKind::Sqrt:
      return Kind::Sqrt;
    case ElementwiseKind::Rsqrt:
      return Kind::Rsqrt;
    case ElementwiseKind::Silu:
      return Kind::Silu;
    case ElementwiseKind::Gelu:
      return Kind::Gelu;
    case ElementwiseKind::Relu:
      return Kind::Relu;
    case ElementwiseKind::Sigmoid:
      return Kind::Sigmoid;
    case ElementwiseKind::Neg:
      return Kind::Neg;
    case ElementwiseKind::MulScalar:
      return Kind::MulScalar;
    case ElementwiseKind::AddScalar:
      return Kind::AddScalar;
    case ElementwiseKind::Clamp:
      return Kind::Clamp;
    case ElementwiseKind::Reciprocal:
      return Kind::Reciprocal;
    case ElementwiseKind::Tanh:
      return Kind::Tanh;
    case ElementwiseKind::GeluErf:
      return Kind::GeluErf;
    case ElementwiseKind::Add:
      return Kind::Add;
    case ElementwiseKind::Sub:
      return Kind::Sub;
    case ElementwiseKind::Mul:
      return Kind::Mul;
    case ElementwiseKind::Div:
      return Kind::Div;
    case ElementwiseKind::Pow:
      return Kind::Pow;
    case ElementwiseKind::Max:
      return Kind::Max;
    case ElementwiseKind::Convert:
      // A change of storage type: the search's programs have one element
      // type, so a conversion stays on its own between the subprograms
      // (docs/search.md, "Mixed precision").
      return std::nullopt;
    case ElementwiseKind::Where:
      return Kind::Where; // the fill is p.a
    }
    return std::nullopt;
  }
  return TypeSwitch<Operation *, std::optional<Kind>>(op)
      .Case([&](mk::MatmulOp) { return Kind::Matmul; })
      .Case([&](mk::ReduceSumOp r) {
        p.dim = static_cast<int64_t>(r.getDim());
        return Kind::ReduceSum;
      })
      .Case([&](mk::ReduceMaxOp r) {
        p.dim = static_cast<int64_t>(r.getDim());
        return Kind::ReduceMax;
      })
      .Case([&](mk::RmsNormOp r) -> std::optional<Kind> {
        if (r.getWeight())
          return std::nullopt;
        p.a = r.getEps().convertToDouble();
        return Kind::RmsNorm;
      })
      .Case([&](mk::BandMaskOp m) {
        ArrayRef<int64_t> dims = m.getDims();
        p.maskDims[0] = dims.size() == 2 ? dims[0] : -1;
        p.maskDims[1] = dims.back();
        p.lower = m.getLower();
        p.upper = m.getUpper();
        p.a = m.getFill().convertToDouble();
        p.additive = m.getAdditive();
        return Kind::BandMask;
      })
      .Default([](Operation *) { return std::nullopt; });
}

FailureOr<DeviceModel> checkSearchable(func::FuncOp func, StringRef chip,
                                       std::string &error) {
  if (func.isExternal()) {
    error = "function has no body";
    return failure();
  }
  if (!func.getBody().hasOneBlock()) {
    error = "function has more than one block";
    return failure();
  }
  std::optional<DeviceModel> device = getDeviceModel(chip);
  if (!device) {
    error = "unknown chip '" + chip.str() + "' (expected " +
            getDeviceModelNames() + ")";
    return failure();
  }
  return *device;
}

bool isSearchableOp(Operation *op) {
  Params p;
  return kindOf(op, p).has_value();
}

LogicalResult importTarget(func::FuncOp func,
                           const SuperoptimizeOptions &options, Target &t,
                           std::string &error) {
  t.func = func;
  t.smemLimit = options.smemLimit;
  FailureOr<DeviceModel> device = checkSearchable(func, options.chip, error);
  if (failed(device))
    return failure();
  t.device = *device;
  {
    std::string costError;
    FailureOr<ProgramCost> cost = analyzeProgram(func, t.device, costError);
    t.matmulFlops = succeeded(cost) ? cost->floor.tensorFlops : 0;
  }
  Type element;
  SmallVector<SmallVector<int64_t, 4>> shapes;
  for (auto [i, type] : llvm::enumerate(func.getFunctionType().getInputs())) {
    auto rt = dyn_cast<RankedTensorType>(type);
    if (!rt || !rt.hasStaticShape() || rt.getRank() < 1 || rt.getRank() > 4) {
      error = "argument #" + std::to_string(i) +
              " is not a static tensor of rank 1 to 4";
      return failure();
    }
    if (element && rt.getElementType() != element) {
      error = "arguments of different element types are not supported";
      return failure();
    }
    element = rt.getElementType();
    shapes.emplace_back(rt.getShape());
  }
  if (func.getNumArguments() > 64) {
    error = "more than 64 arguments are not supported";
    return failure();
  }
  if (!element || func.getNumResults() == 0) {
    error = "function needs tensor arguments and results";
    return failure();
  }
  if (!element.isF16() && !element.isBF16() && !element.isF32()) {
    error = "element type must be f16, bf16 or f32";
    return failure();
  }
  t.element = element;
  t.elementBytes = element.isF32() ? 4 : 2;
  for (auto [i, r] : llvm::enumerate(func.getFunctionType().getResults())) {
    auto rt = dyn_cast<RankedTensorType>(r);
    if (!rt || !rt.hasStaticShape() || rt.getElementType() != element) {
      error = "result #" + std::to_string(i) +
              " is not a static tensor of the arguments' element type";
      return failure();
    }
  }
  // Every op must be a pre-defined mk op the search knows.
  Block &body = func.getBody().front();
  for (Operation &op : body.without_terminator()) {
    Params p;
    if (!kindOf(&op, p)) {
      error = "op '" + op.getName().getStringRef().str() +
              "' is not supported by the search";
      if (isa<mk::RmsNormOp>(op))
        error += " (rms_norm with a weight)";
      return failure();
    }
  }
  // Axis labels (and the oracle, which saturates the target once).
  AxisSpace axes;
  if (options.pruning) {
    // Saturation spends at most its share of the time budget.
    SaturationLimits limits;
    limits.maxSeconds =
        std::min(limits.maxSeconds, options.timeBudget * kSaturationShare);
    FailureOr<std::unique_ptr<PruningOracle>> oracle =
        PruningOracle::create(func, limits);
    if (failed(oracle)) {
      error = "no abstract expression for the function";
      return failure();
    }
    t.oracle = std::move(*oracle);
    t.prune = t.oracle->isComplete();
    axes = t.oracle->getAxes();
  } else {
    axes.setInputs(shapes);
    RecExpr scratch;
    AbstractExprBuilder builder(scratch, axes);
    if (failed(builder.build(func))) {
      error = "no abstract expression for the function";
      return failure();
    }
  }
  t.numInputs = func.getNumArguments();
  // Import the body into the search IR with the same rules as candidates.
  RecExpr &expr = t.expr;
  TermBuilder tb(expr);
  DenseMap<Value, int> ids;
  for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
    SValue v;
    for (auto [d, n] : llvm::enumerate(shapes[i])) {
      uint32_t l = n > 1 ? axes.label(axes.axisOf(i, d)) : 0;
      v.labels.push_back(l);
      if (l)
        t.extent[l] = n;
    }
    v.term = tb.var(i);
    v.vars = uint64_t(1) << i;
    ids[arg] = static_cast<int>(t.ref.vals.size());
    t.ref.vals.push_back(v);
  }
  auto addUnique = [](auto &list, auto value) {
    if (!llvm::is_contained(list, value))
      list.push_back(value);
  };
  auto size = [&](uint32_t l) { return l ? t.extent.lookup(l) : int64_t(1); };
  for (Operation &op : body.without_terminator()) {
    Params p;
    Kind kind = *kindOf(&op, p);
    t.allowed[static_cast<unsigned>(kind)] = true;
    if (kind == Kind::RmsNorm)
      addUnique(t.eps, p.a);
    if (kind == Kind::MulScalar)
      addUnique(t.mulScalars, p.a);
    if (kind == Kind::AddScalar)
      addUnique(t.addScalars, p.a);
    if (kind == Kind::Clamp)
      addUnique(t.clamps, std::make_pair(p.a, p.b));
    if (kind == Kind::Where)
      addUnique(t.whereFills, std::make_pair(p.a, p.b));
    if (kind == Kind::BandMask)
      t.masks.push_back(p);
    SOp sop{kind, p, {}, -1};
    SmallVector<const SValue *, 2> args;
    for (Value v : op.getOperands()) {
      sop.args.push_back(ids.lookup(v));
      args.push_back(&t.ref.vals[ids.lookup(v)]);
    }
    std::optional<SValue> r = applyOp(tb, kind, p, args, size, LoopCtx());
    auto rt = cast<RankedTensorType>(op.getResult(0).getType());
    if (!r || static_cast<int64_t>(r->labels.size()) != rt.getRank()) {
      error = "op '" + op.getName().getStringRef().str() +
              "' combines dims the search cannot relate";
      return failure();
    }
    sop.result = static_cast<int>(t.ref.vals.size());
    ids[op.getResult(0)] = sop.result;
    t.ref.vals.push_back(*r);
    t.ref.ops.push_back(SKernelOp{false, sop, -1});
  }
  for (Value v : body.getTerminator()->getOperands()) {
    // A result that is an argument is only supported when every result is
    // one, or equals one (the trivial program, see trivialCandidates).
    int id = ids.lookup(v);
    t.argOutputs |= id < static_cast<int>(t.numInputs);
    t.refOutputs.push_back(id);
  }
  // The classes of the outputs (what complete candidates must reach).
  if (t.prune)
    for (int o : t.refOutputs) {
      std::optional<ClassId> c =
          t.oracle->subtermClass(expr, t.ref.vals[o].term);
      if (!c) {
        t.prune = false;
        break;
      }
      t.ref.vals[o].cls = *c;
    }
  // The block-level vocabulary: what the target uses plus the ops that
  // fused forms of its structured ops need.
  for (Kind k : {Kind::Matmul, Kind::Exp, Kind::Square, Kind::Sqrt, Kind::Silu,
                 Kind::Sigmoid, Kind::Gelu, Kind::Relu, Kind::Neg, Kind::Add,
                 Kind::Sub, Kind::Mul, Kind::Div, Kind::ReduceSum, Kind::AccSum,
                 Kind::AccSumLast, Kind::AccMeanLast})
    t.allowed[static_cast<unsigned>(k)] = true;
  if (!t.eps.empty())
    t.allowed[static_cast<unsigned>(Kind::AccRmsLast)] = true;
  if (t.allowed[static_cast<unsigned>(Kind::ReduceMax)]) {
    t.allowed[static_cast<unsigned>(Kind::AccMax)] = true;
    // Online softmax: a maximum subtracted before an exp.
    t.allowed[static_cast<unsigned>(Kind::AccRescaledSum)] = true;
  }
  return success();
}

} // namespace mirage::search::detail
