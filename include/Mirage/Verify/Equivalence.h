//===- Equivalence.h - Equivalence of two uGraph programs -------*- C++ -*-===//
//
// Decides whether two functions of mk/mb/mt ops compute the same outputs
// (DESIGN §4). The verdict combines three checks:
//   - random evaluation over the finite field of Field.h (structure, with a
//     probability bound);
//   - f64 runs on several input distributions (FloatCheck.h), which catch
//     what the field cannot see (sqrt of negative reals, exponents that only
//     agree mod q);
//   - optionally, the numerics in the kernels' precision (Numerics.h): a
//     candidate exact over the reals but far less accurate in f16 than the
//     reference is rejected.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_VERIFY_EQUIVALENCE_H
#define MIRAGE_VERIFY_EQUIVALENCE_H

#include "Mirage/Verify/FloatCheck.h"
#include "Mirage/Verify/Interpreter.h"
#include "Mirage/Verify/Numerics.h"
#include "Mirage/Verify/Verdict.h"

#include <optional>
#include <string>

namespace mirage::verify {

/// Options of an equivalence check.
struct EquivalenceOptions {
  /// Number of independent finite-field tests (fresh omega, fresh inputs).
  unsigned numTests = 4;
  /// Seed of all random choices; equal seeds give equal verdicts.
  uint64_t seed = 0;
  /// Run the f64 check; its outcome is part of the verdict.
  bool floatCheck = true;
  /// Options of the f64 check (tolerance, distributions).
  FloatCheckOptions floatOptions;
  /// Run the check in the kernels' precision (f16/bf16 storage, f32
  /// arithmetic); its rejection makes the verdict Inaccurate.
  bool numericsCheck = false;
  NumericsOptions numericsOptions;
  /// Evaluate the reference and the candidate on two threads at once.
  bool parallel = true;
  /// Past it, every check stops and the verdict is Unknown ("the time budget
  /// ran out"); the overrun is at most one op, block or loop iteration of an
  /// evaluation (Deadline in Interpreter.h).
  Deadline deadline = kNoDeadline;
};

/// A differing output element in the finite field.
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
  /// The combined verdict (see docs/verification.md §3): NotEquivalent when
  /// the field or the float check finds a difference, Inaccurate when only
  /// the numerics check rejects, Equivalent when the field tests agree and
  /// the float check (if it ran) was decisive and agreed.
  Verdict verdict = Verdict::Unknown;
  /// The verdict of the finite-field tests alone.
  Verdict fieldVerdict = Verdict::Unknown;
  /// Human-readable reason for Unknown and Invalid (and for a NotEquivalent
  /// or Inaccurate that the float or numerics check decided).
  std::string reason;
  /// The op where evaluation stopped, for Unknown and Invalid, if known.
  mlir::Operation *failingOp = nullptr;
  /// Number of finite-field tests run to completion.
  unsigned testsRun = 0;
  /// Upper bound on the probability that one test misses a difference.
  double perTestBound = 1.0;
  /// Upper bound on P(field verdict Equivalent although the programs
  /// differ): perTestBound ^ testsRun (0 when it underflows; see log10Bound).
  double falseEquivalentBound = 1.0;
  /// log10 of the bound, which does not underflow.
  double log10Bound = 0.0;
  /// The bound is a proven Schwartz-Zippel bound only for programs of
  /// + - * / and constants (a constant without an exact image counts as one
  /// more random variable); with exp, sqrt or the random stand-ins (max,
  /// relu, clamp, pow) it is the heuristic of docs/verification.md.
  bool boundIsRigorous = true;
  /// Structure-only comparison: the programs use max/relu/clamp/pow.
  bool structureOnly = false;
  /// The field counterexample of a NotEquivalent field verdict.
  std::optional<Counterexample> counterexample;
  /// The f64 check, when it ran.
  std::optional<FloatCheckResult> floatResult;
  /// The numerics check, when it ran.
  std::optional<NumericsResult> numericsResult;
  /// Largest relative difference of the f64 check (floatResult->maxRelDiff),
  /// kept for callers that only print it.
  std::optional<double> floatMaxRelDiff;
};

/// Checks `candidate` against `reference` (same argument and result shapes).
EquivalenceResult checkEquivalence(mlir::func::FuncOp reference,
                                   mlir::func::FuncOp candidate,
                                   const EquivalenceOptions &options = {});

/// Renders the probability 10^log10p compactly, e.g. "1.2e-40" (also beyond
/// the range of double, e.g. "3.4e-4600").
std::string formatProbability(double log10p);

/// One line saying which checks ran and what they found, for remarks and
/// errors: "field: 4 tests, P(false equivalent) <= 1e-40; float: 3
/// distributions (mixed, wide, positive), tolerance 1e-06, max relative
/// difference 2e-16; fp16 numerics: not run".
std::string describeChecks(const EquivalenceResult &result,
                           const EquivalenceOptions &options);

} // namespace mirage::verify

#endif // MIRAGE_VERIFY_EQUIVALENCE_H
