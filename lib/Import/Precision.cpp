//===- Precision.cpp - f64 arithmetic of an export computed in f32 --------===//
//
// torch-mlir exports LayerNorm's statistics in f64 (arith.extf f32 -> f64,
// f64 mean and variance, arith.truncf back). The GPU kernels compute in f32
// (DESIGN 3.4, "Compute precision"), and mk has no f64 tensors, so the f64
// tensors of such a function are retyped f32 before the import: the extf and
// truncf between f32 and f64 become identities, f64 constants are rounded to
// f32, and the ops then import like any f32 op. Each demoted op gets a remark
// that names it. Only a closed f64 region is demoted: every f64 tensor is made
// by tensor.empty or a linalg op and read only by linalg ops, and the bodies
// hold only arith/math float ops; otherwise (an f64 argument or result, a
// call, an integer conversion) the function is left as it is and its f64 ops
// stay outside with the import's usual remark. The import option
// `f64-as-f32=0` keeps every f64 op outside (run upstream in f64).
//
//===----------------------------------------------------------------------===//

#include "Precision.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace mirage::import {

namespace {

bool isF64(Type t) { return getElementTypeOrSelf(t).isF64(); }

bool touchesF64(Operation *op) {
  return llvm::any_of(op->getResultTypes(), isF64) ||
         llvm::any_of(op->getOperandTypes(), isF64);
}

/// `t` with f64 elements (or an f64 scalar) as f32.
Type demoted(Type t) {
  Type f32 = Float32Type::get(t.getContext());
  if (auto shaped = dyn_cast<RankedTensorType>(t))
    return shaped.getElementType().isF64() ? shaped.clone(f32) : t;
  return t.isF64() ? f32 : t;
}

/// An op of a linalg body that the demotion can retype: arith/math on
/// floats, i1 and index values, and linalg.yield / linalg.index.
bool isRetypableBodyOp(Operation &op) {
  if (isa<linalg::YieldOp, linalg::IndexOp>(op))
    return true;
  StringRef ns = op.getDialect() ? op.getDialect()->getNamespace() : "";
  if (ns != "arith" && ns != "math")
    return false;
  auto ok = [](Type t) {
    return isa<FloatType>(t) || t.isInteger(1) || t.isIndex();
  };
  return llvm::all_of(op.getOperandTypes(), ok) &&
         llvm::all_of(op.getResultTypes(), ok);
}

/// Why the f64 ops of `func` cannot be demoted, or "" when they can.
std::string checkClosed(func::FuncOp func,
                        const SmallVectorImpl<Operation *> &ops) {
  if (llvm::any_of(func.getArgumentTypes(), isF64) ||
      llvm::any_of(func.getResultTypes(), isF64))
    return "an f64 argument or result";
  llvm::SmallPtrSet<Operation *, 16> set(ops.begin(), ops.end());
  for (Operation *op : ops) {
    if (!isa<tensor::EmptyOp, linalg::LinalgOp>(op))
      return "'" + op->getName().getStringRef().str() + "' on f64 values";
    for (Value r : op->getResults())
      if (isF64(r.getType()))
        for (Operation *u : r.getUsers())
          if (!set.contains(u))
            return "an f64 value read by '" +
                   u->getName().getStringRef().str() + "'";
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Operation &inner : block)
          if (!isRetypableBodyOp(inner))
            return "'" + inner.getName().getStringRef().str() +
                   "' in a body";
    // Scalar f64 operands (a fill's value) must be constants.
    for (Value v : op->getOperands())
      if (isF64(v.getType()) && !isa<ShapedType>(v.getType()) &&
          !v.getDefiningOp<arith::ConstantOp>())
        return "an f64 scalar that is not a constant";
  }
  return "";
}

/// An f32 constant for the f64 constant `c`, next to it.
Value f32Constant(OpBuilder &b, arith::ConstantOp c) {
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointAfter(c);
  double v = cast<FloatAttr>(c.getValue()).getValueAsDouble();
  return arith::ConstantOp::create(b, c.getLoc(), b.getF32FloatAttr(v))
      .getResult();
}

/// Retypes the body of a demoted linalg op: block arguments, op results,
/// constants; extf/truncf between f32 and f64 go.
void demoteBody(OpBuilder &b, Operation *op) {
  for (Region &region : op->getRegions())
    for (Block &block : region) {
      for (BlockArgument arg : block.getArguments())
        arg.setType(demoted(arg.getType()));
      for (Operation &inner : llvm::make_early_inc_range(block)) {
        if (auto c = dyn_cast<arith::ConstantOp>(inner)) {
          if (c.getType().isF64()) {
            Value f = f32Constant(b, c);
            c.getResult().replaceAllUsesWith(f);
            c.erase();
          }
          continue;
        }
        for (Value r : inner.getResults())
          r.setType(demoted(r.getType()));
        // A conversion that became f32 -> f32 is the identity.
        if (isa<arith::ExtFOp, arith::TruncFOp>(inner) &&
            inner.getOperand(0).getType() == inner.getResult(0).getType()) {
          inner.getResult(0).replaceAllUsesWith(inner.getOperand(0));
          inner.erase();
        }
      }
    }
}

} // namespace

unsigned demoteF64(func::FuncOp func, bool enabled) {
  SmallVector<Operation *> ops;
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op->getParentOfType<linalg::LinalgOp>())
      return WalkResult::skip();
    if (touchesF64(op) && !isa<arith::ConstantOp>(op))
      ops.push_back(op);
    return WalkResult::advance();
  });
  if (ops.empty() || !enabled)
    return 0;
  if (std::string why = checkClosed(func, ops); !why.empty()) {
    emitRemark(func.getLoc())
        << "mirage-import: f64 ops stay in f64 (outside): " << why;
    return 0;
  }
  OpBuilder b(func.getContext());
  unsigned count = 0;
  for (Operation *op : ops) {
    // Scalar f64 operands (a fill's value, a captured constant) become f32
    // constants.
    for (OpOperand &use : op->getOpOperands())
      if (!isa<ShapedType>(use.get().getType()) && isF64(use.get().getType()))
        use.set(f32Constant(b, use.get().getDefiningOp<arith::ConstantOp>()));
    for (Value r : op->getResults())
      r.setType(demoted(r.getType()));
    demoteBody(b, op);
    // Constants captured from above by the bodies.
    op->walk([&](Operation *inner) {
      for (OpOperand &use : inner->getOpOperands())
        if (auto c = use.get().getDefiningOp<arith::ConstantOp>())
          if (c.getType().isF64() && !op->isAncestor(c))
            use.set(f32Constant(b, c));
    });
    if (isa<linalg::LinalgOp>(op)) {
      ++count;
      emitRemark(op->getLoc())
          << "mirage-import: f64 computed in f32 (the kernels' compute "
             "precision; f64-as-f32=0 keeps it outside)";
    }
  }
  // f64 constants no longer read.
  func.walk([](arith::ConstantOp c) {
    if (c.getType().isF64() && c->use_empty())
      c.erase();
  });
  return count;
}

} // namespace mirage::import
