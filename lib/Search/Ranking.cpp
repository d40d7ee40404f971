//===- Ranking.cpp - The order of candidates --------------------*- C++ -*-===//
//
// The total order of candidates, measured times and the deepening bound
// (Ranking.h; docs/search.md, "Cost model and ranking").
//
//===----------------------------------------------------------------------===//

#include "Ranking.h"

#include "Materialize.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace mlir;

namespace mirage::search::detail {

/// Block ops inside loop bodies: run once per loop step, where the ops
/// after the loop run once.
static unsigned bodyOps(const Candidate &c) {
  unsigned n = 0;
  for (const SKernel &k : c.prog.kernels)
    n += k.numBody;
  return n;
}

/// The total order of rankCandidates.
static bool betterCandidate(const Candidate &a, const Candidate &b,
                            bool byKernels) {
  if (byKernels && a.kernels != b.kernels)
    return a.kernels < b.kernels;
  if (a.micros != b.micros)
    return a.micros < b.micros;
  if (a.kernels != b.kernels)
    return a.kernels < b.kernels;
  if (a.numOps != b.numOps)
    return a.numOps < b.numOps;
  // Equal in the model: the one that does more after its loops.
  if (unsigned ba = bodyOps(a), bb = bodyOps(b); ba != bb)
    return ba < bb;
  // Last, a fixed order of programs: a candidate's identity.
  ArrayRef<int64_t> ka = a.key(), kb = b.key();
  return std::lexicographical_compare(ka.begin(), ka.end(), kb.begin(),
                                      kb.end());
}

void applyMeasuredTime(Candidate &c, const SuperoptimizeOptions &options) {
  if (options.measuredMicros.empty())
    return;
  std::string summary = summarize(c.prog);
  for (const auto &[key, micros] : options.measuredMicros)
    if (key == summary) {
      c.micros = micros;
      c.measured = true;
      return;
    }
}

void rankCandidates(std::vector<Candidate> &pool, bool byKernels) {
  llvm::sort(pool, [byKernels](const Candidate &a, const Candidate &b) {
    return betterCandidate(a, b, byKernels);
  });
}

double lowerBoundMicros(const Target &target, unsigned numOps) {
  func::FuncOp func = target.func;
  double minBytes = 0;
  for (auto types : {func.getFunctionType().getInputs(),
                     func.getFunctionType().getResults()})
    for (Type t : types)
      minBytes += static_cast<double>(
          cast<RankedTensorType>(t).getNumElements() * target.elementBytes);
  double memory = minBytes / target.device.bytesPerSecond * 1e6;
  double compute =
      target.matmulFlops / target.device.tensorFlopsPerSecond * 1e6;
  return numOps * target.device.launchMicros + std::max(memory, compute);
}

} // namespace mirage::search::detail
