//===- Equivalence.cpp - Equivalence of two uGraph programs ---------------===//
//
// Runs independent finite-field tests of a reference and a candidate on the
// same random inputs and compares every output element; derives the bound on
// a false "equivalent" from the degree bounds the evaluator tracks.
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

/// Fills `result` from an evaluation failure of `func`.
static EquivalenceResult fromError(const EvalError &err, func::FuncOp func) {
  EquivalenceResult r;
  bool decidable = err.kind == EvalErrorKind::OutsideFragment ||
                   err.kind == EvalErrorKind::DivisionByZero;
  r.verdict = decidable ? Verdict::Unknown : Verdict::Invalid;
  r.reason = ("in @" + func.getSymName() + ": " + err.message).str();
  r.failingOp = err.op;
  return r;
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

/// Runs both programs in f64 on the float inputs of the first test and
/// returns the largest |ref - cand| / max(1, |ref|), or nothing if either
/// evaluation fails.
static std::optional<double> floatMaxRelDiff(func::FuncOp reference,
                                             func::FuncOp candidate,
                                             const EquivalenceOptions &options) {
  std::vector<FloatTensor> fin =
      randomFloatInputs(reference, testSeed(options.seed, 0));
  EvalError e1, e2;
  auto fr = evaluateFloat(reference, fin, e1);
  auto fc = evaluateFloat(candidate, fin, e2);
  if (!fr || !fc)
    return std::nullopt;
  double worst = 0;
  for (size_t o = 0; o < fr->size(); ++o)
    for (size_t i = 0; i < (*fr)[o].data.size(); ++i) {
      double a = (*fr)[o].data[i], b = (*fc)[o].data[i];
      double d = std::fabs(a - b) / std::max(1.0, std::fabs(a));
      if (std::isnan(d))
        d = (std::isnan(a) && std::isnan(b)) ? 0.0 : HUGE_VAL;
      worst = std::max(worst, d);
    }
  return worst;
}

EquivalenceResult
mirage::verify::checkEquivalence(func::FuncOp reference, func::FuncOp candidate,
                                 const EquivalenceOptions &options) {
  EquivalenceResult result;
  for (func::FuncOp f : {reference, candidate}) {
    if (f.isExternal()) {
      result.verdict = Verdict::Invalid;
      result.reason = ("@" + f.getSymName() + " has no body").str();
      result.failingOp = f;
      return result;
    }
    if (std::optional<std::string> bad = checkSignature(f)) {
      result.verdict = Verdict::Invalid;
      result.reason = ("@" + f.getSymName() + ": " + *bad).str();
      result.failingOp = f;
      return result;
    }
  }
  if (std::optional<std::string> bad =
          compareSignatures(reference, candidate)) {
    result.verdict = Verdict::Invalid;
    result.reason = "signatures differ: " + *bad;
    result.failingOp = candidate;
    return result;
  }

  if (options.numTests == 0) {
    result.verdict = Verdict::Unknown;
    result.reason = "no finite-field tests were requested (tests = 0)";
    return result;
  }

  double maxDegree = 0, maxExpDegree = 0;
  bool usesExp = false, usesSqrt = false, usesOpaque = false;
  for (unsigned t = 0; t < options.numTests; ++t) {
    uint64_t seed = testSeed(options.seed, t);
    FieldTest test(seed);
    std::vector<FieldTensor> inputs = randomFieldInputs(reference, test, seed);
    EvalError refErr, candErr;
    FieldEvalInfo refInfo, candInfo;
    // Outside the fragment the float check is what the caller falls back to.
    auto unknown = [&](const EvalError &err, func::FuncOp f) {
      EquivalenceResult r = fromError(err, f);
      if (r.verdict == Verdict::Unknown && options.floatCheck)
        r.floatMaxRelDiff = floatMaxRelDiff(reference, candidate, options);
      return r;
    };
    auto refOut = evaluateField(reference, inputs, test, refErr, &refInfo);
    if (!refOut)
      return unknown(refErr, reference);
    auto candOut = evaluateField(candidate, inputs, test, candErr, &candInfo);
    if (!candOut)
      return unknown(candErr, candidate);
    for (size_t o = 0; o < refOut->size(); ++o) {
      const FieldTensor &x = (*refOut)[o], &y = (*candOut)[o];
      for (int64_t i = 0, n = x.numElements(); i < n; ++i) {
        if (!differs(x.data[i], y.data[i]))
          continue;
        result.verdict = Verdict::NotEquivalent;
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
        return result;
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

  result.verdict = Verdict::Equivalent;
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

  if (options.floatCheck)
    result.floatMaxRelDiff = floatMaxRelDiff(reference, candidate, options);
  return result;
}
