//===- Instantiation.h - Grid sizes and loop ranges -------------*- C++ -*-===//
//
// Private to lib/Search. The enumeration fixes the structure of a candidate
// (which axes the grid splits, which one the loop walks); instantiation
// chooses the sizes: for every graph-defined kernel, the loop range and grid
// sizes (divisors of the extents that fit the device) of least modelled
// time, and from them the candidate's modelled time.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_SEARCH_INSTANTIATION_H
#define MIRAGE_LIB_SEARCH_INSTANTIATION_H

#include "SearchIR.h"

#include "Mirage/Search/Superoptimizer.h"

namespace mirage::search::detail {

/// Chooses the loop range and grid sizes of every kernel of `c` by the cost
/// proxy and sets its kernel count, modelled time and op count; false if
/// some kernel has no instantiation that fits.
bool instantiate(const Target &target, const SuperoptimizeOptions &options,
                 Candidate &c);

} // namespace mirage::search::detail

#endif // MIRAGE_LIB_SEARCH_INSTANTIATION_H
