//===- Superoptimizer.h - Multi-level uGraph search -------------*- C++ -*-===//
//
// The superoptimizer of DESIGN §5: given a function of `mk` ops, enumerate
// kernel graphs whose graph-defined kernels hold block graphs, prune every
// appended op with the abstract-expression oracle, verify complete candidates
// with finite-field fingerprints (first at reduced shapes, then at the real
// shapes with a float check), and return the best one by the cost proxy of
// docs/search.md (modelled time).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SEARCH_SUPEROPTIMIZER_H
#define MIRAGE_SEARCH_SUPEROPTIMIZER_H

#include "mlir/Support/LLVM.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlir {
class MLIRContext;
class ModuleOp;
template <typename OpTy> class OwningOpRef;
namespace func {
class FuncOp;
} // namespace func
} // namespace mlir

namespace mirage::search {

/// A program the search verified, as IR: a module (carrying the
/// `mk.smem_limit` the search used) holding one `func.func @superoptimized`
/// with the signature of the searched function. The search builds it with
/// builders; text appears only where a program leaves the process (print()
/// for the result cache and job replies, parse() reading them back). Copies
/// share one module, which nobody modifies: results are memoised and handed
/// between threads, so a user clones what it takes (func().clone(), or its
/// ops with a mapping). Empty when no program was verified.
class ProgramModule {
public:
  ProgramModule() = default;
  explicit ProgramModule(mlir::OwningOpRef<mlir::ModuleOp> module);

