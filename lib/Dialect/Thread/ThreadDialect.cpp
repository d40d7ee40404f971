//===- ThreadDialect.cpp - Mirage thread-graph dialect ----------*- C++ -*-===//

#include "Mirage/Dialect/Thread/IR/Thread.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"

using namespace mlir;
using namespace mirage;
using namespace mirage::mt;

#include "Mirage/Dialect/Thread/IR/ThreadOpsDialect.cpp.inc"

void MTDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "Mirage/Dialect/Thread/IR/ThreadOps.cpp.inc"
      >();
}

LogicalResult mt::verifyInThreadGraph(Operation *op) {
  if (failed(verifyInBlockGraph(op)))
    return failure();
  if (!isa_and_nonnull<ThreadGraphOp>(op->getParentOp()))
    return op->emitOpError("[T5] must be directly in the body of an "
                           "mt.thread_graph");
  return success();
}

LogicalResult ThreadGraphOp::verifyRegions() {
  if (getInputs().empty() || getResults().empty())
    return emitOpError("[T1] needs at least one input and one result");
  auto resultType = cast<RankedTensorType>(getResults().front().getType());
  for (Type t : getResults().getTypes())
    if (cast<RankedTensorType>(t).getShape() != resultType.getShape())
      return emitOpError("[T2] all results must have the same shape, got ")
             << t << " and " << resultType;
  for (auto [i, in] : llvm::enumerate(getInputs())) {
    auto t = cast<RankedTensorType>(in.getType());
    FailureOr<SmallVector<int64_t>> b =
        broadcastShapes(t.getShape(), resultType.getShape());
    if (failed(b) || ArrayRef<int64_t>(*b) != resultType.getShape())
      return emitOpError("[T2] input #")
             << i << " of type " << t << " does not broadcast to the result "
             << "shape of " << resultType;
  }
  Block &body = getBody().front();
  if (body.getNumArguments() != getInputs().size())
    return emitOpError("[T3] body has ")
           << body.getNumArguments() << " arguments for " << getInputs().size()
           << " inputs";
  for (auto [arg, in] : llvm::zip_equal(body.getArguments(), getInputs()))
    if (arg.getType() != cast<RankedTensorType>(in.getType()).getElementType())
      return emitOpError("[T3] body argument #")
             << arg.getArgNumber() << " has type " << arg.getType()
             << " but the input element type is "
             << cast<RankedTensorType>(in.getType()).getElementType();
  for (Operation &op : body.without_terminator())
    if (!isa<ElementwiseOpInterface>(op) ||
        op.getDialect() != getOperation()->getDialect())
      return op.emitOpError("[T4] is not an mt element-wise op; only mt "
                            "element-wise ops may appear in a thread graph");
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield)
    return emitOpError("[T4] body must end in mt.yield");
  if (yield.getValues().size() != getResults().size())
    return yield.emitOpError("[T4] yields ")
           << yield.getValues().size() << " values for " << getResults().size()
           << " results";
  for (auto [v, r] : llvm::zip_equal(yield.getValues(), getResults()))
    if (v.getType() != cast<RankedTensorType>(r.getType()).getElementType())
      return yield.emitOpError("[T4] yields ")
             << v.getType() << " for a result of type " << r.getType();
  return success();
}

#define GET_OP_CLASSES
#include "Mirage/Dialect/Thread/IR/ThreadOps.cpp.inc"
