//===- CodePlan.cpp - What the generated code does with tiles -------------===//
//
// See CodePlan.h.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/CodePlan.h"

#include <algorithm>

using namespace mirage::search;

/// Chunk sizes tried, widest first, in bytes.
static constexpr int64_t kChunkBytes[] = {16, 8, 4};

TileCopy mirage::search::planTileCopy(llvm::ArrayRef<int64_t> tile,
                                      llvm::ArrayRef<int64_t> global,
                                      int64_t elementBytes) {
  TileCopy plan;
  // A [64, 1] tile of a [4096, 1] statistic is one row of 64 elements.
  int64_t rank = tile.size();
  plan.mergeFrom = rank - 1;
  while (plan.mergeFrom > 0 && tile[plan.mergeFrom] == global[plan.mergeFrom])
    --plan.mergeFrom;
  plan.tile.assign(tile.begin(), tile.begin() + plan.mergeFrom);
  plan.global.assign(global.begin(), global.begin() + plan.mergeFrom);
  plan.tile.push_back(1);
  plan.global.push_back(1);
  for (int64_t d = plan.mergeFrom; d < rank; ++d) {
    plan.tile.back() *= tile[d];
    plan.global.back() *= global[d];
  }
  // A chunk starts at a multiple of its size in the tile row (origins are
  // multiples of the tile row) and in the device row: it must divide both.
  for (int64_t bytes : kChunkBytes)
    if (bytes % elementBytes == 0 &&
        plan.tile.back() % (bytes / elementBytes) == 0 &&
        plan.global.back() % (bytes / elementBytes) == 0) {
      plan.chunk = bytes / elementBytes;
      break;
    }
  return plan;
}

int64_t mirage::search::choosePipelineStages(
    int64_t forloop, int64_t limit,
    llvm::function_ref<int64_t(int64_t)> smemFor) {
  int64_t most = std::max<int64_t>(1, std::min(kMaxPipelineStages, forloop));
  for (int64_t stages = most; stages >= 1; --stages)
    if (smemFor(stages) <= limit)
      return stages;
  return 0;
}

RowReducePlan mirage::search::planRowReduction(int64_t rows, int64_t count,
                                               int64_t threads) {
  RowReducePlan plan;
  rows = std::max<int64_t>(rows, 1);
  threads = std::max<int64_t>(threads, 1);
  auto log2 = [](int64_t v) {
    int64_t l = 0;
    while ((int64_t{1} << (l + 1)) <= v)
      ++l;
    return l;
  };
  if (count > kWarpSize && rows * kWarpSize < threads) {
    // Fewer rows than warps: every warp takes a part of every row.
    plan.wholeBlock = true;
    plan.groupSize = kWarpSize;
    plan.shuffleSteps = log2(kWarpSize);
    plan.partialBytes = rows * ((threads + kWarpSize - 1) / kWarpSize) * 4;
    return plan;
  }
  // The widest segment such that all rows fit in one round, no wider than
  // the row (rounded up to a power of two) or a warp.
  int64_t perRow = std::max<int64_t>(threads / rows, 1);
  int64_t width = 1;
  while (width * 2 <= std::min(perRow, kWarpSize) && width < count)
    width *= 2;
  plan.groupSize = width;
  plan.shuffleSteps = log2(width);
  return plan;
}

int64_t mirage::search::rowPartsPerThread(const RowReducePlan &plan,
                                          int64_t rows, int64_t threads) {
  if (plan.wholeBlock)
    return rows;
  int64_t segments =
      (std::max<int64_t>(threads, 1) + plan.groupSize - 1) / plan.groupSize;
  return (rows + segments - 1) / segments;
}
