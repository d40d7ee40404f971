//===- UnitDims.cpp - Drop leading size-1 dims of imported mk ops ---------===//

#include "UnitDims.h"

#include "Mirage/Dialect/Kernel/IR/Kernel.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Verifier.h"

using namespace mlir;

namespace mirage::import {
namespace {

bool isMk(Operation *op) {
  return op->getDialect() && isa<mk::MKDialect>(op->getDialect());
}

unsigned leadingOnes(RankedTensorType t) {
  unsigned n = 0;
  while (n < t.getRank() && t.getDimSize(n) == 1)
    ++n;
  return n;
}

RankedTensorType dropFront(RankedTensorType t, unsigned k) {
  return RankedTensorType::get(t.getShape().drop_front(k), t.getElementType());
}

/// How many leading dims `op` can drop: 1 in every result and every operand
/// of the results' rank, leaving the op the rank it needs, not past the dim
/// it works on, and fixed by its permutation.
unsigned droppableDims(Operation *op) {
  if (op->getNumResults() != 1 || op->getNumRegions() || isa<mk::ReshapeOp>(op))
    return 0;
  auto result = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!result)
    return 0;
  int64_t rank = result.getRank();
  unsigned k = leadingOnes(result);
  for (Value v : op->getOperands()) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    if (!t)
      return 0;
    if (t.getRank() == rank)
      k = std::min(k, leadingOnes(t));
  }
  int64_t minRank = isa<mk::MatmulOp>(op) ? 2 : 1;
  k = std::min<int64_t>(k, std::max<int64_t>(0, rank - minRank));
  if (auto dim = op->getAttrOfType<IntegerAttr>("dim"))
    k = std::min<int64_t>(k, dim.getInt());
  // A band mask's dims (leading unit dims are never masked: nothing to
  // compare there, but its dims name them by position).
  if (auto dims = op->getAttrOfType<DenseI64ArrayAttr>("dims"))
    for (int64_t d : dims.asArrayRef())
      k = std::min<int64_t>(k, d);
  if (auto perm = op->getAttrOfType<DenseI64ArrayAttr>("perm")) {
    unsigned fixed = 0;
    while (fixed < perm.size() && perm[fixed] == fixed)
      ++fixed;
    k = std::min(k, fixed);
  }
  return k;
}

/// The chains of reshapes left by the rewrite, folded: a reshape of a
/// reshape reads the first one's input, a reshape to its input's type is
/// its input, and unused reshapes go.
void foldReshapes(func::FuncOp func) {
  SmallVector<mk::ReshapeOp> reshapes;
  func.walk([&](mk::ReshapeOp r) { reshapes.push_back(r); });
  for (mk::ReshapeOp r : reshapes) {
    if (auto inner = r.getInput().getDefiningOp<mk::ReshapeOp>())
      r.getInputMutable().assign(inner.getInput());
    if (r.getInput().getType() == r.getType())
      r.getResult().replaceAllUsesWith(r.getInput());
  }
  // One reshape per input and shape (the first in the block dominates the
  // others), so that composites see one value: x * rsqrt(mean(x^2)) of a
  // reshaped x is an rms_norm only if both x are the same.
  llvm::DenseMap<std::pair<Value, Type>, mk::ReshapeOp> first;
  for (mk::ReshapeOp r : reshapes) {
    if (r->use_empty())
      continue;
    auto [it, inserted] = first.try_emplace({r.getInput(), r.getType()}, r);
    if (!inserted && it->second->getBlock() == r->getBlock())
      r.getResult().replaceAllUsesWith(it->second.getResult());
  }
  for (mk::ReshapeOp r : llvm::reverse(reshapes))
    if (r->use_empty())
      r->erase();
}

/// The shape `v` has before its reshape, if `v` is the result of one.
std::optional<ArrayRef<int64_t>> shapeBeforeReshape(Value v) {
  auto r = v.getDefiningOp<mk::ReshapeOp>();
  if (!r)
    return std::nullopt;
  return cast<RankedTensorType>(r.getInput().getType()).getShape();
}

/// An element-wise mk op with one result whose operands all have its shape
/// (no broadcast).
bool isPlainElementwise(Operation *op) {
  if (!isMk(op) || !isa<ElementwiseOpInterface>(op) ||
      op->getNumResults() != 1 || op->getNumOperands() == 0)
    return false;
  ArrayRef<int64_t> shape =
      cast<RankedTensorType>(op->getResult(0).getType()).getShape();
  return llvm::all_of(op->getOperandTypes(), [&](Type t) {
    return cast<RankedTensorType>(t).getShape() == shape;
  });
}

/// Whether every use of `op`'s result ends in a reshape, directly or through
/// plain element-wise ops whose other operands are reshapes of values of
/// shape `source`.
bool endsInReshapes(Operation *op, ArrayRef<int64_t> source) {
  return llvm::all_of(op->getUsers(), [&](Operation *user) {
    if (isa<mk::ReshapeOp>(user))
      return true;
    if (!isPlainElementwise(user))
      return false;
    for (Value v : user->getOperands())
      if (v.getDefiningOp() != op && shapeBeforeReshape(v) != source)
        return false;
    return endsInReshapes(user, source);
  });
}

