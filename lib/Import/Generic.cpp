//===- Generic.cpp - Import of element-wise and reduction generics --------===//
//
// See Generic.h. The inputs of a generic are bound to tensors of the loop's
// shape and compute type here; its body is translated by BodyImporter
// (BodyImporter.h).
//
//===----------------------------------------------------------------------===//

#include "Generic.h"
#include "BodyImporter.h"
#include "Common.h"
#include "Contraction.h"
#include "Masks.h"
#include "NamedOps.h"

#include "Mirage/Dialect/Kernel/IR/Kernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#include <cmath>

using namespace mlir;

namespace mirage::import {
namespace {

/// An input map that broadcasts by dropping loop dims (a bias read with
/// (d0, d1) -> (d1), a rank-0 scalar read with (d0, d1) -> ()): the loop dims
/// it keeps, in order, must be distinct and increasing. Returns the input's
/// type with the dropped dims as size 1 and the reassociation of a
/// tensor.expand_shape to it (each dropped dim joins the group of the input
/// dim before it, or the first group); failure for any other map.
FailureOr<RankedTensorType>
rankRaisingBroadcast(AffineMap map, RankedTensorType type,
                     SmallVectorImpl<ReassociationIndices> &reassociation) {
  unsigned loops = map.getNumDims();
  if (map.getNumSymbols() || map.getNumResults() >= loops ||
      (int64_t)map.getNumResults() != type.getRank())
    return failure();
  SmallVector<int64_t> shape(loops, 1);
  SmallVector<int64_t> groupOf(loops, 0);
  int64_t last = -1;
  for (auto [r, expr] : llvm::enumerate(map.getResults())) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim || (int64_t)dim.getPosition() <= last)
      return failure();
    last = dim.getPosition();
    shape[last] = type.getDimSize(r);
  }
  reassociation.assign(type.getRank(), {});
  int64_t group = -1;
  for (unsigned d = 0; d < loops; ++d) {
    if (group + 1 < type.getRank() &&
        map.getResult(group + 1) == getAffineDimExpr(d, map.getContext()))
      ++group;
    if (type.getRank() > 0)
      reassociation[std::max<int64_t>(group, 0)].push_back(d);
  }
  return RankedTensorType::get(shape, type.getElementType());
}

/// A tensor.expand_shape of `v` to `type`, right after `v` is defined (at
/// the start of the block for an argument) so that it stays out of the runs
/// of mk ops; an existing one is reused. New ops go to `created`.
Value expandAfterDefinition(OpBuilder &b, Value v, RankedTensorType type,
                            ArrayRef<ReassociationIndices> reassociation,
                            SmallVectorImpl<Operation *> &created) {
  for (Operation *user : v.getUsers())
    if (auto e = dyn_cast<tensor::ExpandShapeOp>(user))
      if (e.getResultType() == type &&
          e.getReassociationIndices() == reassociation)
        return e.getResult();
  OpBuilder::InsertionGuard guard(b);
  if (auto arg = dyn_cast<BlockArgument>(v))
    b.setInsertionPointToStart(arg.getOwner());
  else
    b.setInsertionPointAfterValue(v);
  auto e = tensor::ExpandShapeOp::create(b, v.getLoc(), type, v, reassociation);
  created.push_back(e);
  return e.getResult();
}

/// An element-wise linalg.generic applying the scalar cast `castName`
/// (arith.extf, truncf, sitofp, uitofp) to `input`: a conversion of a type
/// mk does not hold (f64, an integer or boolean mask), which stays outside
/// the mk ops and which upstream lowers as any generic.
/// Its init and itself go to `created`.
Operation *castOutsideMk(OpBuilder &b, Location loc, Value input,
                         RankedTensorType castType, OperationName castName,
                         SmallVectorImpl<Operation *> &created) {
  auto type = cast<RankedTensorType>(input.getType());
  // Dynamic dims take their sizes from the input (tensor.dim).
  auto init = tensor::EmptyOp::create(
      b, loc, tensor::getMixedSizes(b, loc, input), castType.getElementType());
  created.push_back(init);
  AffineMap id = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{castType}, ValueRange{input}, ValueRange{init.getResult()},
      ArrayRef<AffineMap>{id, id}, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        OperationState state(nloc, castName);
        state.addOperands(args[0]);
        state.addTypes(castType.getElementType());
        Value v = nb.create(state)->getResult(0);
        linalg::YieldOp::create(nb, nloc, v);
      });
  created.push_back(generic);
  return generic;
}

