//===- Mutations.cpp - Single mutations of a candidate program ------------===//
//
// Enumeration (one entry per op and changed attribute, operand or op name),
// application on a clone, and re-inference of the result types.
//
//===----------------------------------------------------------------------===//

#include "Mutations.h"

#include "Mirage/Dialect/Kernel/IR/Kernel.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace mirage::mutation {

const char *kindName(MutKind k) {
  static const char *names[] = {
      "imap",   "fmap",  "omap", "accum",   "unary",   "binary", "swap",
      "reduce", "const", "grid", "forloop", "operand", "mapswap"};
  return names[static_cast<unsigned>(k)];
}

namespace {

bool isBinaryElementwise(Operation *op) {
  auto ew = dyn_cast<ElementwiseOpInterface>(op);
  return ew && op->getNumOperands() == 2;
}

const ElementwiseKind kUnaryKinds[] = {
    ElementwiseKind::Exp,       ElementwiseKind::Square,
    ElementwiseKind::Sqrt,      ElementwiseKind::Rsqrt,
    ElementwiseKind::Silu,      ElementwiseKind::Gelu,
    ElementwiseKind::Relu,      ElementwiseKind::Sigmoid,
    ElementwiseKind::Neg,       ElementwiseKind::MulScalar,
    ElementwiseKind::AddScalar, ElementwiseKind::Clamp};
const ElementwiseKind kBinaryKinds[] = {
    ElementwiseKind::Add, ElementwiseKind::Sub, ElementwiseKind::Mul,
    ElementwiseKind::Div, ElementwiseKind::Pow};
const char *kAccumNames[] = {"accum_sum",       "accum_sum_last",
                             "accum_mean_last", "accum_rms_last",
                             "accum_sum_to",    "accum_max"};

std::string opLabel(Operation *op, unsigned index) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << op->getName().getStringRef() << "#" << index;
  return s;
}

/// The scalar constants of `op` by attribute name.
SmallVector<std::pair<StringRef, double>> constantsOf(Operation *op) {
  SmallVector<std::pair<StringRef, double>> out;
  for (StringRef name : {"scalar", "min", "max", "eps"})
    if (auto f = dyn_cast_or_null<FloatAttr>(op->getAttr(name)))
      out.push_back({name, f.getValueAsDouble()});
  return out;
}

/// The values `op` may use: arguments and earlier results of its block and
/// of the enclosing blocks up to an isolated-from-above op.
SmallVector<Value> visibleValues(Operation *op) {
  SmallVector<Value> out;
  Operation *at = op;
  for (Block *b = op->getBlock(); b;) {
    for (BlockArgument a : b->getArguments())
      out.push_back(a);
    for (Operation &o : *b) {
      if (&o == at)
        break;
      for (Value r : o.getResults())
        out.push_back(r);
    }
    Operation *parent = b->getParentOp();
    if (!parent || parent->hasTrait<OpTrait::IsIsolatedFromAbove>())
      break;
    at = parent;
    b = parent->getBlock();
  }
  return out;
}

} // namespace

std::string formatDouble(double d) {
  std::string s;
  llvm::raw_string_ostream(s) << llvm::format("%.9g", d);
  return s;
}

