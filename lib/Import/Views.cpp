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
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Builders.h"

using namespace mlir;

namespace mirage::import {
namespace {

bool isMk(Operation *op) {
  return op->getDialect() && isa<mk::MKDialect>(op->getDialect());
}

/// The offsets and sizes of a slice with static offsets and sizes, unit
/// strides, that keeps the rank, between tensors mk can hold: a
/// tensor.extract_slice, or a tosa.slice with tosa.const_shape operands.
struct StaticSlice {
  SmallVector<int64_t> offsets, sizes;
};
std::optional<StaticSlice> staticSlice(Operation *op) {
  if (!isa<tensor::ExtractSliceOp, tosa::SliceOp>(op) ||
      !isMkTensor(op->getOperand(0).getType()) ||
      !isMkTensor(op->getResult(0).getType()) ||
      cast<ShapedType>(op->getOperand(0).getType()).getRank() !=
          cast<ShapedType>(op->getResult(0).getType()).getRank())
    return std::nullopt;
  StaticSlice r;
  r.sizes.assign(cast<ShapedType>(op->getResult(0).getType()).getShape());
  if (auto s = dyn_cast<tensor::ExtractSliceOp>(op)) {
    if (!s.hasUnitStride() ||
        ShapedType::isDynamicShape(s.getStaticOffsets()) ||
        s.getStaticSizes() != ArrayRef<int64_t>(r.sizes))
      return std::nullopt;
    r.offsets.assign(s.getStaticOffsets());
    return r;
  }
  auto start =
      cast<tosa::SliceOp>(op).getStart().getDefiningOp<tosa::ConstShapeOp>();
  if (!start)
    return std::nullopt;
  for (const APInt &v : start.getValues().getValues<APInt>())
    r.offsets.push_back(v.getSExtValue());
  if (r.offsets.size() != r.sizes.size() ||
      llvm::any_of(r.offsets, [](int64_t o) { return o < 0; }))
    return std::nullopt;
  return r;
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
    SmallVector<Operation *> slices;
    func.walk([&](Operation *op) {
      if (isa<tensor::ExtractSliceOp, tosa::SliceOp>(op))
        slices.push_back(op);
    });
    // Slices replaced in this round (their users' slices go with them).
    llvm::SmallPtrSet<Operation *, 8> erased;
    for (Operation *s : slices) {
      if (erased.contains(s))
        continue;
      Operation *def = s->getOperand(0).getDefiningOp();
      if (!def || !isMk(def) || !slicesThrough(def) || !staticSlice(s))
        continue;
      // Every user a slice: the op is then recomputed per slice and goes.
      bool allSlices = llvm::all_of(def->getUsers(), [](Operation *u) {
        return staticSlice(u).has_value();
      });
      if (!allSlices)
        continue;
      for (Operation *u : llvm::make_early_inc_range(def->getUsers())) {
        std::optional<StaticSlice> info = staticSlice(u);
        b.setInsertionPoint(u);
        Value v = sliceOf(b, def, info->offsets, info->sizes);
        SmallVector<Value> operands(u->getOperands());
        erased.insert(u);
        replaceOp(u, v);
        // The shape operands of a tosa.slice go with it.
        for (Value o : llvm::drop_begin(operands))
          if (Operation *d = o.getDefiningOp(); d && d->use_empty())
            d->erase();
      }
      def->erase();
      changed = true;
    }
  }
  SmallVector<std::pair<Operation *, std::string>> left;
  func.walk([&](Operation *s) {
    if (!isa<tensor::ExtractSliceOp, tosa::SliceOp>(s))
      return;
    Operation *def = s->getOperand(0).getDefiningOp();
    if (!def || !isMk(def)) {
      // A slice of an input stays with the caller (tensor ops get no
      // remark; a tosa op left outside does).
      if (isa<tosa::SliceOp>(s))
        left.emplace_back(s, "a slice of a value mk does not compute (it "
                             "stays outside, before the mk ops)");
      return;
    }
    std::string why;
    if (!staticSlice(s))
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
