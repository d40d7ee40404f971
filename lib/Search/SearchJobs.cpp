//===- SearchJobs.cpp - Subprogram searches as jobs -----------------------===//
//
// See SearchJobs.h. A request or reply is a header line and a list of
// fields, one per line as "name value", strings as "name <bytes>" followed
// by a line of exactly that many bytes. One visitor per struct lists its
// fields for both the writer and the reader.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/SearchJobs.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <type_traits>

using namespace mlir;
using namespace mirage::search;

SearchJobRunner::~SearchJobRunner() = default;

SmallVector<unsigned> mirage::search::dispatchOrder(ArrayRef<SearchJob> jobs) {
  SmallVector<unsigned> order;
  for (unsigned j = 0; j < jobs.size(); ++j)
    order.push_back(j);
  llvm::sort(order, [&](unsigned a, unsigned b) {
    if (jobs[a].options.timeBudget != jobs[b].options.timeBudget)
      return jobs[a].options.timeBudget > jobs[b].options.timeBudget;
    return a < b;
  });
  return order;
}

bool mirage::search::startJob(SearchJob &job, double budgetLeft) {
  job.options.timeBudget = std::min(job.options.timeBudget, budgetLeft);
  job.outOfBudget = job.options.timeBudget < kMinSearchSeconds;
  return !job.outOfBudget;
}

void mirage::search::searchJob(SearchJob &job) {
  auto start = std::chrono::steady_clock::now();
  job.found = superoptimize(job.func, job.options, job.error);
  job.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
}

void ThreadJobRunner::run(MutableArrayRef<SearchJob> jobs,
                          function_ref<double()> budgetLeft,
                          function_ref<void(unsigned)> finished) {
  // The jobs share the threads; a search's program does not depend on its
  // own thread count.
  unsigned workers = std::max(
      1u, std::min<unsigned>(threads, static_cast<unsigned>(jobs.size())));
  for (SearchJob &job : jobs)
    job.options.threads = std::max(1u, threads / workers);
  SmallVector<unsigned> order = dispatchOrder(jobs);
  std::atomic<unsigned> next{0};
  std::mutex budgetMutex;
  auto work = [&] {
    for (unsigned j; (j = next.fetch_add(1)) < order.size();) {
      SearchJob &job = jobs[order[j]];
      bool started;
      {
        std::lock_guard<std::mutex> lock(budgetMutex);
        started = startJob(job, budgetLeft());
      }
      if (started)
        searchJob(job);
      finished(order[j]);
    }
  };
  std::vector<std::thread> helpers;
  for (unsigned w = 1; w < workers; ++w)
    helpers.emplace_back(work);
  work();
  for (std::thread &t : helpers)
    t.join();
}

static SearchJobRunner *installedRunner = nullptr;

void mirage::search::setSearchJobRunner(SearchJobRunner *runner) {
  installedRunner = runner;
}

SearchJobRunner *mirage::search::getSearchJobRunner() {
  return installedRunner;
}

//===----------------------------------------------------------------------===//
// Requests and replies
//===----------------------------------------------------------------------===//

namespace {

constexpr llvm::StringLiteral kRequestHeader = "mirage-search-job 1";
constexpr llvm::StringLiteral kReplyHeader = "mirage-search-reply 1";

using MeasuredList = std::vector<std::pair<std::string, double>>;

class FieldWriter {
public:
  explicit FieldWriter(std::string &out) : os(out) {}

  void operator()(StringRef name, const std::string &s) {
    os << name << ' ' << s.size() << '\n' << s << '\n';
  }
  void operator()(StringRef name, double v) {
    os << name << ' ' << llvm::format("%.17g", v) << '\n';
  }
  void operator()(StringRef name, bool v) {
    os << name << ' ' << (v ? 1 : 0) << '\n';
  }
  void operator()(StringRef name, BudgetStop v) {
    (*this)(name, static_cast<unsigned>(v));
  }
  template <typename Int>
  std::enable_if_t<std::is_integral_v<Int>> operator()(StringRef name, Int v) {
    os << name << ' ' << v << '\n';
  }
  void operator()(StringRef name, const ProgramModule &program) {
    (*this)(name, program.print());
  }
  void operator()(StringRef name, const std::vector<int64_t> &numbers) {
    os << name << ' ' << numbers.size();
    for (int64_t v : numbers)
      os << ' ' << v;
    os << '\n';
  }
  void operator()(StringRef name, const MeasuredList &list) {
    (*this)(name, static_cast<uint64_t>(list.size()));
    for (const auto &[summary, micros] : list) {
      (*this)("summary", summary);
      (*this)("micros", micros);
    }
  }

private:
  llvm::raw_string_ostream os;
};

/// Reads fields in the order a FieldWriter wrote them; the first mismatch
/// sets `error` and turns every later read into a no-op.
class FieldReader {
public:
  /// Programs are parsed into `context` (null: no program is expected).
  FieldReader(StringRef text, MLIRContext *context)
      : rest(text), context(context) {}

