//===- AbstractExprTest.cpp - Abstract expressions and pruning --*- C++ -*-===//
//
// The axioms, the terms built from mk/mb/mt IR, and the pruning verdicts on
// the benchmark targets of DESIGN §8: the subterms of the known-good fused
// programs must be kept, clearly useless candidates pruned, and the fused
// programs' outputs must land in the class of the reference output.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/AbstractExpr.h"

#include "Mirage/Dialect/Kernel/IR/Kernel.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"

#include "SearchTestSupport.h"

#include <chrono>

using namespace mlir;
using namespace mirage;
using namespace mirage::search;

namespace {

//===----------------------------------------------------------------------===//
// Programs (DESIGN §8, bs = 1) and their known-good fused forms
//===----------------------------------------------------------------------===//

constexpr const char *kRmsNormMatmul = R"mlir(
func.func @ref(%x: tensor<2x4096xf16>, %w: tensor<4096x6144xf16>) -> tensor<2x6144xf16> {
  %n = mk.rms_norm %x eps = 1.0e-6 : tensor<2x4096xf16>
  %y = mk.matmul %n, %w : tensor<2x4096xf16>, tensor<4096x6144xf16> -> tensor<2x6144xf16>
  return %y : tensor<2x6144xf16>
}
func.func @fused(%x: tensor<2x4096xf16>, %w: tensor<4096x6144xf16>) -> tensor<2x6144xf16> {
  %y = mk.graph_kernel (%x, %w) grid = [256, 1, 1] block = [128, 1, 1] forloop = 32 {
  ^bb0(%X: tensor<2x4096xf16>, %W: tensor<4096x6144xf16>):
    %acc:2 = mb.for_loop -> (tensor<2x1xf16>, tensor<2x24xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x4096xf16> -> tensor<2x128xf16>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<4096x6144xf16> -> tensor<128x24xf16>
      %m = mb.matmul %xt, %wt : tensor<2x128xf16>, tensor<128x24xf16> -> tensor<2x24xf16>
      %r = mb.accum_rms_last %xt eps = 1.0e-06 : tensor<2x128xf16> -> tensor<2x1xf16>
      %s = mb.accum_sum %m : tensor<2x24xf16> -> tensor<2x24xf16>
      mb.yield %r, %s : tensor<2x1xf16>, tensor<2x24xf16>
    }
    %q = mt.thread_graph (%acc#1, %acc#0) : (tensor<2x24xf16>, tensor<2x1xf16>) -> tensor<2x24xf16> {
    ^bb0(%a: f16, %b: f16):
      %d = mt.div %a, %b : f16
      mt.yield %d : f16
    }
    %o = mb.output_saver %q omap = [1, -1, -1] : tensor<2x24xf16> -> tensor<2x6144xf16>
    mb.return %o : tensor<2x6144xf16>
  } : (tensor<2x4096xf16>, tensor<4096x6144xf16>) -> tensor<2x6144xf16>
  return %y : tensor<2x6144xf16>
}
)mlir";

/// The case the Z3 encoding got wrong (mirage-study §2.3): hidden size 512.
constexpr const char *kRmsNormMatmul512 = R"mlir(
func.func @ref(%x: tensor<2x512xf16>, %w: tensor<512x64xf16>) -> tensor<2x64xf16> {
  %n = mk.rms_norm %x eps = 1.0e-6 : tensor<2x512xf16>
  %y = mk.matmul %n, %w : tensor<2x512xf16>, tensor<512x64xf16> -> tensor<2x64xf16>
  return %y : tensor<2x64xf16>
}
)mlir";

constexpr const char *kGatedMlp = R"mlir(
func.func @ref(%x: tensor<8x4096xf16>, %w1: tensor<4096x4096xf16>, %w2: tensor<4096x4096xf16>) -> tensor<8x4096xf16> {
  %a = mk.matmul %x, %w1 : tensor<8x4096xf16>, tensor<4096x4096xf16> -> tensor<8x4096xf16>
  %b = mk.matmul %x, %w2 : tensor<8x4096xf16>, tensor<4096x4096xf16> -> tensor<8x4096xf16>
  %s = mk.silu %a : tensor<8x4096xf16>
  %y = mk.mul %s, %b : tensor<8x4096xf16>, tensor<8x4096xf16> -> tensor<8x4096xf16>
  return %y : tensor<8x4096xf16>
}
func.func @fused(%x: tensor<8x4096xf16>, %w1: tensor<4096x4096xf16>, %w2: tensor<4096x4096xf16>) -> tensor<8x4096xf16> {
  %y = mk.graph_kernel (%x, %w1, %w2) grid = [64, 1, 1] block = [128, 1, 1] forloop = 64 {
  ^bb0(%X: tensor<8x4096xf16>, %W1: tensor<4096x4096xf16>, %W2: tensor<4096x4096xf16>):
    %acc:2 = mb.for_loop -> (tensor<8x64xf16>, tensor<8x64xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x4096xf16> -> tensor<8x64xf16>
      %at = mb.input_iter %W1 imap = [1, -1, -1] fmap = 0 : tensor<4096x4096xf16> -> tensor<64x64xf16>
      %bt = mb.input_iter %W2 imap = [1, -1, -1] fmap = 0 : tensor<4096x4096xf16> -> tensor<64x64xf16>
      %m1 = mb.matmul %xt, %at : tensor<8x64xf16>, tensor<64x64xf16> -> tensor<8x64xf16>
      %m2 = mb.matmul %xt, %bt : tensor<8x64xf16>, tensor<64x64xf16> -> tensor<8x64xf16>
      %s1 = mb.accum_sum %m1 : tensor<8x64xf16> -> tensor<8x64xf16>
      %s2 = mb.accum_sum %m2 : tensor<8x64xf16> -> tensor<8x64xf16>
      mb.yield %s1, %s2 : tensor<8x64xf16>, tensor<8x64xf16>
    }
    %g = mb.silu %acc#0 : tensor<8x64xf16>
    %p = mb.mul %g, %acc#1 : tensor<8x64xf16>, tensor<8x64xf16> -> tensor<8x64xf16>
    %o = mb.output_saver %p omap = [1, -1, -1] : tensor<8x64xf16> -> tensor<8x4096xf16>
    mb.return %o : tensor<8x4096xf16>
  } : (tensor<8x4096xf16>, tensor<4096x4096xf16>, tensor<4096x4096xf16>) -> tensor<8x4096xf16>
  return %y : tensor<8x4096xf16>
}
)mlir";

