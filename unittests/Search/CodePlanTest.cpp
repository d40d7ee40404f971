//===- CodePlanTest.cpp - Unit tests of the lowering's code plans ---------===//
//
// planRowReduction (CodePlan.h): which lanes reduce a row, and the shared
// memory of the step across warps, for the shapes the lowering meets: few
// long rows (whole block), many short rows (segments of a warp), rows
// shorter than a warp, more rows than threads, and thread counts that are
// not a multiple of 32; and how many row parts a thread keeps. The
// shared-memory layouts and the static bank rule: row-major 128-byte rows
// conflict 8 ways under ldmatrix, the swizzle none; tile copies and
// tensor-core operand loads under both layouts.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/CodePlan.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <limits>
#include <vector>

using namespace mirage::search;

namespace {

// A dynamic dim (a negative extent, ShapedType::kDynamic) is planned for
// every size: rows merge into it but not across it, and a chunk must divide
// the static part of the merged row.
TEST(CodePlanTest, DynamicDimsPlanForEverySize) {
  constexpr int64_t kDynamic = std::numeric_limits<int64_t>::min();
  // [8, 64] tiles of a [?, 64] f16 tensor: one merged row of 512, 16 bytes.
  TileCopy rows = planTileCopy({8, 64}, {kDynamic, 64}, 2);
  EXPECT_EQ(0, rows.mergeFrom);
  EXPECT_EQ(512, rows.tile.back());
  EXPECT_EQ(kDynamic, rows.global.back());
  EXPECT_EQ(8, rows.chunk);
  // [4, 2] tiles of [?, 2]: whatever the rows, a row of the tensor holds 2
  // elements, so a chunk of 4 bytes (while a static 8 rows would allow 16).
  EXPECT_EQ(2, planTileCopy({4, 2}, {kDynamic, 2}, 2).chunk);
  EXPECT_EQ(8, planTileCopy({4, 2}, {8, 2}, 2).chunk);
  // A dynamic innermost dim: no chunk divides every size.
  TileCopy inner = planTileCopy({2, 64}, {2, kDynamic}, 2);
  EXPECT_EQ(1, inner.mergeFrom);
  EXPECT_EQ(1, inner.chunk);
  // A dynamic dim between static ones stops the merge.
  TileCopy middle = planTileCopy({1, 4, 64}, {2, kDynamic, 64}, 4);
  EXPECT_EQ(1, middle.mergeFrom);
  EXPECT_EQ(2, static_cast<int64_t>(middle.global.size()));
  EXPECT_EQ(kDynamic, middle.global.back());
  EXPECT_EQ(4, middle.chunk);
}

TEST(CodePlanTest, ViewCopiesFitTheViewsRuns) {
  // Through a view no dims merge, and a chunk divides the tile's last dim
  // and the run the view keeps contiguous (StridedView::contiguousRun,
  // asked for at most 16 bytes).
  int64_t asked = 0;
  auto run = [&](int64_t n) {
    return [&, n](int64_t maxElems) {
      asked = maxElems;
      return std::min(n, maxElems);
    };
  };
  TileCopy heads = planViewCopy({1, 16, 16}, {8, 64, 16}, 2, run(16));
  EXPECT_EQ(asked, 8);
  EXPECT_EQ(heads.mergeFrom, 2);
  EXPECT_EQ(heads.tile, (llvm::SmallVector<int64_t, 4>{1, 16, 16}));
  EXPECT_EQ(heads.chunk, 8);
  EXPECT_EQ(heads.viewRun, 8);
  EXPECT_EQ(planViewCopy({16, 16}, {64, 48}, 2, run(1)).chunk, 1);
  EXPECT_EQ(planViewCopy({16, 16}, {64, 48}, 2, run(2)).chunk, 2);
  // f32: 16 bytes are 4 elements; a tile row of 6 takes 8-byte chunks.
  EXPECT_EQ(planViewCopy({4, 6}, {8, 12}, 4, run(4)).chunk, 2);
}

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

//===----------------------------------------------------------------------===//
// Shared-memory layouts and the bank rule
//===----------------------------------------------------------------------===//

/// The lanes of one ldmatrix.x4 of the A block at (row0, col0) of a
/// [rows, cols] f16 tile laid out by `layout` (lane l: row l % 16, column
/// block l / 16), as byte addresses.
std::vector<int64_t> ldmatrixA(const SharedLayout &layout, int64_t row0,
                               int64_t col0) {
  std::vector<int64_t> lanes;
  for (int64_t l = 0; l < kWarpSize; ++l)
    lanes.push_back(
        2 * sharedElementOffset(layout, (row0 + l % 16) * layout.rowElems +
                                            col0 + l / 16 * 8));
  return lanes;
}

TEST(CodePlanTest, RowMajor128ByteRowsConflictEightWaysUnderLdmatrix) {
  // A [16, 64] f16 tile: rows of 128 bytes. Row-major, the 8 rows of every
  // phase of an ldmatrix.x4 hit the same 4 banks: 8 wavefronts a phase.
  SharedLayout plain = planSharedLayout({16, 64}, 2, /*readAcrossRows=*/false);
  EXPECT_TRUE(plain.plain());
  BankCost before = sharedAccessCost(ldmatrixA(plain, 0, 16), 16);
  EXPECT_EQ(before.ideal, 4);
  EXPECT_EQ(before.wavefronts, 32);
  EXPECT_EQ(before.degree(), 8.0);
  // Padded by one 16-byte unit a row: one wavefront a phase, at every k
  // step, and every k step is the first one's addresses plus a constant.
  SharedLayout padded = planSharedLayout({16, 64}, 2, /*readAcrossRows=*/true);
  EXPECT_TRUE(padded.padded());
  EXPECT_FALSE(padded.swizzled());
  EXPECT_EQ(padded.rowPitch, 72);
  std::vector<int64_t> first = ldmatrixA(padded, 0, 0);
  for (int64_t k0 = 0; k0 < 64; k0 += 16) {
    std::vector<int64_t> lanes = ldmatrixA(padded, 0, k0);
    BankCost after = sharedAccessCost(lanes, 16);
    EXPECT_EQ(after.wavefronts, 4) << "k0 = " << k0;
    EXPECT_EQ(after.ideal, 4);
    for (int64_t l = 0; l < kWarpSize; ++l)
      EXPECT_EQ(lanes[l], first[l] + 2 * k0) << "lane " << l << ", k0 " << k0;
  }
}

TEST(CodePlanTest, LayoutsCoverNarrowAndWideRows) {
  // Rows of 32 and 64 bytes are swizzled, rows of 256, 384 and 512 bytes
  // padded: 8 consecutive rows read at one 16-byte unit land on 8
  // different 16-byte bank groups.
  for (int64_t cols : {16, 32, 128, 192, 256}) {
    SharedLayout l = planSharedLayout({64, cols}, 2, true);
    ASSERT_EQ(l.swizzled(), cols * 2 < 128) << cols;
    ASSERT_EQ(l.padded(), cols * 2 >= 128) << cols;
    for (int64_t row0 = 0; row0 < 64; row0 += 8)
      for (int64_t col = 0; col < cols; col += 8) {
        std::vector<int64_t> lanes(kWarpSize, -1);
        for (int64_t r = 0; r < 8; ++r)
          lanes[r] = 2 * sharedElementOffset(l, (row0 + r) * cols + col);
        EXPECT_EQ(sharedAccessCost(lanes, 16).wavefronts, 1)
            << cols << " columns, row " << row0 << ", column " << col;
      }
    // Row-major, 64-byte rows conflict 4 ways, 32-byte rows 2, rows of a
    // multiple of 128 bytes 8.
    SharedLayout plain = planSharedLayout({64, cols}, 2, false);
    std::vector<int64_t> lanes(kWarpSize, -1);
    for (int64_t r = 0; r < 8; ++r)
      lanes[r] = 2 * sharedElementOffset(plain, r * cols);
    EXPECT_EQ(sharedAccessCost(lanes, 16).wavefronts,
              std::min<int64_t>(8, cols * 2 / 16))
        << cols;
  }
  // 16-byte rows need nothing; 48-byte rows (3 units) are left row-major.
  EXPECT_TRUE(planSharedLayout({64, 8}, 2, true).plain());
  EXPECT_TRUE(planSharedLayout({64, 24}, 2, true).plain());
  // A single row has nothing to spread.
  EXPECT_TRUE(planSharedLayout({1, 64}, 2, true).plain());
}

TEST(CodePlanTest, PaddedRowsGrowTheSlotByOneUnitARow) {
  // [2, 16, 64] f16 read across rows: 32 rows at a pitch of 72 elements;
  // every element keeps its row and column, the slot grows by 16 bytes a
  // row (the size the search, the lowering and the cost model count).
  SharedLayout l = planSharedLayout({2, 16, 64}, 2, true);
  ASSERT_TRUE(l.padded());
  int64_t n = 2 * 16 * 64;
  for (int64_t e = 0; e < n; ++e)
    EXPECT_EQ(sharedElementOffset(l, e), e / 64 * 72 + e % 64) << e;
  EXPECT_EQ(sharedTileBytes(l, n, 2), 32 * 72 * 2);
  EXPECT_EQ(sharedTileBytes(planSharedLayout({2, 16, 64}, 2, false), n, 2),
            n * 2);
  // Swizzled and plain slots keep their (16-byte aligned) size.
  EXPECT_EQ(sharedTileBytes(planSharedLayout({64, 32}, 2, true), 64 * 32, 2),
            64 * 32 * 2);
  EXPECT_EQ(sharedTileBytes(planSharedLayout({3, 3}, 2, true), 9, 2), 32);
}

TEST(CodePlanTest, SwizzlePermutesUnitsWithinRows) {
  // The layout is a bijection of the slot that keeps every 16-byte unit
  // whole and inside its row: no padding, the same slot size.
  SharedLayout l = planSharedLayout({2, 24, 32}, 2, true);
  ASSERT_TRUE(l.swizzled());
  int64_t n = 2 * 24 * 32;
  std::vector<bool> seen(n, false);
  for (int64_t e = 0; e < n; ++e) {
    int64_t p = sharedElementOffset(l, e);
    ASSERT_GE(p, 0);
    ASSERT_LT(p, n);
    EXPECT_FALSE(seen[p]) << e;
    seen[p] = true;
    EXPECT_EQ(p / 32, e / 32) << "row of " << e;
    EXPECT_EQ(p % 8, e % 8) << "place in its unit of " << e;
  }
}

TEST(CodePlanTest, BankRuleScalarAndEightByteAccesses) {
  std::vector<int64_t> lanes(kWarpSize);
  // 4-byte reads of consecutive words: one wavefront.
  for (int64_t l = 0; l < kWarpSize; ++l)
    lanes[l] = 4 * l;
  EXPECT_EQ(sharedAccessCost(lanes, 4).wavefronts, 1);
  // A column of a [32, 32] f32 tile: every lane in bank 0, 32 ways.
  for (int64_t l = 0; l < kWarpSize; ++l)
    lanes[l] = 128 * l;
  BankCost column = sharedAccessCost(lanes, 4);
  EXPECT_EQ(column.wavefronts, 32);
  EXPECT_EQ(column.ideal, 1);
  // The same word read by every lane is a broadcast.
  for (int64_t l = 0; l < kWarpSize; ++l)
    lanes[l] = 64;
  EXPECT_EQ(sharedAccessCost(lanes, 4).wavefronts, 1);
  // Two lanes per word (2-byte elements): no conflict.
  for (int64_t l = 0; l < kWarpSize; ++l)
    lanes[l] = 2 * l;
  EXPECT_EQ(sharedAccessCost(lanes, 2).wavefronts, 1);
  // 8-byte accesses go in two phases of 16 lanes; a stride of 256 bytes
  // puts a phase's 16 lanes on the same two banks.
  for (int64_t l = 0; l < kWarpSize; ++l)
    lanes[l] = 8 * l;
  EXPECT_EQ(sharedAccessCost(lanes, 8).wavefronts, 2);
  for (int64_t l = 0; l < kWarpSize; ++l)
    lanes[l] = 256 * l;
  EXPECT_EQ(sharedAccessCost(lanes, 8).wavefronts, 32);
  EXPECT_EQ(sharedAccessCost(lanes, 8).ideal, 2);
}

TEST(CodePlanTest, TileCopiesAreConflictFreeInBothLayouts) {
  // 16-byte chunks of consecutive lanes fill whole 128-byte lines: an
  // 8-lane phase stays within one row of a padded tile, and the swizzle
  // permutes units within them.
  TileCopy copy = planTileCopy({64, 64}, {4096, 4096}, 2);
  ASSERT_EQ(copy.chunk, 8);
  for (bool swizzle : {false, true}) {
    BankCost c =
        copySharedCost(copy, planSharedLayout({64, 64}, 2, swizzle), 2);
    EXPECT_EQ(c.ideal, 64 * 64 / 8 / 8) << swizzle;
    EXPECT_EQ(c.extra(), 0) << swizzle;
  }
  // 64-byte rows, 8-byte chunks (the device rows of 36 f16 allow no
  // 16-byte one).
  TileCopy narrow = planTileCopy({32, 32}, {64, 36}, 2);
  ASSERT_EQ(narrow.chunk, 4);
  EXPECT_EQ(
      copySharedCost(narrow, planSharedLayout({32, 32}, 2, true), 2).extra(),
      0);
}

TEST(CodePlanTest, TensorCoreOperandLoadsConflictFreeLaidOut) {
  // gated_mlp's decode tile (swapped roles): W [256, 32] read by
  // ldmatrix.x4.trans (64-byte rows, swizzled), X [8, 256] by scalar
  // fragment loads of 8 rows 512 bytes apart (padded to 528).
  auto cost = [](llvm::ArrayRef<int64_t> x, llvm::ArrayRef<int64_t> w,
                 bool swizzle) {
    return mmaSharedCost(x, w, planSharedLayout(x, 2, swizzle),
                         planSharedLayout(w, 2, swizzle));
  };
  BankCost decodePlain = cost({8, 256}, {256, 32}, false);
  BankCost decodeSwizzled = cost({8, 256}, {256, 32}, true);
  EXPECT_GT(decodePlain.extra(), 0);
  EXPECT_EQ(decodeSwizzled.extra(), 0);
  EXPECT_EQ(decodePlain.ideal, decodeSwizzled.ideal);
  // A plain 16x64x64 tile: ldmatrix.x4 of A and x2.trans of B, 8-way
  // conflicts in both, none padded.
  BankCost plain = cost({16, 64}, {64, 64}, false);
  EXPECT_EQ(plain.degree(), 8.0);
  EXPECT_EQ(cost({16, 64}, {64, 64}, true).degree(), 1.0);
  // Batched (rank 3) and 32-byte rows.
  EXPECT_EQ(cost({2, 16, 16}, {2, 16, 16}, true).extra(), 0);
  EXPECT_GT(cost({2, 16, 16}, {2, 16, 16}, false).extra(), 0);
  // Shapes that do not fit m16n8k16 have no tensor-core loads.
  EXPECT_EQ(cost({16, 40}, {40, 64}, true).ideal, 0);
}
