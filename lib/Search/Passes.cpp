//===- Passes.cpp - Superoptimizer pass -----------------------------------===//
//
// --mirage-superoptimize: runs the search of Superoptimizer.h on every
// function of pre-defined mk ops and rewrites it in place with the result;
// a function of at least partition-min-ops ops goes through the
// partitioned search of Partition.h. (--mirage-cost-report is in
// CostReportPass.cpp.)
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/Passes.h"
#include "Mirage/Dialect/Kernel/Analysis/DynamicSizes.h"

#include "SearchCache.h"
#include "TargetImport.h"

#include "Mirage/Dialect/Kernel/IR/Kernel.h"
#include "Mirage/Search/KernelCost.h"
#include "Mirage/Search/Partition.h"
#include "Mirage/Search/ResultCache.h"
#include "Mirage/Search/SizeClasses.h"
#include "Mirage/Search/Superoptimizer.h"
#include "Mirage/Transforms/GeneralizeSizes.h"
#include "Mirage/Transforms/SpecializeSizes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <tuple>

namespace mirage::search {
#define GEN_PASS_DEF_MIRAGESUPEROPTIMIZE
#include "Mirage/Search/Passes.h.inc"
} // namespace mirage::search

using namespace mlir;
using namespace mirage;
using namespace mirage::search;

namespace {

/// The least budget left after a whole-function search that found nothing
/// for which the function is partitioned instead.
constexpr double kMinPartitionSeconds = 1.0;

/// Reads a measured-times file (docs/cost-model.md): one entry a line,
/// `<function> <microseconds> <program summary>`, `#` comments and blank
/// lines ignored; `*` as the function matches every function. Fails with
/// `error` naming the file and line.
LogicalResult readMeasuredTimes(
    StringRef path,
    std::vector<std::tuple<std::string, std::string, double>> &out,
    std::string &error) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!file) {
    error = "cannot read measured-times file '" + path.str() +
            "': " + file.getError().message();
    return failure();
  }
  SmallVector<StringRef> lines;
  (*file)->getBuffer().split(lines, '\n');
  for (auto [i, raw] : llvm::enumerate(lines)) {
    StringRef line = raw.trim();
    if (line.empty() || line.starts_with("#"))
      continue;
    auto where = [&, i = i] {
      return "measured-times file '" + path.str() + "' line " +
             std::to_string(i + 1) + ": ";
    };
    auto [func, rest] = line.split(' ');
    rest = rest.ltrim();
    auto [number, summary] = rest.split(' ');
    summary = summary.trim();
    if (func.empty() || number.empty() || summary.empty()) {
      error = where() + "expected '<function> <microseconds> <program "
                        "summary>'";
      return failure();
    }
    double micros = 0;
    if (number.getAsDouble(micros) || !(micros > 0) || !std::isfinite(micros)) {
      error = where() + "'" + number.str() +
              "' is not a positive finite number of microseconds";
      return failure();
    }
    for (const auto &[f, s, m] : out)
      if (f == func && s == summary && m != micros) {
        error = where() + "a second, different time for the same program";
        return failure();
      }
    out.emplace_back(func.str(), summary.str(), micros);
  }
  return success();
}

