//===- NamedOps.cpp - Import of matmuls, layout ops and softmax -----------===//
//
// See NamedOps.h.
//
//===----------------------------------------------------------------------===//

#include "NamedOps.h"

#include "Mirage/Dialect/Kernel/IR/Kernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace mirage::import {

namespace {

/// A copy (generic or linalg.broadcast) with an identity output map whose
/// input map keeps the loops dims in order and drops only dims of extent 1,
/// rewritten as a tensor.expand_shape of the input; null (and nothing
/// changed) otherwise.
tensor::ExpandShapeOp unitDimExpand(linalg::LinalgOp op, OpBuilder &b) {
  AffineMap in = op.getIndexingMapsArray()[0],
            out = op.getIndexingMapsArray()[1];
  auto inType = dyn_cast<RankedTensorType>(op.getDpsInputs()[0].getType());
  auto outType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!out.isIdentity() || !inType || !outType || !outType.hasStaticShape() ||
      in.getNumSymbols() || inType.getRank() == 0)
    return {};
  // Output dims [groupStart[r], groupStart[r + 1]) form input dim r's group.
  SmallVector<ReassociationIndices> groups(inType.getRank());
  int64_t next = 0;
  for (int64_t d = 0; d < outType.getRank(); ++d) {
    bool kept = next < inType.getRank() &&
                in.getResult(next) == getAffineDimExpr(d, op->getContext());
    if (!kept && outType.getDimSize(d) != 1)
      return {};
    groups[kept ? next : std::max<int64_t>(next - 1, 0)].push_back(d);
    if (kept)
      ++next;
  }
  if (next != inType.getRank())
    return {};
  // A leading size-1 dim before the first kept one joined group 0 above;
  // groups must be contiguous ascending runs, which they are by
  // construction.
  b.setInsertionPoint(op);
  auto e = tensor::ExpandShapeOp::create(b, op.getLoc(), outType,
                                         op.getDpsInputs()[0], groups);
  replaceOp(op, e.getResult());
  return e;
}

/// The input of a copy: a linalg.broadcast, or a generic yielding its one
/// input as is; output map the identity. Null for anything else.
Value copySource(linalg::LinalgOp op) {
  if (!isa<linalg::GenericOp, linalg::BroadcastOp>(op) ||
      op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() != 0 || !op.hasPureTensorSemantics())
    return {};
  if (isa<linalg::BroadcastOp>(op))
    return op.getDpsInputs()[0];
  Block &body = op->getRegion(0).front();
  if (body.getTerminator()->getNumOperands() != 1 ||
      body.getTerminator()->getOperand(0) != body.getArgument(0) ||
      !op.getIndexingMapsArray()[1].isIdentity())
    return {};
  return op.getDpsInputs()[0];
}

} // namespace

Value broadcastCopySource(linalg::LinalgOp op) {
  Value input = copySource(op);
  auto type = input ? dyn_cast<ShapedType>(input.getType()) : ShapedType();
  if (!type || type == op->getResult(0).getType() ||
      !isBroadcastMap(op.getIndexingMapsArray()[0], type))
    return {};
  return input;
}

Value rankRaisingCopySource(linalg::LinalgOp op) {
  Value input = copySource(op);
  if (!input)
    return {};
  AffineMap map = op.getIndexingMapsArray()[0];
  if (map.getNumSymbols() || map.getNumResults() >= map.getNumDims())
    return {};
  int64_t last = -1;
  for (AffineExpr e : map.getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(e);
    if (!dim || (int64_t)dim.getPosition() <= last)
      return {};
    last = dim.getPosition();
  }
  // Only dropping size-1 dims is a reshape (importCopyGeneric's business).
  auto outType = cast<ShapedType>(op->getResult(0).getType());
  for (unsigned d = 0; d < map.getNumDims(); ++d)
    if (!map.isFunctionOfDim(d) && outType.getDimSize(d) != 1)
      return input;
  return {};
}

Reason importTranspose(linalg::TransposeOp op, OpBuilder &b) {
  if (!op.hasPureTensorSemantics())
    return "buffer semantics are not imported";
  if (Reason r = checkTypes(op.getInput(), op->getResultTypes()); !r.empty())
    return r;
  b.setInsertionPoint(op);
  replaceOp(op, createTranspose(b, op.getLoc(), op.getInput(),
                                op.getPermutation()));
  return {};
}