constexpr const char *kLora = R"mlir(
func.func @ref(%x: tensor<16x256xf16>, %w: tensor<256x4096xf16>, %a: tensor<256x16xf16>, %b: tensor<16x4096xf16>) -> tensor<16x4096xf16> {
  %xw = mk.matmul %x, %w : tensor<16x256xf16>, tensor<256x4096xf16> -> tensor<16x4096xf16>
  %xa = mk.matmul %x, %a : tensor<16x256xf16>, tensor<256x16xf16> -> tensor<16x16xf16>
  %xab = mk.matmul %xa, %b : tensor<16x16xf16>, tensor<16x4096xf16> -> tensor<16x4096xf16>
  %y = mk.add %xw, %xab : tensor<16x4096xf16>, tensor<16x4096xf16> -> tensor<16x4096xf16>
  return %y : tensor<16x4096xf16>
}
func.func @fused(%x: tensor<16x256xf16>, %w: tensor<256x4096xf16>, %a: tensor<256x16xf16>, %b: tensor<16x4096xf16>) -> tensor<16x4096xf16> {
  %y = mk.graph_kernel (%x, %w, %a, %b) grid = [64, 1, 1] block = [128, 1, 1] forloop = 16 {
  ^bb0(%X: tensor<16x256xf16>, %W: tensor<256x4096xf16>, %A: tensor<256x16xf16>, %B: tensor<16x4096xf16>):
    %acc = mb.for_loop -> (tensor<16x64xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<16x256xf16> -> tensor<16x16xf16>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<256x4096xf16> -> tensor<16x64xf16>
      %at = mb.input_iter %A imap = [-1, -1, -1] fmap = 0 : tensor<256x16xf16> -> tensor<16x16xf16>
      %bt = mb.input_iter %B imap = [1, -1, -1] fmap = -1 : tensor<16x4096xf16> -> tensor<16x64xf16>
      %m1 = mb.matmul %xt, %wt : tensor<16x16xf16>, tensor<16x64xf16> -> tensor<16x64xf16>
      %xa = mb.matmul %xt, %at : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf16>
      %m2 = mb.matmul %xa, %bt : tensor<16x16xf16>, tensor<16x64xf16> -> tensor<16x64xf16>
      %s = mb.add %m1, %m2 : tensor<16x64xf16>, tensor<16x64xf16> -> tensor<16x64xf16>
      %r = mb.accum_sum %s : tensor<16x64xf16> -> tensor<16x64xf16>
      mb.yield %r : tensor<16x64xf16>
    }
    %o = mb.output_saver %acc omap = [1, -1, -1] : tensor<16x64xf16> -> tensor<16x4096xf16>
    mb.return %o : tensor<16x4096xf16>
  } : (tensor<16x256xf16>, tensor<256x4096xf16>, tensor<256x16xf16>, tensor<16x4096xf16>) -> tensor<16x4096xf16>
  return %y : tensor<16x4096xf16>
}
)mlir";

/// Split-K: blocks own slices of the contracted dim, write one partial
/// result each along a new dim, and a second kernel sums the partials.
constexpr const char *kSplitK = R"mlir(
func.func @ref(%x: tensor<1x8x4096xf16>, %w: tensor<1x4096x64xf16>) -> tensor<1x8x64xf16> {
  %y = mk.matmul %x, %w : tensor<1x8x4096xf16>, tensor<1x4096x64xf16> -> tensor<1x8x64xf16>
  return %y : tensor<1x8x64xf16>
}
func.func @fused(%x: tensor<1x8x4096xf16>, %w: tensor<1x4096x64xf16>) -> tensor<1x8x64xf16> {
  %p = mk.graph_kernel (%x, %w) grid = [16, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<1x8x4096xf16>, %W: tensor<1x4096x64xf16>):
    %acc = mb.for_loop -> (tensor<1x8x64xf16>) {
      %xt = mb.input_iter %X imap = [2, -1, -1] fmap = 2 : tensor<1x8x4096xf16> -> tensor<1x8x64xf16>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 1 : tensor<1x4096x64xf16> -> tensor<1x64x64xf16>
      %m = mb.matmul %xt, %wt : tensor<1x8x64xf16>, tensor<1x64x64xf16> -> tensor<1x8x64xf16>
      %s = mb.accum_sum %m : tensor<1x8x64xf16> -> tensor<1x8x64xf16>
      mb.yield %s : tensor<1x8x64xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<1x8x64xf16> -> tensor<16x8x64xf16>
    mb.return %o : tensor<16x8x64xf16>
  } : (tensor<1x8x4096xf16>, tensor<1x4096x64xf16>) -> tensor<16x8x64xf16>
  %y = mk.reduce_sum %p dim = 0 : tensor<16x8x64xf16> -> tensor<1x8x64xf16>
  return %y : tensor<1x8x64xf16>
}
)mlir";