struct SuperoptimizePass
    : mirage::search::impl::MirageSuperoptimizeBase<SuperoptimizePass> {
  using Base::Base;

  LogicalResult checkOptions() {
    ModuleOp module = getOperation();
    auto bad = [&](const Twine &msg) {
      emitError(module.getLoc(), "mirage-superoptimize: ") << msg;
      return failure();
    };
    if (maxBlockOps > 16)
      return bad("max-block-ops must be 0 (automatic) or in [1, 16], got " +
                 Twine(maxBlockOps.getValue()));
    if (maxKernelOps < 1 || maxKernelOps > 8)
      return bad("max-kernel-ops must be in [1, 8], got " +
                 Twine(maxKernelOps.getValue()));
    if (maxGraphKernels > 8)
      return bad("max-graph-kernels must be in [0, 8]");
    if (maxKernelInputs < 1 || maxKernelInputs > 8)
      return bad("max-kernel-inputs must be in [1, 8]");
    if (maxKernelOutputs < 1 || maxKernelOutputs > 4)
      return bad("max-kernel-outputs must be in [1, 4]");
    if (maxBlocks < 1)
      return bad("max-blocks must be >= 1");
    if (maxBlockThreads < 32 || maxBlockThreads > 1024 ||
        (maxBlockThreads & (maxBlockThreads - 1)) != 0)
      return bad("max-block-threads must be a power of two in [32, 1024]");
    if (threads < 1 || threads > 256)
      return bad("threads must be in [1, 256]");
    if (!(timeBudget > 0) || timeBudget > 1e6)
      return bad("time-budget must be in (0, 1e6] seconds");
    if (!(verifyBudget >= 0) || verifyBudget > 1e6)
      return bad("verify-budget must be in [0, 1e6] seconds");
    if (rank != "kernels" && rank != "time")
      return bad("rank must be 'kernels' or 'time', got '" + rank + "'");
    if (!(deepenFactor >= 0) || deepenFactor > 1e6)
      return bad("deepen-factor must be in [0, 1e6]");
    if (finalTests < 1)
      return bad("final-tests must be >= 1");
    if (maxPartitionOps < 1 || maxPartitionOps > 16)
      return bad("max-partition-ops must be in [1, 16], got " +
                 Twine(maxPartitionOps.getValue()));
    if (partitionMinOps < 1)
      return bad("partition-min-ops must be >= 1");
    if (partitionWave < 1 || partitionWave > 64)
      return bad("partition-wave must be in [1, 64], got " +
                 Twine(partitionWave.getValue()));
    if (!getDeviceModel(chip))
      return bad("unknown chip '" + chip + "' (expected " +
                 getDeviceModelNames() + ")");
    if (!measuredTimes.empty()) {
      std::string error;
      if (failed(readMeasuredTimes(measuredTimes, measured, error)))
        return bad(error);
    }
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(checkOptions()))
      return signalPassFailure();
    SuperoptimizeOptions o;
    o.maxKernelOps = maxKernelOps;
    o.maxGraphKernels = maxGraphKernels;
    o.maxBlockOps = maxBlockOps;
    o.maxKernelInputs = maxKernelInputs;
    o.maxKernelOutputs = maxKernelOutputs;
    o.maxBlocks = maxBlocks;
    o.maxBlockThreads = maxBlockThreads;
    o.chip = chip;
    o.pruning = pruning;
    o.seed = seed;
    o.threads = threads;
    o.timeBudget = timeBudget;
    o.verifyBudget = verifyBudget;
    o.finalTests = finalTests;
    o.numerics = numerics;
    o.auditFingerprints = auditFingerprints;
    o.deepenFactor = deepenFactor;
    o.rankByKernels = rank == "kernels";

    if (llvm::any_of(sizeClasses, [](int64_t b) { return b < 1; }) ||
        llvm::adjacent_find(sizeClasses, [](int64_t a, int64_t b) {
          return b <= a;
        }) != sizeClasses.end()) {
      emitError(module.getLoc(), "mirage-superoptimize: size-classes must be "
                                 "positive and ascending");
      return signalPassFailure();
    }

    SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
    SymbolTable symbols(module);
    for (func::FuncOp func : funcs) {
      if (func.isExternal() || func->hasAttr(mk::MKDialect::kReferenceAttrName))
        continue;
      bool hasKernel = false;
      func.walk([&](mk::GraphKernelOp) { hasKernel = true; });
      if (hasKernel) {
        emitRemark(func.getLoc(), "not superoptimized: the function already "
                                  "contains graph-defined kernels");
        continue;
      }
      if (func->hasAttr(mk::MKDialect::kSizeDispatchAttrName)) {
        emitRemark(func.getLoc(), "not superoptimized: the function already "
                                  "dispatches on its size to searched "
                                  "programs");
        continue;
      }
      LogicalResult done = mk::hasDynamicDims(func)
                               ? searchBySizeClass(func, o, symbols)
                               : superoptimizeFunction(func, o, symbols);
      if (failed(done))
        return signalPassFailure();
    }
  }

  /// The result cache's directory: `cache-dir`, the default one for '', or
  /// empty for 'none' (or no default).
  std::string cacheDirectory() const {
    if (cacheDir == "none")
      return "";
    return cacheDir.empty() ? ResultCache::defaultDirectory()
                            : std::string(cacheDir);
  }

  /// Searches a static function: whole or partitioned. Fails only on an
  /// internal error.
  LogicalResult superoptimizeFunction(func::FuncOp func, SuperoptimizeOptions o,
                                      SymbolTable &symbols) {
    // The verifier's shared-memory limit for kernels in this function:
    // the nearest mk.smem_limit, on the function or an enclosing op.
    o.smemLimit = mk::MKDialect::getSharedMemoryLimit(func);
    o.measuredMicros.clear();
    for (const auto &[f, summary, micros] : measured)
      if (f == "*" || f == func.getName())
        o.measuredMicros.emplace_back(summary, micros);
    // Partitioned: a function of at least partition-min-ops ops, or one
    // with an op the search does not take (a reshape between mk runs of
    // an import) among others, which then stays as it is between the
    // searched subprograms.
    if (!func.getBody().empty()) {
      Block &body = func.getBody().front();
      size_t numOps = body.getOperations().size() - 1;
      bool unsearchable =
          llvm::any_of(body.without_terminator(), [](Operation &op) {
            return !search::detail::isSearchableOp(&op);
          });
      if (numOps >= partitionMinOps) {
        runPartitioned(func, o, symbols, maxPartitionOps);
        return success();
      }
      // A small function: any interval of it may be one subprogram, as
      // in the whole search.
      if (unsearchable && numOps > 1) {
        runPartitioned(
            func, o, symbols,
            std::max<unsigned>(maxPartitionOps, std::min<size_t>(numOps, 16)));
        return success();
      }
    }
    return searchWhole(func, o, symbols);
  }

  /// Searches a function with a dynamic size per class (SizeClasses.h).
  /// Fails only on an internal error or dynamic dims the analysis rejects.
  LogicalResult searchBySizeClass(func::FuncOp func,
                                  const SuperoptimizeOptions &o,
                                  SymbolTable &symbols);

  /// A function searched whole. Its outcome is kept in the result cache
  /// like a subprogram's: a hit (re-checked) replaces the search, and an
  /// outcome that sends the function to the partitioned search does so
  /// again without searching. Fails only on an internal error.
  LogicalResult searchWhole(func::FuncOp func, const SuperoptimizeOptions &o,
                            SymbolTable &symbols) {
    auto searchStart = std::chrono::steady_clock::now();
    // A function the whole search cannot do well (nothing verified, or
    // only slower than its ops as their own kernels) is partitioned with
    // what is left of its budget: the partition keeps the unfused ops
    // where nothing beats them.
    auto partitionInstead = [&] {
      SuperoptimizeOptions rest = o;
      rest.timeBudget -= std::chrono::duration<double>(
                             std::chrono::steady_clock::now() - searchStart)
                             .count();
      size_t numOps = func.getBody().front().getOperations().size() - 1;
      if (rest.timeBudget >= kMinPartitionSeconds && numOps > 1)
        runPartitioned(
            func, rest, symbols,
            std::max<unsigned>(maxPartitionOps, std::min<size_t>(numOps, 16)));
    };
    // Takes a copy of `program`'s body as the function's body.
    auto adopt = [&](const ProgramModule &program) {
      OwningOpRef<func::FuncOp> best(program.func().clone());
      if (keepReference) {
        func::FuncOp ref = func.clone();
        ref.setName((func.getName() + "_reference").str());
        symbols.insert(ref, Block::iterator(func));
        func->setAttr(mk::MKDialect::kReferenceAttrName,
                      FlatSymbolRefAttr::get(ref.getNameAttr()));
      }
      func.getBody().takeBody(best->getBody());
    };
    FailureOr<std::pair<unsigned, double>> unfused =
        estimateProgramCost(func, chip);

    // No cache when measured times re-rank (they are not part of the key).
    std::optional<ResultCache> cache;
    std::string key;
    if (o.measuredMicros.empty()) {
      std::string dir = cacheDirectory();
      if (!dir.empty()) {
        cache.emplace(dir);
        key = search::detail::searchCacheKey(
            "whole-function",
            search::detail::canonicalFunctionText(func) + "\nsmem " +
                std::to_string(o.smemLimit),
            o, o.maxKernelOps);
      }
    }
    auto store = [&](const search::detail::CachedOutcome &outcome) {
      std::string storeError;
      if (cache && !cache->store(key, search::detail::formatOutcome(outcome),
                                 storeError))
        emitRemark(func.getLoc(), "result cache: cannot store an entry: ")
            << storeError;
    };
    if (cache) {
      std::string problem;
      std::optional<search::detail::CachedOutcome> hit =
          search::detail::lookupOutcome(*cache, key, &getContext(), problem);
      search::detail::Recheck recheck = search::detail::Recheck::Failed;
      if (hit && !hit->program.empty()) {
        recheck = search::detail::recheckCachedProgram(
            hit->program, hit->structure, cache->entryPath(key), func, o,
            problem);
        if (recheck == search::detail::Recheck::Failed)
          hit.reset();
      }
      if (hit && hit->program.empty()) {
        emitRemark(func.getLoc(), "not superoptimized whole (from the cache): ")
            << hit->note;
        partitionInstead();
        return success();
      }
      if (hit) {
        adopt(hit->program);
        std::string micros;
        llvm::raw_string_ostream(micros) << llvm::format("%.1f", hit->micros);
        emitRemark(func.getLoc(), "superoptimized (from the cache): ")
            << hit->summary << "; " << hit->kernels << " kernel(s), modelled "
            << micros << " us on " << chip << "; re-checked at "
            << (recheck == search::detail::Recheck::AtReducedShapes
                    ? "reduced"
                    : "the real")
            << " shapes";
        return success();
      }
      if (!problem.empty())
        emitRemark(func.getLoc(), "result cache: ")
            << problem << "; the entry is ignored";
    }

    std::string error;
    FailureOr<SuperoptimizeResult> r = superoptimize(func, o, error);
    if (failed(r)) {
      emitRemark(func.getLoc(), "not superoptimized: ") << error;
      return success();
    }
    const SuperoptimizeStats &s = r->stats;
    addStatistics(s);
    std::string statsLine;
    llvm::raw_string_ostream os(statsLine);
    os << "states " << s.states << ", pruned " << s.pruned << ", duplicates "
       << s.duplicates << ", candidates " << s.candidates << ", fingerprinted "
       << s.fingerprinted << " (rejected " << s.fingerprintRejected
       << "), verified " << s.verified;
    if (s.numericsRejected)
      os << " (" << s.numericsRejected
         << " more rejected in the kernels' precision, the first "
         << s.firstNumericsRejected << ")";
    os << "; " << llvm::format("%.2f", s.searchSeconds) << " s search, "
       << llvm::format("%.2f", s.verifySeconds) << " s verification";
    if (s.deepened)
      os << ", deepened " << s.deepened << "x";
    if (s.budgetStop == BudgetStop::Enumeration)
      os << ", time budget reached in enumeration";
    else if (s.budgetStop == BudgetStop::Verification)
      os << ", time budget reached in verification (" << s.unchecked
         << " candidate(s) not checked)";
    if (s.budgetStop != BudgetStop::None)
      os << (r->program.empty() ? "" : ": best verified so far");
    if (s.pruningDisabled)
      os << ", pruning off (saturation incomplete)";
    if (auditFingerprints)
      os << "; fingerprint audit: " << s.audited << " candidates, "
         << s.auditCheapRejects << " rejected at reduced shapes, "
         << s.auditFullRejects << " rejected at real shapes, "
         << s.auditFalseRejects << " rejected only at reduced shapes";
    if (r->program.empty()) {
      emitRemark(func.getLoc(), "not superoptimized: no verified program (")
          << statsLine << ")";
      // Only a search that ran to its end says there is none.
      if (s.budgetStop == BudgetStop::None && succeeded(unfused))
        store({{},
               {},
               "none",
               "no verified program",
               unfused->first,
               unfused->second});
      partitionInstead();
      return success();
    }
    if (!r->measured && succeeded(unfused) &&
        r->modelledMicros > unfused->second) {
      std::string why;
      llvm::raw_string_ostream(why)
          << "not superoptimized whole: the best verified program ("
          << r->summary << "; modelled "
          << llvm::format("%.1f", r->modelledMicros)
          << " us) is slower than the unfused ops ("
          << llvm::format("%.1f", unfused->second) << " us; " << statsLine
          << ")";
      emitRemark(func.getLoc(), why);
      store({{},
             {},
             r->summary,
             "slower than the unfused ops",
             r->kernels,
             r->modelledMicros});
      partitionInstead();
      return success();
    }
    adopt(r->program);
    if (!r->measured)
      store({r->program, r->structure, r->summary, "", r->kernels,
             r->modelledMicros});
    std::string micros;
    llvm::raw_string_ostream(micros) << llvm::format("%.1f", r->modelledMicros);
    emitRemark(func.getLoc(), "superoptimized: ")
        << r->summary << "; " << r->kernels << " kernel(s), "
        << (r->measured ? "measured " : "modelled ") << micros << " us on "
        << chip << "; " << statsLine;
    return success();
  }

  /// Adds the counters of one search (or of a partitioned search's
  /// searches) to the pass statistics.
  void addStatistics(const SuperoptimizeStats &s) {
    numStates += s.states;
    numPruned += s.pruned;
    numDuplicates += s.duplicates;
    numCandidates += s.candidates;
    numFingerprinted += s.fingerprinted;
    numVerified += s.verified;
    searchMillis +=
        static_cast<uint64_t>((s.searchSeconds + s.verifySeconds) * 1000.0);
  }

  /// A function of at least partition-min-ops ops: the partitioned
  /// search, a remark per chosen subprogram and one on the function.
  void runPartitioned(func::FuncOp func, const SuperoptimizeOptions &o,
                      SymbolTable &symbols, unsigned maxOps) {
    PartitionOptions po;
    po.search = o;
    po.maxOps = maxOps;
    po.joins = partitionJoins;
    po.wave = partitionWave;
    // No cache when measured times re-rank (they are not part of the key).
    if (o.measuredMicros.empty())
      po.cacheDirectory = cacheDirectory();
    func::FuncOp ref;
    if (keepReference)
      ref = func.clone();
    std::string error;
    // Results by canonical text are shared by the functions of this run,
    // except when measured times (which are per function) re-rank them.
    FailureOr<PartitionResult> r = superoptimizePartitioned(
        func, po, error, o.measuredMicros.empty() ? &memo : nullptr);
    if (failed(r)) {
      if (ref)
        ref.erase();
      emitRemark(func.getLoc(), "not superoptimized: ") << error;
      return;
    }
    if (ref) {
      ref.setName((func.getName() + "_reference").str());
      symbols.insert(ref, Block::iterator(func));
      func->setAttr(mk::MKDialect::kReferenceAttrName,
                    FlatSymbolRefAttr::get(ref.getNameAttr()));
    }
    addStatistics(r->stats);
    numSubprograms += r->subprograms.size();
    numSubprogramSearches += r->searched;
    auto fmt = [](double v, const char *spec = "%.1f") {
      std::string t;
      llvm::raw_string_ostream(t) << llvm::format(spec, v);
      return t;
    };
    for (const std::string &problem : r->cacheProblems)
      emitRemark(func.getLoc(), "result cache: ") << problem;
    size_t count = r->subprograms.size();
    for (auto [i, entry] : llvm::enumerate(r->subprograms)) {
      const ChosenSubprogram &sp = entry;
      std::string line;
      llvm::raw_string_ostream os(line);
      os << "subprogram " << i + 1 << " of " << count << ": op"
         << (sp.positions.size() > 1 ? "s " : " ");
      bool contiguous = llvm::all_of(
          llvm::seq<size_t>(1, sp.positions.size()),
          [&](size_t k) { return sp.positions[k] == sp.positions[k - 1] + 1; });
      if (contiguous && sp.positions.size() > 1)
        os << sp.positions.front() << "-" << sp.positions.back();
      else
        llvm::interleave(sp.positions, os, ",");
      os << " (";
      llvm::interleave(sp.opNames, os, ", ");
      const SubprogramResult &res = sp.result;
      os << "): " << res.summary << "; " << res.kernels
         << " kernel(s), modelled " << fmt(res.micros) << " us, unfused "
         << fmt(res.unfusedMicros) << " us; ";
      if (!res.program.empty())
        os << (sp.deduplicated ? "deduplicated"
               : res.fromCache
                   ? "from cache"
                   : "searched in " + fmt(res.seconds, "%.2f") + " s");
      else
        os << "unfused (" << (res.note.empty() ? "one op" : res.note) << ")"
           << (sp.deduplicated ? ", deduplicated"
               : res.fromCache ? ", from cache"
                               : "");
      emitRemark(sp.loc, line);
    }
    if (partitionSearches)
      for (const PartitionResult::Search &search : r->searches)
        emitRemark(func.getLoc(), "searched subprogram (")
            << search.ops << ")"
            << (search.maxBlockOps ? " with max-block-ops=" +
                                         std::to_string(search.maxBlockOps)
                                   : std::string())
            << " in wave " << search.wave << " with a budget of "
            << fmt(search.budget, "%.2f") << " s in "
            << fmt(search.seconds, "%.2f") << " s: " << search.outcome;
    emitRemark(func.getLoc(), "superoptimized in ")
        << count << " subprogram(s): " << r->ops << " ops, " << r->kernels
        << " kernel(s) (unfused " << r->unfusedKernels << "), modelled "
        << fmt(r->micros) << " us, unfused " << fmt(r->unfusedMicros)
        << " us on " << chip << "; " << r->intervals << " intervals over "
        << r->orders << " topological order(s), " << r->considered
        << " distinct, " << r->searched << " searched, " << r->skippedByBound
        << " not searched by the bound, " << r->skippedByBudget
        << " for the time budget, " << r->cacheHits << " from the cache ("
        << r->cacheRechecks << " re-checked, " << r->cacheReducedRechecks
        << " at reduced shapes), " << r->deduplicated
        << " chosen deduplicated; " << r->absorbedViews.erased
        << " layout op(s) folded into views (" << r->absorbedViews.inputs
        << " kernel input(s), " << r->absorbedViews.outputs << " output(s)), "
        << r->conversionsBefore << " conversion(s) left as "
        << r->conversionsAfter << "; " << fmt(r->seconds, "%.2f") << " s ("
        << fmt(r->stats.searchSeconds, "%.2f") << " s search, "
        << fmt(r->stats.verifySeconds, "%.2f") << " s verification)";
  }

  /// The entries of the measured-times file: function, summary, time.
  std::vector<std::tuple<std::string, std::string, double>> measured;
  /// Subprogram results of this run by canonical text.
  SubprogramMemo memo;
};

