//===- Searcher.h - One worker's enumeration ------------------*- C++ -*-===//
//
// Private to lib/Search: the depth-first enumeration of kernel and block
// graphs (docs/search.md, "Enumeration") by one worker. Its kernel level
// (KernelEnumeration.cpp), block level (BlockEnumeration.cpp) and complete
// candidates (Enumeration.cpp, with the driver that runs the workers) are
// defined apart.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_SEARCH_SEARCHER_H
#define MIRAGE_LIB_SEARCH_SEARCHER_H

#include "Enumeration.h"

#include "OpSemantics.h"

#include "llvm/ADT/STLExtras.h"

#include <functional>

namespace mirage::search::detail {

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
  llvm::SmallVector<int64_t, 8> lastKernelKey;
  SKernel *open = nullptr;
  llvm::SmallVector<int64_t, 8> lastBlockKey;
  /// Set while the open kernel is the program's last op: the outputs it
  /// must produce and the constraints they imply.
  bool lastKernel = false;
  llvm::SmallVector<int, 2> missing;
  uint64_t needVars = 0;
  llvm::SmallVector<uint32_t, 4> gridCandidates, loopForbidden;
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
  static llvm::SmallVector<int64_t, 8> keyOf(unsigned kind, llvm::ArrayRef<int> args,
                                       unsigned param) {
    llvm::SmallVector<int64_t, 8> key(args.begin(), args.end());
    llvm::sort(key, std::greater<int64_t>());
    key.push_back(-1 - static_cast<int64_t>(kind));
    key.append(args.begin(), args.end());
    key.push_back(param);
    return key;
  }
  static bool keyLess(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b) {
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
  bool duplicate(const SValue &v, llvm::ArrayRef<SValue> vals) {
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
  llvm::SmallVector<Params, 2> paramChoices(Kind kind) const {
    llvm::SmallVector<Params, 2> out;
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
  void forEachOp(llvm::ArrayRef<SValue> vals, llvm::ArrayRef<int> pool,
                 llvm::ArrayRef<int64_t> last, bool accumulators,
                 llvm::function_ref<int64_t(uint32_t)> size, const LoopCtx &loop,
                 Fn fn) {
    for (unsigned ki = 0; ki < kNumKinds; ++ki) {
      Kind kind = static_cast<Kind>(ki);
      if (!target.allowed[ki] || isAccumulator(kind) != accumulators)
        continue;
      llvm::SmallVector<Params, 2> choices = paramChoices(kind);
      bool twoArgs = takesTwoOperands(kind);
      for (int a : pool) {
        for (int b : twoArgs ? pool : llvm::ArrayRef<int>(a)) {
          if (twoArgs && isCommutative(kind) && b < a)
            continue;
          // One operand twice: mul(a, a) is square(a), sub and div give
          // constants; add, matmul and pow have no other spelling.
          if (twoArgs && a == b && kind != Kind::Add && kind != Kind::Matmul &&
              kind != Kind::Pow)
            continue;
          llvm::SmallVector<int, 2> args = {a};
          if (twoArgs)
            args.push_back(b);
          int64_t rank = static_cast<int64_t>(vals[a].labels.size());
          int64_t dims =
              kind == Kind::ReduceSum || kind == Kind::ReduceMax ? rank : 1;
          for (int64_t dim = 0; dim < dims; ++dim) {
            for (auto [pi, params] : llvm::enumerate(choices)) {
              Params p = params;
              p.dim = dim;
              llvm::SmallVector<int64_t, 8> key =
                  keyOf(ki, args, static_cast<unsigned>(pi * 8 + dim));
              if (!keyLess(last, key))
                continue;
              llvm::SmallVector<const SValue *, 2> argVals;
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

  /// One state at the kernel level: a complete candidate, or the program
  /// extended by a pre-defined op or a new graph-defined kernel.
  void kernelLevel();
  /// A value that can stand for target output `want`.
  bool matchesOutput(const SValue &have, const SValue &want) const;
  /// The latest non-argument value matching `want`, or -1.
  int findOutput(const SValue &want) const;
  /// Opens a graph-defined kernel over every admissible subset of values.
  void enumerateGraphKernels();
  /// Opens a kernel over `inputs` with every loop axis and grid axes.
  void openWithInputs(llvm::ArrayRef<int> inputs);
  /// Opens the kernel (`key` is its canonical key) and enumerates its
  /// block graphs.
  void openKernel(llvm::ArrayRef<int> inputs, uint32_t loop, llvm::ArrayRef<uint32_t> grid,
                  llvm::ArrayRef<int64_t> key);

  //===--------------------------------------------------------------===//
  // Block level
  //===--------------------------------------------------------------===//

  /// One state at the block level of the open kernel; `phase` 0: body
  /// ops, 1: accumulators, 2: post-loop ops.
  void blockLevel(unsigned phase);
  /// Saves every unconsumed post-loop value and returns to the kernel level.
  void tryClose();

  //===--------------------------------------------------------------===//
  // Complete candidates
  //===--------------------------------------------------------------===//

  /// Whether the program is complete (every op placed and every output
  /// found); records its candidates if so.
  bool checkComplete();
  /// Records the program computing `outs` as a candidate if every op
  /// contributes to them (a program with a dead op is found without it) and
  /// every result of a graph-defined kernel is used.
  void recordIfLive(llvm::ArrayRef<int> outs);
};

} // namespace mirage::search::detail

#endif // MIRAGE_LIB_SEARCH_SEARCHER_H
