//===- EvaluatorOps.cpp - Tensor-level ops of the evaluator ---------------===//
//
// Element-wise ops (dispatched on ElementwiseOpInterface), matmul,
// reductions, rms_norm, concat and transpose: one handler shared by the mk
// and mb forms of each op.
//
//===----------------------------------------------------------------------===//

#include "Evaluator.h"

#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mirage;
using namespace mirage::verify;
using namespace mirage::verify::detail;

template <typename Dom>
std::shared_ptr<Tensor<typename Dom::Elem>>
Evaluator<Dom>::binary(ElementwiseKind kind, ArrayRef<double> params,
                       const T &a, const T &b) {
  switch (kind) {
  case ElementwiseKind::Where: {
    // m != 0 ? x : fill, or m != 0 ? fill : x when inverted. In the field
    // the test is a fixed function of m (structure only: see
    // evalElementwise).
    double f = params.empty() ? 0.0 : params[0];
    bool inverted = params.size() > 1 && params[1] != 0;
    if (std::is_same_v<Dom, FieldDomain> && std::isinf(f))
      f = std::copysign(kInfiniteFillStandIn, f); // as band_mask's
    E fill = dom.constant(f);
    E zero = dom.zero();
    return broadcast(
        a, b, [&](E m, E x) { return (m != zero) != inverted ? x : fill; });
  }
  case ElementwiseKind::Add:
    return broadcast(a, b, [&](E x, E y) { return dom.add(x, y); });
  case ElementwiseKind::Sub:
    return broadcast(a, b, [&](E x, E y) { return dom.sub(x, y); });
  case ElementwiseKind::Mul:
    return broadcast(a, b, [&](E x, E y) { return dom.mul(x, y); });
  case ElementwiseKind::Div: {
    if constexpr (!std::is_same_v<Dom, FieldDomain>)
      return broadcast(a, b, [&](E x, E y) { return dom.div(x, y); });
    // In the field, invert the divisor once (batch inversion), then
    // multiply.
    T inv = b;
    dom.invertAll(inv.data);
    return broadcast(a, inv, [&](E x, E y) { return dom.mul(x, y); });
  }
  case ElementwiseKind::Pow:
    return broadcast(a, b, [&](E x, E y) { return dom.pow(x, y); });
  case ElementwiseKind::Max:
    return broadcast(a, b, [&](E x, E y) { return dom.max(x, y); });
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
    map([&](E v) { return dom.neg(t(v)); });
    dom.expAll(out.data(), out.data(), n);
    for (E &v : out)
      v = dom.add(one, v);
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
    dom.expAll(in.data(), out.data(), n);
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
  case ElementwiseKind::Reciprocal:
    // In the field, the inverse: a zero is a DivisionByZero.
    dr = divDeg(constDeg(), dx);
    out = in;
    dom.invertAll(out);
    break;
  case ElementwiseKind::Tanh:
    // (E - 1) / (E + 1) with E = exp(2x).
    noteExp(dx);
    dr = divDeg(addDeg(constDeg(), freshDeg()), addDeg(constDeg(), freshDeg()));
    dom.tanhAll(in.data(), out.data(), n);
    break;
  case ElementwiseKind::GeluErf:
    if (info)
      info->usesOpaque = true;
    dr = freshDeg();
    map([&](E v) { return dom.geluErf(v); });
    break;
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
  case ElementwiseKind::Convert:
    // The identity on values (exact in f64 and in the field); in the
    // kernels' precision evalElementwise rounds to the result's type.
    out = in;
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
    // An infinite bound is no bound (the field has no image of inf).
    double loValue = params.size() > 0 ? params[0] : 0.0,
           hiValue = params.size() > 1 ? params[1] : 0.0;
    bool hasLo = !std::isinf(loValue), hasHi = !std::isinf(hiValue);
    E lo = dom.constant(hasLo ? loValue : 0.0);
    E hi = dom.constant(hasHi ? hiValue : 0.0);
    map([&](E v) {
      if (hasLo)
        v = dom.max(v, lo);
      return hasHi ? dom.min(v, hi) : v;
    });
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
    case ElementwiseKind::Max:
      // The random total order of the field (as reduce_max).
      if (info)
        info->usesOpaque = true;
      dr = maxDeg(a.deg, b.deg);
      break;
    case ElementwiseKind::Where: {
      if (info)
        info->usesOpaque = true;
      SmallVector<double, 2> params = ew.getScalarParams();
      dr = maxDeg(b.deg, constantDeg(params.empty() ? 0.0 : params[0]));
      break;
    }
    default:
      if (info)
        info->usesOpaque = true;
      dr = freshDeg();
      break;
    }
    r = binary(kind, ew.getScalarParams(), *a.t, *b.t);
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
  // In the kernels' precision a conversion rounds to its result's storage
  // type even inside a thread graph, as the generated code does.
  if constexpr (Dom::kRoundsStorage)
    if (kind == ElementwiseKind::Convert) {
      Type elem = getElementTypeOrSelf(op.getResult(0).getType());
      if (elem.isF16() || elem.isBF16())
        for (E &x : r->data)
          x = roundToElementType(x, elem);
    }
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
LogicalResult Evaluator<Dom>::evalReshape(Operation &op,
                                          ArrayRef<int64_t> shape) {
  Val a;
  if (failed(get(&op, op.getOperand(0), a)))
    return failure();
  auto r = std::make_shared<T>(shape);
  if (r->numElements() != a.t->numElements())
    return fail(&op, EvalErrorKind::InvalidInput,
                "reshape changes the number of elements");
  // Row-major: the flattened data is the same.
  r->data = a.t->data;
  set(op.getResult(0), std::move(r), a.deg);
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
SmallVector<int64_t, 4>
Evaluator<Dom>::tileOrigin(ArrayRef<int64_t> tileShape, ArrayRef<int64_t> imap,
                           int64_t fmap, int64_t forloop) const {
  // off[imap[g]] = b_g; off[fmap] = off[fmap] * F + i; off[k] *= tile[k].
  SmallVector<int64_t, 4> off(tileShape.size(), 0);
  for (int g = 0; g < 3 && g < static_cast<int>(imap.size()); ++g)
    if (imap[g] >= 0)
      off[imap[g]] = blockIdx[g];
  if (fmap >= 0)
    off[fmap] = off[fmap] * forloop + iteration;
  for (size_t k = 0; k < off.size(); ++k)
    off[k] *= tileShape[k];
  return off;
}

template <typename Dom>
LogicalResult Evaluator<Dom>::evalBandMask(Operation &op,
                                           ArrayRef<int64_t> dims,
                                           std::optional<int64_t> lower,
                                           std::optional<int64_t> upper,
                                           double fill, bool additive,
                                           ArrayRef<int64_t> origin) {
  Val a;
  if (failed(get(&op, op.getOperand(0), a)))
    return failure();
  const T &x = *a.t;
  size_t rank = x.shape.size();
  if (dims.empty() || dims.size() > 2 || origin.size() != rank ||
      llvm::any_of(dims, [&](int64_t d) {
        return d < 0 || d >= static_cast<int64_t>(rank);
      }))
    return fail(&op, EvalErrorKind::InvalidInput,
                "band_mask dims are not dims of its operand");
  // An infinite fill has no image in the finite field: there it is a fixed
  // stand-in value without an exact image (the same in every program
  // compared, so the masked elements still agree or differ as they should).
  double stand = std::is_same_v<Dom, FieldDomain> && std::isinf(fill)
                     ? std::copysign(kInfiniteFillStandIn, fill)
                     : fill;
  E f = dom.constant(stand);
  Degree dr = additive ? addDeg(a.deg, constantDeg(stand))
                       : maxDeg(a.deg, constantDeg(stand));
  auto r = std::make_shared<T>(x.shape);
  Shape4 shape = pad4(x.shape);
  size_t pad = 4 - rank;
  int64_t colDim = pad + dims.back();
  int64_t rowDim = dims.size() == 2 ? int64_t(pad + dims[0]) : -1;
  Shape4 base = {0, 0, 0, 0};
  for (size_t k = 0; k < rank; ++k)
    base[pad + k] = origin[k];
  int64_t n = 0;
  std::array<int64_t, 4> i;
  for (i[0] = 0; i[0] < shape[0]; ++i[0])
    for (i[1] = 0; i[1] < shape[1]; ++i[1])
      for (i[2] = 0; i[2] < shape[2]; ++i[2])
        for (i[3] = 0; i[3] < shape[3]; ++i[3], ++n) {
          int64_t diff = base[colDim] + i[colDim] -
                         (rowDim >= 0 ? base[rowDim] + i[rowDim] : 0);
          bool keep = (!lower || diff >= *lower) && (!upper || diff <= *upper);
          E v = x.data[n];
          r->data[n] = keep ? v : additive ? dom.add(v, f) : f;
        }
  set(op.getResult(0), std::move(r), dr);
  return success();
}

template <typename Dom>
LogicalResult Evaluator<Dom>::evalTailMask(mb::TailMaskOp op) {
  Val a;
  if (failed(get(op, op.getInput(), a)))
    return failure();
  auto loop = dyn_cast_or_null<mb::ForLoopOp>(op->getParentOp());
  std::optional<mb::LoopWalk> walk = loop ? mb::loopWalk(loop) : std::nullopt;
  if (!walk)
    return fail(op, EvalErrorKind::InvalidInput,
                "tail_mask outside a loop that walks a dim");
  int64_t extent = walk->extent;
  int64_t dim = op.getDim();
  int64_t size = op.getType().getDimSize(dim);
  int64_t keep = extent - iteration * size;
  if (keep >= size) {
    env[op.getResult()] = a;
    return success();
  }
  double fill = op.getFill().convertToDouble();
  if (std::is_same_v<Dom, FieldDomain> && std::isinf(fill))
    fill = std::copysign(kInfiniteFillStandIn, fill); // as band_mask's
  auto r = std::make_shared<T>(*a.t);
  fillPastEnd(*r, dim, keep, dom.constant(fill));
  set(op.getResult(), std::move(r), maxDeg(a.deg, constantDeg(fill)));
  return success();
}

#define MIRAGE_INSTANTIATE_EVALUATOR_OPS(Dom)                                  \
  template std::shared_ptr<Evaluator<Dom>::T> Evaluator<Dom>::binary(          \
      ElementwiseKind, ArrayRef<double>, const T &, const T &);                \
  template std::shared_ptr<Evaluator<Dom>::T> Evaluator<Dom>::unary(           \
      ElementwiseKind, ArrayRef<double>, const T &, Degree, Degree &);         \
  template LogicalResult Evaluator<Dom>::evalElementwise(                      \
      Operation &, ElementwiseOpInterface);                                    \
  template LogicalResult Evaluator<Dom>::evalMatmul(Operation &);              \
  template LogicalResult Evaluator<Dom>::evalReduce(Operation &, int64_t,      \
                                                    bool);                     \
  template std::shared_ptr<Evaluator<Dom>::T> Evaluator<Dom>::sumLast(         \
      const T &, int64_t, bool);                                               \
  template LogicalResult Evaluator<Dom>::evalRmsNorm(Operation &, Value,       \
                                                     Value, double);           \
  template LogicalResult Evaluator<Dom>::evalConcat(Operation &, int64_t);     \
  template LogicalResult Evaluator<Dom>::evalTranspose(Operation &,            \
                                                       ArrayRef<int64_t>);     \
  template LogicalResult Evaluator<Dom>::evalReshape(Operation &,              \
                                                     ArrayRef<int64_t>);     \
  template LogicalResult Evaluator<Dom>::evalBandMask(                         \
      Operation &, ArrayRef<int64_t>, std::optional<int64_t>,                  \
      std::optional<int64_t>, double, bool, ArrayRef<int64_t>);                \
  template LogicalResult Evaluator<Dom>::evalTailMask(mb::TailMaskOp);        \
  template SmallVector<int64_t, 4> Evaluator<Dom>::tileOrigin(                 \
      ArrayRef<int64_t>, ArrayRef<int64_t>, int64_t, int64_t) const;
MIRAGE_FOR_EACH_DOMAIN(MIRAGE_INSTANTIATE_EVALUATOR_OPS)