constexpr const char *kGqa = R"mlir(
func.func @ref(%q: tensor<2x256x64xf16>, %k: tensor<2x64x4096xf16>, %v: tensor<2x4096x64xf16>) -> tensor<2x256x64xf16> {
  %s = mk.matmul %q, %k : tensor<2x256x64xf16>, tensor<2x64x4096xf16> -> tensor<2x256x4096xf16>
  %e = mk.exp %s : tensor<2x256x4096xf16>
  %z = mk.reduce_sum %e dim = 2 : tensor<2x256x4096xf16> -> tensor<2x256x1xf16>
  %p = mk.div %e, %z : tensor<2x256x4096xf16>, tensor<2x256x1xf16> -> tensor<2x256x4096xf16>
  %o = mk.matmul %p, %v : tensor<2x256x4096xf16>, tensor<2x4096x64xf16> -> tensor<2x256x64xf16>
  return %o : tensor<2x256x64xf16>
}
func.func @fused(%q: tensor<2x256x64xf16>, %k: tensor<2x64x4096xf16>, %v: tensor<2x4096x64xf16>) -> tensor<2x256x64xf16> {
  %y = mk.graph_kernel (%q, %k, %v) grid = [2, 4, 1] block = [128, 1, 1] forloop = 64 {
  ^bb0(%Q: tensor<2x256x64xf16>, %K: tensor<2x64x4096xf16>, %V: tensor<2x4096x64xf16>):
    %acc:2 = mb.for_loop -> (tensor<1x64x64xf16>, tensor<1x64x1xf16>) {
      %qt = mb.input_iter %Q imap = [0, 1, -1] fmap = -1 : tensor<2x256x64xf16> -> tensor<1x64x64xf16>
      %kt = mb.input_iter %K imap = [0, -1, -1] fmap = 2 : tensor<2x64x4096xf16> -> tensor<1x64x64xf16>
      %vt = mb.input_iter %V imap = [0, -1, -1] fmap = 1 : tensor<2x4096x64xf16> -> tensor<1x64x64xf16>
      %s = mb.matmul %qt, %kt : tensor<1x64x64xf16>, tensor<1x64x64xf16> -> tensor<1x64x64xf16>
      %e = mb.exp %s : tensor<1x64x64xf16>
      %n = mb.matmul %e, %vt : tensor<1x64x64xf16>, tensor<1x64x64xf16> -> tensor<1x64x64xf16>
      %an = mb.accum_sum %n : tensor<1x64x64xf16> -> tensor<1x64x64xf16>
      %ad = mb.accum_sum_last %e : tensor<1x64x64xf16> -> tensor<1x64x1xf16>
      mb.yield %an, %ad : tensor<1x64x64xf16>, tensor<1x64x1xf16>
    }
    %r = mb.div %acc#0, %acc#1 : tensor<1x64x64xf16>, tensor<1x64x1xf16> -> tensor<1x64x64xf16>
    %o = mb.output_saver %r omap = [0, 1, -1] : tensor<1x64x64xf16> -> tensor<2x256x64xf16>
    mb.return %o : tensor<2x256x64xf16>
  } : (tensor<2x256x64xf16>, tensor<2x64x4096xf16>, tensor<2x4096x64xf16>) -> tensor<2x256x64xf16>
  return %y : tensor<2x256x64xf16>
}
)mlir";

//===----------------------------------------------------------------------===//
// Fixture
//===----------------------------------------------------------------------===//

class AbstractExprTest : public ::testing::Test {
protected:
  AbstractExprTest() { loadSearchDialects(ctx); }

  /// Parses `src`, builds the oracle for its @ref and terms for @fused (if
  /// present) on the oracle's axes.
  void load(const char *src) {
    module = parseSourceString<ModuleOp>(src, &ctx);
    ASSERT_TRUE(module) << "cannot parse the test program";
    auto ref = module->lookupSymbol<func::FuncOp>("ref");
    ASSERT_TRUE(ref);
    auto created = PruningOracle::create(ref);
    ASSERT_TRUE(succeeded(created));
    oracle = std::move(*created);
    axes = oracle->getAxes();
  }

  /// The output term of @fused, built like a search candidate would be.
  std::optional<RecExpr::Id> fusedOutput() {
    auto fused = module->lookupSymbol<func::FuncOp>("fused");
    if (!fused)
      return std::nullopt;
    AxisSpace candidateAxes = oracle->getAxes();
    AbstractExprBuilder builder(cand, candidateAxes);
    if (failed(builder.build(fused)))
      return std::nullopt;
    return builder.getOutputs()[0];
  }

  /// Label of dim `dim` of input `input` in the target's axes.
  uint32_t label(unsigned input, unsigned dim) {
    return axes.label(axes.axisOf(input, dim));
  }
  bool keeps(RecExpr::Id t) { return oracle->mayLead(cand, t); }
  std::string show(RecExpr::Id t) { return printTerm(cand, t); }
  bool sameAsTarget(RecExpr::Id t) {
    std::optional<ClassId> c = oracle->classOf(cand, t);
    return c && *c == oracle->rootClass(0);
  }

  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
  std::unique_ptr<PruningOracle> oracle;
  AxisSpace axes;
  RecExpr cand;
  TermBuilder tb{cand};
};

#define EXPECT_KEPT(t) EXPECT_TRUE(keeps(t)) << show(t)
#define EXPECT_PRUNED(t) EXPECT_FALSE(keeps(t)) << show(t)

