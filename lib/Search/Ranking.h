//===- Ranking.h - The order of candidates ----------------------*- C++ -*-===//
//
// Private to lib/Search. Candidates are verified best first: by modelled
// time (or kernel count first), a measured time replacing the modelled one
// where a GPU has timed the program. The driver deepens the search only when
// a lower bound on deeper programs promises a gain.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_SEARCH_RANKING_H
#define MIRAGE_LIB_SEARCH_RANKING_H

#include "SearchIR.h"

#include "Mirage/Search/Superoptimizer.h"

#include <vector>

namespace mirage::search::detail {

/// Gives `c` its measured time if `options.measuredMicros` lists its
/// summary (docs/cost-model.md).
void applyMeasuredTime(Candidate &c, const SuperoptimizeOptions &options);

/// Sorts `pool` best first: kernel count then modelled time (`byKernels`) or
/// modelled time then kernel count, then fewer ops (the simpler program),
/// then the printed text.
void rankCandidates(std::vector<Candidate> &pool, bool byKernels);

/// A lower bound on the modelled time of any program of `numOps`
/// kernel-level ops equal to the target that does the target's matmul
/// FLOPs: the launches plus the larger of the compulsory traffic (arguments
/// and results) at full bandwidth and those FLOPs at the tensor-core peak.
/// A program that reassociates or merges matmuls can do fewer FLOPs, so for
/// such targets it is an estimate (the deepening only needs one).
double lowerBoundMicros(const Target &target, unsigned numOps);

} // namespace mirage::search::detail

#endif // MIRAGE_LIB_SEARCH_RANKING_H
