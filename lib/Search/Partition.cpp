//===- Partition.cpp - Partitioned search of whole layers -----------------===//
//
// Splits a function of many mk ops into convex subprograms, searches each
// with superoptimize() and splices the cheapest combination back
// (docs/partitioning.md). The data flows as:
//   ops -> topological orders -> intervals (outlined, keyed by canonical
//   text) -> costs (unfused, searched, by increasing length) -> dynamic
//   programming per order -> the best order's intervals -> splice.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/Partition.h"

#include "SearchCache.h"
#include "Subprograms.h"
#include "TargetImport.h"

#include "Mirage/Dialect/Kernel/IR/Kernel.h"
#include "Mirage/Search/CostModel.h"
#include "Mirage/Search/KernelCost.h"
#include "Mirage/Search/ResultCache.h"
#include "Mirage/Search/SearchJobs.h"
#include "Mirage/Transforms/AbsorbConversions.h"
#include "Mirage/Transforms/AbsorbViews.h"
#include "Mirage/Verify/Equivalence.h"

#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <mutex>

using namespace mlir;
using namespace mirage;
using namespace mirage::search;
using namespace mirage::search::detail;

namespace {

using Clock = std::chrono::steady_clock;

/// With `max-block-ops=0`, a subprogram whose search ran to completion
/// without a program faster than its unfused ops, and whose direct
/// one-kernel form does not fit the default bound (directBlockOps), is
/// searched once more with this many more block ops than the default,
/// after every subprogram not yet deepened.
constexpr unsigned kExtraBlockOps = 2;

/// The longest joined subprogram (two adjacent chosen subprograms searched
/// as one): the partition's own limit on a subprogram's ops.
constexpr unsigned kMaxJoinedOps = 16;

/// Relative slack of cost comparisons (the models' sums in another order).
constexpr double kEps = 1e-9;

/// A search's program replaces the unfused ops of its subprogram only if it
/// is modelled at least this much faster: a graph-defined kernel that spells
/// out one op and models a hair faster than the kernel the lowering wraps
/// the op into is no gain (and slower candidates are not verified at all).
constexpr double kMinGain = 0.01;

/// The cost of an interval that cannot be a subprogram: it holds an op the
/// search does not take (mk.reshape, rms_norm with a weight) with other ops.
/// Finite, so that sums of bounds stay comparable; every single op is a
/// valid interval, so no cover needs one.
constexpr double kNoSubprogram = 1e30;

//===----------------------------------------------------------------------===//
// Subprogram costs
//===----------------------------------------------------------------------===//

/// One distinct subprogram (by canonical text) and where it occurs.
struct Distinct {
  Outlined outlined;
  unsigned len = 0;
  /// Lower bound on any program for it: one launch plus its compulsory
  /// traffic at full bandwidth or the latency of one loop iteration.
  double bound = 0;
  SubprogramResult result;
  bool resolved = false;
  bool fromMemo = false;
  /// Its unfused form, to fall back on when a cached program fails the
  /// re-check.
  SubprogramResult unfused;
  /// A cached program for it failed the re-check: search it, not the cache.
  bool skipCache = false;
  /// An interval of several ops one of which the search does not take.
  bool barrier = false;
  /// The block-op bound of its next search; 0 for the search's own default.
  unsigned blockOps = 0;
  /// Searched once more with a deeper block graph (kExtraBlockOps).
  bool deepened = false;
  std::string unfusedSummary;
};

/// The block ops of the direct one-kernel form of `func`'s ops: one per op,
/// plus the accumulator of every matmul's loop and the division after an
/// rms_norm's accumulated root mean square. Fused forms need other ops as
/// well (a division per matmul a normalisation is moved past), but when
/// even this does not fit the block-op bound, the bound decided the search.
static unsigned directBlockOps(func::FuncOp func) {
  unsigned n = 0;
  for (Operation &op : func.getBody().front().without_terminator())
    n += isa<mk::MatmulOp, mk::RmsNormOp>(op) ? 2 : 1;
  return n;
}

void addStats(SuperoptimizeStats &sum, const SuperoptimizeStats &s) {
  sum.states += s.states;
  sum.pruned += s.pruned;
  sum.duplicates += s.duplicates;
  sum.candidates += s.candidates;
  sum.fingerprinted += s.fingerprinted;
  sum.fingerprintRejected += s.fingerprintRejected;
  sum.fullChecks += s.fullChecks;
  sum.verified += s.verified;
  if (sum.firstNumericsRejected.empty())
    sum.firstNumericsRejected = s.firstNumericsRejected;
  sum.numericsRejected += s.numericsRejected;
  sum.aboveCeiling += s.aboveCeiling;
  sum.saturationSeconds += s.saturationSeconds;
  sum.searchSeconds += s.searchSeconds;
  sum.verifySeconds += s.verifySeconds;
  sum.timedOut |= s.timedOut;
}

std::string formatMicros(double v) {
  std::string s;
  llvm::raw_string_ostream(s) << llvm::format("%.1f", v);
  return s;
}

} // namespace

