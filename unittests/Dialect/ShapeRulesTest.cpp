//===- ShapeRulesTest.cpp - Shape rules and tile arithmetic -----*- C++ -*-===//

#include "Mirage/Dialect/Kernel/IR/Kernel.h"
#include "Mirage/InitMirage.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mirage;

namespace {

TEST(ShapeRules, BroadcastShapes) {
  auto r = broadcastShapes({2, 1, 8}, {2, 4, 1});
  ASSERT_TRUE(succeeded(r));
  EXPECT_EQ(SmallVector<int64_t>({2, 4, 8}), *r);
  EXPECT_TRUE(failed(broadcastShapes({2, 3}, {2, 4})));
  EXPECT_TRUE(failed(broadcastShapes({2, 3}, {3})));
}

TEST(ShapeRules, InputTileOfRmsNormMatmul) {
  std::string why;
  // W (4096 x 6144), grid x partitions dim 1, loop walks dim 0 (DESIGN §3.2).
  auto tile = mb::computeInputTileShape({4096, 6144}, {256, 1, 1}, 32,
                                        {1, -1, -1}, 0, why);
  ASSERT_TRUE(succeeded(tile)) << why;
  EXPECT_EQ(SmallVector<int64_t>({128, 24}), *tile);
  // Non-divisible grid partition is rejected with the constraint tag.
  EXPECT_TRUE(failed(mb::computeInputTileShape({4096, 6000}, {256, 1, 1}, 32,
                                               {1, -1, -1}, 0, why)));
  EXPECT_NE(std::string::npos, why.find("[B7]"));
}

TEST(ShapeRules, OutputShapeNeedsMappedGridDims) {
  std::string why;
  auto shape = mb::computeOutputShape({2, 24}, {256, 1, 1}, {1, -1, -1}, why);
  ASSERT_TRUE(succeeded(shape)) << why;
  EXPECT_EQ(SmallVector<int64_t>({2, 6144}), *shape);
  EXPECT_TRUE(
      failed(mb::computeOutputShape({2, 24}, {256, 1, 1}, {-1, -1, -1}, why)));
  EXPECT_NE(std::string::npos, why.find("[B16]"));
}

TEST(ShapeRules, MatmulTypeInference) {
  MLIRContext ctx;
  Builder b(&ctx);
  SmallVector<Type> out;
  auto a = RankedTensorType::get({2, 4096}, b.getF16Type());
  auto w = RankedTensorType::get({4096, 6144}, b.getF16Type());
  ASSERT_TRUE(succeeded(inferMatmulType(std::nullopt, "mk.matmul", a, w, out)));
  EXPECT_EQ(RankedTensorType::get({2, 6144}, b.getF16Type()), out[0]);
  out.clear();
  EXPECT_TRUE(failed(inferMatmulType(std::nullopt, "mk.matmul", w, w, out)));
}

} // namespace
