//===- Enumeration.cpp - Kernel and block graphs ----------------*- C++ -*-===//
//
// Enumeration of kernel graphs and block graphs (docs/search.md):
//
// * Kernel level: append a pre-defined op, or open a graph-defined kernel:
//   choose its inputs, the axis the loop walks and the axes the grid splits;
//   imaps and fmaps follow (every input dim carrying a walked axis is
//   walked). Block level: body ops, then accumulators, then post-loop ops
//   (on loop results, post-loop values and epilogue inputs: input tiles
//   without the loop axis that no body op reads); closing saves every
//   unconsumed post-loop value.
// * Canonical order: within a level (and a block phase) ops are appended in
//   increasing key order, the key starting with the largest operand index,
//   so each graph is generated once.
// * Every appended op's term must be a subterm of a form of the target
//   (PruningOracle); an op whose value equals (same e-class, same dims) one
//   already present is a duplicate.
//
//===----------------------------------------------------------------------===//

#include "Enumeration.h"

#include "Instantiation.h"
#include "Materialize.h"
#include "OpSemantics.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <thread>

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

namespace {
/// One worker's depth-first enumeration of the programs of a target with a
/// fixed number of kernel-level ops. It owns every `workers`-th top-level
/// branch, starting at `worker`.
class Searcher {
public:
  /// Enumerates programs of exactly `numOps` kernel-level ops (the driver
  /// deepens `numOps`: under the cost proxy fewer kernels always win).
  Searcher(const Target &target, const SuperoptimizeOptions &options,
           unsigned numOps, Clock::time_point deadline, unsigned worker,
           unsigned workers)
      : target(target), options(options), numOps(numOps), deadline(deadline),
        worker(worker), workers(workers) {
    // Values are referenced across the recursion (and by ArrayRefs while
    // ops are appended): reserve so that nothing is ever reallocated.
    prog.vals.reserve(target.numInputs +
                      options.maxKernelOps * options.maxKernelOutputs + 1);
    prog.kernels.reserve(options.maxGraphKernels + 1);
    // Terms are built on the target's labels; the input terms are vars.
    for (unsigned i = 0; i < target.numInputs; ++i) {
      SValue v = target.ref.vals[i];
      v.term = tb.var(i);
      v.vars = uint64_t(1) << i;
      (void)admit(v);
      prog.vals.push_back(v);
    }
    stats.pruned = 0;
  }

  void run() { kernelLevel(); }

  std::vector<Candidate> candidates;
  SuperoptimizeStats stats;

private:
  const Target &target;
  const SuperoptimizeOptions &options;
  unsigned numOps;
  Clock::time_point deadline;
  unsigned worker, workers;
  unsigned branch = 0;
  RecExpr expr;
  TermBuilder tb{expr};
  SProgram prog;
  SmallVector<int64_t, 8> lastKernelKey;
  SKernel *open = nullptr;
  SmallVector<int64_t, 8> lastBlockKey;
  /// Set while the open kernel is the program's last op: the outputs it
  /// must produce and the constraints they imply.
  bool lastKernel = false;
  SmallVector<int, 2> missing;
  uint64_t needVars = 0;
  SmallVector<uint32_t, 4> gridCandidates, loopForbidden;
  bool stopped = false;

  bool outOfTime() {
    if (stopped)
      return true;
    // Checking the clock every state is cheap next to a state's work.
    if (Clock::now() > deadline) {
      stopped = true;
      stats.timedOut = true;
    }
    return stopped;
  }

  /// Whether this worker owns the next top-level branch.
  bool ownBranch() { return branch++ % workers == worker; }

  int64_t kernelSize(uint32_t l) const {
    return l ? target.extent.lookup(l) : 1;
  }
  int64_t blockSize(uint32_t l) const {
    if (!l)
      return 1;
    int64_t n = target.extent.lookup(l);
    if (l == open->loopAxis)
      return n / open->repF;
    for (auto [a, g] : llvm::zip(open->gridAxes, open->repGrid))
      if (a == l)
        return n / g;
    return n;
  }

