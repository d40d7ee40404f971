//===- SearchCache.cpp - Search outcomes in the result cache -------------===//

#include "SearchCache.h"

#include "Mirage/Verify/Equivalence.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
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
     << "\nnote " << outcome.note << "\n"
     << outcome.program;
  return p;
}

/// Reads a payload back; nullopt if it is malformed.
static std::optional<CachedOutcome> parseOutcome(StringRef payload) {
  auto line = [&](StringRef tag, StringRef &value) {
    size_t end = payload.find('\n');
    if (end == StringRef::npos)
      return false;
    value = payload.take_front(end);
    payload = payload.drop_front(end + 1);
    return value.consume_front(tag);
  };
  StringRef kernels, micros, summary, note;
  if (!line("kernels ", kernels) || !line("micros ", micros) ||
      !line("summary ", summary) || !line("note ", note))
    return std::nullopt;
  CachedOutcome o;
  if (kernels.getAsInteger(10, o.kernels) || micros.getAsDouble(o.micros) ||
      !(o.micros > 0) || summary.empty())
    return std::nullopt;
  o.summary = summary.str();
  o.note = note.str();
  o.program = payload.str();
  return o;
}

std::optional<CachedOutcome>
lookupOutcome(const ResultCache &cache, StringRef key, std::string &problem) {
  std::optional<std::string> payload = cache.lookup(key, problem);
  if (!payload)
    return std::nullopt;
  std::optional<CachedOutcome> outcome = parseOutcome(*payload);
  if (!outcome)
    problem = "malformed payload in " + cache.entryPath(key);
  return outcome;
}

bool recheckCachedProgram(StringRef program, StringRef entryPath,
                          func::FuncOp reference, uint64_t seed,
                          std::string &problem) {
  OwningOpRef<ModuleOp> parsed;
  {
    ScopedDiagnosticHandler quiet(reference.getContext(),
                                  [](Diagnostic &) { return success(); });
    parsed = parseSourceString<ModuleOp>(program,
                                         ParserConfig(reference.getContext()));
  }
  func::FuncOp candidate;
  if (parsed)
    for (func::FuncOp f : parsed->getBody()->getOps<func::FuncOp>()) {
      candidate = f;
      break;
    }
  verify::EquivalenceResult check;
  if (candidate && candidate.getFunctionType() == reference.getFunctionType()) {
    verify::EquivalenceOptions eo;
    eo.numTests = 1;
    eo.seed = seed + 1;
    eo.floatCheck = false;
    check = verify::checkEquivalence(reference, candidate, eo);
  }
  if (check.verdict == verify::Verdict::Equivalent)
    return true;
  problem = ("cached program in " + entryPath + " failed the re-check").str() +
            (check.reason.empty() ? "" : ": " + check.reason);
  return false;
}

} // namespace mirage::search::detail
