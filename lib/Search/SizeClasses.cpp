//===- SizeClasses.cpp - Searching a dynamic size class by class ----------===//
//
// See SizeClasses.h.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/SizeClasses.h"
#include "Mirage/Dialect/Block/IR/Block.h"
#include "Mirage/Dialect/Kernel/IR/Kernel.h"
#include "Mirage/Search/Superoptimizer.h"
#include "Mirage/Transforms/SpecializeSizes.h"

#include "mlir/IR/BuiltinOps.h"

#include <cmath>
#include <numeric>
#include <set>

using namespace mlir;
using namespace mirage;
using namespace mirage::search;

ArrayRef<int64_t> mirage::search::defaultSizeClassBounds() {
  static const int64_t bounds[] = {1, 16, 64, 256, 4096};
  return bounds;
}

/// The largest value in lo..hi that `size` admits, if any.
static std::optional<int64_t> largestAdmitted(const mk::DynamicSize &size,
                                              int64_t lo, int64_t hi) {
  int64_t v = hi - hi % size.divisor;
  if (v >= lo && size.admits(v))
    return v;
  return std::nullopt;
}

SmallVector<SizeClass>
mirage::search::makeSizeClasses(const mk::DynamicSize &size,
                                ArrayRef<int64_t> bounds,
                                const std::set<int64_t> &avoid) {
  SmallVector<SizeClass> classes;
  int64_t lo = 1;
  for (auto [i, bound] : llvm::enumerate(bounds)) {
    SizeClass c;
    c.lo = std::max(lo, size.min);
    c.hi = bound;
    // The last class runs to the size's max (every size has a program).
    if (i + 1 == bounds.size() && size.max && *size.max > bound)
      c.hi = *size.max;
    if (size.max)
      c.hi = std::min(c.hi, *size.max);
    lo = bound + 1;
    if (c.lo > c.hi)
      continue;
    std::optional<int64_t> r = largestAdmitted(size, c.lo, c.hi);
    if (!r)
      continue;
    c.representative = *r;
    c.largest = *r;
    // Searched at the power of two nearest the class's geometric middle
    // (the sizes of the class are spread on a log scale): its tiles suit
    // the whole class better than the largest value's, and the programs of
    // the classes around give the ranking other tilings to choose from.
    // Where that value is a static extent of the program (`avoid`), the
    // nearest power of two or three times one that is not, to fall back
    // on.
    double middle = std::sqrt(static_cast<double>(c.lo) * c.hi);
    auto nearest = [&](bool avoiding) {
      int64_t best = 0;
      for (int64_t p = 1; p <= c.hi; p *= 2)
        for (int64_t v : {p, 3 * p})
          if (v >= c.lo && v <= c.hi && size.admits(v) &&
              (v == p || avoiding) && (!avoiding || !avoid.count(v)) &&
              (!best || std::abs(std::log2(v / middle)) <
                            std::abs(std::log2(best / middle))))
            best = v;
      return best;
    };
    if (int64_t best = nearest(/*avoiding=*/false))
      c.representative = best;
    if (avoid.count(c.representative) && c.lo < c.hi)
      c.avoiding = nearest(/*avoiding=*/true);
    classes.push_back(c);
  }
  return classes;
}

/// The tiles of `program` along its dynamic dims: the tile extents of its
/// `?` grid dims in `tiles`, those its `?` loops walk ([K21]) in `walked`.
static void dynamicTiles(func::FuncOp program, std::set<int64_t> &tiles,
                         std::set<int64_t> &walked) {
  program.walk([&](mk::GraphKernelOp kernel) {
    ArrayRef<int64_t> grid = kernel.getGrid();
    kernel.getBody().walk([&](mb::OutputSaverOp saver) {
      for (int g = 0; g < 3; ++g)
        if (ShapedType::isDynamic(grid[g]) && saver.getOmap()[g] >= 0)
          tiles.insert(
              saver.getInput().getType().getDimSize(saver.getOmap()[g]));
    });
    // The tile a `?` loop walks ([K21]).
    if (ShapedType::isDynamic(kernel.getForloop()))
      if (mb::ForLoopOp loop = kernel.getForLoop())
        if (std::optional<mb::LoopWalk> walk = mb::loopWalk(loop))
          walked.insert(walk->tile);
  });
}

