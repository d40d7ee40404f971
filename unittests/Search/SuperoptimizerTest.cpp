//===- SuperoptimizerTest.cpp - The search and its cost proxy ---*- C++ -*-===//
//
// The search through its library API: results are verified programs,
// independent of the thread count, bad input fails with a message, a spent
// time budget returns nothing; and the cost proxy's basic properties.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/Superoptimizer.h"
#include "Mirage/Search/CodePlan.h"
#include "Mirage/Search/CostModel.h"
#include "Mirage/Search/KernelCost.h"

#include "Mirage/Dialect/Block/IR/Block.h"
#include "Mirage/Dialect/Block/IR/View.h"
#include "Mirage/Dialect/Kernel/IR/Kernel.h"
#include "Mirage/Dialect/Thread/IR/Thread.h"
#include "Mirage/Transforms/WrapKernels.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

#include "SearchTestSupport.h"

using namespace mlir;
using namespace mirage;
using namespace mirage::search;

namespace {

class SuperoptimizerTest : public ::testing::Test {
protected:
  SuperoptimizerTest() { loadSearchDialects(ctx); }

  func::FuncOp load(const char *src) {
    modules.push_back(parseSourceString<ModuleOp>(src, &ctx));
    EXPECT_TRUE(modules.back());
    return *modules.back()->getOps<func::FuncOp>().begin();
  }

  /// Number of graph-defined kernels and of other kernel-level ops.
  std::pair<int, int> countKernels(const ProgramModule &program) {
    EXPECT_FALSE(program.empty());
    int kernels = 0, others = 0;
    func::FuncOp f = program.func();
    for (Operation &op : f.getBody().front().without_terminator())
      ++(isa<mk::GraphKernelOp>(op) ? kernels : others);
    return {kernels, others};
  }