  /// Canonical key of an op: operands sorted descending, the kind, the
  /// operands in order, the parameter choice.
  static SmallVector<int64_t, 8> keyOf(unsigned kind, ArrayRef<int> args,
                                       unsigned param) {
    SmallVector<int64_t, 8> key(args.begin(), args.end());
    llvm::sort(key, std::greater<int64_t>());
    key.push_back(-1 - static_cast<int64_t>(kind));
    key.append(args.begin(), args.end());
    key.push_back(param);
    return key;
  }
  static bool keyLess(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
  }

  /// Prunes `v` with the oracle (filling its class); false if pruned.
  bool admit(SValue &v) {
    if (!target.prune)
      return true;
    std::optional<ClassId> c = target.oracle->subtermClass(expr, v.term);
    if (!c) {
      ++stats.pruned;
      return false;
    }
    v.cls = *c;
    return true;
  }

  /// Whether a value equal to `v` already exists in `vals` (same class,
  /// same dims, same side of the loop).
  bool duplicate(const SValue &v, ArrayRef<SValue> vals) {
    if (v.cls < 0)
      return false;
    for (const SValue &o : vals)
      if (o.cls == v.cls && o.labels == v.labels && o.after == v.after &&
          o.variant == v.variant && o.shifted == v.shifted) {
        ++stats.duplicates;
        return true;
      }
    return false;
  }

  /// Parameter choices of `kind` (one empty choice for most ops).
  SmallVector<Params, 2> paramChoices(Kind kind) const {
    SmallVector<Params, 2> out;
    auto scalars = [](double a, double b = 0) {
      Params p;
      p.a = a;
      p.b = b;
      return p;
    };
    switch (kind) {
    case Kind::MulScalar:
      for (double c : target.mulScalars)
        out.push_back(scalars(c));
      break;
    case Kind::AddScalar:
      for (double c : target.addScalars)
        out.push_back(scalars(c));
      break;
    case Kind::Clamp:
      for (auto [lo, hi] : target.clamps)
        out.push_back(scalars(lo, hi));
      break;
    case Kind::Where:
      for (auto [fill, inverted] : target.whereFills)
        out.push_back(scalars(fill, inverted));
      break;
    case Kind::BandMask:
      out.append(target.masks.begin(), target.masks.end());
      break;
    case Kind::RmsNorm:
    case Kind::AccRmsLast:
      for (double e : target.eps)
        out.push_back(scalars(e));
      break;
    default:
      out.push_back(Params{});
      break;
    }
    return out;
  }

  /// Calls `fn(op, value)` for every legal, admitted, non-duplicate op over
  /// the values `pool` of `vals` whose key exceeds `last`. `accumulators`
  /// selects accumulator kinds instead of ordinary ones.
  template <typename Fn>
  void forEachOp(ArrayRef<SValue> vals, ArrayRef<int> pool,
                 ArrayRef<int64_t> last, bool accumulators,
                 function_ref<int64_t(uint32_t)> size, const LoopCtx &loop,
                 Fn fn) {
    for (unsigned ki = 0; ki < kNumKinds; ++ki) {
      Kind kind = static_cast<Kind>(ki);
      if (!target.allowed[ki] || isAccumulator(kind) != accumulators)
        continue;
      SmallVector<Params, 2> choices = paramChoices(kind);
      bool twoArgs = takesTwoOperands(kind);
      for (int a : pool) {
        for (int b : twoArgs ? pool : ArrayRef<int>(a)) {
          if (twoArgs && isCommutative(kind) && b < a)
            continue;
          // One operand twice: mul(a, a) is square(a), sub and div give
          // constants; add, matmul and pow have no other spelling.
          if (twoArgs && a == b && kind != Kind::Add && kind != Kind::Matmul &&
              kind != Kind::Pow)
            continue;
          SmallVector<int, 2> args = {a};
          if (twoArgs)
            args.push_back(b);
          int64_t rank = static_cast<int64_t>(vals[a].labels.size());
          int64_t dims =
              kind == Kind::ReduceSum || kind == Kind::ReduceMax ? rank : 1;
          for (int64_t dim = 0; dim < dims; ++dim) {
            for (auto [pi, params] : llvm::enumerate(choices)) {
              Params p = params;
              p.dim = dim;
              SmallVector<int64_t, 8> key =
                  keyOf(ki, args, static_cast<unsigned>(pi * 8 + dim));
              if (!keyLess(last, key))
                continue;
              SmallVector<const SValue *, 2> argVals;
              for (int x : args)
                argVals.push_back(&vals[x]);
              std::optional<SValue> v =
                  applyOp(tb, kind, p, argVals, size, loop);
              if (!v || !admit(*v) || duplicate(*v, vals))
                continue;
              SOp op{kind, p, args, -1};
              fn(op, *v, key);
              if (stopped)
                return;
            }
          }
        }
      }
    }
  }

