//===- Evaluator.h - The evaluator of mk/mb/mt programs ---------*- C++ -*-===//
//
// One evaluator, templated over a value domain (Domains.h). Its members are
// defined by concern: tensor-level ops in EvaluatorOps.cpp, graph-defined
// kernels (block graphs, loops, thread graphs, reuse across blocks) in
// EvaluatorKernels.cpp, dispatch and the public entry points in
// Interpreter.cpp. Each of those files instantiates its members for the
// domains of MIRAGE_FOR_EACH_DOMAIN. Private to lib/Verify.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_VERIFY_EVALUATOR_H
#define MIRAGE_LIB_VERIFY_EVALUATOR_H

#include "Domains.h"

#include "Mirage/Dialect/Block/IR/Block.h"
#include "Mirage/Dialect/Block/IR/View.h"
#include "Mirage/Dialect/Kernel/IR/Kernel.h"
#include "Mirage/Dialect/Thread/IR/Thread.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseMap.h"

#include <array>
#include <map>
#include <memory>
#include <tuple>

namespace mirage::verify::detail {

using namespace mlir;

/// Applies X to every domain the evaluator is instantiated for.
#define MIRAGE_FOR_EACH_DOMAIN(X)                                              \
  X(::mirage::verify::detail::FloatDomain)                                     \
  X(::mirage::verify::detail::KernelPrecisionDomain)                           \
  X(::mirage::verify::detail::FieldDomain)

//===----------------------------------------------------------------------===//
// Index helpers (rank <= 4; shapes are padded with leading 1s to rank 4)
//===----------------------------------------------------------------------===//

using Shape4 = std::array<int64_t, 4>;

inline Shape4 pad4(ArrayRef<int64_t> shape) {
  Shape4 r = {1, 1, 1, 1};
  size_t off = 4 - shape.size();
  for (size_t i = 0; i < shape.size(); ++i)
    r[off + i] = shape[i];
  return r;
}

inline Shape4 stridesOf(const Shape4 &s) {
  return {s[1] * s[2] * s[3], s[2] * s[3], s[3], 1};
}

/// Copies the box of extent `ext` at `srcOff` of `src` to `dstOff` of `dst`.
template <typename E>
void copyBox(const E *src, ArrayRef<int64_t> srcShape, ArrayRef<int64_t> srcOff,
             E *dst, ArrayRef<int64_t> dstShape, ArrayRef<int64_t> dstOff,
             ArrayRef<int64_t> ext) {
  Shape4 ss = stridesOf(pad4(srcShape)), ds = stridesOf(pad4(dstShape));
  Shape4 so = {0, 0, 0, 0}, dof = {0, 0, 0, 0}, ex = pad4(ext);
  size_t off = 4 - srcShape.size();
  for (size_t i = 0; i < srcShape.size(); ++i) {
    so[off + i] = srcOff[i];
    dof[off + i] = dstOff[i];
  }
  for (int64_t a = 0; a < ex[0]; ++a)
    for (int64_t b = 0; b < ex[1]; ++b)
      for (int64_t c = 0; c < ex[2]; ++c) {
        const E *s = src + (so[0] + a) * ss[0] + (so[1] + b) * ss[1] +
                     (so[2] + c) * ss[2] + so[3];
        E *d = dst + (dof[0] + a) * ds[0] + (dof[1] + b) * ds[1] +
               (dof[2] + c) * ds[2] + dof[3];
        // Rows of a few elements (column tiles) are copied inline: a call
        // to memmove per row would cost more than the copy.
        if (ex[3] <= 8)
          for (int64_t t = 0; t < ex[3]; ++t)
            d[t] = s[t];
        else
          std::copy(s, s + ex[3], d);
      }
}

/// Fills `dst` (of shape `dstShape`) with the box at `srcOff` of `src`,
/// every index clamped to the last one of its dim: a tail tile's read
/// ([B26]) past the end of a device tensor repeats its last row.
template <typename E>
void copyClampedBox(const E *src, ArrayRef<int64_t> srcShape,
                    ArrayRef<int64_t> srcOff, E *dst,
                    ArrayRef<int64_t> dstShape) {
  Shape4 ss = stridesOf(pad4(srcShape)), ex = pad4(dstShape);
  Shape4 so = {0, 0, 0, 0}, last = {0, 0, 0, 0};
  size_t off = 4 - srcShape.size();
  for (size_t i = 0; i < srcShape.size(); ++i) {
    so[off + i] = srcOff[i];
    last[off + i] = srcShape[i] - 1;
  }
  E *d = dst;
  for (int64_t a = 0; a < ex[0]; ++a)
    for (int64_t b = 0; b < ex[1]; ++b)
      for (int64_t c = 0; c < ex[2]; ++c)
        for (int64_t t = 0; t < ex[3]; ++t)
          *d++ = src[std::min(so[0] + a, last[0]) * ss[0] +
                     std::min(so[1] + b, last[1]) * ss[1] +
                     std::min(so[2] + c, last[2]) * ss[2] +
                     std::min(so[3] + t, last[3])];
}

/// Sets the elements of `t` whose index along `dim` is `keep` or more to
/// `fill`.
template <typename Tensor, typename E>
void fillPastEnd(Tensor &t, int64_t dim, int64_t keep, E fill) {
  int64_t inner = 1;
  for (size_t k = dim + 1; k < t.shape.size(); ++k)
    inner *= t.shape[k];
  int64_t extent = t.shape[dim];
  int64_t outer = t.numElements() / (inner * extent);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t j = std::max<int64_t>(keep, 0); j < extent; ++j)
      for (int64_t i = 0; i < inner; ++i)
        t.data[(o * extent + j) * inner + i] = fill;
}

