//===- Subprograms.cpp - The partition's ops, orders and outlined intervals
//===//
//
// The ops a partitioned search covers and their dependences, the
// topological orders it cuts into intervals, and an interval's boundary and
// outlined function (Subprograms.h, docs/partitioning.md).
//
//===----------------------------------------------------------------------===//

#include "Subprograms.h"

#include "Mirage/Dialect/Kernel/IR/Kernel.h"
#include "Mirage/Search/KernelCost.h"
#include "Mirage/Transforms/AbsorbViews.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace mirage::search::detail {

//===----------------------------------------------------------------------===//
// Topological orders
//===----------------------------------------------------------------------===//

/// Ops the partition leaves between its subprograms: layout ops
/// (isLayoutOp), which become the spliced kernels' views (absorbViews), so
/// that a transposed weight or a reshaped bias does not cut a matmul from its
/// epilogue, and conversions between storage types, which a subprogram reads
/// through (it computes in one element type, see outline) and the spliced
/// kernels take in (absorbConversions).
static bool isLeftBetween(Operation *op) {
  return isLayoutOp(op) || isa<mk::ConvertOp>(op);
}

/// The ops the partition covers.
SmallVector<Operation *> partitionedOps(Block &body) {
  SmallVector<Operation *> ops;
  for (Operation &op : body.without_terminator())
    if (!isLeftBetween(&op))
      ops.push_back(&op);
  return ops;
}

/// The op that computes `v`, looking through the ops left between
/// subprograms (null for an argument): a dependence through them is one on
/// their source.
Operation *producerThrough(Value v) {
  Operation *def = v.getDefiningOp();
  while (def && isLeftBetween(def))
    def = def->getOperand(0).getDefiningOp();
  return def;
}

/// The value that `v` converts, through a chain of conversions, when an op
/// of `inside` computes it; otherwise `v`. A subprogram reads its own values
/// through such a chain as they are (in its one element type).
Value throughConversions(Value v,
                         const llvm::SmallPtrSetImpl<Operation *> &inside) {
  Value source = v;
  while (auto c = source.getDefiningOp<mk::ConvertOp>())
    source = c.getInput();
  return inside.contains(source.getDefiningOp()) ? source : v;
}

/// Whether a use of `v` lies outside `inside`, looking through conversions.
static bool usedOutside(Value v,
                        const llvm::SmallPtrSetImpl<Operation *> &inside) {
  return llvm::any_of(v.getUsers(), [&](Operation *user) {
    if (inside.contains(user))
      return false;
    auto c = dyn_cast<mk::ConvertOp>(user);
    return !c || usedOutside(c.getResult(), inside);
  });
}

OpGraph buildGraph(Block &body) {
  OpGraph g;
  DenseMap<Operation *, unsigned> index;
  g.ops = partitionedOps(body);
  for (auto [i, op] : llvm::enumerate(g.ops))
    index[op] = i;
  g.preds.resize(g.ops.size());
  for (auto [i, op] : llvm::enumerate(g.ops))
    for (Value v : op->getOperands())
      if (Operation *def = producerThrough(v)) {
        auto it = index.find(def);
        if (it != index.end() && !llvm::is_contained(g.preds[i], it->second))
          g.preds[i].push_back(it->second);
      }
  return g;
}

/// A topological order by Kahn's algorithm: among the ready ops, the one
/// whose latest producer was emitted earliest (`breadth`: consumers of one
/// value stay adjacent, e.g. Q/K/V projections of one normalised input) or
/// latest (depth: a chain is followed to its end), then by body position.
static SmallVector<unsigned> kahnOrder(const OpGraph &g, bool breadth) {
  unsigned n = g.ops.size();
  SmallVector<int> emittedAt(n, -1);
  SmallVector<unsigned> order;
  while (order.size() < n) {
    int best = -1, bestKey = 0;
    for (unsigned i = 0; i < n; ++i) {
      if (emittedAt[i] >= 0)
        continue;
      int latest = -1;
      bool ready = true;
      for (unsigned p : g.preds[i]) {
        ready &= emittedAt[p] >= 0;
        latest = std::max(latest, emittedAt[p]);
      }
      if (!ready)
        continue;
      int key = breadth ? latest : -latest;
      if (best < 0 || key < bestKey) {
        best = i;
        bestKey = key;
      }
    }
    emittedAt[best] = order.size();
    order.push_back(best);
  }
  return order;
}

/// The orders the dynamic programming runs over: the body's own, then the
/// breadth and depth orders, without repeats.
SmallVector<SmallVector<unsigned>> topologicalOrders(const OpGraph &g) {
  SmallVector<SmallVector<unsigned>> orders;
  SmallVector<unsigned> body(g.ops.size());
  for (unsigned i = 0; i < body.size(); ++i)
    body[i] = i;
  for (SmallVector<unsigned> o :
       {body, kahnOrder(g, /*breadth=*/true), kahnOrder(g, false)})
    if (!llvm::is_contained(orders, o))
      orders.push_back(std::move(o));
  return orders;
}

//===----------------------------------------------------------------------===//
// Outlining
//===----------------------------------------------------------------------===//

