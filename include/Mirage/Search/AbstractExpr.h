//===- AbstractExpr.h - Abstract expressions and pruning --------*- C++ -*-===//
//
// The abstract-expression language of DESIGN §5 and the pruning oracle of
// the superoptimizer. Every tensor of a uGraph gets a term describing one
// generic element: `matmul(A, B)` is `sum(k, mul(A, B))`, an accumulator is a
// sum over the F loop iterations, `rms_norm(x)` is `div(x, sqrt(eps +
// (1/n) * sum(n, square(x))))`, and so on. Each sum names the logical axis it
// reduces (an input dim, up to the identifications made by contractions and
// broadcasts), which is what makes "a sum commutes with a factor that does not
// depend on the summed index" a sound axiom.
//
// The oracle saturates the target's terms once with the axioms (see
// docs/search.md) and then answers, per candidate, whether the candidate's
// term is a subterm of some equal form of the target: a bottom-up hash-cons
// lookup. When saturation was cut short by a limit the oracle fails open: it
// answers "keep" for everything.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SEARCH_ABSTRACTEXPR_H
#define MIRAGE_SEARCH_ABSTRACTEXPR_H

#include "Mirage/Search/EGraph.h"

#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>

namespace mlir {
class Operation;
class Block;
namespace func {
class FuncOp;
} // namespace func
} // namespace mlir

namespace mirage::search {

/// Operators of the abstract-expression language. The values are the
/// `OpId`s of `abstractOps()`.
enum class AOp : OpId {
  Var,     ///< input tensor, payload = argument index
  Const,   ///< scalar constant, payload = bits of the double
  Add,     ///< x + y
  Mul,     ///< x * y
  Div,     ///< x / y
  Pow,     ///< x ^ y
  Exp,     ///< exp(x)
  Square,  ///< x * x (kept as an operator; an axiom relates it to mul)
  Sqrt,    ///< sqrt(x)
  Rsqrt,   ///< 1 / sqrt(x)
  Silu,    ///< x * sigmoid(x)
  Gelu,    ///< gelu(x)
  Relu,    ///< max(x, 0)
  Sigmoid, ///< 1 / (1 + exp(-x))
  Clamp,   ///< clamp(lo, hi, x), lo and hi constants
  Sum,     ///< sum over `size` values of axis `axis`, payload encodes both
  Max,     ///< maximum over `size` values of axis `axis`
  Concat,  ///< concatenation (opaque: an element of one operand or the other)
  Maximum, ///< max(x, y), element-wise
  GeluErf, ///< 0.5 x (1 + erf(x / sqrt(2)))
  /// band_mask(x): payload = a key of its bounds, fill and form (not of its
  /// dims: masks of other dims with the same key share the symbol, which
  /// only weakens the pruning). It depends on every axis (the positions).
  Mask,
};

/// The operator table of the language, names in `AOp` order ("var", ...).
const OpTable &abstractOps();
/// The `OpId` of `op`.
inline OpId opId(AOp op) { return static_cast<OpId>(op); }

/// Payload of a `Mask` node: a key of a band mask's bounds, fill, form and
/// number of dims.
int64_t encodeMaskKey(std::optional<int64_t> lower,
                      std::optional<int64_t> upper, double fill, bool additive,
                      unsigned numDims);
/// Payload of a `Const` node: the bits of `value` (-0.0 is normalised).
int64_t encodeConst(double value);
/// The value of a `Const` payload.
double decodeConst(int64_t payload);
/// Payload of a `Sum`/`Max` node: reduction size and axis label (>= 1).
int64_t encodeReduction(int64_t size, uint32_t axis);
/// Reduction size of a `Sum`/`Max` payload.
inline int64_t reductionSize(int64_t payload) {
  return payload & ((int64_t(1) << 40) - 1);
}
/// Axis label of a `Sum`/`Max` payload.
inline uint32_t reductionAxis(int64_t payload) {
  return static_cast<uint32_t>(payload >> 40);
}

/// Prints a term readably: `(sum:4096@2 (mul var:0 var:1))`, constants as
/// decimals (`const:1e-06`), sums as size@axis-label.
std::string printTerm(const RecExpr &expr, RecExpr::Id id);

/// Builds terms into a `RecExpr`, folding the identities the IR folds too
/// (a sum over one element, scaling by 1, adding 0) so that a value and its
/// folded form get the same term.
class TermBuilder {
public:
  using Id = RecExpr::Id;
  explicit TermBuilder(RecExpr &expr) : expr(expr) {}