  MLIRContext ctx;
  std::vector<OwningOpRef<ModuleOp>> modules;
};

TEST_F(SuperoptimizerTest, FindsOneKernelAndIsIndependentOfThreads) {
  for (const char *src : {kSmallRmsNormMatmul, kSmallGatedMlp}) {
    func::FuncOp f = load(src);
    std::string error;
    ProgramModule first;
    for (unsigned threads : {1u, 2u, 3u}) {
      SuperoptimizeOptions o;
      o.threads = threads;
      FailureOr<SuperoptimizeResult> r = superoptimize(f, o, error);
      ASSERT_TRUE(succeeded(r)) << error;
      ASSERT_FALSE(r->program.empty());
      EXPECT_EQ(r->kernels, 1u);
      EXPECT_EQ(r->stats.verified, 1u);
      EXPECT_GT(r->stats.pruned, 0u);
      EXPECT_LT(r->floatMaxRelDiff, 1e-9);
      EXPECT_LT(r->log10Bound, -6.0);
      if (first.empty())
        first = r->program;
      // The program does not depend on the number of workers.
      EXPECT_EQ(r->program.print(), first.print()) << "threads = " << threads;
    }
    EXPECT_EQ(countKernels(first), std::make_pair(1, 0));
  }
}

TEST_F(SuperoptimizerTest, RankingByTime) {
  // On programs where one kernel is also the fastest, both rankings agree.
  func::FuncOp f = load(kSmallGatedMlp);
  std::string error;
  SuperoptimizeOptions byKernels, byTime;
  byTime.rankByKernels = false;
  FailureOr<SuperoptimizeResult> a = superoptimize(f, byKernels, error);
  FailureOr<SuperoptimizeResult> b = superoptimize(f, byTime, error);
  ASSERT_TRUE(succeeded(a) && succeeded(b)) << error;
  EXPECT_EQ(a->program.print(), b->program.print());
  EXPECT_EQ(b->stats.deepened, 0u);
}

TEST_F(SuperoptimizerTest, PruningLosesNothingOnASmallCase) {
  func::FuncOp f = load(kSmallRmsNormMatmul);
  std::string error;
  SuperoptimizeOptions o;
  o.maxKernelOps = 1;
  o.maxBlockOps = 4;
  FailureOr<SuperoptimizeResult> pruned = superoptimize(f, o, error);
  o.pruning = false;
  FailureOr<SuperoptimizeResult> unpruned = superoptimize(f, o, error);
  ASSERT_TRUE(succeeded(pruned) && succeeded(unpruned)) << error;
  EXPECT_EQ(pruned->program.print(), unpruned->program.print());
  EXPECT_EQ(unpruned->stats.pruned, 0u);
  // Pruning is what makes the search small.
  EXPECT_GT(unpruned->stats.states, 100 * pruned->stats.states);
}

TEST_F(SuperoptimizerTest, FingerprintNeverRejectsWhatTheFullCheckAccepts) {
  func::FuncOp f = load(kSmallRmsNormMatmul);
  std::string error;
  SuperoptimizeOptions o;
  o.maxKernelOps = 1;
  o.maxBlockOps = 4;
  o.pruning = false;
  o.auditFingerprints = 200;
  FailureOr<SuperoptimizeResult> r = superoptimize(f, o, error);
  ASSERT_TRUE(succeeded(r)) << error;
  const SuperoptimizeStats &s = r->stats;
  EXPECT_EQ(s.audited, 200u);
  // Both checks reject wrong programs, and at least one is right.
  EXPECT_GT(s.auditCheapRejects, 0u);
  EXPECT_LT(s.auditFullRejects, s.audited);
  EXPECT_EQ(s.auditFalseRejects, 0u);
}

TEST_F(SuperoptimizerTest, BadInputFailsWithAMessage) {
  func::FuncOp f = load(R"mlir(
func.func @f(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %t = mk.transpose %x perm = [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  return %t : tensor<8x4xf32>
}
)mlir");
  std::string error;
  EXPECT_TRUE(failed(superoptimize(f, SuperoptimizeOptions(), error)));
  EXPECT_NE(error.find("mk.transpose"), std::string::npos) << error;

  func::FuncOp g = load(kSmallRmsNormMatmul);
  SuperoptimizeOptions o;
  o.chip = "sm_70";
  error.clear();
  EXPECT_TRUE(failed(superoptimize(g, o, error)));
  EXPECT_NE(error.find("sm_70"), std::string::npos) << error;
}

TEST_F(SuperoptimizerTest, CostCeilingSkipsSlowerCandidates) {
  func::FuncOp f = load(kSmallRmsNormMatmul);
  std::string error;
  SuperoptimizeOptions o;
  FailureOr<SuperoptimizeResult> best = superoptimize(f, o, error);
  ASSERT_TRUE(succeeded(best) && !best->program.empty()) << error;
  EXPECT_EQ(best->stats.aboveCeiling, 0u);
  // A ceiling just above the best keeps it; one at it leaves nothing to
  // verify, and nothing is checked.
  o.costCeilingMicros = best->modelledMicros * 1.001;
  FailureOr<SuperoptimizeResult> kept = superoptimize(f, o, error);
  ASSERT_TRUE(succeeded(kept)) << error;
  EXPECT_EQ(kept->program.print(), best->program.print());
  EXPECT_GT(kept->stats.aboveCeiling, 0u);
  o.costCeilingMicros = best->modelledMicros;
  FailureOr<SuperoptimizeResult> none = superoptimize(f, o, error);
  ASSERT_TRUE(succeeded(none)) << error;
  EXPECT_TRUE(none->program.empty());
  EXPECT_EQ(none->stats.fullChecks, 0u);
  EXPECT_GT(none->stats.aboveCeiling, 0u);
}

TEST_F(SuperoptimizerTest, SpentBudgetReturnsNothing) {
  func::FuncOp f = load(kSmallGatedMlp);
  std::string error;
  SuperoptimizeOptions o;
  o.timeBudget = 1e-9;
  FailureOr<SuperoptimizeResult> r = superoptimize(f, o, error);
  ASSERT_TRUE(succeeded(r)) << error;
  EXPECT_TRUE(r->stats.timedOut);
  EXPECT_TRUE(r->program.empty());
}

TEST(CostModelTest, Basics) {
  EXPECT_FALSE(getDeviceModel("sm_70"));
  std::optional<DeviceModel> h100 = getDeviceModel("sm_90");
  std::optional<DeviceModel> a100 = getDeviceModel("sm_80");
  ASSERT_TRUE(h100 && a100);
  EXPECT_STREQ(h100->name, "h100-sxm");
  EXPECT_STREQ(a100->name, "a100-80gb");
  ASSERT_TRUE(getDeviceModel("h200") && getDeviceModel("a100-40gb"));
  KernelWork w;
  w.blocks = 1056; // 132 SMs x 8 resident blocks of 128 threads: one wave
  w.bytes = 100e6;
  // Launch overhead plus bytes over bandwidth: 3 + 100e6 / 3.35e12 s.
  EXPECT_NEAR(modelledMicros(*h100, w),
              h100->launchMicros + 100e6 / h100->bytesPerSecond * 1e6, 1e-6);
  EXPECT_GT(modelledMicros(*a100, w), modelledMicros(*h100, w));
  // Fewer blocks than SMs get a share of the bandwidth: 33 blocks on 132
  // SMs draw kSmBandwidthHeadroom x 33 / 132 of it; 66 or more draw all.
  KernelWork few = w;
  few.blocks = 33;
  double full = modelledMicros(*h100, w) - h100->launchMicros;
  EXPECT_NEAR(modelledMicros(*h100, few) - h100->launchMicros,
              full * 132 / (kSmBandwidthHeadroom * 33), 1e-6);
  few.blocks = 66;
  EXPECT_NEAR(modelledMicros(*h100, few) - h100->launchMicros, full, 1e-6);
  // Matmul FLOPs on tensor cores are cheaper than the same count of
  // CUDA-core operations.
  KernelWork tensor, vector;
  tensor.blocks = vector.blocks = 1056;
  tensor.tensorFlops = vector.cudaOps = 1e12;
  EXPECT_LT(modelledMicros(*h100, tensor), modelledMicros(*h100, vector));
  // Re-reads of an input that fits in L2 come from L2: a 1 MB input whose
  // 1 MB tile 64 blocks load.
  KernelDesc d;
  d.blocks = 64;
  d.inputs.push_back({1e6, 1e6, false});
  KernelWork l2 = analyzeKernel(*h100, d);
  EXPECT_EQ(l2.bytes, 1e6);
  EXPECT_EQ(l2.l2Bytes, 63e6);
}

TEST_F(SuperoptimizerTest, ScalarLoadKernelIsModelledSlowerThanVectorisedTwin) {
  // A kernel streaming a 64 MB f16 matrix: 128 blocks of 128 threads, each
  // walking 32 tiles of 64 x 128. Its vectorised form copies 16-byte chunks
  // through a cp.async pipeline; its twin, with rows the lowering cannot
  // split into chunks, copies one 2-byte element per thread at a time.
  std::optional<DeviceModel> h100 = getDeviceModel("h100-sxm");
  ASSERT_TRUE(h100);
  KernelDesc vec;
  vec.blocks = 128;
  vec.threads = 128;
  vec.forloop = 32;
  vec.smemBytes = 64 * 128 * 2;
  vec.inputs.push_back(describeInput({64, 128}, {8192, 4096}, 2, true));
  EXPECT_EQ(vec.inputs[0].chunkBytes, 16);
  KernelDesc scalar = vec;
  scalar.inputs[0].chunkBytes = 2;
  KernelWork wv = analyzeKernel(*h100, vec), ws = analyzeKernel(*h100, scalar);
  // The pipeline: 4 buffers of 16 KB fit in the default 96 KB: 3 tiles
  // ahead of the one the loop waits for, all 4 outstanding while it waits.
  EXPECT_EQ(wv.pipelineStages, 4);
  EXPECT_EQ(wv.bytesInFlight, 4 * 64 * 128 * 2);
  EXPECT_EQ(ws.pipelineStages, 1);
  EXPECT_EQ(ws.bytesInFlight, 128 * 2);
  KernelTime tv = modelKernel(*h100, wv), ts = modelKernel(*h100, ws);
  // Vectorised: the full HBM bandwidth (64 KB in flight per SM is more than
  // Little's law asks). Scalar: 256 bytes per SM over 0.7 us on 128 SMs,
  // about 47 GB/s, 1.4 % of HBM.
  EXPECT_DOUBLE_EQ(tv.achievableBytesPerSecond, h100->bytesPerSecond);
  EXPECT_NEAR(ts.achievableBytesPerSecond,
              128 * 256 / (h100->dramLatencyMicros * 1e-6), 1e3);
  EXPECT_LT(ts.achievableBytesPerSecond, 0.02 * h100->bytesPerSecond);
  EXPECT_GT(ts.total, 20 * tv.total);
  EXPECT_STREQ(ts.bound, "memory");
  // Load/store issue: per block and iteration, 16 KB in 1024 cp.async
  // chunks of 16 bytes, or 8192 loads of 2 bytes each followed by a
  // shared-memory store; at 32 per SM and clock on 128 of 132 SMs.
  EXPECT_EQ(wv.memoryInstructions, 128.0 * 32 * 1024);
  EXPECT_EQ(ws.memoryInstructions, 128.0 * 32 * 8192 * 2);
  double lanes = h100->sms * 32 * h100->clockHz * (128.0 / h100->sms);
  EXPECT_NEAR(tv.issue, 128.0 * 32 * 1024 / lanes * 1e6, 1e-9);
  EXPECT_NEAR(ts.issue, 16 * tv.issue, 1e-9);
}

TEST_F(SuperoptimizerTest, LoadStoreIssueBindsScalarCopiesOfL2ResidentTiles) {
  // 1056 blocks (8 per SM) that each copy the same 1 MB of one-byte
  // elements, re-read from L2: copied one element at a time (a load and a
  // shared-memory store each: 2 instructions per byte) the load/store units
  // (one warp instruction per SM and clock) take longer than L2 (32 bytes
  // per SM and clock) delivers the bytes; 16-byte cp.async chunks issue 32
  // times fewer instructions and L2 sets the time. (f16 elements copied
  // one at a time issue one instruction per byte: the two rates tie.)
  std::optional<DeviceModel> h100 = getDeviceModel("h100-sxm");
  ASSERT_TRUE(h100);
  KernelWork w;
  w.blocks = 1056;
  w.threads = 256;
  w.bytes = 1 << 20;
  w.l2Bytes = 1056.0 * (1 << 20);
  w.memoryInstructions = 2 * w.l2Bytes;
  KernelTime scalar = modelKernel(*h100, w);
  EXPECT_STREQ(scalar.bound, "issue");
  EXPECT_NEAR(scalar.issue,
              w.memoryInstructions / (h100->sms * 32 * h100->clockHz) * 1e6,
              1e-9);
  w.memoryInstructions /= 32;
  KernelTime vectorised = modelKernel(*h100, w);
  EXPECT_STREQ(vectorised.bound, "memory");
  EXPECT_LT(vectorised.total, scalar.total);
}

TEST_F(SuperoptimizerTest, EpilogueInputIsReadOncePerBlockSynchronously) {
  // A residual [64, 8192] f16 read as an epilogue input ([B21]) by 64 blocks
  // of 128 threads whose loop runs 8 iterations: each block reads its
  // [64, 128] tile once (1 MB in all, not 8 MB), with a synchronous copy
  // after the loop, a 16-byte chunk per thread in flight; the same tile
  // hoisted before the loop goes through cp.async all at once.
  std::optional<DeviceModel> h100 = getDeviceModel("h100-sxm");
  ASSERT_TRUE(h100);
  KernelDesc d;
  d.blocks = 64;
  d.threads = 128;
  d.forloop = 8;
  d.smemBytes = 64 * 128 * 2;
  d.inputs.push_back(describeInput({64, 128}, {64, 8192}, 2, false));
  d.inputs.back().afterLoop = true;
  KernelWork epilogue = analyzeKernel(*h100, d);
  EXPECT_EQ(epilogue.bytes, 64.0 * 8192 * 2);
  EXPECT_EQ(epilogue.l2Bytes, 0);
  EXPECT_EQ(epilogue.bytesInFlight, 128 * 16);
  d.inputs.back().afterLoop = false;
  KernelWork hoisted = analyzeKernel(*h100, d);
  EXPECT_EQ(hoisted.bytes, epilogue.bytes);
  EXPECT_EQ(hoisted.bytesInFlight, 64 * 128 * 2);
  // 1024 chunks of 16 bytes a block: a synchronous load and store each
  // after the loop, one cp.async each before it.
  EXPECT_EQ(epilogue.memoryInstructions, 64.0 * 1024 * 2);
  EXPECT_EQ(hoisted.memoryInstructions, 64.0 * 1024);
}

TEST(KernelCostTest, ViewedInputsArePlannedAsLowered) {
  // A tile read through a view is priced with the lowering's chunks
  // (CodePlan.h, planViewCopy): a head split keeps 16-byte chunks, W^T read
  // in place (the tile's last dim 64 elements apart) one element at a time
  // and so synchronously, where the same shapes without the view take 16
  // bytes.
  MLIRContext ctx;
  AffineExpr d0 = getAffineDimExpr(0, &ctx), d1 = getAffineDimExpr(1, &ctx),
             d2 = getAffineDimExpr(2, &ctx);
  std::string why;
  FailureOr<mb::StridedView> heads =
      mb::StridedView::analyze(AffineMap::get(3, 0, {d1, d0 * 16 + d2}, &ctx),
                               {8, 64, 16}, {64, 128}, why);
  ASSERT_TRUE(succeeded(heads)) << why;
  EXPECT_EQ(
      describeInput({1, 64, 16}, {64, 128}, 2, true, false, &*heads).chunkBytes,
      16);
  FailureOr<mb::StridedView> wt = mb::StridedView::analyze(
      AffineMap::get(2, 0, {d1, d0}, &ctx), {64, 48}, {48, 64}, why);
  ASSERT_TRUE(succeeded(wt)) << why;
  EXPECT_EQ(describeInput({16, 16}, {48, 64}, 2, true, false, &*wt).chunkBytes,
            2);
  EXPECT_EQ(describeInput({16, 16}, {48, 64}, 2, true).chunkBytes, 16);
  // Overlapping digits of one dim, d mod 8 + (d floordiv 4) * 8: elements
  // 4..7 land at 12..15, so runs are 4 elements (8 bytes), not 8.
  FailureOr<mb::StridedView> overlap = mb::StridedView::analyze(
      AffineMap::get(1, 0, {d0 % 8 + d0.floorDiv(4) * 8}, &ctx), {16}, {32},
      why);
  ASSERT_TRUE(succeeded(overlap)) << why;
  EXPECT_EQ(overlap->contiguousRun(8), 4);
  EXPECT_EQ(describeInput({16}, {32}, 2, false, false, &*overlap).chunkBytes,
            8);
}

TEST_F(SuperoptimizerTest, BankConflictsAddToTheModelledCompute) {
  // Two tensor-core kernels of 132 blocks that walk 64 k tiles: a 16x64 by
  // 64x64 tile (rows of 128 bytes, padded: no conflict) and a 16x48 by
  // 48x24 one, whose A rows of 96 bytes (6 units, no power of two) stay
  // row-major: its ldmatrix phases hit bank groups 0, 6, 4, 2, 0, ... (2
  // ways). The rule's extra wavefronts enter the compute term at one per
  // SM and clock.
  std::optional<DeviceModel> h100 = getDeviceModel("h100-sxm");
  ASSERT_TRUE(h100);
  auto kernel = [](SmallVector<int64_t, 4> a, SmallVector<int64_t, 4> w) {
    KernelDesc d;
    d.blocks = 132;
    d.threads = 128;
    d.forloop = 64;
    CostOp mm;
    mm.cls = CostOp::Class::Matmul;
    mm.result = {a[0], w[1]};
    mm.args = {a, w};
    mm.inLoop = true;
    d.ops.push_back(mm);
    return d;
  };
  KernelWork laidOut = analyzeKernel(*h100, kernel({16, 64}, {64, 64}));
  KernelWork odd = analyzeKernel(*h100, kernel({16, 48}, {48, 24}));
  EXPECT_GT(laidOut.smemWavefronts, 0);
  EXPECT_EQ(laidOut.bankConflictWavefronts, 0);
  // Per block and iteration: 3 k steps x 3 column tiles x (4 x4 phases of
  // A at 2 wavefronts + 2 x2 phases of B at 1): 36 extra of 108.
  BankCost perStep =
      mmaSharedCost({16, 48}, {48, 24}, planSharedLayout({16, 48}, 2, true),
                    planSharedLayout({48, 24}, 2, true));
  EXPECT_EQ(perStep.ideal, 3 * 3 * 6);
  EXPECT_EQ(perStep.extra(), 3 * 3 * 4);
  EXPECT_DOUBLE_EQ(odd.bankConflictWavefronts, 132.0 * 64 * 36);
  KernelTime ts = modelKernel(*h100, laidOut), to = modelKernel(*h100, odd);
  EXPECT_EQ(ts.bankConflicts, 0);
  EXPECT_NEAR(to.bankConflicts,
              132.0 * 64 * 36 / (h100->sms * h100->clockHz) * 1e6, 1e-9);
  KernelWork noConflicts = odd;
  noConflicts.bankConflictWavefronts = 0;
  EXPECT_NEAR(to.compute - modelKernel(*h100, noConflicts).compute,
              to.bankConflicts, 1e-12);
}

TEST_F(SuperoptimizerTest, PaddedOperandTilesCountTheirPadding) {
  // A 64x64 f16 operand tile of a tensor-core matmul has rows of 128
  // bytes, padded by 16 (CodePlan.h): its slot, and each further buffer of
  // its cp.async pipeline, is 64 x 144 bytes; other tiles keep 64 x 128.
  CostInput operand = describeInput({64, 64}, {4096, 4096}, 2,
                                    /*walked=*/true, /*readAcrossRows=*/true);
  CostInput other = describeInput({64, 64}, {4096, 4096}, 2, /*walked=*/true);
  EXPECT_EQ(operand.tileBytes, 64 * 128);
  EXPECT_EQ(operand.slotBytes, 64 * 144);
  EXPECT_EQ(other.slotBytes, 64 * 128);
  EXPECT_EQ(operand.copyConflictWavefronts, 0);
}

TEST_F(SuperoptimizerTest, EstimatesExistingPrograms) {
  func::FuncOp ref = load(kSmallRmsNormMatmul);
  FailureOr<std::pair<unsigned, double>> refCost =
      estimateProgramCost(ref, "sm_90");
  ASSERT_TRUE(succeeded(refCost));
  EXPECT_EQ(refCost->first, 2u);
  std::string error;
  FailureOr<SuperoptimizeResult> r =
      superoptimize(ref, SuperoptimizeOptions(), error);
  ASSERT_TRUE(succeeded(r)) << error;
  ASSERT_FALSE(r->program.empty());
  func::FuncOp best = r->program.func();
  FailureOr<std::pair<unsigned, double>> bestCost =
      estimateProgramCost(best, "sm_90");
  ASSERT_TRUE(succeeded(bestCost));
  // The estimate of the returned program is the search's own figure.
  EXPECT_EQ(bestCost->first, 1u);
  EXPECT_NEAR(bestCost->second, r->modelledMicros, 1e-6);
  EXPECT_LT(bestCost->second, refCost->second);
  EXPECT_TRUE(failed(estimateProgramCost(ref, "sm_70")));
}

// The search ranks a program that keeps a pre-defined op as its result's IR
// is modelled: the op as the kernel the lowering wraps it into, not as a
// library kernel at full bandwidth. Two block ops cannot hold matmul, its
// accumulator and exp, and one graph-defined kernel is allowed, so the
// result keeps one op pre-defined.
TEST_F(SuperoptimizerTest, SearchCostsPredefinedOpsAsTheirIR) {
  func::FuncOp f = load(R"mlir(
func.func @decode(%x: tensor<8x4096xf16>, %w: tensor<4096x2048xf16>) -> tensor<8x2048xf16> {
  %q = mk.matmul %x, %w : tensor<8x4096xf16>, tensor<4096x2048xf16> -> tensor<8x2048xf16>
  %e = mk.exp %q : tensor<8x2048xf16>
  return %e : tensor<8x2048xf16>
}
)mlir");
  SuperoptimizeOptions o;
  o.maxBlockOps = 2;
  o.maxGraphKernels = 1;
  std::string error;
  FailureOr<SuperoptimizeResult> r = superoptimize(f, o, error);
  ASSERT_TRUE(succeeded(r)) << error;
  ASSERT_FALSE(r->program.empty());
  EXPECT_GE(countKernels(r->program).second, 1) << r->program.print();
  FailureOr<std::pair<unsigned, double>> cost =
      estimateProgramCost(r->program.func(), "sm_90");
  ASSERT_TRUE(succeeded(cost));
  EXPECT_NEAR(cost->second, r->modelledMicros, 1e-6 * cost->second);
}

// A pre-defined op costs what the kernel the lowering wraps it into costs
// (there is no library behind it): an 8-row matmul of 2048 columns is a
// 64-block kernel (tiles of 32 columns: 64-column ones would leave it 32
// blocks, under kWrapMinBlocks), not one that fills the device at full
// bandwidth.
TEST_F(SuperoptimizerTest, PredefinedOpIsCostedAsTheKernelItIsWrappedInto) {
  func::FuncOp f = load(R"mlir(
func.func @decode(%x: tensor<8x4096xf16>, %w: tensor<4096x2048xf16>) -> tensor<8x2048xf16> {
  %q = mk.matmul %x, %w : tensor<8x4096xf16>, tensor<4096x2048xf16> -> tensor<8x2048xf16>
  return %q : tensor<8x2048xf16>
}
)mlir");
  std::optional<DeviceModel> device = getDeviceModel("sm_90");
  ASSERT_TRUE(device);
  std::string error;
  FailureOr<ProgramCost> asOp = analyzeProgram(f, *device, error);
  ASSERT_TRUE(succeeded(asOp)) << error;
  ASSERT_EQ(asOp->kernels.size(), 1u);
  EXPECT_FALSE(asOp->kernels[0].desc.predefined);
  EXPECT_EQ(asOp->kernels[0].desc.blocks, 64);

  Operation *matmul = &f.getBody().front().front();
  std::string why;
  mk::GraphKernelOp kernel =
      wrapInKernel(matmul, kWrapMaxTile, kWrapBlockThreads, why);
  ASSERT_TRUE(kernel) << why;
  matmul->getResult(0).replaceAllUsesWith(kernel.getResult(0));
  matmul->erase();
  FailureOr<ProgramCost> asKernel = analyzeProgram(f, *device, error);
  ASSERT_TRUE(succeeded(asKernel)) << error;
  EXPECT_DOUBLE_EQ(asOp->totalMicros, asKernel->totalMicros);

  // A library kernel at full bandwidth would take a launch and its bytes.
  double bytes = (8.0 * 4096 + 4096.0 * 2048 + 8.0 * 2048) * 2;
  EXPECT_GT(asOp->totalMicros,
            device->launchMicros + bytes / device->bytesPerSecond * 1e6);
}

} // namespace
