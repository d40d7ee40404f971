//===- Superoptimizer.cpp - Multi-level uGraph search -----------*- C++ -*-===//
//
// The driver of the search (docs/search.md, "Stages"): import the target,
// enumerate candidates level by level over the number of kernel-level ops,
// rank them, and verify them best first within the time budget. Each stage
// lives in its own file of lib/Search:
//
//   TargetImport -> Enumeration (OpSemantics, Instantiation) -> Materialize
//   -> Ranking -> Verification
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/Superoptimizer.h"

#include "Enumeration.h"
#include "Materialize.h"
#include "Ranking.h"
#include "SearchIR.h"
#include "TargetImport.h"
#include "Verification.h"

#include "Mirage/Dialect/Kernel/IR/Kernel.h"

#include <algorithm>
#include <chrono>

using namespace mlir;
using namespace mirage;
using namespace mirage::search;
using namespace mirage::search::detail;

// The bound of `max-block-ops=0`: 8, the ops of the largest of the paper's
// one-kernel programs (qknorm_gqa), or 9 for a target with a maximum. The
// online-softmax form of a max-subtracted attention needs the step maximum,
// its subtraction and a row sum besides the max-free form's ops, and
// accum_rescaled_sum has no row-summing variant (9 ops: two matmuls,
// reduce_max, sub, exp, reduce_sum, two rescaled sums, the division). A
// target has a maximum exactly when its vocabulary has reduce_max and so
// accum_rescaled_sum (TargetImport.cpp).
unsigned mirage::search::defaultMaxBlockOps(bool hasMaximum) {
  return hasMaximum ? 9 : 8;
}

unsigned mirage::search::defaultMaxBlockOps(func::FuncOp func) {
  bool hasMax = false;
  func.walk([&](mk::ReduceMaxOp) { hasMax = true; });
  return defaultMaxBlockOps(hasMax);
}

FailureOr<SuperoptimizeResult>
mirage::search::superoptimize(func::FuncOp func,
                              const SuperoptimizeOptions &requested,
                              std::string &error) {
  SuperoptimizeOptions options = requested;
  // The budget counts from here: saturation, enumeration and verification.
  auto searchStart = Clock::now();
  auto at = [&](double seconds) {
    return searchStart + std::chrono::duration_cast<Clock::duration>(
                             std::chrono::duration<double>(seconds));
  };
  Clock::time_point enumDeadline = at(options.timeBudget * kEnumerationShare);
  Clock::time_point deadline = at(options.timeBudget);
  SuperoptimizeResult result;
  SuperoptimizeStats &stats = result.stats;
  Target target;
  if (failed(importTarget(func, options, target, error)))
    return failure();
  if (options.maxBlockOps == 0)
    options.maxBlockOps = defaultMaxBlockOps(func);
  if (failed(checkTargetDecidable(target, options.seed, error)))
    return failure();
  if (target.oracle) {
    const SaturationReport &rep = target.oracle->getReport();
    stats.egraphNodes = rep.nodes;
    stats.egraphClasses = rep.classes;
    stats.saturationSeconds = rep.seconds;
    stats.pruningDisabled = !target.prune;
  }

  // Degenerate targets: when every output is (or may equal) an argument,
  // the trivial program that returns the arguments is verified first.
  double verifySpent = 0;
  auto verifyPool = [&](std::vector<Candidate> &pool) {
    auto verifyStart = Clock::now();
    if (options.auditFingerprints)
      auditFingerprints(func, target, options, pool, stats);
    Clock::time_point until = deadline;
    if (options.verifyBudget > 0)
      until = std::min(until, verifyStart +
                                  std::chrono::duration_cast<Clock::duration>(
                                      std::chrono::duration<double>(
                                          options.verifyBudget - verifySpent)));
    verifyInOrder(func, target, options, pool, until, result);
    pool.clear();
    double spent =
        std::chrono::duration<double>(Clock::now() - verifyStart).count();
    verifySpent += spent;
    stats.verifySeconds += spent;
  };
  {
    std::vector<Candidate> trivial = trivialCandidates(target, 16);
    if (!trivial.empty()) {
      verifyPool(trivial);
      if (!result.program.empty()) {
        stats.trivial = true;
        return result;
      }
    }
    if (target.argOutputs) {
      if (stats.budgetStop != BudgetStop::None)
        return result;
      error = "a result is a function argument and the others are not all "
              "arguments";
      return failure();
    }
  }

  // Deepening over the number of kernel-level ops. A search with one more
  // op costs far more, so it runs only when nothing was found yet or, when
  // ranking by modelled time, when a lower bound on such programs (the
  // launches and the compulsory traffic at full bandwidth), times
  // `deepenFactor`, beats the best candidate so far.
  // Candidates of all depths are then verified together in cost order.
  std::vector<Candidate> pool;
  for (unsigned numOps = 1; numOps <= options.maxKernelOps && !stats.timedOut;
       ++numOps) {
    auto enumStart = Clock::now();
    std::vector<Candidate> found =
        enumerate(target, options, numOps, enumDeadline, stats);
    if (stats.timedOut && stats.budgetStop == BudgetStop::None)
      stats.budgetStop = BudgetStop::Enumeration;
    for (Candidate &c : found) {
      c.target = &target;
      // A candidate a GPU has timed ranks by its measured time.
      applyMeasuredTime(c, options);
      pool.push_back(std::move(c));
    }
    rankCandidates(pool, options.rankByKernels);
    if (options.costCeilingMicros > 0) {
      size_t before = pool.size();
      llvm::erase_if(pool, [&](const Candidate &c) {
        return c.micros >= options.costCeilingMicros;
      });
      stats.aboveCeiling += before - pool.size();
    }
    stats.searchSeconds +=
        std::chrono::duration<double>(Clock::now() - enumStart).count();
    if (pool.empty())
      continue;
    double bound = lowerBoundMicros(target, numOps + 1);
    // Ranked by kernel count first, a deeper program never wins.
    if (!options.rankByKernels && numOps < options.maxKernelOps &&
        options.deepenFactor > 0 &&
        bound * options.deepenFactor < pool.front().micros) {
      ++stats.deepened;
      continue;
    }
    verifyPool(pool);
    if (!result.program.empty())
      break;
  }
  if (result.program.empty() && !pool.empty())
    verifyPool(pool);
  return result;
}
