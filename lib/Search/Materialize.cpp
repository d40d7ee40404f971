//===- Materialize.cpp - Search-IR programs as mk/mb IR ---------*- C++ -*-===//
//
// Builds the search IR as mk and mb ops (Materialize.h).
//
//===----------------------------------------------------------------------===//

#include "Materialize.h"

#include "Mirage/Dialect/Block/IR/Block.h"
#include "Mirage/Dialect/Kernel/IR/Kernel.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace mirage::search::detail {

static int dimOf(const Labels &labels, uint32_t label) {
  for (auto [i, l] : llvm::enumerate(labels))
    if (l == label && label)
      return static_cast<int>(i);
  return -1;
}

/// The grid placement of a tile with `labels` in kernel `k`: the dim each
/// grid dim splits (imap), and the dim the loop walks (fmap; -1 when
/// `walked` is false or the kernel has no loop).
static std::pair<SmallVector<int64_t, 3>, int64_t>
placement(const SKernel &k, const Labels &labels, bool walked) {
  SmallVector<int64_t, 3> imap;
  for (unsigned g = 0; g < 3; ++g)
    imap.push_back(g < k.grid.size() ? dimOf(labels, k.grid[g].first) : -1);
  int64_t fmap = walked && k.forloop > 1 ? dimOf(labels, k.loopAxis) : -1;
  return {imap, fmap};
}

/// The type of value `v` of `prog` at the extents `scale`.
static Type kernelType(const SProgram &prog, int v, const Scale &scale,
                       Type element) {
  return RankedTensorType::get(kernelShape(prog.vals[v], scale), element);
}

/// Creates `op` as `dialect`.<kind> on `args` with result type
/// `resultType`; `coords` places a block-level band mask's tile.
static Value buildOp(
    OpBuilder &b, Location loc, StringRef dialect, const SOp &op,
    ArrayRef<Value> args, Type resultType,
    const std::optional<std::pair<SmallVector<int64_t, 3>, int64_t>> &coords =
        std::nullopt) {
  OperationState state(loc, (dialect + "." + kindName(op.kind)).str());
  state.addOperands(args);
  state.addTypes(resultType);
  const Params &p = op.params;
  switch (op.kind) {
  case Kind::BandMask: {
    SmallVector<int64_t, 2> dims;
    if (p.maskDims[0] >= 0)
      dims.push_back(p.maskDims[0]);
    dims.push_back(p.maskDims[1]);
    state.addAttribute("dims", b.getDenseI64ArrayAttr(dims));
    if (p.lower)
      state.addAttribute("lower", b.getI64IntegerAttr(*p.lower));
    if (p.upper)
      state.addAttribute("upper", b.getI64IntegerAttr(*p.upper));
    state.addAttribute("fill", b.getF64FloatAttr(p.a));
    if (p.additive)
      state.addAttribute("additive", b.getUnitAttr());
    if (coords) {
      state.addAttribute("imap", b.getDenseI64ArrayAttr(coords->first));
      state.addAttribute("fmap", b.getI64IntegerAttr(coords->second));
    }
    break;
  }
  case Kind::Where:
    state.addAttribute("fill", b.getF64FloatAttr(p.a));
    if (p.b != 0)
      state.addAttribute("inverted", b.getUnitAttr());
    break;
  case Kind::MulScalar:
  case Kind::AddScalar:
    state.addAttribute("scalar", b.getF64FloatAttr(p.a));
    break;
  case Kind::Clamp:
    state.addAttribute("min", b.getF64FloatAttr(p.a));
    state.addAttribute("max", b.getF64FloatAttr(p.b));
    break;
  case Kind::ReduceSum:
  case Kind::ReduceMax:
    state.addAttribute("dim", b.getI64IntegerAttr(p.dim));
    break;
  case Kind::RmsNorm:
  case Kind::AccRmsLast:
    state.addAttribute("eps", b.getF64FloatAttr(p.a));
    break;
  default:
    break;
  }
  return b.create(state)->getResult(0);
}