//===----------------------------------------------------------------------===//
// Axioms on hand-built terms
//===----------------------------------------------------------------------===//

/// An oracle for one hand-built term over inputs of the given shapes.
std::unique_ptr<PruningOracle>
oracleFor(RecExpr &expr, RecExpr::Id root,
          ArrayRef<SmallVector<int64_t, 4>> shapes, AxisSpace &axes) {
  axes.setInputs(shapes);
  return std::make_unique<PruningOracle>(expr, ArrayRef<RecExpr::Id>{root},
                                         axes);
}

TEST(AbstractAxioms, DistributivityReachesExpandedForm) {
  RecExpr e;
  TermBuilder tb(e);
  auto a = tb.var(0), b = tb.var(1), c = tb.var(2);
  auto target = tb.mul(a, tb.add(b, c));
  AxisSpace axes;
  auto oracle = oracleFor(e, target, {{4}, {4}, {4}}, axes);
  ASSERT_TRUE(oracle->isComplete());
  RecExpr q;
  TermBuilder qb(q);
  auto expanded =
      qb.add(qb.mul(qb.var(0), qb.var(1)), qb.mul(qb.var(0), qb.var(2)));
  EXPECT_EQ(oracle->classOf(q, expanded),
            std::optional<ClassId>(oracle->rootClass(0)));
  // Commuted and re-associated spellings are there too.
  auto swapped =
      qb.add(qb.mul(qb.var(2), qb.var(0)), qb.mul(qb.var(1), qb.var(0)));
  EXPECT_EQ(oracle->classOf(q, swapped),
            std::optional<ClassId>(oracle->rootClass(0)));
  // a*b is a subterm of a form of the target; b*c is not.
  EXPECT_TRUE(oracle->mayLead(q, qb.mul(qb.var(1), qb.var(0))));
  EXPECT_FALSE(oracle->mayLead(q, qb.mul(qb.var(1), qb.var(2))));
  EXPECT_FALSE(oracle->mayLead(q, qb.unary(AOp::Exp, qb.var(0))));
}

TEST(AbstractAxioms, SumsSplitByFactors) {
  // sum over 512 of x*y, x: 2x512, y: 512x8 (one contracted axis).
  AxisSpace axes;
  axes.setInputs({{2, 512}, {512, 8}});
  axes.unite(axes.axisOf(0, 1), axes.axisOf(1, 0));
  uint32_t k = axes.label(axes.axisOf(0, 1));
  RecExpr e;
  TermBuilder tb(e);
  auto target = tb.sum(512, k, tb.mul(tb.var(0), tb.var(1)));
  PruningOracle oracle(e, {target}, axes);
  ASSERT_TRUE(oracle.isComplete()) << oracle.getReport().nodes;
  RecExpr q;
  TermBuilder qb(q);
  auto prod = qb.mul(qb.var(0), qb.var(1));
  auto root = std::optional<ClassId>(oracle.rootClass(0));
  EXPECT_EQ(root, oracle.classOf(q, qb.sum(2, k, qb.sum(256, k, prod))));
  EXPECT_EQ(root, oracle.classOf(q, qb.sum(256, k, qb.sum(2, k, prod))));
  EXPECT_EQ(root,
            oracle.classOf(q, qb.sum(8, k, qb.sum(4, k, qb.sum(16, k, prod)))));
  EXPECT_TRUE(oracle.mayLead(q, qb.sum(256, k, prod)));
  // 3 does not divide 512; and a sum over the other axis is not a form.
  EXPECT_FALSE(oracle.mayLead(q, qb.sum(3, k, prod)));
  uint32_t other = axes.label(axes.axisOf(1, 1));
  EXPECT_FALSE(oracle.mayLead(q, qb.sum(8, other, prod)));
}

TEST(AbstractAxioms, FactorsLeaveSumsOnlyIfIndependent) {
  // x: 8x8, independent axes i (dim 0) and j (dim 1).
  AxisSpace axes;
  axes.setInputs({{8, 8}, {8, 8}});
  uint32_t i = axes.label(axes.axisOf(0, 0));
  uint32_t j = axes.label(axes.axisOf(0, 1));
  axes.unite(axes.axisOf(0, 0), axes.axisOf(1, 0));
  axes.unite(axes.axisOf(0, 1), axes.axisOf(1, 1));
  RecExpr e;
  TermBuilder tb(e);
  auto x = tb.var(0), y = tb.var(1);
  // sum_j (x / sum_j x): the denominator is reduced over j, so it leaves.
  auto t1 = tb.sum(8, j, tb.div(x, tb.sum(8, j, x)));
  // sum_j (x / sum_i x): the denominator depends on j; it must stay.
  auto t2 = tb.sum(8, j, tb.div(y, tb.sum(8, i, y)));
  PruningOracle oracle(e, {t1, t2}, axes);
  ASSERT_TRUE(oracle.isComplete());
  RecExpr q;
  TermBuilder qb(q);
  auto X = qb.var(0), Y = qb.var(1);
  EXPECT_EQ(std::optional<ClassId>(oracle.rootClass(0)),
            oracle.classOf(q, qb.div(qb.sum(8, j, X), qb.sum(8, j, X))));
  EXPECT_FALSE(oracle.mayLead(q, qb.div(qb.sum(8, j, Y), qb.sum(8, i, Y))));
  // A partial sum (a tile) over j still depends on j: it cannot leave a
  // sum over j either.
  auto t3 = tb.sum(8, j, tb.mul(x, tb.sum(4, j, y)));
  PruningOracle partial(e, {t3}, axes);
  ASSERT_TRUE(partial.isComplete());
  EXPECT_FALSE(partial.mayLead(q, qb.mul(qb.sum(8, j, X), qb.sum(4, j, Y))));
}

