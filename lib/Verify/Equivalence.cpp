//===- Equivalence.cpp - Equivalence of two uGraph programs ---------------===//
//
// Runs independent finite-field tests of a reference and a candidate on the
// same random inputs and compares every output element; derives the bound on
// a false "equivalent" from the degree bounds the evaluator tracks. Then the
// f64 check (FloatCheck.cpp) and, on request, the numerics check
// (Numerics.cpp) complete the verdict.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Verify/Equivalence.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;
using namespace mirage::verify;

llvm::StringRef mirage::verify::stringifyVerdict(Verdict v) {
  switch (v) {
  case Verdict::Equivalent:
    return "equivalent";
  case Verdict::NotEquivalent:
    return "not equivalent";
  case Verdict::Inaccurate:
    return "inaccurate";
  case Verdict::Unknown:
    return "unknown";
  case Verdict::Invalid:
    return "invalid";
  }
  return "unknown";
}

std::string mirage::verify::formatProbability(double log10p) {
  if (log10p >= 0)
    return "1";
  if (std::isinf(log10p))
    return "0";
  double e = std::floor(log10p);
  double m = std::pow(10.0, log10p - e);
  if (m >= 9.95) { // 9.96e-5 would print as 10.0e-5
    m /= 10;
    e += 1;
  }
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::format("%.1fe%d", m, static_cast<int>(e));
  return s;
}

