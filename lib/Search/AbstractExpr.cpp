//===- AbstractExpr.cpp - Abstract expressions and axioms -------*- C++ -*-===//
//
// Terms for mk/mb/mt ops, their axis analysis and the axioms as e-graph
// rewrites; the terms of a program are built in AbstractExprBuilder.cpp and
// the pruning oracle is in PruningOracle.cpp. docs/search.md ("Abstract
// expressions and pruning") states the language, the axioms and why pruning
// with them never loses a program.
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
// Language
//===----------------------------------------------------------------------===//

const OpTable &abstractOps() {
  static const OpTable table = [] {
    OpTable t;
    // Order must match `AOp`.
    for (const char *name :
         {"var",    "const", "add",   "mul",    "div",     "pow",     "exp",
          "square", "sqrt",  "rsqrt", "silu",   "gelu",    "relu",    "sigmoid",
          "clamp",  "sum",   "max",   "concat", "maximum", "gelu_erf", "mask"})
      t.add(name);
    return t;
  }();
  return table;
}

int64_t encodeMaskKey(std::optional<int64_t> lower,
                      std::optional<int64_t> upper, double fill, bool additive,
                      unsigned numDims) {
  return static_cast<int64_t>(llvm::hash_combine(
      lower.has_value(), lower.value_or(0), upper.has_value(),
      upper.value_or(0), encodeConst(fill), additive, numDims));
}

