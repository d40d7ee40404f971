//===- Interpreter.cpp - Evaluate mk/mb/mt programs -----------------------===//
//
// One evaluator, templated over a value domain (f64 or the finite field).
// Element-wise ops dispatch on ElementwiseOpInterface, accumulators on
// AccumulatorOpInterface and graph-defined kernels on GraphKernelOpInterface;
// the remaining tensor ops (matmul, reductions, rms_norm, concat, transpose)
// have one handler shared by their mk and mb forms.
//
// Thread graphs are evaluated one body op at a time over whole (broadcast)
// tiles rather than one element at a time: the result is the same element by
// element, and it lets division use batch inversion.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Verify/Interpreter.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include <cmath>

#include "Mirage/Dialect/Block/IR/Block.h"
#include "Mirage/Dialect/Kernel/IR/Kernel.h"
#include "Mirage/Dialect/Thread/IR/Thread.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <tuple>
#include <memory>
#include <mutex>
#include <sys/mman.h>
#include <thread>
#include <type_traits>

using namespace mlir;
using namespace mirage;
using namespace mirage::verify;

//===----------------------------------------------------------------------===//
// Value domains
//===----------------------------------------------------------------------===//

namespace {

/// A failure raised inside a domain operation; the evaluator attaches the op.
struct DomainError {
  EvalErrorKind kind;
  std::string message;
};

/// Real numbers as `F`: f64 for the reference numerics, f32 for the kernels'
/// precision (where the evaluator also rounds stored values to their element
/// type, see Evaluator::set).
template <typename F> class RealDomain {
public:
  using Elem = F;
  /// Values stored to tiles and kernel outputs are rounded to their element
  /// type (the f32 domain models the generated code).
  static constexpr bool kRoundsStorage = std::is_same_v<F, float>;

  std::optional<DomainError> err;

  Elem zero() const { return 0; }
  Elem constant(double c) const { return static_cast<F>(c); }
  Elem recip(int64_t n) const { return F(1) / static_cast<F>(n); }
  Elem sqrt2OverPi() const { return static_cast<F>(std::sqrt(2.0 / M_PI)); }
  Elem add(Elem a, Elem b) const { return a + b; }
  Elem sub(Elem a, Elem b) const { return a - b; }
  Elem mul(Elem a, Elem b) const { return a * b; }
  Elem neg(Elem a) const { return -a; }
  Elem exp(Elem a) { return std::exp(a); }
  Elem sqrt(Elem a) const { return std::sqrt(a); }
  Elem pow(Elem a, Elem b) const { return std::pow(a, b); }
  Elem max(Elem a, Elem b) const { return a >= b ? a : b; }
  Elem min(Elem a, Elem b) const { return a <= b ? a : b; }
  bool isExactConstant(double) const { return true; }
  /// Division by zero gives an infinity here, as in IEEE arithmetic.
  template <typename V> void invertAll(V &v) {
    for (Elem &x : v)
      x = F(1) / x;
  }
  /// Sequential accumulation over k in `F` (f32 accumulation of the
  /// generated code in the f32 domain).
  void matmul(const Elem *a, const Elem *b, Elem *c, int64_t m, int64_t k,
              int64_t n) const {
    std::fill(c, c + m * n, F(0));
    for (int64_t i = 0; i < m; ++i)
      for (int64_t l = 0; l < k; ++l) {
        Elem x = a[i * k + l];
        const Elem *row = b + l * n;
        Elem *out = c + i * n;
        for (int64_t j = 0; j < n; ++j)
          out[j] += x * row[j];
      }
  }
};
using FloatDomain = RealDomain<double>;
using KernelPrecisionDomain = RealDomain<float>;

/// Pairs (a mod p, b mod q), see Field.h.
class FieldDomain {
public:
  using Elem = FieldValue;
  static constexpr bool kRoundsStorage = false;

  explicit FieldDomain(const FieldTest &test) : test(test) {}

  std::optional<DomainError> err;

  Elem zero() const { return {0, 0}; }
  Elem constant(double c) {
    uint64_t bits;
    std::memcpy(&bits, &c, sizeof(bits));
    auto it = constants.find(bits);
    if (it != constants.end())
      return it->second;
    FieldValue v = test.constant(c);
    constants[bits] = v;
    return v;
  }
  /// Whether `c` has an exact image; otherwise it is a random element that
  /// counts as one more variable in the degree bound.
  bool isExactConstant(double c) const {
    return exactFieldImage(c).has_value();
  }
  Elem recip(int64_t n) const { return fieldInv(fieldFromInt(n)); }
  Elem sqrt2OverPi() const { return test.getSqrt2OverPi(); }
  Elem add(Elem a, Elem b) const { return fieldAdd(a, b); }
  Elem sub(Elem a, Elem b) const { return fieldSub(a, b); }
  Elem mul(Elem a, Elem b) const { return fieldMul(a, b); }
  Elem neg(Elem a) const { return fieldNeg(a); }
  Elem exp(Elem a) {
    if (!a.hasQ()) {
      if (!err)
        err = DomainError{EvalErrorKind::OutsideFragment,
                          "exp of a value whose exponent component is "
                          "undefined (a second exp on one path): outside the "
                          "verifiable fragment"};
      return {1, kUndefinedQ};
    }
    return {test.omegaPow(a.q), kUndefinedQ};
  }
  Elem sqrt(Elem a) const { return fieldSqrt(a); }
  /// pow has no field image; it is a fixed random function of both
  /// arguments, so only identical uses compare equal.
  Elem pow(Elem a, Elem b) const {
    uint64_t h = mix64(mix64(a.p ^ test.getPowKey()) + b.p);
    uint64_t h2 = mix64(h ^ 0x5bd1e995ULL);
    return {h % kFieldP, static_cast<uint32_t>(h2 % kFieldQ)};
  }
  /// max and min under a random total order of the field: commutative,
  /// associative and idempotent like the real ones, so a maximum taken in
  /// tiles equals the maximum taken at once.
  Elem max(Elem a, Elem b) const { return before(a, b) ? b : a; }
  Elem min(Elem a, Elem b) const { return before(a, b) ? a : b; }
  template <typename V> void invertAll(V &v) {
    int64_t bad = fieldInvertAll(v.data(), v.size());
    if (bad >= 0 && !err)
      err = DomainError{EvalErrorKind::DivisionByZero,
                        "division by a value that is zero in the field "
                        "(element " +
                            std::to_string(bad) +
                            " of the divisor): outside the verifiable "
                            "fragment"};
  }
  void matmul(const Elem *a, const Elem *b, Elem *c, int64_t m, int64_t k,
              int64_t n) const {
    // Pack A's rows and B's columns into contiguous residue arrays (an
    // undefined q component counts as 0 and marks its row or column), then
    // compute dot products of up to 4 rows at once with lazy reduction:
    // products of p residues are < 2^102, so 2^24 of them fit in 128 bits.
    using U64 = std::vector<uint64_t, TensorAllocator<uint64_t>>;
    using U32 = std::vector<uint32_t, TensorAllocator<uint32_t>>;
    U64 ap(m * k), bp(n * k);
    U32 aq(m * k), bq(n * k);
    std::vector<char> rowUndef(m, 0), colUndef(n, 0);
    for (int64_t r = 0; r < m; ++r)
      for (int64_t i = r * k, e = i + k; i < e; ++i) {
        ap[i] = a[i].p;
        aq[i] = a[i].hasQ() ? a[i].q : 0;
        rowUndef[r] |= !a[i].hasQ();
      }
    // Transpose B in 32x32 blocks so that reads and writes stay in cache.
    constexpr int64_t kBlock = 32;
    for (int64_t l0 = 0; l0 < k; l0 += kBlock)
      for (int64_t j0 = 0; j0 < n; j0 += kBlock) {
        int64_t l1 = std::min(k, l0 + kBlock), j1 = std::min(n, j0 + kBlock);
        for (int64_t j = j0; j < j1; ++j)
          for (int64_t l = l0; l < l1; ++l) {
            const FieldValue &v = b[l * n + j];
            bp[j * k + l] = v.p;
            bq[j * k + l] = v.hasQ() ? v.q : 0;
            colUndef[j] |= !v.hasQ();
          }
      }
    constexpr int64_t kChunk = int64_t(1) << 24;
    for (int64_t j = 0; j < n; ++j) {
      const uint64_t *bpj = bp.data() + j * k;
      const uint32_t *bqj = bq.data() + j * k;
      for (int64_t i0 = 0; i0 < m; i0 += 4) {
        int rows = static_cast<int>(std::min<int64_t>(4, m - i0));
        uint64_t outP[4] = {0, 0, 0, 0};
        uint32_t outQ[4] = {0, 0, 0, 0};
        for (int64_t l0 = 0; l0 < k; l0 += kChunk) {
          int64_t len = std::min(kChunk, k - l0);
          uint128_t sp[4] = {0, 0, 0, 0}, sq[4] = {0, 0, 0, 0};
          const uint64_t *xp = bpj + l0;
          const uint32_t *xq = bqj + l0;
          if (rows == 4) {
            const uint64_t *a0 = ap.data() + i0 * k + l0, *a1 = a0 + k,
                           *a2 = a1 + k, *a3 = a2 + k;
            const uint32_t *q0 = aq.data() + i0 * k + l0, *q1 = q0 + k,
                           *q2 = q1 + k, *q3 = q2 + k;
            for (int64_t l = 0; l < len; ++l) {
              uint64_t y = xp[l];
              uint64_t z = xq[l];
              sp[0] += static_cast<uint128_t>(a0[l]) * y;
              sp[1] += static_cast<uint128_t>(a1[l]) * y;
              sp[2] += static_cast<uint128_t>(a2[l]) * y;
              sp[3] += static_cast<uint128_t>(a3[l]) * y;
              sq[0] += q0[l] * z;
              sq[1] += q1[l] * z;
              sq[2] += q2[l] * z;
              sq[3] += q3[l] * z;
            }
          } else {
            for (int r = 0; r < rows; ++r) {
              const uint64_t *ar = ap.data() + (i0 + r) * k + l0;
              const uint32_t *qr = aq.data() + (i0 + r) * k + l0;
              uint128_t s1 = 0, s2 = 0;
              for (int64_t l = 0; l < len; ++l) {
                s1 += static_cast<uint128_t>(ar[l]) * xp[l];
                s2 += static_cast<uint64_t>(qr[l]) * xq[l];
              }
              sp[r] = s1;
              sq[r] = s2;
            }
          }
          for (int r = 0; r < rows; ++r) {
            outP[r] = addModP(outP[r], reduceModP(sp[r]));
            outQ[r] = addModQ(outQ[r], reduceModQ(sq[r]));
          }
        }
        for (int r = 0; r < rows; ++r) {
          FieldValue &out = c[(i0 + r) * n + j];
          out.p = outP[r];
          out.q = rowUndef[i0 + r] || colUndef[j] ? kUndefinedQ : outQ[r];
        }
      }
    }
  }

private:
  bool before(Elem a, Elem b) const {
    uint64_t ka = test.orderKey(a), kb = test.orderKey(b);
    if (ka != kb)
      return ka < kb;
    return a.q < b.q;
  }