/// Builds kernel `k` of `prog` on the values `vals` (indexed by value) at
/// `b`, and records its results in `vals`.
static void buildKernel(OpBuilder &b, Location loc, const SProgram &prog,
                        const SKernel &k, const Scale &scale, Type element,
                        SmallVectorImpl<Value> &vals) {
  auto ktype = [&](int v) { return kernelType(prog, v, scale, element); };
  auto btype = [&](int v) -> Type {
    return RankedTensorType::get(blockShape(k, k.vals[v], scale), element);
  };
  SmallVector<Value> ins;
  SmallVector<Type> resultTypes;
  for (int in : k.inputs)
    ins.push_back(vals[in]);
  for (int r : k.results)
    resultTypes.push_back(ktype(r));
  SmallVector<int64_t> grid = {1, 1, 1};
  for (auto [i, g] : llvm::enumerate(k.grid))
    grid[i] = g.second;
  auto kernel = mk::GraphKernelOp::create(b, loc, resultTypes, ins, grid,
                                          SmallVector<int64_t>{k.threads, 1, 1},
                                          k.forloop);
  auto *body = new Block();
  kernel.getBody().push_back(body);
  for (int in : k.inputs)
    body->addArgument(ktype(in), loc);
  OpBuilder kb = OpBuilder::atBlockEnd(body);

  unsigned firstAcc = k.numBody, firstPost = k.numBody + k.numAcc;
  SmallVector<Type> accTypes;
  for (unsigned j = 0; j < k.numAcc; ++j)
    accTypes.push_back(btype(k.ops[firstAcc + j].result));
  auto loop = mb::ForLoopOp::create(kb, loc, accTypes);
  auto *loopBody = new Block();
  loop.getBody().push_back(loopBody);
  OpBuilder lb = OpBuilder::atBlockEnd(loopBody);

  // Block values before the loop's end (`inner`) and after it (`outer`:
  // accumulators are the loop's results there).
  SmallVector<Value> inner(k.vals.size()), outer(k.vals.size());
  auto inputIter = [&](OpBuilder &at, unsigned i) {
    bool epilogue = isEpilogueInput(k, static_cast<int>(i));
    auto [imap, fmap] =
        placement(k, prog.vals[k.inputs[i]].labels, /*walked=*/!epilogue);
    inner[i] = outer[i] = mb::InputIterOp::create(
        at, loc, btype(i), body->getArgument(i), imap, fmap,
        /*view=*/AffineMapAttr());
  };
  auto blockOp = [&](OpBuilder &at, const SOp &op, ArrayRef<Value> operands,
                     bool inBody) {
    SmallVector<Value, 2> args;
    for (int a : op.args)
      args.push_back(operands[a]);
    std::optional<std::pair<SmallVector<int64_t, 3>, int64_t>> coords;
    if (op.kind == Kind::BandMask)
      coords = placement(k, k.vals[op.result].labels, inBody);
    inner[op.result] = outer[op.result] =
        buildOp(at, loc, "mb", op, args, btype(op.result), coords);
  };
  for (unsigned i = 0; i < k.inputs.size(); ++i)
    if (!isEpilogueInput(k, static_cast<int>(i)))
      inputIter(lb, i);
  for (unsigned j = 0; j < firstPost; ++j)
    blockOp(lb, k.ops[j], inner, j < k.numBody);
  SmallVector<Value> yielded;
  for (unsigned j = 0; j < k.numAcc; ++j) {
    int acc = k.ops[firstAcc + j].result;
    yielded.push_back(inner[acc]);
    outer[acc] = loop.getResult(j);
  }
  mb::YieldOp::create(lb, loc, yielded);
  for (unsigned i = 0; i < k.inputs.size(); ++i)
    if (isEpilogueInput(k, static_cast<int>(i)))
      inputIter(kb, i);
  for (unsigned j = firstPost; j < k.ops.size(); ++j)
    blockOp(kb, k.ops[j], outer, false);
  SmallVector<Value> saved;
  for (auto [i, v] : llvm::enumerate(k.outputs))
    saved.push_back(
        mb::OutputSaverOp::create(kb, loc, ktype(k.results[i]), outer[v],
                                  placement(k, k.vals[v].labels, false).first,
                                  /*view=*/AffineMapAttr()));
  mb::ReturnOp::create(kb, loc, saved);
  for (auto [i, r] : llvm::enumerate(k.results))
    vals[r] = kernel.getResult(i);
}