/// Renders `t` for a diagnostic.
static std::string typeStr(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

/// Checks that both functions take and return the same shapes.
static std::optional<std::string> compareSignatures(func::FuncOp ref,
                                                    func::FuncOp cand) {
  FunctionType a = ref.getFunctionType(), b = cand.getFunctionType();
  auto shapeOf = [](Type t) { return cast<RankedTensorType>(t).getShape(); };
  auto describe = [&](StringRef what, size_t i, Type x, Type y) {
    return (Twine(what) + " #" + Twine(i) + " is " + typeStr(x) + " in @" +
            ref.getSymName() + " but " + typeStr(y) + " in @" +
            cand.getSymName())
        .str();
  };
  if (a.getNumInputs() != b.getNumInputs())
    return (Twine("@") + ref.getSymName() + " takes " +
            Twine(a.getNumInputs()) + " arguments but @" + cand.getSymName() +
            " takes " + Twine(b.getNumInputs()))
        .str();
  if (a.getNumResults() != b.getNumResults())
    return (Twine("@") + ref.getSymName() + " returns " +
            Twine(a.getNumResults()) + " values but @" + cand.getSymName() +
            " returns " + Twine(b.getNumResults()))
        .str();
  for (size_t i = 0; i < a.getNumInputs(); ++i)
    if (shapeOf(a.getInput(i)) != shapeOf(b.getInput(i)))
      return describe("argument", i, a.getInput(i), b.getInput(i));
  for (size_t i = 0; i < a.getNumResults(); ++i)
    if (shapeOf(a.getResult(i)) != shapeOf(b.getResult(i)))
      return describe("result", i, a.getResult(i), b.getResult(i));
  return std::nullopt;
}

/// Outputs differ at a point when the value components differ, or both
/// exponent components are defined and differ.
static bool differs(FieldValue a, FieldValue b) {
  return a.p != b.p || (a.hasQ() && b.hasQ() && a.q != b.q);
}

/// The seed of test `t`.
static uint64_t testSeed(uint64_t seed, unsigned t) {
  return mix64(mix64(seed) + 0x632BE59BD9B4E019ULL * (t + 1));
}

/// The finite-field tests: fills the field verdict, the bound and the
/// counterexample of `result`.
static void runFieldTests(func::FuncOp reference, func::FuncOp candidate,
                          const EquivalenceOptions &options,
                          EquivalenceResult &result) {
  if (options.numTests == 0) {
    result.fieldVerdict = Verdict::Unknown;
    result.reason = "no finite-field tests were requested (tests = 0)";
    return;
  }

  double maxDegree = 0, maxExpDegree = 0;
  bool usesExp = false, usesSqrt = false, usesOpaque = false;
  for (unsigned t = 0; t < options.numTests; ++t) {
    uint64_t seed = testSeed(options.seed, t);
    FieldTest test(seed);
    std::vector<FieldTensor> inputs =
        randomFieldInputs(reference, test, seed, options.deadline);
    EvalError refErr, candErr;
    FieldEvalInfo refInfo, candInfo;
    auto stopped = [&](const EvalError &err, func::FuncOp f) {
      bool decidable = err.kind == EvalErrorKind::OutsideFragment ||
                       err.kind == EvalErrorKind::DivisionByZero ||
                       err.kind == EvalErrorKind::Cancelled;
      result.fieldVerdict = decidable ? Verdict::Unknown : Verdict::Invalid;
      result.reason = ("in @" + f.getSymName() + ": " + err.message).str();
      result.failingOp = err.op;
      result.testsRun = t;
    };
    if (pastDeadline(options.deadline)) {
      refErr = {EvalErrorKind::Cancelled,
                "the time budget ran out while drawing the inputs", nullptr};
      return stopped(refErr, reference);
    }
    std::optional<std::vector<FieldTensor>> refOut, candOut;
    runBoth(
        [&] {
          refOut = evaluateField(reference, inputs, test, refErr, &refInfo,
                                 options.deadline);
        },
        [&] {
          candOut = evaluateField(candidate, inputs, test, candErr, &candInfo,
                                  options.deadline);
        },
        options.parallel);
    if (!refOut)
      return stopped(refErr, reference);
    if (!candOut)
      return stopped(candErr, candidate);
    for (size_t o = 0; o < refOut->size(); ++o) {
      const FieldTensor &x = (*refOut)[o], &y = (*candOut)[o];
      for (int64_t i = 0, n = x.numElements(); i < n; ++i) {
        if (!differs(x.data[i], y.data[i]))
          continue;
        result.fieldVerdict = Verdict::NotEquivalent;
        result.testsRun = t + 1;
        Counterexample cex;
        cex.testIndex = t;
        cex.outputIndex = o;
        cex.element = delinearize(i, x.shape);
        cex.referenceValue = x.data[i];
        cex.candidateValue = y.data[i];
        // The same element in a float run: one more evaluation of each.
        std::vector<FloatTensor> fin = randomFloatInputs(reference, seed);
        EvalError e1, e2;
        auto fr = evaluateFloat(reference, fin, e1);
        auto fc = evaluateFloat(candidate, fin, e2);
        if (fr && fc) {
          cex.referenceFloat = (*fr)[o].data[i];
          cex.candidateFloat = (*fc)[o].data[i];
        }
        result.counterexample = std::move(cex);
        return;
      }
    }
    for (size_t o = 0;
         o < refInfo.outputDegrees.size() && o < candInfo.outputDegrees.size();
         ++o) {
      Degree a = refInfo.outputDegrees[o], b = candInfo.outputDegrees[o];
      // a.num/a.den - b.num/b.den has a numerator of this degree.
      maxDegree = std::max(maxDegree, std::max(a.num + b.den, b.num + a.den));
    }
    maxExpDegree = std::max(maxExpDegree,
                            refInfo.maxExpArgDegree + candInfo.maxExpArgDegree);
    usesExp |= refInfo.usesExp || candInfo.usesExp;
    usesSqrt |= refInfo.usesSqrt || candInfo.usesSqrt;
    usesOpaque |= refInfo.usesOpaque || candInfo.usesOpaque;
    result.testsRun = t + 1;
  }

  result.fieldVerdict = Verdict::Equivalent;
  result.perTestBound = std::min(
      1.0,
      maxDegree / static_cast<double>(kFieldP) +
          (usesExp ? (maxExpDegree + 1) / static_cast<double>(kFieldQ) : 0.0));
  result.falseEquivalentBound =
      std::pow(result.perTestBound, static_cast<double>(result.testsRun));
  result.log10Bound = result.perTestBound > 0
                          ? result.testsRun * std::log10(result.perTestBound)
                          : -HUGE_VAL;
  result.boundIsRigorous = !usesExp && !usesSqrt && !usesOpaque;
  result.structureOnly = usesOpaque;
}

EquivalenceResult
mirage::verify::checkEquivalence(func::FuncOp reference, func::FuncOp candidate,
                                 const EquivalenceOptions &options) {
  EquivalenceResult result;
  auto invalid = [&](const Twine &reason, Operation *op) {
    result.verdict = result.fieldVerdict = Verdict::Invalid;
    result.reason = reason.str();
    result.failingOp = op;
    return result;
  };
  for (func::FuncOp f : {reference, candidate}) {
    if (f.isExternal())
      return invalid("@" + f.getSymName() + " has no body", f);
    if (std::optional<std::string> bad = checkSignature(f))
      return invalid("@" + f.getSymName() + ": " + *bad, f);
  }
  if (std::optional<std::string> bad = compareSignatures(reference, candidate))
    return invalid("signatures differ: " + *bad, candidate);

  runFieldTests(reference, candidate, options, result);
  result.verdict = result.fieldVerdict;
  if (result.fieldVerdict == Verdict::Invalid ||
      result.fieldVerdict == Verdict::NotEquivalent)
    return result;

  // The f64 check is part of the verdict: it decides against an equivalent
  // or unknown field verdict when it finds a difference, and an equivalent
  // field verdict needs at least one decisive f64 run.
  if (options.floatCheck) {
    FloatCheckOptions fo = options.floatOptions;
    fo.parallel = options.parallel;
    fo.deadline = options.deadline;
    result.floatResult = checkFloat(reference, candidate, fo, options.seed);
    const FloatCheckResult &fr = *result.floatResult;
    if (!fr.decisive.empty())
      result.floatMaxRelDiff = fr.maxRelDiff;
    switch (fr.verdict) {
    case Verdict::NotEquivalent:
      result.verdict = Verdict::NotEquivalent;
      result.reason = "the f64 check found a difference";
      return result;
    case Verdict::Invalid:
      result.verdict = Verdict::Invalid;
      result.reason = fr.reason;
      return result;
    case Verdict::Unknown:
      if (result.verdict == Verdict::Equivalent) {
        result.verdict = Verdict::Unknown;
        result.reason = "the finite-field tests agree but " + fr.reason;
      }
      break;
    default:
      break;
    }
  }
  if (result.verdict != Verdict::Equivalent || !options.numericsCheck)
    return result;

  NumericsOptions no = options.numericsOptions;
  no.parallel = options.parallel;
  no.deadline = options.deadline;
  result.numericsResult = checkNumerics(reference, candidate, no, options.seed);
  const NumericsResult &nr = *result.numericsResult;
  if (nr.verdict == Verdict::Inaccurate) {
    result.verdict = Verdict::Inaccurate;
    result.reason = describeNumerics(nr);
  } else if (nr.verdict == Verdict::Invalid) {
    result.verdict = Verdict::Invalid;
    result.reason = nr.reason;
  }
  return result;
}

/// Renders a double compactly for the check descriptions.
static std::string fmtShort(double v) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::format("%.3g", v);
  return s;
}

