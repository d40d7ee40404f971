//===- ImportEval.cpp - Evaluation of an imported program -----------------===//
//
// The function's ops are taken in program order and grouped into steps:
//  - an interpreter step is a maximal run of mk ops, calls of outlined mk
//    functions (inlined into the step) and static reshapes between them
//    (as mk.reshape); the constants it reads are host tensors;
//  - an upstream step is a maximal run of the other ops; it becomes a
//    function whose arguments are the values it reads from earlier steps
//    and whose results are the values later steps (or the return) read,
//    with the constants and empties it reads cloned in. All upstream steps
//    are lowered and JIT-compiled together, once.
//
//===----------------------------------------------------------------------===//

#include "ImportEval.h"

#include "Mirage/Dialect/Kernel/IR/Kernel.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mirage;
using namespace mirage::run;

struct ImportedProgram::Step {
  bool upstream = false;
  std::string name;
  /// Values of the function the step reads and defines.
  SmallVector<Value> operands, results;
};

namespace {

bool isMkOp(Operation *op) {
  return op->getDialect() && op->getDialect()->getNamespace() ==
                                 mk::MKDialect::getDialectNamespace();
}

/// A function of mk ops only (what the import outlines).
bool isMkFunction(func::FuncOp f) {
  return f && !f.isExternal() && f.getBody().hasOneBlock() &&
         llvm::all_of(f.getBody().front(), [](Operation &op) {
           return isMkOp(&op) || isa<func::ReturnOp>(op);
         });
}

/// A static float tensor of rank 0 to 4: what the interpreter takes (rank
/// 0 as one element).
bool interpreterTakes(Type t) {
  auto rt = dyn_cast<RankedTensorType>(t);
  return rt && rt.hasStaticShape() && rt.getRank() <= 4 &&
         isa<FloatType>(rt.getElementType());
}

enum class Role { Mk, Constant, Outside };

Role roleOf(Operation &op, SymbolTable &symbols) {
  if (isMkOp(&op))
    return Role::Mk;
  if (auto call = dyn_cast<func::CallOp>(op))
    if (isMkFunction(symbols.lookup<func::FuncOp>(call.getCallee())))
      return Role::Mk;
  if (op.getNumOperands() == 0 && op.getNumRegions() == 0 &&
      (op.hasTrait<OpTrait::ConstantLike>() || isa<tensor::EmptyOp>(op)))
    return Role::Constant;
  // A reshape between mk ops is a view, as mk.reshape.
  if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tosa::ReshapeOp>(
          op) &&
      interpreterTakes(op.getOperand(0).getType()) &&
      interpreterTakes(op.getResult(0).getType()) &&
      cast<RankedTensorType>(op.getResult(0).getType()).getRank() > 0)
    return Role::Mk;
  return Role::Outside;
}

/// The interpreter's form of a value of type `t`: rank 0 as one element.
Type interpreterType(Type t) {
  auto rt = cast<RankedTensorType>(t);
  return rt.getRank() ? t : RankedTensorType::get({1}, rt.getElementType());
}

/// The value of a float constant as a host tensor.
std::optional<verify::FloatTensor> constantValue(Operation *op) {
  auto dense = dyn_cast_or_null<DenseFPElementsAttr>(
      op->getAttrOfType<ElementsAttr>(isa<tosa::ConstOp>(op) ? "values"
                                                               : "value"));
  auto t = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!dense || !t || !t.hasStaticShape())
    return std::nullopt;
  verify::FloatTensor values(t.getShape(), 0.0);
  for (auto [i, v] : llvm::enumerate(dense.getValues<APFloat>()))
    values.data[i] = v.convertToDouble();
  return values;
}

std::string describe(Value v) {
  std::string s = "a value of type " + typeName(v.getType());
  if (Operation *def = v.getDefiningOp())
    s += " (of '" + def->getName().getStringRef().str() + "')";
  return s;
}

} // namespace

ImportedProgram::~ImportedProgram() = default;