/// A generic reducing one dim into its result `k`: `out = out + f(ins)` or
/// `max(out, f(ins))`, the output map keeping the reduced dim as a literal 0.
Reason importReductionGeneric(linalg::GenericOp op, unsigned k, OpBuilder &b);

/// Erases the ops inserted after `before` (null: the block start) up to `op`,
/// so a body that fails half-way leaves nothing behind.
void eraseInsertedBetween(Operation *before, Operation *op) {
  SmallVector<Operation *> created;
  for (Operation *it = before ? before->getNextNode()
                              : &op->getBlock()->front();
       it != op; it = it->getNextNode())
    created.push_back(it);
  for (Operation *c : llvm::reverse(created))
    c->erase();
}

/// The input of an element-wise generic read through `map`: a copy that
/// broadcasts by dropping dims is looked through (its input, read through
/// the composed map), so the broadcast becomes mk's size-1 broadcasting.
std::pair<Value, AffineMap> throughBroadcastCopy(Value input, AffineMap map) {
  auto copy = input.getDefiningOp<linalg::LinalgOp>();
  if (!copy || !rankRaisingCopySource(copy))
    return {input, map};
  return {copy.getDpsInputs()[0], copy.getIndexingMapsArray()[0].compose(map)};
}

} // namespace

/// A linalg.generic with an arith/math body, all-parallel or reducing one
/// dim. Of several results only one may be used (torch-mlir's max also
/// yields an argmax that softmax never reads); that one is imported.
Reason importGeneric(linalg::GenericOp op, OpBuilder &b) {
  if (!op.hasPureTensorSemantics())
    return "buffer semantics are not imported";
  unsigned k = 0;
  if (op->getNumResults() != 1) {
    auto used = llvm::make_filter_range(
        op->getResults(), [](OpResult r) { return !r.use_empty(); });
    if (std::distance(used.begin(), used.end()) != 1)
      return "a generic with several used results is not imported";
    k = (*used.begin()).getResultNumber();
  }
  if (std::optional<Reason> copy = importCopyGeneric(op, b))
    return *copy;
  if (op.getNumReductionLoops() != 0 && hasContractionBody(op))
    return importContraction(op, b);
  if (op.getNumReductionLoops() != 0)
    return importReductionGeneric(op, k, b);
  auto finalType = dyn_cast<RankedTensorType>(op->getResult(k).getType());
  if (!finalType)
    return "the result is not a ranked tensor";
  // Casts at the edges of the body (bf16/f16 storage, f32 compute): an
  // input read only through arith.extf/truncf to the compute type, and a
  // yielded extf/truncf. The body between them is imported in the compute
  // type and each cast becomes an mk.convert (right after the input's
  // definition, and after the result), which the kernels fuse; a type mk
  // does not hold (f64) keeps a tensor cast, outside the mk ops.
  Block &body = op.getRegion().front();
  Value yielded = body.getTerminator()->getOperand(k);
  Operation *outCast = yielded.getDefiningOp();
  if (!isa_and_nonnull<arith::ExtFOp, arith::TruncFOp>(outCast) ||
      outCast->getBlock() != &body)
    outCast = nullptr;
  Type computeElt = outCast ? outCast->getOperand(0).getType()
                            : finalType.getElementType();
  auto resultType = RankedTensorType::get(finalType.getShape(), computeElt);
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  // Masks computed from indices by a generic of their own (an i1 tensor, or
  // one of 0 and -inf): bands of this generic's loop dims, not tensors.
  SmallVector<std::optional<BandTensor>> masks;
  for (auto [input, map] : llvm::zip(op.getDpsInputs(), maps)) {
    std::optional<BandTensor> mask = bandTensorOf(input);
    std::optional<Band> band =
        mask ? bandThroughMap(mask->band, map) : std::nullopt;
    if (band)
      mask->band = *band;
    masks.push_back(band ? mask : std::nullopt);
  }
  SmallVector<bool> castInput;
  // Boolean masks read by selects (their condition): converted to float
  // outside, read by mk.where.
  SmallVector<bool> boolMask;
  bool anyCast = outCast != nullptr;
  for (auto [input, arg, mask] :
       llvm::zip(op.getDpsInputs(), body.getArguments(), masks)) {
    auto t = dyn_cast<ShapedType>(input.getType());
    if (!t)
      return "a scalar (non-tensor) operand is not imported";
    bool cast = t.getElementType() != computeElt && !splatValue(input) &&
                !mask;
    bool isBoolMask =
        cast && t.getElementType().isInteger(1) && !arg.use_empty() &&
        llvm::all_of(arg.getUses(), [](OpOperand &use) {
          return isa<arith::SelectOp>(use.getOwner()) &&
                 use.getOperandNumber() == 0;
        });
    boolMask.push_back(isBoolMask);
    // (An integer or boolean mask converted to float: sitofp/uitofp.) All
    // its casts are of one kind.
    Value argValue = arg;
    if (cast && !isBoolMask && (arg.use_empty() ||
                 !llvm::all_of(arg.getUsers(), [&](Operation *u) {
                   return isa<arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp,
                              arith::UIToFPOp>(u) &&
                          u->getResult(0).getType() == computeElt &&
                          u->getName() ==
                              (*argValue.getUsers().begin())->getName();
                 })))
      return "mixed element types (a cast) have no mk counterpart";
    castInput.push_back(cast);
    anyCast |= cast;
  }
  // A body that only casts (linalg.copy to another type) is one mk.convert
  // of its input; that input is then read in its own type.
  if (anyCast && !isMkTensor(resultType))
    return "result type is not an f16/bf16/f32 tensor of rank 1-4 "
           "without encoding";
  if (!maps[op.getNumDpsInputs() + k].isIdentity())
    return "the output map is not the identity (a transposing write)";
  // Inputs broadcast by dropped dims are read through a tensor.expand_shape
  // to the loop rank (exact: size-1 dims do not move data).
  // Inputs read through a permutation map are transposed to the loop order.
  struct Raised {
    RankedTensorType type;
    SmallVector<ReassociationIndices> reassociation;
    SmallVector<int64_t> perm;
  };
  SmallVector<std::optional<Raised>> raised;
  SmallVector<Type> inputTypes;
  SmallVector<Value> inputs;
  // A splat constant input (or a fill of one) is a scalar in the body,
  // whatever its shape and map.
  SmallVector<std::optional<double>> splats;
  for (auto [opInput, opMap] : llvm::zip(op.getDpsInputs(), maps)) {
    if (masks[inputs.size()]) {
      inputs.push_back(opInput);
      raised.push_back(std::nullopt);
      splats.push_back(std::nullopt);
      continue;
    }
    auto [input, map] = throughBroadcastCopy(opInput, opMap);
    bool castThis = castInput[inputs.size()];
    // (A broadcast copy of a splat, e.g. of a rank-0 constant, too.)
    splats.push_back(splatValue(opInput));
    if (!splats.back())
      splats.back() = splatValue(input);
    if (splats.back()) {
      inputs.push_back(opInput);
      raised.push_back(std::nullopt);
      continue;
    }
    inputs.push_back(input);
    auto type = dyn_cast<RankedTensorType>(input.getType());
    // A cast input is read as its cast (created below), of the compute type.
    if (type && castThis)
      type = RankedTensorType::get(type.getShape(), computeElt);
    if (type && isBroadcastMap(map, type)) {
      raised.push_back(std::nullopt);
      inputTypes.push_back(type);
      continue;
    }
    Raised r;
    if (type && map.isPermutation()) {
      SmallVector<int64_t> shape;
      for (unsigned d = 0; d < map.getNumDims(); ++d) {
        unsigned pos =
            *map.getResultPosition(getAffineDimExpr(d, op.getContext()));
        r.perm.push_back(pos);
        shape.push_back(type.getDimSize(pos));
      }
      r.type = RankedTensorType::get(shape, type.getElementType());
      inputTypes.push_back(r.type);
      raised.push_back(std::move(r));
      continue;
    }
    FailureOr<RankedTensorType> t =
        type ? rankRaisingBroadcast(map, type, r.reassociation)
             : FailureOr<RankedTensorType>(failure());
    if (failed(t))
      return "an input map is neither the identity, a size-1 broadcast, a "
             "permutation nor a broadcast that drops dims in order";
    r.type = *t;
    inputTypes.push_back(r.type);
    raised.push_back(std::move(r));
  }
  for (Type t : inputTypes)
    if (!isMkTensor(t))
      return "operand type is not an f16/bf16/f32 tensor of rank 1-4 "
             "without encoding";
  if (Reason r = checkTypes({}, finalType); !r.empty())
    return r;
  for (Operation &inner : body.without_terminator())
    if (inner.getNumRegions() != 0)
      return "a body op with regions";
  if (outCast)
    yielded = outCast->getOperand(0);

  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(op);
  SmallVector<Operation *> expands;
  BodyImporter importer(b, op.getLoc(), resultType, &body);
  for (auto [arg, splat, mask] : llvm::zip(body.getArguments(), splats, masks)) {
    if (splat)
      importer.bindConstant(arg, *splat);
    if (mask)
      importer.bindMask(arg, *mask);
  }
  // Cast inputs: the tensor cast right after the input's definition (out of
  // the mk runs), its casts in the body bound to it.
  for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
    if (i >= castInput.size() || !castInput[i] || splats[i])
      continue;
    Value input = inputs[i];
    auto type = cast<RankedTensorType>(input.getType());
    auto castType = RankedTensorType::get(type.getShape(), computeElt);
    OpBuilder::InsertionGuard g(b);
    if (auto blockArg = dyn_cast<BlockArgument>(input))
      b.setInsertionPointToStart(blockArg.getOwner());
    else
      b.setInsertionPointAfterValue(input);
    Operation *c;
    if (isMkTensor(type) && isMkTensor(castType)) {
      c = mk::ConvertOp::create(b, op.getLoc(), castType, input);
      expands.push_back(c);
    } else {
      c = castOutsideMk(b, op.getLoc(), input, castType,
                        boolMask[i] ? OperationName(arith::UIToFPOp::
                                                        getOperationName(),
                                                    b.getContext())
                                    : (*arg.getUsers().begin())->getName(),
                        expands);
    }
    inputs[i] = c->getResult(0);
  }
  for (auto [arg, input, r] : llvm::zip(body.getArguments(), inputs, raised))
    if (r && r->perm.empty())
      importer.bind(arg, expandAfterDefinition(b, input, r->type,
                                               r->reassociation, expands));
  // Remember what was inserted (after the expands), to roll it back on
  // failure.
  Operation *before = op->getPrevNode();
  for (auto [arg, input, r, splat, mask] :
       llvm::zip(body.getArguments(), inputs, raised, splats, masks)) {
    if (splat || mask)
      continue;
    if (!r)
      importer.bind(arg, input);
    else if (!r->perm.empty())
      importer.bind(arg, createTranspose(b, op.getLoc(), input, r->perm));
  }
  // The casts of a cast input read it as bound above; a boolean mask is
  // read as it is bound, by its selects.
  for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
    if (i < boolMask.size() && boolMask[i])
      importer.markBoolMask(arg);
    else if (i < castInput.size() && castInput[i] && !splats[i])
      for (Operation *u : arg.getUsers())
        importer.bind(u->getResult(0), importer.lookup(arg));
  }
  // A body that reads its output (TPP's and IREE's in-place bias add and
  // ReLU, `outs(%acc)`): element-wise, that is the init's value, another
  // input read through the (identity) output map; a splat init is a scalar.
  Value outArg = body.getArgument(op.getNumDpsInputs() + k);
  if (!outArg.use_empty()) {
    Value init = op.getDpsInits()[k];
    if (std::optional<double> c = splatValue(init)) {
      importer.bindConstant(outArg, *c);
    } else if (init.getDefiningOp<tensor::EmptyOp>()) {
      eraseInsertedBetween(before, op);
      for (Operation *e : llvm::reverse(expands))
        e->erase();
      return "the body reads the output of a tensor.empty (undefined)";
    } else if (init.getType() == resultType) {
      importer.bind(outArg, init);
    } else {
      eraseInsertedBetween(before, op);
      for (Operation *e : llvm::reverse(expands))
        e->erase();
      return "the body reads an output of another type than it computes";
    }
  }
  Reason why;
  FailureOr<Value> result = importer.import(yielded, why);
  auto rollback = [&] {
    eraseInsertedBetween(before, op);
    for (Operation *e : llvm::reverse(expands))
      e->erase();
  };
  if (failed(result)) {
    rollback();
    return why;
  }
  if (result->getType() != resultType) {
    rollback();
    return "the body does not produce a value of the full iteration shape "
           "(pure copy or broadcast)";
  }
  Value value = *result;
  if (outCast) {
    // The result's cast: an mk.convert, or a tensor cast outside the mk ops
    // for a type mk does not hold.
    value = isMkTensor(value.getType()) && isMkTensor(finalType)
                ? mk::ConvertOp::create(b, op.getLoc(), finalType, value)
                      .getResult()
            : isa<arith::ExtFOp>(outCast)
                ? arith::ExtFOp::create(b, op.getLoc(), finalType, value)
                      .getResult()
                : arith::TruncFOp::create(b, op.getLoc(), finalType, value)
                      .getResult();
  }
  op->getResult(k).replaceAllUsesWith(value);
  op->erase();
  return {};
}