Reason importBroadcast(linalg::BroadcastOp op, OpBuilder &b) {
  if (!op.hasPureTensorSemantics())
    return "buffer semantics are not imported";
  if (Reason r = checkTypes(op.getInput(), op->getResultTypes()); !r.empty())
    return r;
  // One that adds dims of size > 1 waits for its consumers to fold it
  // (rankRaisingCopySource); the rest only add size-1 dims: a reshape.
  if (unitDimExpand(op, b))
    return Reason();
  return Reason("a broadcast that is not a reshape and was not folded into "
                "its users (mk has no broadcast op)");
}

std::optional<Reason> importCopyGeneric(linalg::GenericOp op, OpBuilder &b) {
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op->getNumResults() != 1 || op.getNumReductionLoops() != 0)
    return std::nullopt;
  Block &body = op.getRegion().front();
  Operation *yield = body.getTerminator();
  if (yield->getNumOperands() != 1 ||
      yield->getOperand(0) != body.getArgument(0))
    return std::nullopt;
  if (!op.hasPureTensorSemantics())
    return Reason("buffer semantics are not imported");
  Value input = op.getDpsInputs()[0];
  if (Reason r = checkTypes(input, op->getResultTypes()); !r.empty())
    return r;
  AffineMap in = op.getIndexingMapsArray()[0],
            out = op.getIndexingMapsArray()[1];
  // A copy that reads its size-1 dims as a literal 0 into the same type is
  // its input (torch-mlir's casts of a batch-1 tensor, once the f64 demotion
  // has made them copies).
  if (out.isIdentity() && input.getType() == op->getResult(0).getType() &&
      isBroadcastMap(in, cast<ShapedType>(input.getType()))) {
    replaceOp(op, input);
    return Reason();
  }
  if (!in.isPermutation() || !out.isPermutation()) {
    // A copy that only adds size-1 dims (torch-mlir's broadcast of a weight
    // to batch 1) is a reshape: tensor.expand_shape, outside the mk ops.
    if (tensor::ExpandShapeOp e = unitDimExpand(op, b))
      return Reason();
    return Reason("a copy that broadcasts or drops dims (it repeats data or "
                  "is not a reshape: mk has no such op)");
  }
  // Result dim r is loop dim out(r), which input dim perm[r] also reads.
  SmallVector<int64_t> perm;
  for (unsigned r = 0; r < out.getNumResults(); ++r) {
    unsigned loop = out.getDimPosition(r);
    unsigned src =
        *in.getResultPosition(getAffineDimExpr(loop, op->getContext()));
    perm.push_back(src);
  }
  b.setInsertionPoint(op);
  replaceOp(op, createTranspose(b, op.getLoc(), input, perm));
  return Reason();
}

Reason importConcat(tosa::ConcatOp op, OpBuilder &b) {
  SmallVector<Value> ins(op.getInput1());
  if (Reason r = checkTypes(ins, op->getResultTypes()); !r.empty())
    return r;
  if (Reason r = checkSameElementType(ins, op->getResultTypes()[0]); !r.empty())
    return r;
  b.setInsertionPoint(op);
  if (ins.size() == 1) {
    replaceOp(op, ins[0]);
    return {};
  }
  replaceOp(op, mk::ConcatOp::create(b, op.getLoc(), ins,
                                     b.getI64IntegerAttr(op.getAxis()))
                    .getResult());
  return {};
}

Reason importSoftmax(linalg::SoftmaxOp op, OpBuilder &b) {
  Value x = op.getInput();
  if (Reason r = checkTypes(x, op->getResultTypes()); !r.empty())
    return r;
  if (Reason r = checkSameElementType(x, op->getResultTypes()[0]); !r.empty())
    return r;
  b.setInsertionPoint(op);
  Location loc = op.getLoc();
  IntegerAttr dim = b.getI64IntegerAttr(op.getDimension());
  Value max = mk::ReduceMaxOp::create(b, loc, x, dim).getResult();
  Value shifted = mk::SubOp::create(b, loc, x, max).getResult();
  Value e = mk::ExpOp::create(b, loc, shifted).getResult();
  Value sum = mk::ReduceSumOp::create(b, loc, e, dim).getResult();
  replaceOp(op, mk::DivOp::create(b, loc, e, sum).getResult());
  return {};
}