std::unique_ptr<ImportedProgram>
ImportedProgram::create(OwningOpRef<ModuleOp> module, func::FuncOp func,
                        std::string &why, bool &lowering, FloatType outsideIn) {
  lowering = false;
  MLIRContext *ctx = module->getContext();
  std::unique_ptr<ImportedProgram> p(new ImportedProgram());
  p->func = func;
  p->outsideIn = outsideIn;
  if (!func.getBody().hasOneBlock()) {
    why = "the imported function has " +
          std::to_string(func.getBody().getBlocks().size()) +
          " blocks (control flow); the check evaluates one block";
    return nullptr;
  }
  Block &body = func.getBody().front();
  // Dead code the import leaves (or the original had) is not evaluated.
  bool erased = true;
  while (erased) {
    erased = false;
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(body)))
      if (isOpTriviallyDead(&op)) {
        op.erase();
        erased = true;
      }
  }

  SymbolTable symbols(*module);
  // Group the ops into steps.
  SmallVector<std::pair<Role, SmallVector<Operation *>>> groups;
  for (Operation &op : body.without_terminator()) {
    Role role = roleOf(op, symbols);
    if (role == Role::Constant)
      continue;
    if (role == Role::Outside) {
      // An op left outside is lowered whole, with what it calls; mk code
      // inside it would not be.
      WalkResult nested = op.walk([&](Operation *inner) {
        auto call = dyn_cast<func::CallOp>(inner);
        func::FuncOp callee =
            call ? symbols.lookup<func::FuncOp>(call.getCallee()) : nullptr;
        if ((inner != &op && isMkOp(inner)) || isMkFunction(callee)) {
          why = "an mk op or call is nested in '" +
                op.getName().getStringRef().str() +
                "', which the import leaves outside; the check evaluates mk "
                "code at the function's top level only";
          return WalkResult::interrupt();
        }
        if (call && callee) {
          WalkResult mkInside = callee.walk([](Operation *o) {
            return isMkOp(o) ? WalkResult::interrupt() : WalkResult::advance();
          });
          if (mkInside.wasInterrupted()) {
            why = "@" + callee.getSymName().str() +
                  ", called by an op left outside, holds mk code";
            return WalkResult::interrupt();
          }
        }
        return WalkResult::advance();
      });
      if (nested.wasInterrupted())
        return nullptr;
      ++p->numOutsideOps;
    }
    if (groups.empty() || groups.back().first != role)
      groups.push_back({role, {}});
    groups.back().second.push_back(&op);
  }

  p->mkSteps = ModuleOp::create(func.getLoc());
  OwningOpRef<ModuleOp> segments = ModuleOp::create(func.getLoc());
  for (auto [index, group] : llvm::enumerate(groups)) {
    auto &[role, ops] = group;
    bool upstream = role == Role::Outside;
    Step step;
    step.upstream = upstream;
    step.name = (upstream ? "mirage_check_segment" : "mirage_check_mk") +
                std::to_string(index);
    ModuleOp into = upstream ? *segments : *p->mkSteps;
    OpBuilder b = OpBuilder::atBlockEnd(into.getBody());
    auto fn = func::FuncOp::create(b, func.getLoc(), step.name,
                                   FunctionType::get(ctx, {}, {}));
    Block *entry = fn.addEntryBlock();
    b.setInsertionPointToEnd(entry);
    IRMapping map;
    // Maps `v` to an argument of the step (or a clone of its constant).
    auto need = [&](Value v) -> bool {
      if (map.contains(v))
        return true;
      Operation *def = v.getDefiningOp();
      if (upstream && def && roleOf(*def, symbols) == Role::Constant) {
        b.clone(*def, map);
        return true;
      }
      auto rt = dyn_cast<RankedTensorType>(v.getType());
      if (!rt || !rt.hasStaticShape() ||
          (!upstream && !interpreterTakes(rt))) {
        why = describe(v) + " passes between the mk code and the ops left " +
              "outside; the check passes static tensors (float ones of " +
              "rank 0 to 4 into mk code)";
        return false;
      }
      map.map(v, entry->addArgument(upstream ? v.getType()
                                             : interpreterType(v.getType()),
                                    v.getLoc()));
      step.operands.push_back(v);
      return true;
    };
    for (Operation *op : ops) {
      if (upstream) {
        llvm::SetVector<Value> used(op->getOperands().begin(),
                                    op->getOperands().end());
        getUsedValuesDefinedAbove(op->getRegions(), used);
        for (Value v : used)
          if (!need(v))
            return nullptr;
        b.clone(*op, map);
        continue;
      }
      if (auto call = dyn_cast<func::CallOp>(op)) {
        // The outlined mk function, inlined.
        auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
        Block &calleeBody = callee.getBody().front();
        IRMapping inner;
        for (auto [arg, v] :
             llvm::zip_equal(calleeBody.getArguments(), call.getOperands())) {
          if (!need(v))
            return nullptr;
          inner.map(arg, map.lookup(v));
        }
        for (Operation &calleeOp : calleeBody.without_terminator()) {
          b.clone(calleeOp, inner);
          p->numMkOps += 1;
        }
        for (auto [r, v] : llvm::zip_equal(
                 call.getResults(), calleeBody.getTerminator()->getOperands()))
          map.map(r, inner.lookup(v));
        ++p->numCalls;
        continue;
      }
      if (!isMkOp(op)) {
        // A reshape: a view for the interpreter.
        if (!need(op->getOperand(0)))
          return nullptr;
        map.map(op->getResult(0),
                mk::ReshapeOp::create(b, op->getLoc(),
                                      op->getResult(0).getType(),
                                      map.lookup(op->getOperand(0))));
        continue;
      }
      for (Value v : op->getOperands())
        if (!need(v))
          return nullptr;
      b.clone(*op, map);
      ++p->numMkOps;
    }
    // Results: the values later steps or the return read.
    llvm::SmallPtrSet<Operation *, 16> inGroup(ops.begin(), ops.end());
    SmallVector<Value> returned;
    for (Operation *op : ops)
      for (Value r : op->getResults())
        if (llvm::any_of(r.getUsers(), [&](Operation *user) {
              return !inGroup.contains(body.findAncestorOpInBlock(*user));
            })) {
          auto rt = dyn_cast<RankedTensorType>(r.getType());
          if (!rt || !rt.hasStaticShape()) {
            why = describe(r) + " passes from the ops left outside to later " +
                  "ops; the check passes static tensors";
            return nullptr;
          }
          step.results.push_back(r);
          returned.push_back(map.lookup(r));
        }
    func::ReturnOp::create(b, func.getLoc(), returned);
    fn.setFunctionType(FunctionType::get(ctx, entry->getArgumentTypes(),
                                         TypeRange(ValueRange(returned))));
    if (upstream) {
      // What the segment calls comes along.
      for (Operation *op : ops)
        op->walk([&](func::CallOp call) {
          if (segments->lookupSymbol(call.getCallee()))
            return;
          if (auto callee = symbols.lookup<func::FuncOp>(call.getCallee())) {
            OpBuilder cb = OpBuilder::atBlockBegin(segments->getBody());
            cb.clone(*callee);
          }
        });
      ++p->numSegments;
    }
    p->steps.push_back(std::move(step));
  }
  if (p->numSegments) {
    if (outsideIn && failed(widenFloats(*segments, outsideIn))) {
      why = "widening the ops left outside to " + typeName(outsideIn) +
            " failed";
      return nullptr;
    }
    p->upstream = UpstreamProgram::create(*segments, why);
    if (!p->upstream) {
      why = "the ops the import leaves outside do not lower upstream: " + why;
      lowering = true;
      return nullptr;
    }
  }
  p->imported = std::move(module);
  return p;
}

