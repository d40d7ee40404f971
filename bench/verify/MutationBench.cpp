//===- MutationBench.cpp - Mutation testing of lib/Verify -----------------===//
//
// For every function with an `mk.reference` in the given files (a seed pair,
// which must itself be equivalent), generates every single mutation of the
// candidate, each on a clone of the candidate function built with the C++ API:
//  - imap / fmap / omap: each entry changed to every other value (-1 or a dim);
//  - accum: each accumulator replaced by each sibling kind (sum, sum_last,
//    mean_last, rms_last, sum_to with every dimx dividing n, max; rescaled_sum
//    only loses its max operand, nothing becomes one);
//  - unary / binary: each element-wise op of mk, mb and mt replaced by each
//    sibling of the same arity;
//  - swap: the operands of each binary op (element-wise or matmul) swapped;
//  - reduce: reduce_sum <-> reduce_max and every other dim;
//  - const: each scalar constant (mul_scalar, add_scalar, clamp bounds, rms
//    eps) times (1 + 1e-3) and times 2;
//  - grid / forloop: each grid entry and the loop range set to every other
//    value of {1, 2, 3, 4, 6, 8, 12, 16, 2c, c/2} (c the current one);
//  - mapswap: two entries of an imap or omap exchanged;
//  - operand: each operand replaced by every other visible value of the same
//    type (reading the wrong tensor, tile or accumulator).
// After the edit the result types of the function are re-inferred (tile
// shapes from grid, forloop, imap and fmap; shape rules of the ops), so a
// mutation that keeps every division exact and every signature stays valid;
// the MLIR verifier decides, and invalid mutants are dropped and counted.
//
// Each valid mutant gets the field verdict (checkEquivalence with
// floatCheck = false) and the f64 verdict (checkFloat with the default
// FloatCheckOptions). A mutant the field accepts and the f64 check rejects is
// a verifier defect: it is printed and the run exits with 1. Mutants the
// field rejects and the f64 check accepts are listed with the reason (a real
// difference below the f64 tolerance, or a structure-only comparison), and
// mutants both accept (truly equivalent ones: commuted adds, re-tilings).
//
//===----------------------------------------------------------------------===//

#include "../BenchSupport.h"

#include "Mirage/InitMirage.h"
#include "Mirage/Verify/Equivalence.h"
#include "Mutations.h"
#include "ReferencePairs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <map>

using namespace mlir;
using namespace mirage;
using namespace mirage::verify;
using namespace mirage::mutation;

static llvm::cl::list<std::string> inputFiles(llvm::cl::Positional,
                                              llvm::cl::desc("<files>"),
                                              llvm::cl::OneOrMore);
static llvm::cl::opt<std::string>
    jsonFile("json",
             llvm::cl::desc("also write the results as JSON to this "
                            "file ('-' for stdout)"),
             llvm::cl::init(""));
static llvm::cl::opt<unsigned>
    fieldTests("tests", llvm::cl::desc("field tests per mutant"),
               llvm::cl::init(4));
static llvm::cl::opt<unsigned>
    minMutants("min-mutants",
               llvm::cl::desc("exit with 1 if fewer valid mutants are made"),
               llvm::cl::init(0));
static llvm::cl::opt<double> floatTolerance(
    "float-tolerance",
    llvm::cl::desc("tolerance of the f64 check of the mutants (default: "
                   "FloatCheckOptions' 1e-6; a tiny value turns rounding "
                   "differences into reported defects, to test the report)"),
    llvm::cl::init(-1));
static llvm::cl::opt<bool>
    verbose("v", llvm::cl::desc("print every valid mutant and its verdicts"),
            llvm::cl::init(false));