namespace {

Reason importReductionGeneric(linalg::GenericOp op, unsigned k, OpBuilder &b) {
  if (op.getNumReductionLoops() != 1)
    return "a reduction over several dims is not imported";
  if (Reason r = checkTypes(op.getDpsInputs(), {}); !r.empty())
    return r;
  Type resultType = op->getResult(k).getType();
  if (Reason r = checkSameElementType(op.getDpsInputs(), resultType);
      !r.empty())
    return r;
  unsigned rank = op.getNumLoops();
  unsigned reduced = 0;
  for (auto [i, it] : llvm::enumerate(op.getIteratorTypesArray()))
    if (it == utils::IteratorType::reduction)
      reduced = i;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  SmallVector<int64_t> shape;
  for (auto [input, map] : llvm::zip(op.getDpsInputs(), maps))
    if (!isBroadcastMap(map, cast<ShapedType>(input.getType())))
      return "an input map of the reduction is neither the identity nor a "
             "size-1 broadcast";
  if (op.getNumDpsInputs() == 0)
    return "a reduction without inputs";
  // The inputs broadcast to the iteration shape (mk's rule, dynamic dims
  // included).
  shape.assign(rank, 1);
  for (Value input : op.getDpsInputs()) {
    FailureOr<SmallVector<int64_t>> both =
        broadcastShapes(shape, cast<ShapedType>(input.getType()).getShape());
    if (failed(both))
      return "the inputs of the reduction do not broadcast";
    shape = *both;
  }
  // The output map keeps the reduced dim as a literal 0, or drops it (what
  // torch-mlir and IREE emit); the mk reduction keeps it with size 1 and
  // replaceDroppedDimResult gives the users the dropped form.
  AffineMap outMap = maps[op.getNumDpsInputs() + k];
  bool dropped = outMap.getNumResults() == rank - 1;
  if (!dropped && outMap.getNumResults() != rank)
    return "the output map of the reduction is not the identity";
  for (unsigned d = 0, r = 0; d < rank; ++d) {
    if (d == reduced && dropped)
      continue;
    AffineExpr e = outMap.getResult(r++);
    if (d == reduced) {
      auto c = dyn_cast<AffineConstantExpr>(e);
      if (!c || c.getValue() != 0)
        return "the output map does not keep the reduced dim as 0";
    } else if (e != getAffineDimExpr(d, op.getContext())) {
      return "the output map of the reduction is not the identity";
    }
  }
  if (dropped) {
    SmallVector<int64_t> kept(shape);
    kept[reduced] = 1;
    resultType = RankedTensorType::get(
        kept, cast<ShapedType>(resultType).getElementType());
  }
  if (Reason r = checkTypes({}, resultType); !r.empty())
    return r;

  Block &body = op.getRegion().front();
  Value outArg = body.getArgument(op.getNumDpsInputs() + k);
  Operation *combine = body.getTerminator()->getOperand(k).getDefiningOp();
  bool isSum = isa_and_nonnull<arith::AddFOp>(combine);
  bool isMax = isa_and_nonnull<arith::MaximumFOp, arith::MaxNumFOp>(combine);
  if (!isSum && !isMax)
    return "the reduction body does not end in an addf or maximumf with the "
           "output";
  Value partial;
  if (combine->getOperand(0) == outArg)
    partial = combine->getOperand(1);
  else if (combine->getOperand(1) == outArg)
    partial = combine->getOperand(0);
  else
    return "the reduction body does not combine with the output argument";
  // Other uses of the output argument (the argmax that torch-mlir's max
  // computes beside it) do not matter for result k; a partial value that
  // reads it fails to import below.
  Value init = op.getDpsInits()[k];
  if (isSum && !isZeroInit(init))
    return "the sum starts from a non-zero init";
  if (isMax && !isMaxIdentityInit(init))
    return "the max starts from an init other than -inf or the lowest value";

  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(op);
  auto iterType = RankedTensorType::get(
      shape, cast<ShapedType>(resultType).getElementType());
  BodyImporter importer(b, op.getLoc(), iterType, &body);
  for (auto [arg, input] : llvm::zip(body.getArguments(), op.getDpsInputs()))
    importer.bind(arg, input);
  Operation *before = op->getPrevNode();
  Reason why;
  FailureOr<Value> value = importer.import(partial, why);
  if (succeeded(value) && cast<ShapedType>(value->getType()).getShape() !=
                              ArrayRef<int64_t>(shape)) {
    why = "the reduced value does not have the full iteration shape";
    value = failure();
  }
  if (failed(value)) {
    eraseInsertedBetween(before, op);
    return why;
  }
  Value result;
  IntegerAttr dim = b.getI64IntegerAttr(reduced);
  if (isSum)
    result = mk::ReduceSumOp::create(b, op.getLoc(), *value, dim).getResult();
  else
    result = mk::ReduceMaxOp::create(b, op.getLoc(), *value, dim).getResult();
  if (dropped)
    replaceDroppedDimResult(b, op->getResult(k), result, reduced);
  else
    op->getResult(k).replaceAllUsesWith(result);
  op->erase();
  return {};
}

} // namespace

