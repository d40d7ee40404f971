//===- Verdict.h - Outcomes of the verifier's checks ------------*- C++ -*-===//
//
// The verdict of an equivalence check and of each of its parts (finite
// field, f64 runs, numerics in the kernels' precision).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_VERIFY_VERDICT_H
#define MIRAGE_VERIFY_VERDICT_H

#include "llvm/ADT/StringRef.h"

namespace mirage::verify {

/// The outcome of a check.
enum class Verdict {
  /// Every test agreed.
  Equivalent,
  /// Some test found a differing output element.
  NotEquivalent,
  /// Equivalent over the reals (field and f64 agree), but in the kernels'
  /// precision the candidate's error is far worse than the reference's own
  /// (e.g. softmax without its max subtraction overflows in f16).
  Inaccurate,
  /// The tests cannot decide: the program leaves the verifiable fragment
  /// (exp inside exp, division by a field zero), or every f64 run was
  /// ill-conditioned. The result's reason says why.
  Unknown,
  /// Bad input: an unknown op, mismatching signatures, ...
  Invalid,
};

/// "equivalent", "not equivalent", "inaccurate", "unknown", "invalid".
llvm::StringRef stringifyVerdict(Verdict v);

} // namespace mirage::verify

#endif // MIRAGE_VERIFY_VERDICT_H
