//===- Verification.h - Candidates against the target -----------*- C++ -*-===//
//
// Private to lib/Search. Candidates are verified in order of cost: a
// fingerprint at reduced shapes that keep the grid and loop divisibility,
// then the full equivalence check at the real shapes with a float
// comparison, then the numerics check in the kernels' precision. The first
// candidate that passes them all is the result.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_SEARCH_VERIFICATION_H
#define MIRAGE_LIB_SEARCH_VERIFICATION_H

#include "SearchIR.h"

#include "Mirage/Search/Superoptimizer.h"
#include "Mirage/Verify/Equivalence.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>

namespace mirage::search::detail {

/// Checks the target against itself at tiny shapes, which is cheap and has
/// the same structure: fails with `error` if the equivalence verifier cannot
/// decide it at all (a second exp on a path leaves its fragment), since then
/// no candidate could be verified.
mlir::LogicalResult checkTargetDecidable(const Target &target, uint64_t seed,
                                         std::string &error);

/// Runs both the fingerprint and the full check on the first
/// `options.auditFingerprints` distinct candidates and counts how they judge
/// (the fingerprint must never reject a candidate the full check accepts).
void auditFingerprints(mlir::func::FuncOp func, const Target &target,
                       const SuperoptimizeOptions &options,
                       llvm::ArrayRef<Candidate> candidates,
                       SuperoptimizeStats &stats);

/// Verifies `candidates` (sorted, best first) until one passes the
/// reduced-shape fingerprint, the full check and (with `options.numerics`)
/// the numerics check; fills `result` with it.
/// No check starts after `deadline`, and a check running then stops within
/// one op, thread block or loop iteration of its evaluations: the candidates
/// left (that one included) are counted in `stats.unchecked`.
void verifyInOrder(mlir::func::FuncOp func, const Target &target,
                   const SuperoptimizeOptions &options,
                   llvm::ArrayRef<Candidate> candidates,
                   Clock::time_point deadline, SuperoptimizeResult &result);

/// The re-check of a cached program rebuilt from its structure
/// (SearchCache.h): sets `program` to `c` built at the real shapes (null if
/// it does not verify), then tests `c` against the target once in the
/// finite field at reduced shapes, each axis at the fingerprint's extent
/// (recheckScale: axes of different real extents never share a reduced
/// one). Unknown where reduced shapes cannot decide: a target with
/// constants that may stand for sizes, a program the reduction does not
/// fit, a test the verifier cannot decide; the caller then runs the full
/// check at the real shapes.
verify::Verdict
recheckAtReducedShapes(const Target &target, const Candidate &c, uint64_t seed,
                       mlir::OwningOpRef<mlir::ModuleOp> &program);

} // namespace mirage::search::detail

#endif // MIRAGE_LIB_SEARCH_VERIFICATION_H