/// An element-wise named linalg op (linalg.elementwise, linalg.max/min/powf,
/// linalg.copy, the unary ops, or add/sub/mul/div reading a splat constant
/// or a broadcast copy) imported through its generic form, so that its body
/// goes through the same importer. On failure the named op is left as it
/// was.
Reason importThroughGeneric(linalg::LinalgOp named, OpBuilder &b) {
  // The generic form of a clone takes the named op's uses; the named op
  // itself stays until the import succeeds (the caller remarks on it when it
  // does not).
  Operation *op = named.getOperation();
  IRRewriter rewriter(op->getContext());
  rewriter.setInsertionPoint(op);
  auto clone = cast<linalg::LinalgOp>(rewriter.clone(*op));
  FailureOr<linalg::GenericOp> generic =
      linalg::generalizeNamedOp(rewriter, clone);
  if (failed(generic)) {
    clone->erase();
    return "this linalg op has no generic form to import";
  }
  Operation *g = generic->getOperation();
  op->replaceAllUsesWith(g);
  Reason why = importGeneric(*generic, b);
  if (why.empty()) {
    op->erase();
    return why;
  }
  g->replaceAllUsesWith(op);
  g->erase();
  return why;
}

/// Whether `op` is a named element-wise linalg op (all loops parallel, one
/// result) that importThroughGeneric takes.
bool isNamedElementwise(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || isa<linalg::GenericOp, linalg::FillOp, linalg::TransposeOp,
                       linalg::BroadcastOp>(op))
    return false;
  return op->getNumResults() == 1 && linalgOp.hasPureTensorSemantics() &&
         linalgOp.getNumLoops() == linalgOp.getNumParallelLoops() &&
         linalgOp.getNumDpsInits() == 1;
}

} // namespace mirage::import