  const FieldTest &test;
  llvm::DenseMap<uint64_t, FieldValue> constants;
};

//===----------------------------------------------------------------------===//
// Degree bookkeeping (see Degree in Interpreter.h)
//===----------------------------------------------------------------------===//

Degree constDeg() { return {0, 0}; }
Degree addDeg(Degree a, Degree b) {
  if (a.den == 0 && b.den == 0)
    return {std::max(a.num, b.num), 0};
  return {std::max(a.num + b.den, b.num + a.den), a.den + b.den};
}
Degree mulDeg(Degree a, Degree b) { return {a.num + b.num, a.den + b.den}; }
Degree divDeg(Degree a, Degree b) { return {a.num + b.den, a.den + b.num}; }
/// A sum of `count` terms of degree `d` with possibly different denominators.
Degree sumDeg(Degree d, int64_t count) {
  if (d.den == 0)
    return d;
  double c = static_cast<double>(count);
  return {d.num + (c - 1) * d.den, c * d.den};
}
Degree sqrtDeg(Degree d) {
  return {std::ceil(d.num / 2), std::ceil(d.den / 2)};
}
Degree maxDeg(Degree a, Degree b) {
  return {std::max(a.num, b.num), std::max(a.den, b.den)};
}
Degree freshDeg() { return {1, 0}; }

//===----------------------------------------------------------------------===//
// Index helpers (rank <= 4; shapes are padded with leading 1s to rank 4)
//===----------------------------------------------------------------------===//

using Shape4 = std::array<int64_t, 4>;

Shape4 pad4(ArrayRef<int64_t> shape) {
  Shape4 r = {1, 1, 1, 1};
  size_t off = 4 - shape.size();
  for (size_t i = 0; i < shape.size(); ++i)
    r[off + i] = shape[i];
  return r;
}

Shape4 stridesOf(const Shape4 &s) {
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
        std::copy(s, s + ex[3], d);
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
            RealEvalInfo *realInfo = nullptr)
      : dom(dom), error(error), info(info), realInfo(realInfo) {}

