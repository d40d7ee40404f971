//===- SearchJobsTest.cpp - Subprogram searches as jobs ---------*- C++ -*-===//
//
// A job sent as a request, run in another context and read back from its
// reply gives the outcome of the same search run in place; malformed
// requests and replies are errors, not crashes; the thread runner reports
// every job once and starts the largest budgets first; a job with too
// little budget left is not started.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/SearchJobs.h"

#include "Mirage/Dialect/Block/IR/Block.h"
#include "Mirage/Dialect/Kernel/IR/Kernel.h"
#include "Mirage/Dialect/Thread/IR/Thread.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

#include "SearchTestSupport.h"

#include <mutex>

using namespace mlir;
using namespace mirage;
using namespace mirage::search;

namespace {

constexpr const char *kRmsNormMatmul = R"mlir(
module attributes {mk.smem_limit = 98304 : i64} {
func.func @f(%x: tensor<2x64xf16>, %w: tensor<64x96xf16>) -> tensor<2x96xf16> {
  %n = mk.rms_norm %x eps = 1.0e-06 : tensor<2x64xf16>
  %o = mk.matmul %n, %w : tensor<2x64xf16>, tensor<64x96xf16> -> tensor<2x96xf16>
  return %o : tensor<2x96xf16>
}
}
)mlir";

class SearchJobsTest : public ::testing::Test {
protected:
  SearchJobsTest() { loadSearchDialects(ctx); }

  SearchJob job() {
    module = parseSourceString<ModuleOp>(kRmsNormMatmul, &ctx);
    EXPECT_TRUE(module);
    SearchJob j;
    j.func = *module->getOps<func::FuncOp>().begin();
    j.name = "mk.rms_norm; mk.matmul";
    j.options.timeBudget = 60;
    return j;
  }

  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
};

TEST_F(SearchJobsTest, RequestRunElsewhereGivesTheSameOutcome) {
  SearchJob local = job();
  // Options away from their defaults travel with the request.
  local.options.seed = 7;
  local.options.maxBlockOps = 9;
  local.options.deepenFactor = 2.5;
  local.options.measuredMicros = {{"never matches", 1.0}};
  searchJob(local);
  ASSERT_TRUE(succeeded(local.found)) << local.error;
  ASSERT_FALSE(local.found->program.empty());

  SearchJob remote = job();
  remote.options = local.options;
  std::string request = formatJobRequest(remote);
  std::string reply;
  {
    // A worker: a context of its own that has not seen the subprogram.
    MLIRContext worker;
    loadSearchDialects(worker);
    reply = runJobRequest(worker, request);
  }
  std::string error;
  ASSERT_TRUE(succeeded(parseJobReply(reply, remote, error))) << error;
  ASSERT_TRUE(succeeded(remote.found)) << remote.error;
  EXPECT_EQ(remote.found->program.print(), local.found->program.print());
  EXPECT_EQ(remote.found->summary, local.found->summary);
  EXPECT_EQ(remote.found->kernels, local.found->kernels);
  EXPECT_EQ(remote.found->modelledMicros, local.found->modelledMicros);
  EXPECT_EQ(remote.found->log10Bound, local.found->log10Bound);
  EXPECT_EQ(remote.found->stats.candidates, local.found->stats.candidates);
  EXPECT_EQ(remote.found->stats.verified, local.found->stats.verified);
  EXPECT_EQ(remote.found->stats.budgetStop, local.found->stats.budgetStop);
  EXPECT_GT(remote.seconds, 0);
}

TEST_F(SearchJobsTest, SearchErrorsTravelInTheReply) {
  SearchJob j = job();
  j.options.chip = "sm_12"; // no such architecture
  MLIRContext worker;
  loadSearchDialects(worker);
  std::string reply = runJobRequest(worker, formatJobRequest(j));
  std::string error;
  ASSERT_TRUE(succeeded(parseJobReply(reply, j, error))) << error;
  EXPECT_TRUE(failed(j.found));
  EXPECT_FALSE(j.transient);
  EXPECT_NE(j.error.find("sm_12"), std::string::npos) << j.error;
}

