//===- Materialize.h - Search-IR programs as mk/mb IR -----------*- C++ -*-===//
//
// Private to lib/Search. A candidate (or the target) becomes MLIR: a
// func.func of mk ops and graph-defined kernels holding mb block graphs, at
// the extents of a Scale (the real ones, or the reduced ones of the
// fingerprint), built with builders into scratch modules: what
// verification checks, what the costing of pre-defined ops measures, and the
// program a search returns (ProgramModule, Superoptimizer.h).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_SEARCH_MATERIALIZE_H
#define MIRAGE_LIB_SEARCH_MATERIALIZE_H

#include "SearchIR.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mirage::search::detail {

/// Builds `prog` (returning `outputs`; its first `numInputs` values are the
/// arguments) as a func.func named `name` at the end of `module`, at the
/// extents `scale`. Not verified.
mlir::func::FuncOp buildProgram(mlir::ModuleOp module, const SProgram &prog,
                                llvm::ArrayRef<int> outputs, unsigned numInputs,
                                const Scale &scale, mlir::Type element,
                                llvm::StringRef name);

/// The pre-defined (kernel-level) op `op` of `prog` alone, as a func.func
/// named `name` of its distinct operands at the extents `scale`, built at
/// the end of `module`: what the search costs as the kernel the lowering
/// wraps it into.
mlir::func::FuncOp buildPredefinedOp(mlir::ModuleOp module,
                                     const SProgram &prog, const SOp &op,
                                     const Scale &scale, mlir::Type element,
                                     llvm::StringRef name);

/// An empty module carrying the shared-memory limit the search uses, so
/// that the verifier checks the same limit.
mlir::OwningOpRef<mlir::ModuleOp> scratchModule(mlir::MLIRContext *ctx,
                                                int64_t smemLimit);

/// Whether `op` verifies (its diagnostics are swallowed: a candidate the
/// verifier rejects is simply not a program).
bool verifiesQuietly(mlir::Operation *op);

/// One line describing a program (kernels, grids, loop ranges, ops), the
/// `summary` of a result and the key of SuperoptimizeOptions::measuredMicros.
std::string summarize(const SProgram &prog);

} // namespace mirage::search::detail

#endif // MIRAGE_LIB_SEARCH_MATERIALIZE_H
