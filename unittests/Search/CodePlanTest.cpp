//===- CodePlanTest.cpp - Unit tests of the lowering's code plans ---------===//
//
// planRowReduction (CodePlan.h): which lanes reduce a row, and the shared
// memory of the step across warps, for the shapes the lowering meets: few
// long rows (whole block), many short rows (segments of a warp), rows
// shorter than a warp, more rows than threads, and thread counts that are
// not a multiple of 32; and how many row parts a thread keeps.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/CodePlan.h"

#include "gtest/gtest.h"

using namespace mirage::search;

namespace {

TEST(CodePlanTest, FewLongRowsTakeTheWholeBlock) {
  // RMSNorm+MatMul's tile: 2 rows of 128, 128 threads: 4 warps on each row,
  // then a [2, 4] f32 buffer of the warps' totals.
  RowReducePlan p = planRowReduction(2, 128, 128);
  EXPECT_TRUE(p.wholeBlock);
  EXPECT_EQ(p.groupSize, 32);
  EXPECT_EQ(p.shuffleSteps, 5);
  EXPECT_EQ(p.partialBytes, 2 * 4 * 4);
  // 100 threads: 4 warps, the last of 4 lanes.
  EXPECT_EQ(planRowReduction(2, 320, 100).partialBytes, 2 * 4 * 4);
}

TEST(CodePlanTest, ManyRowsShareWarps) {
  // Attention's [16, 64] scores with 128 threads: 8 lanes a row.
  RowReducePlan p = planRowReduction(16, 64, 128);
  EXPECT_FALSE(p.wholeBlock);
  EXPECT_EQ(p.groupSize, 8);
  EXPECT_EQ(p.shuffleSteps, 3);
  EXPECT_EQ(p.partialBytes, 0);
  // A warp a row when there are enough rows for every warp.
  EXPECT_EQ(planRowReduction(4, 4096, 128).groupSize, 32);
  // 48 threads, 12 rows: 4 lanes a row.
  EXPECT_EQ(planRowReduction(12, 100, 48).groupSize, 4);
}

TEST(CodePlanTest, ShortRowsUseNoMoreLanesThanElements) {
  // A row of 20 with a whole block: a warp, rounded up from 20 lanes.
  RowReducePlan p = planRowReduction(1, 20, 128);
  EXPECT_FALSE(p.wholeBlock);
  EXPECT_EQ(p.groupSize, 32);
  EXPECT_EQ(planRowReduction(3, 5, 128).groupSize, 8);
  EXPECT_EQ(planRowReduction(3, 1, 128).groupSize, 1);
}

TEST(CodePlanTest, MoreRowsThanThreadsTakeARowEach) {
  RowReducePlan p = planRowReduction(96, 3, 32);
  EXPECT_EQ(p.groupSize, 1);
  EXPECT_EQ(p.shuffleSteps, 0);
  EXPECT_FALSE(p.wholeBlock);
}

TEST(CodePlanTest, RowPartsPerThread) {
  // Whole block: a part of every row. Segments: one row per round.
  EXPECT_EQ(rowPartsPerThread(planRowReduction(2, 128, 128), 2, 128), 2);
  EXPECT_EQ(rowPartsPerThread(planRowReduction(16, 64, 128), 16, 128), 1);
  // 96 rows, 32 threads, a row a thread: 3 rounds.
  EXPECT_EQ(rowPartsPerThread(planRowReduction(96, 3, 32), 96, 32), 3);
  // More parts than kMaxRegisterAccumElems stay in shared memory.
  EXPECT_GT(rowPartsPerThread(planRowReduction(1024, 2, 32), 1024, 32),
            kMaxRegisterAccumElems);
}

} // namespace
