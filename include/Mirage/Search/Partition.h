//===- Partition.h - Partitioned search of whole layers ---------*- C++ -*-===//
//
// The partitioned superoptimizer of DESIGN §5 ("Whole layers"): a function of
// many mk ops is split into convex subprograms of at most `maxOps` ops, each
// searched with superoptimize() on its own (identical subprograms once), and
// the split that minimises the modelled time of the whole function is
// chosen by dynamic programming over intervals of topological orders. The
// unfused form of every subprogram (each op its own kernel) is always a
// candidate, so the result is never modelled slower than the input.
// docs/partitioning.md describes the method.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SEARCH_PARTITION_H
#define MIRAGE_SEARCH_PARTITION_H

#include "Mirage/Search/Superoptimizer.h"
#include "Mirage/Transforms/AbsorbViews.h"

#include "mlir/IR/Location.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <string>
#include <vector>

namespace mirage::search {

/// Options of a partitioned search.
struct PartitionOptions {
  /// Options of each subprogram's search; `search.timeBudget` is the budget
  /// of the whole function, dealt out to the subprograms.
  SuperoptimizeOptions search;
  /// Most ops of one subprogram (1 to 16).
  unsigned maxOps = 6;
  /// Kernel-level ops of a subprogram's programs (caps
  /// `search.maxKernelOps`): the partition itself composes kernels, and a
  /// search that deepens to two kernels costs far more to enumerate and to
  /// verify at real shapes (docs/partitioning.md).
  unsigned maxKernelOps = 1;
  /// Also search two adjacent subprograms of the chosen cover as one where
  /// their union is longer than `maxOps` (a join, docs/partitioning.md).
  bool joins = true;
  /// Subprogram searches per wave (docs/partitioning.md, "Jobs"): the most
  /// promising unresolved subprograms are searched together, in parallel
  /// over `search.threads`, and merged in a fixed order, so the result does
  /// not depend on the thread count. 1: one search at a time.
  unsigned wave = 16;
  /// Directory of the on-disk result cache (ResultCache.h) consulted per
  /// subprogram before it is searched; empty: no cache. A hit with a
  /// program is re-checked (finite-field test against the subprogram)
  /// before it is used.
  std::string cacheDirectory;
};

/// The best program found for one subprogram (memoised by canonical text).
struct SubprogramResult {
  /// The search's verified program (SuperoptimizeResult's `program`), or
  /// empty when the unfused ops are kept.
  ProgramModule program;
  /// Its structure (SuperoptimizeResult's `structure`).
  std::vector<int64_t> structure;
  /// Summary, kernel count and modelled time of the chosen form (the
  /// search's result or the unfused ops), and of the unfused ops.
  std::string summary;
  unsigned kernels = 0;
  double micros = 0;
  double unfusedMicros = 0;
  unsigned unfusedKernels = 0;
  /// Why the unfused ops were kept although a search ran or could have run:
  /// the search's error, "no verified program", "no gain", "bound" (its lower
  /// bound cannot beat smaller subprograms, so it was not searched), "time
  /// budget"; empty when the search's result is used or for a single op
  /// that was not searched.
  std::string note;
  /// The search ran for this subprogram (not a memo hit, not skipped).
  bool searched = false;
  /// The result came from the on-disk cache instead of a search.
  bool fromCache = false;
  /// `program` came from the cache and has not been re-checked yet: the
  /// partitioned search re-checks only the cached programs it chooses.
  bool recheckPending = false;
  double seconds = 0;
};

/// Memo of subprogram results by canonical text; it may be shared by the
/// searches of several functions that use the same options.
using SubprogramMemo = llvm::StringMap<SubprogramResult>;

/// One subprogram of the chosen partition.
struct ChosenSubprogram {
  /// Positions of its ops in the function body (before the rewrite), in
  /// the order they were outlined, and their names.
  llvm::SmallVector<unsigned, 4> positions;
  llvm::SmallVector<std::string, 4> opNames;
  /// Location of its first op.
  mlir::Location loc;
  SubprogramResult result;
  /// The result came from the memo (an identical subprogram was searched
  /// before), not from a search of this one.
  bool deduplicated = false;
};

/// The outcome of a partitioned search.
struct PartitionResult {
  /// The chosen subprograms in the rewritten function's order.
  std::vector<ChosenSubprogram> subprograms;
  /// Ops of the function, and modelled time and kernel count of the
  /// rewritten function and of the input (each op its own kernel).
  unsigned ops = 0;
  double micros = 0, unfusedMicros = 0;
  unsigned kernels = 0, unfusedKernels = 0;
  /// The layout ops between the chosen programs folded into their kernels'
  /// views (mirage/Transforms/AbsorbViews.h).
  AbsorbedViews absorbedViews;
  /// The mk.convert ops of the function before and after (subprograms read
  /// through the conversions between their ops, and the spliced kernels take
  /// in those at their boundary: absorbConversions).
  unsigned conversionsBefore = 0, conversionsAfter = 0;
  /// Intervals of all orders, and the distinct subprograms among them
  /// (by canonical text): considered, searched, skipped because their lower
  /// bound could not beat a split of them or the budget was spent; chosen
  /// subprograms answered by an identical one searched before.
  unsigned intervals = 0, considered = 0, searched = 0, deduplicated = 0,
           skippedByBound = 0, skippedByBudget = 0;
  /// Subprograms answered by the on-disk cache, the cached programs
  /// re-checked (only those of the chosen cover), and what was wrong with
  /// entries that could not be used (corrupted, foreign, malformed, failing
  /// the re-check, a store that failed), for remarks.
  unsigned cacheHits = 0, cacheRechecks = 0;
  /// Re-checks decided at reduced shapes (SearchCache.h), of cacheRechecks.
  unsigned cacheReducedRechecks = 0;
  std::vector<std::string> cacheProblems;
  /// Topological orders the dynamic programming ran over.
  unsigned orders = 0;
  /// Wall-clock seconds of the whole partitioned search.
  double seconds = 0;
  /// Every search that ran, in order: its subprogram's ops (names, first
  /// occurrence), the budget it got, the seconds it took and its outcome.
  struct Search {
    std::string ops;
    /// The block-op bound of a deepened search; 0 for the default.
    unsigned maxBlockOps = 0;
    /// The wave it ran in (1, 2, ...: docs/partitioning.md, "Jobs").
    unsigned wave = 0;
    double budget = 0, seconds = 0;
    std::string outcome;
  };
  std::vector<Search> searches;
  /// Sum of the statistics of every search that ran.
  SuperoptimizeStats stats;
};

/// Partitions `func` (a function of pre-defined mk ops, one block), searches
/// its subprograms and rewrites `func` in place with the chosen combination.
/// Fails with `error` (and leaves `func` unchanged) for input it cannot
/// handle: a function without a body, more than one block, ops with regions
/// or ops the cost model cannot read. `memo`, if given, is consulted and
/// filled.
mlir::FailureOr<PartitionResult>
superoptimizePartitioned(mlir::func::FuncOp func,
                         const PartitionOptions &options, std::string &error,
                         SubprogramMemo *memo = nullptr);

} // namespace mirage::search

#endif // MIRAGE_SEARCH_PARTITION_H
