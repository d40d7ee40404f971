//===- mirage-opt-mpi.cpp - mirage-opt over MPI ranks -----------*- C++ -*-===//
//
// `mpirun -np N mirage-opt-mpi ARGS` runs `mirage-opt ARGS` on rank 0, the
// coordinator: it reads the input, runs the pipeline (import, partition,
// cache lookups, merge, cache writes) and writes the output, as mirage-opt
// would. The subprogram searches of the partitioned superoptimizer are its
// jobs (SearchJobs.h): rank 0 deals them, the largest first, to idle worker
// ranks 1..N-1, which search them with their own threads (the pass's
// `threads`) and send the outcome back. Outcomes merge in the wave's order,
// so the output is byte-identical to mirage-opt's (docs/scale.md).
//
// Jobs and replies travel as text (SearchJobs.h). Waiting ranks poll with
// short sleeps rather than spin in MPI calls: ranks often share cores with
// the searches. A worker that dies makes mpirun stop the run; rank 0 then
// prints which jobs were in flight on which rank and exits non-zero; every
// search that finished is in the cache already, and a rerun with the same
// cache directory starts from there.
//
// With one rank (or without mpirun) it is mirage-opt.
//
//===----------------------------------------------------------------------===//

#include "MirageOptMain.h"

#include "Mirage/Search/SearchJobs.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <unistd.h>
#include <vector>

using namespace mirage::search;