//===----------------------------------------------------------------------===//
// Pruning verdicts on the benchmark targets
//===----------------------------------------------------------------------===//

TEST_F(AbstractExprTest, RmsNormMatmul) {
  load(kRmsNormMatmul);
  ASSERT_TRUE(oracle->isComplete())
      << stringifyStopReason(oracle->getReport().reason).str();
  uint32_t k = label(0, 1), n = label(1, 1);
  EXPECT_EQ(k, label(1, 0)); // the matmul identifies X's dim 1 with W's dim 0
  auto X = tb.var(0), W = tb.var(1);
  auto prod = tb.mul(X, W);
  auto sq = tb.unary(AOp::Square, X);
  double eps = 1e-6;

  // Matmul tiles and their loop accumulators.
  auto tile = tb.sum(128, k, prod);
  EXPECT_KEPT(tile);
  EXPECT_KEPT(tb.sum(32, k, tile));
  EXPECT_KEPT(tb.sum(4096, k, prod));
  EXPECT_KEPT(tb.mul(W, X));
  // The rms accumulator: per tile, over the loop, and its root.
  auto sqTile = tb.sum(128, k, sq);
  EXPECT_KEPT(sqTile);
  auto rmsAcc = tb.rms(4096, eps, tb.sum(32, k, sqTile));
  EXPECT_KEPT(rmsAcc);
  EXPECT_KEPT(tb.rms(4096, eps, tb.sum(4096, k, tb.mul(X, X))));
  // The scale moved after the matmul is the target itself.
  EXPECT_TRUE(sameAsTarget(tb.div(tb.sum(32, k, tile), rmsAcc)));
  // ... and with the division spelled as a product with rsqrt.
  auto meanSq = tb.shift(eps, tb.scale(1.0 / 4096, tb.sum(4096, k, sq)));
  EXPECT_TRUE(sameAsTarget(
      tb.mul(tb.sum(4096, k, prod), tb.unary(AOp::Rsqrt, meanSq))));

  // Useless candidates.
  EXPECT_PRUNED(tb.unary(AOp::Exp, X));
  EXPECT_PRUNED(tb.unary(AOp::Silu, X));
  EXPECT_PRUNED(tb.sum(128, k, tb.mul(W, W)));            // wrong operand
  EXPECT_PRUNED(tb.sum(24, n, prod));                     // wrong axis
  EXPECT_PRUNED(tb.sum(4096, k, X));                      // no plain sum of X
  EXPECT_PRUNED(tb.rms(4096, 1e-5, tb.sum(4096, k, sq))); // wrong eps
  EXPECT_PRUNED(tb.sum(3, k, prod)); // 3 does not divide 4096

  // The fused program's output, built from IR, equals the target.
  auto fused = fusedOutput();
  ASSERT_TRUE(fused.has_value());
  EXPECT_TRUE(sameAsTarget(*fused)) << show(*fused);
}

TEST_F(AbstractExprTest, SumOver256InsideRmsScaledSumOver512) {
  load(kRmsNormMatmul512);
  // The verdict must come from a completed saturation, not from failing open.
  ASSERT_TRUE(oracle->isComplete());
  uint32_t k = label(0, 1);
  auto prod = tb.mul(tb.var(0), tb.var(1));
  EXPECT_KEPT(tb.sum(256, k, prod));
  EXPECT_KEPT(tb.sum(128, k, prod));
  EXPECT_KEPT(tb.sum(2, k, tb.sum(256, k, prod)));
  EXPECT_KEPT(tb.sum(512, k, prod));
  auto rms =
      tb.rms(512, 1e-6, tb.sum(512, k, tb.unary(AOp::Square, tb.var(0))));
  EXPECT_TRUE(sameAsTarget(tb.div(tb.sum(2, k, tb.sum(256, k, prod)), rms)));
  EXPECT_PRUNED(tb.sum(256, k, tb.unary(AOp::Exp, prod)));
  EXPECT_PRUNED(tb.sum(256, k, tb.mul(tb.var(1), tb.var(1))));
}

TEST_F(AbstractExprTest, GatedMlp) {
  load(kGatedMlp);
  ASSERT_TRUE(oracle->isComplete());
  uint32_t k = label(0, 1);
  auto X = tb.var(0), W1 = tb.var(1), W2 = tb.var(2);
  auto t1 = tb.sum(64, k, tb.mul(X, W1));
  auto t2 = tb.sum(64, k, tb.mul(X, W2));
  EXPECT_KEPT(t1);
  EXPECT_KEPT(t2);
  auto a1 = tb.sum(64, k, t1), a2 = tb.sum(64, k, t2);
  EXPECT_KEPT(a1);
  EXPECT_KEPT(tb.unary(AOp::Silu, a1));
  EXPECT_TRUE(sameAsTarget(tb.mul(tb.unary(AOp::Silu, a1), a2)));
  EXPECT_TRUE(sameAsTarget(tb.mul(a2, tb.unary(AOp::Silu, a1))));

  EXPECT_PRUNED(tb.unary(AOp::Exp, X));
  EXPECT_PRUNED(tb.sum(64, k, tb.mul(W1, W2))); // wrong operand
  EXPECT_PRUNED(tb.unary(AOp::Silu, tb.sum(4096, k, tb.mul(X, W2))));
  EXPECT_PRUNED(tb.mul(tb.unary(AOp::Silu, a1), a1));

  auto fused = fusedOutput();
  ASSERT_TRUE(fused.has_value());
  EXPECT_TRUE(sameAsTarget(*fused)) << show(*fused);
}

