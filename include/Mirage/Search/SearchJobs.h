//===- SearchJobs.h - Subprogram searches as jobs ----------------*- C++
//-*-===//
//
// A partitioned search (Partition.h) turns the searches of a wave of
// subprograms into jobs and hands them to a runner: by default the pass's
// threads in this process, or a runner installed by the driver, such as
// mirage-opt-mpi's, which deals them to MPI ranks. The runner only fills in
// each job's outcome; the partition merges outcomes in the wave's order, so
// the output depends neither on the runner nor on the completion order
// (docs/partitioning.md, "Jobs"; docs/scale.md).
//
// Jobs cross a process boundary as text: a request holds the subprogram (a
// printed module) and the search options, a reply the outcome.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SEARCH_SEARCHJOBS_H
#define MIRAGE_SEARCH_SEARCHJOBS_H

#include "Mirage/Search/Superoptimizer.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>

namespace mirage::search {

/// A job shorter than this is not started: its search could not finish.
constexpr double kMinSearchSeconds = 0.05;

/// One subprogram search.
struct SearchJob {
  /// The subprogram: a function of mk ops in a module of its own.
  mlir::func::FuncOp func;
  /// What to call it in messages (its ops).
  std::string name;
  /// Options of its search; `timeBudget` is its share, cut to what is left
  /// of the function's budget when the job starts.
  SuperoptimizeOptions options;

  /// The outcome, filled in by the runner.
  mlir::FailureOr<SuperoptimizeResult> found = mlir::failure();
  std::string error;
  /// Wall time of the search.
  double seconds = 0;
  /// Started when less than kMinSearchSeconds of the function's budget was
  /// left: not searched.
  bool outOfBudget = false;
  /// The failure is the runner's, not the search's (a reply that did not
  /// arrive whole): the outcome is not cached.
  bool transient = false;
};

/// Runs the jobs of a wave.
class SearchJobRunner {
public:
  virtual ~SearchJobRunner();
  /// Fills in the outcome of every job of `jobs` and calls `finished(j)`
  /// once job j's outcome is in (from any thread; `finished` synchronises
  /// itself). `budgetLeft()` is what is left of the function's time budget
  /// (seconds): a job is cut to it when it starts (startJob); calls to it
  /// are serialised.
  virtual void run(llvm::MutableArrayRef<SearchJob> jobs,
                   llvm::function_ref<double()> budgetLeft,
                   llvm::function_ref<void(unsigned)> finished) = 0;
};

/// The order in which a runner starts `jobs`: the largest budget share
/// first (the longest searches), then the wave's order.
llvm::SmallVector<unsigned> dispatchOrder(llvm::ArrayRef<SearchJob> jobs);

/// Cuts `job`'s budget to `budgetLeft`; false (and the job marked
/// outOfBudget) if that leaves less than kMinSearchSeconds.
bool startJob(SearchJob &job, double budgetLeft);

/// Runs the search of a started job in this process.
void searchJob(SearchJob &job);

/// The default runner: the jobs over `threads` threads of this process,
/// each search with an equal share of them.
class ThreadJobRunner : public SearchJobRunner {
public:
  explicit ThreadJobRunner(unsigned threads) : threads(threads) {}
  void run(llvm::MutableArrayRef<SearchJob> jobs,
           llvm::function_ref<double()> budgetLeft,
           llvm::function_ref<void(unsigned)> finished) override;

private:
  unsigned threads;
};

/// The runner of every partitioned search in this process (the driver's;
/// not owned). Null (the default): a ThreadJobRunner over the pass's
/// threads. Set it before passes run, not while they do.
void setSearchJobRunner(SearchJobRunner *runner);
SearchJobRunner *getSearchJobRunner();

/// The request of a started job: its name, options and subprogram.
std::string formatJobRequest(const SearchJob &job);

/// Runs a request in `context` (which must have the Mirage dialects and
/// func loaded or registered) and returns the reply; a malformed request
/// or subprogram gives a reply whose outcome is that error, marked
/// transient.
std::string runJobRequest(mlir::MLIRContext &context, llvm::StringRef request);

/// Reads a reply into `job`'s outcome, its program into the context of
/// `job.func`; fails with `error` if it is malformed.
mlir::LogicalResult parseJobReply(llvm::StringRef reply, SearchJob &job,
                                  std::string &error);

} // namespace mirage::search

#endif // MIRAGE_SEARCH_SEARCHJOBS_H