  std::optional<std::vector<T>> run(func::FuncOp func, ArrayRef<T> inputs);

private:
  LogicalResult fail(Operation *op, EvalErrorKind kind, const Twine &msg) {
    error.kind = kind;
    error.op = op;
    error.message = msg.str();
    return failure();
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
  /// graphs live in f32 registers, accumulators in f32 buffers.
  void roundStored(Value v, T &t) {
    if (isa<BlockArgument>(v) || isa<AccumulatorOpInterface>(v.getDefiningOp()))
      return;
    if (isa_and_nonnull<mt::ThreadGraphOp>(
            v.getParentRegion()->getParentOp()))
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
  LogicalResult evalThreadGraph(mt::ThreadGraphOp tg);
  LogicalResult evalKernel(GraphKernelOpInterface kernel);
  LogicalResult evalLoop(mb::ForLoopOp loop, int64_t forloop);
  LogicalResult evalInputIter(mb::InputIterOp it, int64_t forloop);

  std::shared_ptr<T> unary(ElementwiseKind kind, ArrayRef<double> params,
                           const T &x, Degree dx, Degree &dr);
  /// Applies `f` element by element with numpy broadcasting, or returns null
  /// when the shapes do not broadcast.
  template <typename F>
  std::shared_ptr<T> broadcast(const T &a, const T &b, F f);
  std::shared_ptr<T> binary(ElementwiseKind kind, const T &a, const T &b);
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
  LogicalResult evalBlockGraphOp(Operation &op, int64_t iter,
                                 int64_t forloop);
  GraphKernelOpInterface currentKernel;
};

} // namespace

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

template <typename Dom>
std::shared_ptr<Tensor<typename Dom::Elem>>
Evaluator<Dom>::binary(ElementwiseKind kind, const T &a, const T &b) {
  switch (kind) {
  case ElementwiseKind::Add:
    return broadcast(a, b, [&](E x, E y) { return dom.add(x, y); });
  case ElementwiseKind::Sub:
    return broadcast(a, b, [&](E x, E y) { return dom.sub(x, y); });
  case ElementwiseKind::Mul:
    return broadcast(a, b, [&](E x, E y) { return dom.mul(x, y); });
  case ElementwiseKind::Div: {
    // Invert the divisor once (batch inversion), then multiply.
    T inv = b;
    dom.invertAll(inv.data);
    return broadcast(a, inv, [&](E x, E y) { return dom.mul(x, y); });
  }
  case ElementwiseKind::Pow:
    return broadcast(a, b, [&](E x, E y) { return dom.pow(x, y); });
  default:
    return nullptr;
  }
}

template <typename Dom>
std::shared_ptr<Tensor<typename Dom::Elem>>
Evaluator<Dom>::unary(ElementwiseKind kind, ArrayRef<double> params, const T &x,
                      Degree dx, Degree &dr) {
  auto r = std::make_shared<T>(x.shape);
  int64_t n = x.numElements();
  const typename T::Storage &in = x.data;
  typename T::Storage &out = r->data;
  auto map = [&](auto f) {
    for (int64_t i = 0; i < n; ++i)
      out[i] = f(in[i]);
  };
  E one = dom.constant(1.0);
  // silu, sigmoid and gelu are x^a / (1 + exp(-t)): fill `out` with the
  // denominators, invert them in one batch, then multiply.
  auto logistic = [&](auto t, bool timesX) {
    map([&](E v) { return dom.add(one, dom.exp(dom.neg(t(v)))); });
    dom.invertAll(out);
    if (timesX)
      for (int64_t i = 0; i < n; ++i)
        out[i] = dom.mul(in[i], out[i]);
  };
  dr = dx;
  switch (kind) {
  case ElementwiseKind::Exp:
    noteExp(dx);
    dr = freshDeg();
    map([&](E v) { return dom.exp(v); });
    break;
  case ElementwiseKind::Square:
    dr = mulDeg(dx, dx);
    map([&](E v) { return dom.mul(v, v); });
    break;
  case ElementwiseKind::Sqrt:
  case ElementwiseKind::Rsqrt:
    if (info)
      info->usesSqrt = true;
    dr = sqrtDeg(dx);
    map([&](E v) { return dom.sqrt(v); });
    if (kind == ElementwiseKind::Rsqrt) {
      dr = divDeg(constDeg(), dr);
      dom.invertAll(out);
    }
    break;
  case ElementwiseKind::Silu:
  case ElementwiseKind::Sigmoid:
    noteExp(dx);
    dr = divDeg(kind == ElementwiseKind::Silu ? dx : constDeg(),
                addDeg(constDeg(), freshDeg()));
    logistic([](E v) { return v; }, kind == ElementwiseKind::Silu);
    break;
  case ElementwiseKind::Gelu: {
    // 0.5 x (1 + tanh(z)) = x / (1 + exp(-2z)), z = s (x + 0.044715 x^3).
    E s = dom.mul(dom.constant(2.0), dom.sqrt2OverPi());
    E c = dom.constant(0.044715);
    noteExp(mulDeg(dx, mulDeg(dx, dx)));
    dr = divDeg(dx, addDeg(constDeg(), freshDeg()));
    logistic(
        [&](E v) {
          return dom.mul(s, dom.add(v, dom.mul(c, dom.mul(v, dom.mul(v, v)))));
        },
        true);
    break;
  }
  case ElementwiseKind::Relu: {
    if (info)
      info->usesOpaque = true;
    E z = dom.zero();
    map([&](E v) { return dom.max(v, z); });
    break;
  }
  case ElementwiseKind::Neg:
    map([&](E v) { return dom.neg(v); });
    break;
  case ElementwiseKind::MulScalar: {
    double value = params.empty() ? 1.0 : params[0];
    E c = dom.constant(value);
    dr = mulDeg(dx, constantDeg(value));
    map([&](E v) { return dom.mul(v, c); });
    break;
  }
  case ElementwiseKind::AddScalar: {
    double value = params.empty() ? 0.0 : params[0];
    E c = dom.constant(value);
    dr = addDeg(dx, constantDeg(value));
    map([&](E v) { return dom.add(v, c); });
    break;
  }
  case ElementwiseKind::Clamp: {
    if (info)
      info->usesOpaque = true;
    E lo = dom.constant(params.size() > 0 ? params[0] : 0.0);
    E hi = dom.constant(params.size() > 1 ? params[1] : 0.0);
    map([&](E v) { return dom.min(dom.max(v, lo), hi); });
    break;
  }
  default:
    return nullptr;
  }
  return r;
}

template <typename Dom>
LogicalResult Evaluator<Dom>::evalElementwise(Operation &op,
                                              ElementwiseOpInterface ew) {
  if (op.getNumResults() != 1)
    return fail(&op, EvalErrorKind::InvalidInput,
                "element-wise op must have one result");
  ElementwiseKind kind = ew.getElementwiseKind();
  std::shared_ptr<T> r;
  Degree dr;
  if (op.getNumOperands() == 1) {
    Val x;
    if (failed(get(&op, op.getOperand(0), x)))
      return failure();
    r = unary(kind, ew.getScalarParams(), *x.t, x.deg, dr);
  } else if (op.getNumOperands() == 2) {
    Val a, b;
    if (failed(get(&op, op.getOperand(0), a)) ||
        failed(get(&op, op.getOperand(1), b)))
      return failure();
    switch (kind) {
    case ElementwiseKind::Add:
    case ElementwiseKind::Sub:
      dr = addDeg(a.deg, b.deg);
      break;
    case ElementwiseKind::Mul:
      dr = mulDeg(a.deg, b.deg);
      break;
    case ElementwiseKind::Div:
      dr = divDeg(a.deg, b.deg);
      break;
    default:
      if (info)
        info->usesOpaque = true;
      dr = freshDeg();
      break;
    }
    r = binary(kind, *a.t, *b.t);
    if (!r && succeeded(checkDomain(&op)))
      return fail(&op, EvalErrorKind::InvalidInput,
                  "operand shapes do not broadcast");
  } else {
    return fail(&op, EvalErrorKind::InvalidInput,
                "element-wise op with an unexpected number of operands");
  }
  if (failed(checkDomain(&op)))
    return failure();
  if (!r)
    return fail(&op, EvalErrorKind::Unsupported,
                "element-wise kind '" + stringifyElementwiseKind(kind) +
                    "' has no evaluation rule");
  set(op.getResult(0), std::move(r), dr);
  return success();
}

template <typename Dom>
LogicalResult Evaluator<Dom>::evalMatmul(Operation &op) {
  Val a, b;
  if (failed(get(&op, op.getOperand(0), a)) ||
      failed(get(&op, op.getOperand(1), b)))
    return failure();
  const T &x = *a.t, &y = *b.t;
  size_t rank = x.shape.size();
  if (rank < 2 || y.shape.size() != rank ||
      x.shape[rank - 1] != y.shape[rank - 2] ||
      !std::equal(x.shape.begin(), x.shape.end() - 2, y.shape.begin()))
    return fail(&op, EvalErrorKind::InvalidInput,
                "matmul operand shapes do not match");
  int64_t m = x.shape[rank - 2], k = x.shape[rank - 1], n = y.shape[rank - 1];
  SmallVector<int64_t, 4> shape(x.shape.begin(), x.shape.end() - 1);
  shape.push_back(n);
  auto r = std::make_shared<T>(shape);
  int64_t batches = r->numElements() / (m * n);
  for (int64_t bi = 0; bi < batches; ++bi)
    dom.matmul(x.data.data() + bi * m * k, y.data.data() + bi * k * n,
               r->data.data() + bi * m * n, m, k, n);
  set(op.getResult(0), std::move(r), sumDeg(mulDeg(a.deg, b.deg), k));
  return success();
}

template <typename Dom>
LogicalResult Evaluator<Dom>::evalReduce(Operation &op, int64_t dim,
                                         bool isMax) {
  Val a;
  if (failed(get(&op, op.getOperand(0), a)))
    return failure();
  const T &x = *a.t;
  int64_t rank = x.shape.size();
  if (dim < 0 || dim >= rank)
    return fail(&op, EvalErrorKind::InvalidInput, "reduced dim out of range");
  int64_t outer = 1, inner = 1, n = x.shape[dim];
  for (int64_t d = 0; d < dim; ++d)
    outer *= x.shape[d];
  for (int64_t d = dim + 1; d < rank; ++d)
    inner *= x.shape[d];
  SmallVector<int64_t, 4> shape(x.shape);
  shape[dim] = 1;
  auto r = std::make_shared<T>(shape);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      const E *src = x.data.data() + o * n * inner + i;
      E acc = src[0];
      for (int64_t j = 1; j < n; ++j)
        acc =
            isMax ? dom.max(acc, src[j * inner]) : dom.add(acc, src[j * inner]);
      r->data[o * inner + i] = acc;
    }
  if (isMax && info)
    info->usesOpaque = true;
  set(op.getResult(0), std::move(r), isMax ? a.deg : sumDeg(a.deg, n));
  return success();
}

