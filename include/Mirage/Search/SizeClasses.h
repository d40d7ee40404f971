//===- SizeClasses.h - Searching a dynamic size class by class -*- C++ -*-===//
//
// A function with a dynamic size (docs/dynamic.md) is searched once per
// class of the size's values: specialised at the class's representative
// size, searched as a static program, generalised back to dynamic dims
// (GeneralizeSizes.h), checked at sample sizes of the class and ranked by
// its modelled time over them. These are the pieces that do not depend on
// the pass.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SEARCH_SIZECLASSES_H
#define MIRAGE_SEARCH_SIZECLASSES_H

#include "Mirage/Dialect/Kernel/Analysis/DynamicSizes.h"
#include "Mirage/Verify/Equivalence.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <map>
#include <set>
#include <string>

namespace mirage::search {

/// The values lo..hi of a size that share one program.
struct SizeClass {
  int64_t lo = 1, hi = 1;
  /// Where the class is searched: the power of two the facts admit nearest
  /// to the class's geometric middle (8 for 2-16, 128 for 65-256), else its
  /// largest admitted value.
  int64_t representative = 1;
  /// Where the representative is a value to avoid (makeSizeClasses): the
  /// admitted power of two or three times one nearest the middle that is
  /// not, searched when the program found at the representative cannot be
  /// generalised; 0 if there is none.
  int64_t avoiding = 0;
  /// The class's largest admitted value: where it is searched when no
  /// program found at the representative holds over the class (one that
  /// holds the size whole in one trip, a softmax per trip, is wrong past
  /// its tile; at the largest value the tiles may not hold it whole).
  int64_t largest = 1;
};

/// The upper bounds of the default classes: 1, 2-16, 17-64, 65-256 and
/// 257-4096 (sizes above 4096 take the last class's program).
llvm::ArrayRef<int64_t> defaultSizeClassBounds();

/// The classes of `size` for the ascending upper bounds `bounds`, cut to
/// its facts: classes no admitted value falls in are dropped; without a
/// `max` the last class ends at the last bound. Where a representative is
/// in `avoid` (the static extents of the program's tensors: a size searched
/// at one of them may not be told from that dim by its extent when the
/// program found is generalised), `avoiding` is the nearest value that is
/// not.
llvm::SmallVector<SizeClass>
makeSizeClasses(const mk::DynamicSize &size, llvm::ArrayRef<int64_t> bounds,
                const std::set<int64_t> &avoid = {});

/// The values of `c` where a dynamic program is checked and ranked: the
/// class's bounds, its representative, 1 if it is in the class, and for
/// the tile extent t of every `?` grid dim of `program` a multiple and a
/// non-multiple of t, each admitted by the facts of `size`; at most
/// kMaxClassSamples of them, ascending.
llvm::SmallVector<int64_t> classSamples(const SizeClass &c,
                                        const mk::DynamicSize &size,
                                        mlir::func::FuncOp program);
constexpr unsigned kMaxClassSamples = 8;

/// Values of a function's dynamic sizes by name: where a dynamic program is
/// checked and priced.
using SizePoint = std::map<std::string, int64_t>;
/// "tokens=7, kv=100".
std::string describePoint(const SizePoint &point);

/// A size the class search does not dispatch on: searched at
/// `range.representative` and valid over `range` (its whole range).
struct HeldSize {
  mk::DynamicSize size;
  SizeClass range;
};

/// The points where a program for class `c` of the size `dispatch` is
/// checked and ranked: each of classSamples(c, dispatch, program) with the
/// sizes of `held` at their representatives; each of the held sizes'
/// classSamples over its range with the other sizes at theirs; and, with
/// held sizes, one point where every size takes its second-smallest sample
/// at once (tails along several sizes in one kernel). Without held sizes,
/// classSamples as points.
llvm::SmallVector<SizePoint> classPoints(const SizeClass &c,
                                         const mk::DynamicSize &dispatch,
                                         llvm::ArrayRef<HeldSize> held,
                                         mlir::func::FuncOp program);

/// The period of `program` along its dynamic sizes where it computes them
/// row by row: every dynamic dim of its kernels' tensors is partitioned by
/// a `?` grid dim whose blocks do not combine along it
/// (mb::checkBlocksIndependent), no `?` loop walks one, no op outside its
/// kernels combines along one (a contraction, reduction, normalisation or
/// concat) and no band mask (whose result depends on where an element is)
/// or op of another dialect is in it. Then every block along a size
/// computes the same function of its own rows, and only where the last
/// tile ends changes with the size: the period is the lcm of the tiles
/// along the sizes (1 without kernels). std::nullopt otherwise.
std::optional<int64_t> rowwisePeriod(mlir::func::FuncOp program);

/// `points` where a check of `program` against `reference` decides the
/// check at every point of `points`: where both are row by row
/// (rowwisePeriod), each size's value past the lcm P of their periods and
/// of the sizes' divisors comes down to P plus its residue modulo P (P for
/// a multiple): one period of full blocks and the same last tile, in every
/// kernel (4096 tokens over 64-row tiles are checked at 64). Values the
/// size would not admit (below its min) stay; `points` as they are
/// otherwise.
llvm::SmallVector<SizePoint>
rowwisePoints(llvm::ArrayRef<SizePoint> points, mlir::func::FuncOp reference,
              mlir::func::FuncOp program,
              llvm::ArrayRef<mk::DynamicSize> sizes);

/// The points of `points` where the numerics check (f16/bf16 storage)
/// runs: every one unless `program` is row by row (rowwisePeriod: how many
/// values a sum adds would change its rounding and its range); otherwise
/// the smallest point of each residue modulo its period.
llvm::SmallVector<SizePoint> numericsPoints(llvm::ArrayRef<SizePoint> points,
                                            mlir::func::FuncOp program);

/// Checks `program` against `reference` (both with dynamic sizes) at every
/// point of `points`, each pair specialised in a scratch module: in the
/// field and in f64 as `options` ask, and at the points of `numericsAt` in
/// the numerics check too. Fails with the first point and verdict that is
/// not "equivalent" in `why`.
mlir::LogicalResult checkAtPoints(mlir::func::FuncOp reference,
                                  mlir::func::FuncOp program,
                                  llvm::ArrayRef<SizePoint> points,
                                  llvm::ArrayRef<SizePoint> numericsAt,
                                  const verify::EquivalenceOptions &options,
                                  std::string &why);

/// The mean modelled time (microseconds, on `chip`) of `program`
/// specialised at each of `points`; fails where the cost model cannot
/// price it.
mlir::FailureOr<double> modelledTimeOver(mlir::func::FuncOp program,
                                         llvm::ArrayRef<SizePoint> points,
                                         llvm::StringRef chip);

} // namespace mirage::search

#endif // MIRAGE_SEARCH_SIZECLASSES_H
