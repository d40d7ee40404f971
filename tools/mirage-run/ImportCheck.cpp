//===- ImportCheck.cpp - Differential check of mirage-import --------------===//
//
// Two copies of the module are made for each checked function:
//  - the reference copy keeps the function and what it calls, and is
//    lowered the way upstream MLIR runs linalg/tosa on a CPU: tosa to linalg,
//    aggregated ops (linalg.softmax) decomposed, one-shot bufferization with
//    results as out-parameters, loops, LLVM; the ExecutionEngine runs it in
//    the program's element types;
//  - the imported copy goes through `mirage-import`; its outlined mk
//    functions are inlined back, the reshapes the import leaves between mk
//    runs become mk.reshape, and the f64 interpreter evaluates it.
// Both see the same seeded inputs (rounded to the argument types), and the
// comparison is mirage-run's (tolerance of the output element type).
//
//===----------------------------------------------------------------------===//

#include "ImportCheck.h"

#include "Buffers.h"
#include "Mirage/Dialect/Kernel/IR/Kernel.h"
#include "Mirage/Verify/Interpreter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mirage;
using namespace mirage::run;

namespace {

/// Upstream's CPU path for linalg/tosa on tensors, after the aggregated ops
/// are decomposed (tosa first, so that its lowering can produce them).
constexpr const char *kToLinalg =
    "func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,"
    "tosa-to-tensor)";
constexpr const char *kLinalgToLLVM =
    "one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map},"
    "buffer-results-to-out-params{modify-public-functions "
    "hoist-static-allocs},buffer-deallocation-pipeline,"
    "func.func(convert-linalg-to-loops),math-extend-to-supported-types,"
    "convert-math-to-llvm,convert-math-to-libm,lower-affine,convert-scf-to-cf,"
    "expand-strided-metadata,convert-to-llvm,reconcile-unrealized-casts";

bool isMkOp(Operation *op) {
  return op->getDialect() && op->getDialect()->getNamespace() ==
                                 mk::MKDialect::getDialectNamespace();
}

/// Whether `func` is written (at least partly) outside mk: the functions a
/// test file holds as mk references are not checked.
bool hasNonMkOp(func::FuncOp func) {
  bool found = false;
  func.walk([&](Operation *op) {
    if (op != func && !isa<func::ReturnOp>(op) && !isMkOp(op))
      found = true;
  });
  return found;
}

/// Runs `pipeline` (passes on the module, no anchor) on `module`.
LogicalResult runPipeline(ModuleOp module, StringRef pipeline) {
  PassManager pm(module.getContext());
  if (failed(parsePassPipeline(pipeline, pm)))
    return failure();
  return pm.run(module);
}

/// Erases every function of `module` but `root` and those it calls.
void keepOnly(ModuleOp module, func::FuncOp root) {
  llvm::SetVector<Operation *> kept;
  kept.insert(root);
  for (unsigned i = 0; i < kept.size(); ++i)
    kept[i]->walk([&](CallOpInterface call) {
      if (Operation *callee = call.resolveCallable())
        kept.insert(callee);
    });
  for (auto f : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
    if (!kept.contains(f))
      f.erase();
}

/// Replaces every linalg.softmax (and other aggregated op) with the ops it
/// is defined as, which convert-linalg-to-loops can lower.
LogicalResult decomposeAggregatedOps(ModuleOp module) {
  SmallVector<linalg::AggregatedOpInterface> ops;
  module.walk([&](linalg::AggregatedOpInterface op) { ops.push_back(op); });
  IRRewriter rewriter(module.getContext());
  for (linalg::AggregatedOpInterface op : ops) {
    rewriter.setInsertionPoint(op);
    FailureOr<SmallVector<Value>> parts = op.decomposeOperation(rewriter);
    if (failed(parts))
      return op->emitError("cannot decompose this op for the reference run");
    rewriter.replaceOp(op, *parts);
  }
  return success();
}

/// `t` with f16/bf16 (as a scalar or a shaped element type) made f32.
Type widenType(Type t) {
  Type f32 = Float32Type::get(t.getContext());
  if (isa<Float16Type, BFloat16Type>(t))
    return f32;
  if (auto shaped = dyn_cast<ShapedType>(t))
    if (isa<Float16Type, BFloat16Type>(shaped.getElementType()))
      return shaped.clone(f32);
  if (auto fn = dyn_cast<FunctionType>(t))
    return FunctionType::get(t.getContext(),
                             llvm::map_to_vector(fn.getInputs(), widenType),
                             llvm::map_to_vector(fn.getResults(), widenType));
  return t;
}

/// `a` with its f16/bf16 values and types made f32 (constants, zero points,
/// clamp bounds, function types).
Attribute widenAttr(Attribute a) {
  if (auto f = dyn_cast<FloatAttr>(a);
      f && widenType(f.getType()) != f.getType())
    return FloatAttr::get(widenType(f.getType()), f.getValueAsDouble());
  if (auto d = dyn_cast<DenseFPElementsAttr>(a);
      d && widenType(d.getType()) != d.getType()) {
    SmallVector<float> values;
    for (const APFloat &v : d.getValues<APFloat>())
      values.push_back(v.convertToFloat());
    return DenseElementsAttr::get(cast<ShapedType>(widenType(d.getType())),
                                  ArrayRef<float>(values));
  }
  if (auto t = dyn_cast<TypeAttr>(a))
    return TypeAttr::get(widenType(t.getValue()));
  if (auto arr = dyn_cast<ArrayAttr>(a))
    return ArrayAttr::get(a.getContext(),
                          llvm::map_to_vector(arr.getValue(), widenAttr));
  return a;
}

/// Makes every f16/bf16 value of `module` f32: the reference computes the
/// real-valued function the import must preserve, not linalg's f16
/// accumulation (a 4096-long f16 dot product is off by several per cent,
/// where mk.matmul accumulates in f32). Extensions and truncations between
/// f32 and the narrow types become no-ops and go.
LogicalResult widenToF32(ModuleOp module) {
  module.walk([&](Operation *op) {
    for (Value r : op->getResults())
      r.setType(widenType(r.getType()));
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          arg.setType(widenType(arg.getType()));
    for (NamedAttribute attr : op->getAttrs())
      op->setAttr(attr.getName(), widenAttr(attr.getValue()));
  });
  SmallVector<Operation *> casts;
  module.walk([&](Operation *op) {
    if (isa<arith::ExtFOp, arith::TruncFOp>(op) &&
        op->getOperand(0).getType() == op->getResult(0).getType())
      casts.push_back(op);
  });
  for (Operation *op : casts) {
    op->getResult(0).replaceAllUsesWith(op->getOperand(0));
    op->erase();
  }
  return module.verify();
}

/// The original function, widened to f32, run by upstream MLIR on `inputs`
/// (f32 buffers): one f32 buffer per result.
FailureOr<std::vector<Buffer>> runUpstream(ModuleOp original, StringRef name,
                                           ArrayRef<Buffer> inputs,
                                           double &runMs) {
  OwningOpRef<ModuleOp> module = original.clone();
  auto func = module->lookupSymbol<func::FuncOp>(name);
  keepOnly(*module, func);
  if (failed(widenToF32(*module))) {
    fail("@" + name + ": widening the original to f32 failed");
    return failure();
  }
  std::vector<Buffer> outputs;
  for (Type t : func.getResultTypes())
    outputs.push_back(makeBuffer(
        verify::FloatTensor(cast<RankedTensorType>(t).getShape(), 0.0),
        Float32Type::get(t.getContext())));
  if (failed(runPipeline(*module, kToLinalg)) ||
      failed(decomposeAggregatedOps(*module)) ||
      failed(runPipeline(*module, kLinalgToLLVM))) {
    fail("@" + name + ": the upstream lowering of the original failed");
    return failure();
  }
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  ExecutionEngineOptions options;
  auto transformer = makeOptimizingTransformer(2, 0, nullptr);
  options.transformer = transformer;
  // memrefCopy, which copies between strided memrefs (tosa.concat).
  SmallVector<StringRef> libs = {MIRAGE_RUN_C_RUNNER_UTILS};
  options.sharedLibPaths = libs;
  auto engine = ExecutionEngine::create(*module, options);
  if (!engine) {
    fail("@" + name + ": JIT compilation of the upstream lowering failed: " +
         llvm::toString(engine.takeError()));
    return failure();
  }
  // Inputs, then one destination per result, as expanded descriptors (the
  // input buffers are copied: the reference must not write into them).
  std::vector<Buffer> args(inputs.begin(), inputs.end());
  std::vector<std::vector<int64_t>> descs;
  for (Buffer &b : args)
    descs.push_back(descriptor(b.bytes.data(), b.shape));
  for (Buffer &b : outputs)
    descs.push_back(descriptor(b.bytes.data(), b.shape));
  std::vector<void *> packed;
  for (auto &d : descs)
    for (int64_t &w : d)
      packed.push_back(&w);
  auto t0 = std::chrono::steady_clock::now();
  if (llvm::Error e = (*engine)->invokePacked(name, packed)) {
    fail("@" + name + ": invoking the upstream lowering failed: " +
         llvm::toString(std::move(e)));
    return failure();
  }
  runMs = msSince(t0);
  return outputs;
}

/// Rewrites the imported function into something the interpreter evaluates:
/// the outlined mk functions inlined at their calls, the float tensor
/// constants left outside (a mask, a pow exponent) as extra arguments whose
/// values go to `constants`, the reshapes left between mk runs as
/// mk.reshape, dead constants and empties dropped, and rank-0 arguments
/// (which the import only reshapes) as one-element tensors.
LogicalResult prepareImported(ModuleOp module, func::FuncOp func,
                              std::vector<verify::FloatTensor> &constants,
                              std::string &why) {
  SymbolTable symbols(module);
  SmallVector<func::CallOp> calls(func.getOps<func::CallOp>());
  for (func::CallOp call : calls) {
    auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
    if (!callee || callee.isExternal() || !callee.getBody().hasOneBlock()) {
      why = "the call of @" + call.getCallee().str() +
            " cannot be inlined for the interpreter";
      return failure();
    }
    IRMapping map;
    Block &calleeBody = callee.getBody().front();
    map.map(calleeBody.getArguments(), call.getOperands());
    OpBuilder b(call);
    for (Operation &op : calleeBody.without_terminator())
      b.clone(op, map);
    for (auto [result, value] : llvm::zip(
             call.getResults(), calleeBody.getTerminator()->getOperands()))
      result.replaceAllUsesWith(map.lookup(value));
    call.erase();
  }
  IRRewriter rewriter(module.getContext());
  Block &body = func.getBody().front();
  for (Operation &op : llvm::make_early_inc_range(body)) {
    if (!isa<arith::ConstantOp, tosa::ConstOp>(op) || op.use_empty())
      continue;
    auto dense =
        dyn_cast_or_null<DenseFPElementsAttr>(op.getAttrOfType<ElementsAttr>(
            isa<arith::ConstantOp>(op) ? "value" : "values"));
    auto t = dyn_cast<RankedTensorType>(op.getResult(0).getType());
    if (!dense || !t || !t.hasStaticShape() || t.getRank() > 4)
      continue;
    verify::FloatTensor values(
        t.getRank() ? t.getShape() : ArrayRef<int64_t>{1}, 0.0);
    for (auto [i, v] : llvm::enumerate(dense.getValues<APFloat>()))
      values.data[i] = v.convertToDouble();
    constants.push_back(std::move(values));
    op.getResult(0).replaceAllUsesWith(body.addArgument(t, op.getLoc()));
    op.erase();
  }
  SmallVector<Type> argTypes;
  for (BlockArgument arg : body.getArguments()) {
    auto t = cast<RankedTensorType>(arg.getType());
    if (t.getRank() == 0)
      arg.setType(RankedTensorType::get({1}, t.getElementType()));
    argTypes.push_back(arg.getType());
  }
  func.setFunctionType(
      rewriter.getFunctionType(argTypes, func.getResultTypes()));
  for (Operation &op : llvm::make_early_inc_range(body)) {
    if (!isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tosa::ReshapeOp>(
            op))
      continue;
    rewriter.setInsertionPoint(&op);
    rewriter.replaceOpWithNewOp<mk::ReshapeOp>(&op, op.getResult(0).getType(),
                                               op.getOperand(0));
  }
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(body)))
    if (isa<tensor::EmptyOp, arith::ConstantOp, tosa::ConstOp,
            tosa::ConstShapeOp>(op) &&
        op.use_empty())
      op.erase();
  return success();
}