template <typename Dom>
std::shared_ptr<Tensor<typename Dom::Elem>>
Evaluator<Dom>::sumLast(const T &x, int64_t groups, bool squares) {
  int64_t n = x.shape.back();
  int64_t rows = x.numElements() / n, per = n / groups;
  SmallVector<int64_t, 4> shape(x.shape);
  shape.back() = groups;
  auto r = std::make_shared<T>(shape, dom.zero());
  for (int64_t row = 0; row < rows; ++row)
    for (int64_t g = 0; g < groups; ++g) {
      const E *src = x.data.data() + row * n + g * per;
      E acc = dom.zero();
      for (int64_t j = 0; j < per; ++j)
        acc = dom.add(acc, squares ? dom.mul(src[j], src[j]) : src[j]);
      r->data[row * groups + g] = acc;
    }
  return r;
}

template <typename Dom>
LogicalResult Evaluator<Dom>::evalRmsNorm(Operation &op, Value input,
                                          Value weight, double eps) {
  Val a, w;
  if (failed(get(&op, input, a)) || (weight && failed(get(&op, weight, w))))
    return failure();
  const T &x = *a.t;
  int64_t n = x.shape.back();
  // rms = sqrt(sum(x^2) / n + eps); y = x * (1 / rms) [* weight].
  std::shared_ptr<T> s = sumLast(x, 1, /*squares=*/true);
  E invN = dom.recip(n), e = dom.constant(eps);
  for (E &v : s->data)
    v = dom.sqrt(dom.add(dom.mul(v, invN), e));
  dom.invertAll(s->data);
  if (failed(checkDomain(&op)))
    return failure();
  auto r = std::make_shared<T>(x.shape);
  const E *wd = weight ? w.t->data.data() : nullptr;
  if (weight && w.t->numElements() != n)
    return fail(&op, EvalErrorKind::InvalidInput,
                "rms_norm weight must have the size of the last dim");
  for (int64_t i = 0, total = x.numElements(); i < total; ++i) {
    E v = dom.mul(x.data[i], s->data[i / n]);
    r->data[i] = wd ? dom.mul(v, wd[i % n]) : v;
  }
  if (info)
    info->usesSqrt = true;
  Degree rms = sqrtDeg(addDeg(sumDeg(mulDeg(a.deg, a.deg), n), constDeg()));
  Degree d = divDeg(a.deg, rms);
  if (weight)
    d = mulDeg(d, w.deg);
  set(op.getResult(0), std::move(r), d);
  return success();
}

template <typename Dom>
LogicalResult Evaluator<Dom>::evalConcat(Operation &op, int64_t dim) {
  SmallVector<Val> parts;
  for (Value v : op.getOperands()) {
    Val p;
    if (failed(get(&op, v, p)))
      return failure();
    parts.push_back(p);
  }
  auto resultType = cast<RankedTensorType>(op.getResult(0).getType());
  auto r = std::make_shared<T>(resultType.getShape());
  SmallVector<int64_t, 4> off(resultType.getRank(), 0), zero(off);
  Degree d = constDeg();
  for (const Val &p : parts) {
    if (p.t->shape.size() != off.size() ||
        off[dim] + p.t->shape[dim] > resultType.getDimSize(dim))
      return fail(&op, EvalErrorKind::InvalidInput,
                  "concat operand shapes do not match the result");
    copyBox(p.t->data.data(), p.t->shape, zero, r->data.data(), r->shape, off,
            p.t->shape);
    off[dim] += p.t->shape[dim];
    d = maxDeg(d, p.deg);
  }
  set(op.getResult(0), std::move(r), d);
  return success();
}

template <typename Dom>
LogicalResult Evaluator<Dom>::evalTranspose(Operation &op,
                                            ArrayRef<int64_t> perm) {
  Val a;
  if (failed(get(&op, op.getOperand(0), a)))
    return failure();
  const T &x = *a.t;
  size_t rank = x.shape.size();
  llvm::SmallBitVector seen(rank);
  for (int64_t p : perm) {
    if (perm.size() != rank || p < 0 || p >= static_cast<int64_t>(rank) ||
        seen.test(p))
      return fail(&op, EvalErrorKind::InvalidInput,
                  "transpose perm is not a permutation of the dims");
    seen.set(p);
  }
  if (perm.size() != rank)
    return fail(&op, EvalErrorKind::InvalidInput,
                "transpose perm is not a permutation of the dims");
  SmallVector<int64_t, 4> shape;
  for (int64_t p : perm)
    shape.push_back(x.shape[p]);
  auto r = std::make_shared<T>(shape);
  // Result dim k walks input dim perm[k]: its stride is that dim's stride.
  Shape4 inStrides = stridesOf(pad4(x.shape)), outShape = pad4(shape);
  Shape4 st = {0, 0, 0, 0};
  size_t off = 4 - rank;
  for (size_t k = 0; k < rank; ++k)
    st[off + k] = inStrides[off + perm[k]];
  E *out = r->data.data();
  for (int64_t i0 = 0; i0 < outShape[0]; ++i0)
    for (int64_t i1 = 0; i1 < outShape[1]; ++i1)
      for (int64_t i2 = 0; i2 < outShape[2]; ++i2)
        for (int64_t i3 = 0; i3 < outShape[3]; ++i3)
          *out++ = x.data[i0 * st[0] + i1 * st[1] + i2 * st[2] + i3 * st[3]];
  set(op.getResult(0), std::move(r), a.deg);
  return success();
}

template <typename Dom>
LogicalResult Evaluator<Dom>::evalThreadGraph(mt::ThreadGraphOp tg) {
  Block &body = tg.getBody().front();
  for (auto [arg, in] : llvm::zip(body.getArguments(), tg.getInputs())) {
    Val v;
    if (failed(get(tg, in, v)))
      return failure();
    env[arg] = v;
  }
  if (failed(evalBlockOps(body)))
    return failure();
  auto yield = dyn_cast<mt::YieldOp>(body.getTerminator());
  if (!yield || yield.getValues().size() != tg.getNumResults())
    return fail(tg, EvalErrorKind::InvalidInput,
                "thread graph must end in mt.yield of its results");
  for (auto [res, v] : llvm::zip(tg.getResults(), yield.getValues())) {
    Val val;
    if (failed(get(yield, v, val)))
      return failure();
    auto shape = cast<RankedTensorType>(res.getType()).getShape();
    std::shared_ptr<T> full = broadcastTo(*val.t, shape);
    if (!full)
      return fail(tg, EvalErrorKind::InvalidInput,
                  "thread-graph value does not broadcast to the result shape");
    set(res, std::move(full), val.deg);
  }
  return success();
}

template <typename Dom>
LogicalResult Evaluator<Dom>::evalInputIter(mb::InputIterOp it,
                                            int64_t forloop) {
  Val in;
  if (failed(get(it, it.getInput(), in)))
    return failure();
  const T &x = *in.t;
  auto tileShape = it.getTile().getType().getShape();
  if (tileShape.size() != x.shape.size())
    return fail(it, EvalErrorKind::InvalidInput, "tile rank mismatch");
  ArrayRef<int64_t> imap = it.getImap();
  int64_t fmap = it.getFmap();
  // Tile origin (DESIGN §3.2): off[imap[g]] = b_g; off[fmap] = off[fmap]*F+i;
  // off[k] *= tile[k].
  SmallVector<int64_t, 4> off(x.shape.size(), 0);
  for (int g = 0; g < 3 && g < static_cast<int>(imap.size()); ++g)
    if (imap[g] >= 0)
      off[imap[g]] = blockIdx[g];
  if (fmap >= 0)
    off[fmap] = off[fmap] * forloop + iteration;
  for (size_t k = 0; k < off.size(); ++k) {
    off[k] *= tileShape[k];
    if (off[k] + tileShape[k] > x.shape[k])
      return fail(it, EvalErrorKind::InvalidInput,
                  "tile lies outside the input tensor");
  }
  if (ArrayRef<int64_t>(x.shape) == tileShape) {
    env[it.getTile()] = in;
    return success();
  }
  auto r = std::make_shared<T>(tileShape);
  SmallVector<int64_t, 4> zero(off.size(), 0);
  copyBox(x.data.data(), x.shape, off, r->data.data(), r->shape, zero,
          tileShape);
  set(it.getTile(), std::move(r), in.deg);
  return success();
}

