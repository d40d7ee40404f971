//===- Contraction.cpp - Import of contractions as mk.matmul --------------===//
//
// See Contraction.h. The dims of the loop nest are grouped by the operands
// that read them; a permutation puts each operand in (batch, M, K) or
// (batch, K, N) order, and a reshape (a view: the permuted operand is
// contiguous) joins each group into one dim, so that every such contraction
// is one mk.matmul. TF's attention scores (b, s, h, d) x (b, t, h, d) ->
// (b, h, s, t) are a batch matmul over (b, h) after a transpose of each
// operand.
//
//===----------------------------------------------------------------------===//

#include "Contraction.h"
#include "NamedOps.h"

#include "Mirage/Dialect/Kernel/IR/Kernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

namespace mirage::import {

bool hasContractionBody(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1)
    return false;
  Block &body = op.getRegion().front();
  auto add = body.getTerminator()->getOperand(0).getDefiningOp<arith::AddFOp>();
  // out + a * b, each of a and b possibly widened by an arith.extf to the
  // accumulator's type (a bf16 matmul accumulating in f32).
  if (!add || body.getOperations().size() < 3 ||
      body.getOperations().size() > 5)
    return false;
  Value out = body.getArgument(2), product;
  if (add.getLhs() == out)
    product = add.getRhs();
  else if (add.getRhs() == out)
    product = add.getLhs();
  auto mul = product ? product.getDefiningOp<arith::MulFOp>() : nullptr;
  if (!mul)
    return false;
  Value a = body.getArgument(0), b = body.getArgument(1);
  auto unwiden = [&](Value v) {
    if (auto ext = v.getDefiningOp<arith::ExtFOp>())
      if (ext->getBlock() == &body && ext.getType() == out.getType())
        return ext.getIn();
    return v;
  };
  Value l = unwiden(mul.getLhs()), r = unwiden(mul.getRhs());
  if (mul.getType() != out.getType())
    return false;
  return (l == a && r == b) || (l == b && r == a);
}

namespace {

/// The loop dims each operand reads, in its order; failure unless every map
/// is a projected permutation (distinct dims, no constants).
FailureOr<SmallVector<SmallVector<unsigned>>> operandDims(linalg::LinalgOp op) {
  SmallVector<SmallVector<unsigned>> dims;
  for (AffineMap map : op.getIndexingMapsArray()) {
    if (!map.isProjectedPermutation() || map.getNumSymbols())
      return failure();
    SmallVector<unsigned> d;
    for (AffineExpr e : map.getResults())
      d.push_back(cast<AffineDimExpr>(e).getPosition());
    dims.push_back(std::move(d));
  }
  return dims;
}

/// `v` (whose dims are the loop dims `have`) permuted to the loop dims
/// `want` and reshaped to `groups` (sizes of consecutive runs of `want`).
Value arrange(OpBuilder &b, Location loc, Value v, ArrayRef<unsigned> have,
              ArrayRef<unsigned> want, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> perm;
  for (unsigned d : want)
    perm.push_back(llvm::find(have, d) - have.begin());
  v = createTranspose(b, loc, v, perm);
  auto type = cast<RankedTensorType>(v.getType());
  if (type.getShape() == shape)
    return v;
  return mk::ReshapeOp::create(
             b, loc, RankedTensorType::get(shape, type.getElementType()), v)
      .getResult();
}

} // namespace

