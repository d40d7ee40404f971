//===- PruningOracle.cpp - Pruning by abstract expressions ---------------===//
//
// PruningOracle: saturates the reference's terms under the axioms and
// answers whether a partial program may still lead to it (docs/search.md,
// "Abstract expressions and pruning").
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/AbstractExpr.h"

#include "Mirage/Dialect/Kernel/IR/Kernel.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using llvm::Expected;
using llvm::report_fatal_error;

namespace mirage::search {

//===----------------------------------------------------------------------===//
// PruningOracle
//===----------------------------------------------------------------------===//

static const std::vector<Rewrite> &axioms() {
  static const std::vector<Rewrite> rules = getAbstractAxioms();
  return rules;
}

PruningOracle::PruningOracle(RecExpr targetExpr, ArrayRef<RecExpr::Id> outs,
                             AxisSpace targetAxes,
                             const SaturationLimits &limits)
    : target(std::move(targetExpr)), axes(std::move(targetAxes)),
      analysis(axes), egraph(&analysis) {
  for (RecExpr::Id r : outs)
    roots.push_back(egraph.addExpr(target, r));
  report = saturate(egraph, axioms(), limits);
  // Every class is built from the target or from a rule applied to it, so
  // all are reachable; computing it keeps the "subterm of the target" claim
  // independent of that argument.
  reachable.resize(egraph.capacity());
  SmallVector<ClassId> stack;
  for (ClassId r : roots)
    stack.push_back(egraph.findConst(r));
  while (!stack.empty()) {
    ClassId c = stack.pop_back_val();
    if (reachable.test(c))
      continue;
    reachable.set(c);
    for (const ENode &n : egraph.nodes(c))
      for (ClassId child : n.children)
        stack.push_back(egraph.findConst(child));
  }
}

FailureOr<std::unique_ptr<PruningOracle>>
PruningOracle::create(func::FuncOp func, const SaturationLimits &limits) {
  AxisSpace axes;
  SmallVector<SmallVector<int64_t, 4>> shapes;
  for (Type t : func.getArgumentTypes()) {
    auto type = dyn_cast<RankedTensorType>(t);
    if (!type)
      return func.emitError("abstract expression: non-tensor argument");
    shapes.emplace_back(type.getShape());
  }
  axes.setInputs(shapes);
  RecExpr expr;
  AbstractExprBuilder builder(expr, axes);
  if (failed(builder.build(func)))
    return failure();
  SmallVector<RecExpr::Id> outs(builder.getOutputs());
  return std::make_unique<PruningOracle>(std::move(expr), outs, std::move(axes),
                                         limits);
}

std::optional<ClassId> PruningOracle::classOf(const RecExpr &expr,
                                              RecExpr::Id root) const {
  // mul(c, c) is looked up as square(c), the normal form the rules keep.
  return egraph.lookupExpr(expr, root, [](ENode &key) {
    if (key.op == opId(AOp::Mul) && key.children[0] == key.children[1]) {
      key.op = opId(AOp::Square);
      key.children.pop_back();
    }
  });
}

std::string printTerm(const RecExpr &expr, RecExpr::Id id) {
  std::string out;
  llvm::raw_string_ostream os(out);
  std::function<void(RecExpr::Id)> rec = [&](RecExpr::Id i) {
    const ENode &n = expr.get(i);
    auto op = static_cast<AOp>(n.op);
    if (!n.children.empty())
      os << '(';
    os << abstractOps().name(n.op);
    if (op == AOp::Var)
      os << ':' << n.payload;
    else if (op == AOp::Const)
      os << ':' << decodeConst(n.payload);
    else if (op == AOp::Sum || op == AOp::Max)
      os << ':' << reductionSize(n.payload) << '@' << reductionAxis(n.payload);
    for (ClassId c : n.children) {
      os << ' ';
      rec(c);
    }
    if (!n.children.empty())
      os << ')';
  };
  rec(id);
  return out;
}

std::optional<ClassId> PruningOracle::subtermClass(const RecExpr &expr,
                                                   RecExpr::Id root) const {
  std::optional<ClassId> c = classOf(expr, root);
  if (!c || !reachable.test(*c))
    return std::nullopt;
  return egraph.findConst(*c);
}

bool PruningOracle::mayLead(const RecExpr &expr, RecExpr::Id root) const {
  // Without a fixpoint a missing term proves nothing: keep the candidate.
  if (!report.saturated())
    return true;
  return subtermClass(expr, root).has_value();
}

} // namespace mirage::search