LogicalResult SuperoptimizePass::searchBySizeClass(
    func::FuncOp func, const SuperoptimizeOptions &o, SymbolTable &symbols) {
  // Dynamic dims the analysis cannot relate leave the function unchanged,
  // like every function the search does not support.
  std::string problem;
  FailureOr<mk::DynamicSizes> sizes = failure();
  {
    ScopedDiagnosticHandler capture(func.getContext(), [&](Diagnostic &d) {
      if (d.getSeverity() == DiagnosticSeverity::Error && problem.empty())
        problem = d.str();
      return success();
    });
    sizes = mk::DynamicSizes::analyze(func);
  }
  if (failed(sizes)) {
    emitRemark(func.getLoc(), "not superoptimized: its dynamic dims cannot "
                              "be sized: ")
        << problem;
    return success();
  }
  // The classes are those of one size, the dispatch size; every other
  // size is searched at its largest value and generalised back: a program
  // found there covers the smaller values with fewer trips or blocks,
  // where one found at a smaller value may hold the whole size in one trip
  // (a softmax per trip, which longer keys would break).
  ArrayRef<mk::DynamicSize> all = sizes->getSizes();
  const mk::DynamicSize *dispatchSize = &all.front();
  if (!dispatchSizeName.empty() && all.size() > 1) {
    std::optional<unsigned> named = sizes->lookup(dispatchSizeName);
    if (!named) {
      std::string names;
      for (const mk::DynamicSize &s : all)
        names += (names.empty() ? "" : ", ") + s.name;
      return emitError(func.getLoc(), "mirage-superoptimize: dispatch-size '")
             << dispatchSizeName << "' is not a dynamic size of @"
             << func.getName() << " (its sizes: " << names << ")";
    }
    dispatchSize = &all[*named];
  }
  const mk::DynamicSize &size = *dispatchSize;
  SmallVector<int64_t> bounds(sizeClasses.begin(), sizeClasses.end());
  if (bounds.empty())
    bounds.assign(defaultSizeClassBounds().begin(),
                  defaultSizeClassBounds().end());
  SmallVector<HeldSize> held;
  for (const mk::DynamicSize &other : all) {
    if (&other == dispatchSize)
      continue;
    SmallVector<SizeClass> its = makeSizeClasses(other, bounds);
    if (its.empty()) {
      emitRemark(func.getLoc(), "not superoptimized: no size class holds a "
                                "value of ")
          << other.describe() << " (size-classes)";
      return success();
    }
    SizeClass range = its.back();
    range.lo = its.front().lo;
    int64_t largest = range.hi - range.hi % other.divisor;
    if (largest >= range.lo && other.admits(largest))
      range.representative = largest;
    held.push_back({other, range});
  }
  // The classes are searched at values that no static dim of the function
  // has, nor a held size: the generalisation tells a size's dims by their
  // extents (GeneralizeSizes.cpp).
  std::set<int64_t> staticExtents;
  auto addExtents = [&](Type t) {
    if (auto tensor = dyn_cast<RankedTensorType>(t))
      for (int64_t extent : tensor.getShape())
        if (!ShapedType::isDynamic(extent) && extent > 1)
          staticExtents.insert(extent);
  };
  for (Type t : func.getArgumentTypes())
    addExtents(t);
  for (Operation &op : func.getBody().front())
    for (Type t : op.getResultTypes())
      addExtents(t);
  for (const HeldSize &h : held)
    staticExtents.insert(h.range.representative);
  SmallVector<SizeClass> classes = makeSizeClasses(size, bounds, staticExtents);
  // Every sample is an independent test, in the field and in f64, and
  // (with the search's `numerics`) in the kernels' precision at the
  // points numericsPoints picks: the tails' masks and fills, and a walked
  // size's longer sums, are checked where the class's own search did not
  // look.
  verify::EquivalenceOptions checks;
  checks.seed = o.seed;
  checks.numTests = 2;

  // The checks at the classes' samples are cached like searches.
  std::optional<ResultCache> cache;
  if (std::string dir = cacheDirectory(); !dir.empty())
    cache.emplace(dir);

  // Checks `program` against the function at `points` (the check's
  // verdict is cached); fails saying why in `why`. Where both compute the
  // sizes row by row, a large size is checked at a smaller one with the
  // same last tiles (rowwisePoints).
  auto checkProgram = [&](func::FuncOp program, ArrayRef<SizePoint> asked,
                          std::string &why) -> LogicalResult {
    SmallVector<SizePoint> points = rowwisePoints(asked, func, program, all);
    SmallVector<SizePoint> numericsAt;
    if (o.numerics)
      numericsAt = numericsPoints(points, program);
    std::string key;
    if (cache) {
      std::string text = search::detail::canonicalFunctionText(func) + "\n" +
                         search::detail::canonicalFunctionText(program) +
                         "\nat";
      for (const SizePoint &p : points)
        text += " {" + describePoint(p) + "}";
      text += "\nnumerics at";
      for (const SizePoint &p : numericsAt)
        text += " {" + describePoint(p) + "}";
      key = search::detail::searchCacheKey("size-class-check", text, o, 0);
    }
    std::string problem;
    if (cache && cache->lookup(key, problem))
      return success();
    if (failed(checkAtPoints(func, program, points, numericsAt, checks, why)))
      return failure();
    std::string storeError;
    if (cache && !cache->store(key, "equivalent", storeError))
      emitRemark(func.getLoc(), "result cache: cannot store an entry: ")
          << storeError;
    return success();
  };

  // One search per class: the function specialised at the class's
  // representative, searched as a static one, generalised back.
  SmallVector<func::FuncOp> programs;
  // The points each program was checked at (its own class's and, once
  // chosen there, other classes').
  llvm::DenseMap<Operation *, SmallVector<SizePoint>> checkedAt;
  std::string notes;
  llvm::raw_string_ostream note(notes);
  // Searches class `c` at its representative; `generalised` says whether
  // the program found there could be generalised, `used` whether it holds
  // over the class too.
  auto searchClass = [&](const SizeClass &c, bool &generalised,
                         bool &used) -> LogicalResult {
    auto copy = cast<func::FuncOp>(func->clone());
    // The class's search reports under the class's name.
    copy->setLoc(NameLoc::get(
        StringAttr::get(func.getContext(), "size class " + size.name + " " +
                                               std::to_string(c.lo) + ".." +
                                               std::to_string(c.hi)),
        func.getLoc()));
    copy.setName((func.getName() + "__" + size.name + "_" +
                  std::to_string(c.lo) + "_" + std::to_string(c.hi))
                     .str());
    copy.setPrivate();
    symbols.insert(copy, std::next(Block::iterator(func)));
    llvm::StringMap<int64_t> at;
    at[size.name] = c.representative;
    for (const HeldSize &h : held)
      at[h.size.name] = h.range.representative;
    if (failed(specializeSizes({cast<FunctionOpInterface>(copy.getOperation())},
                               at, func.getLoc()))) {
      copy.erase();
      return failure();
    }
    {
      // The class's search remarks say which class they are about (the
      // copy's location is the function's).
      std::string prefix = "size class " + size.name + " " +
                           std::to_string(c.lo) + ".." + std::to_string(c.hi) +
                           ": ";
      bool reemitting = false;
      ScopedDiagnosticHandler label(
          func.getContext(), [&](Diagnostic &d) -> LogicalResult {
            if (reemitting || d.getSeverity() != DiagnosticSeverity::Remark)
              return failure();
            reemitting = true;
            emitRemark(d.getLocation()) << prefix << d.str();
            reemitting = false;
            return success();
          });
      if (failed(superoptimizeFunction(copy, o, symbols)))
        return failure();
    }
    // The class's search keeps no reference of its own.
    if (auto ref = copy->getAttrOfType<FlatSymbolRefAttr>(
            mk::MKDialect::kReferenceAttrName)) {
      if (Operation *r = symbols.lookup(ref.getValue()))
        symbols.erase(r);
      copy->removeAttr(mk::MKDialect::kReferenceAttrName);
    }
    std::string why;
    std::string label =
        size.name + " " + std::to_string(c.lo) + ".." + std::to_string(c.hi);
    SizePoint searched;
    for (const auto &entry : at)
      searched[entry.getKey().str()] = entry.getValue();
    SmallVector<SizeBound> walkBounds = {{c.representative, c.hi}};
    for (const HeldSize &h : held)
      walkBounds.push_back({h.range.representative, h.range.hi});
    bool usable = succeeded(generalizeSizes(copy, func, why, walkBounds));
    generalised = usable;
    if (usable) {
      // The points check the generalised program where its tiles fall
      // otherwise, and at the values searched too: the generalisation may
      // have grown, halved or masked a tile there. A check that passed is
      // kept in the result cache.
      SmallVector<SizePoint> points = classPoints(c, size, held, copy);
      if (!llvm::is_contained(points, searched))
        points.push_back(searched);
      usable = succeeded(checkProgram(copy, points, why));
      checkedAt[copy].assign(points.begin(), points.end());
    }
    if (!usable) {
      emitRemark(func.getLoc(), "size class ")
          << label << ": the program found at " << describePoint(searched)
          << " is not used: " << why;
      symbols.erase(copy);
      return success();
    }
    programs.push_back(copy);
    used = true;
    return success();
  };
  for (const SizeClass &c : classes) {
    bool generalised = false, used = false;
    if (failed(searchClass(c, generalised, used)))
      return failure();
    // A representative that is a static extent of the function may not be
    // told from that dim by the generalisation: then again at `avoiding`.
    if (!generalised && c.avoiding) {
      SizeClass other = c;
      other.representative = c.avoiding;
      if (failed(searchClass(other, generalised, used)))
        return failure();
    }
    // A program that holds over the class's values below its tile but not
    // past it (the size held whole in one trip, a softmax per trip) is
    // passed over; where nothing found holds, the class is searched at its
    // largest value, where its tiles may not hold the size whole.
    if (!used && c.largest > c.representative) {
      SizeClass other = c;
      other.representative = c.largest;
      if (failed(searchClass(other, generalised, used)))
        return failure();
    }
  }

  // Every class takes the program, of those found and the input's own
  // form, with the least modelled time over its samples.
  SmallVector<func::FuncOp> chosen;
  for (const SizeClass &c : classes) {
    SmallVector<SizePoint> samples = classPoints(c, size, held, func);
    for (func::FuncOp p : programs)
      for (const SizePoint &v : classPoints(c, size, held, p))
        if (!llvm::is_contained(samples, v))
          samples.push_back(v);
    llvm::sort(samples);
    func::FuncOp best = func;
    FailureOr<double> bestTime = modelledTimeOver(func, samples, chip);
    // The fastest program that holds at this class's samples: one found
    // for another class is checked at those it was not checked at yet.
    SmallVector<std::pair<double, func::FuncOp>> ranked;
    for (func::FuncOp p : programs) {
      FailureOr<double> t = modelledTimeOver(p, samples, chip);
      if (succeeded(t) && (failed(bestTime) || *t < *bestTime))
        ranked.push_back({*t, p});
    }
    llvm::stable_sort(ranked, [](const auto &a, const auto &b) {
      return a.first < b.first;
    });
    for (auto [t, p] : ranked) {
      // This class's points for p's own tiles.
      SmallVector<SizePoint> &checked = checkedAt[p];
      SmallVector<SizePoint> unchecked;
      for (const SizePoint &v : classPoints(c, size, held, p))
        if (!llvm::is_contained(checked, v))
          unchecked.push_back(v);
      std::string why;
      if (!unchecked.empty() && failed(checkProgram(p, unchecked, why))) {
        emitRemark(func.getLoc(), "size class ")
            << size.name << " " << c.lo << ".." << c.hi << ": "
            << p.getName() << " is not used there: " << why;
        continue;
      }
      checked.append(unchecked.begin(), unchecked.end());
      best = p;
      bestTime = t;
      break;
    }
    note << "; " << size.name << " " << c.lo << ".." << c.hi << ": "
         << (best == func ? "unfused" : best.getName().str());
    if (succeeded(bestTime))
      note << " (" << llvm::format("%.1f", *bestTime) << " us at "
           << samples.size() << " sizes)";
    chosen.push_back(best);
  }

  // Neighbouring classes with one program merge.
  mk::SizeDispatch dispatch;
  dispatch.size = size.name;
  for (auto [i, p] : llvm::enumerate(chosen)) {
    if (i + 1 < chosen.size() && chosen[i + 1] == p)
      continue;
    dispatch.programs.push_back(FlatSymbolRefAttr::get(p.getNameAttr()));
    if (i + 1 < chosen.size())
      dispatch.bounds.push_back(classes[i].hi);
  }
  bool unchanged = dispatch.programs.size() == 1 &&
                   dispatch.programs.front().getValue() == func.getName();
  func::FuncOp reference;
  if (!unchanged && keepReference) {
    reference = func.clone();
    reference.setName((func.getName() + "_reference").str());
    // The symbol table renames it if the name is taken.
    symbols.insert(reference, Block::iterator(func));
  }
  if (dispatch.programs.size() == 1 && !unchanged) {
    // One program for every size: it becomes the body.
    auto only = cast<func::FuncOp>(
        symbols.lookup(dispatch.programs.front().getValue()));
    func.getBody().takeBody(only.getBody());
  } else if (!unchanged) {
    // The input's own form needs a function of its own to dispatch to.
    for (FlatSymbolRefAttr &p : dispatch.programs)
      if (p.getValue() == func.getName()) {
        auto unfused = cast<func::FuncOp>(func->clone());
        unfused.setName((func.getName() + "__unfused").str());
        unfused.setPrivate();
        unfused->removeAttr(mk::MKDialect::kSizeDispatchAttrName);
        symbols.insert(unfused, std::next(Block::iterator(func)));
        p = FlatSymbolRefAttr::get(unfused.getNameAttr());
      }
    func->setAttr(mk::MKDialect::kSizeDispatchAttrName,
                  dispatch.toAttr(func.getContext()));
  }
  if (reference)
    func->setAttr(mk::MKDialect::kReferenceAttrName,
                  FlatSymbolRefAttr::get(reference.getNameAttr()));
  for (func::FuncOp p : programs)
    if (!llvm::any_of(
            dispatch.programs,
            [&](FlatSymbolRefAttr r) { return r.getValue() == p.getName(); }) ||
        dispatch.programs.size() == 1)
      symbols.erase(p);
  std::string heldNote;
  for (const HeldSize &h : held)
    heldNote += ", " + h.size.describe() + " searched at " +
                std::to_string(h.range.representative);
  emitRemark(func.getLoc(), "superoptimized per size class of ")
      << size.describe() << heldNote << ": "
      << (unchanged ? "the input's own form is best in every class"
          : dispatch.programs.size() == 1
              ? "one program for every size"
              : std::to_string(dispatch.programs.size()) +
                    " programs dispatched on the size")
      << notes;
  return success();
}

} // namespace
