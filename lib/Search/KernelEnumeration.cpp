//===- KernelEnumeration.cpp - The kernel level ------------------*- C++ -*-===//
//
// The kernel level of the enumeration (Searcher.h): append a pre-defined
// op, or open a graph-defined kernel over chosen inputs, loop axis and grid
// axes (docs/search.md, "Enumeration").
//
//===----------------------------------------------------------------------===//

#include "Searcher.h"

using namespace mlir;

namespace mirage::search::detail {

/// The divisor > 1 of `n` whose quotient is closest to 64 (a typical tile):
/// the representative loop range or grid size of the structural search.
static int64_t representativeSplit(int64_t n) {
  int64_t best = n;
  for (int64_t d : divisorsAbove1(n))
    if (std::abs(n / d - 64) < std::abs(n / best - 64))
      best = d;
  return best;
}

void Searcher::kernelLevel() {
  if (outOfTime())
    return;
  ++stats.states;
  if (checkComplete())
    return;
  if (prog.ops.size() >= numOps)
    return;
  bool top = prog.ops.empty();
  // The last op must produce what is still missing. Without pruning a
  // value of the right shape proves nothing, so the last op is free.
  missing.clear();
  bool last = target.prune && prog.ops.size() + 1 == numOps;
  if (last)
    for (int o : target.refOutputs) {
      const SValue &want = target.ref.vals[o];
      // An output returned twice (or two equal outputs) is produced once.
      bool repeated = llvm::any_of(missing, [&](int m) {
        return matchesOutput(target.ref.vals[m], want);
      });
      if (!repeated && findOutput(want) < 0)
        missing.push_back(o);
    }
  SmallVector<int> pool(prog.vals.size());
  std::iota(pool.begin(), pool.end(), 0);
  LoopCtx noLoop;
  auto ksize = [this](uint32_t l) { return kernelSize(l); };
  // A copy: the recursion reassigns lastKernelKey (and may reallocate it).
  SmallVector<int64_t, 8> lastKey = lastKernelKey;
  forEachOp(prog.vals, pool, lastKey, /*accumulators=*/false, ksize, noLoop,
            [&](SOp op, SValue v, ArrayRef<int64_t> key) {
              if (last && (missing.size() != 1 ||
                           !matchesOutput(v, target.ref.vals[missing[0]])))
                return;
              if (top && !ownBranch())
                return;
              op.result = static_cast<int>(prog.vals.size());
              prog.vals.push_back(v);
              prog.ops.push_back(SKernelOp{false, op, -1});
              SmallVector<int64_t, 8> saved = lastKernelKey;
              lastKernelKey.assign(key.begin(), key.end());
              kernelLevel();
              lastKernelKey = saved;
              prog.ops.pop_back();
              prog.vals.pop_back();
            });
  if (prog.kernels.size() < options.maxGraphKernels) {
    lastKernel = last;
    if (last) {
      // Constraints of a kernel that must produce the missing outputs:
      // its inputs reach every argument they need, the grid splits axes
      // of every output, the loop walks an axis of none.
      needVars = 0;
      gridCandidates.clear();
      loopForbidden.clear();
      for (auto [i, o] : llvm::enumerate(missing)) {
        const SValue &m = target.ref.vals[o];
        needVars |= m.vars;
        SmallVector<uint32_t, 4> here;
        for (uint32_t l : m.labels)
          if (l) {
            here.push_back(l);
            loopForbidden.push_back(l);
          }
        if (i == 0)
          gridCandidates = here;
        else
          llvm::erase_if(gridCandidates, [&](uint32_t l) {
            return !llvm::is_contained(here, l);
          });
      }
      if (missing.size() > options.maxKernelOutputs)
        return;
    }
    enumerateGraphKernels();
  }
}

bool Searcher::matchesOutput(const SValue &have, const SValue &want) const {
  return have.labels == want.labels &&
         (!target.prune || have.cls == want.cls);
}

int Searcher::findOutput(const SValue &want) const {
  for (int v = static_cast<int>(prog.vals.size()) - 1;
       v >= static_cast<int>(target.numInputs); --v)
    if (matchesOutput(prog.vals[v], want))
      return v;
  return -1;
}

void Searcher::enumerateGraphKernels() {
  int n = static_cast<int>(prog.vals.size());
  unsigned maxIn = std::min<unsigned>(options.maxKernelInputs, n);
  // Subsets in increasing size, each as an increasing index list.
  SmallVector<int, 4> subset;
  std::function<void(int)> choose = [&](int from) {
    if (!subset.empty())
      openWithInputs(subset);
    if (subset.size() == maxIn || stopped)
      return;
    for (int i = from; i < n && !stopped; ++i) {
      subset.push_back(i);
      choose(i + 1);
      subset.pop_back();
    }
  };
  choose(0);
}

void Searcher::openWithInputs(ArrayRef<int> inputs) {
  SmallVector<int64_t, 8> key = keyOf(kNumKinds, inputs, 0);
  // Two kernels may read the same inputs, so an equal key is allowed (the
  // key does not capture the kernel's body; the rare duplicate orders are
  // left to the candidate deduplication).
  if (keyLess(key, lastKernelKey))
    return;
  if (lastKernel) {
    uint64_t vars = 0;
    for (int in : inputs)
      vars |= prog.vals[in].vars;
    if ((vars & needVars) != needVars)
      return;
  }
  SmallVector<uint32_t, 8> axes;
  for (int in : inputs)
    for (uint32_t l : prog.vals[in].labels)
      if (l && !llvm::is_contained(axes, l))
        axes.push_back(l);
  llvm::sort(axes);
  SmallVector<uint32_t, 9> loops = {0};
  loops.append(axes.begin(), axes.end());
  for (uint32_t loop : loops) {
    if (lastKernel && llvm::is_contained(loopForbidden, loop))
      continue;
    SmallVector<uint32_t, 8> rest;
    for (uint32_t a : axes)
      if (a != loop && (!lastKernel || llvm::is_contained(gridCandidates, a)))
        rest.push_back(a);
    // Every subset of at most 3 of the remaining axes splits the grid.
    SmallVector<uint32_t, 3> grid;
    std::function<void(size_t)> pick = [&](size_t from) {
      openKernel(inputs, loop, grid, key);
      if (grid.size() == 3)
        return;
      for (size_t i = from; i < rest.size() && !stopped; ++i) {
        grid.push_back(rest[i]);
        pick(i + 1);
        grid.pop_back();
      }
    };
    pick(0);
    if (stopped)
      return;
  }
}

void Searcher::openKernel(ArrayRef<int> inputs, uint32_t loop, ArrayRef<uint32_t> grid,
                  ArrayRef<int64_t> key) {
  SKernel k;
  k.vals.reserve(inputs.size() + options.maxBlockOps + 1);
  k.inputs.assign(inputs.begin(), inputs.end());
  k.loopAxis = loop;
  k.gridAxes.assign(grid.begin(), grid.end());
  if (loop) {
    if (target.extent.lookup(loop) < 2)
      return;
    k.repF = representativeSplit(target.extent.lookup(loop));
  }
  for (uint32_t a : grid)
    k.repGrid.push_back(representativeSplit(target.extent.lookup(a)));
  for (int in : inputs) {
    SValue t = prog.vals[in];
    t.variant = loop && llvm::is_contained(t.labels, loop);
    t.after = false;
    t.uses = 0;
    k.vals.push_back(t);
  }
  prog.kernels.push_back(std::move(k));
  open = &prog.kernels.back();
  SmallVector<int64_t, 8> saved = lastKernelKey;
  lastKernelKey.assign(key.begin(), key.end());
  lastBlockKey.clear();
  blockLevel(0);
  lastKernelKey = saved;
  prog.kernels.pop_back();
  open = nullptr;
}

} // namespace mirage::search::detail