  Id var(unsigned index);
  Id constant(double value);
  Id unary(AOp op, Id x);
  Id binary(AOp op, Id x, Id y);
  Id add(Id x, Id y) { return binary(AOp::Add, x, y); }
  Id mul(Id x, Id y) { return binary(AOp::Mul, x, y); }
  Id div(Id x, Id y) { return binary(AOp::Div, x, y); }
  /// x - y, as x + (-1) * y.
  Id sub(Id x, Id y);
  /// c * x (x itself when c == 1).
  Id scale(double c, Id x);
  /// c + x (x itself when c == 0).
  Id shift(double c, Id x);
  Id clamp(double lo, double hi, Id x);
  /// band_mask(x) with the key `key` (AOp::Mask).
  Id mask(int64_t key, Id x);
  /// where(m, x) with `fill`: an AOp::Mask of two operands.
  Id where(double fill, bool inverted, Id m, Id x);
  /// 1 / x.
  Id reciprocal(Id x);
  /// tanh(x), spelled 2 * sigmoid(2 * x) - 1.
  Id tanh(Id x);
  /// Sum over `size` values of axis `axis` (x itself when size == 1).
  Id sum(int64_t size, uint32_t axis, Id x);
  /// Maximum over `size` values of axis `axis` (x itself when size == 1).
  Id max(int64_t size, uint32_t axis, Id x);
  /// sqrt(eps + sumOfSquares / n): the rms of `n` values whose squares are
  /// summed in `sumOfSquares` (the rms_norm denominator).
  Id rms(int64_t n, double eps, Id sumOfSquares);

  RecExpr &getExpr() { return expr; }

private:
  RecExpr &expr;
};

/// Logical axes: the dims of the inputs, identified when an op makes them
/// the same index (the contracted dims of a matmul, the dims of an
/// element-wise op that are not broadcast). A union-find over (input, dim)
/// pairs; the label of an axis is its least pair plus one (0 = no axis).
class AxisSpace {
public:
  static constexpr uint32_t kNoAxis = ~0u;

  /// Registers the input shapes; resets every identification.
  void setInputs(llvm::ArrayRef<llvm::SmallVector<int64_t, 4>> shapes);
  unsigned numInputs() const { return shapes.size(); }
  llvm::ArrayRef<int64_t> inputShape(unsigned i) const { return shapes[i]; }
  /// The raw axis of dim `dim` of input `input`.
  uint32_t axisOf(unsigned input, unsigned dim) const;
  /// Identifies two raw axes (kNoAxis is ignored).
  void unite(uint32_t a, uint32_t b);
  /// The canonical raw axis of `a`.
  uint32_t find(uint32_t a) const;
  /// The label (>= 1) of raw axis `a`, 0 for kNoAxis.
  uint32_t label(uint32_t a) const { return a == kNoAxis ? 0 : find(a) + 1; }
  /// The size of the input dims labelled `label`.
  int64_t extent(uint32_t label) const;
  /// The bit of `label` in a dependence mask; labels past 63 share bit 63.
  static uint64_t bit(uint32_t label) {
    return uint64_t(1) << (label - 1 < 63 ? label - 1 : 63);
  }
  /// Whether `label` has a bit of its own (reductions over a shared bit
  /// never clear it, which keeps the dependence masks over-approximations).
  static bool hasOwnBit(uint32_t label) { return label - 1 < 63; }
  /// The labels of the dims (of size > 1) of input `i`.
  uint64_t inputMask(unsigned i) const;

private:
  llvm::SmallVector<llvm::SmallVector<int64_t, 4>> shapes;
  llvm::SmallVector<uint32_t> parent;
};

/// E-class analysis: the set of axis labels a value may depend on (an
/// over-approximation). A reduction over the whole extent of its axis removes
/// the axis; a partial one (a tile, a loop step) does not. Equal classes keep
/// the intersection, the tighter bound.
class FreeAxesAnalysis : public EClassAnalysis {
public:
  explicit FreeAxesAnalysis(const AxisSpace &axes) : axes(axes) {}
  uint64_t make(const EGraph &egraph, const ENode &node) const override;
  uint64_t join(uint64_t a, uint64_t b) const override { return a & b; }

private:
  const AxisSpace &axes;
};

/// The axioms of DESIGN §5 as rewrite rules (both directions where the
/// axiom is an equation). The conditions read the `FreeAxesAnalysis` data.
std::vector<Rewrite> getAbstractAxioms();

/// One component of a tensor dim: `size` consecutive values of axis `axis`.
struct AxisPart {
  uint32_t axis;
  int64_t size;
};

/// The components of a tensor dim, outermost first; empty for a dim of size
/// 1. A plain dim has one part; the dim an output saver writes for a grid
/// that partitions another axis (a split sequence: chunk index, then the
/// tile's own dim) has two.
using DimAxes = llvm::SmallVector<AxisPart, 1>;

/// The abstract expression of one tensor value.
struct AbstractValue {
  RecExpr::Id term = 0;
  /// Axes of every dim.
  llvm::SmallVector<DimAxes, 4> dims;
  /// Whether the value changes with the for-loop iteration (it reads an input
  /// iterator whose walked dim has an axis).
  bool loopVariant = false;
  /// A block's maximum over its part of an axis, whose term is the maximum
  /// over the whole axis (the online-softmax view, docs/search.md).
  bool partMax = false;
};

/// Computes the abstract expression of every value of a function of mk ops
/// (graph-defined kernels included, down to their block and thread graphs).
/// The function's arguments are inputs 0, 1, ...
class AbstractExprBuilder {
public:
  /// Terms go to `expr`; axis identifications to `axes`, which must already
  /// know the input shapes (for a candidate: a copy of the target's, so that
  /// labels agree).
  AbstractExprBuilder(RecExpr &expr, AxisSpace &axes);
  ~AbstractExprBuilder();

