//===- CodePlan.cpp - What the generated code does with tiles -------------===//
//
// See CodePlan.h.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/CodePlan.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <array>
#include <map>
#include <optional>

using namespace mirage::search;

/// Chunk sizes tried, widest first, in bytes.
static constexpr int64_t kChunkBytes[] = {16, 8, 4};

TileCopy mirage::search::planTileCopy(llvm::ArrayRef<int64_t> tile,
                                      llvm::ArrayRef<int64_t> global,
                                      int64_t elementBytes) {
  TileCopy plan;
  // A dynamic dim (a negative extent) plans as an odd extent other than the
  // tile's: no tile covers it, so no merge crosses it, and a chunk divides
  // the merged row whatever its size only if it divides the static part.
  llvm::SmallVector<int64_t, 4> planned(global.begin(), global.end());
  for (auto [d, extent] : llvm::enumerate(planned))
    if (extent < 0)
      extent = tile[d] % 2 ? tile[d] + 2 : tile[d] + 1;
  // A [64, 1] tile of a [4096, 1] statistic is one row of 64 elements.
  int64_t rank = tile.size();
  plan.mergeFrom = rank - 1;
  while (plan.mergeFrom > 0 && tile[plan.mergeFrom] == planned[plan.mergeFrom])
    --plan.mergeFrom;
  plan.tile.assign(tile.begin(), tile.begin() + plan.mergeFrom);
  plan.global.assign(global.begin(), global.begin() + plan.mergeFrom);
  plan.tile.push_back(1);
  plan.global.push_back(1);
  int64_t plannedRow = 1;
  std::optional<int64_t> dynamicRow;
  for (int64_t d = plan.mergeFrom; d < rank; ++d) {
    plan.tile.back() *= tile[d];
    plannedRow *= planned[d];
    plan.global.back() *= planned[d];
    if (global[d] < 0)
      dynamicRow = global[d];
  }
  if (dynamicRow)
    plan.global.back() = *dynamicRow;
  // A chunk starts at a multiple of its size in the tile row (origins are
  // multiples of the tile row) and in the device row: it must divide both.
  for (int64_t bytes : kChunkBytes)
    if (bytes % elementBytes == 0 &&
        plan.tile.back() % (bytes / elementBytes) == 0 &&
        plannedRow % (bytes / elementBytes) == 0) {
      plan.chunk = bytes / elementBytes;
      break;
    }
  return plan;
}

