//===- Materialize.h - Search-IR programs as mk/mb text ---------*- C++ -*-===//
//
// Private to lib/Search. A candidate (or the target) becomes MLIR: a
// func.func of mk ops and graph-defined kernels holding mb block graphs, at
// the extents of a Scale (the real ones, or the reduced ones of the
// fingerprint). The text is what Verification parses and what the search
// returns.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_SEARCH_MATERIALIZE_H
#define MIRAGE_LIB_SEARCH_MATERIALIZE_H

#include "SearchIR.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mirage::search::detail {

/// Prints `prog` (returning `outputs`; its first `numInputs` values are the
/// arguments) as a func.func named `name`, at the extents `scale`.
std::string printProgram(const SProgram &prog, llvm::ArrayRef<int> outputs,
                         unsigned numInputs, const Scale &scale,
                         llvm::StringRef elementType, llvm::StringRef name);

/// The pre-defined (kernel-level) op `op` of `prog` alone, as a func.func
/// named `name` of its distinct operands at the extents `scale`: what the
/// search costs as the kernel the lowering wraps it into.
std::string printPredefinedOp(const SProgram &prog, const SOp &op,
                              const Scale &scale, llvm::StringRef elementType,
                              llvm::StringRef name);

/// One line describing a program (kernels, grids, loop ranges, ops), the
/// `summary` of a result and the key of SuperoptimizeOptions::measuredMicros.
std::string summarize(const SProgram &prog);

/// `program` (one func.func) in a module carrying the shared-memory limit
/// the search used, so that the verifier checks the same limit.
std::string inModule(llvm::StringRef program, int64_t smemLimit);

} // namespace mirage::search::detail

#endif // MIRAGE_LIB_SEARCH_MATERIALIZE_H
