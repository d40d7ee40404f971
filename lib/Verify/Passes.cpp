//===- Passes.cpp - Equivalence checking and evaluation passes ------------===//
//
// --mirage-check-equivalence reports the verdict of checkEquivalence on
// every function that names a reference; --mirage-evaluate prints the outputs
// of functions on seeded inputs.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Verify/Passes.h"

#include "Mirage/Dialect/Kernel/Analysis/DynamicSizes.h"
#include "Mirage/Dialect/Kernel/IR/Kernel.h"
#include "Mirage/Transforms/SpecializeSizes.h"
#include "Mirage/Verify/Equivalence.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

namespace mirage::verify {
#define GEN_PASS_DEF_MIRAGECHECKEQUIVALENCE
#define GEN_PASS_DEF_MIRAGEEVALUATE
#include "Mirage/Verify/Passes.h.inc"
} // namespace mirage::verify

using namespace mlir;
using namespace mirage;
using namespace mirage::verify;

/// Renders a double for diagnostics and printed outputs.
static std::string fmt(double v) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::format("%.6g", v);
  return s;
}

/// Attaches "evaluation stopped here" at `op` when it is an op inside a
/// function (failures of a whole function are described by the message).
static void noteFailingOp(InFlightDiagnostic &diag, Operation *op,
                          func::FuncOp func) {
  if (op && op != func.getOperation() && !isa<func::FuncOp>(op))
    diag.attachNote(op->getLoc()) << "evaluation stopped here";
}