  std::string error;

  bool ok() const { return error.empty(); }
  bool atEnd() const { return rest.empty(); }

  /// Consumes the line `expected`.
  void expectLine(StringRef expected) {
    StringRef line;
    if (nextLine(line, "'" + expected.str() + "'") && line != expected)
      fail("expected '" + expected.str() + "'");
  }

  void operator()(StringRef name, std::string &s) {
    uint64_t size;
    if (!number(name, size))
      return;
    if (rest.size() < size + 1 || rest[size] != '\n')
      return fail("field '" + name.str() + "' is cut short");
    s = rest.take_front(size).str();
    rest = rest.drop_front(size + 1);
  }
  void operator()(StringRef name, double &v) {
    StringRef value;
    if (field(name, value) && value.getAsDouble(v))
      fail("field '" + name.str() + "' is not a number");
  }
  void operator()(StringRef name, bool &v) {
    uint64_t n;
    if (number(name, n))
      v = n != 0;
  }
  void operator()(StringRef name, BudgetStop &v) {
    uint64_t n;
    if (!number(name, n))
      return;
    if (n > static_cast<uint64_t>(BudgetStop::Verification))
      return fail("field '" + name.str() + "' is out of range");
    v = static_cast<BudgetStop>(n);
  }
  template <typename Int>
  std::enable_if_t<std::is_integral_v<Int>> operator()(StringRef name, Int &v) {
    StringRef value;
    if (field(name, value) && value.getAsInteger(10, v))
      fail("field '" + name.str() + "' is not an integer");
  }
  void operator()(StringRef name, ProgramModule &program) {
    std::string text;
    (*this)(name, text);
    if (!ok())
      return;
    if (!context && !text.empty())
      return fail("field '" + name.str() + "' holds a program nobody expects");
    std::string problem;
    FailureOr<ProgramModule> parsed =
        ProgramModule::parse(text, context, problem);
    if (failed(parsed))
      return fail("the program of field '" + name.str() + "' " + problem);
    program = std::move(*parsed);
  }
  void operator()(StringRef name, std::vector<int64_t> &numbers) {
    StringRef value;
    if (!field(name, value))
      return;
    SmallVector<StringRef> items;
    value.split(items, ' ');
    uint64_t size;
    numbers.clear();
    if (items.front().getAsInteger(10, size) || size != items.size() - 1)
      return fail("field '" + name.str() + "' is not a list of numbers");
    for (StringRef item : llvm::drop_begin(items)) {
      int64_t v;
      if (item.getAsInteger(10, v))
        return fail("field '" + name.str() + "' is not a list of numbers");
      numbers.push_back(v);
    }
  }
  void operator()(StringRef name, MeasuredList &list) {
    uint64_t size;
    if (!number(name, size))
      return;
    list.clear();
    for (uint64_t i = 0; i < size && ok(); ++i) {
      std::pair<std::string, double> entry;
      (*this)("summary", entry.first);
      (*this)("micros", entry.second);
      list.push_back(std::move(entry));
    }
  }

private:
  StringRef rest;
  MLIRContext *context;

