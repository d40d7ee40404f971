//===- FloatCheck.h - f64 comparison of two programs ------------*- C++ -*-===//
//
// Runs a reference and a candidate in f64 on several input distributions and
// compares every output element. Part of the equivalence verdict: the field
// cannot see that sqrt is undefined for negative reals or that exponents
// only agree mod q; the reals can.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_VERIFY_FLOATCHECK_H
#define MIRAGE_VERIFY_FLOATCHECK_H

#include "Mirage/Verify/Interpreter.h"
#include "Mirage/Verify/Verdict.h"

#include <optional>
#include <string>

namespace mirage::verify {

/// Input distributions of the f64 runs.
enum class FloatDistribution {
  /// Uniform in [-1, 1).
  Mixed,
  /// Random sign, magnitude m * 10^k: k uniform in {-3, ..., 1}, m uniform
  /// in [1, 10) (so from 0.001 to 100).
  Wide,
  /// Uniform in [0.1, 2).
  Positive,
};
constexpr unsigned kNumFloatDistributions = 3;

/// "mixed", "wide", "positive".
llvm::StringRef stringifyDistribution(FloatDistribution d);

/// Inputs of `func` drawn from `dist`, one stream per argument from `seed`;
/// empty if `deadline` passes while they are drawn.
std::vector<FloatTensor> floatInputs(mlir::func::FuncOp func,
                                     FloatDistribution dist, uint64_t seed,
                                     Deadline deadline = kNoDeadline);

/// Options of the f64 check.
struct FloatCheckOptions {
  /// Largest accepted |ref - cand| / max(|ref|, |cand|, s), where s is 1e-3
  /// times the largest |ref| of that output (a floor for elements near 0).
  double tolerance = 1e-6;
  /// The distributions to run (all three by default).
  llvm::SmallVector<FloatDistribution, 3> distributions = {
      FloatDistribution::Mixed, FloatDistribution::Wide,
      FloatDistribution::Positive};
  /// Evaluate both programs on two threads at once.
  bool parallel = true;
  /// Past it, the check stops with an Unknown verdict.
  Deadline deadline = kNoDeadline;
};

/// A differing output element of an f64 run.
struct FloatCounterexample {
  FloatDistribution distribution = FloatDistribution::Mixed;
  uint64_t seed = 0;
  unsigned outputIndex = 0;
  llvm::SmallVector<int64_t, 4> element;
  double referenceValue = 0, candidateValue = 0;
  /// Relative difference (inf when exactly one side is not finite).
  double relDiff = 0;
};

/// The outcome of the f64 check.
struct FloatCheckResult {
  /// Equivalent: every decisive distribution agreed (at least one was
  /// decisive). NotEquivalent: a difference above the tolerance, or NaN/inf
  /// in one program where the other is finite without an overflow
  /// (`counterexample`). Unknown: no distribution was decisive (`reason`).
  /// Invalid: an evaluation failed (`reason`).
  Verdict verdict = Verdict::Unknown;
  /// Largest relative difference over the decisive distributions.
  double maxRelDiff = 0;
  /// Distributions run, and those that decided.
  llvm::SmallVector<FloatDistribution, 3> run, decisive;
  /// Why distributions were not decisive ("wide: overflow to inf in @cand").
  llvm::SmallVector<std::string, 3> skipped;
  std::string reason;
  std::optional<FloatCounterexample> counterexample;
};

/// Compares `reference` and `candidate` in f64 (same signature assumed).
FloatCheckResult checkFloat(mlir::func::FuncOp reference,
                            mlir::func::FuncOp candidate,
                            const FloatCheckOptions &options, uint64_t seed);

} // namespace mirage::verify

#endif // MIRAGE_VERIFY_FLOATCHECK_H
