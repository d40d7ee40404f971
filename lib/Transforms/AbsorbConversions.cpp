//===- AbsorbConversions.cpp - Conversions folded into kernels --*- C++ -*-===//
//
// absorbConversions (AbsorbConversions.h).
//
//===----------------------------------------------------------------------===//

#include "Mirage/Transforms/AbsorbConversions.h"

#include "Mirage/Dialect/Block/IR/Block.h"
#include "Mirage/Dialect/Kernel/IR/Kernel.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mirage;

namespace {

/// True when `kernel` (a rewritten clone) verifies and fits its shared
/// memory; otherwise erases it. A clone that does not verify is a rewrite
/// not taken, not the user's error: its diagnostics are dropped.
bool keepIfValid(mk::GraphKernelOp kernel) {
  ScopedDiagnosticHandler quiet(kernel.getContext(),
                                [](Diagnostic &) { return success(); });
  if (kernel.computeSharedMemoryBytes() <= kernel.getSharedMemoryLimit() &&
      succeeded(verify(kernel)))
    return true;
  kernel.erase();
  return false;
}

/// Replaces `kernel` by `clone` (same results, some retyped by the caller's
/// uses) and erases it.
void replaceKernel(mk::GraphKernelOp kernel, mk::GraphKernelOp clone) {
  for (auto [from, to] :
       llvm::zip_equal(kernel.getResults(), clone.getResults()))
    if (from.getType() == to.getType())
      from.replaceAllUsesWith(to);
  kernel.erase();
}

/// `c` converts the only use of a graph-defined kernel's result: the kernel
/// converts the tile before its output saver and writes the new storage
/// type (an mb.convert, which the thread graphs fuse).
bool absorbIntoProducer(mk::ConvertOp c) {
  auto result = dyn_cast<OpResult>(c.getInput());
  auto kernel = c.getInput().getDefiningOp<mk::GraphKernelOp>();
  if (!kernel || !result.hasOneUse())
    return false;
  unsigned idx = result.getResultNumber();
  OpBuilder b(kernel);
  auto clone = cast<mk::GraphKernelOp>(b.clone(*kernel));
  Operation *ret = clone.getBody().front().getTerminator();
  auto saver = ret->getOperand(idx).getDefiningOp<mb::OutputSaverOp>();
  if (!saver || !saver->hasOneUse()) {
    clone.erase();
    return false;
  }
  Type elt = c.getType().getElementType();
  OpBuilder ib(saver);
  auto tile = saver.getInput().getType();
  Value converted =
      mb::ConvertOp::create(ib, c.getLoc(), tile.clone(elt), saver.getInput())
          .getResult();
  saver.getInputMutable().assign(converted);
  saver.getOutput().setType(c.getType());
  clone.getResult(idx).setType(c.getType());
  if (!keepIfValid(clone))
    return false;
  c.getResult().replaceAllUsesWith(clone.getResult(idx));
  c.erase();
  replaceKernel(kernel, clone);
  return true;
}

/// Every user of `c` is a graph-defined kernel: each reads the unconverted
/// tensor and converts its tiles after loading them.
bool absorbIntoConsumers(mk::ConvertOp c) {
  if (c.getResult().use_empty())
    return false;
  llvm::SetVector<mk::GraphKernelOp> kernels;
  for (Operation *user : c.getResult().getUsers()) {
    auto k = dyn_cast<mk::GraphKernelOp>(user);
    if (!k)
      return false;
    kernels.insert(k);
  }
  SmallVector<std::pair<mk::GraphKernelOp, mk::GraphKernelOp>> done;
  auto rollback = [&] {
    for (auto &[kernel, clone] : done)
      clone.erase();
  };
  for (mk::GraphKernelOp kernel : kernels) {
    OpBuilder b(kernel);
    auto clone = cast<mk::GraphKernelOp>(b.clone(*kernel));
    Block &body = clone.getBody().front();
    for (OpOperand &operand : clone->getOpOperands()) {
      if (operand.get() != c.getResult())
        continue;
      operand.set(c.getInput());
      BlockArgument arg = body.getArgument(operand.getOperandNumber());
      arg.setType(c.getInput().getType());
      for (Operation *user : llvm::to_vector(arg.getUsers())) {
        auto it = dyn_cast<mb::InputIterOp>(user);
        if (!it)
          continue; // [K9]: the verifier below rejects it
        auto tile = it.getTile().getType();
        it.getTile().setType(
            tile.clone(c.getInput().getType().getElementType()));
        OpBuilder ib(it->getBlock(), std::next(it->getIterator()));
        auto conv = mb::ConvertOp::create(ib, c.getLoc(), tile, it.getTile());
        it.getTile().replaceAllUsesExcept(conv.getResult(), conv);
      }
    }
    if (!keepIfValid(clone)) {
      rollback();
      return false;
    }
    done.emplace_back(kernel, clone);
  }
  for (auto &[kernel, clone] : done)
    replaceKernel(kernel, clone);
  c.erase();
  return true;
}

} // namespace

unsigned mirage::absorbConversions(Operation *root) {
  SmallVector<mk::ConvertOp> converts;
  root->walk([&](mk::ConvertOp c) { converts.push_back(c); });
  unsigned n = 0;
  for (mk::ConvertOp c : converts)
    if (absorbIntoProducer(c) || absorbIntoConsumers(c))
      ++n;
  return n;
}
