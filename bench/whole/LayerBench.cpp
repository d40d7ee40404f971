//===- LayerBench.cpp - Benchmark of whole programs and layers
//-------------===//
//
// Runs `--mirage-superoptimize` (the pass, with its choice between the whole
// and the partitioned search) on every function of the given files and
// prints, per function: ops, subprograms, search and verification seconds,
// subprograms answered by the result cache, kernels, the result's modelled
// time on H100-SXM and H200, its speedup over the unfused input (each op its
// own kernel) and its share of the roofline floor:
//
//   mirage-layer-bench [--search-threads=N] [--search-budget=S]
//   [--result-cache=D]
//       [--json=FILE] bench/programs/*.mlir bench/layers/*.mlir
//
// A second run with the same cache directory measures the cache. Progress
// goes to stderr. Exit code 1 when a function got no verified result or is
// modelled slower than its input.
//
//===----------------------------------------------------------------------===//

#include "../BenchSupport.h"

#include "Mirage/InitMirage.h"
#include "Mirage/Search/CostModel.h"
#include "Mirage/Search/KernelCost.h"
#include "Mirage/Search/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace mlir;
using namespace mirage;
using namespace mirage::search;

static llvm::cl::list<std::string> inputs(llvm::cl::Positional,
                                          llvm::cl::desc("<file.mlir>"),
                                          llvm::cl::OneOrMore);
static llvm::cl::opt<unsigned>
    threads("search-threads",
            llvm::cl::desc("search threads (the pass option threads)"),
            llvm::cl::init(2));
static llvm::cl::opt<double>
    timeBudget("search-budget",
               llvm::cl::desc("seconds of search per function"),
               llvm::cl::init(60.0));
static llvm::cl::opt<std::string>
    cacheDir("result-cache",
             llvm::cl::desc("result cache directory ('none': no cache; "
                            "empty: the pass's default)"),
             llvm::cl::init(""));
static llvm::cl::opt<std::string>
    jsonFile("json", llvm::cl::desc("also write the rows as JSON here"),
             llvm::cl::init(""));

namespace {

/// The first capture of `pattern` in each of `lines` that matches, as a
/// number, summed; nullopt when none matches.
std::optional<double> sumNumbers(ArrayRef<std::string> lines,
                                 StringRef pattern) {
  llvm::Regex re(pattern);
  SmallVector<StringRef, 2> match;
  std::optional<double> sum;
  for (const std::string &l : lines)
    if (re.match(l, &match))
      sum = sum.value_or(0) + std::stod(match[1].str());
  return sum;
}

/// The figures of one function under the cost model of `part`.
struct Figures {
  unsigned kernels = 0;
  double micros = 0, floor = 0;
};
std::optional<Figures> figures(func::FuncOp func, StringRef part) {
  std::optional<DeviceModel> device = getDeviceModel(part);
  std::string error;
  FailureOr<ProgramCost> cost = analyzeProgram(func, *device, error);
  if (failed(cost)) {
    llvm::errs() << "error: " << func.getName() << ": " << error << "\n";
    return std::nullopt;
  }
  return Figures{static_cast<unsigned>(cost->kernels.size()), cost->totalMicros,
                 cost->floor.floor};
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "Mirage whole-program benchmark\n");
  MLIRContext ctx;
  mirage::bench::loadBenchDialects(ctx);

  MirageSuperoptimizeOptions options;
  options.threads = threads;
  options.timeBudget = timeBudget;
  options.cacheDir = cacheDir;

  struct Job {
    std::string file;
    func::FuncOp func;
    bool several = false;
  };
  std::vector<OwningOpRef<ModuleOp>> modules;
  std::vector<Job> jobs;
  for (const std::string &path : inputs) {
    OwningOpRef<ModuleOp> m = parseSourceFile<ModuleOp>(path, &ctx);
    if (!m) {
      llvm::errs() << "error: cannot parse " << path << "\n";
      return 1;
    }
    size_t first = jobs.size();
    for (auto f : m->getOps<func::FuncOp>())
      if (!f.isExternal() && !f->hasAttr("mk.reference"))
        jobs.push_back({path, f});
    for (size_t j = first; j < jobs.size(); ++j)
      jobs[j].several = jobs.size() - first > 1;
    modules.push_back(std::move(m));
  }

