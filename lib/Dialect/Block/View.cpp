//===- View.cpp - Strided views of device tensors ---------------*- C++ -*-===//
//
// Analysis, printing and composition of the views of View.h.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Dialect/Block/IR/View.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <numeric>

using namespace mlir;
using namespace mirage::mb;

SmallVector<int64_t> mirage::mb::rowMajorStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t k = static_cast<int64_t>(shape.size()) - 2; k >= 0; --k)
    strides[k] = strides[k + 1] * shape[k + 1];
  return strides;
}

/// The dim of a row-major tensor of `shape` (row-major `strides`) whose
/// places [strides[k], strides[k] * shape[k]) hold `place` (dim 0 for places
/// beyond the tensor).
static int64_t dimHolding(ArrayRef<int64_t> strides, ArrayRef<int64_t> shape,
                          int64_t place) {
  int64_t k = shape.size() - 1;
  while (k > 0 && strides[k] * shape[k] <= place)
    --k;
  return k;
}

static int64_t product(ArrayRef<int64_t> v) {
  return std::accumulate(v.begin(), v.end(), int64_t{1},
                         std::multiplies<int64_t>());
}

/// The largest value digit `m` takes over indices [0, n).
static int64_t maxDigit(const ViewMode &m, int64_t n) {
  return std::min(m.extent - 1, (n - 1) / m.radix);
}

void StridedView::normalize() {
  llvm::erase_if(modes, [&](const ViewMode &m) {
    return m.stride == 0 || m.extent <= 1 || shape[m.dim] <= m.radix;
  });
  for (ViewMode &m : modes)
    m.extent =
        std::min<int64_t>(m.extent, llvm::divideCeil(shape[m.dim], m.radix));
  llvm::sort(modes, [](const ViewMode &a, const ViewMode &b) {
    return std::tie(a.dim, a.radix, a.extent, a.stride) <
           std::tie(b.dim, b.radix, b.extent, b.stride);
  });
}

StridedView StridedView::identity(ArrayRef<int64_t> shape) {
  StridedView v;
  v.shape.assign(shape.begin(), shape.end());
  v.deviceShape = v.shape;
  SmallVector<int64_t> strides = rowMajorStrides(shape);
  for (auto [k, n] : llvm::enumerate(shape))
    v.modes.push_back({static_cast<unsigned>(k), 1, n, strides[k]});
  v.normalize();
  return v;
}

//===----------------------------------------------------------------------===//
// Reading an affine map
//===----------------------------------------------------------------------===//

/// Reads `e` as a digit of a dim: d, d floordiv r, d mod e, (d floordiv r)
/// mod e.
static std::optional<ViewMode> readDigit(AffineExpr e,
                                         ArrayRef<int64_t> shape) {
  auto dimOf = [&](AffineExpr x) -> std::optional<unsigned> {
    if (auto d = dyn_cast<AffineDimExpr>(x))
      return d.getPosition();
    return std::nullopt;
  };
  auto constOf = [](AffineExpr x) -> int64_t {
    auto c = dyn_cast<AffineConstantExpr>(x);
    return c && c.getValue() > 0 ? c.getValue() : 0;
  };
  if (auto d = dimOf(e))
    return ViewMode{*d, 1, shape[*d], 0};
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return std::nullopt;
  int64_t c = constOf(bin.getRHS());
  if (!c)
    return std::nullopt;
  if (bin.getKind() == AffineExprKind::FloorDiv) {
    if (auto d = dimOf(bin.getLHS()))
      return ViewMode{*d, c,
                      static_cast<int64_t>(llvm::divideCeil(shape[*d], c)), 0};
    return std::nullopt;
  }
  if (bin.getKind() != AffineExprKind::Mod)
    return std::nullopt;
  if (auto d = dimOf(bin.getLHS()))
    return ViewMode{*d, 1, c, 0};
  auto inner = dyn_cast<AffineBinaryOpExpr>(bin.getLHS());
  if (!inner || inner.getKind() != AffineExprKind::FloorDiv)
    return std::nullopt;
  int64_t r = constOf(inner.getRHS());
  auto d = dimOf(inner.getLHS());
  if (!r || !d)
    return std::nullopt;
  return ViewMode{*d, r, c, 0};
}

/// Splits `e` into its summands.
static void summands(AffineExpr e, SmallVectorImpl<AffineExpr> &out) {
  if (e.getKind() == AffineExprKind::Add) {
    auto bin = cast<AffineBinaryOpExpr>(e);
    summands(bin.getLHS(), out);
    summands(bin.getRHS(), out);
    return;
  }
  out.push_back(e);
}