template <typename Dom>
LogicalResult Evaluator<Dom>::evalLoop(mb::ForLoopOp loop, int64_t forloop) {
  Block &body = loop.getBody().front();
  auto yield = dyn_cast<mb::YieldOp>(body.getTerminator());
  if (!yield)
    return fail(loop, EvalErrorKind::InvalidInput,
                "for-loop body must end in mb.yield");
  struct AccState {
    AccumulatorOpInterface op;
    std::shared_ptr<T> acc, runMax;
    Degree deg;
  };
  SmallVector<AccState> accs;
  llvm::DenseMap<Operation *, unsigned> accIndex;
  for (Operation &op : body.without_terminator())
    if (auto acc = dyn_cast<AccumulatorOpInterface>(op)) {
      accIndex[&op] = accs.size();
      accs.push_back({acc, nullptr, nullptr, constDeg()});
    }

  for (iteration = 0; iteration < forloop; ++iteration) {
    for (Operation &op : body.without_terminator()) {
      auto accOp = dyn_cast<AccumulatorOpInterface>(op);
      if (!accOp) {
        if (failed(evalBlockGraphOp(op, iteration, forloop)))
          return failure();
        continue;
      }
      AccState &st = accs[accIndex[&op]];
      Val x;
      if (failed(get(&op, accOp.getAccumulated(), x)))
        return failure();
      AccumulatorKind kind = accOp.getAccumulatorKind();
      std::shared_ptr<T> term;
      Degree d = x.deg;
      int64_t n = x.t->shape.back();
      switch (kind) {
      case AccumulatorKind::Sum:
        term = std::make_shared<T>(*x.t);
        d = sumDeg(x.deg, forloop);
        break;
      case AccumulatorKind::SumLast:
      case AccumulatorKind::MeanLast:
        term = sumLast(*x.t, 1, false);
        d = sumDeg(x.deg, forloop * n);
        break;
      case AccumulatorKind::RmsLast:
        term = sumLast(*x.t, 1, true);
        d = sumDeg(mulDeg(x.deg, x.deg), forloop * n);
        break;
      case AccumulatorKind::SumTo: {
        int64_t dimx =
            cast<RankedTensorType>(op.getResult(0).getType()).getShape().back();
        if (dimx < 1 || n % dimx != 0)
          return fail(&op, EvalErrorKind::InvalidInput,
                      "sum_to width must divide the last dim");
        term = sumLast(*x.t, dimx, false);
        d = sumDeg(x.deg, forloop * (n / dimx));
        break;
      }
      case AccumulatorKind::Max:
        if (info)
          info->usesOpaque = true;
        if (!st.acc) {
          st.acc = std::make_shared<T>(*x.t);
        } else {
          for (int64_t i = 0, e = x.t->numElements(); i < e; ++i)
            st.acc->data[i] = dom.max(st.acc->data[i], x.t->data[i]);
        }
        st.deg = maxDeg(st.deg, x.deg);
        continue;
      case AccumulatorKind::RescaledSum: {
        // acc' = acc * exp(M - M') + x * exp(m - M'), M' = max(M, m).
        Val m;
        if (op.getNumOperands() < 2 || failed(get(&op, op.getOperand(1), m)))
          return fail(&op, EvalErrorKind::InvalidInput,
                      "rescaled_sum needs the maximum operand");
        if (info)
          info->usesOpaque = true;
        if (!st.acc) {
          st.acc = std::make_shared<T>(x.t->shape, dom.zero());
          st.runMax = std::make_shared<T>(*m.t);
        }
        auto newMax = broadcast(*st.runMax, *m.t,
                                [&](E u, E v) { return dom.max(u, v); });
        auto oldScale = broadcast(*st.runMax, *newMax, [&](E u, E v) {
          return dom.exp(dom.sub(u, v));
        });
        auto newScale = broadcast(
            *m.t, *newMax, [&](E u, E v) { return dom.exp(dom.sub(u, v)); });
        noteExp(m.deg);
        auto kept = broadcast(*st.acc, *oldScale,
                              [&](E u, E v) { return dom.mul(u, v); });
        auto added =
            broadcast(*x.t, *newScale, [&](E u, E v) { return dom.mul(u, v); });
        if (!newMax || !oldScale || !newScale || !kept || !added ||
            kept->shape != added->shape)
          return fail(&op, EvalErrorKind::InvalidInput,
                      "rescaled_sum operand shapes do not broadcast");
        for (int64_t i = 0, e = kept->numElements(); i < e; ++i)
          kept->data[i] = dom.add(kept->data[i], added->data[i]);
        st.acc = kept;
        st.runMax = newMax;
        st.deg = sumDeg(mulDeg(x.deg, freshDeg()), forloop);
        if (failed(checkDomain(&op)))
          return failure();
        continue;
      }
      }
      if (!st.acc) {
        st.acc = term;
      } else {
        if (st.acc->shape != term->shape)
          return fail(&op, EvalErrorKind::InvalidInput,
                      "accumulated value changes shape between iterations");
        for (int64_t i = 0, e = term->numElements(); i < e; ++i)
          st.acc->data[i] = dom.add(st.acc->data[i], term->data[i]);
      }
      st.deg = d;
    }
  }

  // Post-processing after the last iteration.
  for (AccState &st : accs) {
    Operation *op = st.op;
    if (!st.acc)
      return fail(op, EvalErrorKind::InvalidInput,
                  "accumulator never ran (forloop < 1)");
    AccumulatorKind kind = st.op.getAccumulatorKind();
    if (kind == AccumulatorKind::MeanLast || kind == AccumulatorKind::RmsLast) {
      int64_t n = cast<RankedTensorType>(st.op.getAccumulated().getType())
                      .getShape()
                      .back();
      E scale = dom.recip(forloop * n);
      E eps = dom.zero();
      if (auto rms = dyn_cast<mb::AccumRmsLastOp>(op))
        eps = dom.constant(rms.getEps().convertToDouble());
      for (E &v : st.acc->data) {
        v = dom.mul(v, scale);
        if (kind == AccumulatorKind::RmsLast)
          v = dom.sqrt(dom.add(v, eps));
      }
      if (kind == AccumulatorKind::RmsLast) {
        if (info)
          info->usesSqrt = true;
        st.deg = sqrtDeg(addDeg(st.deg, constDeg()));
      }
    }
    set(op->getResult(0), st.acc, st.deg);
  }
  for (auto [res, v] : llvm::zip(loop.getResults(), yield.getValues())) {
    Val val;
    if (failed(get(yield, v, val)))
      return failure();
    env[res] = val;
  }
  return success();
}

