//===- Outline.cpp - Outline mk runs into functions -----------------------===//
//
// A run of consecutive mk ops in one block is convex: a path from one of its
// ops to another through an op outside the run would need that op to sit
// between them in the block, which a run excludes. So every run can be cut
// out into a function without reordering anything else: the ops outside keep
// their order, operands and attributes exactly.
//
// Before the runs are taken, a pure op outside mk that sits inside a run but
// reads nothing the run computed (the expand_shape of a rank-0 argument that
// the import put next to its mk consumer) moves before the run, so that it
// does not split it. The ops outside still keep their relative order.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Import/Outline.h"
#include "Mirage/Dialect/Kernel/IR/Kernel.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace mirage {
namespace {

bool isMkOp(Operation &op) { return isa<mk::MKDialect>(op.getDialect()); }

/// Cuts `run` (consecutive ops of one block) out into a private function.
/// The new function goes right after `after`; returns it.
Operation *outlineRun(ArrayRef<Operation *> run, func::FuncOp parent,
                      Operation *after, SymbolTable &symbolTable,
                      unsigned index) {
  llvm::SmallPtrSet<Operation *, 16> inRun(run.begin(), run.end());
  llvm::SetVector<Value> inputs, outputs;
  for (Operation *op : run) {
    for (Value v : op->getOperands())
      if (!inRun.contains(v.getDefiningOp()))
        inputs.insert(v);
    for (Value r : op->getResults())
      if (llvm::any_of(r.getUsers(),
                       [&](Operation *user) { return !inRun.contains(user); }))
        outputs.insert(r);
  }
  MLIRContext *ctx = parent.getContext();
  SmallVector<Type> inTypes, outTypes;
  for (Value v : inputs)
    inTypes.push_back(v.getType());
  for (Value v : outputs)
    outTypes.push_back(v.getType());

  OpBuilder b(ctx);
  b.setInsertionPointAfter(after);
  std::string name = (parent.getSymName() + "_mk" + Twine(index)).str();
  auto callee = func::FuncOp::create(b, run.front()->getLoc(), name,
                                     FunctionType::get(ctx, inTypes, outTypes));
  callee.setPrivate();
  // What the parent's arguments state about their dynamic dims holds in the
  // callee that reads them.
  for (auto [i, v] : llvm::enumerate(inputs))
    if (auto arg = dyn_cast<BlockArgument>(v);
        arg && arg.getOwner()->isEntryBlock() &&
        arg.getOwner()->getParentOp() == parent.getOperation())
      if (Attribute sizes = parent.getArgAttr(arg.getArgNumber(),
                                              mk::MKDialect::kSizesAttrName))
        callee.setArgAttr(i, mk::MKDialect::kSizesAttrName, sizes);
  symbolTable.insert(callee); // renames on a clash
  Block *entry = callee.addEntryBlock();
  IRMapping map;
  for (auto [v, arg] : llvm::zip(inputs, entry->getArguments()))
    map.map(v, arg);
  b.setInsertionPointToStart(entry);
  for (Operation *op : run)
    b.clone(*op, map);
  SmallVector<Value> returned;
  for (Value v : outputs)
    returned.push_back(map.lookup(v));
  func::ReturnOp::create(b, run.back()->getLoc(), returned);

  b.setInsertionPointAfter(run.back());
  auto call = func::CallOp::create(b, run.front()->getLoc(), callee,
                                   inputs.getArrayRef());
  for (auto [i, v] : llvm::enumerate(outputs.getArrayRef()))
    Value(v).replaceAllUsesWith(call.getResult(i));
  for (Operation *op : llvm::reverse(run))
    op->erase();
  return callee;
}

} // namespace

unsigned outlineMkRuns(func::FuncOp func, SymbolTable &symbolTable) {
  if (func.isExternal())
    return 0;
  // A function that is only mk ops (and its return) is already a program.
  bool allMk = llvm::all_of(func.getBody().getOps(), [](Operation &op) {
    return isMkOp(op) || isa<func::ReturnOp>(op);
  });
  if (allMk && func.getBody().hasOneBlock())
    return 0;
  func.walk([&](Block *block) {
    Operation *runStart = nullptr;
    for (Operation &op : llvm::make_early_inc_range(*block)) {
      if (isMkOp(op) && op.getNumRegions() == 0) {
        if (!runStart)
          runStart = &op;
        continue;
      }
      bool independent = runStart && op.getNumRegions() == 0 &&
                         !op.hasTrait<OpTrait::IsTerminator>() &&
                         isMemoryEffectFree(&op) &&
                         llvm::all_of(op.getOperands(), [&](Value v) {
                           Operation *def = v.getDefiningOp();
                           return !def || def->getBlock() != block ||
                                  def->isBeforeInBlock(runStart);
                         });
      if (independent)
        op.moveBefore(runStart);
      else
        runStart = nullptr;
    }
  });
  SmallVector<SmallVector<Operation *>> runs;
  func.walk([&](Block *block) {
    SmallVector<Operation *> current;
    for (Operation &op : *block) {
      if (isMkOp(op) && op.getNumRegions() == 0) {
        current.push_back(&op);
        continue;
      }
      if (!current.empty())
        runs.push_back(std::move(current));
      current.clear();
    }
    if (!current.empty())
      runs.push_back(std::move(current));
  });
  unsigned index = 0;
  Operation *after = func;
  for (ArrayRef<Operation *> run : runs)
    after = outlineRun(run, func, after, symbolTable, index++);
  return index;
}

} // namespace mirage
