//===- CacheRecheckTest.cpp - Cache hits rebuilt and re-checked -*- C++ -*-===//
//
// White-box test of the re-check of cached programs (lib/Search's
// SearchCache.h): a search result's structure reads back into the same
// candidate; an honest entry passes at reduced shapes (at the real shapes
// for a target with constants that may stand for sizes); a wrong program
// planted with its own structure, a program that is not the one its
// structure builds, and structures corrupted number by number all fail the
// re-check with a reason, and none of them crashes.
//
//===----------------------------------------------------------------------===//

#include "Materialize.h"
#include "SearchCache.h"
#include "TargetImport.h"

#include "Mirage/Dialect/Block/IR/Block.h"
#include "Mirage/Dialect/Kernel/IR/Kernel.h"
#include "Mirage/Dialect/Thread/IR/Thread.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

#include "SearchTestSupport.h"

using namespace mlir;
using namespace mirage;
using namespace mirage::search;
using namespace mirage::search::detail;

namespace {

// A scale that may stand for a size (1/64 as a mean over 64 elements).
constexpr const char *kScaledSum = R"mlir(
func.func @f(%x: tensor<8x64xf16>) -> tensor<8x1xf16> {
  %s = mk.mul_scalar %x, 1.562500e-02 : tensor<8x64xf16>
  %r = mk.reduce_sum %s dim = 1 : tensor<8x64xf16> -> tensor<8x1xf16>
  return %r : tensor<8x1xf16>
}
)mlir";

class CacheRecheckTest : public ::testing::Test {
protected:
  CacheRecheckTest() { loadSearchDialects(ctx); }

  func::FuncOp load(const char *src) {
    input = parseSourceString<ModuleOp>(src, &ctx);
    EXPECT_TRUE(input);
    return *input->getOps<func::FuncOp>().begin();
  }

  /// The outcome a search of `func` stores.
  CachedOutcome searched(func::FuncOp func) {
    std::string error;
    FailureOr<SuperoptimizeResult> r = superoptimize(func, options, error);
    EXPECT_TRUE(succeeded(r)) << error;
    EXPECT_FALSE(r->program.empty());
    EXPECT_FALSE(r->structure.empty());
    return {r->program, r->structure, r->summary,
            "",         r->kernels,   r->modelledMicros};
  }

  /// The outcome of `c`'s program, built for `target`, with its own key.
  CachedOutcome outcomeOf(const Target &target, const Candidate &c) {
    OwningOpRef<ModuleOp> m = scratchModule(&ctx, target.smemLimit);
    buildProgram(*m, c.prog, c.outputs, target.numInputs, target.extent,
                 target.element, "superoptimized");
    CachedOutcome o;
    o.program = ProgramModule(std::move(m));
    o.structure.assign(c.key().begin(), c.key().end());
    return o;
  }

  /// The candidate of `o`'s structure, read against `func` imported into
  /// `target` as the re-check imports it (without pruning).
  FailureOr<Candidate> readBack(func::FuncOp func, const CachedOutcome &o,
                                Target &target, std::string &error) {
    SuperoptimizeOptions noPruning = options;
    noPruning.pruning = false;
    if (failed(importTarget(func, noPruning, target, error)))
      return failure();
    return candidateOfKey(o.structure, target, error);
  }

  Recheck recheck(const CachedOutcome &o, func::FuncOp func,
                  std::string &problem) {
    problem.clear();
    return recheckCachedProgram(o.program, o.structure, "entry", func, options,
                                problem);
  }

  MLIRContext ctx;
  OwningOpRef<ModuleOp> input;
  SuperoptimizeOptions options;
};

