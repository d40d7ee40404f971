//===- Numerics.h - Accuracy in the kernels' precision ----------*- C++ -*-===//
//
// Evaluates a reference and a candidate the way the generated code computes
// (tiles and kernel outputs stored in their element type, f16/bf16; every
// operation, reduction and accumulator in f32, reductions in the order of
// the lowering) on realistic inputs, and compares each one's error against
// an f64 evaluation of the reference. A candidate that is exact over the
// reals can still be unusable in f16 (softmax without its max subtraction
// overflows for logits above ~11); this check rejects it.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_VERIFY_NUMERICS_H
#define MIRAGE_VERIFY_NUMERICS_H

#include "Mirage/Verify/Interpreter.h"
#include "Mirage/Verify/Verdict.h"

#include <optional>
#include <string>

namespace mirage::verify {

/// Input distributions of the numerics check.
enum class NumericsDistribution {
  /// Uniform in [-1, 1): typical normalised activations and weights.
  Activations,
  /// Uniform in [-4, 4): activations with outliers; products of two such
  /// inputs over a head dim of 64 give attention logits beyond +-100.
  Outliers,
  /// Uniform in [-30, 30): large-magnitude logits, where an unguarded exp
  /// overflows f16 (above ~11).
  Logits,
  /// Uniform in [-100, 100): logits of unscaled scores, where an unguarded
  /// exp overflows even in f32 (above ~88), so a fused form that keeps the
  /// exponentials in f32 registers still fails without the max.
  LargeLogits,
};

/// "activations", "outliers", "logits", "large-logits".
llvm::StringRef stringifyDistribution(NumericsDistribution d);

/// Options of the numerics check.
struct NumericsOptions {
  /// A candidate is rejected when its error exceeds
  /// factor * (reference's error) + floor on some output (errors are
  /// max |x - exact| / (|exact| + mean |exact|), see docs/verification.md).
  double factor = 8.0;
  double floor = 1e-2;
  llvm::SmallVector<NumericsDistribution, 4> distributions = {
      NumericsDistribution::Activations, NumericsDistribution::Outliers,
      NumericsDistribution::Logits, NumericsDistribution::LargeLogits};
  /// Evaluate the two programs on two threads at once.
  bool parallel = true;
  /// Past it, the check stops with an Unknown verdict.
  Deadline deadline = kNoDeadline;
};

/// The error of one program on one distribution and output.
struct NumericsError {
  NumericsDistribution distribution = NumericsDistribution::Activations;
  unsigned outputIndex = 0;
  /// Scaled error of the reference and of the candidate in the kernels'
  /// precision (inf when the program produced inf/NaN there).
  double referenceError = 0, candidateError = 0;
  /// Where the candidate's error is largest.
  llvm::SmallVector<int64_t, 4> element;
  double exact = 0, candidateValue = 0, referenceValue = 0;
};

/// The outcome of the numerics check.
struct NumericsResult {
  /// Equivalent: accepted on every distribution. Inaccurate: rejected
  /// (`worst` says where). Unknown: nothing could be decided (the exact
  /// reference is not finite on every distribution). Invalid: an evaluation
  /// failed (`reason`).
  Verdict verdict = Verdict::Unknown;
  /// The worst output per distribution that decided (the exact reference
  /// had finite elements).
  llvm::SmallVector<NumericsError, 4> errors;
  /// Distributions that could not decide, with the reason.
  llvm::SmallVector<std::string, 4> skipped;
  /// The output that decided a rejection.
  std::optional<NumericsError> worst;
  std::string reason;
  /// "f16", "bf16", "f32" or a mix ("f16/f32"): the storage precisions seen.
  std::string precision;
};

/// Compares the accuracy of `candidate` with that of `reference`.
NumericsResult checkNumerics(mlir::func::FuncOp reference,
                             mlir::func::FuncOp candidate,
                             const NumericsOptions &options, uint64_t seed);

/// Renders the result in one line for remarks.
std::string describeNumerics(const NumericsResult &result);

} // namespace mirage::verify

#endif // MIRAGE_VERIFY_NUMERICS_H