/// The boundary of a set of ops (in a topological order): the values
/// defined outside and used inside, by first use; the results used outside
/// (or returned), by op and result number. A conversion between two of the
/// ops is neither (throughConversions).
void boundary(ArrayRef<Operation *> ops, SmallVectorImpl<Value> &inputs,
              SmallVectorImpl<Value> &outputs) {
  llvm::SmallPtrSet<Operation *, 8> inside(ops.begin(), ops.end());
  for (Operation *op : ops)
    for (Value v : op->getOperands()) {
      Value read = throughConversions(v, inside);
      if (!inside.contains(read.getDefiningOp()) &&
          !llvm::is_contained(inputs, read))
        inputs.push_back(read);
    }
  for (Operation *op : ops)
    for (Value r : op->getResults())
      if (usedOutside(r, inside))
        outputs.push_back(r);
}

/// The element type a subprogram of `ops` computes in: theirs when they
/// share one, else f32 (conversions between them, which the subprogram
/// reads through, are exact in f32 or drop a rounding the kernels need not
/// make: every op computes in f32 and only storage rounds, DESIGN §3.4).
static Type computeTypeOf(ArrayRef<Operation *> ops) {
  Type common;
  for (Operation *op : ops)
    for (Type t :
         llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes())) {
      Type e = cast<RankedTensorType>(t).getElementType();
      if (common && e != common)
        return Float32Type::get(op->getContext());
      common = e;
    }
  return common;
}

/// `t` with element type `e`.
static Type withElement(Type t, Type e) {
  return cast<RankedTensorType>(t).clone(e);
}

/// `ops` and the conversions between them (throughConversions): what a
/// splice of their program erases once their outputs are replaced.
SmallVector<Operation *> withConversionsBetween(ArrayRef<Operation *> ops) {
  llvm::SmallPtrSet<Operation *, 8> inside(ops.begin(), ops.end());
  SmallVector<Operation *> all(ops.begin(), ops.end());
  for (Operation *op : ops)
    for (Value v : op->getOperands())
      if (throughConversions(v, inside) != v)
        for (auto c = v.getDefiningOp<mk::ConvertOp>(); c;
             c = c.getInput().getDefiningOp<mk::ConvertOp>())
          if (!llvm::is_contained(all, c.getOperation()))
            all.push_back(c);
  return all;
}

/// Erases the ops of `dead` that have no use left, users first (a
/// conversion between a piece's ops that an op outside reads stays).
void eraseUnused(MutableArrayRef<Operation *> dead) {
  // Users first: erase whatever has no use left until nothing changes.
  for (bool changed = true; changed;) {
    changed = false;
    for (Operation *&op : dead)
      if (op && op->use_empty()) {
        op->erase();
        op = nullptr;
        changed = true;
      }
  }
}

Outlined outline(ArrayRef<Operation *> ops, int64_t smemLimit) {
  Outlined o;
  MLIRContext *ctx = ops.front()->getContext();
  Location loc = UnknownLoc::get(ctx);
  SmallVector<Value> inputs, outputs;
  boundary(ops, inputs, outputs);
  llvm::SmallPtrSet<Operation *, 8> inside(ops.begin(), ops.end());
  Type element = computeTypeOf(ops);
  OpBuilder b(ctx);
  o.module = ModuleOp::create(loc);
  (*o.module)->setAttr(mk::MKDialect::kSmemLimitAttrName,
                       b.getI64IntegerAttr(smemLimit));
  b.setInsertionPointToEnd(o.module->getBody());
  SmallVector<Type> in, out;
  for (Value v : inputs)
    in.push_back(withElement(v.getType(), element));
  for (Value v : outputs)
    out.push_back(withElement(v.getType(), element));
  o.func =
      func::FuncOp::create(b, loc, "subprogram", b.getFunctionType(in, out));
  Block *entry = o.func.addEntryBlock();
  IRMapping map;
  for (auto [v, arg] : llvm::zip(inputs, entry->getArguments()))
    map.map(v, arg);
  b.setInsertionPointToEnd(entry);
  for (Operation *op : ops) {
    for (Value v : op->getOperands())
      if (Value read = throughConversions(v, inside); read != v)
        map.map(v, map.lookup(read));
    Operation *c = b.clone(*op, map);
    c->setLoc(loc);
    for (Value r : c->getResults())
      r.setType(withElement(r.getType(), element));
  }
  SmallVector<Value> results;
  for (Value v : outputs)
    results.push_back(map.lookup(v));
  func::ReturnOp::create(b, loc, results);
  std::string storage;
  for (Value v : llvm::concat<Value>(inputs, outputs)) {
    auto t = cast<RankedTensorType>(v.getType());
    o.bytes += static_cast<double>(t.getNumElements()) *
               elementBytesOf(t.getElementType());
    llvm::raw_string_ostream(storage) << " " << t.getElementType();
  }
  llvm::raw_string_ostream os(o.text);
  o.func->print(os, OpPrintingFlags().useLocalScope());
  os << "\nsmem " << smemLimit;
  if (llvm::any_of(llvm::concat<Value>(inputs, outputs), [&](Value v) {
        return cast<RankedTensorType>(v.getType()).getElementType() != element;
      }))
    os << "\nstorage" << storage;
  return o;
}

} // namespace mirage::search::detail