  llvm::outs() << llvm::format(
      "%-28s %4s %5s %8s %8s %6s %5s %9s %9s %9s %7s %6s\n", "program", "ops",
      "subpr", "search_s", "verify_s", "cached", "kern", "h100_us", "h200_us",
      "unfused", "speedup", "floor%");
  llvm::json::Array rows;
  bool failedAny = false;
  for (auto [i, job] : llvm::enumerate(jobs)) {
    // The file's name, which tells bs1 from bs8; with the function's when
    // the file holds several.
    std::string name = llvm::sys::path::stem(job.file).str();
    if (job.several)
      name += "/" + job.func.getName().str();
    llvm::errs() << "[" << i + 1 << "/" << jobs.size() << "] " << name
                 << " ...\n";
    std::optional<Figures> before = figures(job.func, "h100-sxm");
    if (!before)
      return 1;
    unsigned ops = job.func.getBody().front().getOperations().size() - 1;

    OwningOpRef<ModuleOp> work = ModuleOp::create(job.func.getLoc());
    func::FuncOp func = job.func.clone();
    work->push_back(func);
    std::vector<std::string> remarks;
    ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
      remarks.push_back(d.str());
      if (d.getSeverity() == DiagnosticSeverity::Error)
        llvm::errs() << "error: " << name << ": " << d.str() << "\n";
      return success();
    });
    PassManager pm(&ctx);
    pm.addPass(createMirageSuperoptimize(options));
    auto start = std::chrono::steady_clock::now();
    bool ok = succeeded(pm.run(*work));
    double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    std::optional<Figures> after = figures(func, "h100-sxm"),
                           h200 = figures(func, "h200");
    if (!after || !h200)
      return 1;

    // The pass says what it did in remarks: the partitioned search's summary
    // or the whole search's (times add up over a whole search that was not
    // taken and the partitioned one after it).
    std::optional<double> parts =
        sumNumbers(remarks, "^superoptimized in ([0-9]+) subprogram");
    bool wholeFromCache = llvm::any_of(remarks, [](const std::string &r) {
      return StringRef(r).starts_with("superoptimized (from the cache): ");
    });
    bool whole =
        wholeFromCache || llvm::any_of(remarks, [](const std::string &r) {
          return StringRef(r).starts_with("superoptimized: ");
        });
    bool verified = ok && (parts || whole);
    double search = sumNumbers(remarks, "([0-9.]+) s search").value_or(0);
    double verify = sumNumbers(remarks, "([0-9.]+) s verification").value_or(0);
    double cached = sumNumbers(remarks, "([0-9]+) from the cache").value_or(0) +
                    (wholeFromCache ? 1 : 0);
    double speedup = before->micros / after->micros;
    double floorShare = 100.0 * after->floor / after->micros;
    if (!verified || after->micros > before->micros + 1e-9)
      failedAny = true;
    llvm::outs() << llvm::format(
        "%-28s %4u %5.0f %8.2f %8.2f %6.0f %5u %9.1f %9.1f %9.1f %6.2fx "
        "%5.1f%s\n",
        name.c_str(), ops, parts.value_or(whole ? 1 : 0), search, verify,
        cached, after->kernels, after->micros, h200->micros, before->micros,
        speedup, floorShare, verified ? "" : "  (no verified result)");
    llvm::errs() << "[" << i + 1 << "/" << jobs.size() << "] " << name << ": "
                 << llvm::format("%.1f", wall) << " s\n";
    rows.push_back(llvm::json::Object{
        {"program", name},
        {"file", job.file},
        {"ops", static_cast<int64_t>(ops)},
        {"subprograms", parts.value_or(whole ? 1 : 0)},
        {"search_seconds", search},
        {"verify_seconds", verify},
        {"wall_seconds", wall},
        {"cache_hits", cached},
        {"kernels", static_cast<int64_t>(after->kernels)},
        {"h100_us", after->micros},
        {"h200_us", h200->micros},
        {"unfused_h100_us", before->micros},
        {"unfused_kernels", static_cast<int64_t>(before->kernels)},
        {"speedup", speedup},
        {"roofline_floor_h100_us", after->floor},
        {"roofline_percent", floorShare},
        {"verified", verified}});
  }
  if (!jsonFile.empty() &&
      !mirage::bench::writeJsonFile(jsonFile, std::move(rows)))
    return 1;
  return failedAny ? 1 : 0;
}