void replaceDroppedDimResult(OpBuilder &b, Value reduced, Value kept,
                             int64_t dim) {
  auto keptType = cast<RankedTensorType>(kept.getType());
  for (Operation *user : llvm::make_early_inc_range(reduced.getUsers()))
    if (auto e = dyn_cast<tensor::ExpandShapeOp>(user);
        e && e.getResultType() == keptType)
      replaceOp(e, kept);
  if (reduced.use_empty())
    return;
  // The dropped dim joins the group of the dim before it (the first group
  // when it is dim 0); a rank-1 input collapses to rank 0 with no groups.
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < keptType.getRank(); ++d)
    if (d != dim)
      groups.push_back({d});
  if (!groups.empty()) {
    ReassociationIndices &group = groups[std::max<int64_t>(dim - 1, 0)];
    if (dim == 0)
      group.insert(group.begin(), 0);
    else
      group.push_back(dim);
  }
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointAfterValue(kept);
  auto collapse = tensor::CollapseShapeOp::create(
      b, kept.getLoc(), cast<RankedTensorType>(reduced.getType()), kept,
      groups);
  reduced.replaceAllUsesWith(collapse.getResult());
}

Reason importLinalgReduce(linalg::ReduceOp op, OpBuilder &b) {
  if (!op.hasPureTensorSemantics())
    return "buffer semantics are not imported";
  if (op.getInputs().size() != 1 || op->getNumResults() != 1)
    return "a linalg.reduce of several tensors is not imported";
  if (op.getDimensions().size() != 1)
    return "a reduction over several dims is not imported";
  Value input = op.getInputs()[0];
  if (Reason r = checkTypes(input, {}); !r.empty())
    return r;
  if (Reason r = checkSameElementType(input, op->getResult(0).getType());
      !r.empty())
    return r;
  Block &body = op.getCombiner().front();
  Operation *combine = body.getTerminator()->getOperand(0).getDefiningOp();
  bool isSum = isa_and_nonnull<arith::AddFOp>(combine);
  bool isMax = isa_and_nonnull<arith::MaximumFOp, arith::MaxNumFOp>(combine);
  if ((!isSum && !isMax) || combine->getNumOperands() != 2 ||
      !llvm::is_contained(combine->getOperands(), body.getArgument(0)) ||
      !llvm::is_contained(combine->getOperands(), body.getArgument(1)))
    return "the combiner is not an addf or maximumf of the input and the "
           "accumulator";
  Value init = op.getInits()[0];
  if (isSum && !isZeroInit(init))
    return "the sum starts from a non-zero init";
  if (isMax && !isMaxIdentityInit(init))
    return "the max starts from an init other than -inf or the lowest value";
  int64_t dim = op.getDimensions()[0];
  b.setInsertionPoint(op);
  IntegerAttr d = b.getI64IntegerAttr(dim);
  Value r = isSum
                ? mk::ReduceSumOp::create(b, op.getLoc(), input, d).getResult()
                : mk::ReduceMaxOp::create(b, op.getLoc(), input, d).getResult();
  replaceDroppedDimResult(b, op->getResult(0), r, dim);
  op->erase();
  return {};
}

