//===- Equivalence.h - Equivalence of two uGraph programs -------*- C++ -*-===//
//
// Decides whether two functions of mk/mb/mt ops compute the same outputs, by
// random evaluation over the finite field of Field.h (DESIGN §4). The verdict
// comes from the field tests only; a float run adds numerical information.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_VERIFY_EQUIVALENCE_H
#define MIRAGE_VERIFY_EQUIVALENCE_H

#include "Mirage/Verify/Interpreter.h"

#include <optional>
#include <string>

namespace mirage::verify {

/// Options of an equivalence check.
struct EquivalenceOptions {
  /// Number of independent finite-field tests (fresh omega, fresh inputs).
  unsigned numTests = 4;
  /// Seed of all random choices; equal seeds give equal verdicts.
  uint64_t seed = 0;
  /// Also run both programs in f64 on random inputs and report the largest
  /// relative difference (information only, never the verdict).
  bool floatCheck = true;
};

/// The outcome of a check.
enum class Verdict {
  /// Every test agreed; `falseEquivalentBound` bounds the error.
  Equivalent,
  /// Some test found a differing output element (see `counterexample`).
  NotEquivalent,
  /// The tests cannot decide: the program leaves the verifiable fragment
  /// (exp inside exp, division by a field zero). `reason` says why.
  Unknown,
  /// Bad input: an unknown op, mismatching signatures, ... `reason` says what.
  Invalid,
};

/// A differing output element.
struct Counterexample {
  unsigned testIndex = 0;
  unsigned outputIndex = 0;
  llvm::SmallVector<int64_t, 4> element;
  FieldValue referenceValue, candidateValue;
  /// The same element in a float run on random inputs, when it was computed.
  std::optional<double> referenceFloat, candidateFloat;
};

/// The result of checkEquivalence.
struct EquivalenceResult {
  Verdict verdict = Verdict::Unknown;
  /// Human-readable reason for Unknown and Invalid.
  std::string reason;
  /// The op where evaluation stopped, for Unknown and Invalid, if known.
  mlir::Operation *failingOp = nullptr;
  /// Number of finite-field tests run to completion.
  unsigned testsRun = 0;
  /// Upper bound on the probability that one test misses a difference.
  double perTestBound = 1.0;
  /// Upper bound on P(verdict Equivalent although the programs differ):
  /// perTestBound ^ testsRun (0 when it underflows; see log10Bound).
  double falseEquivalentBound = 1.0;
  /// log10 of the bound, which does not underflow.
  double log10Bound = 0.0;
  /// The bound is a proven Schwartz-Zippel bound only for programs of
  /// + - * / and constants; with exp, sqrt or the random stand-ins
  /// (max, relu, clamp, pow) it is the heuristic of docs/verification.md.
  bool boundIsRigorous = true;
  /// Structure-only comparison: the programs use max/relu/clamp/pow.
  bool structureOnly = false;
  std::optional<Counterexample> counterexample;
  /// Largest |ref - cand| / max(1, |ref|) over the float run, if it ran.
  std::optional<double> floatMaxRelDiff;
};

/// Checks `candidate` against `reference` (same argument and result shapes).
EquivalenceResult checkEquivalence(mlir::func::FuncOp reference,
                                   mlir::func::FuncOp candidate,
                                   const EquivalenceOptions &options = {});

/// Renders the probability 10^log10p compactly, e.g. "1.2e-40" (also beyond
/// the range of double, e.g. "3.4e-4600").
std::string formatProbability(double log10p);

} // namespace mirage::verify

#endif // MIRAGE_VERIFY_EQUIVALENCE_H
