//===- Enumeration.h - Kernel and block graphs ------------------*- C++ -*-===//
//
// Private to lib/Search. Produces the candidates of a target: programs of a
// given number of kernel-level ops, each op admitted by the pruning oracle,
// each complete program instantiated (Instantiation.h) and costed; and the
// trivial programs that return arguments.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_SEARCH_ENUMERATION_H
#define MIRAGE_LIB_SEARCH_ENUMERATION_H

#include "SearchIR.h"

#include "Mirage/Search/Superoptimizer.h"

#include <vector>

namespace mirage::search::detail {

/// Runs the enumeration of programs with `numOps` kernel-level ops, the
/// top-level branches dealt round-robin to the workers; adds the counters
/// to `stats`. The candidates come back in a deterministic order.
std::vector<Candidate> enumerate(const Target &target,
                                 const SuperoptimizeOptions &options,
                                 unsigned numOps, Clock::time_point deadline,
                                 SuperoptimizeStats &stats);

/// The trivial programs for `target`: every output returned as an argument
/// of the same type. An output that is an argument keeps it; any other
/// output may be an argument the oracle puts in its e-class (x * 0.5 * 2.0
/// is x), or, without a complete oracle, any argument of its type. Empty if
/// some output has no such argument; at most `limit` programs.
std::vector<Candidate> trivialCandidates(const Target &target, unsigned limit);

} // namespace mirage::search::detail

#endif // MIRAGE_LIB_SEARCH_ENUMERATION_H