SmallVector<Operation *> importReshapes(func::FuncOp func, OpBuilder &b,
                                        bool keepDynamic) {
  auto isMk = [](Operation *op) {
    return op->getDialect() && isa<mk::MKDialect>(op->getDialect());
  };
  auto isReshape = [](Operation *op) {
    return isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tosa::ReshapeOp>(
        op);
  };
  // To a fixpoint: a chain of reshapes is imported from its mk end.
  for (bool changed = true; changed;) {
    changed = false;
    SmallVector<Operation *> reshapes;
    for (Operation &op : func.getBody().front())
      if (isReshape(&op))
        reshapes.push_back(&op);
    for (Operation *op : reshapes) {
      Value in = op->getOperand(0), out = op->getResult(0);
      // A reshape to its own type is its input, wherever it is.
      if (in.getType() == out.getType()) {
        Operation *shape = isa<tosa::ReshapeOp>(op)
                               ? op->getOperand(1).getDefiningOp()
                               : nullptr;
        replaceOp(op, in);
        if (shape && shape->use_empty())
          shape->erase();
        changed = true;
        continue;
      }
      if (!isMkTensor(in.getType()) || !isMkTensor(out.getType()))
        continue;
      // [K16] a dynamic reshape keeps one dynamic dim, the same on both
      // sides, and the product of the static dims.
      auto inType = cast<RankedTensorType>(in.getType());
      auto outType = cast<RankedTensorType>(out.getType());
      if (!inType.hasStaticShape() || !outType.hasStaticShape()) {
        auto staticProduct = [](RankedTensorType t) {
          int64_t p = 1;
          for (int64_t d : t.getShape())
            p *= ShapedType::isDynamic(d) ? 1 : d;
          return p;
        };
        if (!keepDynamic || inType.getNumDynamicDims() != 1 ||
            outType.getNumDynamicDims() != 1 ||
            staticProduct(inType) != staticProduct(outType))
          continue;
      }
      Operation *def = in.getDefiningOp();
      bool fromMk = def && isMk(def);
      bool intoMk = !out.use_empty() && llvm::all_of(out.getUsers(), isMk);
      if (!fromMk && !intoMk)
        continue;
      b.setInsertionPoint(op);
      Value v =
          mk::ReshapeOp::create(b, op->getLoc(), out.getType(), in).getResult();
      Operation *shape = isa<tosa::ReshapeOp>(op)
                             ? op->getOperand(1).getDefiningOp()
                             : nullptr;
      // The sizes of a dynamic tensor.expand_shape (tensor.dim of its
      // input, usually) go with it when nothing else reads them.
      SmallVector<Operation *> sizes;
      if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
        for (Value size : expand.getOutputShape())
          if (Operation *sizeDef = size.getDefiningOp())
            if (!llvm::is_contained(sizes, sizeDef))
              sizes.push_back(sizeDef);
      out.replaceAllUsesWith(v);
      op->erase();
      if (shape && shape->use_empty())
        shape->erase();
      for (Operation *sizeDef : sizes)
        if (isOpTriviallyDead(sizeDef))
          sizeDef->erase();
      changed = true;
    }
  }
  SmallVector<Operation *> left;
  for (Operation &op : func.getBody().front())
    if (isa<tosa::ReshapeOp>(op))
      left.push_back(&op);
  return left;
}

namespace {

bool isReshapeOp(Operation *op) {
  return isa_and_nonnull<tensor::ExpandShapeOp, tensor::CollapseShapeOp,
                         tosa::ReshapeOp>(op);
}

/// Whether every user of `op` is a reshape to a tensor mk can hold (a copy
/// or tile to a rank mk cannot hold is read only through such views).
bool onlyReshapedToMkTensors(Operation *op) {
  return llvm::all_of(op->getUsers(), [](Operation *user) {
    return isReshapeOp(user) && isMkTensor(user->getResult(0).getType());
  });
}

/// The multiples of a tosa.tile, when they are a tosa.const_shape.
std::optional<SmallVector<int64_t>> tileMultiples(tosa::TileOp op) {
  auto shape = op.getMultiples().getDefiningOp<tosa::ConstShapeOp>();
  if (!shape)
    return std::nullopt;
  SmallVector<int64_t> multiples;
  for (const APInt &m : shape.getValues().getValues<APInt>())
    multiples.push_back(m.getSExtValue());
  return multiples;
}

} // namespace