/// Moves reshapes past the element-wise ops between two reshapes: a plain
/// element-wise mk op whose operands are all reshapes of values of one
/// shape, and whose uses end in reshapes (directly or through more such
/// ops: 1 - m is a neg and an add_scalar), computes on those values and is
/// reshaped after. The ops are visited in order, so a chain moves op by op.
/// Element-wise ops do not see the layout, so this is exact; a reduction
/// that keeps its dim ([32, 1]), a rank-1 scale of it ([32]) and a broadcast
/// add ([32, 1] again) then read each other directly once the reshapes that
/// meet fold. Returns the number of ops moved.
unsigned sinkReshapes(func::FuncOp func) {
  SmallVector<Operation *> ops;
  for (Operation &op : func.getBody().front())
    if (isPlainElementwise(&op))
      ops.push_back(&op);
  unsigned moved = 0;
  OpBuilder b(func.getContext());
  for (Operation *op : ops) {
    auto result = cast<RankedTensorType>(op->getResult(0).getType());
    std::optional<ArrayRef<int64_t>> source =
        shapeBeforeReshape(op->getOperand(0));
    bool sinkable = source && llvm::all_of(op->getOperands(), [&](Value v) {
                      return shapeBeforeReshape(v) == source;
                    });
    // Only where the reshapes then meet: a reshape that moved on to an op
    // that is not one would only part values that composites match as one
    // (x and the x of mean(x^2)).
    if (!sinkable || !endsInReshapes(op, *source))
      continue;
    b.setInsertionPoint(op);
    IRMapping map;
    for (Value v : op->getOperands())
      map.map(v, v.getDefiningOp<mk::ReshapeOp>().getInput());
    Operation *sunk = b.clone(*op, map);
    sunk->getResult(0).setType(
        RankedTensorType::get(*source, result.getElementType()));
    auto back =
        mk::ReshapeOp::create(b, op->getLoc(), result, sunk->getResult(0));
    op->getResult(0).replaceAllUsesWith(back.getResult());
    op->erase();
    ++moved;
  }
  return moved;
}

} // namespace

unsigned dropLeadingUnitDims(func::FuncOp func) {
  if (func.isExternal())
    return 0;
  SmallVector<Operation *> ops;
  for (Operation &op : func.getBody().front())
    if (isMk(&op))
      ops.push_back(&op);
  unsigned rewritten = 0;
  OpBuilder b(func.getContext());
  for (Operation *op : ops) {
    unsigned k = droppableDims(op);
    if (!k)
      continue;
    auto result = cast<RankedTensorType>(op->getResult(0).getType());
    b.setInsertionPoint(op);
    IRMapping map;
    SmallVector<Operation *> created;
    for (Value v : op->getOperands()) {
      auto t = cast<RankedTensorType>(v.getType());
      if (t.getRank() != result.getRank())
        continue;
      auto r = mk::ReshapeOp::create(b, op->getLoc(), dropFront(t, k), v);
      created.push_back(r);
      map.map(v, r.getResult());
    }
    Operation *narrow = b.clone(*op, map);
    created.push_back(narrow);
    narrow->getResult(0).setType(dropFront(result, k));
    if (auto dim = narrow->getAttrOfType<IntegerAttr>("dim"))
      narrow->setAttr("dim", b.getIntegerAttr(dim.getType(), dim.getInt() - k));
    if (auto dims = narrow->getAttrOfType<DenseI64ArrayAttr>("dims")) {
      SmallVector<int64_t> ds;
      for (int64_t d : dims.asArrayRef())
        ds.push_back(d - k);
      narrow->setAttr("dims", b.getDenseI64ArrayAttr(ds));
    }
    if (auto perm = narrow->getAttrOfType<DenseI64ArrayAttr>("perm")) {
      SmallVector<int64_t> p;
      for (int64_t d : perm.asArrayRef().drop_front(k))
        p.push_back(d - k);
      narrow->setAttr("perm", b.getDenseI64ArrayAttr(p));
    }
    // The verifier's complaint about a form that does not hold is not the
    // user's business: the op then stays as it is.
    bool verified;
    {
      ScopedDiagnosticHandler quiet(func.getContext(),
                                    [](Diagnostic &) { return success(); });
      verified = succeeded(mlir::verify(narrow));
    }
    if (!verified) {
      for (Operation *c : llvm::reverse(created))
        c->erase();
      continue;
    }
    auto back =
        mk::ReshapeOp::create(b, op->getLoc(), result, narrow->getResult(0));
    op->getResult(0).replaceAllUsesWith(back.getResult());
    op->erase();
    ++rewritten;
  }
  foldReshapes(func);
  if (sinkReshapes(func))
    foldReshapes(func);
  return rewritten;
}

} // namespace mirage::import