namespace {

struct CheckEquivalencePass
    : mirage::verify::impl::MirageCheckEquivalenceBase<CheckEquivalencePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!(floatTolerance >= 0) || !(numericsFactor >= 0) ||
        !(numericsFloor >= 0)) {
      module.emitError() << "--mirage-check-equivalence: float-tolerance, "
                            "numerics-factor and numerics-floor must be "
                            "non-negative";
      return signalPassFailure();
    }
    bool failedAny = false;
    sizesUsed.clear();
    bool checkedAtSizes = false;
    module.walk([&](func::FuncOp func) {
      Attribute attr = func->getAttr(mk::MKDialect::kReferenceAttrName);
      if (!attr)
        return;
      auto sym = dyn_cast<FlatSymbolRefAttr>(attr);
      if (!sym) {
        func.emitError() << "'" << mk::MKDialect::kReferenceAttrName
                         << "' must be a flat symbol reference";
        ++numInvalid;
        failedAny = true;
        return;
      }
      auto ref = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(func, sym);
      if (!ref) {
        func.emitError() << "reference function " << sym << " does not exist";
        ++numInvalid;
        failedAny = true;
        return;
      }
      if (mk::hasDynamicDims(cast<FunctionOpInterface>(func.getOperation())) ||
          mk::hasDynamicDims(cast<FunctionOpInterface>(ref.getOperation()))) {
        failedAny |= failed(checkAtSizes(ref, func));
        checkedAtSizes = true;
      } else {
        failedAny |= failed(checkOne(ref, func));
      }
    });
    // A module's functions may have different sizes; a name that none of
    // them has is a mistake.
    if (checkedAtSizes && !failedAny)
      for (const std::string &entry : sizes) {
        std::string name = StringRef(entry).split('=').first.str();
        if (!sizesUsed.contains(name)) {
          module.emitError() << "--mirage-check-equivalence: no checked "
                                "function has a dynamic size named '"
                             << name << "'";
          ++numInvalid;
          failedAny = true;
        }
      }
    if (failedAny)
      signalPassFailure();
  }

  /// The names of the sizes the checks at sizes used.
  llvm::StringSet<> sizesUsed;

  /// Checks `func` against `ref` (one of them with dynamic dims) at every
  /// combination of the values of `sizes`, each pair specialised in a
  /// scratch module.
  LogicalResult checkAtSizes(func::FuncOp ref, func::FuncOp func) {
    constexpr unsigned kMaxCombinations = 64;
    auto invalid = [&](const Twine &message) {
      func.emitError() << message;
      ++numInvalid;
      return failure();
    };
    if (sizes.empty())
      return invalid("has dynamic dims: give the sizes to check at with "
                     "sizes=name=v1:v2:... (docs/dynamic.md)");
    FailureOr<SizeSweep> sweep = parseSizeSweep(
        func.getLoc(), SmallVector<std::string>(sizes.begin(), sizes.end()),
        kMaxCombinations);
    if (failed(sweep)) {
      ++numInvalid;
      return failure();
    }
    // The sizes of this pair only: the values given for other functions'
    // sizes do not concern it.
    llvm::StringSet<> own;
    for (func::FuncOp f : {ref, func}) {
      ScopedDiagnosticHandler quiet(f.getContext(),
                                    [](Diagnostic &) { return success(); });
      if (FailureOr<mk::DynamicSizes> s =
              mk::DynamicSizes::analyze(cast<FunctionOpInterface>(*f));
          succeeded(s))
        for (const mk::DynamicSize &size : s->getSizes())
          own.insert(size.name);
    }
    llvm::erase_if(sweep->axes,
                   [&](const auto &axis) { return !own.contains(axis.first); });
    for (const auto &axis : sweep->axes)
      sizesUsed.insert(axis.first);
    LogicalResult all = success();
    for (unsigned c = 0; c < sweep->size(); ++c) {
      std::string label;
      llvm::StringMap<int64_t> values = sweep->at(c, &label);
      std::string at = " at " + label;
      // [K20] A function that dispatches on a size is checked as the
      // program it runs at that size.
      func::FuncOp source = func;
      FailureOr<std::optional<mk::SizeDispatch>> dispatch =
          mk::SizeDispatch::read(func);
      if (succeeded(dispatch) && *dispatch && values.count((*dispatch)->size)) {
        FlatSymbolRefAttr program =
            (*dispatch)->programFor(values.lookup((*dispatch)->size));
        source =
            SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(func, program);
        at += " (program " + program.getValue().str() + ")";
      }
      OwningOpRef<ModuleOp> scratch = ModuleOp::create(func.getLoc());
      OpBuilder b = OpBuilder::atBlockEnd(scratch->getBody());
      auto refAt = cast<func::FuncOp>(b.clone(*ref));
      auto funcAt =
          ref == source ? refAt : cast<func::FuncOp>(b.clone(*source));
      funcAt->removeAttr(mk::MKDialect::kSizeDispatchAttrName);
      SmallVector<FunctionOpInterface> pair = {refAt};
      if (funcAt != refAt)
        pair.push_back(funcAt);
      if (failed(specializeSizes(pair, values, func.getLoc()))) {
        ++numInvalid;
        return failure();
      }
      if (failed(checkOne(refAt, funcAt, at)))
        all = failure();
    }
    return all;
  }

  LogicalResult checkOne(func::FuncOp ref, func::FuncOp func,
                         StringRef atSizes = "") {
    EquivalenceOptions options;
    options.numTests = numTests;
    options.seed = seed;
    options.floatCheck = floatCheck;
    options.floatOptions.tolerance = floatTolerance;
    options.numericsCheck = numerics;
    options.numericsOptions.factor = numericsFactor;
    options.numericsOptions.floor = numericsFloor;
    EquivalenceResult result = checkEquivalence(ref, func, options);
    // Repeating the field tests with further seeds must give the same
    // verdict; otherwise the outcome depends on the seed and cannot be
    // trusted.
    unsigned totalTests = result.testsRun;
    for (unsigned r = 1; r < repeat; ++r) {
      EquivalenceOptions more = options;
      more.seed = seed + r;
      more.floatCheck = false;
      more.numericsCheck = false;
      EquivalenceResult again = checkEquivalence(ref, func, more);
      if (again.fieldVerdict != result.fieldVerdict) {
        func.emitError() << "flaky verdict against @" << ref.getSymName()
                         << ": seed " << seed << " and seed " << seed + r
                         << " disagree";
        ++numInvalid;
        return failure();
      }
      totalTests += again.testsRun;
    }
    // The repeated runs are independent tests too: the bound counts them all
    // (the per-test bound is the same for every seed).
    if (result.fieldVerdict == Verdict::Equivalent && repeat > 1 &&
        result.perTestBound > 0) {
      result.log10Bound = totalTests * std::log10(result.perTestBound);
      result.testsRun = totalTests;
    }

    std::string refName = (ref.getSymName() + atSizes).str();
    std::string checks = "; checks: " + describeChecks(result, options);
    switch (result.verdict) {
    case Verdict::Equivalent: {
      InFlightDiagnostic diag = mlir::emitRemark(func.getLoc());
      diag << "equivalent to @" << refName << " (" << result.testsRun
           << (result.testsRun == 1 ? " test" : " tests")
           << ", P(false equivalent) <= "
           << formatProbability(result.log10Bound) << ")" << checks;
      ++numEquivalent;
      return success();
    }
    case Verdict::NotEquivalent: {
      InFlightDiagnostic diag = mlir::emitError(func.getLoc());
      diag << "not equivalent to @" << refName << ": ";
      if (result.counterexample) {
        const Counterexample &cex = *result.counterexample;
        diag << "output #" << cex.outputIndex << " element "
             << formatIndex(cex.element) << ": reference "
             << cex.referenceValue.str() << " vs candidate "
             << cex.candidateValue.str() << " (field test " << cex.testIndex
             << ")";
        if (cex.referenceFloat && cex.candidateFloat)
          diag << "; in float: reference " << fmt(*cex.referenceFloat)
               << " vs candidate " << fmt(*cex.candidateFloat);
      } else {
        const FloatCounterexample &cex = *result.floatResult->counterexample;
        diag << "in f64 on " << stringifyDistribution(cex.distribution)
             << " inputs (seed " << cex.seed << "): output #" << cex.outputIndex
             << " element " << formatIndex(cex.element) << ": reference "
             << fmt(cex.referenceValue) << " vs candidate "
             << fmt(cex.candidateValue);
        if (result.fieldVerdict == Verdict::Equivalent)
          diag << " (the finite field cannot see this difference)";
      }
      diag << checks;
      ++numNotEquivalent;
      return failure();
    }
    case Verdict::Inaccurate: {
      InFlightDiagnostic diag = mlir::emitError(func.getLoc());
      diag << "numerically inaccurate against @" << refName
           << " (equivalent over the reals): " << result.reason << checks;
      ++numInaccurate;
      return failure();
    }
    case Verdict::Unknown: {
      InFlightDiagnostic diag = mlir::emitWarning(func.getLoc());
      diag << "equivalence to @" << refName << " unknown: " << result.reason;
      if (result.fieldVerdict == Verdict::Unknown)
        diag << "; fall back to float tests";
      diag << checks;
      noteFailingOp(diag, result.failingOp, func);
      ++numUnknown;
      return success();
    }
    case Verdict::Invalid: {
      InFlightDiagnostic diag = mlir::emitError(func.getLoc());
      diag << "cannot check equivalence to @" << refName << ": "
           << result.reason;
      noteFailingOp(diag, result.failingOp, func);
      ++numInvalid;
      return failure();
    }
    }
    return success();
  }
};