Reason tileReason(tosa::TileOp op) {
  auto in = dyn_cast<RankedTensorType>(op.getInput1().getType());
  auto out = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  std::optional<SmallVector<int64_t>> multiples = tileMultiples(op);
  if (!in || !out || !in.hasStaticShape() || !out.hasStaticShape() ||
      !multiples || (int64_t)multiples->size() != in.getRank())
    return "tosa.tile with dynamic shapes or multiples that are not a "
           "tosa.const_shape";
  // Dims of size 1 not repeated carry nothing: without them the tile must
  // fit mk's rank, and so must its source (through a reshape) and its users
  // (through reshapes) where the tile itself does not.
  int64_t kept = 0;
  for (auto [size, m] : llvm::zip(in.getShape(), *multiples))
    kept += !(size == 1 && m == 1);
  if (kept > 4)
    return "tosa.tile repeats a tensor of more than 4 dims of size > 1";
  Value source = op.getInput1();
  if (!isMkTensor(source.getType()) && isReshapeOp(source.getDefiningOp()))
    source = source.getDefiningOp()->getOperand(0);
  if (!isMkTensor(source.getType()))
    return "tosa.tile of a tensor mk cannot hold (rank 5 or more, or not "
           "f16/bf16/f32), not read through a reshape from one it can";
  if (!isMkTensor(out) && !onlyReshapedToMkTensors(op))
    return "tosa.tile to a tensor mk cannot hold, not only read "
           "through reshapes to ones it can";
  return {};
}

namespace {

/// Replaces `op`, which repeats `source` (read through `inputReshape`, when
/// not null) `repeats[d]` times along dim d of the shape `shape` (the
/// source's dims with the size-1 dims not repeated dropped), by mk ops: the
/// source reshaped to `shape`, an mk.concat of copies along each repeated
/// dim, reshaped to `op`'s result, or to the results of its users (reshapes)
/// when `op`'s result is not an mk tensor; those users go.
void replaceRepeat(Operation *op, Value source, Operation *inputReshape,
                   ArrayRef<int64_t> shape, ArrayRef<int64_t> repeats,
                   OpBuilder &b) {
  Location loc = op->getLoc();
  b.setInsertionPoint(op);
  auto type = RankedTensorType::get(
      shape, cast<ShapedType>(source.getType()).getElementType());
  Value v = source;
  if (v.getType() != type)
    v = mk::ReshapeOp::create(b, loc, type, v).getResult();
  // Repeating a dim m times is concatenating m copies along it.
  for (auto [d, m] : llvm::enumerate(repeats))
    if (m > 1)
      v = mk::ConcatOp::create(b, loc, SmallVector<Value>(m, v),
                               b.getI64IntegerAttr(d))
              .getResult();
  auto reshapeTo = [&](Type t) -> Value {
    return v.getType() == t ? v
                            : mk::ReshapeOp::create(b, loc, t, v).getResult();
  };
  SmallVector<Operation *> dead;
  if (isMkTensor(op->getResult(0).getType())) {
    op->getResult(0).replaceAllUsesWith(reshapeTo(op->getResult(0).getType()));
  } else {
    for (Operation *user : llvm::make_early_inc_range(op->getUsers())) {
      user->getResult(0).replaceAllUsesWith(
          reshapeTo(user->getResult(0).getType()));
      dead.push_back(user);
    }
  }
  dead.push_back(op);
  if (inputReshape)
    dead.push_back(inputReshape);
  for (Operation *d : dead) {
    SmallVector<Value> operands(d->getOperands());
    if (!d->use_empty())
      continue;
    d->erase();
    // The shape operands (tosa.const_shape) and inits (tensor.empty) of
    // erased ops go with them.
    for (Value operand : operands)
      if (Operation *def = operand.getDefiningOp();
          def && isa<tosa::ConstShapeOp, tensor::EmptyOp>(def) &&
          def->use_empty())
        def->erase();
  }
}

/// The source of a repeat, looking through a reshape from an mk tensor (the
/// rank-5 view of repeat_kv); sets `inputReshape` to that reshape.
Value repeatSource(Value input, Operation *&inputReshape) {
  inputReshape = nullptr;
  if (isMkTensor(input.getType()))
    return input;
  if (isReshapeOp(input.getDefiningOp()) &&
      isMkTensor(input.getDefiningOp()->getOperand(0).getType()) &&
      input.hasOneUse()) {
    inputReshape = input.getDefiningOp();
    return inputReshape->getOperand(0);
  }
  return {};
}

} // namespace