int64_t encodeConst(double value) {
  if (value == 0)
    value = 0; // one spelling for +0 and -0
  int64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

double decodeConst(int64_t payload) {
  double value;
  std::memcpy(&value, &payload, sizeof(value));
  return value;
}

int64_t encodeReduction(int64_t size, uint32_t axis) {
  assert(size > 0 && size < (int64_t(1) << 40) && "reduction size overflow");
  return (int64_t(axis) << 40) | size;
}

//===----------------------------------------------------------------------===//
// TermBuilder
//===----------------------------------------------------------------------===//

TermBuilder::Id TermBuilder::var(unsigned index) {
  return expr.add(ENode{opId(AOp::Var), int64_t(index), {}});
}

TermBuilder::Id TermBuilder::constant(double value) {
  return expr.add(ENode{opId(AOp::Const), encodeConst(value), {}});
}

TermBuilder::Id TermBuilder::unary(AOp op, Id x) {
  return expr.add(ENode{opId(op), 0, {x}});
}

TermBuilder::Id TermBuilder::binary(AOp op, Id x, Id y) {
  // x * x is spelled square(x): the normal form the axioms use (see the
  // "square" rule), so that mk.mul(t, t) and mk.square(t) agree.
  if (op == AOp::Mul && x == y)
    return unary(AOp::Square, x);
  return expr.add(ENode{opId(op), 0, {x, y}});
}

TermBuilder::Id TermBuilder::sub(Id x, Id y) { return add(x, scale(-1.0, y)); }

TermBuilder::Id TermBuilder::scale(double c, Id x) {
  if (c == 1.0)
    return x;
  return mul(constant(c), x);
}

TermBuilder::Id TermBuilder::shift(double c, Id x) {
  if (c == 0.0)
    return x;
  return add(constant(c), x);
}

TermBuilder::Id TermBuilder::reciprocal(Id x) { return div(constant(1.0), x); }

TermBuilder::Id TermBuilder::tanh(Id x) {
  // 2 sigmoid(2x) - 1: one spelling for tanh and its sigmoid form.
  return shift(-1.0, scale(2.0, unary(AOp::Sigmoid, scale(2.0, x))));
}

TermBuilder::Id TermBuilder::clamp(double lo, double hi, Id x) {
  return expr.add(ENode{opId(AOp::Clamp), 0, {constant(lo), constant(hi), x}});
}

TermBuilder::Id TermBuilder::mask(int64_t key, Id x) {
  return expr.add(ENode{opId(AOp::Mask), key, {x}});
}

TermBuilder::Id TermBuilder::where(double fill, bool inverted, Id m, Id x) {
  // A mask op of no dims; the additive bit of the key, which a select by a
  // tensor has no use for, tells the inverted select.
  return expr.add(
      ENode{opId(AOp::Mask),
            encodeMaskKey(std::nullopt, std::nullopt, fill, inverted, 0),
            {m, x}});
}

TermBuilder::Id TermBuilder::sum(int64_t size, uint32_t axis, Id x) {
  if (size == 1)
    return x;
  return expr.add(ENode{opId(AOp::Sum), encodeReduction(size, axis), {x}});
}

TermBuilder::Id TermBuilder::max(int64_t size, uint32_t axis, Id x) {
  if (size == 1)
    return x;
  return expr.add(ENode{opId(AOp::Max), encodeReduction(size, axis), {x}});
}

TermBuilder::Id TermBuilder::rms(int64_t n, double eps, Id sumOfSquares) {
  // 1/n is computed from the integer n, so a kernel-level rms over 4096 and a
  // loop accumulator over 32 x 128 produce bit-identical constants.
  return unary(AOp::Sqrt, shift(eps, scale(1.0 / double(n), sumOfSquares)));
}

//===----------------------------------------------------------------------===//
// Axes and the dependence analysis
//===----------------------------------------------------------------------===//

void AxisSpace::setInputs(ArrayRef<SmallVector<int64_t, 4>> inputShapes) {
  shapes.assign(inputShapes.begin(), inputShapes.end());
  parent.resize(shapes.size() * kMaxRank);
  for (auto [i, p] : llvm::enumerate(parent))
    p = i;
}

uint32_t AxisSpace::axisOf(unsigned input, unsigned dim) const {
  return input * kMaxRank + dim;
}

uint32_t AxisSpace::find(uint32_t a) const {
  while (parent[a] != a)
    a = parent[a];
  return a;
}

void AxisSpace::unite(uint32_t a, uint32_t b) {
  if (a == kNoAxis || b == kNoAxis)
    return;
  a = find(a);
  b = find(b);
  // The least pair is the root, so a label only changes when a class gains a
  // smaller pair: stable for a candidate built on the target's axes.
  if (a > b)
    std::swap(a, b);
  parent[b] = a;
}

int64_t AxisSpace::extent(uint32_t label) const {
  if (label == 0)
    return 0;
  uint32_t a = label - 1;
  return shapes[a / kMaxRank][a % kMaxRank];
}

uint64_t AxisSpace::inputMask(unsigned i) const {
  uint64_t mask = 0;
  for (auto [d, size] : llvm::enumerate(shapes[i]))
    if (size > 1)
      mask |= bit(label(axisOf(i, d)));
  return mask;
}

uint64_t FreeAxesAnalysis::make(const EGraph &egraph, const ENode &node) const {
  switch (static_cast<AOp>(node.op)) {
  case AOp::Var:
    return node.payload < axes.numInputs() ? axes.inputMask(node.payload)
                                           : ~uint64_t(0);
  case AOp::Const:
    return 0;
  case AOp::Mask:
    // Which element is kept depends on its position along the masked dims,
    // which the key does not name: every axis, so that no rule takes a
    // mask out of a reduction.
    return ~uint64_t(0);
  case AOp::Sum:
  case AOp::Max: {
    uint64_t mask = egraph.data(node.children[0]);
    uint32_t label = reductionAxis(node.payload);
    // Only a reduction over the whole axis makes the value independent of
    // it: a tile or loop step leaves the dependence on the other part.
    if (label != 0 && AxisSpace::hasOwnBit(label) &&
        reductionSize(node.payload) >= axes.extent(label))
      mask &= ~AxisSpace::bit(label);
    return mask;
  }
  default: {
    uint64_t mask = 0;
    for (ClassId c : node.children)
      mask |= egraph.data(c);
    return mask;
  }
  }
}

//===----------------------------------------------------------------------===//
// Axioms
//===----------------------------------------------------------------------===//

namespace {
/// Aborts on a malformed built-in rule: a programming error, not user input.
Rewrite check(Expected<Rewrite> rw) {
  if (!rw)
    report_fatal_error(rw.takeError());
  return std::move(*rw);
}

/// `a` does not depend on the axis of reduction payload `$n`.
Rewrite::Condition independent(const Rewrite &rw, StringRef a, StringRef n) {
  int ai = rw.lhs.classVar(a);
  int ni = rw.lhs.payloadVar(n);
  assert(ai >= 0 && ni >= 0 && "unknown variable in a condition");
  return [ai, ni](const EGraph &g, ClassId, const Subst &s) {
    uint32_t label = reductionAxis(s.payloads[ni]);
    return label != 0 && (g.data(s.classes[ai]) & AxisSpace::bit(label)) == 0;
  };
}

/// Adds `lhs => rhs` and, unless `oneWay`, `rhs => lhs` with the same
/// condition on the variables.
void addRule(std::vector<Rewrite> &rules, StringRef name, StringRef lhs,
             StringRef rhs, bool oneWay = false,
             std::pair<StringRef, StringRef> indep = {}) {
  const OpTable &ops = abstractOps();
  Rewrite fwd = check(Rewrite::parse(name, lhs, rhs, ops));
  if (!indep.first.empty())
    fwd.condition = independent(fwd, indep.first, indep.second);
  rules.push_back(std::move(fwd));
  if (oneWay)
    return;
  Rewrite bwd = check(Rewrite::parse((name + "-rev").str(), rhs, lhs, ops));
  if (!indep.first.empty())
    bwd.condition = independent(bwd, indep.first, indep.second);
  rules.push_back(std::move(bwd));
}

/// Split and merge of a reduction `op` (sum or max) over one axis.
void addReductionRules(std::vector<Rewrite> &rules, AOp op, StringRef name) {
  const OpTable &ops = abstractOps();
  std::string opName = ops.name(opId(op)).str();
  // red(n, x) = red(a, red(n/a, x)) for every factor 1 < a < n: the index
  // i in [0, n) is i1 * (n/a) + i2. All factorisations are added, so a tile
  // size and a loop range of any shape are found.
  rules.push_back(check(Rewrite::withApplier(
      (name + "-split").str(), "(" + opName + ":$n ?x)", ops,
      [op](EGraph &g, ClassId, const Subst &s, SmallVectorImpl<ClassId> &out) {
        int64_t n = reductionSize(s.payloads[0]);
        uint32_t axis = reductionAxis(s.payloads[0]);
        for (int64_t a = 2; a * a <= n; ++a) {
          if (n % a)
            continue;
          for (int64_t outer : {a, n / a}) {
            ClassId inner = g.add(ENode{
                opId(op), encodeReduction(n / outer, axis), {s.classes[0]}});
            out.push_back(
                g.add(ENode{opId(op), encodeReduction(outer, axis), {inner}}));
          }
        }
      })));
  // red(a, red(b, x)) = red(a * b, x) over the same axis.
  Rewrite merge = check(Rewrite::withApplier(
      (name + "-merge").str(), "(" + opName + ":$a (" + opName + ":$b ?x))",
      ops,
      [op](EGraph &g, ClassId, const Subst &s, SmallVectorImpl<ClassId> &out) {
        int64_t size =
            reductionSize(s.payloads[0]) * reductionSize(s.payloads[1]);
        out.push_back(
            g.add(ENode{opId(op),
                        encodeReduction(size, reductionAxis(s.payloads[0])),
                        {s.classes[0]}}));
      },
      [](const EGraph &, ClassId, const Subst &s) {
        return reductionAxis(s.payloads[0]) == reductionAxis(s.payloads[1]);
      }));
  rules.push_back(std::move(merge));
}

/// Constant folding of `op` (add or mul) on two constants.
Rewrite foldRule(AOp op, StringRef name) {
  const OpTable &ops = abstractOps();
  std::string opName = ops.name(opId(op)).str();
  return check(Rewrite::withApplier(
      name, "(" + opName + " (const:$a) (const:$b))", ops,
      [op](EGraph &g, ClassId, const Subst &s, SmallVectorImpl<ClassId> &out) {
        double a = decodeConst(s.payloads[0]), b = decodeConst(s.payloads[1]);
        double r = op == AOp::Add ? a + b : a * b;
        out.push_back(g.add(ENode{opId(AOp::Const), encodeConst(r), {}}));
      }));
}
} // namespace

std::vector<Rewrite> getAbstractAxioms() {
  std::vector<Rewrite> rules;
  // Commutative rings (without subtraction or constants other than literal
  // scalars): commutativity, associativity, distributivity.
  addRule(rules, "add-comm", "(add ?a ?b)", "(add ?b ?a)", /*oneWay=*/true);
  addRule(rules, "mul-comm", "(mul ?a ?b)", "(mul ?b ?a)", /*oneWay=*/true);
  addRule(rules, "maximum-comm", "(maximum ?a ?b)", "(maximum ?b ?a)",
          /*oneWay=*/true);
  addRule(rules, "add-assoc", "(add ?a (add ?b ?c))", "(add (add ?a ?b) ?c)");
  addRule(rules, "mul-assoc", "(mul ?a (mul ?b ?c))", "(mul (mul ?a ?b) ?c)");
  addRule(rules, "distribute", "(mul ?a (add ?b ?c))",
          "(add (mul ?a ?b) (mul ?a ?c))");
  // Division.
  addRule(rules, "mul-div", "(mul ?a (div ?b ?c))", "(div (mul ?a ?b) ?c)");
  addRule(rules, "div-add", "(add (div ?a ?c) (div ?b ?c))",
          "(div (add ?a ?b) ?c)");
  addRule(rules, "div-div", "(div (div ?a ?b) ?c)", "(div ?a (mul ?b ?c))");
  // Unary functions that the search may spell in two ways.
  // x * x -> square(x) only: a square is a normal form, not expanded, so
  // distributivity never multiplies out (a + b + c)^2 (the ntrans target
  // would not saturate otherwise). Lookups normalise mul(c, c) the same way.
  addRule(rules, "square", "(mul ?a ?a)", "(square ?a)", /*oneWay=*/true);
  addRule(rules, "rsqrt", "(div ?a (sqrt ?b))", "(mul ?a (rsqrt ?b))");
  addRule(rules, "exp-add", "(exp (add ?a ?b))", "(mul (exp ?a) (exp ?b))");
  addRule(rules, "sqrt-mul", "(sqrt (mul ?a ?b))", "(mul (sqrt ?a) (sqrt ?b))");
  addRule(rules, "silu", "(silu ?a)", "(mul ?a (sigmoid ?a))");
  // Scalars: identities and folding (constants only combine with constants,
  // so the set of constants stays finite).
  std::string one = "(mul (const:" + std::to_string(encodeConst(1.0)) + ") ?a)";
  std::string zero =
      "(add (const:" + std::to_string(encodeConst(0.0)) + ") ?a)";
  addRule(rules, "mul-one", one, "?a", /*oneWay=*/true);
  addRule(rules, "add-zero", zero, "?a", /*oneWay=*/true);
  rules.push_back(foldRule(AOp::Mul, "fold-mul"));
  rules.push_back(foldRule(AOp::Add, "fold-add"));
  // Reductions: split by factors / merge, commute with each other, are
  // linear, and commute with factors and divisors that do not depend on the
  // reduced axis (the FreeAxesAnalysis condition).
  addReductionRules(rules, AOp::Sum, "sum");
  addReductionRules(rules, AOp::Max, "max");
  {
    Rewrite comm = check(Rewrite::parse("sum-comm", "(sum:$a (sum:$b ?x))",
                                        "(sum:$b (sum:$a ?x))", abstractOps()));
    comm.condition = [](const EGraph &, ClassId, const Subst &s) {
      // Over one axis, sum-merge already equates both orders.
      return reductionAxis(s.payloads[0]) != reductionAxis(s.payloads[1]);
    };
    rules.push_back(std::move(comm));
  }
  addRule(rules, "sum-add", "(sum:$n (add ?a ?b))",
          "(add (sum:$n ?a) (sum:$n ?b))");
  addRule(rules, "sum-mul", "(sum:$n (mul ?a ?b))", "(mul ?a (sum:$n ?b))",
          /*oneWay=*/false, {"?a", "$n"});
  addRule(rules, "sum-div", "(sum:$n (div ?a ?b))", "(div (sum:$n ?a) ?b)",
          /*oneWay=*/false, {"?b", "$n"});
  return rules;
}

} // namespace mirage::search