TEST_F(AbstractExprTest, Lora) {
  load(kLora);
  ASSERT_TRUE(oracle->isComplete());
  uint32_t k = label(0, 1), r = label(2, 1);
  EXPECT_EQ(k, label(2, 0));
  EXPECT_EQ(r, label(3, 0));
  auto X = tb.var(0), W = tb.var(1), A = tb.var(2), B = tb.var(3);
  auto xw = tb.sum(16, k, tb.mul(X, W));
  auto xa = tb.sum(16, k, tb.mul(X, A));
  auto xab = tb.sum(16, r, tb.mul(xa, B));
  // Loop-body values of the known-good kernel.
  EXPECT_KEPT(xw);
  EXPECT_KEPT(xa);
  EXPECT_KEPT(xab);
  EXPECT_KEPT(tb.add(xw, xab));
  // Accumulated over the 16 iterations, it is the target: (X.A).B is linear
  // in the sum over k.
  EXPECT_TRUE(sameAsTarget(tb.sum(16, k, tb.add(xw, xab))));

  EXPECT_PRUNED(tb.unary(AOp::Exp, X));
  // X.(A.B) equals (X.A).B under the axioms: A.B is a valid (if slow) step.
  EXPECT_KEPT(tb.sum(16, r, tb.mul(A, B)));
  EXPECT_PRUNED(tb.sum(16, r, tb.mul(xw, B))); // wrong operand
  EXPECT_PRUNED(tb.sum(16, k, tb.mul(W, A)));  // wrong operands
  EXPECT_PRUNED(tb.mul(xw, xab));

  auto fused = fusedOutput();
  ASSERT_TRUE(fused.has_value());
  EXPECT_TRUE(sameAsTarget(*fused)) << show(*fused);
}

/// A row sum of W^T: the reference transposes W[8, 4] and sums its rows (over
/// W's dim 0); the fused kernel reads W^T through a view of W and sums the
/// tile's last dim. The view's permuted dims carry W's axes, so the sum is
/// over W's dim-0 axis and the kernel's term is the target's (read without
/// the view, the tile's last dim would be W's dim 1).
constexpr const char *kTransposedRowSum = R"mlir(
func.func @ref(%w: tensor<8x4xf32>) -> tensor<4x1xf32> {
  %wt = mk.transpose %w perm = [1, 0] : tensor<8x4xf32> -> tensor<4x8xf32>
  %y = mk.reduce_sum %wt dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  return %y : tensor<4x1xf32>
}
func.func @fused(%w: tensor<8x4xf32>) -> tensor<4x1xf32> {
  %y = mk.graph_kernel (%w) grid = [1, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%W: tensor<8x4xf32>):
    %acc = mb.for_loop -> (tensor<4x1xf32>) {
      %wt = mb.input_iter %W imap = [-1, -1, -1] fmap = 1 view = affine_map<(i, j) -> (j, i)> : tensor<8x4xf32> -> tensor<4x4xf32>
      %s = mb.accum_sum_last %wt : tensor<4x4xf32> -> tensor<4x1xf32>
      mb.yield %s : tensor<4x1xf32>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<4x1xf32> -> tensor<4x1xf32>
    mb.return %o : tensor<4x1xf32>
  } : (tensor<8x4xf32>) -> tensor<4x1xf32>
  return %y : tensor<4x1xf32>
}
)mlir";

TEST_F(AbstractExprTest, TransposedTensorReadThroughAView) {
  load(kTransposedRowSum);
  ASSERT_TRUE(oracle->isComplete());
  auto fused = fusedOutput();
  ASSERT_TRUE(fused);
  EXPECT_TRUE(sameAsTarget(*fused)) << show(*fused);
}

TEST_F(AbstractExprTest, AttentionDividesAfterTheLoop) {
  load(kGqa);
  ASSERT_TRUE(oracle->isComplete());
  uint32_t d = label(0, 2), j = label(1, 2);
  EXPECT_EQ(j, label(2, 1));
  auto S = tb.sum(64, d, tb.mul(tb.var(0), tb.var(1)));
  auto E = tb.unary(AOp::Exp, S);
  // Loop-body values and accumulators of the one-kernel attention.
  EXPECT_KEPT(S);
  EXPECT_KEPT(E);
  EXPECT_KEPT(tb.sum(64, j, tb.mul(E, tb.var(2))));
  EXPECT_KEPT(tb.sum(64, j, tb.sum(64, j, E)));
  EXPECT_PRUNED(tb.unary(AOp::Exp, tb.unary(AOp::Exp, S)));
  EXPECT_PRUNED(tb.sum(64, j, tb.mul(S, tb.var(2)))); // exp forgotten
  auto fused = fusedOutput();
  ASSERT_TRUE(fused.has_value());
  EXPECT_TRUE(sameAsTarget(*fused)) << show(*fused);
}

TEST_F(AbstractExprTest, SplitKWithCombiningKernel) {
  load(kSplitK);
  ASSERT_TRUE(oracle->isComplete());
  auto fused = fusedOutput();
  ASSERT_TRUE(fused.has_value());
  EXPECT_TRUE(sameAsTarget(*fused)) << show(*fused);
  uint32_t k = label(0, 2);
  auto prod = tb.mul(tb.var(0), tb.var(1));
  // The per-block partial (a sum over 4 x 64 of the 4096) is a subterm.
  EXPECT_KEPT(tb.sum(4, k, tb.sum(64, k, prod)));
}

