//===- VerifyBench.cpp - Benchmark and flakiness check of lib/Verify ------===//
//
// For every function with an `mk.reference` in the given files:
//  - default mode: the time of one finite-field test (fresh random inputs,
//    both programs, element-by-element comparison; thread CPU and wall time),
//    of one field evaluation of each program on prepared inputs and of one
//    f64 evaluation of each program (thread CPU time), best of --reps;
//  - `--final-check`: the wall time of the check the search runs on its
//    result (one field test, the f64 check on every distribution, and with
//    `--numerics` the check in the kernels' precision), and its verdict;
//  - `--seeds=N`: runs the equivalence check with seeds 0..N-1 and reports
//    pairs whose verdict changes with the seed (flaky) or differs from the
//    expected one (files under a `not-equivalent` directory must be rejected,
//    all others accepted). Exits with 1 if any pair is flaky or wrong.
//
//===----------------------------------------------------------------------===//

#include "../BenchSupport.h"

#include "ReferencePairs.h"

#include "Mirage/InitMirage.h"
#include "Mirage/Verify/Equivalence.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <ctime>

using namespace mlir;
using namespace mirage;
using namespace mirage::verify;

static llvm::cl::list<std::string> inputFiles(llvm::cl::Positional,
                                              llvm::cl::desc("<files>"),
                                              llvm::cl::OneOrMore);
static llvm::cl::opt<unsigned>
    repetitions("reps", llvm::cl::desc("timed repetitions per measurement"),
                llvm::cl::init(3));
static llvm::cl::opt<unsigned>
    seeds("seeds",
          llvm::cl::desc("check verdicts over this many seeds instead of "
                         "timing"),
          llvm::cl::init(0));
static llvm::cl::opt<bool>
    finalCheck("final-check",
               llvm::cl::desc("time the search's final check (one field "
                              "test and the f64 check) instead"),
               llvm::cl::init(false));
static llvm::cl::opt<bool>
    withNumerics("numerics",
                 llvm::cl::desc("with --final-check: also the check in the "
                                "kernels' precision"),
                 llvm::cl::init(false));
static llvm::cl::opt<unsigned>
    testsPerSeed("tests", llvm::cl::desc("field tests per check with --seeds"),
                 llvm::cl::init(4));

namespace {
/// Thread CPU time and wall time of one call, in seconds.
struct Timing {
  double cpu = 0, wall = 0;
};

double threadCpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

template <typename F> Timing timeIt(F f) {
  Timing best{1e30, 1e30};
  for (unsigned r = 0; r < repetitions; ++r) {
    double c0 = threadCpuSeconds();
    auto w0 = std::chrono::steady_clock::now();
    f(r);
    double cpu = threadCpuSeconds() - c0;
    double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - w0)
            .count();
    best.cpu = std::min(best.cpu, cpu);
    best.wall = std::min(best.wall, wall);
  }
  return best;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::ParseCommandLineOptions(argc, argv, "Mirage verifier benchmark\n");
  MLIRContext ctx;
  mirage::bench::loadBenchDialects(ctx);

  llvm::raw_ostream &os = llvm::outs();
  unsigned bad = 0, pairs = 0;
  if (finalCheck)
    os << llvm::format("%-28s %-22s %9s  %s\n", "file", "candidate", "wall",
                       "verdict");
  else if (!seeds)
    os << llvm::format("%-28s %-22s %11s %11s %9s %9s %9s %9s\n", "file",
                       "candidate", "ff-test", "ff-test", "ff-ref", "ff-cand",
                       "float-ref", "float-cand")
       << llvm::format("%-28s %-22s %11s %11s %9s %9s %9s %9s\n", "", "", "cpu",
                       "wall", "cpu", "cpu", "cpu", "cpu");
  for (const std::string &file : inputFiles) {
    llvm::SourceMgr sm;
    OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(file, sm, &ctx);
    if (!module) {
      llvm::errs() << file << ": cannot parse\n";
      ++bad;
      continue;
    }
    bool expectNotEquivalent = llvm::StringRef(file).contains("not-equivalent");
    std::string base = llvm::StringRef(file).rsplit('/').second.str();
    if (base.empty())
      base = file;
    // A candidate without its reference is not a pair; skip it.
    SmallVector<std::pair<func::FuncOp, func::FuncOp>> todo =
        bench::findReferencePairs(*module,
                                  [](func::FuncOp, FlatSymbolRefAttr) {});
    for (auto &pair : todo) {
      func::FuncOp ref = pair.first, cand = pair.second;
      ++pairs;
      if (seeds) {
        EquivalenceOptions options;
        options.numTests = testsPerSeed;
        options.floatCheck = false;
        Verdict first = Verdict::Unknown;
        bool flaky = false;
        for (unsigned s = 0; s < seeds; ++s) {
          options.seed = s;
          Verdict v = checkEquivalence(ref, cand, options).verdict;
          if (s == 0)
            first = v;
          flaky |= v != first;
        }
        Verdict want =
            expectNotEquivalent ? Verdict::NotEquivalent : Verdict::Equivalent;
        const char *status = flaky ? "FLAKY" : first != want ? "WRONG" : "ok";
        if (flaky || first != want)
          ++bad;
        os << status << " " << base << " @" << cand.getSymName() << ": "
           << stringifyVerdict(first) << " over " << seeds << " seeds\n";
        continue;
      }
      if (finalCheck) {
        EquivalenceOptions options;
        options.numTests = 1;
        options.numericsCheck = withNumerics;
        Verdict verdict = Verdict::Unknown;
        Timing t = timeIt([&](unsigned r) {
          options.seed = r;
          verdict = checkEquivalence(ref, cand, options).verdict;
        });
        os << llvm::format("%-28s %-22s %8.3fs  ", base.c_str(),
                           cand.getSymName().str().c_str(), t.wall)
           << stringifyVerdict(verdict) << "\n";
        continue;
      }
      EquivalenceOptions options;
      options.numTests = 1;
      options.floatCheck = false;
      Timing ff = timeIt([&](unsigned r) {
        options.seed = r;
        (void)checkEquivalence(ref, cand, options);
      });
      // One field evaluation of each program on prepared inputs.
      FieldTest test(1);
      std::vector<FieldTensor> fin = randomFieldInputs(ref, test, 1);
      EvalError err;
      Timing er =
          timeIt([&](unsigned) { (void)evaluateField(ref, fin, test, err); });
      Timing ec =
          timeIt([&](unsigned) { (void)evaluateField(cand, fin, test, err); });
      fin.clear();
      std::vector<FloatTensor> in = randomFloatInputs(ref, 0);
      Timing fr = timeIt([&](unsigned) { (void)evaluateFloat(ref, in, err); });
      Timing fc = timeIt([&](unsigned) { (void)evaluateFloat(cand, in, err); });
      os << llvm::format("%-28s %-22s %10.3fs %10.3fs %8.3fs %8.3fs %8.3fs "
                         "%8.3fs\n",
                         base.c_str(), cand.getSymName().str().c_str(), ff.cpu,
                         ff.wall, er.cpu, ec.cpu, fr.cpu, fc.cpu);
    }
  }
  if (seeds)
    os << pairs << " pairs, " << bad << " flaky or wrong\n";
  return bad ? 1 : 0;
}