template <typename Dom>
void Evaluator<Dom>::computeGridDeps(Block &body, ArrayRef<int64_t> grid) {
  gridDeps.clear();
  reused.clear();
  reusedElements = 0;
  unneeded.clear();
  unneededAt = {-1, -1, -1, -1};
  kernelGridMask = 0;
  for (int g = 0; g < 3; ++g)
    if (grid[g] > 1)
      kernelGridMask |= 1u << g;
  auto depsOf = [&](Value v) -> unsigned {
    Operation *def = v.getDefiningOp();
    if (!def)
      return 0; // a kernel argument: the whole tensor, the same everywhere
    auto it = gridDeps.find(def);
    return it == gridDeps.end() ? kernelGridMask | kIterationDep : it->second;
  };
  // Ops in program order (loop body before the loop's results are used);
  // thread graphs count as one op.
  std::function<void(Block &)> visit = [&](Block &block) {
    for (Operation &op : block) {
      unsigned deps = 0;
      if (auto it = dyn_cast<mb::InputIterOp>(op)) {
        ArrayRef<int64_t> imap = it.getImap();
        for (int g = 0; g < 3 && g < static_cast<int>(imap.size()); ++g)
          if (imap[g] >= 0)
            deps |= 1u << g;
        deps &= kernelGridMask;
        if (it.getFmap() >= 0)
          deps |= kIterationDep;
      } else if (auto loop = dyn_cast<mb::ForLoopOp>(op)) {
        visit(loop.getBody().front());
        auto yield = cast<mb::YieldOp>(loop.getBody().front().getTerminator());
        for (Value v : yield.getValues())
          deps |= depsOf(v);
        deps &= ~kIterationDep; // accumulated over all iterations
      } else {
        for (Value v : op.getOperands())
          deps |= depsOf(v);
      }
      gridDeps[&op] = deps;
    }
  };
  visit(body);
}

template <typename Dom>
bool Evaluator<Dom>::isReusable(Operation &op) const {
  if (isa<AccumulatorOpInterface, mb::OutputSaverOp, mb::ForLoopOp,
          mb::YieldOp, mb::ReturnOp>(op))
    return false;
  auto it = gridDeps.find(&op);
  return it != gridDeps.end() &&
         (it->second & ~kIterationDep) != kernelGridMask;
}

template <typename Dom>
typename Evaluator<Dom>::ReuseKey
Evaluator<Dom>::reuseKey(Operation &op, int64_t iter) const {
  unsigned deps = gridDeps.lookup(&op);
  auto coord = [&](int g) { return (deps >> g) & 1 ? blockIdx[g] : 0; };
  // A value that does not depend on the iteration is kept once, not once
  // per iteration.
  return {&op, coord(0), coord(1), coord(2), deps & kIterationDep ? iter : -1};
}

template <typename Dom>
bool Evaluator<Dom>::takeReused(Operation &op, int64_t iter) {
  auto it = reused.find(reuseKey(op, iter));
  if (it == reused.end())
    return false;
  for (auto [res, val] : llvm::zip_equal(op.getResults(), it->second))
    env[res] = val;
  return true;
}

template <typename Dom>
void Evaluator<Dom>::saveReused(Operation &op, int64_t iter) {
  SmallVector<Val, 1> vals;
  int64_t elements = 0;
  for (Value res : op.getResults()) {
    const Val *v = lookup(res);
    if (!v)
      return;
    vals.push_back(*v);
    elements += v->t->numElements();
  }
  if (reusedElements + elements > kMaxReusedElements)
    return;
  reusedElements += elements;
  reused.emplace(reuseKey(op, iter), std::move(vals));
}

template <typename Dom>
bool Evaluator<Dom>::onlyFeedsReusable(Operation &op) const {
  Block *block = op.getBlock();
  for (Operation *user : op.getUsers()) {
    Operation *u = block->findAncestorOpInBlock(*user);
    if (!u || !isReusable(*u))
      return false;
  }
  return true;
}

template <typename Dom>
bool Evaluator<Dom>::isUnneeded(Operation &op, int64_t iter) {
  std::array<int64_t, 4> at = {blockIdx[0], blockIdx[1], blockIdx[2], iter};
  if (at != unneededAt) {
    unneeded.clear();
    unneededAt = at;
  }
  auto [it, inserted] = unneeded.try_emplace(&op, false);
  if (!inserted)
    return it->second;
  Block *block = op.getBlock();
  bool result = !op.use_empty();
  for (Operation *user : op.getUsers()) {
    Operation *u = block->findAncestorOpInBlock(*user);
    if (!u || !isReusable(*u) ||
        (!reused.count(reuseKey(*u, iter)) && !isUnneeded(*u, iter))) {
      result = false;
      break;
    }
  }
  unneeded[&op] = result;
  return result;
}

template <typename Dom>
LogicalResult Evaluator<Dom>::evalBlockGraphOp(Operation &op, int64_t iter,
                                               int64_t forloop) {
  bool reusable = isReusable(op);
  if (reusable && (takeReused(op, iter) || isUnneeded(op, iter)))
    return success();
  LogicalResult r = success();
  if (auto it = dyn_cast<mb::InputIterOp>(op))
    r = evalInputIter(it, forloop);
  else
    r = evalOp(op);
  // A value whose users are all reused is not needed again once they are
  // kept, so only the last reusable values on each path are held.
  if (succeeded(r) && reusable && !onlyFeedsReusable(op))
    saveReused(op, iter);
  return r;
}

template <typename Dom>
LogicalResult Evaluator<Dom>::evalKernel(GraphKernelOpInterface kernel) {
  Operation *kop = kernel;
  if (kop->getNumRegions() != 1 || kop->getRegion(0).empty())
    return fail(kop, EvalErrorKind::InvalidInput,
                "graph-defined kernel without a body");
  Block &body = kop->getRegion(0).front();
  ArrayRef<int64_t> grid = kernel.getGridDims();
  int64_t forloop = kernel.getForloopRange();
  if (grid.size() != 3 || forloop < 1 ||
      body.getNumArguments() != kop->getNumOperands())
    return fail(kop, EvalErrorKind::InvalidInput, "malformed kernel");
  for (auto [arg, operand] :
       llvm::zip(body.getArguments(), kop->getOperands())) {
    Val v;
    if (failed(get(kop, operand, v)))
      return failure();
    env[arg] = v;
  }
  auto ret = dyn_cast<mb::ReturnOp>(body.getTerminator());
  if (!ret || ret.getOutputs().size() != kop->getNumResults())
    return fail(kop, EvalErrorKind::InvalidInput,
                "block graph must end in mb.return of the kernel results");
  // Each saver's result is returned at some position; that is where the
  // blocks' tiles go.
  llvm::DenseMap<Operation *, SmallVector<unsigned, 1>> saverIndex;
  for (auto [i, v] : llvm::enumerate(ret.getOutputs()))
    if (Operation *def = v.getDefiningOp())
      saverIndex[def].push_back(i);
  SmallVector<std::shared_ptr<T>> outputs;
  SmallVector<Degree> outDegs(kop->getNumResults(), constDeg());
  for (Type t : kop->getResultTypes())
    outputs.push_back(
        std::make_shared<T>(cast<RankedTensorType>(t).getShape(), dom.zero()));

  GraphKernelOpInterface savedKernel = currentKernel;
  currentKernel = kernel;
  computeGridDeps(body, grid);
  // Frees the values held for reuse when the kernel is done (or fails).
  struct ReuseScope {
    Evaluator &ev;
    ~ReuseScope() {
      ev.reused.clear();
      ev.reusedElements = 0;
      ev.gridDeps.clear();
    }
  } reuseScope{*this};
  for (int64_t bz = 0; bz < grid[2]; ++bz)
    for (int64_t by = 0; by < grid[1]; ++by)
      for (int64_t bx = 0; bx < grid[0]; ++bx) {
        blockIdx = {bx, by, bz};
        for (Operation &op : body.without_terminator()) {
          if (auto loop = dyn_cast<mb::ForLoopOp>(op)) {
            if (failed(evalLoop(loop, forloop)))
              return failure();
            continue;
          }
          auto saver = dyn_cast<mb::OutputSaverOp>(op);
          if (!saver) {
            if (failed(evalBlockGraphOp(op, /*iter=*/-1, forloop)))
              return failure();
            continue;
          }
          auto idx = saverIndex.find(saver);
          if (idx == saverIndex.end())
            return fail(saver, EvalErrorKind::InvalidInput,
                        "output saver result is not returned");
          Val tile;
          if (failed(get(saver, saver.getInput(), tile)))
            return failure();
          // A saver may be returned at several positions: fill each.
          for (unsigned pos : idx->second) {
            T &out = *outputs[pos];
            ArrayRef<int64_t> omap = saver.getOmap();
            SmallVector<int64_t, 4> off(out.shape.size(), 0), zero(off);
            if (tile.t->shape.size() != out.shape.size())
              return fail(saver, EvalErrorKind::InvalidInput,
                          "tile rank differs from the output rank");
            for (int g = 0; g < 3 && g < static_cast<int>(omap.size()); ++g)
              if (omap[g] >= 0)
                off[omap[g]] = blockIdx[g] * tile.t->shape[omap[g]];
            for (size_t k = 0; k < off.size(); ++k)
              if (off[k] + tile.t->shape[k] > out.shape[k])
                return fail(saver, EvalErrorKind::InvalidInput,
                            "saved tile lies outside the output tensor");
            copyBox(tile.t->data.data(), tile.t->shape, zero, out.data.data(),
                    out.shape, off, tile.t->shape);
            outDegs[pos] = maxDeg(outDegs[pos], tile.deg);
          }
        }
      }
  currentKernel = savedKernel;
  for (auto [i, res] : llvm::enumerate(kop->getResults()))
    set(res, outputs[i], outDegs[i]);
  return success();
}