TEST_F(AbstractExprTest, FailsOpenWhenALimitIsHit) {
  module = parseSourceString<ModuleOp>(kRmsNormMatmul, &ctx);
  ASSERT_TRUE(module);
  SaturationLimits tiny;
  tiny.maxNodes = 20;
  auto created =
      PruningOracle::create(module->lookupSymbol<func::FuncOp>("ref"), tiny);
  ASSERT_TRUE(succeeded(created));
  oracle = std::move(*created);
  EXPECT_FALSE(oracle->isComplete());
  EXPECT_EQ(StopReason::NodeLimit, oracle->getReport().reason);
  // Without a fixpoint nothing may be pruned, not even garbage.
  EXPECT_TRUE(keeps(tb.unary(AOp::Exp, tb.var(0))));
  EXPECT_TRUE(keeps(tb.sum(3, 7, tb.var(1))));

  SaturationLimits oneIteration;
  oneIteration.maxIterations = 1;
  created = PruningOracle::create(module->lookupSymbol<func::FuncOp>("ref"),
                                  oneIteration);
  ASSERT_TRUE(succeeded(created));
  EXPECT_EQ(StopReason::IterationLimit, (*created)->getReport().reason);
  EXPECT_TRUE((*created)->mayLead(cand, tb.unary(AOp::Exp, tb.var(0))));
}

//===----------------------------------------------------------------------===//
// The known-good programs of test/Programs and the benchmarks of bench/
//===----------------------------------------------------------------------===//

/// The .mlir files of a source directory, sorted.
std::vector<std::string> mlirFiles(const char *relDir) {
  llvm::SmallString<256> dir(MIRAGE_SOURCE_DIR);
  llvm::sys::path::append(dir, relDir);
  std::vector<std::string> files;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec))
    if (llvm::sys::path::extension(it->path()) == ".mlir")
      files.push_back(it->path());
  llvm::sort(files);
  return files;
}

/// Every fused program (a function with `mk.reference = @ref`) must be equal
/// to its reference in the saturated graph, and every value it computes must
/// be kept: pruning must never lose a known-good program (DESIGN §5, §8).
TEST_F(AbstractExprTest, KnownGoodProgramsAreNeverPruned) {
  std::vector<std::string> files = mlirFiles("test/Programs");
  ASSERT_GE(files.size(), 8u) << "test/Programs not found";
  int checked = 0;
  for (const std::string &file : files) {
    SCOPED_TRACE(file);
    auto buffer = llvm::MemoryBuffer::getFile(file);
    ASSERT_TRUE(bool(buffer));
    auto m = parseSourceString<ModuleOp>((*buffer)->getBuffer(), &ctx);
    ASSERT_TRUE(m);
    for (auto fused : m->getOps<func::FuncOp>()) {
      auto refAttr = fused->getAttrOfType<FlatSymbolRefAttr>("mk.reference");
      if (!refAttr)
        continue;
      auto ref = m->lookupSymbol<func::FuncOp>(refAttr);
      ASSERT_TRUE(ref);
      auto created = PruningOracle::create(ref);
      ASSERT_TRUE(succeeded(created));
      PruningOracle &o = **created;
      ASSERT_TRUE(o.isComplete()) << fused.getName().str();
      RecExpr expr;
      AxisSpace candidateAxes = o.getAxes();
      AbstractExprBuilder builder(expr, candidateAxes);
      ASSERT_TRUE(succeeded(builder.build(fused)));
      for (auto [i, out] : llvm::enumerate(builder.getOutputs())) {
        std::optional<ClassId> c = o.classOf(expr, out);
        EXPECT_TRUE(c && *c == o.rootClass(i))
            << fused.getName().str() << " output " << i << ": "
            << printTerm(expr, out);
      }
      int values = 0;
      fused.walk([&](Operation *op) {
        for (Value v : op->getResults()) {
          std::optional<RecExpr::Id> t = builder.getTerm(v);
          if (!t)
            continue;
          ++values;
          EXPECT_TRUE(o.mayLead(expr, *t))
              << fused.getName().str() << ": value of '"
              << op->getName().getStringRef().str()
              << "' pruned: " << printTerm(expr, *t);
        }
      });
      EXPECT_GT(values, 5);
      ++checked;
    }
  }
  EXPECT_GE(checked, 8);
}

