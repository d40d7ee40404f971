//===- Views.cpp - Slices of imported values moved to the inputs ----------===//
//
// See Views.h.
//
//===----------------------------------------------------------------------===//

#include "Views.h"
#include "Common.h"

#include "Mirage/Dialect/Kernel/IR/Kernel.h"
#include "Mirage/Interfaces/MirageInterfaces.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

using namespace mlir;

namespace mirage::import {
namespace {

bool isMk(Operation *op) {
  return op->getDialect() && isa<mk::MKDialect>(op->getDialect());
}

/// A slice with static offsets and sizes, unit strides, that keeps the rank,
/// between tensors mk can hold.
bool isSimpleSlice(tensor::ExtractSliceOp s) {
  return s.hasUnitStride() && !ShapedType::isDynamicShape(s.getStaticSizes()) &&
         !ShapedType::isDynamicShape(s.getStaticOffsets()) &&
         s.getSourceType().getRank() == s.getResultType().getRank() &&
         isMkTensor(s.getSourceType()) && isMkTensor(s.getResultType());
}

/// Whether slicing commutes with `op` in the ways moveSlice knows.
bool slicesThrough(Operation *op) {
  if (op->getNumResults() != 1 || op->getNumRegions())
    return false;
  if (isa<mk::MatmulOp, mk::TransposeOp>(op))
    return true;
  if (!isa<ElementwiseOpInterface>(op))
    return false;
  // Element-wise: every operand has the result's rank (size-1 dims
  // broadcast).
  int64_t rank = cast<RankedTensorType>(op->getResult(0).getType()).getRank();
  return llvm::all_of(op->getOperands(), [&](Value v) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    return t && t.getRank() == rank;
  });
}

/// `v`[offsets, sizes]: `v` itself when that is all of it.
Value slice(OpBuilder &b, Location loc, Value v, ArrayRef<int64_t> offsets,
            ArrayRef<int64_t> sizes) {
  auto type = cast<RankedTensorType>(v.getType());
  if (llvm::all_of(offsets, [](int64_t o) { return o == 0; }) &&
      type.getShape() == sizes)
    return v;
  SmallVector<int64_t> strides(sizes.size(), 1);
  auto resultType = RankedTensorType::get(sizes, type.getElementType());
  return tensor::ExtractSliceOp::create(b, loc, resultType, v, ValueRange{},
                                        ValueRange{}, ValueRange{}, offsets,
                                        sizes, strides)
      .getResult();
}

/// `op` computed on the slice [offsets, sizes] of its result only.
Value sliceOf(OpBuilder &b, Operation *op, ArrayRef<int64_t> offsets,
              ArrayRef<int64_t> sizes) {
  Location loc = op->getLoc();
  if (auto mm = dyn_cast<mk::MatmulOp>(op)) {
    // Rows of the product come from rows of A, columns from columns of B.
    int64_t r = sizes.size();
    auto aType = cast<RankedTensorType>(mm.getLhs().getType());
    SmallVector<int64_t> aOff(offsets), aSize(sizes);
    aOff[r - 1] = 0;
    aSize[r - 1] = aType.getDimSize(r - 1);
    SmallVector<int64_t> bOff(offsets), bSize(sizes);
    bOff[r - 2] = 0;
    bSize[r - 2] = aType.getDimSize(r - 1);
    Value lhs = slice(b, loc, mm.getLhs(), aOff, aSize);
    Value rhs = slice(b, loc, mm.getRhs(), bOff, bSize);
    return mk::MatmulOp::create(b, loc, lhs, rhs).getResult();
  }
  if (auto tr = dyn_cast<mk::TransposeOp>(op)) {
    ArrayRef<int64_t> perm = tr.getPerm();
    SmallVector<int64_t> inOff(perm.size()), inSize(perm.size());
    for (auto [k, p] : llvm::enumerate(perm)) {
      inOff[p] = offsets[k];
      inSize[p] = sizes[k];
    }
    Value in = slice(b, loc, tr.getInput(), inOff, inSize);
    return mk::TransposeOp::create(b, loc, in, tr.getPermAttr()).getResult();
  }
  // Element-wise: each operand sliced, its broadcast (size-1) dims kept.
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  IRMapping map;
  for (Value v : op->getOperands()) {
    auto t = cast<RankedTensorType>(v.getType());
    SmallVector<int64_t> off(offsets), size(sizes);
    for (int64_t d = 0; d < t.getRank(); ++d)
      if (t.getDimSize(d) == 1 && resultType.getDimSize(d) != 1) {
        off[d] = 0;
        size[d] = 1;
      }
    map.map(v, slice(b, loc, v, off, size));
  }
  Operation *clone = b.clone(*op, map);
  clone->getResult(0).setType(
      RankedTensorType::get(sizes, resultType.getElementType()));
  return clone->getResult(0);
}

} // namespace

SmallVector<std::pair<Operation *, std::string>>
moveSlicesToInputs(func::FuncOp func) {
  OpBuilder b(func.getContext());
  for (bool changed = true; changed;) {
    changed = false;
    SmallVector<tensor::ExtractSliceOp> slices;
    func.walk([&](tensor::ExtractSliceOp s) { slices.push_back(s); });
    for (tensor::ExtractSliceOp s : slices) {
      if (!s->getBlock())
        continue;
      Operation *def = s.getSource().getDefiningOp();
      if (!def || !isMk(def) || !slicesThrough(def) || !isSimpleSlice(s))
        continue;
      // Every user a slice: the op is then recomputed per slice and goes.
      bool allSlices = llvm::all_of(def->getUsers(), [](Operation *u) {
        auto us = dyn_cast<tensor::ExtractSliceOp>(u);
        return us && isSimpleSlice(us);
      });
      if (!allSlices)
        continue;
      for (Operation *u : llvm::make_early_inc_range(def->getUsers())) {
        auto us = cast<tensor::ExtractSliceOp>(u);
        b.setInsertionPoint(us);
        Value v = sliceOf(b, def, us.getStaticOffsets(), us.getStaticSizes());
        replaceOp(us, v);
      }
      def->erase();
      changed = true;
    }
  }
  SmallVector<std::pair<Operation *, std::string>> left;
  func.walk([&](tensor::ExtractSliceOp s) {
    Operation *def = s.getSource().getDefiningOp();
    if (!def || !isMk(def))
      return;
    std::string why;
    if (!isSimpleSlice(s))
      why = "a slice that is not static, of unit strides and of the same "
            "rank, of a value mk computes (mk has no slice op)";
    else if (!slicesThrough(def))
      why = "a slice of a value that '" + def->getName().getStringRef().str() +
            "' computes (mk has no slice op; it moves to the inputs only "
            "through element-wise ops, transposes and matmuls)";
    else
      why = "a slice of a value that is also read whole (mk has no slice "
            "op)";
    left.emplace_back(s, why);
  });
  return left;
}

} // namespace mirage::import
