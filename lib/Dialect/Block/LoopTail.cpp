//===- LoopTail.cpp - The walked tail of a block graph's loop ---*- C++ -*-===//
//
// A loop whose last trip overhangs the dim it walks (a `?` loop, [K21], or
// a static walked tail, [B26]) reads zeros past the end of that dim; the
// reductions across it read their operands through mb.tail_mask, filled
// with the reduction's identity ([B27], [B28], docs/dynamic.md). This file
// checks the rule and inserts the masks it asks for, following the walked
// dim through the loop body with DimWalk.
//
//===----------------------------------------------------------------------===//

#include "DimWalk.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

#include <cmath>
#include <tuple>

using namespace mlir;
using namespace mirage;
using namespace mirage::mb;
using namespace mirage::mb::detail;

InputIterOp mb::walkingIterator(ForLoopOp loop) {
  for (Operation &op : loop.getBody().front())
    if (auto it = dyn_cast<InputIterOp>(op);
        it && static_cast<int64_t>(it.getFmap()) >= 0)
      return it;
  return {};
}

std::optional<LoopWalk> mb::loopWalk(ForLoopOp loop) {
  InputIterOp it = walkingIterator(loop);
  // fmap is checked by the iterator's verifier ([B6]), which may not have
  // run yet.
  if (!it || static_cast<int64_t>(it.getFmap()) >= it.getType().getRank())
    return std::nullopt;
  int64_t dim = it.getFmap();
  return LoopWalk{it, dim, it.getLogicalShape()[dim],
                  it.getType().getDimSize(dim)};
}

bool mb::hasLoopTail(GraphKernelOpInterface kernel) {
  if (ShapedType::isDynamic(kernel.getForloopRange()))
    return true;
  bool tail = false;
  kernel->walk([&](InputIterOp it) {
    int64_t fmap = static_cast<int64_t>(it.getFmap());
    tail |= fmap >= 0 && llvm::is_contained(tailDims(it), fmap);
  });
  return tail;
}

LogicalResult TailMaskOp::verify() {
  auto loop = dyn_cast_or_null<ForLoopOp>(getOperation()->getParentOp());
  if (!loop)
    return emitOpError("[B27] must be directly in the body of an "
                       "mb.for_loop");
  int64_t rank = getType().getRank();
  int64_t dim = getDim();
  if (dim < 0 || dim >= rank)
    return emitOpError("[B27] dim ")
           << dim << " is not a dim of a rank-" << rank << " tile";
  if (std::isnan(getFill().convertToDouble()))
    return emitOpError("[B27] fill must not be NaN");
  if (!walkingIterator(loop))
    return emitOpError("[B27] no input iterator of the loop walks it: there "
                       "is no walked dim to mask");
  // An iterator's bad fmap is its own verifier's diagnostic ([B6]).
  std::optional<LoopWalk> walk = loopWalk(loop);
  if (!walk)
    return failure();
  int64_t walked = walk->tile;
  if (getType().getDimSize(dim) != walked)
    return emitOpError("[B27] dim ")
           << dim << " has " << getType().getDimSize(dim)
           << " elements, but the loop walks " << walked << " per trip";
  return success();
}

namespace {

/// A walking iterator reads zeros past the end of the walked dim.
Tracked walkSeed(InputIterOp it) {
  int64_t fmap = static_cast<int64_t>(it.getFmap());
  return fmap >= 0 ? Tracked{fmap, Pad::Zero} : Tracked{};
}

/// [B28] the walking iterators of a loop with a tail agree on the walked
/// extent and the tile along it.
LogicalResult checkWalkingIterators(ForLoopOp loop, std::string &why) {
  std::optional<std::pair<int64_t, int64_t>> first;
  for (Operation &op : loop.getBody().front()) {
    auto it = dyn_cast<InputIterOp>(op);
    if (!it || static_cast<int64_t>(it.getFmap()) < 0)
      continue;
    int64_t fmap = it.getFmap();
    std::pair<int64_t, int64_t> walk = {it.getLogicalShape()[fmap],
                                        it.getType().getDimSize(fmap)};
    if (!first) {
      first = walk;
      continue;
    }
    if (walk.second != first->second ||
        (!ShapedType::isDynamic(walk.first) &&
         !ShapedType::isDynamic(first->first) && walk.first != first->first)) {
      why = "walking input iterators of a loop with a tail must walk one "
            "extent with one tile";
      return failure();
    }
  }
  return success();
}

} // namespace

LogicalResult mb::verifyLoopTail(GraphKernelOpInterface kernel) {
  ForLoopOp loop;
  kernel->walk([&](ForLoopOp l) { loop = l; });
  if (!loop || !hasLoopTail(kernel))
    return success();
  std::string why;
  if (failed(checkWalkingIterators(loop, why)))
    return loop.emitOpError("[B28] ") << why;
  auto need = [&](OpOperand &operand, int64_t dim, Pad pad) {
    return operand.getOwner()->emitOpError("[B28] operand #")
           << operand.getOperandNumber()
           << " runs along the walked dim of a loop with a tail (dim " << dim
           << "): it must be read through mb.tail_mask with fill "
           << (pad == Pad::NegInf ? "-inf" : "0")
           << " (or, for a sum, straight from its input iterator)";
  };
  auto unsupported = [&](Operation *op, const Twine &reason) {
    return op->emitOpError("[B28] ") << reason;
  };
  return DimWalk(DimWalk::Mode::LoopWalk, walkSeed, need, unsupported)
      .run(loop.getBody().front());
}

LogicalResult mb::maskLoopTail(GraphKernelOpInterface kernel,
                               std::string &why) {
  ForLoopOp loop;
  kernel->walk([&](ForLoopOp l) { loop = l; });
  if (!loop || !hasLoopTail(kernel))
    return success();
  if (failed(checkWalkingIterators(loop, why)))
    return failure();
  // One mask per value, dim and fill, right after the value: its users
  // share it.
  llvm::DenseMap<std::tuple<Value, int64_t, int>, Value> masks;
  auto need = [&](OpOperand &operand, int64_t dim, Pad pad) {
    Value v = operand.get();
    Value &masked = masks[{v, dim, static_cast<int>(pad)}];
    if (!masked) {
      OpBuilder b(operand.getOwner());
      b.setInsertionPointAfterValue(v);
      masked = TailMaskOp::create(b, v.getLoc(), v.getType(), v,
                                  b.getI64IntegerAttr(dim),
                                  b.getF64FloatAttr(fillOf(pad)));
    }
    operand.set(masked);
    return success();
  };
  auto unsupported = [&](Operation *op, const Twine &reason) {
    why = ("'" + op->getName().getStringRef() + "' " + reason).str();
    return failure();
  };
  return DimWalk(DimWalk::Mode::LoopWalk, walkSeed, need, unsupported)
      .run(loop.getBody().front());
}
