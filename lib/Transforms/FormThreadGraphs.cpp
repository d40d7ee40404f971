//===- FormThreadGraphs.cpp - Fuse element-wise chains ----------*- C++ -*-===//
//
// Rule-based thread-graph formation (DESIGN §3.3): groups of connected
// block-level element-wise ops with equal result shapes become one
// mt.thread_graph holding the scalar mt ops.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Transforms/Passes.h"

#include "Mirage/Dialect/Kernel/IR/Kernel.h"

#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

namespace mirage {
#define GEN_PASS_DEF_FORMTHREADGRAPHS
#include "Mirage/Transforms/Passes.h.inc"
} // namespace mirage

using namespace mlir;
using namespace mirage;

namespace {

using Group = llvm::SetVector<Operation *>;

/// A block-level element-wise op that a thread graph can absorb.
static bool isFusible(Operation *op) {
  return isa<ElementwiseOpInterface>(op) &&
         isa<mb::MBDialect>(op->getDialect());
}

static ArrayRef<int64_t> shapeOf(Operation *op) {
  return cast<RankedTensorType>(op->getResult(0).getType()).getShape();
}

/// False if some op outside `group` both depends on the group and feeds it:
/// fusing such a group into one op would create a cycle. Ops of the groups
/// formed so far count as one node each (they will become one thread graph),
/// so a group is also rejected when it closes a cycle through another group.
static bool isConvex(const Group &group, Block *block,
                     const llvm::DenseMap<Operation *, unsigned> &groupOf,
                     ArrayRef<Group> groups) {
  SmallVector<Operation *> worklist;
  llvm::SmallPtrSet<Operation *, 16> visited;
  auto visit = [&](Operation *op) {
    if (group.contains(op) || !visited.insert(op).second)
      return;
    worklist.push_back(op);
    // Reaching one op of a formed group reaches the whole thread graph.
    auto it = groupOf.find(op);
    if (it != groupOf.end())
      for (Operation *member : groups[it->second])
        if (!group.contains(member) && visited.insert(member).second)
          worklist.push_back(member);
  };
  auto visitUsers = [&](Operation *op) {
    for (Operation *user : op->getUsers())
      if (Operation *inBlock = block->findAncestorOpInBlock(*user))
        visit(inBlock);
  };
  for (Operation *op : group)
    visitUsers(op);
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    for (Operation *user : op->getUsers()) {
      Operation *inBlock = block->findAncestorOpInBlock(*user);
      if (inBlock && group.contains(inBlock))
        return false;
    }
    visitUsers(op);
  }
  return true;
}

/// Partitions the fusible ops of `block` into convex groups of equal shape.
static SmallVector<Group> formGroups(Block &block) {
  SmallVector<Group> groups;
  llvm::DenseMap<Operation *, unsigned> groupOf;
  for (Operation &op : block) {
    if (!isFusible(&op))
      continue;
    // Start from the op alone, then try to merge in the group of each
    // fusible producer of the same shape.
    Group merged;
    merged.insert(&op);
    SmallVector<unsigned> absorbed;
    for (Value operand : op.getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (!def || def->getBlock() != &block || !groupOf.count(def) ||
          shapeOf(def) != shapeOf(&op))
        continue;
      unsigned g = groupOf[def];
      if (llvm::is_contained(absorbed, g))
        continue;
      Group candidate = merged;
      candidate.insert(groups[g].begin(), groups[g].end());
      if (!isConvex(candidate, &block, groupOf, groups))
        continue;
      merged = std::move(candidate);
      absorbed.push_back(g);
    }
    unsigned id = groups.size();
    for (unsigned g : absorbed)
      groups[g].clear();
    groups.push_back(Group());
    // Keep the ops in program order.
    for (Operation &o : block)
      if (merged.contains(&o))
        groups[id].insert(&o);
    for (Operation *o : groups[id])
      groupOf[o] = id;
  }
  llvm::erase_if(groups, [](const Group &g) { return g.empty(); });
  return groups;
}

/// Replaces `group` by one mt.thread_graph.
static void fuseGroup(const Group &group) {
  Operation *first = group.front();
  SmallVector<Value> inputs, results;
  llvm::SmallDenseMap<Value, unsigned> inputIndex;
  for (Operation *op : group) {
    for (Value v : op->getOperands())
      if (!group.contains(v.getDefiningOp()) && !inputIndex.count(v)) {
        inputIndex[v] = inputs.size();
        inputs.push_back(v);
      }
    Value r = op->getResult(0);
    if (llvm::any_of(r.getUsers(),
                     [&](Operation *u) { return !group.contains(u); }))
      results.push_back(r);
  }

  OpBuilder b(first);
  auto tg = mt::ThreadGraphOp::create(b, first->getLoc(),
                                      ValueRange(results).getTypes(), inputs);
  Block *body = b.createBlock(&tg.getBody());
  for (Value in : inputs)
    body->addArgument(cast<RankedTensorType>(in.getType()).getElementType(),
                      in.getLoc());
  IRMapping scalars;
  for (auto [in, arg] : llvm::zip_equal(inputs, body->getArguments()))
    scalars.map(in, arg);
  for (Operation *op : group) {
    // mt ops are named like their ElementwiseKind and carry the same
    // properties (scalar, min, max) as the block-level op.
    auto kind = cast<ElementwiseOpInterface>(op).getElementwiseKind();
    OperationState state(op->getLoc(),
                         ("mt." + stringifyElementwiseKind(kind)).str());
    for (Value v : op->getOperands())
      state.addOperands(scalars.lookup(v));
    state.addTypes(
        cast<RankedTensorType>(op->getResult(0).getType()).getElementType());
    state.propertiesAttr = op->getPropertiesAsAttribute();
    Operation *scalarOp = b.create(state);
    scalars.map(op->getResult(0), scalarOp->getResult(0));
  }
  SmallVector<Value> yielded;
  for (Value r : results)
    yielded.push_back(scalars.lookup(r));
  mt::YieldOp::create(b, first->getLoc(), yielded);

  for (auto [r, newR] : llvm::zip_equal(results, tg.getResults()))
    r.replaceAllUsesWith(newR);
  for (Operation *op : llvm::reverse(group))
    op->erase();
}

struct FormThreadGraphsPass
    : public mirage::impl::FormThreadGraphsBase<FormThreadGraphsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<Block *> blocks;
    getOperation()->walk([&](mk::GraphKernelOp kernel) {
      blocks.push_back(&kernel.getBody().front());
      if (mb::ForLoopOp loop = kernel.getForLoop())
        blocks.push_back(&loop.getBody().front());
    });
    for (Block *block : blocks) {
      bool changed = false;
      for (const Group &group : formGroups(*block)) {
        if (group.size() < minOps)
          continue;
        ++numThreadGraphs;
        numFusedOps += group.size();
        fuseGroup(group);
        changed = true;
      }
      // The thread graph sits where its first op was; values it reads may be
      // defined later in the block, so restore a topological order.
      if (changed && !sortTopologically(block)) {
        getOperation()->emitError("thread-graph formation produced a cycle");
        return signalPassFailure();
      }
    }
  }
};

} // namespace