FailureOr<PartitionResult> mirage::search::superoptimizePartitioned(
    func::FuncOp func, const PartitionOptions &options, std::string &error,
    SubprogramMemo *memo) {
  auto start = Clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  const SuperoptimizeOptions &so = options.search;
  if (options.maxOps < 1 || options.maxOps > 16) {
    error = "the most ops of a subprogram must be in [1, 16], got " +
            std::to_string(options.maxOps);
    return failure();
  }
  FailureOr<DeviceModel> device = detail::checkSearchable(func, so.chip, error);
  if (failed(device))
    return failure();
  Block &body = func.getBody().front();
  for (Operation &op : body.without_terminator()) {
    if (op.getNumRegions() || op.getNumResults() == 0) {
      error = "op '" + op.getName().getStringRef().str() +
              "' cannot be partitioned (regions or no results)";
      return failure();
    }
    for (Type t : llvm::concat<Type>(op.getOperandTypes(), op.getResultTypes()))
      if (auto rt = dyn_cast<RankedTensorType>(t);
          !rt || !rt.hasStaticShape()) {
        error = "op '" + op.getName().getStringRef().str() +
                "' has a value that is not a static tensor";
        return failure();
      }
  }
  {
    std::string costError;
    FailureOr<ProgramCost> whole = analyzeProgram(func, *device, costError);
    if (failed(whole)) {
      error = "the cost model cannot read the function: " + costError;
      return failure();
    }
  }

  PartitionResult result;
  OpGraph graph = buildGraph(body);
  unsigned n = graph.ops.size();
  result.ops = n;
  if (n == 0) {
    error = "function has no ops to partition";
    return failure();
  }
  SmallVector<SmallVector<unsigned>> orders = topologicalOrders(graph);
  result.orders = orders.size();
  unsigned maxLen = std::min(options.maxOps, n);
  unsigned waveSize = std::max(1u, options.wave);

  // Every interval of every order, outlined; identical ones share one
  // Distinct. at[o][s][len - 1] is the Distinct of interval [s, s + len).
  std::vector<Distinct> distinct;
  llvm::StringMap<unsigned> byText;
  // The Distinct of interval [s, s + len) of order o, new or shared: its
  // lower bound and unfused cost (the upper bound), or a memoised result;
  // fails if the cost model cannot read it.
  auto distinctOf = [&](unsigned o, unsigned s,
                        unsigned len) -> FailureOr<unsigned> {
    // The interval's ops in body order (a topological order of any subset),
    // so that one set of ops from several orders is one subprogram.
    SmallVector<unsigned> members(orders[o].begin() + s,
                                  orders[o].begin() + s + len);
    llvm::sort(members);
    SmallVector<Operation *> ops;
    for (unsigned k : members)
      ops.push_back(graph.ops[k]);
    Outlined out = outline(ops, so.smemLimit);
    // An interval that reads, through layout ops left outside it, a value it
    // computes would be a kernel that depends on itself: never a subprogram.
    // (Through conversions alone it reads the value itself: outline.)
    llvm::SmallPtrSet<Operation *, 8> inside(ops.begin(), ops.end());
    if (llvm::any_of(ops, [&](Operation *op) {
          return llvm::any_of(op->getOperands(), [&](Value v) {
            Value read = throughConversions(v, inside);
            return !inside.contains(read.getDefiningOp()) &&
                   inside.contains(producerThrough(read));
          });
        })) {
      Distinct d;
      d.len = len;
      d.outlined = std::move(out);
      d.resolved = d.barrier = true;
      d.result.note = "reads its own result through layout ops";
      d.bound = d.result.micros = d.result.unfusedMicros = kNoSubprogram;
      distinct.push_back(std::move(d));
      return static_cast<unsigned>(distinct.size() - 1);
    }
    auto [it, inserted] = byText.try_emplace(out.text, distinct.size());
    if (!inserted)
      return it->second;
    Distinct d;
    d.len = len;
    d.bound = device->launchMicros +
              std::max(out.bytes / device->bytesPerSecond * 1e6,
                       device->firstLoadMicros + device->iterationMicros);
    for (Operation *op : ops)
      d.unfusedSummary += (d.unfusedSummary.empty() ? "" : "; ") +
                          op->getName().getStringRef().str();
    d.outlined = std::move(out);
    // An op the search does not take stays on its own, as it is (its
    // singleton is costed unfused and never searched).
    if (llvm::any_of(ops, [](Operation *op) {
          return !detail::isSearchableOp(op);
        })) {
      d.resolved = true;
      d.result.note = "the search does not take this op";
      d.barrier = len > 1;
    }
    if (d.barrier) {
      d.bound = d.result.micros = d.result.unfusedMicros = kNoSubprogram;
    } else {
      std::string costError;
      FailureOr<ProgramCost> unfused =
          analyzeProgram(d.outlined.func, *device, costError);
      if (failed(unfused)) {
        error = "the cost model cannot read a subprogram: " + costError;
        return failure();
      }
      SubprogramResult &r = d.result;
      r.unfusedMicros = r.micros = unfused->totalMicros;
      r.unfusedKernels = r.kernels = unfused->kernels.size();
      r.summary = d.unfusedSummary;
      d.bound = std::min(d.bound, r.unfusedMicros);
      d.unfused = r;
      if (memo) {
        auto m = memo->find(d.outlined.text);
        if (m != memo->end()) {
          r = m->second;
          d.resolved = d.fromMemo = true;
        }
      }
    }
    distinct.push_back(std::move(d));
    return it->second;
  };
  std::vector<std::vector<SmallVector<unsigned, 8>>> at(orders.size());
  for (unsigned len = 1; len <= maxLen; ++len)
    for (unsigned o = 0; o < orders.size(); ++o) {
      at[o].resize(n);
      for (unsigned s = 0; s + len <= n; ++s) {
        FailureOr<unsigned> id = distinctOf(o, s, len);
        if (failed(id))
          return failure();
        at[o][s].push_back(*id);
        ++result.intervals;
      }
    }
  // Joined intervals, longer than maxLen: adjacent chosen subprograms
  // searched as one (joinChosen below).
  struct Joined {
    unsigned order, start, len, id;
  };
  SmallVector<Joined> joined;
  auto idOf = [&](unsigned o, unsigned s, unsigned len) -> unsigned {
    if (len <= maxLen)
      return at[o][s][len - 1];
    for (const Joined &j : joined)
      if (j.order == o && j.start == s && j.len == len)
        return j.id;
    llvm_unreachable("an interval that is neither short nor joined");
  };

  // Where each distinct subprogram occurs.
  std::vector<SmallVector<std::pair<unsigned, unsigned>, 2>> occurs(
      distinct.size());
  for (unsigned o = 0; o < orders.size(); ++o)
    for (unsigned s = 0; s < n; ++s)
      for (auto [l, id] : llvm::enumerate(at[o][s]))
        occurs[id].emplace_back(o, s);

  // Branch and bound over the subprograms. `lo` is the cost of a subprogram
  // as far as known (its lower bound until resolved), `hi` what is surely
  // achievable (unfused until searched). Each round computes, per order,
  // the cheapest covers of every prefix and suffix under `lo` and the best
  // total under `hi`; an unresolved subprogram whose best total under `lo`
  // cannot beat the best under `hi` is resolved unfused, and the one that
  // promises the most is searched next.
  auto lo = [&](unsigned id) {
    const Distinct &d = distinct[id];
    return d.resolved ? d.result.micros : d.bound;
  };
  auto hi = [&](unsigned id) { return distinct[id].result.micros; };
  constexpr double kInf = std::numeric_limits<double>::max();
  auto cover = [&](unsigned o, auto cost, bool forward) {
    SmallVector<double> f(n + 1, kInf);
    if (forward) {
      f[0] = 0;
      for (unsigned p = 1; p <= n; ++p) {
        for (unsigned l = 1; l <= std::min(p, maxLen); ++l)
          f[p] = std::min(f[p], f[p - l] + cost(at[o][p - l][l - 1]));
        for (const Joined &j : joined)
          if (j.order == o && j.start + j.len == p)
            f[p] = std::min(f[p], f[j.start] + cost(j.id));
      }
    } else {
      f[n] = 0;
      for (unsigned p = n; p-- > 0;) {
        for (unsigned l = 1; l <= std::min(n - p, maxLen); ++l)
          f[p] = std::min(f[p], cost(at[o][p][l - 1]) + f[p + l]);
        for (const Joined &j : joined)
          if (j.order == o && j.start == p)
            f[p] = std::min(f[p], cost(j.id) + f[p + j.len]);
      }
    }
    return f;
  };
  std::optional<ResultCache> cache;
  if (!options.cacheDirectory.empty())
    cache.emplace(options.cacheDirectory);
  unsigned subKernelOps = std::min(so.maxKernelOps, options.maxKernelOps);
  // The options of a subprogram's search, before its budget and cost
  // ceiling. A program of one kernel-level op reads every argument in that
  // kernel, so the bound on a kernel's inputs is lifted to the subprogram's
  // argument count: the enumeration has a single choice of inputs then, and
  // a LayerNorm's affine tail with its matmul (5 arguments) is searchable.
  auto searchOptionsOf = [&](const Distinct &d) {
    SuperoptimizeOptions sub = so;
    sub.maxKernelOps = subKernelOps;
    if (d.blockOps)
      sub.maxBlockOps = d.blockOps;
    if (subKernelOps == 1)
      sub.maxKernelInputs = std::max<unsigned>(
          sub.maxKernelInputs, func::FuncOp(d.outlined.func).getNumArguments());
    return sub;
  };
  // A subprogram's entry: its text and the options of its search (what a
  // search adds per subprogram, its budget and cost ceiling, is not in it).
  auto cacheKeyOf = [&](const Distinct &d) {
    return detail::searchCacheKey("partition-subprogram", d.outlined.text,
                                  searchOptionsOf(d), subKernelOps);
  };
  // A cache hit replaces the search of `d`. A cached program is a hint: it
  // is re-checked with a finite-field test against the subprogram only if
  // the cover chooses it (recheckChosen), since most subprograms are not
  // chosen and a test at the real shapes costs seconds.
  auto lookupCache = [&](Distinct &d, StringRef key) {
    std::string problem;
    std::optional<detail::CachedOutcome> cached =
        detail::lookupOutcome(*cache, key, func.getContext(), problem);
    if (!cached) {
      if (!problem.empty())
        result.cacheProblems.push_back(problem);
      return false;
    }
    // Only a program faster than the unfused ops is ever stored with one.
    SubprogramResult r = d.result;
    if (!cached->program.empty() && !(cached->micros < r.unfusedMicros)) {
      result.cacheProblems.push_back("cached program in " +
                                     cache->entryPath(key) +
                                     " is not faster than the unfused ops");
      return false;
    }
    r.kernels = cached->program.empty() ? r.unfusedKernels : cached->kernels;
    r.micros = cached->program.empty() ? r.unfusedMicros : cached->micros;
    r.summary = cached->summary;
    r.note = cached->note;
    r.program = cached->program;
    r.structure = cached->structure;
    r.fromCache = true;
    r.recheckPending = !r.program.empty();
    d.result = std::move(r);
    ++result.cacheHits;
    if (memo)
      (*memo)[d.outlined.text] = d.result;
    return true;
  };
  // Queues a deeper search of `d` (kExtraBlockOps) if its search ran to
  // completion (a cached outcome did) without a program.
  auto deepenIfFruitless = [&](Distinct &d, bool complete) {
    if (!complete || d.deepened || d.len < 2 || so.maxBlockOps != 0 ||
        !d.result.program.empty())
      return;
    unsigned shallow = defaultMaxBlockOps(d.outlined.func);
    if (directBlockOps(d.outlined.func) <= shallow)
      return;
    d.blockOps = std::min(16u, shallow + kExtraBlockOps);
    d.deepened = true;
    d.resolved = false;
    d.result.fromCache = false;
  };
  // The result of distinct[id] that its searched job's outcome gives, and
  // whether it may be cached (an outcome the budget cut short is not
  // stored: a larger budget may do better).
  auto settle = [&](const SearchJob &job,
                    unsigned id) -> std::pair<SubprogramResult, bool> {
    SubprogramResult r = distinct[id].result;
    r.searched = true;
    r.seconds = job.seconds;
    const FailureOr<SuperoptimizeResult> &found = job.found;
    if (failed(found)) {
      r.note = job.error;
      return {std::move(r), !job.transient};
    }
    bool cacheable =
        found->stats.budgetStop == BudgetStop::None || !found->program.empty();
    if (found->program.empty() && found->stats.aboveCeiling > 0 &&
        found->stats.fullChecks == 0) {
      r.note = "no gain: " + std::to_string(found->stats.aboveCeiling) +
               " candidate(s), none modelled below the unfused " +
               formatMicros(r.unfusedMicros) + " us";
    } else if (found->program.empty()) {
      r.note = "no verified program";
    } else if (!(found->modelledMicros < r.unfusedMicros * (1 - kMinGain))) {
      r.note = "no gain: the search's " + found->summary + " models " +
               formatMicros(found->modelledMicros) + " us";
    } else {
      r.program = found->program;
      r.structure = found->structure;
      r.summary = found->summary;
      r.kernels = found->kernels;
      r.micros = found->modelledMicros;
    }
    return {std::move(r), cacheable};
  };
  // Stores a job's result under `key` as soon as the job is done (from the
  // runner's threads), so that a run stopped in the middle of a wave keeps
  // the searches that finished.
  std::mutex storeMutex;
  auto storeJob = [&](const SearchJob &job, unsigned id,
                      const std::string &key) {
    if (!cache || job.outOfBudget)
      return;
    auto [r, cacheable] = settle(job, id);
    if (!cacheable)
      return;
    std::lock_guard<std::mutex> lock(storeMutex);
    std::string storeError;
    if (!cache->store(key,
                      detail::formatOutcome({r.program, r.structure, r.summary,
                                             r.note, r.kernels, r.micros}),
                      storeError))
      result.cacheProblems.push_back("cannot store an entry: " + storeError);
  };
  // Records the outcome of `job`, the search of distinct[id] (its
  // subprogram's result, the search log and the memo), in the wave's order.
  unsigned waves = 0;
  auto finishJob = [&](SearchJob &job, unsigned id) {
    Distinct &d = distinct[id];
    if (job.outOfBudget) {
      d.result.note = "time budget";
      ++result.skippedByBudget;
      return;
    }
    ++result.searched;
    d.result = settle(job, id).first;
    const SubprogramResult &r = d.result;
    if (succeeded(job.found))
      addStats(result.stats, job.found->stats);
    PartitionResult::Search log;
    log.ops = d.unfusedSummary;
    log.maxBlockOps = d.blockOps;
    log.wave = waves;
    log.budget = job.options.timeBudget;
    log.seconds = r.seconds;
    log.outcome = r.program.empty()
                      ? "unfused: " + r.note
                      : r.summary + ", modelled " + formatMicros(r.micros) +
                            " us (unfused " + formatMicros(r.unfusedMicros) +
                            " us)";
    result.searches.push_back(std::move(log));
    if (memo)
      (*memo)[d.outlined.text] = r;
    deepenIfFruitless(d, succeeded(job.found) &&
                             job.found->stats.budgetStop == BudgetStop::None);
  };
  // Searches (or bounds away) every unresolved subprogram, a wave of jobs
  // at a time: the `wave` most promising, searched in parallel over the
  // threads and merged in their order, so that what is searched and chosen
  // does not depend on the thread count (docs/partitioning.md, "Jobs").
  auto searchUnresolved = [&] {
    while (true) {
      double best = kInf;
      std::vector<SmallVector<double>> pre, suf;
      for (unsigned o = 0; o < orders.size(); ++o) {
        best = std::min(best, cover(o, hi, true)[n]);
        pre.push_back(cover(o, lo, true));
        suf.push_back(cover(o, lo, false));
      }
      struct Pick {
        unsigned id;
        double potential, gain;
      };
      SmallVector<Pick> picks;
      unsigned unresolvedOps = 0;
      for (auto [id, d] : llvm::enumerate(distinct)) {
        if (d.resolved)
          continue;
        double with = kInf;
        for (auto [o, s] : occurs[id])
          with = std::min(with, pre[o][s] + d.bound + suf[o][s + d.len]);
        double potential = best - with;
        double gain = d.result.unfusedMicros - d.bound;
        if (potential <= kEps * best ||
            gain <= kMinGain * d.result.unfusedMicros) {
          d.result.note =
              d.len > 1 ? "its lower bound cannot improve the function" : "";
          d.resolved = true;
          ++result.skippedByBound;
          continue;
        }
        unresolvedOps += d.len;
        picks.push_back({static_cast<unsigned>(id), potential, gain});
      }
      if (picks.empty())
        break;
      // Deeper searches go after every shallow one; then the largest
      // potential improvement, the larger gain, the earlier subprogram.
      bool shallowLeft = llvm::any_of(
          picks, [&](const Pick &p) { return !distinct[p.id].deepened; });
      if (shallowLeft)
        llvm::erase_if(picks,
                       [&](const Pick &p) { return distinct[p.id].deepened; });
      llvm::sort(picks, [](const Pick &a, const Pick &b) {
        if (a.potential != b.potential)
          return a.potential > b.potential;
        if (a.gain != b.gain)
          return a.gain > b.gain;
        return a.id < b.id;
      });
      if (picks.size() > waveSize)
        picks.resize(waveSize);
      // Each job a share of the budget left at the wave's start: in
      // proportion to length over the subprograms still unresolved, but at
      // least a quarter (most of them will be bounded away, and a search
      // that finishes early leaves the rest to the next). A job that starts
      // later is cut to what is left of the function's budget.
      double remaining = so.timeBudget - elapsed();
      SmallVector<double> budgets;
      for (const Pick &p : picks)
        budgets.push_back(
            remaining *
            std::max(0.25, double(distinct[p.id].len) / unresolvedOps));
      if (budgets.front() < kMinSearchSeconds) {
        for (Distinct &e : distinct)
          if (!e.resolved) {
            e.resolved = true;
            e.result.note = "time budget";
            ++result.skippedByBudget;
          }
        break;
      }
      std::vector<SearchJob> jobs;
      // The subprogram and cache key of each job.
      SmallVector<std::pair<unsigned, std::string>> ofJob;
      for (auto [p, budget] : llvm::zip(picks, budgets)) {
        Distinct &d = distinct[p.id];
        d.resolved = true;
        if (budget < kMinSearchSeconds) {
          d.result.note = "time budget";
          ++result.skippedByBudget;
          continue;
        }
        SearchJob job;
        job.func = d.outlined.func;
        job.name = d.unfusedSummary;
        job.options = searchOptionsOf(d);
        job.options.timeBudget = budget;
        // Only a program faster than the unfused ops can be chosen: slower
        // candidates are not verified at all.
        job.options.costCeilingMicros = d.result.unfusedMicros * (1 - kMinGain);
        std::string key;
        if (cache) {
          key = cacheKeyOf(d);
          if (!d.skipCache && lookupCache(d, key)) {
            deepenIfFruitless(d, /*complete=*/true);
            continue;
          }
        }
        jobs.push_back(std::move(job));
        ofJob.push_back({p.id, std::move(key)});
      }
      auto budgetLeft = [&] { return so.timeBudget - elapsed(); };
      ++waves;
      auto finished = [&](unsigned j) {
        storeJob(jobs[j], ofJob[j].first, ofJob[j].second);
      };
      if (SearchJobRunner *runner = getSearchJobRunner())
        runner->run(jobs, budgetLeft, finished);
      else
        ThreadJobRunner(so.threads).run(jobs, budgetLeft, finished);
      for (auto [job, of] : llvm::zip(jobs, ofJob))
        finishJob(job, of.first);
    }
  };

  // Dynamic programming per order; the cheapest order wins (the first on
  // ties).
  unsigned bestOrder = 0;
  SmallVector<unsigned> bestCuts;
  auto chooseCover = [&] {
    bestOrder = 0;
    bestCuts.clear();
    double bestTotal = std::numeric_limits<double>::max();
    for (unsigned o = 0; o < orders.size(); ++o) {
      SmallVector<double> f(n + 1, std::numeric_limits<double>::max());
      SmallVector<unsigned> from(n + 1, 0);
      f[0] = 0;
      for (unsigned p = 1; p <= n; ++p) {
        auto relax = [&](unsigned s, unsigned id) {
          double c = f[s] + distinct[id].result.micros;
          if (c < f[p]) {
            f[p] = c;
            from[p] = s;
          }
        };
        for (unsigned l = 1; l <= std::min(p, maxLen); ++l)
          relax(p - l, at[o][p - l][l - 1]);
        for (const Joined &j : joined)
          if (j.order == o && j.start + j.len == p)
            relax(j.start, j.id);
      }
      if (f[n] < bestTotal * (1 - kEps)) {
        bestTotal = f[n];
        bestOrder = o;
        bestCuts.clear();
        for (unsigned p = n; p > 0; p = from[p])
          bestCuts.push_back(from[p]);
        std::reverse(bestCuts.begin(), bestCuts.end());
        bestCuts.push_back(n);
      }
    }
  };

  // Re-checks the cached programs of the chosen cover. One that fails is
  // dropped with a problem: its subprogram falls back to the unfused ops
  // and is searched again (not looked up), and the cover is chosen anew.
  auto recheckChosen = [&] {
    bool dropped = false;
    for (unsigned k = 0; k + 1 < bestCuts.size(); ++k) {
      unsigned s = bestCuts[k], len = bestCuts[k + 1] - s;
      Distinct &d = distinct[idOf(bestOrder, s, len)];
      if (!d.result.recheckPending)
        continue;
      // Only a lookup sets recheckPending, so there is a cache.
      std::string problem;
      ++result.cacheRechecks;
      detail::Recheck how = detail::recheckCachedProgram(
          d.result.program, d.result.structure, cache->entryPath(cacheKeyOf(d)),
          d.outlined.func, so, problem);
      if (how != detail::Recheck::Failed) {
        result.cacheReducedRechecks += how == detail::Recheck::AtReducedShapes;
        d.result.recheckPending = false;
      } else {
        result.cacheProblems.push_back(problem);
        result.cacheHits -= d.result.fromCache && !d.fromMemo;
        d.result = d.unfused;
        d.resolved = d.fromMemo = false;
        d.skipCache = dropped = true;
      }
      if (memo)
        (*memo)[d.outlined.text] = d.result;
    }
    return dropped;
  };
  // Joins two adjacent subprograms of the chosen cover into one interval
  // longer than maxLen (docs/partitioning.md, "Joined subprograms"): a
  // masked attention of 8 ops is cut by the bound of 6 into two kernels
  // that one kernel does better. Only a join whose one-kernel form can fit
  // the block-op bound (an op each and an accumulator; at max-block-ops=0
  // the default bound deepened by up to kExtraBlockOps) is added; the
  // branch and bound then searches it like any interval, or bounds it
  // away. Returns whether a join is left to search.
  auto joinChosen = [&]() -> FailureOr<bool> {
    bool added = false;
    // The cuts change as joins are added; the chosen cover's stays.
    SmallVector<unsigned> cuts = bestCuts;
    unsigned o = bestOrder;
    for (unsigned k = 0; k + 2 < cuts.size(); ++k) {
      unsigned s = cuts[k], len = cuts[k + 2] - s;
      if (len <= maxLen || len > kMaxJoinedOps ||
          llvm::any_of(joined, [&](const Joined &j) {
            return j.order == o && j.start == s && j.len == len;
          }))
        continue;
      // Its one-kernel form has an op each and an accumulator at least.
      unsigned need = len + 1, blockOps = so.maxBlockOps;
      bool deeper = false;
      if (blockOps == 0) {
        // defaultMaxBlockOps of the joined subprogram, deepened by up to
        // kExtraBlockOps as a fruitless search would be (a scaled causal
        // attention: 9 ops and an accumulator).
        bool hasMax = false;
        for (unsigned q = s; q < s + len; ++q)
          hasMax |= isa<mk::ReduceMaxOp>(graph.ops[orders[o][q]]);
        blockOps = defaultMaxBlockOps(hasMax);
        deeper = need > blockOps;
        if (deeper)
          blockOps = std::min(16u, blockOps + kExtraBlockOps);
      }
      if (need > blockOps)
        continue;
      FailureOr<unsigned> id = distinctOf(o, s, len);
      if (failed(id))
        return failure();
      // A deeper join is searched after the shallow searches, with just
      // the block ops its one-kernel form needs.
      if (Distinct &d = distinct[*id]; deeper && !d.resolved && !d.deepened) {
        d.blockOps = need;
        d.deepened = true;
      }
      joined.push_back({o, s, len, *id});
      if (*id >= occurs.size())
        occurs.resize(*id + 1);
      occurs[*id].emplace_back(o, s);
      added |= !distinct[*id].resolved;
    }
    return added;
  };
  while (true) {
    do {
      searchUnresolved();
      chooseCover();
    } while (recheckChosen());
    if (!options.joins)
      break;
    FailureOr<bool> more = joinChosen();
    if (failed(more))
      return failure();
    if (!*more)
      break;
  }
  result.considered = distinct.size();

  // Splice into a clone, in a module with the function's shared-memory
  // limit so that the verifier checks the same limit; the function takes
  // the clone's body only if it verifies.
  MLIRContext *ctx = func.getContext();
  OpBuilder b(ctx);
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(func.getLoc());
  (*scratch)->setAttr(mk::MKDialect::kSmemLimitAttrName,
                      b.getI64IntegerAttr(so.smemLimit));
  func::FuncOp clone = func.clone();
  scratch->getBody()->push_back(clone);
  Block &cbody = clone.getBody().front();
  SmallVector<Operation *> cops = partitionedOps(cbody);
  Operation *terminator = cbody.getTerminator();
  const SmallVector<unsigned> &order = orders[bestOrder];
  struct Piece {
    SmallVector<Operation *> ops;
    SmallVector<Value> inputs, outputs;
    unsigned id;
  };
  SmallVector<Piece> pieces;
  for (unsigned k = 0; k + 1 < bestCuts.size(); ++k) {
    Piece piece;
    unsigned s = bestCuts[k], len = bestCuts[k + 1] - s;
    piece.id = idOf(bestOrder, s, len);
    SmallVector<unsigned> members(order.begin() + s, order.begin() + s + len);
    llvm::sort(members);
    ChosenSubprogram chosen{
        {}, {}, graph.ops[members.front()]->getLoc(), {}, false};
    for (unsigned q : members) {
      piece.ops.push_back(cops[q]);
      chosen.positions.push_back(q);
      chosen.opNames.push_back(graph.ops[q]->getName().getStringRef().str());
    }
    const Distinct &d = distinct[piece.id];
    chosen.result = d.result;
    chosen.deduplicated =
        d.fromMemo ||
        llvm::any_of(pieces, [&](const Piece &p) { return p.id == piece.id; });
    if (chosen.deduplicated)
      ++result.deduplicated;
    result.subprograms.push_back(std::move(chosen));
    pieces.push_back(std::move(piece));
  }
  // Every boundary as the search saw it, before any splice: a program may
  // return one value for two outputs (two equal statistics computed once),
  // and a later piece's boundary taken after the splice would then have one
  // input fewer than its program's arguments.
  for (Piece &piece : pieces)
    boundary(piece.ops, piece.inputs, piece.outputs);
  DenseMap<Value, Value> spliced; // an output -> the value that replaced it
  for (Piece &piece : pieces) {
    for (Value &v : piece.inputs)
      v = spliced.lookup_or(v, v);
    const SubprogramResult &r = distinct[piece.id].result;
    if (r.program.empty()) {
      for (Operation *op : piece.ops)
        op->moveBefore(terminator);
      continue;
    }
    Block &bbody = r.program.func().getBody().front();
    if (bbody.getNumArguments() != piece.inputs.size() ||
        bbody.getTerminator()->getNumOperands() != piece.outputs.size()) {
      error = "internal error: a subprogram's program has another signature";
      return failure();
    }
    // A program in another element type than a boundary value's storage
    // type (outline) reads and writes it through conversions, which
    // absorbConversions below moves into its kernels.
    IRMapping map;
    b.setInsertionPoint(terminator);
    auto stored = [&](Value v, Type t) -> Value {
      if (v.getType() == t)
        return v;
      return mk::ConvertOp::create(b, v.getLoc(), t, v).getResult();
    };
    for (auto [arg, v] : llvm::zip(bbody.getArguments(), piece.inputs))
      map.map(arg, stored(v, arg.getType()));
    for (Operation &op : bbody.without_terminator())
      b.clone(op, map);
    SmallVector<Operation *> dead = withConversionsBetween(piece.ops);
    for (auto [v, r] :
         llvm::zip(piece.outputs, bbody.getTerminator()->getOperands())) {
      Value now = stored(map.lookupOrDefault(r), v.getType());
      v.replaceAllUsesWith(now);
      spliced[v] = now;
    }
    eraseUnused(dead);
    if (llvm::any_of(ArrayRef(dead).take_front(piece.ops.size()),
                     [](Operation *op) { return op != nullptr; })) {
      error = "internal error: a spliced subprogram's op is still used";
      return failure();
    }
  }
  // The layout ops stayed where they were, the pieces were appended: put
  // every op after its operands, then fold the layout ops between the
  // spliced kernels into their views.
  if (!sortTopologically(&cbody)) {
    error = "internal error: the spliced function has a cycle";
    return failure();
  }
  absorbConversions(clone);
  auto conversions = [](func::FuncOp f) {
    return static_cast<unsigned>(
        llvm::range_size(f.getBody().front().getOps<mk::ConvertOp>()));
  };
  result.conversionsBefore = conversions(func);
  result.conversionsAfter = conversions(clone);
  result.absorbedViews = absorbViews(clone.getBody());
  if (failed(mlir::verify(clone))) {
    error = "internal error: the spliced function does not verify";
    return failure();
  }
  std::string costError;
  FailureOr<ProgramCost> after = analyzeProgram(clone, *device, costError);
  FailureOr<ProgramCost> before = analyzeProgram(func, *device, costError);
  if (failed(after) || failed(before)) {
    error =
        "internal error: the spliced function cannot be modelled: " + costError;
    return failure();
  }
  result.micros = after->totalMicros;
  result.kernels = after->kernels.size();
  result.unfusedMicros = before->totalMicros;
  result.unfusedKernels = before->kernels.size();
  func.getBody().takeBody(clone.getBody());
  result.seconds = elapsed();
  return result;
}
