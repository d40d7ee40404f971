//===- ImportCheck.h - Differential check of mirage-import ----------------===//
//
// `mirage-run --import-check`: a function written in linalg/tosa is run
// twice on the same seeded inputs, once as upstream MLIR lowers it (tosa to
// linalg, bufferization, loops, LLVM, ExecutionEngine) and once as
// `mirage-import` rewrites it (its mk ops evaluated by the f64 interpreter),
// and the outputs are compared. See docs/running.md.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_TOOLS_MIRAGE_RUN_IMPORTCHECK_H
#define MIRAGE_TOOLS_MIRAGE_RUN_IMPORTCHECK_H

#include "Mirage/Transforms/SpecializeSizes.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mirage::run {

struct ImportCheckOptions {
  uint64_t seed = 1;
  double inputScale = 1.0;
  double tolScale = 1.0;
  /// The reference (and the ops the import leaves outside) run upstream in
  /// f64, like the interpreter; otherwise in f32 (f16/bf16 widened).
  bool upstreamInF64 = true;
  /// A fault injected into the import's evaluation, to test the check:
  /// "mk" or "outside" (see ImportedProgram::evaluate), or empty.
  std::string fault;
  /// Sizes to check functions with dynamic dims at (--sizes): every
  /// combination; without them such functions are not checked.
  std::optional<SizeSweep> sizes;
};

/// Checks function `funcName` of `module`, or, when it is empty, every
/// public function with a body that has an op outside the mk dialect (so
/// that the mk reference functions of a test file are skipped). Prints one
/// report per function; returns the exit code (0 when all pass).
int checkImport(mlir::ModuleOp module, llvm::StringRef funcName,
                const ImportCheckOptions &options);

} // namespace mirage::run

#endif // MIRAGE_TOOLS_MIRAGE_RUN_IMPORTCHECK_H