/// A new func.func `name` of `argTypes` and `resultTypes` at the end of
/// `module`, with a builder at its entry.
static func::FuncOp newFunction(ModuleOp module, StringRef name,
                                ArrayRef<Type> argTypes,
                                ArrayRef<Type> resultTypes, OpBuilder &b) {
  b.setInsertionPointToEnd(module.getBody());
  auto func = func::FuncOp::create(b, module.getLoc(), name,
                                   b.getFunctionType(argTypes, resultTypes));
  b.setInsertionPointToStart(func.addEntryBlock());
  return func;
}

func::FuncOp buildProgram(ModuleOp module, const SProgram &prog,
                          ArrayRef<int> outputs, unsigned numInputs,
                          const Scale &scale, Type element, StringRef name) {
  auto ktype = [&](int v) { return kernelType(prog, v, scale, element); };
  SmallVector<Type> argTypes, resultTypes;
  for (unsigned i = 0; i < numInputs; ++i)
    argTypes.push_back(ktype(i));
  for (int o : outputs)
    resultTypes.push_back(ktype(o));
  OpBuilder b(module.getContext());
  func::FuncOp func = newFunction(module, name, argTypes, resultTypes, b);
  Location loc = func.getLoc();
  SmallVector<Value> vals(prog.vals.size());
  for (unsigned i = 0; i < numInputs; ++i)
    vals[i] = func.getArgument(i);
  for (const SKernelOp &kop : prog.ops) {
    if (kop.isKernel) {
      buildKernel(b, loc, prog, prog.kernels[kop.kernel], scale, element, vals);
      continue;
    }
    SmallVector<Value, 2> args;
    for (int a : kop.op.args)
      args.push_back(vals[a]);
    vals[kop.op.result] =
        buildOp(b, loc, "mk", kop.op, args, ktype(kop.op.result));
  }
  SmallVector<Value> results;
  for (int o : outputs)
    results.push_back(vals[o]);
  func::ReturnOp::create(b, loc, results);
  return func;
}

func::FuncOp buildPredefinedOp(ModuleOp module, const SProgram &prog,
                               const SOp &op, const Scale &scale, Type element,
                               StringRef name) {
  auto ktype = [&](int v) { return kernelType(prog, v, scale, element); };
  SmallVector<int, 2> distinct;
  for (int a : op.args)
    if (!llvm::is_contained(distinct, a))
      distinct.push_back(a);
  SmallVector<Type> argTypes;
  for (int a : distinct)
    argTypes.push_back(ktype(a));
  OpBuilder b(module.getContext());
  func::FuncOp func =
      newFunction(module, name, argTypes, {ktype(op.result)}, b);
  SmallVector<Value, 2> args;
  for (int a : op.args)
    args.push_back(
        func.getArgument(llvm::find(distinct, a) - distinct.begin()));
  Value result = buildOp(b, func.getLoc(), "mk", op, args, ktype(op.result));
  func::ReturnOp::create(b, func.getLoc(), result);
  return func;
}

OwningOpRef<ModuleOp> scratchModule(MLIRContext *ctx, int64_t smemLimit) {
  OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(ctx));
  module->getOperation()->setAttr(
      mk::MKDialect::kSmemLimitAttrName,
      IntegerAttr::get(IntegerType::get(ctx, 64), smemLimit));
  return module;
}

bool verifiesQuietly(Operation *op) {
  ScopedDiagnosticHandler quiet(op->getContext(),
                                [](Diagnostic &) { return success(); });
  return succeeded(verify(op));
}

std::string summarize(const SProgram &prog) {
  std::string s;
  llvm::raw_string_ostream os(s);
  bool first = true;
  for (const SKernelOp &kop : prog.ops) {
    os << (first ? "" : "; ");
    first = false;
    if (!kop.isKernel) {
      os << "mk." << kindName(kop.op.kind);
      continue;
    }
    const SKernel &k = prog.kernels[kop.kernel];
    int64_t grid[3] = {1, 1, 1};
    for (auto [i, g] : llvm::enumerate(k.grid))
      grid[i] = g.second;
    os << "graph_kernel grid [" << grid[0] << "," << grid[1] << "," << grid[2]
       << "] forloop " << k.forloop << " {";
    for (auto [i, op] : llvm::enumerate(k.ops)) {
      if (i == k.numBody + k.numAcc)
        os << " |";
      os << (i ? " " : "") << kindName(op.kind);
    }
    os << "}";
  }
  return s;
}

} // namespace mirage::search::detail