SmallVector<int64_t> mirage::search::classSamples(const SizeClass &c,
                                                  const mk::DynamicSize &size,
                                                  func::FuncOp program) {
  std::set<int64_t> tiles, walked;
  dynamicTiles(program, tiles, walked);
  std::set<int64_t> samples;
  auto add = [&](int64_t v) {
    if (v >= c.lo && v <= c.hi && size.admits(v))
      samples.insert(v);
  };
  add(1);
  add(c.lo);
  add(c.hi);
  add(c.representative);
  // A walked tile: two trips, and two trips and a tail (a last trip that
  // is not the first).
  for (int64_t t : walked) {
    add(2 * t);
    add(2 * t + 1);
  }
  for (int64_t t : tiles) {
    // A multiple of the tile and a value one past a multiple (a tail).
    int64_t multiple = std::max<int64_t>(t, (c.lo + t - 1) / t * t);
    for (int64_t v = multiple; v <= c.hi; v += t)
      if (size.admits(v)) {
        add(v);
        break;
      }
    for (int64_t v = std::max(c.lo, multiple + 1); v <= c.hi; ++v)
      if (v % t != 0 && size.admits(v)) {
        add(v);
        break;
      }
  }
  SmallVector<int64_t> out(samples.begin(), samples.end());
  // Keep the bounds and spread the rest.
  while (out.size() > kMaxClassSamples)
    out.erase(out.begin() + out.size() / 2);
  return out;
}

/// Whether an op of `program` outside its kernels combines elements along
/// a dynamic dim (a matmul's contraction, reduce_sum, reduce_max, rms_norm
/// over it, a concat along it).
static bool reducesDynamicDimOutside(func::FuncOp program) {
  auto dynamicAt = [](Value v, int64_t d) {
    auto t = cast<RankedTensorType>(v.getType());
    return d >= 0 && d < t.getRank() && t.isDynamicDim(d);
  };
  WalkResult r = program.walk([&](Operation *op) {
    if (isa<mk::GraphKernelOp>(op))
      return WalkResult::skip();
    bool reduces = false;
    if (auto mm = dyn_cast<mk::MatmulOp>(op))
      reduces = dynamicAt(mm.getLhs(), mm.getLhs().getType().getRank() - 1);
    else if (auto red = dyn_cast<mk::ReduceSumOp>(op))
      reduces = dynamicAt(red.getInput(), red.getDim());
    else if (auto red = dyn_cast<mk::ReduceMaxOp>(op))
      reduces = dynamicAt(red.getInput(), red.getDim());
    else if (auto rms = dyn_cast<mk::RmsNormOp>(op))
      reduces = dynamicAt(rms.getInput(), rms.getType().getRank() - 1);
    else if (auto concat = dyn_cast<mk::ConcatOp>(op))
      reduces = dynamicAt(concat.getResult(), concat.getDim());
    return reduces ? WalkResult::interrupt() : WalkResult::advance();
  });
  return r.wasInterrupted();
}

