//===- AbsorbViews.cpp - Layout ops folded into kernel views ----*- C++ -*-===//
//
// absorbViews (AbsorbViews.h) and the pass that runs it.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Transforms/AbsorbViews.h"
#include "Mirage/Transforms/Passes.h"

#include "Mirage/Dialect/Block/IR/Block.h"
#include "Mirage/Dialect/Block/IR/View.h"
#include "Mirage/Dialect/Kernel/IR/Kernel.h"

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLExtras.h"

namespace mirage {
#define GEN_PASS_DEF_ABSORBVIEWS
#include "Mirage/Transforms/Passes.h.inc"
} // namespace mirage

using namespace mlir;
using namespace mirage;
using mb::StridedView;

static ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}

bool mirage::isLayoutOp(Operation *op) {
  if (isa<mk::TransposeOp, mk::ReshapeOp>(op))
    return true;
  auto concat = dyn_cast<mk::ConcatOp>(op);
  return concat && llvm::all_equal(concat.getInputs());
}

/// Whether every use of `op`'s result ends, through layout ops, in an mk op
/// that is not a layout op.
static bool usesEndInKernels(Operation *op) {
  return llvm::all_of(op->getUsers(), [](Operation *user) {
    if (isLayoutOp(user))
      return usesEndInKernels(user);
    return isa_and_nonnull<mk::MKDialect>(user->getDialect());
  });
}

bool mirage::foldsIntoKernels(Operation *op) {
  if (usesEndInKernels(op))
    return true;
  // An output chain: transposes and reshapes, each the only user of the
  // previous value, from an mk op's result.
  for (Operation *cur = op;;) {
    if (!isa<mk::TransposeOp, mk::ReshapeOp>(cur))
      return false;
    Value in = cur->getOperand(0);
    Operation *def = in.getDefiningOp();
    if (!def || !in.hasOneUse())
      return false;
    if (!isLayoutOp(def))
      return isa<mk::MKDialect>(def->getDialect());
    cur = def;
  }
}

/// `view` followed by the layout op `op` (whose operand `view` describes).
static FailureOr<StridedView> follow(const StridedView &view, Operation *op) {
  if (auto t = dyn_cast<mk::TransposeOp>(op))
    return view.transposed(t.getPerm());
  if (auto r = dyn_cast<mk::ReshapeOp>(op))
    return view.reshaped(shapeOf(r.getResult()));
  auto c = cast<mk::ConcatOp>(op);
  return view.repeated(c.getDim(), c.getInputs().size());
}

/// The map of `view` after the map `inner` (logical index -> the index
/// `view` reads), or the view's own map without one; fails unless the result
/// is a strided view of `deviceShape` over `logical` (one-to-one when
/// `oneToOne`).
static FailureOr<AffineMap> composeView(const StridedView &view,
                                        std::optional<AffineMap> inner,
                                        ArrayRef<int64_t> logical,
                                        MLIRContext *ctx, bool oneToOne) {
  FailureOr<AffineMap> outer = view.toAffineMap(ctx);
  if (failed(outer))
    return failure();
  AffineMap map = inner ? simplifyAffineMap(outer->compose(*inner)) : *outer;
  std::string why;
  FailureOr<StridedView> composed =
      StridedView::analyze(map, logical, view.getDeviceShape(), why);
  if (failed(composed) || (oneToOne && !composed->isOneToOne(why)))
    return failure();
  return map;
}

/// Reads operand `index` of `kernel` from the source of the longest layout
/// chain that defines it, through views; false if no chain composes.
static bool absorbInput(mk::GraphKernelOp kernel, unsigned index) {
  Value operand = kernel.getInputs()[index];
  SmallVector<Operation *> chain;
  for (Value v = operand; Operation *def = v.getDefiningOp();
       v = def->getOperand(0)) {
    if (!isLayoutOp(def))
      break;
    chain.push_back(def);
  }
  std::reverse(chain.begin(), chain.end());
  BlockArgument arg = kernel.getBody().front().getArgument(index);
  SmallVector<mb::InputIterOp> iters;
  for (Operation *user : arg.getUsers())
    if (auto it = dyn_cast<mb::InputIterOp>(user))
      iters.push_back(it);
  if (iters.size() != llvm::range_size(arg.getUsers()))
    return false;
  MLIRContext *ctx = kernel.getContext();
  // The farthest source first: every op of a longer chain is one copy less.
  for (size_t start = 0; start < chain.size(); ++start) {
    Value source = chain[start]->getOperand(0);
    FailureOr<StridedView> view = StridedView::identity(shapeOf(source));
    for (Operation *op : ArrayRef(chain).drop_front(start))
      if (succeeded(view))
        view = follow(*view, op);
    if (failed(view))
      continue;
    SmallVector<AffineMap> maps;
    for (mb::InputIterOp it : iters) {
      FailureOr<AffineMap> map =
          composeView(*view, it.getView(), it.getLogicalShape(), ctx, false);
      if (failed(map))
        break;
      maps.push_back(*map);
    }
    if (maps.size() != iters.size())
      continue;
    for (auto [it, map] : llvm::zip(iters, maps))
      it.setViewAttr(AffineMapAttr::get(map));
    arg.setType(source.getType());
    kernel->setOperand(index, source);
    return true;
  }
  return false;
}