/// A view tabulated for copies: the device offset of logical index `i` is
/// `offset` plus `tables[k][i[k]]` summed over the dims.
struct ViewTables {
  AffineMap map;
  SmallVector<int64_t, 4> logical, device;
  int64_t offset = 0;
  SmallVector<SmallVector<int64_t>> tables;
};

/// Copies the tile of `tileShape` at `origin` of a view's logical tensor
/// between `device` (the viewed tensor) and `tile` (row-major): into the
/// tile, or with `toDevice` out of it. A tail tile ([B26]) overhanging the
/// logical tensor reads its last index again past the end and writes
/// nothing there.
template <typename E>
void copyTileThroughView(const ViewTables &view, ArrayRef<int64_t> tileShape,
                         ArrayRef<int64_t> origin, E *device, E *tile,
                         bool toDevice) {
  size_t rank = tileShape.size();
  SmallVector<int64_t, 4> idx(rank, 0);
  int64_t n = 1;
  for (int64_t d : tileShape)
    n *= d;
  for (int64_t lin = 0; lin < n; ++lin) {
    int64_t off = view.offset;
    bool inside = true;
    for (size_t k = 0; k < rank; ++k) {
      int64_t i = origin[k] + idx[k];
      inside &= i < view.logical[k];
      off += view.tables[k][std::min(i, view.logical[k] - 1)];
    }
    if (!toDevice)
      tile[lin] = device[off];
    else if (inside)
      device[off] = tile[lin];
    for (size_t k = rank; k-- > 0;) {
      if (++idx[k] < tileShape[k])
        break;
      idx[k] = 0;
    }
  }
}

//===----------------------------------------------------------------------===//
// The evaluator
//===----------------------------------------------------------------------===//