std::optional<int64_t> mirage::search::rowwisePeriod(func::FuncOp program) {
  if (reducesDynamicDimOutside(program))
    return std::nullopt;
  std::set<int64_t> tiles;
  bool rowwise = true;
  // Every dynamic dim of a kernel's tensors is partitioned by a `?` grid
  // dim (no `?` loop walks it, no tile holds it whole); the tile along it
  // sets the period.
  auto partitioned = [&](ArrayRef<int64_t> logical, ArrayRef<int64_t> map,
                         ArrayRef<int64_t> grid, RankedTensorType tile) {
    for (auto [d, extent] : llvm::enumerate(logical)) {
      if (!ShapedType::isDynamic(extent))
        continue;
      const int64_t *g = llvm::find(map, static_cast<int64_t>(d));
      if (g == map.end() || !ShapedType::isDynamic(grid[g - map.begin()]))
        rowwise = false;
      else
        tiles.insert(tile.getDimSize(d));
    }
  };
  program.walk([&](Operation *op) {
    // A band mask depends on where an element is, not only on its row's
    // values; an op the search does not know may do anything.
    if (isa<mk::BandMaskOp, mb::BandMaskOp>(op) ||
        (op->getParentOp() == program.getOperation() &&
         !isa<func::ReturnOp>(op) && !isa<mk::MKDialect>(op->getDialect())))
      rowwise = false;
    auto kernel = dyn_cast<mk::GraphKernelOp>(op);
    if (!kernel)
      return;
    if (ShapedType::isDynamic(kernel.getForloop()))
      rowwise = false;
    ArrayRef<int64_t> grid = kernel.getGrid();
    kernel.getBody().walk([&](Operation *inner) {
      if (auto it = dyn_cast<mb::InputIterOp>(inner))
        partitioned(it.getLogicalShape(), it.getImap(), grid, it.getType());
      else if (auto saver = dyn_cast<mb::OutputSaverOp>(inner))
        partitioned(saver.getLogicalShape(), saver.getOmap(), grid,
                    saver.getInput().getType());
    });
    std::string why;
    for (int64_t g = 0; g < 3; ++g)
      if (ShapedType::isDynamic(grid[g]) &&
          failed(mb::checkBlocksIndependent(
              cast<GraphKernelOpInterface>(kernel.getOperation()), g, why)))
        rowwise = false;
  });
  if (!rowwise)
    return std::nullopt;
  int64_t period = 1;
  for (int64_t t : tiles)
    period = std::lcm(period, t);
  return period;
}

SmallVector<SizePoint>
mirage::search::rowwisePoints(ArrayRef<SizePoint> points,
                              func::FuncOp reference, func::FuncOp program,
                              ArrayRef<mk::DynamicSize> sizes) {
  std::optional<int64_t> ofReference = rowwisePeriod(reference);
  std::optional<int64_t> ofProgram = rowwisePeriod(program);
  if (!ofReference || !ofProgram)
    return SmallVector<SizePoint>(points);
  int64_t period = std::lcm(*ofReference, *ofProgram);
  // A size's divisor divides every value brought down.
  for (const mk::DynamicSize &size : sizes)
    period = std::lcm(period, size.divisor);
  SmallVector<SizePoint> out;
  for (const SizePoint &p : points) {
    SizePoint reduced = p;
    for (auto &[name, value] : reduced) {
      if (value <= period)
        continue;
      int64_t down = value % period == 0 ? period : period + value % period;
      const mk::DynamicSize *size =
          llvm::find_if(sizes, [&, n = name](const mk::DynamicSize &s) {
            return s.name == n;
          });
      if (size == sizes.end() || size->admits(down))
        value = down;
    }
    if (!llvm::is_contained(out, reduced))
      out.push_back(std::move(reduced));
  }
  return out;
}

std::string mirage::search::describePoint(const SizePoint &point) {
  std::string out;
  for (const auto &[name, value] : point)
    out += (out.empty() ? "" : ", ") + name + "=" + std::to_string(value);
  return out;
}

SmallVector<SizePoint>
mirage::search::classPoints(const SizeClass &c, const mk::DynamicSize &dispatch,
                            ArrayRef<HeldSize> held, func::FuncOp program) {
  SizePoint base;
  base[dispatch.name] = c.representative;
  for (const HeldSize &h : held)
    base[h.size.name] = h.range.representative;
  SmallVector<SizePoint> points;
  auto add = [&](SizePoint p) {
    if (!llvm::is_contained(points, p))
      points.push_back(std::move(p));
  };
  // The dispatch size across its class, every other size held.
  SmallVector<int64_t> own = classSamples(c, dispatch, program);
  for (int64_t v : own) {
    SizePoint p = base;
    p[dispatch.name] = v;
    add(p);
  }
  // Every other size across its range, the rest at their searched values;
  // then one point where every size leaves its searched value at once (its
  // second-smallest sample: tails of several sizes in one kernel).
  SizePoint corner = base;
  if (own.size() > 1)
    corner[dispatch.name] = own[1];
  for (const HeldSize &h : held) {
    SmallVector<int64_t> samples = classSamples(h.range, h.size, program);
    for (int64_t v : samples) {
      SizePoint p = base;
      p[h.size.name] = v;
      add(p);
    }
    if (samples.size() > 1)
      corner[h.size.name] = samples[1];
  }
  if (!held.empty())
    add(corner);
  return points;
}