/// Every single mutation of `func`, in walk order.
std::vector<Mutation> enumerateMutations(func::FuncOp func) {
  std::vector<Mutation> out;
  llvm::DenseMap<Operation *, unsigned> indexOf;
  unsigned index = 0;
  func.walk<WalkOrder::PreOrder>([&](Operation *op) { indexOf[op] = index++; });
  index = 0;
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    unsigned at = index++;
    std::string label = opLabel(op, at);
    StringRef dialect = op->getName().getDialectNamespace();
    auto add = [&](Mutation m) {
      m.opIndex = at;
      out.push_back(std::move(m));
    };
    // imap / fmap.
    if (auto it = dyn_cast<mb::InputIterOp>(op)) {
      int64_t rank = it.getInput().getType().getRank();
      ArrayRef<int64_t> imap = it.getImap();
      for (int g = 0; g < static_cast<int>(imap.size()); ++g)
        for (int64_t v = -1; v < rank; ++v)
          if (v != imap[g])
            add({MutKind::Imap, 0, g, v, 0, "", "",
                 label + " imap[" + std::to_string(g) + "] " +
                     std::to_string(imap[g]) + " -> " + std::to_string(v)});
      int64_t fmap = static_cast<int64_t>(it.getFmap());
      for (int64_t v = -1; v < rank; ++v)
        if (v != fmap)
          add({MutKind::Fmap, 0, 0, v, 0, "", "",
               label + " fmap " + std::to_string(fmap) + " -> " +
                   std::to_string(v)});
    }
    // omap.
    if (auto os = dyn_cast<mb::OutputSaverOp>(op)) {
      int64_t rank = os.getInput().getType().getRank();
      ArrayRef<int64_t> omap = os.getOmap();
      for (int g = 0; g < static_cast<int>(omap.size()); ++g)
        for (int64_t v = -1; v < rank; ++v)
          if (v != omap[g])
            add({MutKind::Omap, 0, g, v, 0, "", "",
                 label + " omap[" + std::to_string(g) + "] " +
                     std::to_string(omap[g]) + " -> " + std::to_string(v)});
    }
    // Two entries of an imap or omap exchanged (a block reading or writing
    // the tile of another block when the grid dims are equal).
    for (StringRef attr : {"imap", "omap"}) {
      auto map = dyn_cast_or_null<DenseI64ArrayAttr>(op->getAttr(attr));
      if (!map || !isa<mb::InputIterOp, mb::OutputSaverOp>(op))
        continue;
      ArrayRef<int64_t> v = map.asArrayRef();
      for (int i = 0; i < static_cast<int>(v.size()); ++i)
        for (int j = i + 1; j < static_cast<int>(v.size()); ++j)
          if (v[i] != v[j])
            add({MutKind::MapSwap, 0, i, j, 0, "", attr.str(),
                 label + " " + attr.str() + " entries " + std::to_string(i) +
                     " and " + std::to_string(j) + " exchanged"});
    }
    // Accumulator kinds.
    if (auto acc = dyn_cast<AccumulatorOpInterface>(op)) {
      StringRef self = op->getName().stripDialect();
      auto inTy = cast<RankedTensorType>(acc.getAccumulated().getType());
      int64_t n = inTy.getShape().back();
      for (const char *name : kAccumNames) {
        if (StringRef(name) == "accum_sum_to") {
          for (int64_t d = 1; d <= n; ++d) {
            if (n % d)
              continue;
            if (self == name &&
                cast<IntegerAttr>(op->getAttr("dimx")).getInt() == d)
              continue;
            add({MutKind::Accum, 0, 0, d, 0, std::string("mb.") + name, "",
                 label + " -> mb." + name + " dimx = " + std::to_string(d)});
          }
          continue;
        }
        if (self == name)
          continue;
        add({MutKind::Accum, 0, 0, 0, 0, std::string("mb.") + name, "",
             label + " -> mb." + name});
      }
    }
    // Element-wise siblings and operand swaps.
    if (auto ew = dyn_cast<ElementwiseOpInterface>(op)) {
      ElementwiseKind self = ew.getElementwiseKind();
      bool binary = op->getNumOperands() == 2;
      ArrayRef<ElementwiseKind> siblings =
          binary ? ArrayRef<ElementwiseKind>(kBinaryKinds)
                 : ArrayRef<ElementwiseKind>(kUnaryKinds);
      for (ElementwiseKind k : siblings)
        if (k != self) {
          std::string name =
              (dialect + "." + stringifyElementwiseKind(k)).str();
          add({binary ? MutKind::Binary : MutKind::Unary, 0, 0, 0, 0, name, "",
               label + " -> " + name});
        }
    }
    if (isBinaryElementwise(op) || op->getName().stripDialect() == "matmul")
      add({MutKind::Swap, 0, 0, 0, 0, "", "", label + " operands swapped"});
    // Reductions: kind and dim.
    StringRef bare = op->getName().stripDialect();
    if (bare == "reduce_sum" || bare == "reduce_max") {
      int64_t rank =
          cast<RankedTensorType>(op->getOperand(0).getType()).getRank();
      int64_t dim = cast<IntegerAttr>(op->getAttr("dim")).getInt();
      std::string other =
          (dialect + "." + (bare == "reduce_sum" ? "reduce_max" : "reduce_sum"))
              .str();
      add({MutKind::Reduce, 0, 0, dim, 0, other, "", label + " -> " + other});
      for (int64_t d = 0; d < rank; ++d)
        if (d != dim)
          add({MutKind::Reduce, 0, 0, d, 0, "", "",
               label + " dim " + std::to_string(dim) + " -> " +
                   std::to_string(d)});
    }
    // Constants.
    for (auto [name, value] : constantsOf(op))
      for (double factor : {1.0 + 1e-3, 2.0}) {
        double v = value * factor;
        if (v == value)
          continue;
        add({MutKind::Const, 0, 0, 0, v, "", name.str(),
             label + " " + name.str() + " " + formatDouble(value) + " x" +
                 formatDouble(factor) + " = " + formatDouble(v)});
      }
    // Grid and forloop: every other tiling of a small set; the verifier
    // keeps those whose divisions stay exact.
    auto tilings = [](int64_t c) {
      SmallVector<int64_t> v = {1, 2, 3, 4, 6, 8, 12, 16, 2 * c};
      if (c % 2 == 0)
        v.push_back(c / 2);
      llvm::sort(v);
      v.erase(std::unique(v.begin(), v.end()), v.end());
      llvm::erase(v, c);
      return v;
    };
    if (auto gk = dyn_cast<GraphKernelOpInterface>(op)) {
      ArrayRef<int64_t> grid = gk.getGridDims();
      for (int g = 0; g < static_cast<int>(grid.size()); ++g)
        for (int64_t v : tilings(grid[g]))
          add({MutKind::Grid, 0, g, v, 0, "", "",
               label + " grid[" + std::to_string(g) + "] " +
                   std::to_string(grid[g]) + " -> " + std::to_string(v)});
      int64_t f = gk.getForloopRange();
      for (int64_t v : tilings(f))
        add({MutKind::Forloop, 0, 0, v, 0, "", "",
             label + " forloop " + std::to_string(f) + " -> " +
                 std::to_string(v)});
    }
    // Operands: every other visible value of the same type (reading the
    // wrong tensor, tile or accumulator).
    for (OpOperand &use : op->getOpOperands())
      for (Value v : visibleValues(op)) {
        if (v == use.get() || v.getType() != use.get().getType())
          continue;
        Mutation m;
        m.kind = MutKind::Operand;
        m.operandNumber = use.getOperandNumber();
        std::string what;
        if (auto arg = dyn_cast<BlockArgument>(v)) {
          Operation *owner = arg.getOwner()->getParentOp();
          m.srcOp = indexOf.lookup(owner);
          m.srcNumber = arg.getArgNumber();
          m.srcIsArgument = true;
          what = "argument " + std::to_string(m.srcNumber) + " of " +
                 opLabel(owner, m.srcOp);
        } else {
          Operation *def = v.getDefiningOp();
          m.srcOp = indexOf.lookup(def);
          m.srcNumber = cast<OpResult>(v).getResultNumber();
          what = "result " + std::to_string(m.srcNumber) + " of " +
                 opLabel(def, m.srcOp);
        }
        m.description = label + " operand " + std::to_string(m.operandNumber) +
                        " -> " + what;
        add(std::move(m));
      }
  });
  return out;
}