template <typename Dom>
LogicalResult Evaluator<Dom>::evalBlockOps(Block &block) {
  for (Operation &op : block.without_terminator())
    if (failed(evalOp(op)))
      return failure();
  return success();
}

template <typename Dom> LogicalResult Evaluator<Dom>::evalOp(Operation &op) {
  if (auto ew = dyn_cast<ElementwiseOpInterface>(op))
    return evalElementwise(op, ew);
  if (auto kernel = dyn_cast<GraphKernelOpInterface>(op))
    return evalKernel(kernel);
  return llvm::TypeSwitch<Operation *, LogicalResult>(&op)
      .template Case<mk::MatmulOp, mb::MatmulOp>(
          [&](auto) { return evalMatmul(op); })
      .template Case<mk::ReduceSumOp, mb::ReduceSumOp>(
          [&](auto r) { return evalReduce(op, r.getDim(), false); })
      .template Case<mk::ReduceMaxOp, mb::ReduceMaxOp>(
          [&](auto r) { return evalReduce(op, r.getDim(), true); })
      .template Case<mk::RmsNormOp, mb::RmsNormOp>([&](auto r) {
        return evalRmsNorm(op, r.getInput(), r.getWeight(),
                           r.getEps().convertToDouble());
      })
      .template Case<mk::ConcatOp, mb::ConcatOp>(
          [&](auto c) { return evalConcat(op, c.getDim()); })
      .template Case<mk::TransposeOp, mb::TransposeOp>(
          [&](auto t) { return evalTranspose(op, t.getPerm()); })
      .template Case<mt::ThreadGraphOp>(
          [&](auto tg) { return evalThreadGraph(tg); })
      .template Case<mb::InputIterOp, mb::ForLoopOp, mb::OutputSaverOp>(
          [&](auto) {
            return fail(&op, EvalErrorKind::InvalidInput,
                        "block-graph op outside its place in a graph-defined "
                        "kernel");
          })
      .Default([&](Operation *o) {
        return fail(o, EvalErrorKind::Unsupported,
                    "unsupported op '" + o->getName().getStringRef() +
                        "': the evaluator knows only mk, mb and mt ops");
      });
}

template <typename Dom>
std::optional<std::vector<Tensor<typename Dom::Elem>>>
Evaluator<Dom>::run(func::FuncOp func, ArrayRef<T> inputs) {
  if (func.isExternal()) {
    (void)fail(func, EvalErrorKind::InvalidInput,
               "function '" + func.getSymName() + "' has no body");
    return std::nullopt;
  }
  if (std::optional<std::string> bad = checkSignature(func)) {
    (void)fail(func, EvalErrorKind::InvalidInput, *bad);
    return std::nullopt;
  }
  Block &body = func.getBody().front();
  if (inputs.size() != body.getNumArguments()) {
    (void)fail(func, EvalErrorKind::InvalidInput,
               "expected " + Twine(body.getNumArguments()) + " inputs, got " +
                   Twine(inputs.size()));
    return std::nullopt;
  }
  for (auto [arg, in] : llvm::zip(body.getArguments(), inputs)) {
    auto shape = cast<RankedTensorType>(arg.getType()).getShape();
    if (ArrayRef<int64_t>(in.shape) != shape ||
        in.numElements() != T::numElementsOf(shape)) {
      (void)fail(func, EvalErrorKind::InvalidInput,
                 "input #" + Twine(arg.getArgNumber()) +
                     " does not have the argument's shape");
      return std::nullopt;
    }
    // The caller's tensors outlive the evaluation: alias them, no copy.
    env[arg] = Val{TPtr(TPtr(), &in), freshDeg()};
  }
  if (failed(evalBlockOps(body)))
    return std::nullopt;
  auto ret = dyn_cast<func::ReturnOp>(body.getTerminator());
  if (!ret) {
    (void)fail(body.getTerminator(), EvalErrorKind::Unsupported,
               "function must end in func.return");
    return std::nullopt;
  }
  std::vector<T> results;
  for (Value v : ret.getOperands()) {
    Val val;
    if (failed(get(ret, v, val)))
      return std::nullopt;
    results.push_back(*val.t);
    if (info)
      info->outputDegrees.push_back(val.deg);
  }
  return results;
}

//===----------------------------------------------------------------------===//
// Public API
//===----------------------------------------------------------------------===//

float mirage::verify::roundToElementType(float x, Type elem) {
  if (elem.isF16())
    return static_cast<float>(static_cast<_Float16>(x));
  if (elem.isBF16()) {
    // Round to nearest even on the upper 16 bits (no compiler-rt needed).
    if (std::isnan(x))
      return x;
    uint32_t bits;
    std::memcpy(&bits, &x, sizeof(bits));
    bits += 0x7FFFu + ((bits >> 16) & 1u);
    bits &= 0xFFFF0000u;
    float r;
    std::memcpy(&r, &bits, sizeof(r));
    return r;
  }
  return x;
}