/// Writes result `index` of `kernel` directly into the value its chain of
/// transposes and reshapes (each the only user of the previous value)
/// computes, through its saver's view; returns the ops of the chain it
/// erased (0 if none composes).
static unsigned absorbOutput(mk::GraphKernelOp kernel, unsigned index) {
  Value result = kernel.getOutputs()[index];
  SmallVector<Operation *> chain;
  for (Value v = result; v.hasOneUse();) {
    Operation *user = *v.getUsers().begin();
    if (!isa<mk::TransposeOp, mk::ReshapeOp>(user))
      break;
    chain.push_back(user);
    v = user->getResult(0);
  }
  auto ret = cast<mb::ReturnOp>(kernel.getBody().front().getTerminator());
  auto saver = ret.getOperand(index).getDefiningOp<mb::OutputSaverOp>();
  if (!saver || llvm::count(ret.getOperands(), saver.getOutput()) != 1)
    return 0;
  MLIRContext *ctx = kernel.getContext();
  // The longest chain first; the result as a view of the chain's end is the
  // inverse of the chain: reshapes back, transposes by the inverse perm.
  for (size_t len = chain.size(); len > 0; --len) {
    Value end = chain[len - 1]->getResult(0);
    FailureOr<StridedView> view = StridedView::identity(shapeOf(end));
    for (Operation *op : llvm::reverse(ArrayRef(chain).take_front(len))) {
      if (failed(view))
        break;
      if (auto t = dyn_cast<mk::TransposeOp>(op)) {
        SmallVector<int64_t> inverse(t.getPerm().size());
        for (auto [k, p] : llvm::enumerate(t.getPerm()))
          inverse[p] = k;
        view = view->transposed(inverse);
      } else {
        view = view->reshaped(shapeOf(op->getOperand(0)));
      }
    }
    if (failed(view))
      continue;
    FailureOr<AffineMap> map =
        composeView(*view, saver.getView(), saver.getLogicalShape(), ctx, true);
    if (failed(map))
      continue;
    saver.setViewAttr(AffineMapAttr::get(*map));
    saver.getOutput().setType(cast<RankedTensorType>(end.getType()));
    result.setType(end.getType());
    end.replaceAllUsesWith(result);
    for (Operation *op : llvm::reverse(ArrayRef(chain).take_front(len)))
      op->erase();
    return len;
  }
  return 0;
}

AbsorbedViews mirage::absorbViews(Region &region) {
  AbsorbedViews stats;
  SmallVector<mk::GraphKernelOp> kernels;
  // A dynamic kernel ([K19]) reads and writes without views.
  region.walk([&](mk::GraphKernelOp k) {
    auto isStatic = [](Type t) {
      return cast<RankedTensorType>(t).hasStaticShape();
    };
    if (llvm::all_of(k->getOperandTypes(), isStatic) &&
        llvm::all_of(k->getResultTypes(), isStatic))
      kernels.push_back(k);
  });
  for (mk::GraphKernelOp k : kernels)
    for (unsigned i = 0, e = k.getInputs().size(); i < e; ++i)
      stats.inputs += absorbInput(k, i);
  for (mk::GraphKernelOp k : kernels)
    for (unsigned i = 0, e = k.getOutputs().size(); i < e; ++i)
      if (unsigned erased = absorbOutput(k, i)) {
        ++stats.outputs;
        stats.erased += erased;
      }
  // Layout ops left without users, users first.
  SmallVector<Operation *> dead;
  region.walk<WalkOrder::PostOrder>([&](Operation *op) {
    if (isLayoutOp(op))
      dead.push_back(op);
  });
  for (Operation *op : llvm::reverse(dead))
    if (op->use_empty()) {
      op->erase();
      ++stats.erased;
    }
  return stats;
}

namespace {
struct AbsorbViewsPass : public mirage::impl::AbsorbViewsBase<AbsorbViewsPass> {
  void runOnOperation() override {
    for (Region &region : getOperation()->getRegions()) {
      AbsorbedViews s = absorbViews(region);
      numInputs += s.inputs;
      numOutputs += s.outputs;
      numErased += s.erased;
    }
  }
};
} // namespace