TEST_F(CacheRecheckTest, HonestEntryPassesAtReducedShapes) {
  func::FuncOp f = load(kSmallGatedMlp);
  CachedOutcome o = searched(f);
  // The structure reads back into a candidate with the same key.
  Target target;
  std::string error;
  FailureOr<Candidate> c = readBack(f, o, target, error);
  ASSERT_TRUE(succeeded(c)) << error;
  EXPECT_EQ(std::vector<int64_t>(c->key().begin(), c->key().end()),
            o.structure);
  EXPECT_EQ(recheck(o, f, error), Recheck::AtReducedShapes) << error;
  // Through the cache's text form and back.
  std::string problem;
  FailureOr<ProgramModule> parsed =
      ProgramModule::parse(o.program.print(), &ctx, problem);
  ASSERT_TRUE(succeeded(parsed)) << problem;
  o.program = *parsed;
  EXPECT_EQ(recheck(o, f, error), Recheck::AtReducedShapes) << error;
  // An entry without a structure is checked at the real shapes.
  o.structure.clear();
  EXPECT_EQ(recheck(o, f, error), Recheck::AtRealShapes) << error;
}

TEST_F(CacheRecheckTest, SizeLikeConstantsAreCheckedAtRealShapes) {
  func::FuncOp f = load(kScaledSum);
  CachedOutcome o = searched(f);
  std::string error;
  EXPECT_EQ(recheck(o, f, error), Recheck::AtRealShapes) << error;
}

TEST_F(CacheRecheckTest, PlantedProgramsFail) {
  func::FuncOp f = load(kSmallGatedMlp);
  CachedOutcome honest = searched(f);
  Target target;
  std::string error;
  FailureOr<Candidate> c = readBack(f, honest, target, error);
  ASSERT_TRUE(succeeded(c)) << error;
  // A wrong program with its own structure: silu becomes gelu.
  Candidate wrong;
  wrong.prog = c->prog;
  wrong.outputs = c->outputs;
  bool planted = false;
  for (SKernel &k : wrong.prog.kernels)
    for (SOp &op : k.ops)
      if (op.kind == Kind::Silu && !planted) {
        op.kind = Kind::Gelu;
        planted = true;
      }
  ASSERT_TRUE(planted);
  CachedOutcome bad = outcomeOf(target, wrong);
  EXPECT_EQ(recheck(bad, f, error), Recheck::Failed);
  EXPECT_NE(error.find("differs from the function at reduced shapes"),
            std::string::npos)
      << error;
  // The wrong program under the honest structure.
  bad.structure = honest.structure;
  EXPECT_EQ(recheck(bad, f, error), Recheck::Failed);
  EXPECT_NE(error.find("not the one its structure builds"), std::string::npos)
      << error;
  // Without a structure the wrong program fails at the real shapes.
  bad.structure.clear();
  EXPECT_EQ(recheck(bad, f, error), Recheck::Failed);
  EXPECT_NE(error.find("failed the re-check"), std::string::npos) << error;
}

TEST_F(CacheRecheckTest, CorruptedStructuresFailWithoutCrashing) {
  func::FuncOp f = load(kSmallGatedMlp);
  CachedOutcome honest = searched(f);
  unsigned failed = 0, tried = 0;
  std::string error;
  for (size_t i = 0; i < honest.structure.size(); ++i)
    for (int64_t v : {int64_t(-1), int64_t(0), int64_t(1), int64_t(3),
                      int64_t(1) << 40, honest.structure[i] + 1}) {
      if (v == honest.structure[i])
        continue;
      CachedOutcome o = honest;
      o.structure[i] = v;
      ++tried;
      if (recheck(o, f, error) == Recheck::Failed) {
        ++failed;
        EXPECT_FALSE(error.empty());
      }
    }
  // Cut short, and extended.
  CachedOutcome cut = honest;
  cut.structure.pop_back();
  EXPECT_EQ(recheck(cut, f, error), Recheck::Failed);
  EXPECT_NE(error.find("malformed"), std::string::npos) << error;
  CachedOutcome longer = honest;
  longer.structure.push_back(0);
  EXPECT_EQ(recheck(longer, f, error), Recheck::Failed);
  // Most changes build another program or none; the others change what
  // the builders do not read (a value's flags, a parameter of an op that
  // has none, the grid's axis list), build the entry's program exactly and
  // pass its re-check.
  EXPECT_GT(failed, tried * 2 / 3) << failed << " of " << tried;
}

} // namespace
