//===- UpstreamRun.cpp - Upstream MLIR's CPU path for linalg/tosa ---------===//

#include "UpstreamRun.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/SetVector.h"
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
/// Results become out-parameters that the caller allocates, each filled by
/// a copy: `hoist-static-allocs` (writing into the out-parameter directly)
/// crashes upstream when one buffer is returned twice (`return %x, %x`, or a
/// value and a tosa.identity of it).
constexpr const char *kLinalgToLLVM =
    "one-shot-bufferize{allow-return-allocs-from-loops bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map},"
    "buffer-results-to-out-params{modify-public-functions},"
    "buffer-deallocation-pipeline,"
    "func.func(convert-linalg-to-loops),math-extend-to-supported-types,"
    "convert-math-to-llvm,convert-math-to-libm,lower-affine,convert-scf-to-cf,"
    "expand-strided-metadata,convert-to-llvm,reconcile-unrealized-casts";

/// Runs `pipeline` (passes on the module, no anchor) on `module`.
LogicalResult runPipeline(ModuleOp module, StringRef pipeline) {
  PassManager pm(module.getContext());
  if (failed(parsePassPipeline(pipeline, pm)))
    return failure();
  return pm.run(module);
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
      return op->emitError("cannot decompose this op for the upstream run");
    rewriter.replaceOp(op, *parts);
  }
  return success();
}

/// `a` with its float values and types narrower than `to` made `to`
/// (constants, zero points, clamp bounds, function types).
Attribute widenAttr(Attribute a, FloatType to) {
  if (auto f = dyn_cast<FloatAttr>(a);
      f && widenType(f.getType(), to) != f.getType())
    return FloatAttr::get(to, f.getValueAsDouble());
  if (auto d = dyn_cast<DenseFPElementsAttr>(a);
      d && widenType(d.getType(), to) != d.getType()) {
    auto type = cast<ShapedType>(widenType(d.getType(), to));
    SmallVector<double> values;
    for (const APFloat &v : d.getValues<APFloat>()) {
      APFloat wide = v;
      bool lost;
      wide.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
      values.push_back(wide.convertToDouble());
    }
    if (to.isF64())
      return DenseElementsAttr::get(type, ArrayRef<double>(values));
    SmallVector<float> narrow(values.begin(), values.end());
    return DenseElementsAttr::get(type, ArrayRef<float>(narrow));
  }
  if (auto t = dyn_cast<TypeAttr>(a))
    return TypeAttr::get(widenType(t.getValue(), to));
  if (auto arr = dyn_cast<ArrayAttr>(a))
    return ArrayAttr::get(a.getContext(),
                          llvm::map_to_vector(arr.getValue(), [&](Attribute e) {
                            return widenAttr(e, to);
                          }));
  return a;
}

} // namespace

void mirage::run::keepOnly(ModuleOp module, func::FuncOp root) {
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

Type mirage::run::widenType(Type t, FloatType to) {
  if (auto f = dyn_cast<FloatType>(t))
    return f.getWidth() < to.getWidth() ? to : t;
  if (auto shaped = dyn_cast<ShapedType>(t))
    if (auto f = dyn_cast<FloatType>(shaped.getElementType());
        f && f.getWidth() < to.getWidth())
      return shaped.clone(to);
  if (auto fn = dyn_cast<FunctionType>(t)) {
    auto widen = [&](Type e) { return widenType(e, to); };
    return FunctionType::get(t.getContext(),
                             llvm::map_to_vector(fn.getInputs(), widen),
                             llvm::map_to_vector(fn.getResults(), widen));
  }
  return t;
}

LogicalResult mirage::run::widenFloats(ModuleOp module, FloatType to) {
  module.walk([&](Operation *op) {
    for (Value r : op->getResults())
      r.setType(widenType(r.getType(), to));
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          arg.setType(widenType(arg.getType(), to));
    for (NamedAttribute attr : op->getAttrs())
      op->setAttr(attr.getName(), widenAttr(attr.getValue(), to));
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

UpstreamProgram::~UpstreamProgram() = default;

std::unique_ptr<UpstreamProgram>
UpstreamProgram::create(ModuleOp module, std::string &why) {
  // The first error of the lowering is the reason (a lit test reads it).
  std::string firstError;
  ScopedDiagnosticHandler collect(module.getContext(), [&](Diagnostic &d) {
    if (d.getSeverity() == DiagnosticSeverity::Error && firstError.empty()) {
      llvm::raw_string_ostream os(firstError);
      os << "'" << d.str() << "'";
      if (auto loc = dyn_cast<FileLineColLoc>(d.getLocation()))
        os << " at line " << loc.getLine();
    }
    return success();
  });
  if (failed(runPipeline(module, kToLinalg)) ||
      failed(decomposeAggregatedOps(module)) ||
      failed(runPipeline(module, kLinalgToLLVM))) {
    why = "the upstream lowering failed" +
          (firstError.empty() ? std::string() : ": " + firstError);
    return nullptr;
  }
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  ExecutionEngineOptions options;
  auto transformer = makeOptimizingTransformer(2, 0, nullptr);
  options.transformer = transformer;
  // memrefCopy, which copies between strided memrefs (tosa.concat).
  SmallVector<StringRef> libs = {MIRAGE_RUN_C_RUNNER_UTILS};
  options.sharedLibPaths = libs;
  auto engine = ExecutionEngine::create(module, options);
  if (!engine) {
    why = "JIT compilation of the upstream lowering failed: " +
          llvm::toString(engine.takeError());
    return nullptr;
  }
  std::unique_ptr<UpstreamProgram> program(new UpstreamProgram());
  program->engine = std::move(*engine);
  return program;
}

LogicalResult UpstreamProgram::invoke(StringRef name,
                                      ArrayRef<const Buffer *> inputs,
                                      MutableArrayRef<Buffer> outputs,
                                      std::string &why, double &ms) {
  // Inputs, then one destination per result, as expanded descriptors.
  std::vector<Buffer> args;
  for (const Buffer *b : inputs)
    args.push_back(*b);
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
  if (llvm::Error e = engine->invokePacked(name, packed)) {
    why = "invoking the upstream lowering of @" + name.str() +
          " failed: " + llvm::toString(std::move(e));
    return failure();
  }
  ms += msSince(t0);
  return success();
}