  bool empty() const { return !owned; }
  mlir::ModuleOp module() const;
  /// The module's one function.
  mlir::func::FuncOp func() const;
  /// The module in MLIR's text form (empty for an empty program).
  std::string print() const;
  /// Reads print()'s form back into `ctx`: an empty text is the empty
  /// program; text that does not parse, or a module that does not hold
  /// exactly one func.func, fails with `error` completing "the program ..."
  /// ("does not parse: " and the parser's diagnostics).
  static mlir::FailureOr<ProgramModule>
  parse(llvm::StringRef text, mlir::MLIRContext *ctx, std::string &error);

private:
  std::shared_ptr<mlir::OwningOpRef<mlir::ModuleOp>> owned;
};

/// Bounds and knobs of one search. The defaults find the known-good programs
/// of DESIGN §8 (docs/search.md lists what each bound costs).
struct SuperoptimizeOptions {
  /// Kernel-level ops of a candidate (pre-defined ops and graph-defined
  /// kernels together).
  unsigned maxKernelOps = 3;
  /// Graph-defined kernels of a candidate.
  unsigned maxGraphKernels = 2;
  /// Ops of one block graph, input iterators and output savers not counted
  /// (body ops, accumulators and post-loop ops); 0: 8, or 9 for a target
  /// with a maximum (an online-softmax kernel needs one more, see
  /// docs/search.md).
  unsigned maxBlockOps = 0;
  /// Inputs of one graph-defined kernel.
  unsigned maxKernelInputs = 4;
  /// Outputs of one graph-defined kernel.
  unsigned maxKernelOutputs = 2;
  /// Largest number of thread blocks of one kernel.
  int64_t maxBlocks = 65536;
  /// Most threads per block (the block size is derived from the tiles, up
  /// to this).
  int64_t maxBlockThreads = 128;
  /// Shared-memory limit in bytes (the `mk.smem_limit` the verifier checks).
  int64_t smemLimit = 98304;
  /// Target of the cost model (CostModel.h): a part ("a100-40gb",
  /// "a100-80gb", "h100-sxm", "h200") or "sm_80" / "sm_90" for the default
  /// part of the architecture.
  std::string chip = "sm_90";
  /// Prune with abstract expressions (off: every shape-legal op is kept;
  /// only for small cases, the search is exponential without it).
  bool pruning = true;
  /// Seed of the fingerprints and of the final equivalence check.
  uint64_t seed = 0;
  /// Worker threads of the enumeration (the result does not depend on it).
  unsigned threads = 1;
  /// Wall-clock budget of the whole search of one function in seconds:
  /// saturation (at most kSaturationShare of it), enumeration (until
  /// kEnumerationShare of it has passed) and verification (the rest). When
  /// it runs out, the best candidate verified so far is returned, or none;
  /// a check already started is not interrupted (docs/search.md).
  double timeBudget = 60.0;
  /// If > 0, verification (fingerprints and checks at the real shapes) of
  /// one function stops after this many seconds as well, within timeBudget.
  double verifyBudget = 0;
  /// Finite-field tests of the final check at the real shapes (the
  /// reduced-shape fingerprint is a further independent test).
  unsigned finalTests = 1;
  /// Check a verified candidate in the kernels' precision (f16/bf16 storage,
  /// f32 accumulation) against the reference before accepting it; an
  /// inaccurate one (e.g. softmax without its max) is skipped.
  bool numerics = true;
  /// Ranking: modelled time (launches included; the default), which lets a
  /// faster program with more kernels win; or kernel count first, then
  /// modelled time.
  bool rankByKernels = false;
  /// Measured times (microseconds) of candidates, by program summary (the
  /// `summary` of a result): a listed candidate ranks by its measured time
  /// instead of the modelled one (docs/cost-model.md).
  std::vector<std::pair<std::string, double>> measuredMicros;
  /// When ranking by modelled time: after a program with K kernel-level
  /// ops is found, programs with K+1
  /// ops are searched only if a lower bound on their modelled time (launches
  /// plus compulsory traffic) times this factor is below the best found: a
  /// deeper search costs much more, so it must promise a large gain. 1 is an
  /// exact branch and bound; 0 never deepens past a verified program.
  double deepenFactor = 4.0;
  /// If > 0, candidates modelled at this many microseconds or more are not
  /// verified: a caller that already has a program this fast (the
  /// partitioned search: the unfused ops of a subprogram) gains nothing from
  /// them, and their checks at the real shapes can be the longest of all.
  double costCeilingMicros = 0;
  /// Before verifying, run both the reduced-shape fingerprint and the full
  /// check on this many candidates and count disagreements (for tests).
  unsigned auditFingerprints = 0;
};

/// Shares of `timeBudget`: saturation of the target's e-graph may use at
/// most kSaturationShare of it, the enumeration runs until kEnumerationShare
/// of it has passed since the search began, verification until all of it.
constexpr double kSaturationShare = 0.2;
constexpr double kEnumerationShare = 0.6;

/// Where a search stopped because the time budget ran out.
enum class BudgetStop { None, Enumeration, Verification };

/// Counters of one search.
struct SuperoptimizeStats {
  /// Search states visited (kernel level and block level).
  uint64_t states = 0;
  /// Candidate ops dropped by the abstract-expression oracle.
  uint64_t pruned = 0;
  /// Candidate ops dropped because an equal value (same e-class, same
  /// dims) already exists in the graph.
  uint64_t duplicates = 0;
  /// Complete candidate programs (every output found).
  uint64_t candidates = 0;
  /// Candidates checked with the reduced-shape fingerprint, and how many
  /// of those it rejected.
  uint64_t fingerprinted = 0, fingerprintRejected = 0;
  /// Candidates checked at the real shapes, and how many passed.
  uint64_t fullChecks = 0, verified = 0;
  /// Verified candidates rejected by the numerics check, and the summary of
  /// the first (best-ranked) of them: equivalent over the reals, inaccurate
  /// in the kernels' precision (a safe softmax's max-free form).
  uint64_t numericsRejected = 0;
  std::string firstNumericsRejected;
  /// Candidates not verified because they model at or above
  /// costCeilingMicros.
  uint64_t aboveCeiling = 0;
  /// The fingerprint audit: candidates audited, rejected by the reduced
  /// fingerprint, rejected by the full check, and rejected by the
  /// fingerprint although the full check accepted them (must stay 0).
  uint64_t audited = 0, auditCheapRejects = 0, auditFullRejects = 0,
           auditFalseRejects = 0;
  /// Saturation of the target's e-graph.
  uint64_t egraphNodes = 0, egraphClasses = 0;
  double saturationSeconds = 0, searchSeconds = 0, verifySeconds = 0;
  /// The enumeration or the verification stopped at the time budget.
  bool timedOut = false;
  /// The first stage the budget stopped, and how many distinct candidates
  /// were then left unchecked by the verification.
  BudgetStop budgetStop = BudgetStop::None;
  uint64_t unchecked = 0;
  /// The result is the trivial program (every output is an input).
  bool trivial = false;
  /// Searches with more kernel-level ops run after a verified program,
  /// because the lower bound promised a gain (see deepenFactor).
  unsigned deepened = 0;
  /// The oracle did not saturate and pruning was disabled (fail open).
  bool pruningDisabled = false;
};

/// The outcome of one search.
struct SuperoptimizeResult {
  /// The best verified program (empty if none was verified).
  ProgramModule program;
  /// Its structure in the search's own terms (the candidate's key,
  /// lib/Search/CandidateKey.cpp), kept with a cache entry so that a hit is
  /// rebuilt from it and re-checked at reduced shapes.
  std::vector<int64_t> structure;
  /// Its kernel count and modelled time (microseconds) under the cost proxy
  /// (which ranks by modelled time).
  unsigned kernels = 0;
  double modelledMicros = 0;
  /// `modelledMicros` is a measured time from `measuredMicros`.
  bool measured = false;
  /// One line describing the program (kernels, grids, loop ranges, ops).
  std::string summary;
  /// Largest relative difference of the float check against the input.
  double floatMaxRelDiff = 0;
  /// log10 of the bound on P(the final check accepted a wrong program).
  double log10Bound = 0;
  SuperoptimizeStats stats;
};

/// Searches for the best program equal to `func` (a function of mk ops with
/// static shapes). Returns failure with `error` set for input the search
/// does not support; a result with an empty `program` when nothing was
/// verified (for example when the time budget ran out).
mlir::FailureOr<SuperoptimizeResult>
superoptimize(mlir::func::FuncOp func, const SuperoptimizeOptions &options,
              std::string &error);

/// The block-op bound of `maxBlockOps = 0` for `func`: 8, or 9 if it has a
/// maximum (mk.reduce_max).
unsigned defaultMaxBlockOps(mlir::func::FuncOp func);
/// The same for a program that has a maximum or not.
unsigned defaultMaxBlockOps(bool hasMaximum);

/// The modelled time (microseconds) and kernel count of an existing program
/// of mk ops and graph-defined kernels under the cost model (on `chip`, any
/// name getDeviceModel accepts), for comparing a search result with a
/// hand-written one. Fails on ops it cannot model. Defined in KernelCost.cpp
/// (analyzeProgram gives the breakdown).
mlir::FailureOr<std::pair<unsigned, double>>
estimateProgramCost(mlir::func::FuncOp func, llvm::StringRef chip);

} // namespace mirage::search

#endif // MIRAGE_SEARCH_SUPEROPTIMIZER_H
