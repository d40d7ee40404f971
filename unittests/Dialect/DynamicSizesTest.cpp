//===- DynamicSizesTest.cpp - Dynamic sizes, tail tilings -----*- C++ -*-===//

#include "Mirage/Dialect/Kernel/Analysis/DynamicSizes.h"
#include "Mirage/Dialect/Kernel/IR/Kernel.h"
#include "Mirage/InitMirage.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mirage;

namespace {

struct DynamicSizesTest : ::testing::Test {
  MLIRContext ctx;
  DynamicSizesTest() {
    DialectRegistry registry;
    registerAllMirageDialects(registry);
    registry.insert<func::FuncDialect>();
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
  }
  OwningOpRef<ModuleOp> parse(StringRef text) {
    return parseSourceString<ModuleOp>(text, &ctx);
  }
};

// The transpose makes y's dim 0 the size of x's dim 1; the facts of both
// arguments merge into one size.
constexpr StringLiteral kTwoSizes = R"mlir(
func.func @f(%x: tensor<?x?xf32> {mk.sizes = [#mk.size<name = "rows", max = 64>, #mk.size<min = 2>]},
             %y: tensor<?x?xf32> {mk.sizes = [#mk.size<max = 32, divisor = 4>, #mk.size<>]}) -> tensor<?x?xf32> {
  %t = mk.transpose %x perm = [1, 0] : tensor<?x?xf32> -> tensor<?x?xf32>
  %s = mk.add %t, %y : tensor<?x?xf32>, tensor<?x?xf32> -> tensor<?x?xf32>
  return %s : tensor<?x?xf32>
}
)mlir";

/// @f of kTwoSizes and its sizes.
struct TwoSizesTest : DynamicSizesTest {
  OwningOpRef<ModuleOp> module;
  FunctionOpInterface f;
  FailureOr<mk::DynamicSizes> sizes = failure();
  void SetUp() override {
    module = parse(kTwoSizes);
    ASSERT_TRUE(module);
    f = cast<FunctionOpInterface>(module->lookupSymbol("f"));
    sizes = mk::DynamicSizes::analyze(f);
    ASSERT_TRUE(succeeded(sizes));
  }
};

TEST_F(TwoSizesTest, GroupsRelatedDimsAndMergesFacts) {
  ASSERT_EQ(2u, sizes->getSizes().size());
  // x's dim 0 is y's dim 1 ("rows"); x's dim 1 is y's dim 0 (unnamed: s0).
  const mk::DynamicSize &rows = sizes->getSizes()[0];
  const mk::DynamicSize &cols = sizes->getSizes()[1];
  EXPECT_EQ("rows", rows.name);
  EXPECT_EQ(64, rows.max);
  EXPECT_EQ("s0", cols.name);
  EXPECT_EQ(2, cols.min);
  EXPECT_EQ(32, cols.max);
  EXPECT_EQ(4, cols.divisor);
  EXPECT_TRUE(cols.admits(8));
  EXPECT_FALSE(cols.admits(6));  // not a multiple of 4
  EXPECT_FALSE(cols.admits(36)); // above 32
  Value y = f.getArgument(1);
  EXPECT_EQ(std::optional<unsigned>(1), sizes->findSize(y, 0));
  EXPECT_EQ(std::optional<unsigned>(0), sizes->findSize(y, 1));
  EXPECT_EQ(std::optional<unsigned>(0), sizes->lookup("rows"));
  EXPECT_FALSE(sizes->lookup("tokens"));
}

TEST_F(TwoSizesTest, SpecializeRewritesEveryTypeOrRefuses) {
  // 6 breaks s0's divisor: a diagnostic, the function unchanged.
  {
    ScopedDiagnosticHandler quiet(&ctx, [](Diagnostic &) { return success(); });
    EXPECT_TRUE(failed(sizes->specialize(f, {10, 6})));
  }
  EXPECT_TRUE(mk::hasDynamicDims(f));
  ASSERT_TRUE(succeeded(sizes->specialize(f, {10, 8})));
  EXPECT_FALSE(mk::hasDynamicDims(f));
  auto type = cast<FunctionType>(f.getFunctionType());
  EXPECT_EQ(RankedTensorType::get({10, 8}, Float32Type::get(&ctx)),
            type.getInput(0));
  EXPECT_EQ(RankedTensorType::get({8, 10}, Float32Type::get(&ctx)),
            type.getInput(1));
  EXPECT_EQ(type.getInput(1), type.getResult(0));
  EXPECT_TRUE(succeeded(mlir::verify(*module)));
}

TEST(TailTiling, CeilDivisionOnGridDimsOnly) {
  // 100 rows in 7 blocks of 16: a tail on dim 0.
  EXPECT_TRUE(
      mb::isTailTiling({100, 64}, {16, 64}, {7, 1, 1}, 1, {0, -1, -1}, -1));
  // An exact tiling is not a tail tiling.
  EXPECT_FALSE(
      mb::isTailTiling({96, 64}, {16, 64}, {6, 1, 1}, 1, {0, -1, -1}, -1));
  // Too few or too many blocks.
  EXPECT_FALSE(
      mb::isTailTiling({100, 64}, {16, 64}, {6, 1, 1}, 1, {0, -1, -1}, -1));
  EXPECT_FALSE(
      mb::isTailTiling({100, 64}, {16, 64}, {8, 1, 1}, 1, {0, -1, -1}, -1));
  // A dim the loop walks has a tail when ceil(size / tile) trips walk it
  // and no grid dim splits it; one the grid splits as well has none.
  EXPECT_FALSE(
      mb::isTailTiling({8, 100}, {8, 16}, {7, 1, 1}, 1, {1, -1, -1}, 1));
  EXPECT_TRUE(
      mb::isTailTiling({8, 100}, {8, 16}, {1, 1, 1}, 7, {-1, -1, -1}, 1));
  EXPECT_FALSE(
      mb::isTailTiling({8, 100}, {8, 16}, {1, 1, 1}, 8, {-1, -1, -1}, 1));
  // The other dims still tile exactly.
  EXPECT_FALSE(
      mb::isTailTiling({100, 64}, {16, 32}, {7, 1, 1}, 1, {0, -1, -1}, -1));
}

} // namespace
