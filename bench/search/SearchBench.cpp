//===- SearchBench.cpp - Benchmark of the superoptimizer ------------------===//
//
// Runs the search of lib/Search on each benchmark program and prints, per
// program, the search and verification times, the search statistics and the
// best program found, next to the modelled time of the hand-written
// known-good program when one is given:
//
//   mirage-search-bench [--search-threads=N] [--json=FILE]
//       bench/programs/rmsnorm_matmul_bs1.mlir:test/Programs/rmsnorm_matmul_fused.mlir
//       ...
//
// Each argument is PROGRAM[:KNOWN_GOOD]; KNOWN_GOOD is a file whose function
// with an `mk.reference` attribute is the hand-written fused program.
//
//===----------------------------------------------------------------------===//

#include "../BenchSupport.h"

#include "Mirage/InitMirage.h"
#include "Mirage/Search/Superoptimizer.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace mlir;
using namespace mirage;
using namespace mirage::search;

static llvm::cl::list<std::string>
    inputs(llvm::cl::Positional, llvm::cl::desc("<program[:known-good]>"),
           llvm::cl::OneOrMore);
static llvm::cl::opt<unsigned>
    threads("search-threads",
            llvm::cl::desc("worker threads of the enumeration"),
            llvm::cl::init(2));
static llvm::cl::opt<std::string>
    chip("target-chip",
         llvm::cl::desc("target of the cost proxy (sm_80, sm_90)"),
         llvm::cl::init("sm_90"));
static llvm::cl::opt<std::string>
    rank("rank",
         llvm::cl::desc("ranking: kernels (count, then modelled time) or "
                        "time (modelled time)"),
         llvm::cl::init("kernels"));
static llvm::cl::opt<std::string>
    jsonFile("json", llvm::cl::desc("also write the results as JSON here"),
             llvm::cl::init(""));

namespace {
OwningOpRef<ModuleOp> load(MLIRContext &ctx, StringRef path) {
  OwningOpRef<ModuleOp> m = parseSourceFile<ModuleOp>(path, &ctx);
  if (!m)
    llvm::errs() << "error: cannot parse " << path << "\n";
  return m;
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "Mirage superoptimizer benchmark\n");
  MLIRContext ctx;
  mirage::bench::loadBenchDialects(ctx);

  SuperoptimizeOptions options;
  options.threads = threads;
  options.chip = chip;
  if (rank != "kernels" && rank != "time") {
    llvm::errs() << "error: --rank must be kernels or time\n";
    return 1;
  }
  options.rankByKernels = rank == "kernels";
  llvm::json::Array rows;
  bool failedAny = false;
  llvm::outs() << llvm::format("%-22s %8s %8s %10s %11s %6s %4s %8s %8s  %s\n",
                               "program", "search_s", "verify_s", "states",
                               "pruned", "cands", "ver", "best_us", "known_us",
                               "best program");
  for (const std::string &arg : inputs) {
    StringRef program = arg, knownGood;
    if (size_t colon = StringRef(arg).find(':'); colon != StringRef::npos) {
      program = StringRef(arg).take_front(colon);
      knownGood = StringRef(arg).drop_front(colon + 1);
    }
    OwningOpRef<ModuleOp> m = load(ctx, program);
    if (!m)
      return 1;
    std::optional<double> knownMicros;
    if (!knownGood.empty()) {
      OwningOpRef<ModuleOp> k = load(ctx, knownGood);
      if (!k)
        return 1;
      for (auto f : k->getOps<func::FuncOp>())
        if (f->hasAttr("mk.reference"))
          if (auto cost = estimateProgramCost(f, chip); succeeded(cost))
            knownMicros = cost->second;
    }
    for (auto func : m->getOps<func::FuncOp>()) {
      std::string error;
      auto start = std::chrono::steady_clock::now();
      FailureOr<SuperoptimizeResult> r = superoptimize(func, options, error);
      double wall = std::chrono::duration<double>(
                        std::chrono::steady_clock::now() - start)
                        .count();
      std::string name = llvm::sys::path::stem(program).str();
      if (failed(r)) {
        llvm::outs() << name << ": not supported: " << error << "\n";
        failedAny = true;
        continue;
      }
      const SuperoptimizeStats &s = r->stats;
      failedAny |= r->program.empty();
      llvm::outs() << llvm::format(
          "%-22s %8.2f %8.2f %10llu %11llu %6llu %4llu %8.1f %8s  %s\n",
          name.c_str(), s.searchSeconds, s.verifySeconds,
          (unsigned long long)s.states, (unsigned long long)s.pruned,
          (unsigned long long)s.candidates, (unsigned long long)s.verified,
          r->modelledMicros,
          knownMicros ? llvm::formatv("{0:F1}", *knownMicros).str().c_str()
                      : "-",
          r->program.empty() ? "(none)" : r->summary.c_str());
      llvm::json::Object row{
          {"program", name},
          {"search_seconds", s.searchSeconds},
          {"verify_seconds", s.verifySeconds},
          {"wall_seconds", wall},
          {"saturation_seconds", s.saturationSeconds},
          {"egraph_nodes", static_cast<int64_t>(s.egraphNodes)},
          {"states", static_cast<int64_t>(s.states)},
          {"pruned", static_cast<int64_t>(s.pruned)},
          {"duplicates", static_cast<int64_t>(s.duplicates)},
          {"candidates", static_cast<int64_t>(s.candidates)},
          {"fingerprinted", static_cast<int64_t>(s.fingerprinted)},
          {"verified", static_cast<int64_t>(s.verified)},
          {"kernels", static_cast<int64_t>(r->kernels)},
          {"modelled_us", r->modelledMicros},
          {"summary", r->summary},
          {"timed_out", s.timedOut}};
      if (knownMicros)
        row["known_good_modelled_us"] = *knownMicros;
      rows.push_back(std::move(row));
    }
  }
  if (!jsonFile.empty() &&
      !mirage::bench::writeJsonFile(jsonFile, std::move(rows)))
    return 1;
  return failedAny ? 1 : 0;
}