std::optional<std::vector<verify::FloatTensor>>
ImportedProgram::evaluate(ArrayRef<verify::FloatTensor> inputs, bool f32,
                          StringRef fault, std::string &why) {
  // Each value as a host tensor (f64) or a buffer of the upstream code, or
  // both; converted where the other side reads it.
  struct HostValue {
    std::optional<verify::FloatTensor> real;
    std::optional<Buffer> buffer;
  };
  llvm::DenseMap<Value, HostValue> env;
  for (auto [arg, in] :
       llvm::zip_equal(func.getBody().getArguments(), inputs))
    env[arg].real = in;
  auto lookup = [&](Value v) -> HostValue * {
    auto it = env.find(v);
    if (it != env.end())
      return &it->second;
    if (Operation *def = v.getDefiningOp())
      if (std::optional<verify::FloatTensor> c = constantValue(def)) {
        env[v].real = std::move(*c);
        return &env[v];
      }
    why = describe(v) + " has no host value (a constant that is not a dense "
                        "float tensor?)";
    return nullptr;
  };
  auto real = [&](Value v) -> const verify::FloatTensor * {
    HostValue *h = lookup(v);
    if (!h)
      return nullptr;
    if (!h->real)
      h->real = readBuffer(*h->buffer);
    return &*h->real;
  };
  // The element type of an upstream step's buffer for a value of `elem`.
  auto bufferType = [&](Type elem) -> Type {
    return outsideIn && isa<FloatType>(elem) ? widenType(elem, outsideIn)
                                             : elem;
  };
  for (Step &step : steps) {
    if (!step.upstream) {
      std::vector<verify::FloatTensor> ins;
      for (Value v : step.operands) {
        const verify::FloatTensor *t = real(v);
        if (!t)
          return std::nullopt;
        ins.push_back(*t);
        if (ins.back().shape.empty())
          ins.back().shape.push_back(1);
      }
      auto fn = mkSteps->lookupSymbol<func::FuncOp>(step.name);
      verify::EvalError error;
      auto t0 = std::chrono::steady_clock::now();
      std::optional<std::vector<verify::FloatTensor>> outs =
          f32 ? verify::evaluateKernelPrecision(fn, ins, error)
              : verify::evaluateFloat(fn, ins, error);
      interpreterMs += msSince(t0);
      if (!outs) {
        why = "the interpreter cannot evaluate the import: " + error.message;
        return std::nullopt;
      }
      if (fault == "mk" && !outs->empty() && !outs->front().data.empty())
        outs->front().data[0] += 1.0;
      for (auto [v, t] : llvm::zip_equal(step.results, *outs))
        env[v].real = std::move(t);
      continue;
    }
    std::vector<Buffer> ins, outs;
    for (Value v : step.operands) {
      HostValue *h = lookup(v);
      if (!h)
        return std::nullopt;
      auto rt = cast<RankedTensorType>(v.getType());
      if (!h->buffer) {
        // (An integer is a mask argument: mk code computes floats only.)
        if (!isa<FloatType, IntegerType>(rt.getElementType())) {
          why = describe(v) + " reaches the ops left outside from mk code";
          return std::nullopt;
        }
        h->buffer = makeBuffer(*h->real, bufferType(rt.getElementType()));
        h->buffer->shape.assign(rt.getShape().begin(), rt.getShape().end());
      }
      ins.push_back(*h->buffer);
    }
    for (Value r : step.results) {
      auto rt = cast<RankedTensorType>(r.getType());
      outs.push_back(zeroBuffer(rt.getShape(), bufferType(rt.getElementType())));
    }
    SmallVector<const Buffer *> inPtrs;
    for (Buffer &b : ins)
      inPtrs.push_back(&b);
    if (failed(upstream->invoke(step.name, inPtrs, outs, why, upstreamMs)))
      return std::nullopt;
    for (auto [v, b] : llvm::zip_equal(step.results, outs))
      env[v].buffer = std::move(b);
    if (fault == "outside" && !step.results.empty()) {
      HostValue &h = env[step.results.front()];
      h.real = readBuffer(*h.buffer);
      h.buffer.reset();
      if (!h.real->data.empty())
        h.real->data[0] += 1.0;
    }
  }
  std::vector<verify::FloatTensor> results;
  for (Value v : func.getBody().front().getTerminator()->getOperands()) {
    const verify::FloatTensor *t = real(v);
    if (!t)
      return std::nullopt;
    results.push_back(*t);
    auto rt = cast<RankedTensorType>(v.getType());
    results.back().shape.assign(rt.getShape().begin(), rt.getShape().end());
  }
  return results;
}