  /// Builds every value of `func`. Fails (with a diagnostic) on an op the
  /// language has no term for; callers must then keep the candidate.
  mlir::LogicalResult build(mlir::func::FuncOp func);
  /// The term of `value` (after `build`), or nullopt.
  std::optional<RecExpr::Id> getTerm(mlir::Value value) const;
  /// The terms of the function's results.
  llvm::ArrayRef<RecExpr::Id> getOutputs() const { return outputs; }

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
  RecExpr &finalExpr;
  llvm::SmallVector<RecExpr::Id> outputs;
  llvm::DenseMap<mlir::Value, RecExpr::Id> finalTerms;
};

/// Answers "may this candidate be part of a program equal to the target?"
/// Built once per target (one saturation), then queried per candidate.
class PruningOracle {
public:
  /// Saturates the output terms `roots` of `target`, whose sum axes are
  /// labelled in `axes`.
  PruningOracle(RecExpr target, llvm::ArrayRef<RecExpr::Id> roots,
                AxisSpace axes, const SaturationLimits &limits = {});
  // The graph points at `analysis`, which points at `axes`: not movable.
  PruningOracle(const PruningOracle &) = delete;
  PruningOracle &operator=(const PruningOracle &) = delete;

  /// Builds the target terms from the results of `func` (a function of mk
  /// ops) and saturates them. Fails if `func` has an op without a term.
  static mlir::FailureOr<std::unique_ptr<PruningOracle>>
  create(mlir::func::FuncOp func, const SaturationLimits &limits = {});

  /// False only if the term of `root` in `expr` is provably not a subterm of
  /// any form of the target reachable with the axioms. True whenever
  /// saturation did not complete (fail open). Read-only and thread-safe.
  bool mayLead(const RecExpr &expr, RecExpr::Id root) const;
  /// The class of a term, if present in the saturated graph.
  std::optional<ClassId> classOf(const RecExpr &expr, RecExpr::Id root) const;
  /// The class of a term if it is a subterm of some form of the target (the
  /// class is present and reachable from a root); nullopt otherwise. Unlike
  /// `mayLead` this does not fail open: callers check `isComplete()`.
  std::optional<ClassId> subtermClass(const RecExpr &expr,
                                      RecExpr::Id root) const;
  /// The class of output `i` of the target.
  ClassId rootClass(unsigned i) const { return egraph.findConst(roots[i]); }
  /// Whether saturation reached its fixpoint (the verdicts are exact).
  bool isComplete() const { return report.saturated(); }
  /// Why and when saturation stopped, and the size of the graph.
  const SaturationReport &getReport() const { return report; }
  /// The target's axes; candidates must be built on a copy of it.
  const AxisSpace &getAxes() const { return axes; }
  /// The saturated graph (for statistics and tests).
  const EGraph &getEGraph() const { return egraph; }

private:
  RecExpr target;
  AxisSpace axes;
  FreeAxesAnalysis analysis;
  EGraph egraph;
  llvm::SmallVector<ClassId> roots;
  llvm::BitVector reachable;
  SaturationReport report;
};

} // namespace mirage::search

#endif // MIRAGE_SEARCH_ABSTRACTEXPR_H
