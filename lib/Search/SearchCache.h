//===- SearchCache.h - Search outcomes in the result cache ------*- C++ -*-===//
//
// What the superoptimizer keeps in the on-disk result cache (ResultCache.h)
// and how it reads it back: the key of a search (canonical program text and
// every option that changes the outcome), the payload (the chosen program,
// its summary, kernels and modelled time, or a note saying why there is
// none), its lookup, and the re-check of a cached program against the
// program it claims to implement, which must pass before anyone uses it. Shared
// by the partitioned search (each subprogram) and the pass (a function searched
// whole). Private to lib/Search.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_SEARCH_SEARCHCACHE_H
#define MIRAGE_LIB_SEARCH_SEARCHCACHE_H

#include "Mirage/Search/ResultCache.h"
#include "Mirage/Search/Superoptimizer.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mirage::search::detail {

/// The outcome of one search as the cache holds it. An empty `program`
/// records that the search found nothing worth using (`note` says why).
struct CachedOutcome {
  ProgramModule program;
  /// The program's structure (SuperoptimizeResult::structure); empty in
  /// entries written without one.
  std::vector<int64_t> structure;
  std::string summary;
  std::string note;
  unsigned kernels = 0;
  double micros = 0;
};

/// The key of a search of `canonicalText` under `o`: `kind` names who
/// searches ("partition-subprogram", "whole-function"), then every option
/// that changes the result (not `threads`, which does not, nor the time
/// budget: a result is reused whatever budget found it).
std::string searchCacheKey(llvm::StringRef kind, llvm::StringRef canonicalText,
                           const SuperoptimizeOptions &o,
                           unsigned maxKernelOps);

/// `func` printed with generic value names under a fixed symbol name, so
/// that equal programs in differently named functions share an entry.
std::string canonicalFunctionText(mlir::func::FuncOp func);

/// The payload of `outcome`: five header lines (the fifth, the structure,
/// may be missing), then the program printed.
std::string formatOutcome(const CachedOutcome &outcome);

/// The outcome stored under `key`, its program parsed into `ctx`, if the
/// entry is intact and well formed. Otherwise nullopt, with `problem` saying
/// what was wrong (empty for a plain miss). A program in it is a hint:
/// recheckCachedProgram decides whether it may be used.
std::optional<CachedOutcome> lookupOutcome(const ResultCache &cache,
                                           llvm::StringRef key,
                                           mlir::MLIRContext *ctx,
                                           std::string &problem);

/// How a cached program passed its re-check, or that it did not.
enum class Recheck { Failed, AtReducedShapes, AtRealShapes };

/// Decides whether a cached `program` with its `structure` (from the entry
/// at `entryPath`) may be used for `reference`, searched under `options`.
/// It must have the signature of `reference`. With a structure, the
/// structure must rebuild exactly the entry's program, and one finite-field
/// test at reduced shapes decides (recheckAtReducedShapes, Verification.h);
/// without one, or where reduced shapes cannot decide, one finite-field
/// test at the real shapes (seeded by `options.seed`). When it fails,
/// `problem` says why.
Recheck recheckCachedProgram(const ProgramModule &program,
                             llvm::ArrayRef<int64_t> structure,
                             llvm::StringRef entryPath,
                             mlir::func::FuncOp reference,
                             const SuperoptimizeOptions &options,
                             std::string &problem);

} // namespace mirage::search::detail

#endif // MIRAGE_LIB_SEARCH_SEARCHCACHE_H
