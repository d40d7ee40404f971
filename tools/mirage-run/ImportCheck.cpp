//===- ImportCheck.cpp - Differential check of mirage-import --------------===//
//
// For each checked function:
//  - the reference: a copy that keeps the function and what it calls,
//    widened to f32 and run by upstream MLIR's CPU path (UpstreamRun.h);
//  - the import: a second copy goes through `mirage-import`, is widened the
//    same way and evaluated as a whole (ImportEval.h): mk code by the f64
//    interpreter, the ops left outside by the upstream path, in program
//    order.
// Both see the same seeded inputs (rounded to the argument types), and the
// comparison is mirage-run's (tolerance of the output element type; NaN
// and inf agree with themselves; an overflow of f32 that the import has
// too when evaluated in f32 is a note, not a mismatch).
//
//===----------------------------------------------------------------------===//

#include "ImportCheck.h"

#include "Buffers.h"
#include "ImportEval.h"
#include "UpstreamRun.h"

#include "Mirage/Dialect/Kernel/Analysis/DynamicSizes.h"
#include "Mirage/Dialect/Kernel/IR/Kernel.h"
#include "Mirage/Transforms/SpecializeSizes.h"
#include "Mirage/Verify/Interpreter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mirage;
using namespace mirage::run;

namespace {

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

/// The original function, run by upstream MLIR on `inputs` (buffers of
/// `computeIn`) in `computeIn` (f32: f16/bf16 widened; f64: every float):
/// one buffer of `computeIn` per result, of `resultTypes`' shapes (the
/// function's own, or at the sizes of a dynamic one). A dynamic function
/// takes the argument types of `at`.
FailureOr<std::vector<Buffer>> runUpstream(ModuleOp original, StringRef name,
                                           StringRef label,
                                           ArrayRef<Buffer> inputs,
                                           FunctionType at, FloatType computeIn,
                                           double &runMs) {
  OwningOpRef<ModuleOp> module = original.clone();
  auto func = module->lookupSymbol<func::FuncOp>(name);
  keepOnly(*module, func);
  // The facts about dynamic sizes are the import's; upstream's buffers
  // would not satisfy their verifier ([K18] counts tensor dims).
  module->walk([](func::FuncOp f) {
    for (unsigned i = 0; i < f.getNumArguments(); ++i)
      f.removeArgAttr(i, mk::MKDialect::kSizesAttrName);
  });
  // A dynamic function takes its arguments at the sizes checked, so that
  // the ops see static shapes where they can: sizes that do not fit the
  // program fail their verifiers or the lowering instead of running out of
  // bounds.
  if (func.getFunctionType() != at) {
    for (auto [arg, t] : llvm::zip_equal(func.getArguments(), at.getInputs()))
      arg.setType(t);
    // An argument returned as it is returns its static type.
    SmallVector<Type> results(func.getResultTypes());
    for (Block &block : func.getBody())
      if (auto ret = dyn_cast<func::ReturnOp>(block.getTerminator()))
        for (auto [i, v] : llvm::enumerate(ret.getOperands()))
          if (isa<BlockArgument>(v))
            results[i] = v.getType();
    func.setType(
        FunctionType::get(module->getContext(), at.getInputs(), results));
    std::string problem;
    ScopedDiagnosticHandler capture(module->getContext(), [&](Diagnostic &d) {
      if (problem.empty() && d.getSeverity() == DiagnosticSeverity::Error)
        problem = d.str();
      return success();
    });
    if (failed(mlir::verify(*module))) {
      fail(label + ": the sizes do not fit the original: " + problem);
      return failure();
    }
  }
  if (failed(widenFloats(*module, computeIn))) {
    fail(label + ": widening the original to " + typeName(computeIn) +
         " failed");
    return failure();
  }
  std::vector<Buffer> outputs;
  for (Type t : at.getResults())
    outputs.push_back(
        zeroBuffer(cast<RankedTensorType>(t).getShape(), computeIn));
  std::string why;
  std::unique_ptr<UpstreamProgram> program =
      UpstreamProgram::create(*module, why);
  if (!program) {
    fail(label + ": the original: " + why);
    return failure();
  }
  SmallVector<const Buffer *> inPtrs;
  for (const Buffer &b : inputs)
    inPtrs.push_back(&b);
  if (failed(program->invoke(name, inPtrs, outputs, why, runMs))) {
    fail(label + ": " + why);
    return failure();
  }
  return outputs;
}

enum class Outcome { Pass, Fail, NotChecked };

/// A function the check does not cover: its signature is not f16/bf16/f32
/// tensors, static or at given sizes, or its import cannot be evaluated in
/// steps (control flow, mk code nested in an op left outside) or
/// specialised at the sizes.
Outcome notChecked(const llvm::Twine &why) {
  llvm::outs() << "NOT CHECKED " << why << "\n";
  return Outcome::NotChecked;
}

Outcome checkFailed(const llvm::Twine &why) {
  fail(why);
  return Outcome::Fail;
}

/// Whether an argument or result of `func` is a tensor with dynamic dims.
bool hasDynamicSignature(func::FuncOp func) {
  return llvm::any_of(llvm::concat<const Type>(func.getArgumentTypes(),
                                               func.getResultTypes()),
                      [](Type t) {
                        auto rt = dyn_cast<RankedTensorType>(t);
                        return rt && !rt.hasStaticShape();
                      });
}

/// Checks `func` of `original`; with `sizes`, a function with dynamic dims
/// at those sizes (`at` names them in the report).
Outcome checkOne(ModuleOp original, func::FuncOp func,
                 const ImportCheckOptions &options,
                 const llvm::StringMap<int64_t> *sizes, StringRef at) {
  std::string name = func.getSymName().str();
  std::string label = "@" + name + at.str();
  unsigned numArgs = func.getNumArguments();
  bool dynamic = hasDynamicSignature(func);
  for (auto [i, t] : llvm::enumerate(llvm::concat<const Type>(
           func.getArgumentTypes(), func.getResultTypes()))) {
    auto rt = dyn_cast<RankedTensorType>(t);
    if (!rt)
      return notChecked(label + ": type " + typeName(t) + " is not a tensor");
    Type e = rt.getElementType();
    // Arguments may also be integer or boolean masks (random 0 or 1).
    bool mask = i < numArgs && e.isSignlessInteger() &&
                e.getIntOrFloatBitWidth() <= 64;
    if (!e.isF16() && !e.isBF16() && !e.isF32() && !mask)
      return notChecked(label + ": element type " + typeName(e) +
                        " is not supported (f16, bf16, f32; integer "
                        "arguments)");
  }
  if (dynamic && !sizes)
    return notChecked(label + ": it has dynamic dims: give their sizes with "
                              "--sizes name=v1:v2,... (docs/dynamic.md)");

  // The imported program: its mk code through the interpreter, the ops left
  // outside through upstream's lowering. A dynamic import is specialised at
  // the sizes, which gives both sides their static shapes.
  OwningOpRef<ModuleOp> imported = original.clone();
  auto importedFunc = imported->lookupSymbol<func::FuncOp>(name);
  keepOnly(*imported, importedFunc);
  {
    // The import's remarks (ops left outside) are its tests' concern.
    ScopedDiagnosticHandler quiet(imported->getContext(), [](Diagnostic &d) {
      return success(d.getSeverity() == DiagnosticSeverity::Remark);
    });
    if (failed(runPipeline(*imported, "mirage-import")))
      return checkFailed(label + ": mirage-import failed");
  }
  if (dynamic) {
    std::string problem;
    ScopedDiagnosticHandler capture(imported->getContext(), [&](Diagnostic &d) {
      if (problem.empty() && d.getSeverity() == DiagnosticSeverity::Error)
        problem = d.str();
      return success();
    });
    // The values of this import's sizes only: a module's functions may
    // have different ones.
    llvm::StringMap<int64_t> own;
    imported->walk([&](func::FuncOp f) {
      if (FailureOr<mk::DynamicSizes> found =
              mk::DynamicSizes::analyze(cast<FunctionOpInterface>(*f));
          succeeded(found))
        for (const mk::DynamicSize &size : found->getSizes())
          if (auto it = sizes->find(size.name); it != sizes->end())
            own[size.name] = it->second;
    });
    problem.clear();
    if (failed(specializeSizes(*imported, own)))
      return notChecked(label +
                        ": the import cannot be specialised at "
                        "these sizes: " +
                        problem);
    // Sizes the program's static dims rule out (a dynamic operand added to
    // a static one of another extent) would make the upstream code read and
    // write out of bounds: the specialised ops must verify.
    if (failed(mlir::verify(*imported)))
      return checkFailed(label +
                         ": the sizes do not fit the program: " + problem);
  }
  FunctionType shapes = importedFunc.getFunctionType();

  MLIRContext *ctx = func.getContext();
  FloatType computeIn = options.upstreamInF64
                            ? FloatType(Float64Type::get(ctx))
                            : FloatType(Float32Type::get(ctx));
  // Seeded inputs rounded to the argument types (at the sizes).
  std::vector<verify::FloatTensor> inputs =
      verify::randomFloatInputs(importedFunc, options.seed);
  SmallVector<bool> isFloat;
  for (auto [i, t] : llvm::enumerate(func.getArgumentTypes())) {
    Type elem = cast<RankedTensorType>(t).getElementType();
    isFloat.push_back(isa<FloatType>(elem));
    if (isa<IntegerType>(elem)) {
      // A mask: 0 or 1, about half each.
      for (double &v : inputs[i].data)
        v = v < 0 ? 0.0 : 1.0;
      continue;
    }
    for (double &v : inputs[i].data)
      v = verify::roundToElementType(static_cast<float>(v * options.inputScale),
                                     elem);
  }
  // The inputs as buffers of `floatType` (masks keep their integer type).
  auto inputBuffers = [&](FloatType floatType) {
    std::vector<Buffer> bufs;
    for (auto [i, t] : llvm::enumerate(func.getArgumentTypes())) {
      Type elem = cast<RankedTensorType>(t).getElementType();
      bufs.push_back(
          makeBuffer(inputs[i], isa<IntegerType>(elem) ? elem : floatType));
    }
    return bufs;
  };
  std::vector<Buffer> inputBufs = inputBuffers(computeIn);

  // The reference: the original, run by upstream MLIR.
  double upstreamMs = 0;
  FailureOr<std::vector<Buffer>> upstream = runUpstream(
      original, name, label, inputBufs, shapes, computeIn, upstreamMs);
  if (failed(upstream))
    return Outcome::Fail;

  // mk holds f16/bf16/f32: the import is widened to f32 (the interpreter
  // computes in f64 anyway); the ops left outside compute as the reference.
  if (failed(widenFloats(*imported, Float32Type::get(ctx))))
    return checkFailed(label + ": widening the import to f32 failed");
  std::string why;
  bool lowering = false;
  std::unique_ptr<ImportedProgram> program = ImportedProgram::create(
      std::move(imported), importedFunc, why, lowering,
      computeIn.isF64() ? computeIn : FloatType());
  if (!program)
    return lowering ? checkFailed(label + ": " + why)
                    : notChecked(label + ": " + why);
  std::optional<std::vector<verify::FloatTensor>> reference =
      program->evaluate(inputs, /*f32=*/false, options.fault, why);
  if (!reference)
    return checkFailed(label + ": " + why);

  // The import evaluated in f32 as well tells an overflow of f32 (the f32
  // reference is NaN or inf where the f64 import is not) or an element that
  // f32 rounding alone moves out of tolerance from a mismatch.
  std::optional<std::vector<verify::FloatTensor>> inF32 =
      program->evaluate(inputs, /*f32=*/true, options.fault, why);
  if (!inF32)
    return checkFailed(label + ": evaluating the import in f32: " + why);

  // The import on inputs moved far below the tolerance tells the elements
  // that are ill-conditioned at these inputs (a cancellation that rounding
  // decides), where the other order of operations upstream may land
  // anywhere; evaluated only where an element is out of tolerance.
  std::vector<std::optional<std::vector<verify::FloatTensor>>> perturbed(
      kPerturbations);
  std::vector<bool> tried(kPerturbations, false);
  auto perturbedReference =
      [&](unsigned k) -> const std::vector<verify::FloatTensor> * {
    if (!tried[k]) {
      tried[k] = true;
      std::string ignored;
      perturbed[k] = program->evaluate(
          perturbInputs(inputs, isFloat, options.seed + k), /*f32=*/false,
          options.fault, ignored);
    }
    return perturbed[k] ? &*perturbed[k] : nullptr;
  };

  // Upstream run again in f64 (when it ran in f32) tells an intermediate
  // that overflows in f32 only in the original's order of operations.
  std::optional<std::vector<Buffer>> upstreamInF64;
  bool triedF64 = computeIn.isF64();
  auto outputsInF64 = [&]() -> const std::vector<Buffer> * {
    if (!triedF64) {
      triedF64 = true;
      FloatType f64 = Float64Type::get(ctx);
      double ms = 0;
      FailureOr<std::vector<Buffer>> wide = runUpstream(
          original, name, label, inputBuffers(f64), shapes, f64, ms);
      if (succeeded(wide))
        upstreamInF64 = std::move(*wide);
    }
    return upstreamInF64 ? &*upstreamInF64 : nullptr;
  };

  double maxAbs, maxRel;
  ComparisonAids aids;
  aids.f32Reference = *inF32;
  // In f64, rounding errors are the f32 ones times 2^-53 / 2^-24.
  aids.roundingScale = computeIn.isF64() ? 0x1p-29 : 1.0;
  aids.perturbedReference = perturbedReference;
  aids.outputsInF64 = outputsInF64;
  bool ok = compareOutputs(*upstream, *reference, options.tolScale, maxAbs,
                           maxRel, aids);
  llvm::outs() << label << ": upstream lowering vs import ("
               << program->numMkOps << " mk ops, " << program->numCalls
               << " outlined calls";
  if (program->numSegments)
    llvm::outs() << "; " << program->numOutsideOps
                 << " ops left outside, run upstream in "
                 << program->numSegments << " segments";
  llvm::outs() << "): max abs err " << llvm::format("%.3e", maxAbs)
               << ", max rel err " << llvm::format("%.3e", maxRel)
               << " (upstream run " << llvm::format("%.1f", upstreamMs)
               << " ms, import " << llvm::format("%.1f", program->interpreterMs)
               << " ms in the interpreter";
  if (program->numSegments)
    llvm::outs() << ", " << llvm::format("%.1f", program->upstreamMs)
                 << " ms upstream";
  llvm::outs() << ")\n";
  llvm::outs() << (ok ? "PASS " : "FAIL ") << label << "\n";
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
  for (func::FuncOp f : funcs) {
    if (!hasDynamicSignature(f) || !options.sizes) {
      ++counts[static_cast<int>(checkOne(module, f, options, nullptr, ""))];
      continue;
    }
    // A dynamic function at every combination of the sizes.
    for (unsigned c = 0; c < options.sizes->size(); ++c) {
      std::string label;
      llvm::StringMap<int64_t> values = options.sizes->at(c, &label);
      ++counts[static_cast<int>(
          checkOne(module, f, options, &values, " at " + label))];
    }
  }
  unsigned passed = counts[int(Outcome::Pass)],
           failures = counts[int(Outcome::Fail)],
           skipped = counts[int(Outcome::NotChecked)];
  llvm::outs() << passed << " passed, " << failures << " failed, " << skipped
               << " not checked\n";
  // A function named with --func must be checked; otherwise at least one.
  return failures || !passed || (!funcName.empty() && skipped) ? 1 : 0;
}