enum class Outcome { Pass, Fail, NotChecked };

/// A function the check does not cover: its signature is outside what the
/// interpreter takes, or the import leaves ops outside mk.
Outcome notChecked(const llvm::Twine &why) {
  llvm::outs() << "NOT CHECKED " << why << "\n";
  return Outcome::NotChecked;
}

Outcome checkFailed(const llvm::Twine &why) {
  fail(why);
  return Outcome::Fail;
}

Outcome checkOne(ModuleOp original, func::FuncOp func,
                 const ImportCheckOptions &options) {
  std::string name = func.getSymName().str();
  for (Type t : llvm::concat<const Type>(func.getArgumentTypes(),
                                         func.getResultTypes())) {
    auto rt = dyn_cast<RankedTensorType>(t);
    if (!rt || !rt.hasStaticShape())
      return notChecked("@" + name + ": type " + typeName(t) +
                        " is not a static tensor");
    Type e = rt.getElementType();
    if (!e.isF16() && !e.isBF16() && !e.isF32())
      return notChecked("@" + name + ": element type " + typeName(e) +
                        " is not supported (f16, bf16, f32)");
  }

  // Seeded inputs rounded to the argument types; a rank-0 argument is a
  // one-element tensor for the interpreter.
  std::vector<verify::FloatTensor> inputs =
      verify::randomFloatInputs(func, options.seed);
  std::vector<Buffer> inputBufs;
  for (auto [i, t] : llvm::enumerate(func.getArgumentTypes())) {
    Type elem = cast<RankedTensorType>(t).getElementType();
    for (double &v : inputs[i].data)
      v = verify::roundToElementType(static_cast<float>(v * options.inputScale),
                                     elem);
    inputBufs.push_back(
        makeBuffer(inputs[i], Float32Type::get(t.getContext())));
    if (inputs[i].shape.empty())
      inputs[i].shape.push_back(1);
  }

  // The imported program, evaluated in f64.
  OwningOpRef<ModuleOp> imported = original.clone();
  auto importedFunc = imported->lookupSymbol<func::FuncOp>(name);
  keepOnly(*imported, importedFunc);
  {
    // The import's remarks (ops left outside) are its tests' concern.
    ScopedDiagnosticHandler quiet(imported->getContext(), [](Diagnostic &d) {
      return success(d.getSeverity() == DiagnosticSeverity::Remark);
    });
    if (failed(runPipeline(*imported, "mirage-import")))
      return checkFailed("@" + name + ": mirage-import failed");
  }
  unsigned outlined = 0;
  importedFunc.walk([&](func::CallOp) { ++outlined; });
  std::string why;
  std::vector<verify::FloatTensor> constants;
  if (failed(prepareImported(*imported, importedFunc, constants, why)))
    return checkFailed("@" + name + ": " + why);
  for (verify::FloatTensor &c : constants)
    inputs.push_back(std::move(c));
  unsigned mkOps = 0;
  Operation *outside = nullptr;
  importedFunc.walk([&](Operation *op) {
    if (isMkOp(op))
      ++mkOps;
    else if (!outside && op != importedFunc && !isa<func::ReturnOp>(op))
      outside = op;
  });
  if (outside)
    return notChecked(
        "@" + name + ": the import leaves '" +
        outside->getName().getStringRef() +
        "' outside mk; the check evaluates imported programs only");
  verify::EvalError evalError;
  auto t0 = std::chrono::steady_clock::now();
  std::optional<std::vector<verify::FloatTensor>> reference =
      verify::evaluateFloat(importedFunc, inputs, evalError);
  double interpMs = msSince(t0);
  if (!reference)
    return checkFailed(
        "@" + name +
        ": the interpreter cannot evaluate the import: " + evalError.message);

  double upstreamMs = 0;
  FailureOr<std::vector<Buffer>> upstream =
      runUpstream(original, name, inputBufs, upstreamMs);
  if (failed(upstream))
    return Outcome::Fail;

  double maxAbs, maxRel;
  bool ok =
      compareOutputs(*upstream, *reference, options.tolScale, maxAbs, maxRel);
  llvm::outs() << "@" << name << ": upstream lowering vs import (" << mkOps
               << " mk ops, " << outlined << " outlined calls): max abs err "
               << llvm::format("%.3e", maxAbs) << ", max rel err "
               << llvm::format("%.3e", maxRel) << " (upstream run "
               << llvm::format("%.1f", upstreamMs) << " ms, interpreter "
               << llvm::format("%.1f", interpMs) << " ms)\n";
  llvm::outs() << (ok ? "PASS" : "FAIL") << " @" << name << "\n";
  llvm::outs().flush();
  return ok ? Outcome::Pass : Outcome::Fail;
}

} // namespace

int mirage::run::checkImport(ModuleOp module, StringRef funcName,
                             const ImportCheckOptions &options) {
  SmallVector<func::FuncOp> funcs;
  if (!funcName.empty()) {
    auto f = module.lookupSymbol<func::FuncOp>(funcName);
    if (!f || f.isExternal())
      return fail("no function @" + funcName + " with a body");
    funcs.push_back(f);
  } else {
    for (auto f : module.getOps<func::FuncOp>())
      if (!f.isExternal() && f.isPublic() && hasNonMkOp(f))
        funcs.push_back(f);
    if (funcs.empty())
      return fail("no public function outside mk to check");
  }
  unsigned counts[3] = {0, 0, 0};
  for (func::FuncOp f : funcs)
    ++counts[static_cast<int>(checkOne(module, f, options))];
  unsigned passed = counts[int(Outcome::Pass)],
           failures = counts[int(Outcome::Fail)],
           skipped = counts[int(Outcome::NotChecked)];
  llvm::outs() << passed << " passed, " << failures << " failed, " << skipped
               << " not checked\n";
  // A function named with --func must be checked; otherwise at least one.
  return failures || !passed || (!funcName.empty() && skipped) ? 1 : 0;
}