struct EvaluatePass : mirage::verify::impl::MirageEvaluateBase<EvaluatePass> {
  using Base::Base;

  void runOnOperation() override {
    if (domain != "float" && domain != "field") {
      getOperation().emitError()
          << "--mirage-evaluate: domain must be 'float' or 'field', got '"
          << domain << "'";
      return signalPassFailure();
    }
    if (inputs != "random" && inputs != "iota" && inputs != "ones") {
      getOperation().emitError()
          << "--mirage-evaluate: inputs must be 'random', 'iota' or 'ones', "
             "got '"
          << inputs << "'";
      return signalPassFailure();
    }
    bool failedAny = false;
    getOperation().walk([&](func::FuncOp func) {
      if (func.isExternal() ||
          (!function.empty() && func.getSymName() != function))
        return;
      failedAny |= failed(evaluate(func));
    });
    if (failedAny)
      signalPassFailure();
  }

  LogicalResult evaluate(func::FuncOp func) {
    if (std::optional<std::string> bad = checkSignature(func))
      return func.emitError()
             << "cannot evaluate @" << func.getSymName() << ": " << *bad;
    EvalError err;
    llvm::raw_ostream &os = llvm::outs();
    auto header = [&](size_t i, Type t) {
      os << "@" << func.getSymName() << " output #" << i << " " << t << ":";
    };
    if (domain == "float") {
      std::vector<FloatTensor> in = randomFloatInputs(func, seed);
      if (inputs != "random")
        for (FloatTensor &t : in)
          for (size_t i = 0; i < t.data.size(); ++i)
            t.data[i] = inputs == "iota" ? static_cast<double>(i + 1) : 1.0;
      auto out = evaluateFloat(func, in, err);
      if (!out)
        return reportError(func, err);
      for (auto [i, t] : llvm::enumerate(*out)) {
        double sum = 0, lo = HUGE_VAL, hi = -HUGE_VAL;
        for (double v : t.data) {
          sum += v;
          lo = std::min(lo, v);
          hi = std::max(hi, v);
        }
        header(i, func.getFunctionType().getResult(i));
        os << " sum = " << fmt(sum) << " mean = " << fmt(sum / t.data.size())
           << " min = " << fmt(lo) << " max = " << fmt(hi) << "\n";
        if (printValues) {
          os << " ";
          for (double v : t.data)
            os << " " << fmt(v);
          os << "\n";
        }
      }
    } else {
      FieldTest test(seed);
      std::vector<FieldTensor> in = randomFieldInputs(func, test, seed);
      if (inputs != "random")
        for (FieldTensor &t : in)
          for (size_t i = 0; i < t.data.size(); ++i)
            t.data[i] = fieldFromInt(inputs == "iota" ? i + 1 : 1);
      auto out = evaluateField(func, in, test, err);
      if (!out)
        return reportError(func, err);
      for (auto [i, t] : llvm::enumerate(*out)) {
        FieldValue sum{0, 0};
        for (FieldValue v : t.data)
          sum = fieldAdd(sum, v);
        header(i, func.getFunctionType().getResult(i));
        os << " sum = " << sum.str() << "\n";
        if (printValues) {
          os << " ";
          for (FieldValue v : t.data)
            os << " " << v.str();
          os << "\n";
        }
      }
    }
    os.flush();
    ++numEvaluated;
    return success();
  }

  LogicalResult reportError(func::FuncOp func, const EvalError &err) {
    InFlightDiagnostic diag = mlir::emitError(func.getLoc());
    diag << "cannot evaluate @" << func.getSymName() << ": " << err.message;
    noteFailingOp(diag, err.op, func);
    return failure();
  }
};

} // namespace
