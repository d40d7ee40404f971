//===- SearchCache.cpp - Search outcomes in the result cache -------------===//

#include "SearchCache.h"

#include "TargetImport.h"
#include "Verification.h"

#include "Mirage/Verify/Equivalence.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace mirage::search::detail {

std::string searchCacheKey(StringRef kind, StringRef canonicalText,
                           const SuperoptimizeOptions &o,
                           unsigned maxKernelOps) {
  std::string key;
  llvm::raw_string_ostream os(key);
  os << kind << "\n"
     << canonicalText << "\nchip " << o.chip << " rank "
     << (o.rankByKernels ? "kernels" : "time") << " kernel-ops " << maxKernelOps
     << " graph-kernels " << o.maxGraphKernels << " block-ops " << o.maxBlockOps
     << " inputs " << o.maxKernelInputs << " outputs " << o.maxKernelOutputs
     << " blocks " << o.maxBlocks << " block-threads " << o.maxBlockThreads
     << " smem " << o.smemLimit << " pruning " << o.pruning << " seed "
     << o.seed << " final-tests " << o.finalTests << " numerics " << o.numerics
     << " deepen " << llvm::format("%.17g", o.deepenFactor) << " verify-budget "
     << llvm::format("%.17g", o.verifyBudget);
  return key;
}

std::string canonicalFunctionText(func::FuncOp func) {
  OwningOpRef<func::FuncOp> copy(func.clone());
  copy->setName("f");
  std::string text;
  llvm::raw_string_ostream os(text);
  copy->print(os, OpPrintingFlags().useLocalScope());
  return text;
}

std::string formatOutcome(const CachedOutcome &outcome) {
  std::string p;
  llvm::raw_string_ostream os(p);
  os << "kernels " << outcome.kernels << "\nmicros "
     << llvm::format("%.17g", outcome.micros) << "\nsummary " << outcome.summary
     << "\nnote " << outcome.note << "\nstructure";
  for (int64_t v : outcome.structure)
    os << ' ' << v;
  os << "\n" << outcome.program.print();
  return p;
}

/// Reads a payload back, its program into `ctx`; nullopt if it is
/// malformed, with `problem` saying what was wrong.
static std::optional<CachedOutcome>
parseOutcome(StringRef payload, MLIRContext *ctx, std::string &problem) {
  auto line = [&](StringRef tag, StringRef &value) {
    size_t end = payload.find('\n');
    if (end == StringRef::npos)
      return false;
    value = payload.take_front(end);
    payload = payload.drop_front(end + 1);
    return value.consume_front(tag);
  };
  StringRef kernels, micros, summary, note;
  problem = "malformed payload";
  if (!line("kernels ", kernels) || !line("micros ", micros) ||
      !line("summary ", summary) || !line("note ", note))
    return std::nullopt;
  CachedOutcome o;
  if (kernels.getAsInteger(10, o.kernels) || micros.getAsDouble(o.micros) ||
      !(o.micros > 0) || summary.empty())
    return std::nullopt;
  o.summary = summary.str();
  o.note = note.str();
  // The structure line (entries written before it have none).
  if (payload.starts_with("structure")) {
    StringRef numbers;
    if (!line("structure", numbers))
      return std::nullopt;
    SmallVector<StringRef> fields;
    numbers.split(fields, ' ', -1, /*KeepEmpty=*/false);
    for (StringRef f : fields) {
      int64_t v;
      if (f.getAsInteger(10, v))
        return std::nullopt;
      o.structure.push_back(v);
    }
  }
  std::string error;
  FailureOr<ProgramModule> program = ProgramModule::parse(payload, ctx, error);
  if (failed(program)) {
    problem = "a program that " + error;
    return std::nullopt;
  }
  o.program = std::move(*program);
  problem.clear();
  return o;
}

std::optional<CachedOutcome> lookupOutcome(const ResultCache &cache,
                                           StringRef key, MLIRContext *ctx,
                                           std::string &problem) {
  std::optional<std::string> payload = cache.lookup(key, problem);
  if (!payload)
    return std::nullopt;
  std::optional<CachedOutcome> outcome = parseOutcome(*payload, ctx, problem);
  if (!outcome)
    problem += " in " + cache.entryPath(key);
  return outcome;
}

/// The re-check of `program` from its `structure`; nullopt when it cannot
/// decide and the full check must.
static std::optional<Recheck>
recheckFromStructure(const ProgramModule &program, ArrayRef<int64_t> structure,
                     func::FuncOp reference,
                     const SuperoptimizeOptions &options,
                     std::string &problem) {
  SuperoptimizeOptions o = options;
  o.pruning = false; // labels and constants only: no saturation
  Target target;
  std::string error;
  if (failed(importTarget(reference, o, target, error)))
    return std::nullopt;
  FailureOr<Candidate> c = candidateOfKey(structure, target, error);
  if (failed(c)) {
    problem = "its structure is malformed (" + error + ")";
    return Recheck::Failed;
  }
  OwningOpRef<ModuleOp> built;
  verify::Verdict v =
      recheckAtReducedShapes(target, *c, options.seed + 1, built);
  if (!built) {
    problem = "its structure does not build a program that verifies";
    return Recheck::Failed;
  }
  // The program used is the entry's; its structure must build exactly it.
  if (!OperationEquivalence::isEquivalentTo(
          ProgramModule(std::move(built)).func(), program.func(),
          OperationEquivalence::IgnoreLocations)) {
    problem = "its program is not the one its structure builds";
    return Recheck::Failed;
  }
  if (v == verify::Verdict::Equivalent)
    return Recheck::AtReducedShapes;
  if (v == verify::Verdict::NotEquivalent) {
    problem = "it differs from the function at reduced shapes";
    return Recheck::Failed;
  }
  return std::nullopt;
}

Recheck recheckCachedProgram(const ProgramModule &program,
                             ArrayRef<int64_t> structure, StringRef entryPath,
                             func::FuncOp reference,
                             const SuperoptimizeOptions &options,
                             std::string &problem) {
  func::FuncOp candidate = program.func();
  std::string why;
  std::optional<Recheck> verdict;
  if (!candidate || candidate.getFunctionType() != reference.getFunctionType())
    verdict = Recheck::Failed, why = "it has another signature";
  else if (!structure.empty())
    verdict = recheckFromStructure(program, structure, reference, options, why);
  if (!verdict) {
    verify::EquivalenceOptions eo;
    eo.numTests = 1;
    eo.seed = options.seed + 1;
    eo.floatCheck = false;
    verify::EquivalenceResult check =
        verify::checkEquivalence(reference, candidate, eo);
    verdict = check.verdict == verify::Verdict::Equivalent
                  ? Recheck::AtRealShapes
                  : Recheck::Failed;
    why = check.reason;
  }
  if (*verdict == Recheck::Failed)
    problem =
        ("cached program in " + entryPath + " failed the re-check").str() +
        (why.empty() ? "" : ": " + why);
  return *verdict;
}

} // namespace mirage::search::detail