template <typename Dom> class Evaluator {
public:
  using E = typename Dom::Elem;
  using T = Tensor<E>;
  using TPtr = std::shared_ptr<const T>;
  struct Val {
    TPtr t;
    Degree deg;
  };

  Evaluator(Dom &dom, EvalError &error, FieldEvalInfo *info,
            RealEvalInfo *realInfo = nullptr, Deadline deadline = kNoDeadline)
      : dom(dom), error(error), info(info), realInfo(realInfo),
        deadline(deadline) {}

  std::optional<std::vector<T>> run(func::FuncOp func, ArrayRef<T> inputs);

private:
  LogicalResult fail(Operation *op, EvalErrorKind kind, const Twine &msg) {
    error.kind = kind;
    error.op = op;
    error.message = msg.str();
    return failure();
  }
  /// Fails at `op` once the deadline has passed.
  LogicalResult checkDeadline(Operation *op) {
    if (!pastDeadline(deadline))
      return success();
    return fail(op, EvalErrorKind::Cancelled,
                "the time budget ran out during the evaluation");
  }
  /// Turns a failure raised inside the domain into an error at `op`.
  LogicalResult checkDomain(Operation *op) {
    if (!dom.err)
      return success();
    return fail(op, dom.err->kind, dom.err->message);
  }
  const Val *lookup(Value v) {
    auto it = env.find(v);
    return it == env.end() ? nullptr : &it->second;
  }
  LogicalResult get(Operation *op, Value v, Val &out) {
    const Val *val = lookup(v);
    if (!val)
      return fail(op, EvalErrorKind::InvalidInput,
                  "operand has no value (not defined by an evaluated op)");
    out = *val;
    return success();
  }
  void set(Value v, std::shared_ptr<T> t, Degree d) {
    if constexpr (Dom::kRoundsStorage)
      roundStored(v, *t);
    if constexpr (!std::is_same_v<E, FieldValue>)
      noteNonFinite(v, *t);
    env[v] = Val{std::move(t), d};
  }
  /// In the kernels' precision: a value the generated code stores to a tile
  /// or a kernel output is rounded to its element type. Values inside thread
  /// graphs live in f32 registers, accumulators and the matmuls only they
  /// read in f32 buffers (mb::keptInF32).
  void roundStored(Value v, T &t) {
    if (isa<BlockArgument>(v) || mb::keptInF32(v))
      return;
    if (isa_and_nonnull<mt::ThreadGraphOp>(v.getParentRegion()->getParentOp()))
      return;
    Type elem = cast<RankedTensorType>(v.getType()).getElementType();
    if (!elem.isF16() && !elem.isBF16())
      return;
    for (E &x : t.data)
      x = roundToElementType(x, elem);
  }
  /// Records the first op whose result holds a NaN or an infinity.
  void noteNonFinite(Value v, const T &t) {
    if (!realInfo || realInfo->firstNonFinite)
      return;
    for (E x : t.data) {
      if (std::isfinite(x))
        continue;
      realInfo->firstNonFinite = v.getDefiningOp();
      realInfo->firstNonFiniteIsNaN = std::isnan(x);
      return;
    }
  }

  LogicalResult evalBlockOps(Block &block);
  LogicalResult evalOp(Operation &op);
  LogicalResult evalElementwise(Operation &op, ElementwiseOpInterface ew);
  LogicalResult evalMatmul(Operation &op);
  LogicalResult evalReduce(Operation &op, int64_t dim, bool isMax);
  LogicalResult evalRmsNorm(Operation &op, Value input, Value weight,
                            double eps);
  LogicalResult evalConcat(Operation &op, int64_t dim);
  LogicalResult evalTranspose(Operation &op, ArrayRef<int64_t> perm);
  LogicalResult evalReshape(Operation &op, ArrayRef<int64_t> shape);
  /// The finite field's stand-in for an infinite band_mask fill (times its
  /// sign): a value without an exact field image.
  static constexpr double kInfiniteFillStandIn =
      FieldDomain::kInfiniteFillStandIn;
  /// band_mask (mk: `origin` all zeros; mb: the tile's origin in the masked
  /// tensor, from its imap/fmap as for an input iterator).
  LogicalResult evalBandMask(Operation &op, ArrayRef<int64_t> dims,
                             std::optional<int64_t> lower,
                             std::optional<int64_t> upper, double fill,
                             bool additive, ArrayRef<int64_t> origin);
  /// mb.tail_mask: the elements of this trip past the walked extent
  /// ([B27]) become `fill`.
  LogicalResult evalTailMask(mb::TailMaskOp op);
  /// The origin of a tile of `tileShape` placed by `imap`/`fmap` in the
  /// current block and iteration (DESIGN §3.2).
  SmallVector<int64_t, 4> tileOrigin(ArrayRef<int64_t> tileShape,
                                     ArrayRef<int64_t> imap, int64_t fmap,
                                     int64_t forloop) const;
  LogicalResult evalThreadGraph(mt::ThreadGraphOp tg);
  LogicalResult evalKernel(GraphKernelOpInterface kernel);
  /// Where each saver's result is returned by the block graph.
  using SaverIndex = llvm::DenseMap<Operation *, SmallVector<unsigned, 1>>;
  /// Runs the block graph `body` for the block at `blockIdx` and stores its
  /// saved tiles into `outputs`.
  LogicalResult evalBlock(Block &body, const SaverIndex &saverIndex,
                          ArrayRef<std::shared_ptr<T>> outputs,
                          MutableArrayRef<Degree> outDegs, int64_t forloop);
  /// Whether blocks with different indices save disjoint tiles (each grid
  /// dim of size > 1 is mapped to its own output dim by every saver).
  static bool saversWriteDisjointTiles(Block &body, ArrayRef<int64_t> grid);
  /// Evaluates the blocks [begin, end) (in the grid's linear order) on two
  /// threads, with the result of a sequential run.
  LogicalResult evalBlocksInParallel(Block &body, ArrayRef<int64_t> grid,
                                     int64_t begin, int64_t end,
                                     const SaverIndex &saverIndex,
                                     ArrayRef<std::shared_ptr<T>> outputs,
                                     MutableArrayRef<Degree> outDegs,
                                     int64_t forloop);
  /// A kernel whose first block takes at least this long has its other
  /// blocks evaluated on two threads: below it a thread costs more than it
  /// saves.
  static constexpr double kParallelBlockSeconds = 2e-4;
  LogicalResult evalLoop(mb::ForLoopOp loop, int64_t forloop);
  LogicalResult evalInputIter(mb::InputIterOp it, int64_t forloop);
  /// The tabulated view of an input iterator or output saver with a `view`
  /// over a logical tensor of `logical` and a device tensor of `device`
  /// (cached per op), or null after reporting why it cannot be read.
  const ViewTables *viewTables(Operation *op, AffineMap map,
                               ArrayRef<int64_t> logical,
                               ArrayRef<int64_t> device);
  llvm::DenseMap<Operation *, std::unique_ptr<ViewTables>> views;

  std::shared_ptr<T> unary(ElementwiseKind kind, ArrayRef<double> params,
                           const T &x, Degree dx, Degree &dr);
  /// Applies `f` element by element with numpy broadcasting, or returns null
  /// when the shapes do not broadcast.
  template <typename F>
  std::shared_ptr<T> broadcast(const T &a, const T &b, F f);
  std::shared_ptr<T> binary(ElementwiseKind kind, ArrayRef<double> params,
                            const T &a, const T &b);
  std::shared_ptr<T> broadcastTo(const T &a, ArrayRef<int64_t> shape) {
    T shaped(shape, dom.zero());
    return broadcast(a, shaped, [](E x, E) { return x; });
  }
  /// Sums `x` over its last dim folded into `groups` entries.
  std::shared_ptr<T> sumLast(const T &x, int64_t groups, bool squares);

  /// A constant with an exact image has degree 0; one with a random image
  /// is one more variable (degree 1) in the Schwartz-Zippel bound.
  Degree constantDeg(double c) const {
    return dom.isExactConstant(c) ? constDeg() : freshDeg();
  }

  void noteExp(Degree arg) {
    if (info) {
      info->usesExp = true;
      info->maxExpArgDegree =
          std::max(info->maxExpArgDegree, arg.num + arg.den);
    }
  }

  Dom &dom;
  EvalError &error;
  FieldEvalInfo *info;
  RealEvalInfo *realInfo;
  Deadline deadline;
  llvm::DenseMap<Value, Val> env;
  /// Index of the thread block and loop iteration being evaluated.
  std::array<int64_t, 3> blockIdx = {0, 0, 0};
  int64_t iteration = 0;

  //===--------------------------------------------------------------------===//
  // Reuse of block-invariant values. A value of a block graph depends only
  // on the block indices of the grid dims its input iterators partition
  // (imap) and on the iteration; blocks that agree on those dims compute the
  // same tile. Such values are computed by the first of those blocks and
  // reused by the others (e.g. a candidate that recomputes exp(X.A) in every
  // block along another grid dim). Values equal by construction: the
  // semantics, and so every verdict, are unchanged.
  //===--------------------------------------------------------------------===//

  /// Per op of the current kernel's block graph: the grid dims (bit g) its
  /// results depend on, and whether they depend on the loop iteration
  /// (kIterationDep).
  llvm::DenseMap<Operation *, unsigned> gridDeps;
  /// The grid dims of size > 1 of the current kernel.
  unsigned kernelGridMask = 0;
  static constexpr unsigned kIterationDep = 1u << 3;
  using ReuseKey = std::tuple<Operation *, int64_t, int64_t, int64_t, int64_t>;
  std::map<ReuseKey, SmallVector<Val, 1>> reused;
  int64_t reusedElements = 0;
  /// Bound on the elements held for reuse in one kernel.
  static constexpr int64_t kMaxReusedElements = int64_t(1) << 25;

  void computeGridDeps(Block &body, ArrayRef<int64_t> grid);
  /// Whether `op`'s results can be taken from (or saved for) another block.
  bool isReusable(Operation &op) const;
  ReuseKey reuseKey(Operation &op, int64_t iter) const;
  /// Sets `op`'s results from an earlier block; false if there is none.
  bool takeReused(Operation &op, int64_t iter);
  void saveReused(Operation &op, int64_t iter);
  /// Whether every user of `op` in its block is reusable, so that the users'
  /// results, not `op`'s, are the ones worth keeping.
  bool onlyFeedsReusable(Operation &op) const;
  /// Whether `op` need not be evaluated in this block and iteration: each of
  /// its users takes its results from an earlier block or is itself not
  /// needed (an input tile that only feeds a reused matmul).
  bool isUnneeded(Operation &op, int64_t iter);
  /// Memo of isUnneeded for the block and iteration in `unneededAt`.
  llvm::DenseMap<Operation *, bool> unneeded;
  std::array<int64_t, 4> unneededAt = {-1, -1, -1, -1};
  /// Evaluates `op` of a block graph (loop body when `iter >= 0`), reusing
  /// its results from an earlier block when they are block-invariant.
  LogicalResult evalBlockGraphOp(Operation &op, int64_t iter, int64_t forloop);
  GraphKernelOpInterface currentKernel;
};