std::string mirage::verify::describeChecks(const EquivalenceResult &result,
                                           const EquivalenceOptions &options) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "field: ";
  switch (result.fieldVerdict) {
  case Verdict::Equivalent:
    os << result.testsRun << " tests agree, P(false equivalent) <= "
       << formatProbability(result.log10Bound);
    if (!result.boundIsRigorous)
      os << ", heuristic bound (exp, sqrt or max-like ops)";
    if (result.structureOnly)
      os << ", max/relu/clamp/pow/gelu_erf compared by structure only";
    break;
  case Verdict::NotEquivalent:
    os << "differ in test " << result.counterexample->testIndex;
    break;
  default:
    os << stringifyVerdict(result.fieldVerdict);
    if (result.fieldVerdict == Verdict::Unknown && options.numTests == 0)
      os << " (tests = 0)";
    break;
  }
  os << "; float: ";
  if (!result.floatResult) {
    os << "not run";
  } else {
    const FloatCheckResult &fr = *result.floatResult;
    os << "f64 on ";
    for (auto [i, d] : llvm::enumerate(fr.run))
      os << (i ? ", " : "") << stringifyDistribution(d);
    os << " inputs, tolerance " << fmtShort(options.floatOptions.tolerance)
       << ": ";
    if (fr.verdict == Verdict::NotEquivalent) {
      const FloatCounterexample &c = *fr.counterexample;
      os << "differ on " << stringifyDistribution(c.distribution)
         << " inputs at output #" << c.outputIndex << " element "
         << formatIndex(c.element);
    } else if (fr.verdict == Verdict::Equivalent) {
      os << "agree (max relative difference " << fmtShort(fr.maxRelDiff) << ")";
    } else {
      os << stringifyVerdict(fr.verdict);
    }
    for (const std::string &sk : fr.skipped)
      os << "; not decisive on " << sk;
  }
  os << "; ";
  if (result.numericsResult)
    os << describeNumerics(*result.numericsResult);
  else
    os << "numerics in the kernels' precision: not run";
  return s;
}
