//===- DialectTest.cpp - Using the dialects as a library --------*- C++ -*-===//
//
// What a downstream compiler does with the dialects: parse and verify IR,
// build ops with inferred result types, and query the shared interfaces.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Dialect/Kernel/IR/Kernel.h"
#include "Mirage/InitMirage.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mirage;

namespace {

class DialectTest : public ::testing::Test {
protected:
  DialectTest() {
    DialectRegistry registry;
    registry.insert<func::FuncDialect>();
    registerAllMirageDialects(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
  }

  /// Parses `ir`, collecting diagnostics into `errors`.
  OwningOpRef<ModuleOp> parse(StringRef ir) {
    ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
      errors += d.str() + "\n";
      return success();
    });
    return parseSourceString<ModuleOp>(ir, &ctx);
  }

  MLIRContext ctx;
  std::string errors;
};

constexpr StringLiteral kFused = R"mlir(
func.func @f(%x: tensor<2x4096xf16>, %w: tensor<4096x6144xf16>) -> tensor<2x6144xf16> {
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

TEST_F(DialectTest, ParsesAndQueriesGraphKernel) {
  OwningOpRef<ModuleOp> module = parse(kFused);
  ASSERT_TRUE(module) << errors;
  mk::GraphKernelOp kernel;
  module->walk([&](mk::GraphKernelOp k) { kernel = k; });
  ASSERT_TRUE(kernel);
  auto iface = cast<GraphKernelOpInterface>(kernel.getOperation());
  EXPECT_EQ(ArrayRef<int64_t>({256, 1, 1}), iface.getGridDims());
  EXPECT_EQ(32, iface.getForloopRange());
  ASSERT_TRUE(kernel.getForLoop());
  // Tiles: X 2x128, W 128x24, matmul 2x24, rms 2x1, sum 2x24, div 2x24 (f16).
  EXPECT_EQ(2 * (256 + 3072 + 48 + 2 + 48 + 48),
            kernel.computeSharedMemoryBytes());
  EXPECT_EQ(mk::MKDialect::kDefaultSmemLimit, kernel.getSharedMemoryLimit());
}

TEST_F(DialectTest, AccumulatorInterface) {
  OwningOpRef<ModuleOp> module = parse(kFused);
  ASSERT_TRUE(module) << errors;
  SmallVector<AccumulatorKind> kinds;
  module->walk([&](AccumulatorOpInterface acc) {
    kinds.push_back(acc.getAccumulatorKind());
  });
  EXPECT_EQ(SmallVector<AccumulatorKind>(
                {AccumulatorKind::RmsLast, AccumulatorKind::Sum}),
            kinds);
}

TEST_F(DialectTest, ElementwiseInterfaceIsSharedByAllLevels) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = mk.mul_scalar %x, 0.5 : tensor<4x8xf32>
  %1 = mk.clamp %0 min = -2.0 max = 3.0 : tensor<4x8xf32>
  %2 = mk.silu %1 : tensor<4x8xf32>
  %3 = mk.pow %2, %1 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %3 : tensor<4x8xf32>
}
)mlir");
  ASSERT_TRUE(module) << errors;
  SmallVector<ElementwiseKind> kinds;
  SmallVector<SmallVector<double, 2>> params;
  module->walk([&](ElementwiseOpInterface op) {
    kinds.push_back(op.getElementwiseKind());
    params.push_back(op.getScalarParams());
  });
  EXPECT_EQ(SmallVector<ElementwiseKind>(
                {ElementwiseKind::MulScalar, ElementwiseKind::Clamp,
                 ElementwiseKind::Silu, ElementwiseKind::Pow}),
            kinds);
  EXPECT_EQ((SmallVector<double, 2>{0.5}), params[0]);
  EXPECT_EQ((SmallVector<double, 2>{-2.0, 3.0}), params[1]);
  EXPECT_TRUE(params[2].empty());
  // The block and thread levels report the same kinds for the same ops.
  EXPECT_EQ(ElementwiseKind::Exp, mb::ExpOp::kElementwiseKind);
  EXPECT_EQ(ElementwiseKind::Exp, mt::ExpOp::kElementwiseKind);
  EXPECT_EQ("mul_scalar", stringifyElementwiseKind(ElementwiseKind::MulScalar));
}

TEST_F(DialectTest, BuildersInferResultTypes) {
  OpBuilder b(&ctx);
  Location loc = b.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());
  auto a = RankedTensorType::get({8, 64}, b.getF16Type());
  auto w = RankedTensorType::get({64, 32}, b.getF16Type());
  auto fn = func::FuncOp::create(b, loc, "f", b.getFunctionType({a, w}, {}));
  Block *entry = fn.addEntryBlock();
  b.setInsertionPointToEnd(entry);
  auto mm = mk::MatmulOp::create(b, loc, entry->getArgument(0),
                                 entry->getArgument(1));
  EXPECT_EQ(RankedTensorType::get({8, 32}, b.getF16Type()), mm.getType());
  auto red = mk::ReduceSumOp::create(b, loc, mm.getResult(), 1);
  EXPECT_EQ(RankedTensorType::get({8, 1}, b.getF16Type()), red.getType());
  auto div = mk::DivOp::create(b, loc, mm.getResult(), red.getResult());
  EXPECT_EQ(mm.getType(), div.getType());
  auto tr = mk::TransposeOp::create(b, loc, div.getResult(),
                                    ArrayRef<int64_t>{1, 0});
  EXPECT_EQ(RankedTensorType::get({32, 8}, b.getF16Type()), tr.getType());
  func::ReturnOp::create(b, loc);
  EXPECT_TRUE(succeeded(mlir::verify(*module)));
}

TEST_F(DialectTest, VerifierRejectsWithTaggedDiagnostic) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
func.func @f(%x: tensor<2x4096xf16>, %w: tensor<4000x6144xf16>) -> tensor<2x6144xf16> {
  %y = mk.matmul %x, %w : tensor<2x4096xf16>, tensor<4000x6144xf16> -> tensor<2x6144xf16>
  return %y : tensor<2x6144xf16>
}
)mlir");
  EXPECT_FALSE(module);
  EXPECT_NE(std::string::npos, errors.find("'mk.matmul' op [C0.6]")) << errors;
}

TEST_F(DialectTest, SmemLimitComesFromTheModule) {
  std::string ir = kFused.str();
  ir = "module attributes {mk.smem_limit = 4096} {\n" + ir + "}\n";
  OwningOpRef<ModuleOp> module = parse(ir);
  EXPECT_FALSE(module);
  EXPECT_NE(std::string::npos, errors.find("[K7]")) << errors;
  EXPECT_NE(std::string::npos, errors.find("allows 4096")) << errors;
}

} // namespace