namespace {

/// All the digits of a double (counterexample values may differ in the last).
std::string formatExact(double d) {
  std::string s;
  llvm::raw_string_ostream(s) << llvm::format("%.17g", d);
  return s;
}

//===----------------------------------------------------------------------===//
// Outcomes
//===----------------------------------------------------------------------===//

enum class Outcome {
  AgreeReject, // field and f64 reject
  AgreeAccept, // field and f64 accept: a truly equivalent mutant
  Defect,      // field accepts, f64 rejects
  FalseReject, // field rejects, f64 accepts
  AcceptFloatUnknown,
  RejectFloatUnknown,
  FieldUnknown, // field unknown or invalid
  // Field accepts, f64 finds the candidate undefined (NaN without an
  // overflow) where the reference is defined, e.g. the sqrt of a negative
  // real: a blind spot of the field (its sqrt is total) that the f64 part
  // of the verdict covers, so the reported verdict rejects it.
  FieldBlindSpot,
};
constexpr unsigned kNumOutcomes = 8;

struct Row {
  std::string file, function;
  Mutation mutation;
  Verdict field = Verdict::Unknown, flt = Verdict::Unknown;
  Outcome outcome = Outcome::AgreeReject;
  double floatMaxRelDiff = 0;
  std::string note;
};

struct KindCounts {
  unsigned generated = 0, invalid = 0, valid = 0;
  unsigned outcomes[kNumOutcomes] = {};
};

/// Why the field rejects a mutant the f64 check accepts. Two cases: the
/// mutant really differs, by less than the f64 tolerance (the field is
/// right), or the f64 runs see no difference beyond rounding (a true false
/// reject, from the structure-only comparison of max/relu/clamp/pow).
/// Whether `func` uses an op the field compares by structure only (max,
/// relu, clamp, pow: docs/verification.md §2).
bool usesStructureOnlyOps(func::FuncOp func) {
  bool found = false;
  func.walk([&](Operation *op) {
    if (auto ew = dyn_cast<ElementwiseOpInterface>(op)) {
      ElementwiseKind k = ew.getElementwiseKind();
      found |= k == ElementwiseKind::Relu || k == ElementwiseKind::Clamp ||
               k == ElementwiseKind::Pow;
    }
    StringRef name = op->getName().stripDialect();
    found |= name == "reduce_max" || name == "accum_max";
  });
  return found;
}

std::string falseRejectReason(const Mutation &m, func::FuncOp mutant,
                              const FloatCheckResult &flt, double tolerance) {
  bool structureOnly = usesStructureOnlyOps(mutant);
  std::string diff = "f64 max relative difference " +
                     formatDouble(flt.maxRelDiff) + ", tolerance " +
                     formatDouble(tolerance);
  bool rounding = flt.maxRelDiff <= 1e-12;
  if (!rounding && m.kind == MutKind::Const)
    return "correct reject: the perturbed constant changes the result by "
           "less than the f64 tolerance; the field compares the exact "
           "constant (" +
           diff + ")";
  if (!rounding)
    return "correct reject: a difference below the f64 tolerance (" + diff +
           ")";
  if (structureOnly && m.kind == MutKind::Const)
    return "false reject: the perturbed clamp/relu bound is never reached "
           "on the f64 inputs, but max/relu/clamp/pow are compared by "
           "structure only in the field (" +
           diff + ")";
  if (structureOnly)
    return "false reject: max/relu/clamp/pow are compared by structure only "
           "in the field (" +
           diff + ")";
  return "unexplained: no difference beyond rounding in f64 (" + diff + ")";
}

std::string describeFloat(const FloatCheckResult &r) {
  std::string s = stringifyVerdict(r.verdict).str();
  if (r.counterexample) {
    const FloatCounterexample &c = *r.counterexample;
    s += " (" + stringifyDistribution(c.distribution).str() + ", output #" +
         std::to_string(c.outputIndex) + " " + formatIndex(c.element) + ": " +
         formatExact(c.referenceValue) + " vs " +
         formatExact(c.candidateValue) + ")";
  } else if (!r.reason.empty()) {
    s += " (" + r.reason + ")";
  } else {
    s += " (max relative difference " + formatDouble(r.maxRelDiff) + ")";
  }
  return s;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "Mutation testing of the Mirage "
                                    "equivalence verifier\n");
  MLIRContext ctx;
  mirage::bench::loadBenchDialects(ctx);