TileCopy mirage::search::planViewCopy(
    llvm::ArrayRef<int64_t> tile, llvm::ArrayRef<int64_t> logical,
    int64_t elementBytes, llvm::function_ref<int64_t(int64_t)> contiguousRun) {
  TileCopy plan;
  int64_t rank = tile.size();
  plan.mergeFrom = std::max<int64_t>(rank - 1, 0);
  plan.tile.assign(tile.begin(), tile.end());
  plan.global.assign(logical.begin(), logical.end());
  if (plan.tile.empty()) {
    plan.tile.push_back(1);
    plan.global.push_back(1);
  }
  plan.viewRun = std::max<int64_t>(
      contiguousRun(std::max<int64_t>(kChunkBytes[0] / elementBytes, 1)), 1);
  // A chunk starts at a multiple of its size along the last dim (origins
  // are multiples of the tile's last dim) and must lie in one run, which
  // starts at a multiple of the run's length.
  for (int64_t bytes : kChunkBytes)
    if (bytes % elementBytes == 0 &&
        plan.tile.back() % (bytes / elementBytes) == 0 &&
        plan.viewRun % (bytes / elementBytes) == 0) {
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

//===----------------------------------------------------------------------===//
// Shared-memory layout and bank conflicts
//===----------------------------------------------------------------------===//

static bool isPowerOf2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

SharedLayout mirage::search::planSharedLayout(llvm::ArrayRef<int64_t> shape,
                                              int64_t elementBytes,
                                              bool readAcrossRows) {
  SharedLayout layout;
  if (shape.empty() || elementBytes <= 0)
    return layout;
  layout.rowElems = std::max<int64_t>(shape.back(), 1);
  layout.rowPitch = layout.rowElems;
  layout.unitElems = std::max<int64_t>(kSharedUnitBytes / elementBytes, 1);
  int64_t rows = 1;
  for (int64_t d : shape.drop_back())
    rows *= d;
  int64_t rowBytes = layout.rowElems * elementBytes;
  if (!readAcrossRows || rows < 2 || kSharedUnitBytes % elementBytes != 0 ||
      rowBytes % kSharedUnitBytes != 0)
    return layout;
  int64_t units = rowBytes / kSharedUnitBytes;
  // Units of one 128-byte line: 8 consecutive rows must put a given unit
  // on 8 different ones.
  constexpr int64_t kLineUnits =
      kSharedBanks * kSharedBankBytes / kSharedUnitBytes;
  if (units % kLineUnits == 0) {
    // Rows 4 banks apart; offsets stay linear (k steps are immediates).
    layout.rowPitch = layout.rowElems + layout.unitElems;
    return layout;
  }
  if (units < 2 || !isPowerOf2(units))
    return layout;
  layout.xorMask = units - 1;
  for (int64_t r = kLineUnits / units; r > 1; r /= 2)
    ++layout.rowShift;
  return layout;
}

int64_t mirage::search::sharedElementOffset(const SharedLayout &layout,
                                            int64_t linear) {
  int64_t row = linear / layout.rowElems, col = linear % layout.rowElems;
  if (layout.swizzled())
    col ^= ((row >> layout.rowShift) & layout.xorMask) * layout.unitElems;
  return row * layout.rowPitch + col;
}

int64_t mirage::search::sharedTileBytes(const SharedLayout &layout,
                                        int64_t elements,
                                        int64_t elementBytes) {
  int64_t rowElems = std::max<int64_t>(layout.rowElems, 1);
  int64_t rows = (elements + rowElems - 1) / rowElems;
  int64_t slotElements = layout.padded() ? rows * layout.rowPitch : elements;
  return sharedSlotBytes(slotElements * elementBytes);
}

BankCost mirage::search::sharedAccessCost(llvm::ArrayRef<int64_t> laneBytes,
                                          int64_t width) {
  BankCost cost;
  width = std::max<int64_t>(width, 1);
  int64_t lanesPerPhase =
      kSharedBanks * kSharedBankBytes / std::max(width, kSharedBankBytes);
  for (size_t first = 0; first < laneBytes.size(); first += lanesPerPhase) {
    // The words this phase touches, each once.
    llvm::SmallVector<int64_t, 64> words;
    size_t end = std::min(laneBytes.size(), first + lanesPerPhase);
    for (size_t l = first; l < end; ++l)
      if (laneBytes[l] >= 0)
        for (int64_t w = laneBytes[l] / kSharedBankBytes;
             w <= (laneBytes[l] + width - 1) / kSharedBankBytes; ++w)
          words.push_back(w);
    if (words.empty())
      continue;
    // std::sort, not llvm::sort: the latter hands integers to qsort, whose
    // calls through a comparator cost more than the rest of the rule.
    std::sort(words.begin(), words.end());
    words.erase(std::unique(words.begin(), words.end()), words.end());
    // A bank serves one word a wavefront.
    int64_t perBank[kSharedBanks] = {};
    int64_t most = 0;
    for (int64_t w : words)
      most = std::max(most, ++perBank[w % kSharedBanks]);
    cost.wavefronts += most;
    cost.ideal +=
        (static_cast<int64_t>(words.size()) + kSharedBanks - 1) / kSharedBanks;
  }
  return cost;
}

bool mirage::search::mmaFitsShape(int64_t m, int64_t n, int64_t k) {
  if (m <= 0 || n <= 0 || k <= 0 || k % 16 != 0)
    return false;
  return mmaSwapsOperands(m) ? n % 16 == 0 : n % 8 == 0;
}

bool mirage::search::mmaFitsTiles(llvm::ArrayRef<int64_t> lhs,
                                  llvm::ArrayRef<int64_t> rhs) {
  size_t r = lhs.size();
  if (r < 2 || r > 3 || rhs.size() != r)
    return false;
  return mmaFitsShape(lhs[r - 2], rhs[r - 1], lhs[r - 1]);
}

BankCost mirage::search::mmaSharedCost(llvm::ArrayRef<int64_t> lhs,
                                       llvm::ArrayRef<int64_t> rhs,
                                       const SharedLayout &lhsLayout,
                                       const SharedLayout &rhsLayout) {
  BankCost cost;
  if (lhs.size() < 2 || rhs.size() < 2)
    return cost;
  size_t r = lhs.size();
  int64_t m = lhs[r - 2], k = lhs[r - 1], n = rhs.back();
  if (!mmaFitsShape(m, n, k))
    return cost;
  int64_t batch = 1;
  for (int64_t d : lhs.drop_back(2))
    batch *= d;
  constexpr int64_t kF16 = 2;
  // Byte address of element (row, col) of batch `bi` of a tile of `rows`
  // rows.
  auto addr = [&](const SharedLayout &layout, int64_t rows, int64_t bi,
                  int64_t row, int64_t col) {
    return kF16 * sharedElementOffset(
                      layout, (bi * rows + row) * layout.rowElems + col);
  };
  bool swapped = mmaSwapsOperands(m);
  int64_t tilesM = swapped ? n / 16 : m / 16;
  int64_t tilesN = swapped ? (m + 7) / 8 : n / 8;
  int64_t lanes[kWarpSize];
  for (int64_t bi = 0; bi < batch; ++bi)
    for (int64_t tm = 0; tm < tilesM; ++tm)
      for (int64_t tn = 0; tn < tilesN; ++tn)
        for (int64_t k0 = 0; k0 < k; k0 += 16) {
          if (!swapped) {
            for (int64_t l = 0; l < kWarpSize; ++l)
              lanes[l] =
                  addr(lhsLayout, m, bi, tm * 16 + l % 16, k0 + l / 16 * 8);
            cost += sharedAccessCost(lanes, kSharedUnitBytes);
            // x2: lanes 16..31 give no address.
            for (int64_t l = 0; l < kWarpSize; ++l)
              lanes[l] = l < 16 ? addr(rhsLayout, k, bi, k0 + l, tn * 8) : -1;
            cost += sharedAccessCost(lanes, kSharedUnitBytes);
            continue;
          }
          for (int64_t l = 0; l < kWarpSize; ++l)
            lanes[l] = addr(rhsLayout, k, bi, k0 + l % 8 + l / 16 * 8,
                            tm * 16 + l / 8 % 2 * 8);
          cost += sharedAccessCost(lanes, kSharedUnitBytes);
          for (int64_t dc : {0, 1, 8, 9}) {
            for (int64_t l = 0; l < kWarpSize; ++l)
              lanes[l] = addr(lhsLayout, m, bi, std::min(tn * 8 + l / 4, m - 1),
                              k0 + 2 * (l % 4) + dc);
            cost += sharedAccessCost(lanes, kF16);
          }
        }
  return cost;
}

BankCost mirage::search::copySharedCost(const TileCopy &plan,
                                        const SharedLayout &layout,
                                        int64_t elementBytes) {
  int64_t elements = 1;
  for (int64_t d : plan.tile)
    elements *= d;
  int64_t chunk = std::max<int64_t>(plan.chunk, 1);
  // Memoised: the search prices the same copies for many candidates.
  using Key = std::array<int64_t, 8>;
  static thread_local std::map<Key, BankCost> memo;
  Key key = {elements,        chunk,           elementBytes,
             layout.rowElems, layout.rowPitch, layout.unitElems,
             layout.xorMask,  layout.rowShift};
  if (auto it = memo.find(key); it != memo.end())
    return it->second;
  BankCost cost;
  int64_t chunks = elements / chunk;
  int64_t lanes[kWarpSize];
  for (int64_t first = 0; first < chunks; first += kWarpSize) {
    for (int64_t l = 0; l < kWarpSize; ++l)
      lanes[l] =
          first + l < chunks
              ? elementBytes * sharedElementOffset(layout, (first + l) * chunk)
              : -1;
    cost += sharedAccessCost(lanes, chunk * elementBytes);
  }
  memo.emplace(key, cost);
  return cost;
}