SmallVector<SizePoint>
mirage::search::numericsPoints(ArrayRef<SizePoint> points,
                               func::FuncOp program) {
  std::optional<int64_t> rowwise = rowwisePeriod(program);
  if (!rowwise)
    return SmallVector<SizePoint>(points);
  int64_t period = *rowwise;
  // The smallest point (by its sum of sizes) of each residue.
  SmallVector<SizePoint> sorted(points), out;
  auto total = [](const SizePoint &p) {
    int64_t sum = 0;
    for (const auto &entry : p)
      sum += entry.second;
    return sum;
  };
  llvm::stable_sort(sorted, [&](const SizePoint &a, const SizePoint &b) {
    return total(a) < total(b);
  });
  std::set<SmallVector<int64_t>> residues;
  for (const SizePoint &p : sorted) {
    SmallVector<int64_t> residue;
    for (const auto &entry : p)
      residue.push_back(entry.second % period);
    if (residues.insert(residue).second)
      out.push_back(p);
  }
  return out;
}

/// `function` with its dynamic sizes at `point`, in `scratch`.
static FailureOr<func::FuncOp>
atPoint(func::FuncOp function, const SizePoint &point, ModuleOp scratch) {
  llvm::StringMap<int64_t> values;
  for (const auto &[name, value] : point)
    values[name] = value;
  return specializedCopy(function, values, scratch);
}

LogicalResult mirage::search::checkAtPoints(
    func::FuncOp reference, func::FuncOp program, ArrayRef<SizePoint> points,
    ArrayRef<SizePoint> numericsAt, const verify::EquivalenceOptions &options,
    std::string &why) {
  for (const SizePoint &point : points) {
    verify::EquivalenceOptions at = options;
    at.numericsCheck = llvm::is_contained(numericsAt, point);
    OwningOpRef<ModuleOp> scratch = ModuleOp::create(program.getLoc());
    FailureOr<func::FuncOp> ref = atPoint(reference, point, *scratch);
    FailureOr<func::FuncOp> candidate = atPoint(program, point, *scratch);
    if (failed(ref) || failed(candidate)) {
      why = "cannot specialise at " + describePoint(point);
      return failure();
    }
    (*candidate).setSymName((*candidate).getSymName().str() + "_candidate");
    verify::EquivalenceResult result =
        verify::checkEquivalence(*ref, *candidate, at);
    if (result.verdict != verify::Verdict::Equivalent) {
      why = "at " + describePoint(point) + ": " +
            verify::stringifyVerdict(result.verdict).str() +
            (result.reason.empty() ? "" : " (" + result.reason + ")");
      return failure();
    }
  }
  return success();
}

FailureOr<double> mirage::search::modelledTimeOver(func::FuncOp program,
                                                   ArrayRef<SizePoint> points,
                                                   StringRef chip) {
  if (points.empty())
    return failure();
  double total = 0;
  for (const SizePoint &point : points) {
    OwningOpRef<ModuleOp> scratch = ModuleOp::create(program.getLoc());
    FailureOr<func::FuncOp> at = atPoint(program, point, *scratch);
    if (failed(at))
      return failure();
    FailureOr<std::pair<unsigned, double>> cost =
        estimateProgramCost(*at, chip);
    if (failed(cost))
      return failure();
    total += cost->second;
  }
  return total / points.size();
}
