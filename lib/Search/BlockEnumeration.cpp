//===- BlockEnumeration.cpp - The block level --------------------*- C++ -*-===//
//
// The block level of the enumeration (Searcher.h): body ops, accumulators
// and post-loop ops of the open kernel, then closing it with its output
// savers (docs/search.md, "Enumeration").
//
//===----------------------------------------------------------------------===//

#include "Searcher.h"

using namespace mlir;

namespace mirage::search::detail {

void Searcher::blockLevel(unsigned phase) {
  if (outOfTime())
    return;
  ++stats.states;
  SKernel &k = *open;
  if (phase >= 1)
    tryClose();
  unsigned used = k.ops.size();
  if (used >= options.maxBlockOps)
    return;
  // Every body value must be consumed and at least one accumulator is
  // needed. A body op or an accumulator lowers the number of unconsumed
  // body values by at most one (a binary op consumes two and adds one);
  // likewise a post-loop op for the unsaved post-loop values.
  // An input tile that does not carry the loop axis and that no body op
  // reads may be read after the loop instead, by post-loop ops: an
  // epilogue input (a bias, a residual, a per-column scale), which a body
  // op could only add once per iteration. A kernel without a loop axis
  // reads such tiles in the body.
  auto epilogueCandidate = [&](int i) {
    return k.loopAxis && i < static_cast<int>(k.inputs.size()) &&
           !k.vals[i].variant &&
           (k.vals[i].uses == 0 || isEpilogueInput(k, i));
  };
  unsigned unconsumed = 0, unsaved = 0, deferred = 0;
  for (auto [i, v] : llvm::enumerate(k.vals)) {
    if (v.uses != 0)
      continue;
    if (v.after) {
      ++unsaved;
      continue;
    }
    ++unconsumed;
    if (epilogueCandidate(static_cast<int>(i)))
      ++deferred;
  }
  unsigned remaining = options.maxBlockOps - used;
  if (unconsumed > remaining || (phase == 2 && unconsumed > deferred) ||
      unsaved > remaining + options.maxKernelOutputs)
    return;
  LoopCtx loop{open->repF, open->loopAxis};
  auto bsize = [this](uint32_t l) { return blockSize(l); };
  bool dealHere = prog.ops.empty() && k.ops.empty();
  auto extend = [&](unsigned newPhase, ArrayRef<int> pool, bool acc) {
    SmallVector<int64_t, 8> last =
        newPhase == phase ? lastBlockKey : SmallVector<int64_t, 8>();
    forEachOp(open->vals, pool, last, acc, bsize, loop,
              [&](SOp op, SValue v, ArrayRef<int64_t> key) {
                SKernel &kk = *open;
                if (newPhase == 2 && !v.after)
                  return;
                // The first op of a kernel that opens the program is
                // where the work is dealt to the workers: one kernel
                // configuration can hold most of the search.
                if (dealHere && !ownBranch())
                  return;
                op.result = static_cast<int>(kk.vals.size());
                for (int a : op.args)
                  ++kk.vals[a].uses;
                kk.vals.push_back(v);
                kk.ops.push_back(op);
                if (newPhase == 0)
                  ++kk.numBody;
                else if (newPhase == 1)
                  ++kk.numAcc;
                SmallVector<int64_t, 8> saved = lastBlockKey;
                lastBlockKey.assign(key.begin(), key.end());
                blockLevel(newPhase);
                lastBlockKey = saved;
                SKernel &k2 = *open;
                if (newPhase == 0)
                  --k2.numBody;
                else if (newPhase == 1)
                  --k2.numAcc;
                k2.ops.pop_back();
                k2.vals.pop_back();
                for (int a : op.args)
                  --k2.vals[a].uses;
              });
  };
  SmallVector<int> before, after;
  for (auto [i, v] : llvm::enumerate(k.vals))
    (v.after ? after : before).push_back(static_cast<int>(i));
  if (phase == 0)
    extend(0, before, /*acc=*/false);
  if (phase <= 1 && !stopped)
    extend(1, before, /*acc=*/true);
  if (!after.empty() && !stopped) {
    // Post-loop ops read loop results, post-loop values and epilogue
    // inputs (a result needs one operand from after the loop).
    for (int i = 0, e = static_cast<int>(k.inputs.size()); i < e; ++i)
      if (epilogueCandidate(i))
        after.push_back(i);
    extend(2, after, /*acc=*/false);
  }
}

void Searcher::tryClose() {
  SKernel &k = *open;
  SmallVector<int, 2> outs;
  for (auto [i, v] : llvm::enumerate(k.vals)) {
    if (!v.after && v.uses == 0)
      return;
    if (v.after && v.uses == 0)
      outs.push_back(static_cast<int>(i));
  }
  if (outs.empty() || outs.size() > options.maxKernelOutputs)
    return;
  for (int o : outs) {
    const Labels &labels = k.vals[o].labels;
    // Blocks write disjoint tiles: every grid axis is a dim of the output;
    // a dim the loop walks cannot leave the kernel partially summed.
    if (k.loopAxis && llvm::is_contained(labels, k.loopAxis))
      return;
    for (uint32_t g : k.gridAxes)
      if (!llvm::is_contained(labels, g))
        return;
  }
  if (lastKernel) {
    // Each output must be a missing target output (in some order).
    if (outs.size() != missing.size())
      return;
    SmallVector<bool, 2> taken(missing.size(), false);
    for (int o : outs) {
      bool matched = false;
      for (auto [j, m] : llvm::enumerate(missing))
        if (!taken[j] && matchesOutput(k.vals[o], target.ref.vals[m])) {
          taken[j] = matched = true;
          break;
        }
      if (!matched)
        return;
    }
  }
  SmallVector<SValue, 2> results;
  for (int o : outs) {
    SValue r = k.vals[o];
    r.after = false;
    r.variant = false;
    r.uses = 0;
    if (duplicate(r, prog.vals) || duplicate(r, results))
      return;
    results.push_back(r);
  }
  k.outputs = outs;
  k.results.clear();
  for (SValue &r : results) {
    k.results.push_back(static_cast<int>(prog.vals.size()));
    prog.vals.push_back(r);
  }
  int kernelIndex = static_cast<int>(prog.kernels.size()) - 1;
  prog.ops.push_back(SKernelOp{true, SOp{}, kernelIndex});
  SKernel *saved = open;
  SmallVector<int64_t, 8> savedBlockKey = lastBlockKey;
  bool savedLast = lastKernel;
  SmallVector<int, 2> savedMissing = missing;
  uint64_t savedNeed = needVars;
  SmallVector<uint32_t, 4> savedGrid = gridCandidates,
                           savedLoop = loopForbidden;
  open = nullptr;
  kernelLevel();
  open = saved;
  lastBlockKey = savedBlockKey;
  lastKernel = savedLast;
  missing = savedMissing;
  needVars = savedNeed;
  gridCandidates = savedGrid;
  loopForbidden = savedLoop;
  prog.ops.pop_back();
  for (size_t i = 0; i < results.size(); ++i)
    prog.vals.pop_back();
  open->outputs.clear();
  open->results.clear();
}

} // namespace mirage::search::detail