template <typename Dom>
template <typename F>
std::shared_ptr<Tensor<typename Dom::Elem>>
Evaluator<Dom>::broadcast(const T &a, const T &b, F f) {
  if (a.shape == b.shape) {
    auto r = std::make_shared<T>(a.shape);
    for (int64_t i = 0, n = a.numElements(); i < n; ++i)
      r->data[i] = f(a.data[i], b.data[i]);
    return r;
  }
  if (a.shape.size() != b.shape.size())
    return nullptr;
  SmallVector<int64_t, 4> shape;
  for (auto [x, y] : llvm::zip_equal(a.shape, b.shape)) {
    if (x != y && x != 1 && y != 1)
      return nullptr;
    shape.push_back(std::max(x, y));
  }
  auto r = std::make_shared<T>(shape);
  Shape4 sa = pad4(a.shape), sb = pad4(b.shape), so = pad4(shape);
  Shape4 ta = stridesOf(sa), tb = stridesOf(sb);
  for (int d = 0; d < 4; ++d) {
    if (sa[d] == 1)
      ta[d] = 0;
    if (sb[d] == 1)
      tb[d] = 0;
  }
  E *out = r->data.data();
  for (int64_t i0 = 0; i0 < so[0]; ++i0)
    for (int64_t i1 = 0; i1 < so[1]; ++i1)
      for (int64_t i2 = 0; i2 < so[2]; ++i2) {
        const E *pa = a.data.data() + i0 * ta[0] + i1 * ta[1] + i2 * ta[2];
        const E *pb = b.data.data() + i0 * tb[0] + i1 * tb[1] + i2 * tb[2];
        for (int64_t i3 = 0; i3 < so[3]; ++i3)
          *out++ = f(pa[i3 * ta[3]], pb[i3 * tb[3]]);
      }
  return r;
}

} // namespace mirage::verify::detail

#endif // MIRAGE_LIB_VERIFY_EVALUATOR_H