  void fail(const std::string &message) {
    if (ok())
      error = message;
  }
  /// The next line, which should be `what`.
  bool nextLine(StringRef &line, const std::string &what) {
    if (!ok())
      return false;
    size_t end = rest.find('\n');
    if (end == StringRef::npos) {
      fail(rest.empty() ? "the text ends before " + what
                        : "the text ends inside " + what);
      return false;
    }
    line = rest.take_front(end);
    rest = rest.drop_front(end + 1);
    return true;
  }
  bool field(StringRef name, StringRef &value) {
    StringRef line;
    if (!nextLine(line, "field '" + name.str() + "'"))
      return false;
    if (!line.consume_front(name) || !line.consume_front(" ")) {
      fail("expected field '" + name.str() + "'");
      return false;
    }
    value = line;
    return true;
  }
  bool number(StringRef name, uint64_t &n) {
    StringRef value;
    if (!field(name, value))
      return false;
    if (value.getAsInteger(10, n)) {
      fail("field '" + name.str() + "' is not an integer");
      return false;
    }
    return true;
  }
};

// Every field of the options, the statistics and the result: a field added
// to those structs (Superoptimizer.h) must be added here.
template <typename Options, typename Visit>
void visitOptions(Options &o, Visit &&v) {
  v("max-kernel-ops", o.maxKernelOps);
  v("max-graph-kernels", o.maxGraphKernels);
  v("max-block-ops", o.maxBlockOps);
  v("max-kernel-inputs", o.maxKernelInputs);
  v("max-kernel-outputs", o.maxKernelOutputs);
  v("max-blocks", o.maxBlocks);
  v("max-block-threads", o.maxBlockThreads);
  v("smem-limit", o.smemLimit);
  v("chip", o.chip);
  v("pruning", o.pruning);
  v("seed", o.seed);
  v("threads", o.threads);
  v("time-budget", o.timeBudget);
  v("verify-budget", o.verifyBudget);
  v("final-tests", o.finalTests);
  v("numerics", o.numerics);
  v("rank-by-kernels", o.rankByKernels);
  v("measured", o.measuredMicros);
  v("deepen-factor", o.deepenFactor);
  v("cost-ceiling", o.costCeilingMicros);
  v("audit-fingerprints", o.auditFingerprints);
}

template <typename Stats, typename Visit> void visitStats(Stats &s, Visit &&v) {
  v("states", s.states);
  v("pruned", s.pruned);
  v("duplicates", s.duplicates);
  v("candidates", s.candidates);
  v("fingerprinted", s.fingerprinted);
  v("fingerprint-rejected", s.fingerprintRejected);
  v("full-checks", s.fullChecks);
  v("verified", s.verified);
  v("numerics-rejected", s.numericsRejected);
  v("first-numerics-rejected", s.firstNumericsRejected);
  v("above-ceiling", s.aboveCeiling);
  v("audited", s.audited);
  v("audit-cheap-rejects", s.auditCheapRejects);
  v("audit-full-rejects", s.auditFullRejects);
  v("audit-false-rejects", s.auditFalseRejects);
  v("egraph-nodes", s.egraphNodes);
  v("egraph-classes", s.egraphClasses);
  v("saturation-seconds", s.saturationSeconds);
  v("search-seconds", s.searchSeconds);
  v("verify-seconds", s.verifySeconds);
  v("timed-out", s.timedOut);
  v("budget-stop", s.budgetStop);
  v("unchecked", s.unchecked);
  v("trivial", s.trivial);
  v("deepened", s.deepened);
  v("pruning-disabled", s.pruningDisabled);
}

template <typename Result, typename Visit>
void visitResult(Result &r, Visit &&v) {
  v("program", r.program);
  v("structure", r.structure);
  v("kernels", r.kernels);
  v("modelled-micros", r.modelledMicros);
  v("measured", r.measured);
  v("summary", r.summary);
  v("float-max-rel-diff", r.floatMaxRelDiff);
  v("log10-bound", r.log10Bound);
  visitStats(r.stats, v);
}

std::string formatReply(const SearchJob &job) {
  std::string out = (kReplyHeader + "\n").str();
  FieldWriter w(out);
  w("found", succeeded(job.found));
  w("error", job.error);
  w("transient", job.transient);
  w("seconds", job.seconds);
  if (succeeded(job.found))
    visitResult(*job.found, w);
  return out;
}

} // namespace

std::string mirage::search::formatJobRequest(const SearchJob &job) {
  std::string out = (kRequestHeader + "\n").str();
  FieldWriter w(out);
  w("name", job.name);
  visitOptions(job.options, w);
  std::string module;
  {
    llvm::raw_string_ostream os(module);
    job.func->getParentOp()->print(os);
  }
  w("subprogram", module);
  return out;
}

std::string mirage::search::runJobRequest(MLIRContext &context,
                                          StringRef request) {
  SearchJob job;
  FieldReader r(request, &context);
  r.expectLine(kRequestHeader);
  r("name", job.name);
  visitOptions(job.options, r);
  std::string text;
  r("subprogram", text);
  if (r.ok() && !r.atEnd())
    r.error = "text after the last field";
  if (!r.ok()) {
    job.error = "malformed job request: " + r.error;
    job.transient = true;
    return formatReply(job);
  }
  // The subprogram is a module of one function, as a program is.
  std::string problem;
  FailureOr<ProgramModule> subprogram =
      text.empty() ? FailureOr<ProgramModule>(failure())
                   : ProgramModule::parse(text, &context, problem);
  if (failed(subprogram)) {
    job.error = "the job's subprogram " +
                (problem.empty() ? std::string("is empty") : problem);
    job.transient = true;
    return formatReply(job);
  }
  job.func = subprogram->func();
  searchJob(job);
  return formatReply(job);
}

LogicalResult mirage::search::parseJobReply(StringRef reply, SearchJob &job,
                                            std::string &error) {
  FieldReader r(reply, job.func ? job.func->getContext() : nullptr);
  r.expectLine(kReplyHeader);
  bool found = false;
  r("found", found);
  r("error", job.error);
  r("transient", job.transient);
  r("seconds", job.seconds);
  SuperoptimizeResult result;
  if (found)
    visitResult(result, r);
  if (r.ok() && !r.atEnd())
    r.error = "text after the last field";
  if (!r.ok()) {
    error = "malformed job reply: " + r.error;
    return failure();
  }
  job.found = found ? FailureOr<SuperoptimizeResult>(std::move(result))
                    : FailureOr<SuperoptimizeResult>(failure());
  return success();
}