FailureOr<StridedView> StridedView::analyze(AffineMap map,
                                            ArrayRef<int64_t> shape,
                                            ArrayRef<int64_t> deviceShape,
                                            std::string &why, Error *error) {
  llvm::raw_string_ostream os(why);
  auto fail = [&](Error e) {
    if (error)
      *error = e;
    return failure();
  };
  if (map.getNumSymbols() != 0 || map.getNumDims() != shape.size() ||
      map.getNumResults() != deviceShape.size()) {
    os << "the view must map the " << shape.size()
       << " dims of the logical tensor to the " << deviceShape.size()
       << " dims of the device tensor, without symbols; got " << map;
    return fail(Error::Arity);
  }
  if (llvm::any_of(shape, [](int64_t n) { return n < 1; }) ||
      llvm::any_of(deviceShape, [](int64_t n) { return n < 1; })) {
    os << "the view's shapes must be static and non-empty";
    return fail(Error::Arity);
  }
  StridedView v;
  v.shape.assign(shape.begin(), shape.end());
  v.deviceShape.assign(deviceShape.begin(), deviceShape.end());
  SmallVector<int64_t> strides = rowMajorStrides(deviceShape);
  for (auto [j, result] : llvm::enumerate(map.getResults())) {
    SmallVector<AffineExpr> terms;
    summands(result, terms);
    int64_t off = 0, reach = 0;
    for (AffineExpr t : terms) {
      if (auto c = dyn_cast<AffineConstantExpr>(t)) {
        if (c.getValue() < 0) {
          os << "result " << j << " of the view has a negative offset";
          return fail(Error::Form);
        }
        off += c.getValue();
        continue;
      }
      int64_t coef = 1;
      AffineExpr digit = t;
      if (t.getKind() == AffineExprKind::Mul) {
        auto bin = cast<AffineBinaryOpExpr>(t);
        auto c = dyn_cast<AffineConstantExpr>(bin.getRHS());
        if (!c || c.getValue() <= 0) {
          os << "result " << j << " of the view: '" << t
             << "' is not an index digit times a positive constant";
          return fail(Error::Form);
        }
        coef = c.getValue();
        digit = bin.getLHS();
      }
      std::optional<ViewMode> m = readDigit(digit, shape);
      if (!m) {
        os << "result " << j << " of the view: '" << digit
           << "' is not an index digit (d, d floordiv c, d mod c or "
              "(d floordiv c) mod c)";
        return fail(Error::Form);
      }
      m->stride = coef * strides[j];
      reach += coef * maxDigit(*m, shape[m->dim]);
      v.modes.push_back(*m);
    }
    if (off + reach >= deviceShape[j]) {
      os << "the view reaches index " << off + reach << " of device dim " << j
         << " of size " << deviceShape[j];
      return fail(Error::Bounds);
    }
    v.offset += off * strides[j];
  }
  v.normalize();
  return v;
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

int64_t StridedView::dimOffset(unsigned dim, int64_t i) const {
  int64_t off = 0;
  for (const ViewMode &m : modes)
    if (m.dim == dim)
      off += ((i / m.radix) % m.extent) * m.stride;
  return off;
}

int64_t StridedView::linearOffset(ArrayRef<int64_t> idx) const {
  int64_t off = offset;
  for (const ViewMode &m : modes)
    off += ((idx[m.dim] / m.radix) % m.extent) * m.stride;
  return off;
}

SmallVector<SmallVector<int64_t>> StridedView::offsetTables() const {
  SmallVector<SmallVector<int64_t>> tables;
  for (auto [k, n] : llvm::enumerate(shape)) {
    SmallVector<int64_t> &t = tables.emplace_back(n, 0);
    for (int64_t i = 0; i < n; ++i)
      t[i] = dimOffset(k, i);
  }
  return tables;
}

bool StridedView::isOneToOne(std::string &why) const {
  llvm::raw_string_ostream os(why);
  if (product(shape) != product(deviceShape)) {
    os << "the view has " << product(shape) << " elements and the device "
       << "tensor " << product(deviceShape);
    return false;
  }
  for (auto [k, n] : llvm::enumerate(shape)) {
    int64_t radix = 1;
    for (const ViewMode &m : modes)
      if (m.dim == k) {
        if (m.radix != radix)
          break;
        radix *= m.extent;
      }
    if (radix != n) {
      os << "logical dim " << k << " is not a one-to-one digit decomposition "
         << "(a broadcast, repeat or overlap)";
      return false;
    }
  }
  SmallVector<ViewMode, 8> byStride(modes);
  llvm::sort(byStride, [](const ViewMode &a, const ViewMode &b) {
    return a.stride < b.stride;
  });
  int64_t stride = 1;
  for (const ViewMode &m : byStride) {
    if (m.stride != stride) {
      os << "the view's strides leave gaps or overlaps in the device tensor";
      return false;
    }
    stride *= m.extent;
  }
  if (offset != 0) {
    os << "the view has an offset";
    return false;
  }
  return true;
}

bool StridedView::isIdentity() const {
  return shape == deviceShape && offset == 0 &&
         modes == identity(deviceShape).modes;
}

int64_t StridedView::contiguousRun(int64_t maxElems) const {
  if (shape.empty())
    return 1;
  unsigned last = shape.size() - 1;
  const ViewMode *inner = nullptr;
  for (const ViewMode &m : modes)
    if (m.dim == last && m.radix == 1)
      inner = &m;
  if (!inner || inner->stride != 1)
    return 1;
  int64_t w = 1;
  while (w * 2 <= maxElems && inner->extent % (w * 2) == 0 &&
         offset % (w * 2) == 0 && llvm::all_of(modes, [&](const ViewMode &m) {
           // A higher digit of the last dim must not change inside a run.
           return &m == inner || (m.stride % (w * 2) == 0 &&
                                  (m.dim != last || m.radix % (w * 2) == 0));
         }))
    w *= 2;
  return w;
}

//===----------------------------------------------------------------------===//
// Printing as an affine map
//===----------------------------------------------------------------------===//

FailureOr<AffineMap> StridedView::toAffineMap(MLIRContext *ctx) const {
  SmallVector<int64_t> strides = rowMajorStrides(deviceShape);
  unsigned rank = deviceShape.size();
  SmallVector<AffineExpr> results(rank, getAffineConstantExpr(0, ctx));
  SmallVector<int64_t> reach(rank, 0);
  // The offset's device index.
  int64_t rest = offset;
  for (unsigned j = 0; j < rank; ++j) {
    results[j] = getAffineConstantExpr(rest / strides[j], ctx);
    reach[j] = rest / strides[j];
    rest %= strides[j];
  }
  SmallVector<ViewMode, 8> work(modes);
  while (!work.empty()) {
    ViewMode m = work.pop_back_val();
    // The device dim the stride falls in.
    int64_t j = dimHolding(strides, deviceShape, m.stride);
    if (m.stride % strides[j] != 0)
      return failure();
    int64_t a = m.stride / strides[j];
    int64_t top = maxDigit(m, shape[m.dim]);
    if (a * top >= deviceShape[j]) {
      // Split the mode where it leaves dim j.
      if (deviceShape[j] % a != 0)
        return failure();
      int64_t inner = deviceShape[j] / a;
      if (inner <= 1 || m.extent % inner != 0)
        return failure();
      work.push_back({m.dim, m.radix, inner, m.stride});
      work.push_back(
          {m.dim, m.radix * inner, m.extent / inner, m.stride * inner});
      continue;
    }
    AffineExpr d = getAffineDimExpr(m.dim, ctx);
    if (m.radix > 1)
      d = d.floorDiv(m.radix);
    if (m.radix * m.extent < shape[m.dim])
      d = d % m.extent;
    results[j] = results[j] + d * a;
    reach[j] += a * top;
  }
  for (unsigned j = 0; j < rank; ++j)
    if (reach[j] >= deviceShape[j])
      return failure();
  return AffineMap::get(shape.size(), 0, results, ctx);
}

//===----------------------------------------------------------------------===//
// Composition
//===----------------------------------------------------------------------===//

StridedView StridedView::transposed(ArrayRef<int64_t> perm) const {
  StridedView v = *this;
  SmallVector<unsigned> newDim(shape.size());
  for (auto [k, p] : llvm::enumerate(perm)) {
    v.shape[k] = shape[p];
    newDim[p] = k;
  }
  for (ViewMode &m : v.modes)
    m.dim = newDim[m.dim];
  v.normalize();
  return v;
}

namespace {
/// A mode over the row-major linearised logical index.
struct FlatMode {
  int64_t radix, extent, stride;
};
} // namespace

FailureOr<StridedView> StridedView::reshaped(ArrayRef<int64_t> newShape) const {
  if (product(newShape) != product(shape))
    return failure();
  SmallVector<int64_t> logical = rowMajorStrides(shape);
  SmallVector<FlatMode> flat;
  for (const ViewMode &m : modes) {
    // Only digits that tile their dim exactly survive a reshape.
    if (shape[m.dim] % m.radix != 0 || (shape[m.dim] / m.radix) % m.extent)
      return failure();
    flat.push_back({logical[m.dim] * m.radix, m.extent, m.stride});
  }
  llvm::sort(flat, [](const FlatMode &a, const FlatMode &b) {
    return a.radix < b.radix;
  });
  // Merge digits adjacent in both orders.
  SmallVector<FlatMode> merged;
  for (const FlatMode &f : flat) {
    if (!merged.empty()) {
      FlatMode &p = merged.back();
      if (p.radix * p.extent == f.radix && p.stride * p.extent == f.stride) {
        p.extent *= f.extent;
        continue;
      }
    }
    merged.push_back(f);
  }
  StridedView v;
  v.shape.assign(newShape.begin(), newShape.end());
  v.deviceShape = deviceShape;
  v.offset = offset;
  SmallVector<int64_t> radices = rowMajorStrides(newShape);
  SmallVector<FlatMode> work(merged.rbegin(), merged.rend());
  while (!work.empty()) {
    FlatMode f = work.pop_back_val();
    // The new dim holding the digit's lowest place.
    int64_t k = dimHolding(radices, newShape, f.radix);
    if (f.radix % radices[k] != 0)
      return failure();
    int64_t r = f.radix / radices[k];
    if (r * f.extent > newShape[k]) {
      if (newShape[k] % r != 0)
        return failure();
      int64_t inner = newShape[k] / r;
      if (inner <= 1 || f.extent % inner != 0)
        return failure();
      work.push_back({f.radix * inner, f.extent / inner, f.stride * inner});
      work.push_back({f.radix, inner, f.stride});
      continue;
    }
    v.modes.push_back({static_cast<unsigned>(k), r, f.extent, f.stride});
  }
  v.normalize();
  return v;
}

StridedView StridedView::repeated(unsigned dim, int64_t times) const {
  StridedView v = *this;
  v.shape[dim] *= times;
  // Digits that covered the whole dim now wrap: keep their extents (normalize
  // clamps only to the new size).
  v.normalize();
  return v;
}

//===----------------------------------------------------------------------===//
// Views of dynamic dims
//===----------------------------------------------------------------------===//

SmallVector<int64_t> mirage::mb::passedThroughDims(AffineMap map) {
  SmallVector<int64_t> passed;
  for (AffineExpr result : map.getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(result);
    bool alone = dim && llvm::count_if(map.getResults(), [&](AffineExpr other) {
                          return other.isFunctionOfDim(dim.getPosition());
                        }) == 1;
    passed.push_back(alone ? static_cast<int64_t>(dim.getPosition()) : -1);
  }
  return passed;
}

LogicalResult mirage::mb::checkDynamicView(AffineMap map,
                                           ArrayRef<int64_t> logical,
                                           ArrayRef<int64_t> device,
                                           std::string &why) {
  llvm::raw_string_ostream os(why);
  if (map.getNumDims() != logical.size() ||
      map.getNumResults() != device.size()) {
    os << "the view must map the " << logical.size()
       << " dims of the logical tensor to the " << device.size()
       << " dims of the device tensor; got " << map;
    return failure();
  }
  SmallVector<int64_t> passed = passedThroughDims(map);
  int64_t dynamicDim = -1;
  for (auto [d, size] : llvm::enumerate(device)) {
    if (!ShapedType::isDynamic(size))
      continue;
    if (dynamicDim >= 0) {
      os << "a view reads or writes two dynamic dims (" << dynamicDim << " and "
         << d << ") of its device tensor";
      return failure();
    }
    dynamicDim = d;
    if (passed[d] < 0) {
      os << "dynamic dim " << d << " of the device tensor is not passed "
         << "through the view as it is (result " << map.getResult(d) << ")";
      return failure();
    }
    if (d + 1 == device.size()) {
      os << "dynamic dim " << d << " is the last dim of the device tensor, "
         << "which a view may not read or write";
      return failure();
    }
    for (size_t k = 0; k < d; ++k)
      if (device[k] != 1) {
        os << "device dim " << k << " of extent " << device[k]
           << " comes before dynamic dim " << d
           << ", so the view's strides would depend on the size";
        return failure();
      }
  }
  for (auto [l, size] : llvm::enumerate(logical))
    if (ShapedType::isDynamic(size) &&
        (dynamicDim < 0 || passed[dynamicDim] != static_cast<int64_t>(l))) {
      os << "dynamic logical dim " << l
         << " is not passed through the view to a dynamic device dim";
      return failure();
    }
  return success();
}

SmallVector<int64_t> mirage::mb::staticDeviceShape(AffineMap map,
                                                   ArrayRef<int64_t> logical,
                                                   ArrayRef<int64_t> device) {
  SmallVector<int64_t> shape(device);
  SmallVector<int64_t> passed = passedThroughDims(map);
  for (auto [d, size] : llvm::enumerate(shape))
    if (ShapedType::isDynamic(size) && d < passed.size() && passed[d] >= 0 &&
        passed[d] < static_cast<int64_t>(logical.size()))
      size = logical[passed[d]];
  return shape;
}