  //===--------------------------------------------------------------===//
  // Kernel level
  //===--------------------------------------------------------------===//

  void kernelLevel() {
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

  /// A value that can stand for target output `want`.
  bool matchesOutput(const SValue &have, const SValue &want) const {
    return have.labels == want.labels &&
           (!target.prune || have.cls == want.cls);
  }

  /// The latest non-argument value matching `want`, or -1.
  int findOutput(const SValue &want) const {
    for (int v = static_cast<int>(prog.vals.size()) - 1;
         v >= static_cast<int>(target.numInputs); --v)
      if (matchesOutput(prog.vals[v], want))
        return v;
    return -1;
  }

  void enumerateGraphKernels() {
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

  void openWithInputs(ArrayRef<int> inputs) {
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

  void openKernel(ArrayRef<int> inputs, uint32_t loop, ArrayRef<uint32_t> grid,
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

  //===--------------------------------------------------------------===//
  // Block level
  //===--------------------------------------------------------------===//

  void blockLevel(unsigned phase) {
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

  /// Saves every unconsumed post-loop value and returns to the kernel level.
  void tryClose() {
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

  //===--------------------------------------------------------------===//
  // Complete candidates
  //===--------------------------------------------------------------===//

  bool checkComplete() {
    if (prog.ops.empty() || open)
      return false;
    // The values that can stand for each output: with pruning the latest
    // one in the output's class (all of them are proven equal); without,
    // every value of the output's dims, since a shape proves nothing.
    SmallVector<SmallVector<int, 4>, 2> choices;
    for (int refOut : target.refOutputs) {
      const SValue &want = target.ref.vals[refOut];
      SmallVector<int, 4> here;
      for (int v = static_cast<int>(prog.vals.size()) - 1;
           v >= static_cast<int>(target.numInputs); --v)
        if (matchesOutput(prog.vals[v], want)) {
          here.push_back(v);
          if (target.prune)
            break;
        }
      if (here.empty())
        return false;
      choices.push_back(std::move(here));
    }
    // Shorter programs were enumerated (and verified) by a shallower pass.
    if (prog.ops.size() != numOps)
      return target.prune;
    // Every assignment of values to outputs (at most 64 of them).
    SmallVector<unsigned, 2> pos(choices.size(), 0);
    for (unsigned tried = 0; tried < 64; ++tried) {
      SmallVector<int, 2> outs;
      for (auto [i, c] : llvm::enumerate(choices))
        outs.push_back(c[pos[i]]);
      recordIfLive(outs);
      if (!nextCombination(pos, [&](size_t i) { return choices[i].size(); }))
        break;
    }
    // With pruning the outputs are proven equal to the target's: nothing
    // can be gained by extending. Without, keep going.
    return target.prune;
  }

  /// Records the program computing `outs` as a candidate if every op
  /// contributes to them (a program with a dead op is found without it) and
  /// every result of a graph-defined kernel is used.
  void recordIfLive(ArrayRef<int> outs) {
    SmallVector<bool> live(prog.vals.size(), false);
    for (int o : outs)
      live[o] = true;
    for (const SKernelOp &kop : llvm::reverse(prog.ops)) {
      SmallVector<int, 2> results, args;
      if (kop.isKernel) {
        const SKernel &k = prog.kernels[kop.kernel];
        results = k.results;
        args.assign(k.inputs.begin(), k.inputs.end());
      } else {
        results = {kop.op.result};
        args = kop.op.args;
      }
      if (!llvm::all_of(results, [&](int r) { return live[r]; }))
        return;
      for (int a : args)
        live[a] = true;
    }
    ++stats.candidates;
    Candidate c;
    c.prog = prog;
    c.outputs.assign(outs.begin(), outs.end());
    if (instantiate(target, options, c))
      candidates.push_back(std::move(c));
  }
};
} // namespace

std::vector<Candidate> enumerate(const Target &target,
                                 const SuperoptimizeOptions &options,
                                 unsigned numOps, Clock::time_point deadline,
                                 SuperoptimizeStats &stats) {
  unsigned workers = std::max(1u, options.threads);
  std::vector<std::unique_ptr<Searcher>> searchers;
  for (unsigned w = 0; w < workers; ++w)
    searchers.push_back(std::make_unique<Searcher>(target, options, numOps,
                                                   deadline, w, workers));
  if (workers == 1) {
    searchers[0]->run();
  } else {
    std::vector<std::thread> threads;
    for (auto &s : searchers)
      threads.emplace_back([&s] { s->run(); });
    for (std::thread &th : threads)
      th.join();
  }
  std::vector<Candidate> candidates;
  for (auto &s : searchers) {
    const SuperoptimizeStats &w = s->stats;
    stats.states += w.states;
    stats.pruned += w.pruned;
    stats.duplicates += w.duplicates;
    stats.candidates += w.candidates;
    stats.timedOut |= w.timedOut;
    for (Candidate &c : s->candidates)
      candidates.push_back(std::move(c));
  }
  return candidates;
}

std::vector<Candidate> trivialCandidates(const Target &target, unsigned limit) {
  unsigned n = target.numInputs;
  auto shapeOf = [&](int v) {
    return kernelShape(target.ref.vals[v], target.extent);
  };
  SmallVector<SmallVector<int, 2>, 2> choices;
  for (int o : target.refOutputs) {
    SmallVector<int, 2> args;
    if (o < static_cast<int>(n)) {
      args.push_back(o);
    } else {
      std::optional<ClassId> out;
      if (target.prune)
        out = target.oracle->classOf(target.expr, target.ref.vals[o].term);
      for (unsigned i = 0; i < n; ++i) {
        if (shapeOf(i) != shapeOf(o))
          continue;
        if (target.prune &&
            target.oracle->classOf(target.expr, target.ref.vals[i].term) != out)
          continue;
        args.push_back(i);
      }
    }
    if (args.empty())
      return {};
    choices.push_back(std::move(args));
  }
  std::vector<Candidate> result;
  SmallVector<unsigned, 2> pos(choices.size(), 0);
  do {
    Candidate c;
    c.prog.vals.assign(target.ref.vals.begin(), target.ref.vals.begin() + n);
    for (auto [k, p] : llvm::enumerate(pos))
      c.outputs.push_back(choices[k][p]);
    c.text = printProgram(c.prog, c.outputs, n, target.extent,
                          target.elementType, "superoptimized");
    result.push_back(std::move(c));
  } while (result.size() < limit &&
           nextCombination(pos, [&](size_t k) { return choices[k].size(); }));
  return result;
}

} // namespace mirage::search::detail