/// Saturation of every benchmark program of bench/programs (all batch sizes
/// and the extras), printed for docs/search.md.
TEST_F(AbstractExprTest, BenchmarkProgramsSaturate) {
  std::vector<std::string> files = mlirFiles("bench/programs");
  ASSERT_GE(files.size(), 10u) << "bench/programs not found";
  for (const std::string &file : files) {
    auto buffer = llvm::MemoryBuffer::getFile(file);
    ASSERT_TRUE(bool(buffer));
    module = parseSourceString<ModuleOp>((*buffer)->getBuffer(), &ctx);
    ASSERT_TRUE(module) << file;
    auto fn = *module->getOps<func::FuncOp>().begin();
    auto start = std::chrono::steady_clock::now();
    auto created = PruningOracle::create(fn);
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    ASSERT_TRUE(succeeded(created)) << file;
    const PruningOracle &o = **created;
    const SaturationReport &r = o.getReport();
    EXPECT_EQ("", o.getEGraph().checkInvariants()) << file;
    // Per-query time: the whole reference output (a member, every node
    // looked up) and exp of the first input (absent, fails at the 2nd node).
    RecExpr q;
    AxisSpace qa = o.getAxes();
    AbstractExprBuilder qb(q, qa);
    ASSERT_TRUE(succeeded(qb.build(fn)));
    RecExpr::Id member = qb.getOutputs()[0];
    RecExpr::Id absent = TermBuilder(q).unary(AOp::Exp, TermBuilder(q).var(0));
    auto timeQueries = [&](RecExpr::Id t, bool expected) {
      constexpr int kQueries = 20000;
      int hits = 0;
      auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < kQueries; ++i)
        hits += o.mayLead(q, t);
      double us =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
              .count() *
          1e6 / kQueries;
      EXPECT_EQ(expected ? kQueries : 0, hits) << file;
      return us;
    };
    double memberUs = timeQueries(member, true);
    bool hasExp = printTerm(q, member).find("(exp var:0)") != std::string::npos;
    double absentUs = timeQueries(absent, hasExp);
    size_t termNodes = 0;
    std::function<void(RecExpr::Id)> count = [&](RecExpr::Id i) {
      ++termNodes;
      for (ClassId c : q.get(i).children)
        count(c);
    };
    count(member);
    std::printf("[ program  ] %-24s %-9s it %2u nodes %5zu classes %4zu "
                "saturate %7.2f ms | query: %2zu-node member %5.2f us, "
                "absent %5.2f us\n",
                llvm::sys::path::filename(file).str().c_str(),
                stringifyStopReason(r.reason).str().c_str(), r.iterations,
                r.nodes, r.classes, seconds * 1e3, termNodes, memberUs,
                absentUs);
    EXPECT_TRUE(r.saturated()) << file;
  }
}

//===----------------------------------------------------------------------===//
// Terms from IR
//===----------------------------------------------------------------------===//

TEST_F(AbstractExprTest, TermsFromIR) {
  load(kRmsNormMatmul);
  auto ref = module->lookupSymbol<func::FuncOp>("ref");
  RecExpr e;
  AxisSpace a = oracle->getAxes();
  AbstractExprBuilder builder(e, a);
  ASSERT_TRUE(succeeded(builder.build(ref)));
  ASSERT_EQ(1u, builder.getOutputs().size());
  // Labels: X dim 1 is label 2 (pair 1); the rms sum and the matmul sum
  // reduce it. 1/4096 and 1e-6 appear as constants.
  std::string printed = printTerm(e, builder.getOutputs()[0]);
  EXPECT_EQ("(sum:4096@2 (mul (div var:0 (sqrt (add const:1.000000e-06 (mul "
            "const:2.441406e-04 (sum:4096@2 (square var:0)))))) var:1))",
            printed);
  // The same label as the fixture's view of X's dim 1.
  EXPECT_EQ(2u, label(0, 1));

  // An op without a term is a diagnostic and a failure, not a crash.
  ctx.allowUnregisteredDialects();
  auto unknown = parseSourceString<ModuleOp>(R"mlir(
func.func @ref(%x: tensor<4x4xf16>) -> tensor<4x4xf16> {
  %u = "test.unknown"(%x) : (tensor<4x4xf16>) -> tensor<4x4xf16>
  return %u : tensor<4x4xf16>
}
)mlir",
                                             &ctx);
  ASSERT_TRUE(unknown);
  std::string diagnostic;
  {
    ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
      diagnostic = d.str();
      return success();
    });
    EXPECT_TRUE(failed(
        PruningOracle::create(unknown->lookupSymbol<func::FuncOp>("ref"))));
  }
  EXPECT_EQ("abstract expression: no term for 'test.unknown'", diagnostic);

  // concat and transpose have terms.
  auto shapes = parseSourceString<ModuleOp>(R"mlir(
func.func @ref(%x: tensor<4x4xf16>) -> tensor<4x4xf16> {
  %c = mk.concat %x, %x dim = 0 : tensor<4x4xf16>, tensor<4x4xf16> -> tensor<8x4xf16>
  %t = mk.transpose %x perm = [1, 0] : tensor<4x4xf16> -> tensor<4x4xf16>
  return %t : tensor<4x4xf16>
}
)mlir",
                                            &ctx);
  ASSERT_TRUE(shapes);
  auto created =
      PruningOracle::create(shapes->lookupSymbol<func::FuncOp>("ref"));
  ASSERT_TRUE(succeeded(created));
  // A candidate without a return yet still gets terms for its values.
  auto partial = parseSourceString<ModuleOp>(R"mlir(
func.func @ref(%x: tensor<4x4xf16>) -> tensor<4x4xf16> {
  %e = mk.exp %x : tensor<4x4xf16>
  return %e : tensor<4x4xf16>
}
)mlir",
                                             &ctx);
  ASSERT_TRUE(partial);
  auto fn = partial->lookupSymbol<func::FuncOp>("ref");
  fn.getBody().front().back().erase();
  RecExpr pe;
  AxisSpace pa;
  pa.setInputs({{4, 4}});
  AbstractExprBuilder pb(pe, pa);
  ASSERT_TRUE(succeeded(pb.build(fn)));
  EXPECT_TRUE(pb.getOutputs().empty());
  auto exp = pb.getTerm(fn.getBody().front().front().getResult(0));
  ASSERT_TRUE(exp.has_value());
  EXPECT_EQ("(exp var:0)", printTerm(pe, *exp));

  // transpose is the identity on element terms.
  RecExpr q;
  TermBuilder qb(q);
  EXPECT_EQ(std::optional<ClassId>((*created)->rootClass(0)),
            (*created)->classOf(q, qb.var(0)));
}

} // namespace