namespace {

constexpr int kJobTag = 1;
constexpr int kStopTag = 2;
constexpr int kReplyTag = 3;

/// Test hook: the worker that receives the job with this sequence number
/// (1, 2, ... over the run) kills itself instead of searching it.
constexpr const char *kDieAtJobVariable = "MIRAGE_MPI_WORKER_DIES_AT_JOB";

void sendText(const std::string &text, int rank, int tag) {
  MPI_Send(text.data(), static_cast<int>(text.size()), MPI_CHAR, rank, tag,
           MPI_COMM_WORLD);
}

/// Waits for a message from `source` with `tag` (either may be a wildcard)
/// and receives it. Sleeps between polls, from 50 us up to 2 ms.
std::string receiveText(int source, int tag, MPI_Status &status) {
  useconds_t pause = 50;
  for (int arrived = 0;;) {
    MPI_Iprobe(source, tag, MPI_COMM_WORLD, &arrived, &status);
    if (arrived)
      break;
    usleep(pause);
    pause = std::min<useconds_t>(pause * 2, 2000);
  }
  int count = 0;
  MPI_Get_count(&status, MPI_CHAR, &count);
  std::string text(count, '\0');
  MPI_Recv(text.data(), count, MPI_CHAR, status.MPI_SOURCE, status.MPI_TAG,
           MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return text;
}

//===----------------------------------------------------------------------===//
// What rank 0 says when the run is stopped
//===----------------------------------------------------------------------===//

/// The message rank 0 prints if mpirun stops it (SIGTERM, SIGINT, SIGHUP,
/// through LLVM's interrupt function, after LLVM removed a half-written
/// output file): the jobs in flight. Two buffers, the one in use published
/// atomically, so that the signal handler never reads one being written.
struct StopMessage {
  static constexpr size_t kSize = 8192;
  char text[2][kSize];
  size_t length[2] = {0, 0};
  std::atomic<int> current{0};

  void set(const std::string &message) {
    int next = 1 - current.load();
    length[next] = std::min(message.size(), kSize);
    std::memcpy(text[next], message.data(), length[next]);
    current.store(next);
  }
};

StopMessage stopMessage;

void onStop() {
  int c = stopMessage.current.load();
  ssize_t ignored =
      write(STDERR_FILENO, stopMessage.text[c], stopMessage.length[c]);
  (void)ignored;
  _exit(1);
}

//===----------------------------------------------------------------------===//
// Rank 0: the coordinator's job runner
//===----------------------------------------------------------------------===//

class MpiJobRunner : public SearchJobRunner {
public:
  explicit MpiJobRunner(int ranks) : ranks(ranks) { describeInFlight(); }

  void run(llvm::MutableArrayRef<SearchJob> jobs,
           llvm::function_ref<double()> budgetLeft,
           llvm::function_ref<void(unsigned)> finished) override {
    llvm::SmallVector<unsigned> order = dispatchOrder(jobs);
    // Idle workers, rank 1 first.
    std::vector<int> idle;
    for (int rank = ranks - 1; rank >= 1; --rank)
      idle.push_back(rank);
    size_t next = 0;
    while (true) {
      while (!idle.empty() && next < order.size()) {
        unsigned j = order[next++];
        SearchJob &job = jobs[j];
        if (!startJob(job, budgetLeft())) {
          finished(j);
          continue;
        }
        int rank = idle.back();
        idle.pop_back();
        ++sequence;
        sendText("job " + std::to_string(sequence) + "\n" +
                     formatJobRequest(job),
                 rank, kJobTag);
        busy[rank] = {j, sequence, job.name};
        describeInFlight();
      }
      if (busy.empty())
        break;
      MPI_Status status;
      std::string reply = receiveText(MPI_ANY_SOURCE, kReplyTag, status);
      int rank = status.MPI_SOURCE;
      auto it = busy.find(rank);
      if (it == busy.end())
        continue;
      SearchJob &job = jobs[it->second.index];
      std::string error;
      if (failed(parseJobReply(reply, job, error))) {
        job.found = mlir::failure();
        job.error = error + " (from rank " + std::to_string(rank) + ")";
        job.transient = true;
      }
      unsigned j = it->second.index;
      busy.erase(it);
      idle.push_back(rank);
      describeInFlight();
      finished(j);
    }
  }

  /// Tells every worker to stop.
  void stopWorkers() {
    for (int rank = 1; rank < ranks; ++rank)
      sendText("", rank, kStopTag);
  }

private:
  struct InFlight {
    unsigned index;
    unsigned sequence;
    std::string name;
  };
  int ranks;
  unsigned sequence = 0;
  std::map<int, InFlight> busy;

  void describeInFlight() {
    std::string m = "mirage-opt-mpi: error: the run was stopped (a worker "
                    "died or the run was killed)";
    if (busy.empty()) {
      m += " while no job was in flight";
    } else {
      m += " while";
      bool first = true;
      for (const auto &[rank, job] : busy) {
        std::string name =
            job.name.size() > 300 ? job.name.substr(0, 300) + "..." : job.name;
        m += (first ? " rank " : ", rank ") + std::to_string(rank) +
             " searched job " + std::to_string(job.sequence) + " (" + name +
             ")";
        first = false;
      }
    }
    m += "; a rerun with the same cache directory resumes from the searches "
         "that finished\n";
    stopMessage.set(m);
  }
};

//===----------------------------------------------------------------------===//
// Ranks 1..N-1: workers
//===----------------------------------------------------------------------===//

int workerLoop(int rank) {
  mlir::DialectRegistry registry;
  mirage::registerMirageOptDialects(registry);
  mlir::MLIRContext context(registry);
  unsigned dieAt = 0;
  if (const char *v = std::getenv(kDieAtJobVariable))
    (void)llvm::StringRef(v).getAsInteger(10, dieAt);
  while (true) {
    MPI_Status status;
    std::string message = receiveText(0, MPI_ANY_TAG, status);
    if (status.MPI_TAG == kStopTag)
      return 0;
    // "job N\n" and the request.
    auto [header, request] = llvm::StringRef(message).split('\n');
    unsigned sequence = 0;
    (void)header.consume_front("job ");
    (void)header.getAsInteger(10, sequence);
    if (dieAt != 0 && sequence == dieAt) {
      llvm::errs() << "mirage-opt-mpi: rank " << rank << " dies at job "
                   << sequence << " (" << kDieAtJobVariable << ")\n";
      llvm::errs().flush();
      std::raise(SIGKILL);
    }
    sendText(runJobRequest(context, request), 0, kReplyTag);
  }
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  int provided = 0;
  if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) !=
      MPI_SUCCESS) {
    llvm::errs() << "mirage-opt-mpi: error: MPI_Init failed\n";
    return 1;
  }
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (rank != 0) {
    int code = workerLoop(rank);
    MPI_Finalize();
    return code;
  }
  static std::unique_ptr<MpiJobRunner> runner;
  if (ranks > 1) {
    runner = std::make_unique<MpiJobRunner>(ranks);
    setSearchJobRunner(runner.get());
    llvm::sys::SetInterruptFunction(onStop);
  }
  // mirage-opt exits directly on some paths (--help, a bad command line):
  // the workers are stopped and MPI finalized on every way out.
  std::atexit([] {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized)
      return;
    if (runner) {
      setSearchJobRunner(nullptr);
      runner->stopWorkers();
    }
    MPI_Finalize();
  });
  int code = mirage::mirageOptMain(argc, argv);
  std::fflush(stdout);
  return code;
}
