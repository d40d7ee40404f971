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
#include "Searcher.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <thread>

using namespace mlir;

namespace mirage::search::detail {

bool Searcher::checkComplete() {
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

void Searcher::recordIfLive(ArrayRef<int> outs) {
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
    c.target = &target;
    result.push_back(std::move(c));
  } while (result.size() < limit &&
           nextCombination(pos, [&](size_t k) { return choices[k].size(); }));
  return result;
}

} // namespace mirage::search::detail