void importTiles(func::FuncOp func, OpBuilder &b) {
  SmallVector<tosa::TileOp> tiles(func.getOps<tosa::TileOp>());
  for (tosa::TileOp op : tiles) {
    if (!tileReason(op).empty())
      continue;
    auto in = cast<RankedTensorType>(op.getInput1().getType());
    SmallVector<int64_t> multiples = *tileMultiples(op);
    SmallVector<int64_t> shape, repeats;
    for (auto [size, m] : llvm::zip(in.getShape(), multiples))
      if (!(size == 1 && m == 1)) {
        shape.push_back(size);
        repeats.push_back(m);
      }
    if (shape.empty()) {
      shape.push_back(1);
      repeats.push_back(1);
    }
    Operation *inputReshape = nullptr;
    Value v = op.getInput1();
    if (!isMkTensor(v.getType())) {
      inputReshape = v.getDefiningOp();
      v = inputReshape->getOperand(0);
    }
    replaceRepeat(op, v, inputReshape, shape, repeats, b);
  }
}

Reason importRepeatCopy(linalg::LinalgOp op, OpBuilder &b) {
  Value input = copySource(op);
  auto out = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  auto in = input ? dyn_cast<RankedTensorType>(input.getType()) : nullptr;
  if (!in || !out || !in.hasStaticShape() || !out.hasStaticShape())
    return "a broadcast copy of dynamic shapes";
  // Each loop dim is read from the input dim of the same size, or
  // repeated: the input has size 1 there (a literal 0 in the map) or does
  // not read it (a dropped dim).
  AffineMap map = op.getIndexingMapsArray()[0];
  SmallVector<int64_t> inSize(out.getRank(), 1);
  for (auto [r, e] : llvm::enumerate(map.getResults())) {
    if (auto dim = dyn_cast<AffineDimExpr>(e)) {
      inSize[dim.getPosition()] = in.getDimSize(r);
      continue;
    }
    auto c = dyn_cast<AffineConstantExpr>(e);
    if (!c || c.getValue() != 0 || in.getDimSize(r) != 1)
      return "a broadcast copy whose map is not a repeat";
  }
  SmallVector<int64_t> shape, repeats;
  for (int64_t d = 0; d < out.getRank(); ++d) {
    if (out.getDimSize(d) == 1)
      continue;
    if (inSize[d] != 1 && inSize[d] != out.getDimSize(d))
      return "a broadcast copy whose map is not a repeat";
    shape.push_back(inSize[d]);
    repeats.push_back(out.getDimSize(d) / inSize[d]);
  }
  if (shape.empty() || shape.size() > 4)
    return "a broadcast copy repeating a tensor of more than 4 dims of size "
           "> 1 (mk has no broadcast op)";
  // The input dims in map order must be the loop dims in order, so that
  // reshaping the input to `shape` keeps its elements' order.
  int64_t last = -1;
  for (AffineExpr e : map.getResults())
    if (auto dim = dyn_cast<AffineDimExpr>(e)) {
      if ((int64_t)dim.getPosition() <= last)
        return "a broadcast copy that also transposes";
      last = dim.getPosition();
    }
  Operation *inputReshape;
  Value source = repeatSource(input, inputReshape);
  if (!source)
    return "a broadcast copy of a tensor mk cannot hold, not read through a "
           "reshape from one it can";
  if (!isMkTensor(out) && !onlyReshapedToMkTensors(op))
    return "a broadcast copy to a tensor mk cannot hold, not only read "
           "through reshapes to ones it can";
  // Between mk ops it would cut the mk function; a repeat of an input that
  // no mk op reads (returned, or read outside) stays in the caller.
  auto isMkOp = [](Operation *o) {
    return o && o->getDialect() && isa<mk::MKDialect>(o->getDialect());
  };
  bool intoMk = false;
  for (Operation *user : op->getUsers()) {
    intoMk |= isMkOp(user);
    if (isReshapeOp(user))
      intoMk |= llvm::any_of(user->getUsers(), isMkOp);
  }
  if (!intoMk && !isMkOp(source.getDefiningOp()))
    return "a repeat that no mk op reads, of a value mk does not compute "
           "(it stays with the caller)";
  replaceRepeat(op, source, inputReshape, shape, repeats, b);
  return {};
}

} // namespace mirage::import