std::optional<std::string> mirage::verify::checkSignature(func::FuncOp func) {
  auto check = [](Type t, StringRef what,
                  unsigned i) -> std::optional<std::string> {
    auto rt = dyn_cast<RankedTensorType>(t);
    if (!rt || !rt.hasStaticShape() || rt.getRank() < 1 || rt.getRank() > 4 ||
        !isa<FloatType>(rt.getElementType())) {
      std::string s;
      llvm::raw_string_ostream os(s);
      os << what << " #" << i << " has type " << t
         << "; the evaluator needs static float tensors of rank 1 to 4";
      return s;
    }
    return std::nullopt;
  };
  FunctionType ft = func.getFunctionType();
  for (auto [i, t] : llvm::enumerate(ft.getInputs()))
    if (auto bad = check(t, "argument", i))
      return bad;
  for (auto [i, t] : llvm::enumerate(ft.getResults()))
    if (auto bad = check(t, "result", i))
      return bad;
  // Every tensor the evaluation materialises must have a representable and
  // affordable element count (an overflowing count would make tensors empty
  // and every comparison vacuous), and every constant must have an exact
  // field image (inf and NaN have none).
  std::optional<std::string> bad;
  auto tooLarge = [&](Type t) {
    auto rt = dyn_cast<RankedTensorType>(t);
    if (!rt || !rt.hasStaticShape())
      return false;
    int64_t n = 1;
    for (int64_t d : rt.getShape())
      if (d < 0 || llvm::MulOverflow(n, d, n))
        return true;
    return n > kMaxEvaluatedElements;
  };
  for (Type t : llvm::concat<const Type>(ft.getInputs(), ft.getResults()))
    if (tooLarge(t))
      return "tensor type " + llvm::formatv("{0}", t).str() +
             " has more elements than the evaluator handles (" +
             std::to_string(kMaxEvaluatedElements) + ")";
  func.walk([&](Operation *op) {
    for (Type t : op->getResultTypes())
      if (tooLarge(t)) {
        bad = "'" + op->getName().getStringRef().str() + "' produces " +
              llvm::formatv("{0}", t).str() +
              ", more elements than the evaluator handles (" +
              std::to_string(kMaxEvaluatedElements) + ")";
        return WalkResult::interrupt();
      }
    SmallVector<double, 2> constants;
    if (auto ew = dyn_cast<ElementwiseOpInterface>(op))
      constants = ew.getScalarParams();
    if (auto eps = op->getAttrOfType<FloatAttr>("eps"))
      constants.push_back(eps.getValueAsDouble());
    for (double c : constants)
      if (!std::isfinite(c)) {
        bad = "'" + op->getName().getStringRef().str() +
              "' has a non-finite constant, which has no field image";
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return bad;
}

std::optional<std::vector<FloatTensor>>
mirage::verify::evaluateFloat(func::FuncOp func, ArrayRef<FloatTensor> inputs,
                              EvalError &error, RealEvalInfo *info) {
  FloatDomain dom;
  Evaluator<FloatDomain> ev(dom, error, nullptr, info);
  return ev.run(func, inputs);
}

std::optional<std::vector<FloatTensor>>
mirage::verify::evaluateKernelPrecision(func::FuncOp func,
                                        ArrayRef<FloatTensor> inputs,
                                        EvalError &error, RealEvalInfo *info) {
  using F32Tensor = Tensor<float>;
  std::vector<F32Tensor> in;
  ArrayRef<Type> argTypes = func.getFunctionType().getInputs();
  for (auto [i, x] : llvm::enumerate(inputs)) {
    F32Tensor t(x.shape);
    Type elem = i < argTypes.size()
                    ? cast<RankedTensorType>(argTypes[i]).getElementType()
                    : Type();
    for (auto [dst, src] : llvm::zip_equal(t.data, x.data))
      dst = elem ? roundToElementType(static_cast<float>(src), elem)
                 : static_cast<float>(src);
    in.push_back(std::move(t));
  }
  KernelPrecisionDomain dom;
  Evaluator<KernelPrecisionDomain> ev(dom, error, nullptr, info);
  auto out = ev.run(func, in);
  if (!out)
    return std::nullopt;
  std::vector<FloatTensor> results;
  for (const F32Tensor &t : *out) {
    FloatTensor r(t.shape);
    for (auto [dst, src] : llvm::zip_equal(r.data, t.data))
      dst = src;
    results.push_back(std::move(r));
  }
  return results;
}

std::optional<std::vector<FieldTensor>>
mirage::verify::evaluateField(func::FuncOp func, ArrayRef<FieldTensor> inputs,
                              const FieldTest &test, EvalError &error,
                              FieldEvalInfo *info) {
  FieldDomain dom(test);
  Evaluator<FieldDomain> ev(dom, error, info);
  return ev.run(func, inputs);
}

namespace {
/// Freed large buffers kept for reuse. Tests allocate the same big tensors
/// again and again; handing back memory that is already mapped avoids the
/// page faults and page clearing that otherwise cost more than the
/// arithmetic. Bounded to kMaxCachedBytes.
struct StorageCache {
  static constexpr size_t kMaxCachedBytes = size_t(2) << 30;
  std::mutex mutex;
  std::multimap<size_t, void *> free;
  size_t cachedBytes = 0;
  llvm::DenseMap<void *, size_t> sizes;
};
StorageCache &storageCache() {
  static StorageCache *cache = new StorageCache();
  return *cache;
}
constexpr size_t kHugePage = size_t(2) << 20;
} // namespace

void *mirage::verify::allocateTensorStorage(size_t bytes) {
  if (bytes < 2 * kHugePage) {
    void *p = std::malloc(bytes ? bytes : 1);
    if (!p)
      llvm::report_bad_alloc_error("tensor storage");
    return p;
  }
  size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  StorageCache &cache = storageCache();
  {
    std::lock_guard<std::mutex> lock(cache.mutex);
    auto it = cache.free.find(rounded);
    if (it != cache.free.end()) {
      void *p = it->second;
      cache.free.erase(it);
      cache.cachedBytes -= rounded;
      return p;
    }
  }
  void *p = std::aligned_alloc(kHugePage, rounded);
  if (!p)
    llvm::report_bad_alloc_error("tensor storage");
  // Only a hint: without transparent huge pages this is a no-op.
  (void)madvise(p, rounded, MADV_HUGEPAGE);
  std::lock_guard<std::mutex> lock(storageCache().mutex);
  cache.sizes[p] = rounded;
  return p;
}

void mirage::verify::freeTensorStorage(void *ptr) {
  if (!ptr)
    return;
  StorageCache &cache = storageCache();
  {
    std::lock_guard<std::mutex> lock(cache.mutex);
    auto it = cache.sizes.find(ptr);
    if (it != cache.sizes.end()) {
      size_t size = it->second;
      if (cache.cachedBytes + size <= StorageCache::kMaxCachedBytes) {
        cache.free.insert({size, ptr});
        cache.cachedBytes += size;
        return;
      }
      cache.sizes.erase(it);
    }
  }
  // malloc and aligned_alloc memory are both released with free().
  std::free(ptr);
}

/// The seed of the stream for argument `i`.
static uint64_t argSeed(uint64_t seed, unsigned i) {
  return mix64(seed * 0x9E3779B97F4A7C15ULL + i + 1);
}

std::vector<FloatTensor> mirage::verify::sampledFloatInputs(
    func::FuncOp func, uint64_t seed,
    llvm::function_ref<double(SplitMix64 &)> draw) {
  std::vector<FloatTensor> inputs;
  inputs.reserve(func.getFunctionType().getNumInputs());
  for (auto [i, t] : llvm::enumerate(func.getFunctionType().getInputs())) {
    auto rt = dyn_cast<RankedTensorType>(t);
    if (!rt || !rt.hasStaticShape())
      return {};
    SplitMix64 rng(argSeed(seed, i));
    FloatTensor x(rt.getShape());
    for (double &v : x.data)
      v = draw(rng);
    inputs.push_back(std::move(x));
  }
  return inputs;
}

std::vector<FloatTensor> mirage::verify::randomFloatInputs(func::FuncOp func,
                                                           uint64_t seed) {
  return sampledFloatInputs(
      func, seed, [](SplitMix64 &rng) { return rng.uniform(-1.0, 1.0); });
}

std::vector<FieldTensor>
mirage::verify::randomFieldInputs(func::FuncOp func, const FieldTest &test,
                                  uint64_t seed) {
  std::vector<FieldTensor> inputs;
  // Tensor's move is not noexcept (SmallVector): growing the vector would
  // copy the storage.
  inputs.reserve(func.getFunctionType().getNumInputs());
  for (auto [i, t] : llvm::enumerate(func.getFunctionType().getInputs())) {
    auto rt = dyn_cast<RankedTensorType>(t);
    if (!rt || !rt.hasStaticShape())
      return {};
    SplitMix64 rng(argSeed(seed, i));
    FieldTensor x(rt.getShape());
    for (FieldValue &v : x.data)
      v = test.randomValue(rng);
    inputs.push_back(std::move(x));
  }
  return inputs;
}

void mirage::verify::runBoth(llvm::function_ref<void()> first,
                             llvm::function_ref<void()> second,
                             bool parallel) {
  if (!parallel || std::thread::hardware_concurrency() < 2) {
    first();
    second();
    return;
  }
  std::thread other([&] { second(); });
  first();
  other.join();
}

std::string mirage::verify::formatIndex(ArrayRef<int64_t> index) {
  std::string s = "[";
  for (auto [i, v] : llvm::enumerate(index)) {
    if (i)
      s += ", ";
    s += std::to_string(v);
  }
  return s + "]";
}

SmallVector<int64_t, 4> mirage::verify::delinearize(int64_t linear,
                                                    ArrayRef<int64_t> shape) {
  SmallVector<int64_t, 4> idx(shape.size(), 0);
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = linear % shape[d];
    linear /= shape[d];
  }
  return idx;
}