namespace {

/// Replaces `op` by an op named `name` with `operands`, the same result types
/// and `attrs`.
Operation *replaceOp(Operation *op, StringRef name, ValueRange operands,
                     ArrayRef<NamedAttribute> attrs) {
  OpBuilder b(op);
  OperationState st(op->getLoc(), name);
  st.addOperands(operands);
  st.addTypes(op->getResultTypes());
  st.addAttributes(attrs);
  Operation *n = b.create(st);
  op->replaceAllUsesWith(n->getResults());
  op->erase();
  return n;
}

FloatAttr f64(MLIRContext *ctx, double v) {
  return FloatAttr::get(Float64Type::get(ctx), v);
}

} // namespace

/// Applies `m` to `func` (a clone of the candidate). Returns false with
/// `why` when the mutation cannot be built.
bool applyMutation(func::FuncOp func, const Mutation &m, std::string &why) {
  SmallVector<Operation *> ops;
  func.walk<WalkOrder::PreOrder>([&](Operation *op) { ops.push_back(op); });
  Operation *target = m.opIndex < ops.size() ? ops[m.opIndex] : nullptr;
  if (!target) {
    why = "op not found in the clone";
    return false;
  }
  MLIRContext *ctx = func.getContext();
  auto setEntry = [&](StringRef attr, int entry, int64_t v) {
    SmallVector<int64_t> vals(
        cast<DenseI64ArrayAttr>(target->getAttr(attr)).asArrayRef());
    vals[entry] = v;
    target->setAttr(attr, DenseI64ArrayAttr::get(ctx, vals));
  };
  switch (m.kind) {
  case MutKind::Imap:
    setEntry("imap", m.entry, m.value);
    return true;
  case MutKind::MapSwap: {
    SmallVector<int64_t> vals(
        cast<DenseI64ArrayAttr>(target->getAttr(m.attr)).asArrayRef());
    std::swap(vals[m.entry], vals[m.value]);
    target->setAttr(m.attr, DenseI64ArrayAttr::get(ctx, vals));
    return true;
  }
  case MutKind::Omap:
    setEntry("omap", m.entry, m.value);
    return true;
  case MutKind::Grid:
    setEntry("grid", m.entry, m.value);
    return true;
  case MutKind::Fmap:
    target->setAttr("fmap",
                    IntegerAttr::get(IntegerType::get(ctx, 64), m.value));
    return true;
  case MutKind::Forloop:
    target->setAttr("forloop",
                    IntegerAttr::get(IntegerType::get(ctx, 64), m.value));
    return true;
  case MutKind::Const:
    target->setAttr(m.attr, f64(ctx, m.constant));
    return true;
  case MutKind::Swap: {
    Value lhs = target->getOperand(0), rhs = target->getOperand(1);
    target->setOperand(0, rhs);
    target->setOperand(1, lhs);
    return true;
  }
  case MutKind::Reduce: {
    auto dim =
        NamedAttribute(StringAttr::get(ctx, "dim"),
                       IntegerAttr::get(IntegerType::get(ctx, 64), m.value));
    if (m.newOp.empty()) {
      target->setAttr("dim", dim.getValue());
      return true;
    }
    replaceOp(target, m.newOp, target->getOperands(), {dim});
    return true;
  }
  case MutKind::Accum: {
    SmallVector<NamedAttribute> attrs;
    StringRef name = m.newOp;
    if (name == "mb.accum_rms_last") {
      double eps = 1e-6;
      if (auto f = dyn_cast_or_null<FloatAttr>(target->getAttr("eps")))
        eps = f.getValueAsDouble();
      attrs.push_back({StringAttr::get(ctx, "eps"), f64(ctx, eps)});
    }
    if (name == "mb.accum_sum_to")
      attrs.push_back({StringAttr::get(ctx, "dimx"),
                       IntegerAttr::get(IntegerType::get(ctx, 64), m.value)});
    replaceOp(target, name, target->getOperand(0), attrs);
    return true;
  }
  case MutKind::Unary: {
    SmallVector<double, 2> params =
        cast<ElementwiseOpInterface>(target).getScalarParams();
    SmallVector<NamedAttribute> attrs;
    StringRef name = m.newOp;
    if (name.ends_with(".mul_scalar") || name.ends_with(".add_scalar"))
      attrs.push_back(
          {StringAttr::get(ctx, "scalar"),
           f64(ctx, params.empty() ? (name.ends_with(".mul_scalar") ? 2.0 : 1.0)
                                   : params[0])});
    if (name.ends_with(".clamp")) {
      attrs.push_back({StringAttr::get(ctx, "min"), f64(ctx, -0.5)});
      attrs.push_back({StringAttr::get(ctx, "max"), f64(ctx, 0.5)});
    }
    replaceOp(target, name, target->getOperand(0), attrs);
    return true;
  }
  case MutKind::Binary:
    replaceOp(target, m.newOp, target->getOperands(), {});
    return true;
  case MutKind::Operand: {
    Operation *src = m.srcOp < ops.size() ? ops[m.srcOp] : nullptr;
    if (!src) {
      why = "source op not found in the clone";
      return false;
    }
    Value v = m.srcIsArgument
                  ? Value(src->getRegion(0).front().getArgument(m.srcNumber))
                  : Value(src->getResult(m.srcNumber));
    target->setOperand(m.operandNumber, v);
    return true;
  }
  }
  why = "unknown mutation";
  return false;
}

