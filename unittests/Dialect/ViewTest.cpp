//===- ViewTest.cpp - Strided views of device tensors -----------*- C++ -*-===//
//
// mb::StridedView (View.h): composition of layout ops, the affine maps it
// prints and reads back, and the properties the verifier and the lowering
// ask for.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Dialect/Block/IR/View.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mirage::mb;

namespace {

/// Every logical index of `v` against the device offset its printed map
/// gives, read back through `analyze`.
void expectMapRoundTrips(const StridedView &v, MLIRContext &ctx) {
  FailureOr<AffineMap> map = v.toAffineMap(&ctx);
  ASSERT_TRUE(succeeded(map));
  std::string why;
  FailureOr<StridedView> back =
      StridedView::analyze(*map, v.getShape(), v.getDeviceShape(), why);
  ASSERT_TRUE(succeeded(back)) << why;
  SmallVector<int64_t> idx(v.getShape().size(), 0);
  int64_t n = 1;
  for (int64_t d : v.getShape())
    n *= d;
  for (int64_t lin = 0; lin < n; ++lin) {
    EXPECT_EQ(v.linearOffset(idx), back->linearOffset(idx));
    for (size_t k = idx.size(); k-- > 0;) {
      if (++idx[k] < v.getShape()[k])
        break;
      idx[k] = 0;
    }
  }
}

TEST(ViewTest, HeadSplitIsATransposedReshape) {
  MLIRContext ctx;
  // Q[8 tokens, 4 heads * 16] as [4, 8, 16].
  FailureOr<StridedView> v =
      StridedView::identity({8, 64}).reshaped({8, 4, 16});
  ASSERT_TRUE(succeeded(v));
  StridedView heads = v->transposed({1, 0, 2});
  EXPECT_EQ(heads.linearOffset({2, 5, 3}), 5 * 64 + 2 * 16 + 3);
  std::string why;
  EXPECT_TRUE(heads.isOneToOne(why)) << why;
  // Rows of 16 stay contiguous: 16-byte runs of f16 (8 elements).
  EXPECT_EQ(heads.contiguousRun(8), 8);
  expectMapRoundTrips(heads, ctx);
}

TEST(ViewTest, GqaRepeatIsABroadcastDigit) {
  MLIRContext ctx;
  // K[8, 2 * 16] -> [2, 8, 16] -> [2, 1, 8, 16] -> repeat x2 -> [4, 8, 16].
  FailureOr<StridedView> v =
      StridedView::identity({8, 32}).reshaped({8, 2, 16});
  ASSERT_TRUE(succeeded(v));
  v = v->transposed({1, 0, 2}).reshaped({2, 1, 8, 16});
  ASSERT_TRUE(succeeded(v));
  v = v->repeated(1, 2).reshaped({4, 8, 16});
  ASSERT_TRUE(succeeded(v));
  // Query heads 2 and 3 read KV head 1.
  EXPECT_EQ(v->linearOffset({2, 1, 0}), v->linearOffset({3, 1, 0}));
  EXPECT_EQ(v->linearOffset({3, 1, 0}), 1 * 32 + 1 * 16);
  std::string why;
  EXPECT_FALSE(v->isOneToOne(why));
  expectMapRoundTrips(*v, ctx);
}

TEST(ViewTest, TransposedWeightIsNotContiguous) {
  MLIRContext ctx;
  StridedView wt = StridedView::identity({6, 8}).transposed({1, 0});
  EXPECT_EQ(wt.contiguousRun(8), 1);
  expectMapRoundTrips(wt, ctx);
}

TEST(ViewTest, UnevenRepeatDoesNotReshape) {
  // x[6] repeated twice is 12 elements reading i mod 6; as 3x4, (a, b) reads
  // (4a + b) mod 6, which is no sum of digits.
  StridedView r = StridedView::identity({6}).repeated(0, 2);
  EXPECT_TRUE(failed(r.reshaped({3, 4})));
  EXPECT_TRUE(succeeded(r.reshaped({2, 6})));
}

TEST(ViewTest, AnalyzeRejectsMapsThatAreNotViews) {
  MLIRContext ctx;
  AffineExpr d0 = getAffineDimExpr(0, &ctx), d1 = getAffineDimExpr(1, &ctx);
  std::string why;
  StridedView::Error error;
  // (i + j) mod 4 mixes two dims in one digit.
  auto mixed = AffineMap::get(2, 0, {(d0 + d1) % 4}, &ctx);
  EXPECT_TRUE(failed(StridedView::analyze(mixed, {4, 4}, {4}, why, &error)));
  EXPECT_EQ(error, StridedView::Error::Form);
  // Reaches index 7 of a dim of 6.
  auto outside = AffineMap::get(2, 0, {d1, d0}, &ctx);
  EXPECT_TRUE(
      failed(StridedView::analyze(outside, {8, 6}, {6, 6}, why, &error)));
  EXPECT_EQ(error, StridedView::Error::Bounds);
  // A slice with an offset reads inside.
  auto slice = AffineMap::get(2, 0, {d0, d1 + 4}, &ctx);
  FailureOr<StridedView> s = StridedView::analyze(slice, {4, 6}, {4, 10}, why);
  ASSERT_TRUE(succeeded(s)) << why;
  EXPECT_EQ(s->linearOffset({1, 2}), 10 + 6);
  EXPECT_FALSE(s->isOneToOne(why));
}

TEST(ViewTest, DynamicDimsPassThroughAtStaticStrides) {
  MLIRContext ctx;
  AffineExpr h = getAffineDimExpr(0, &ctx), t = getAffineDimExpr(1, &ctx),
             d = getAffineDimExpr(2, &ctx);
  constexpr int64_t kDyn = ShapedType::kDynamic;
  // A head split of Q[tokens, 4 * 16] read as [4, tokens, 16]: the tokens
  // pass through (device dim 0 is logical dim 1), the heads do not.
  auto split = AffineMap::get(3, 0, {t, h * 16 + d}, &ctx);
  EXPECT_EQ(passedThroughDims(split), (SmallVector<int64_t>{1, -1}));
  std::string why;
  EXPECT_TRUE(
      succeeded(checkDynamicView(split, {4, kDyn, 16}, {kDyn, 64}, why)))
      << why;
  // At a static twin the device takes the logical extent: the offsets are
  // those of the static view at any token count.
  EXPECT_EQ(staticDeviceShape(split, {4, 8, 16}, {kDyn, 64}),
            (SmallVector<int64_t>{8, 64}));
  FailureOr<StridedView> v =
      StridedView::analyze(split, {4, 8, 16}, {8, 64}, why);
  ASSERT_TRUE(succeeded(v)) << why;
  EXPECT_EQ(v->linearOffset({2, 5, 3}), 5 * 64 + 2 * 16 + 3);
  // A dim read twice is not passed through.
  auto twice = AffineMap::get(3, 0, {t, t + h * 16 + d}, &ctx);
  EXPECT_EQ(passedThroughDims(twice), (SmallVector<int64_t>{-1, -1}));
  EXPECT_TRUE(failed(checkDynamicView(twice, {4, kDyn, 16}, {kDyn, 64}, why)));
  // The heads-first layout [4, tokens, 16] read as [tokens, 4, 16]: the
  // head stride would be tokens * 16.
  auto headsFirst = AffineMap::get(3, 0, {t, h, d}, &ctx);
  EXPECT_TRUE(
      failed(checkDynamicView(headsFirst, {kDyn, 4, 16}, {4, kDyn, 16}, why)));
  EXPECT_NE(why.find("comes before dynamic dim 1"), std::string::npos) << why;
  // A dynamic logical dim that the view does not pass through.
  why.clear();
  auto merged = AffineMap::get(3, 0, {h, t * 16 + d}, &ctx);
  EXPECT_TRUE(failed(checkDynamicView(merged, {1, kDyn, 16}, {1, 64}, why)));
  EXPECT_NE(why.find("dynamic logical dim 1"), std::string::npos) << why;
}

} // namespace