  auto start = std::chrono::steady_clock::now();
  llvm::raw_ostream &os = llvm::outs();
  unsigned badInputs = 0, seedPairs = 0, badSeeds = 0;
  KindCounts counts[kNumKinds];
  std::vector<Row> rows;
  std::map<std::string, unsigned> invalidReasons;

  FloatCheckOptions floatOptions;
  floatOptions.parallel = false;
  if (floatTolerance >= 0)
    floatOptions.tolerance = floatTolerance;
  EquivalenceOptions fieldOptions;
  fieldOptions.floatCheck = false;
  fieldOptions.numTests = fieldTests;
  fieldOptions.parallel = false;

  for (const std::string &file : inputFiles) {
    std::string base = llvm::StringRef(file).rsplit('/').second.str();
    if (base.empty())
      base = file;
    if (!llvm::sys::fs::exists(file)) {
      llvm::errs() << "error: " << file << ": no such file\n";
      ++badInputs;
      continue;
    }
    llvm::SourceMgr sm;
    OwningOpRef<ModuleOp> module;
    {
      SourceMgrDiagnosticHandler handler(sm, &ctx, llvm::errs());
      module = parseSourceFile<ModuleOp>(file, sm, &ctx);
    }
    if (!module) {
      llvm::errs() << "error: " << file << ": cannot parse (see above)\n";
      ++badInputs;
      continue;
    }
    bool missing = false;
    SmallVector<std::pair<func::FuncOp, func::FuncOp>> todo =
        bench::findReferencePairs(
            *module, [&](func::FuncOp f, FlatSymbolRefAttr sym) {
              llvm::errs() << "error: " << file << ": @" << f.getSymName()
                           << " names reference " << sym
                           << ", which does not exist\n";
              missing = true;
            });
    if (missing) {
      ++badInputs;
      continue;
    }
    if (todo.empty()) {
      llvm::errs() << "error: " << file
                   << ": no function with 'mk.reference' (a seed file holds "
                      "a candidate and its reference)\n";
      ++badInputs;
      continue;
    }
    for (auto [ref, cand] : todo) {
      ++seedPairs;
      // The seed itself must be equivalent (field and f64).
      EquivalenceOptions seedOptions;
      seedOptions.parallel = false;
      seedOptions.floatOptions.parallel = false;
      EquivalenceResult seed = checkEquivalence(ref, cand, seedOptions);
      if (seed.verdict != Verdict::Equivalent) {
        llvm::errs() << "error: " << base << " @" << cand.getSymName()
                     << ": the seed pair is not equivalent ("
                     << stringifyVerdict(seed.verdict) << ": "
                     << (seed.reason.empty() ? "field counterexample"
                                             : seed.reason)
                     << "); not mutated\n";
        ++badSeeds;
        continue;
      }
      std::vector<Mutation> mutations = enumerateMutations(cand);
      unsigned serial = 0;
      for (const Mutation &m : mutations) {
        KindCounts &kc = counts[static_cast<unsigned>(m.kind)];
        ++kc.generated;
        func::FuncOp mutant = cand.clone();
        mutant.setSymName(
            (cand.getSymName() + "__mutant" + std::to_string(serial++)).str());
        module->push_back(mutant);
        std::string why;
        bool ok = applyMutation(mutant, m, why) && retypeFunction(mutant, why);
        if (ok) {
          std::string first;
          ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
            if (first.empty() && d.getSeverity() == DiagnosticSeverity::Error)
              first = d.str();
            return success();
          });
          ok = succeeded(mlir::verify(mutant));
          if (!ok)
            why = first;
        }
        if (!ok) {
          ++kc.invalid;
          // The constraint tag ("[B5]") or the first words name the reason.
          std::string key = why;
          if (size_t lb = why.find('[');
              lb != std::string::npos && why.find(']', lb) != std::string::npos)
            key = why.substr(lb, why.find(']', lb) - lb + 1);
          else if (key.size() > 60)
            key = key.substr(0, 60);
          ++invalidReasons[key];
          mutant.erase();
          continue;
        }
        ++kc.valid;
        fieldOptions.seed = 0;
        EquivalenceResult field = checkEquivalence(ref, mutant, fieldOptions);
        FloatCheckResult flt = checkFloat(ref, mutant, floatOptions, 0);
        Row row;
        row.file = base;
        row.function = cand.getSymName().str();
        row.mutation = m;
        row.field = field.fieldVerdict;
        row.flt = flt.verdict;
        row.floatMaxRelDiff = flt.maxRelDiff;
        bool fEq = field.fieldVerdict == Verdict::Equivalent;
        bool fNe = field.fieldVerdict == Verdict::NotEquivalent;
        bool xEq = flt.verdict == Verdict::Equivalent;
        bool xNe = flt.verdict == Verdict::NotEquivalent;
        if (!fEq && !fNe) {
          row.outcome = Outcome::FieldUnknown;
          row.note = "field " + stringifyVerdict(field.fieldVerdict).str() +
                     ": " + field.reason + "; f64 " + describeFloat(flt);
        } else if (fEq && xEq) {
          row.outcome = Outcome::AgreeAccept;
          row.note =
              "f64 max relative difference " + formatDouble(flt.maxRelDiff);
        } else if (fEq && xNe && flt.counterexample &&
                   std::isinf(flt.counterexample->relDiff)) {
          row.outcome = Outcome::FieldBlindSpot;
          row.note = "f64 " + describeFloat(flt);
        } else if (fEq && xNe) {
          row.outcome = Outcome::Defect;
          row.note = "f64 " + describeFloat(flt);
        } else if (fNe && xEq) {
          row.outcome = Outcome::FalseReject;
          row.note = falseRejectReason(m, mutant, flt, floatOptions.tolerance);
        } else if (fEq) {
          row.outcome = Outcome::AcceptFloatUnknown;
          row.note = "f64 " + describeFloat(flt);
        } else if (xNe) {
          row.outcome = Outcome::AgreeReject;
        } else {
          row.outcome = Outcome::RejectFloatUnknown;
          row.note = "f64 " + describeFloat(flt);
        }
        ++kc.outcomes[static_cast<unsigned>(row.outcome)];
        if (verbose)
          os << base << " @" << row.function << ": " << row.mutation.description
             << ": field " << stringifyVerdict(row.field) << ", f64 "
             << describeFloat(flt) << "\n";
        rows.push_back(std::move(row));
        mutant.erase();
      }
    }
  }
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();

  // Table.
  static const char *outcomeNames[kNumOutcomes] = {
      "both-reject", "both-accept", "DEFECT",        "false-reject",
      "acc/f64-unk", "rej/f64-unk", "field-unknown", "blind-spot"};
  os << llvm::format("%-8s %9s %7s %6s", "kind", "generated", "invalid",
                     "valid");
  for (const char *n : outcomeNames)
    os << llvm::format(" %13s", n);
  os << "\n";
  KindCounts total;
  for (unsigned k = 0; k < kNumKinds; ++k) {
    const KindCounts &c = counts[k];
    total.generated += c.generated;
    total.invalid += c.invalid;
    total.valid += c.valid;
    os << llvm::format("%-8s %9u %7u %6u", kindName(MutKind(k)), c.generated,
                       c.invalid, c.valid);
    for (unsigned o = 0; o < kNumOutcomes; ++o) {
      total.outcomes[o] += c.outcomes[o];
      os << llvm::format(" %13u", c.outcomes[o]);
    }
    os << "\n";
  }
  os << llvm::format("%-8s %9u %7u %6u", "total", total.generated,
                     total.invalid, total.valid);
  for (unsigned o = 0; o < kNumOutcomes; ++o)
    os << llvm::format(" %13u", total.outcomes[o]);
  os << "\n";
  unsigned agree = total.outcomes[0] + total.outcomes[1];
  os << seedPairs << " seed pairs (" << badSeeds << " not equivalent), "
     << total.valid << " valid mutants, " << total.invalid
     << " invalid dropped; field and f64 agree on " << agree << "; "
     << total.outcomes[static_cast<unsigned>(Outcome::Defect)]
     << " defects (field equivalent, f64 not); "
     << llvm::format("%.1f s", seconds) << "\n";
  os << "invalid mutants by first verifier error:\n";
  for (auto &[reason, n] : invalidReasons)
    os << "  " << n << " " << reason << "\n";

  auto list = [&](Outcome o, const char *title) {
    unsigned n = total.outcomes[static_cast<unsigned>(o)];
    if (!n)
      return;
    os << title << " (" << n << "):\n";
    for (const Row &r : rows)
      if (r.outcome == o)
        os << "  " << r.file << " @" << r.function << ": "
           << r.mutation.description << ": field " << stringifyVerdict(r.field)
           << ", f64 " << stringifyVerdict(r.flt)
           << (r.note.empty() ? "" : "; ") << r.note << "\n";
  };
  list(Outcome::Defect, "DEFECTS: field equivalent, f64 not equivalent");
  list(Outcome::FalseReject, "false rejects: field not equivalent, f64 "
                             "equivalent");
  list(Outcome::AgreeAccept, "truly equivalent mutants: both accept");
  list(Outcome::AcceptFloatUnknown,
       "field equivalent, f64 not decisive (unconfirmed)");
  list(Outcome::RejectFloatUnknown, "field not equivalent, f64 not decisive");
  list(Outcome::FieldUnknown, "field unknown or invalid");
  list(Outcome::FieldBlindSpot,
       "field blind spots (field equivalent, f64 undefined in the candidate "
       "only; rejected by the combined verdict)");

  if (!jsonFile.empty()) {
    llvm::json::Array kinds, mutants;
    for (unsigned k = 0; k < kNumKinds; ++k) {
      llvm::json::Object o{{"kind", kindName(MutKind(k))},
                           {"generated", counts[k].generated},
                           {"invalid", counts[k].invalid},
                           {"valid", counts[k].valid}};
      for (unsigned i = 0; i < kNumOutcomes; ++i)
        o[outcomeNames[i]] = counts[k].outcomes[i];
      kinds.push_back(std::move(o));
    }
    for (const Row &r : rows)
      mutants.push_back(llvm::json::Object{
          {"file", r.file},
          {"function", r.function},
          {"kind", kindName(r.mutation.kind)},
          {"mutation", r.mutation.description},
          {"field", stringifyVerdict(r.field)},
          {"float", stringifyVerdict(r.flt)},
          {"outcome", outcomeNames[static_cast<unsigned>(r.outcome)]},
          {"floatMaxRelDiff", r.floatMaxRelDiff},
          {"note", r.note}});
    llvm::json::Object top{
        {"seedPairs", seedPairs},
        {"badSeeds", badSeeds},
        {"valid", total.valid},
        {"invalid", total.invalid},
        {"agree", agree},
        {"defects", total.outcomes[static_cast<unsigned>(Outcome::Defect)]},
        {"seconds", seconds},
        {"kinds", std::move(kinds)},
        {"mutants", std::move(mutants)}};
    if (!mirage::bench::writeJsonFile(jsonFile, std::move(top)))
      return 1;
  }

  os.flush();
  bool fail = false;
  if (badInputs || badSeeds) {
    llvm::errs() << "error: " << badInputs << " bad input files, " << badSeeds
                 << " seed pairs not equivalent\n";
    fail = true;
  }
  if (total.outcomes[static_cast<unsigned>(Outcome::Defect)]) {
    llvm::errs() << "error: "
                 << total.outcomes[static_cast<unsigned>(Outcome::Defect)]
                 << " verifier defects (field equivalent, f64 not)\n";
    fail = true;
  }
  if (total.valid < minMutants) {
    llvm::errs() << "error: " << total.valid << " valid mutants, fewer than "
                 << "--min-mutants=" << minMutants << "\n";
    fail = true;
  }
  return fail ? 1 : 0;
}
