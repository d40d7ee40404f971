//===- Passes.cpp - Superoptimizer pass -----------------------------------===//
//
// --mirage-superoptimize: runs the search of Superoptimizer.h on every
// function of pre-defined mk ops and rewrites it in place with the result.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/Passes.h"

#include "Mirage/Dialect/Kernel/IR/Kernel.h"
#include "Mirage/Search/Superoptimizer.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

namespace mirage::search {
#define GEN_PASS_DEF_MIRAGESUPEROPTIMIZE
#include "Mirage/Search/Passes.h.inc"
} // namespace mirage::search

using namespace mlir;
using namespace mirage;
using namespace mirage::search;

namespace {

struct SuperoptimizePass
    : mirage::search::impl::MirageSuperoptimizeBase<SuperoptimizePass> {
  using Base::Base;

  LogicalResult checkOptions() {
    ModuleOp module = getOperation();
    auto bad = [&](const Twine &msg) {
      emitError(module.getLoc(), "mirage-superoptimize: ") << msg;
      return failure();
    };
    if (maxBlockOps < 1 || maxBlockOps > 16)
      return bad("max-block-ops must be in [1, 16], got " +
                 Twine(maxBlockOps.getValue()));
    if (maxKernelOps < 1 || maxKernelOps > 8)
      return bad("max-kernel-ops must be in [1, 8], got " +
                 Twine(maxKernelOps.getValue()));
    if (maxGraphKernels > 8)
      return bad("max-graph-kernels must be in [0, 8]");
    if (maxKernelInputs < 1 || maxKernelInputs > 8)
      return bad("max-kernel-inputs must be in [1, 8]");
    if (maxKernelOutputs < 1 || maxKernelOutputs > 4)
      return bad("max-kernel-outputs must be in [1, 4]");
    if (maxBlocks < 1)
      return bad("max-blocks must be >= 1");
    if (maxBlockThreads < 32 || maxBlockThreads > 1024 ||
        (maxBlockThreads & (maxBlockThreads - 1)) != 0)
      return bad("max-block-threads must be a power of two in [32, 1024]");
    if (threads < 1 || threads > 256)
      return bad("threads must be in [1, 256]");
    if (!(timeBudget > 0) || timeBudget > 1e6)
      return bad("time-budget must be in (0, 1e6] seconds");
    if (!(verifyBudget >= 0) || verifyBudget > 1e6)
      return bad("verify-budget must be in [0, 1e6] seconds");
    if (rank != "kernels" && rank != "time")
      return bad("rank must be 'kernels' or 'time', got '" + rank + "'");
    if (!(deepenFactor >= 0) || deepenFactor > 1e6)
      return bad("deepen-factor must be in [0, 1e6]");
    if (finalTests < 1)
      return bad("final-tests must be >= 1");
    if (chip != "sm_80" && chip != "sm_90")
      return bad("unknown chip '" + chip + "' (expected sm_80 or sm_90)");
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(checkOptions()))
      return signalPassFailure();
    SuperoptimizeOptions o;
    o.maxKernelOps = maxKernelOps;
    o.maxGraphKernels = maxGraphKernels;
    o.maxBlockOps = maxBlockOps;
    o.maxKernelInputs = maxKernelInputs;
    o.maxKernelOutputs = maxKernelOutputs;
    o.maxBlocks = maxBlocks;
    o.maxBlockThreads = maxBlockThreads;
    o.chip = chip;
    o.pruning = pruning;
    o.seed = seed;
    o.threads = threads;
    o.timeBudget = timeBudget;
    o.verifyBudget = verifyBudget;
    o.finalTests = finalTests;
    o.auditFingerprints = auditFingerprints;
    o.deepenFactor = deepenFactor;
    o.rankByKernels = rank == "kernels";

    SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
    SymbolTable symbols(module);
    for (func::FuncOp func : funcs) {
      if (func.isExternal() || func->hasAttr(mk::MKDialect::kReferenceAttrName))
        continue;
      bool hasKernel = false;
      func.walk([&](mk::GraphKernelOp) { hasKernel = true; });
      if (hasKernel) {
        emitRemark(func.getLoc(), "not superoptimized: the function already "
                                  "contains graph-defined kernels");
        continue;
      }
      // The verifier's shared-memory limit for kernels in this function:
      // the nearest mk.smem_limit, on the function or an enclosing op.
      o.smemLimit = mk::MKDialect::kDefaultSmemLimit;
      for (Operation *p = func; p; p = p->getParentOp())
        if (auto limit = p->getAttrOfType<IntegerAttr>(
                mk::MKDialect::kSmemLimitAttrName)) {
          o.smemLimit = limit.getInt();
          break;
        }
      std::string error;
      FailureOr<SuperoptimizeResult> r = superoptimize(func, o, error);
      if (failed(r)) {
        emitRemark(func.getLoc(), "not superoptimized: ") << error;
        continue;
      }
      const SuperoptimizeStats &s = r->stats;
      numStates += s.states;
      numPruned += s.pruned;
      numDuplicates += s.duplicates;
      numCandidates += s.candidates;
      numFingerprinted += s.fingerprinted;
      numVerified += s.verified;
      searchMillis += static_cast<uint64_t>(
          (s.searchSeconds + s.verifySeconds) * 1000.0);
      std::string statsLine;
      llvm::raw_string_ostream os(statsLine);
      os << "states " << s.states << ", pruned " << s.pruned
         << ", duplicates " << s.duplicates << ", candidates " << s.candidates
         << ", fingerprinted " << s.fingerprinted << " (rejected "
         << s.fingerprintRejected << "), verified " << s.verified << "; "
         << llvm::format("%.2f", s.searchSeconds) << " s search, "
         << llvm::format("%.2f", s.verifySeconds) << " s verification";
      if (s.deepened)
        os << ", deepened " << s.deepened << "x";
      if (s.budgetStop == BudgetStop::Enumeration)
        os << ", time budget reached in enumeration";
      else if (s.budgetStop == BudgetStop::Verification)
        os << ", time budget reached in verification (" << s.unchecked
           << " candidate(s) not checked)";
      if (s.budgetStop != BudgetStop::None)
        os << (r->program.empty() ? "" : ": best verified so far");
      if (s.pruningDisabled)
        os << ", pruning off (saturation incomplete)";
      if (auditFingerprints)
        os << "; fingerprint audit: " << s.audited << " candidates, "
           << s.auditCheapRejects << " rejected at reduced shapes, "
           << s.auditFullRejects << " rejected at real shapes, "
           << s.auditFalseRejects << " rejected only at reduced shapes";
      if (r->program.empty()) {
        emitRemark(func.getLoc(), "not superoptimized: no verified program (")
            << statsLine << ")";
        continue;
      }
      OwningOpRef<ModuleOp> parsed =
          parseSourceString<ModuleOp>(r->program, ParserConfig(&getContext()));
      if (!parsed) {
        func.emitError("mirage-superoptimize: internal error: the verified "
                       "program does not parse");
        return signalPassFailure();
      }
      auto best = *parsed->getBody()->getOps<func::FuncOp>().begin();
      if (keepReference) {
        func::FuncOp ref = func.clone();
        ref.setName((func.getName() + "_reference").str());
        symbols.insert(ref, Block::iterator(func));
        func->setAttr(mk::MKDialect::kReferenceAttrName,
                      FlatSymbolRefAttr::get(ref.getNameAttr()));
      }
      func.getBody().takeBody(best.getBody());
      std::string micros;
      llvm::raw_string_ostream(micros)
          << llvm::format("%.1f", r->modelledMicros);
      emitRemark(func.getLoc(), "superoptimized: ")
          << r->summary << "; " << r->kernels << " kernel(s), modelled "
          << micros << " us on " << chip << "; " << statsLine;
    }
  }
};

} // namespace