Reason importContraction(linalg::LinalgOp op, OpBuilder &b) {
  if (!op.hasPureTensorSemantics())
    return "buffer semantics are not imported";
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      op->getNumResults() != 1)
    return "a contraction of other than two inputs into one result";
  if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation()))
    if (!hasContractionBody(generic))
      return "the contraction body is not out + a * b";
  SmallVector<Value> ins(op.getDpsInputs());
  Value init = op.getDpsInits()[0];
  Type resultType = op->getResult(0).getType();
  if (Reason r = checkTypes(ins, resultType); !r.empty())
    return r;
  // Mixed precision: operands of a narrower type than the result are
  // widened to it before the multiply (linalg's semantics). Operands of one
  // type with an f32 result are one mk.matmul that writes its f32
  // accumulator ([C0.15]); operands of two types are converted to f32 first.
  // A result narrower than the operands rounds the operands first: outside.
  Type resultElt = cast<ShapedType>(resultType).getElementType();
  Type eltA = cast<ShapedType>(ins[0].getType()).getElementType();
  Type eltB = cast<ShapedType>(ins[1].getType()).getElementType();
  bool convertA = false, convertB = false;
  if (eltA != resultElt || eltB != resultElt) {
    if (!resultElt.isF32() || !isExactWidening(eltA, resultElt) ||
        !isExactWidening(eltB, resultElt))
      return "mixed element types: the operands are rounded to a narrower "
             "result type before the multiply (mk has no such matmul)";
    convertA = eltA != eltB && eltA != resultElt;
    convertB = eltA != eltB && eltB != resultElt;
  }
  FailureOr<SmallVector<SmallVector<unsigned>>> dims = operandDims(op);
  if (failed(dims))
    return "an indexing map of the contraction is not a projected "
           "permutation (a diagonal, a constant index or a repeated dim)";
  ArrayRef<unsigned> a = (*dims)[0], bDims = (*dims)[1], c = (*dims)[2];
  SmallVector<int64_t> sizes = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  // Batch and output dims in C's order, K dims in A's.
  SmallVector<unsigned> batch, m, n, k;
  for (unsigned d : c) {
    bool inA = llvm::is_contained(a, d), inB = llvm::is_contained(bDims, d);
    if (inA && inB)
      batch.push_back(d);
    else if (inA)
      m.push_back(d);
    else if (inB)
      n.push_back(d);
    else
      return "an output dim that neither input reads (the product is "
             "broadcast)";
    if (iterators[d] != utils::IteratorType::parallel)
      return "an output dim that is reduced";
  }
  for (unsigned d : a)
    if (!llvm::is_contained(c, d)) {
      if (!llvm::is_contained(bDims, d))
        return "a dim that only A reads (a sum of A alone)";
      if (iterators[d] != utils::IteratorType::reduction)
        return "a contracted dim that is not a reduction";
      k.push_back(d);
    }
  for (unsigned d : bDims)
    if (!llvm::is_contained(c, d) && !llvm::is_contained(a, d))
      return "a dim that only B reads (a sum of B alone)";
  if (k.empty())
    return "a product without a contracted dim (an outer product)";
  // A dynamic dim (rows, columns or a batch dim; checkDynamicDims refuses
  // a dynamic contracted dim) stays a dim of its own: merged with others it
  // would be a product of sizes, which mk does not hold ([K16]).
  for (ArrayRef<unsigned> group :
       {ArrayRef<unsigned>(batch), ArrayRef<unsigned>(m), ArrayRef<unsigned>(n),
        ArrayRef<unsigned>(k)})
    if (group.size() > 1 && llvm::any_of(group, [&](unsigned d) {
          return ShapedType::isDynamic(sizes[d]);
        }))
      return "a dynamic dim that would merge with other dims";

  // A non-zero init is added to the product (C = init + A B); one that is
  // a copy broadcasting size-1 dims (a bias written into the output first)
  // is added unbroadcast, since mk.add broadcasts them.
  Value addend;
  if (!isZeroInit(init)) {
    addend = init;
    if (auto copy = init.getDefiningOp<linalg::LinalgOp>())
      if (Value source = broadcastCopySource(copy))
        addend = source;
    if (Reason r = checkTypes(addend, {}); !r.empty())
      return "the accumulator: " + r;
    if (Reason r = checkSameElementType(addend, resultType); !r.empty())
      return "the accumulator: " + r;
  }

  auto product = [&](ArrayRef<unsigned> group) {
    if (group.size() == 1)
      return sizes[group.front()]; // static or dynamic
    int64_t p = 1;
    for (unsigned d : group)
      p *= sizes[d];
    return p;
  };
  // Several batch dims merge into one (a view: they are adjacent after the
  // permutation): the kernels the search builds take matmuls of rank 3 at
  // most, and a rank-4 one made --mirage-import-to-ptx fail (tpp-mlir's
  // [b, s, h, d] attention GEMMs).
  SmallVector<int64_t> batchShape;
  if (batch.size() <= 1) {
    for (unsigned d : batch)
      batchShape.push_back(sizes[d]);
  } else {
    batchShape.push_back(product(batch));
  }
  auto shapeOf = [&](ArrayRef<unsigned> x, ArrayRef<unsigned> y) {
    SmallVector<int64_t> s(batchShape);
    s.push_back(product(x));
    s.push_back(product(y));
    return s;
  };
  auto concat = [](ArrayRef<unsigned> p, ArrayRef<unsigned> q,
                   ArrayRef<unsigned> r) {
    SmallVector<unsigned> v(p);
    v.append(q.begin(), q.end());
    v.append(r.begin(), r.end());
    return v;
  };

  Location loc = op.getLoc();
  b.setInsertionPoint(op);
  auto widen = [&](Value x) -> Value {
    auto t = cast<RankedTensorType>(x.getType());
    return mk::ConvertOp::create(b, loc, t.clone(resultElt), x).getResult();
  };
  Value lhs = arrange(b, loc, convertA ? widen(ins[0]) : ins[0], a,
                      concat(batch, m, k), shapeOf(m, k));
  Value rhs = arrange(b, loc, convertB ? widen(ins[1]) : ins[1], bDims,
                      concat(batch, k, n), shapeOf(k, n));
  // (batch, M, N) in the result's element type.
  SmallVector<int64_t> mmShape(shapeOf(m, n));
  Value v = mk::MatmulOp::create(
                b, loc, RankedTensorType::get(mmShape, resultElt), lhs, rhs)
                .getResult();
  // Back to (batch, M, N) with every dim apart, then C's order.
  SmallVector<unsigned> order = concat(batch, m, n);
  SmallVector<int64_t> full;
  for (unsigned d : order)
    full.push_back(sizes[d]);
  auto elt = cast<ShapedType>(resultType).getElementType();
  if (cast<RankedTensorType>(v.getType()).getShape() !=
      ArrayRef<int64_t>(full))
    v = mk::ReshapeOp::create(b, loc, RankedTensorType::get(full, elt), v)
            .getResult();
  SmallVector<int64_t> perm;
  for (unsigned d : c)
    perm.push_back(llvm::find(order, d) - order.begin());
  v = createTranspose(b, loc, v, perm);
  if (addend)
    v = mk::AddOp::create(b, loc, v, addend).getResult();
  replaceOp(op, v);
  return {};
}

} // namespace mirage::import