TEST_F(SearchJobsTest, MalformedRequestsAreErrors) {
  SearchJob j = job();
  std::string request = formatJobRequest(j);
  MLIRContext worker;
  loadSearchDialects(worker);
  auto outcome = [&](const std::string &text) {
    SearchJob read;
    std::string error;
    EXPECT_TRUE(
        succeeded(parseJobReply(runJobRequest(worker, text), read, error)))
        << error;
    EXPECT_TRUE(failed(read.found));
    // Not the search's verdict on the subprogram: never cached.
    EXPECT_TRUE(read.transient);
    return read.error;
  };
  EXPECT_NE(outcome("").find("malformed job request"), std::string::npos);
  EXPECT_NE(outcome(request.substr(0, request.size() / 2))
                .find("malformed job request"),
            std::string::npos);
  std::string badNumber = request;
  size_t field = badNumber.find("time-budget ");
  badNumber.replace(field, badNumber.find('\n', field) - field,
                    "time-budget abcd");
  EXPECT_NE(outcome(badNumber).find("'time-budget' is not a number"),
            std::string::npos);
  // A subprogram that does not parse.
  std::string badModule = request;
  size_t at = badModule.rfind("mk.matmul");
  ASSERT_NE(at, std::string::npos);
  badModule.replace(at, 9, "mk.matmux");
  EXPECT_NE(outcome(badModule).find("does not parse"), std::string::npos);
}

TEST_F(SearchJobsTest, MalformedRepliesAreErrors) {
  SearchJob j = job();
  std::string error;
  EXPECT_TRUE(failed(parseJobReply("", j, error)));
  EXPECT_NE(error.find("malformed job reply"), std::string::npos);
  EXPECT_TRUE(failed(parseJobReply(
      "mirage-search-reply 1\nfound 1\nerror 0\n\ntransient 0\nseconds 1\n", j,
      error)));
  EXPECT_NE(error.find("the text ends before field 'program'"),
            std::string::npos)
      << error;
  EXPECT_TRUE(failed(parseJobReply(
      "mirage-search-reply 1\nfound 0\nerror 99\nshort\n", j, error)));
  EXPECT_NE(error.find("cut short"), std::string::npos) << error;
  // A reply whose program does not parse (the field's length still right).
  SearchJob found = job();
  MLIRContext worker;
  loadSearchDialects(worker);
  std::string reply = runJobRequest(worker, formatJobRequest(found));
  ASSERT_TRUE(succeeded(parseJobReply(reply, found, error))) << error;
  ASSERT_TRUE(succeeded(found.found) && !found.found->program.empty());
  size_t at = reply.find("mk.graph_kernel");
  ASSERT_NE(at, std::string::npos);
  reply.replace(at, 15, "mk.graph_kernex");
  EXPECT_TRUE(failed(parseJobReply(reply, found, error)));
  EXPECT_NE(error.find("the program of field 'program' does not parse"),
            std::string::npos)
      << error;
}

TEST_F(SearchJobsTest, ThreadRunnerStartsLargestFirstAndReportsEachJob) {
  std::vector<SearchJob> jobs;
  for (double budget : {1.0, 3.0, 2.0, 3.0})
    jobs.push_back(job()), jobs.back().options.timeBudget = budget;
  llvm::SmallVector<unsigned> order = dispatchOrder(jobs);
  EXPECT_EQ(order, (llvm::SmallVector<unsigned>{1, 3, 2, 0}));

  // With 0.5 s left of the function's budget every job is cut to it; with
  // less than kMinSearchSeconds none starts.
  std::mutex m;
  std::vector<unsigned> finished;
  ThreadJobRunner(2).run(
      jobs, [] { return kMinSearchSeconds / 2; },
      [&](unsigned j) {
        std::lock_guard<std::mutex> lock(m);
        finished.push_back(j);
      });
  llvm::sort(finished);
  EXPECT_EQ(finished, (std::vector<unsigned>{0, 1, 2, 3}));
  for (const SearchJob &j : jobs) {
    EXPECT_TRUE(j.outOfBudget);
    EXPECT_TRUE(failed(j.found));
  }
  SearchJob cut = job();
  EXPECT_TRUE(startJob(cut, 0.5));
  EXPECT_EQ(cut.options.timeBudget, 0.5);
  EXPECT_FALSE(cut.outOfBudget);
}

} // namespace