//===----------------------------------------------------------------------===//
// Re-inferring result types after a mutation
//===----------------------------------------------------------------------===//

namespace {

RankedTensorType withShape(Type t, ArrayRef<int64_t> shape) {
  return RankedTensorType::get(shape,
                               cast<RankedTensorType>(t).getElementType());
}

/// Recomputes the result types of the ops of `block` in order (graph kernel
/// results and function results stay as written: the verifier compares).
/// Returns false with `why` if a tile shape or a shape rule fails.
bool retypeBlock(Block &block, std::string &why) {
  for (Operation &opRef : block) {
    Operation *op = &opRef;
    if (auto it = dyn_cast<mb::InputIterOp>(op)) {
      auto gk = op->getParentOfType<GraphKernelOpInterface>();
      if (!gk)
        continue;
      auto ty = it.getInput().getType();
      FailureOr<SmallVector<int64_t>> shape = mb::computeInputTileShape(
          ty.getShape(), gk.getGridDims(), gk.getForloopRange(), it.getImap(),
          it.getFmap(), why);
      if (failed(shape))
        return false;
      it.getResult().setType(withShape(ty, *shape));
      continue;
    }
    if (auto os = dyn_cast<mb::OutputSaverOp>(op)) {
      auto gk = op->getParentOfType<GraphKernelOpInterface>();
      auto ty = os.getInput().getType();
      FailureOr<SmallVector<int64_t>> shape = mb::computeOutputShape(
          ty.getShape(), gk.getGridDims(), os.getOmap(), why);
      if (failed(shape))
        return false;
      os.getResult().setType(withShape(ty, *shape));
      continue;
    }
    if (auto loop = dyn_cast<mb::ForLoopOp>(op)) {
      Block &body = loop.getBody().front();
      if (!retypeBlock(body, why))
        return false;
      Operation *yield = body.getTerminator();
      if (yield->getNumOperands() != loop.getNumResults()) {
        why = "yield arity";
        return false;
      }
      for (auto [r, v] : llvm::zip(loop.getResults(), yield->getOperands()))
        r.setType(v.getType());
      continue;
    }
    if (auto gk = dyn_cast<GraphKernelOpInterface>(op)) {
      if (!retypeBlock(op->getRegion(0).front(), why))
        return false;
      continue;
    }
    if (auto tg = dyn_cast<mt::ThreadGraphOp>(op)) {
      SmallVector<int64_t> shape;
      for (Value in : tg.getInputs()) {
        auto s = cast<RankedTensorType>(in.getType()).getShape();
        if (shape.empty()) {
          shape.assign(s.begin(), s.end());
          continue;
        }
        FailureOr<SmallVector<int64_t>> b = broadcastShapes(shape, s);
        if (failed(b)) {
          why = "thread graph inputs do not broadcast";
          return false;
        }
        shape = *b;
      }
      for (Value r : tg.getResults())
        r.setType(withShape(r.getType(), shape));
      continue;
    }
    if (auto acc = dyn_cast<AccumulatorOpInterface>(op)) {
      auto ty = cast<RankedTensorType>(acc.getAccumulated().getType());
      SmallVector<int64_t> shape(ty.getShape());
      switch (acc.getAccumulatorKind()) {
      case AccumulatorKind::SumLast:
      case AccumulatorKind::MeanLast:
      case AccumulatorKind::RmsLast:
        shape.back() = 1;
        break;
      case AccumulatorKind::SumTo:
        shape.back() = cast<IntegerAttr>(op->getAttr("dimx")).getInt();
        break;
      default:
        break;
      }
      op->getResult(0).setType(withShape(ty, shape));
      continue;
    }
    if (op->getDialect() && op->getDialect()->getNamespace() == "mt")
      continue;
    if (auto infer = dyn_cast<InferTypeOpInterface>(op)) {
      SmallVector<Type> types;
      if (failed(infer.inferReturnTypes(
              op->getContext(), std::nullopt, op->getOperands(),
              op->getRawDictionaryAttrs(), op->getPropertiesStorage(),
              op->getRegions(), types))) {
        why = ("shape rule of " + op->getName().getStringRef()).str();
        return false;
      }
      for (auto [r, t] : llvm::zip(op->getResults(), types))
        r.setType(t);
      continue;
    }
    if (op->getNumResults() == 1 && op->getNumOperands() >= 1 &&
        (op->hasTrait<OpTrait::SameOperandsAndResultType>() ||
         op->getName().stripDialect() == "rms_norm"))
      op->getResult(0).setType(op->getOperand(0).getType());
  }
  return true;
}

} // namespace

bool retypeFunction(func::FuncOp func, std::string &why) {
  return retypeBlock(func.getBody().front(), why);
}

} // namespace mirage::mutation
