//===- Superoptimizer.cpp - Multi-level uGraph search -----------*- C++ -*-===//
//
// Enumeration of kernel graphs and block graphs (docs/search.md):
//
// * The search works on its own small IR, not on MLIR: every tensor is a
//   list of logical-axis labels (those of the target's AxisSpace, 0 for a
//   dim of size 1), its abstract term and its e-class. A dim labelled `l`
//   of a kernel-level tensor has the axis's full extent; in a graph-defined
//   kernel it has the extent divided by the grid dim or the loop range that
//   walks `l`. So the structure of a block graph does not depend on the grid
//   sizes and the loop range: they are chosen after the structure is found,
//   by the cost proxy, among all divisors that fit the device.
// * Kernel level: append a pre-defined op, or open a graph-defined kernel:
//   choose its inputs, the axis the loop walks and the axes the grid splits;
//   imaps and fmaps follow (every input dim carrying a walked axis is
//   walked). Block level: body ops, then accumulators, then post-loop ops;
//   closing saves every unconsumed post-loop value.
// * Canonical order: within a level (and a block phase) ops are appended in
//   increasing key order, the key starting with the largest operand index,
//   so each graph is generated once.
// * Every appended op's term must be a subterm of a form of the target
//   (PruningOracle); an op whose value equals (same e-class, same dims) one
//   already present is a duplicate.
// * Complete candidates are verified in order of cost: a fingerprint at
//   reduced shapes that keep the grid and loop divisibility, then the full
//   equivalence check at the real shapes with a float comparison.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/Superoptimizer.h"

#include "Mirage/Dialect/Block/IR/Block.h"
#include "Mirage/Dialect/Kernel/IR/Kernel.h"
#include "Mirage/Dialect/Thread/IR/Thread.h"
#include "Mirage/Interfaces/MirageInterfaces.h"
#include "Mirage/Search/AbstractExpr.h"
#include "Mirage/Search/KernelCost.h"
#include "Mirage/Verify/Equivalence.h"
#include "Mirage/Verify/Numerics.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <thread>

using namespace mlir;
using namespace mirage;
using namespace mirage::search;

namespace {

//===----------------------------------------------------------------------===//
// The search IR
//===----------------------------------------------------------------------===//

/// Operations the search appends. Element-wise ops, structured ops and
/// accumulators share the enum so that keys and printing are uniform.
enum class Kind : uint8_t {
  Exp,
  Square,
  Sqrt,
  Rsqrt,
  Silu,
  Gelu,
  Relu,
  Sigmoid,
  Neg,
  MulScalar,
  AddScalar,
  Clamp,
  Add,
  Sub,
  Mul,
  Div,
  Pow,
  Matmul,
  ReduceSum,
  ReduceMax,
  RmsNorm,
  AccSum,
  AccSumLast,
  AccMeanLast,
  AccRmsLast,
  AccMax,
};
constexpr unsigned kNumKinds = static_cast<unsigned>(Kind::AccMax) + 1;

const char *kindName(Kind k) {
  static const char *names[] = {
      "exp",       "square",          "sqrt",           "rsqrt",
      "silu",      "gelu",            "relu",           "sigmoid",
      "neg",       "mul_scalar",      "add_scalar",     "clamp",
      "add",       "sub",             "mul",            "div",
      "pow",       "matmul",          "reduce_sum",     "reduce_max",
      "rms_norm",  "accum_sum",       "accum_sum_last", "accum_mean_last",
      "accum_rms_last", "accum_max"};
  return names[static_cast<unsigned>(k)];
}
bool isBinary(Kind k) { return k >= Kind::Add && k <= Kind::Pow; }
bool isAccumulator(Kind k) { return k >= Kind::AccSum; }
bool isCommutative(Kind k) { return k == Kind::Add || k == Kind::Mul; }

/// Scalar parameters: the constant of mul_scalar/add_scalar, clamp bounds,
/// the eps of rms_norm/accum_rms_last, the dim of a reduction.
struct Params {
  double a = 0, b = 0;
  int64_t dim = 0;
};

using Labels = SmallVector<uint32_t, 4>;

/// A tensor of the search IR.
struct SValue {
  Labels labels;
  RecExpr::Id term = 0;
  /// E-class in the saturated target graph (-1 when not pruning).
  int64_t cls = -1;
  /// Changes with the for-loop iteration (block level).
  bool variant = false;
  /// Defined after the loop: an accumulator or post-loop result.
  bool after = false;
  unsigned uses = 0;
  /// The function arguments the value depends on (bit i = argument i).
  uint64_t vars = 0;
};

struct SOp {
  Kind kind;
  Params params;
  SmallVector<int, 2> args;
  int result = -1;
};

/// A graph-defined kernel: structure, then the instantiation the cost proxy
/// chose.
struct SKernel {
  SmallVector<int, 4> inputs;
  uint32_t loopAxis = 0;
  SmallVector<uint32_t, 3> gridAxes;
  /// Representative loop range and grid sizes used for the terms while the
  /// structure is enumerated.
  int64_t repF = 1;
  SmallVector<int64_t, 3> repGrid;
  /// Block values: the tiles of `inputs` first.
  SmallVector<SValue, 8> vals;
  /// Body ops, then accumulators, then post-loop ops.
  SmallVector<SOp, 8> ops;
  unsigned numBody = 0, numAcc = 0;
  SmallVector<int, 2> outputs;
  SmallVector<int, 2> results;
  // Instantiation.
  int64_t forloop = 1;
  /// Grid dims x, y, z as (axis, size); fewer than 3 entries = size 1.
  SmallVector<std::pair<uint32_t, int64_t>, 3> grid;
  int64_t threads = 32;
  double micros = 0;
};

struct SKernelOp {
  bool isKernel = false;
  SOp op;
  int kernel = -1;
};

struct SProgram {
  SmallVector<SValue, 8> vals;
  SmallVector<SKernelOp, 4> ops;
  std::vector<SKernel> kernels;
};

/// A complete candidate with its cost.
struct Candidate {
  SProgram prog;
  SmallVector<int, 2> outputs;
  unsigned kernels = 0;
  double micros = 0;
  /// Ops of all levels (kernel ops and block ops).
  unsigned numOps = 0;
  std::string text;
  /// `micros` is a measured time (SuperoptimizeOptions::measuredMicros).
  bool measured = false;
};

/// Total order of candidates: kernel count then modelled time (`byKernels`)
/// or modelled time then kernel count, then fewer ops (the simpler program),
/// then the printed text.
bool betterCandidate(const Candidate &a, const Candidate &b, bool byKernels) {
  if (byKernels && a.kernels != b.kernels)
    return a.kernels < b.kernels;
  if (a.micros != b.micros)
    return a.micros < b.micros;
  if (a.kernels != b.kernels)
    return a.kernels < b.kernels;
  if (a.numOps != b.numOps)
    return a.numOps < b.numOps;
  return a.text < b.text;
}

/// Advances the mixed-radix counter `pos` (digit i counts to `size(i)`);
/// false once every combination has been visited.
template <typename SizeFn>
bool nextCombination(MutableArrayRef<unsigned> pos, SizeFn size) {
  for (size_t i = 0; i < pos.size(); ++i) {
    if (++pos[i] < size(i))
      return true;
    pos[i] = 0;
  }
  return false;
}

SmallVector<int64_t> divisorsAbove1(int64_t n) {
  SmallVector<int64_t> out;
  for (int64_t d = 2; d <= n; ++d)
    if (n % d == 0)
      out.push_back(d);
  return out;
}

/// The divisor > 1 of `n` whose quotient is closest to 64 (a typical tile):
/// the representative loop range or grid size of the structural search.
int64_t representativeSplit(int64_t n) {
  int64_t best = n;
  for (int64_t d : divisorsAbove1(n))
    if (std::abs(n / d - 64) < std::abs(n / best - 64))
      best = d;
  return best;
}

//===----------------------------------------------------------------------===//
// The target
//===----------------------------------------------------------------------===//

struct Target {
  func::FuncOp func;
  std::string elementType;
  int64_t elementBytes = 2;
  /// Extent of every axis label.
  DenseMap<uint32_t, int64_t> extent;
  /// The target as a search-IR program (for the reduced-shape reference).
  SProgram ref;
  SmallVector<int, 2> refOutputs;
  unsigned numInputs = 0;
  std::unique_ptr<PruningOracle> oracle;
  bool prune = false;
  /// Constants of the target, offered to the ops that take them.
  SmallVector<double, 2> eps, mulScalars, addScalars;
  SmallVector<std::pair<double, double>, 1> clamps;
  /// Kinds allowed in candidates.
  bool allowed[kNumKinds] = {};
  DeviceModel device{};
  int64_t smemLimit = 98304;
  /// Some result of the target is one of its arguments.
  bool argOutputs = false;
  /// The term of every argument and of every output in `expr`, for class
  /// lookups in the oracle.
  RecExpr expr;
};

//===----------------------------------------------------------------------===//
// Term and shape rules (one place for the kernel and block levels)
//===----------------------------------------------------------------------===//

/// The loop context of a block graph: representative range and walked axis.
struct LoopCtx {
  int64_t forloop = 1;
  uint32_t axis = 0;
};

/// Applies `kind` to `args`: result dims (labels) and term, or nullopt when
/// the op is not legal on these operands. `size` gives the size of a label
/// at this level.
std::optional<SValue> applyOp(TermBuilder &tb, Kind kind, const Params &p,
                              ArrayRef<const SValue *> args,
                              function_ref<int64_t(uint32_t)> size,
                              const LoopCtx &loop) {
  SValue r;
  const SValue &x = *args[0];
  r.variant = llvm::any_of(args, [](const SValue *a) { return a->variant; });
  r.after = llvm::any_of(args, [](const SValue *a) { return a->after; });
  for (const SValue *a : args)
    r.vars |= a->vars;
  auto loopSum = [&](RecExpr::Id t) {
    if (loop.forloop == 1)
      return t;
    if (x.variant && loop.axis)
      return tb.sum(loop.forloop, loop.axis, t);
    return tb.scale(static_cast<double>(loop.forloop), t);
  };
  auto lastNonUnit = [&]() { return !x.labels.empty() && x.labels.back(); };
  switch (kind) {
  case Kind::Exp:
  case Kind::Square:
  case Kind::Sqrt:
  case Kind::Rsqrt:
  case Kind::Silu:
  case Kind::Gelu:
  case Kind::Relu:
  case Kind::Sigmoid: {
    static const AOp map[] = {AOp::Exp,  AOp::Square, AOp::Sqrt,
                              AOp::Rsqrt, AOp::Silu,  AOp::Gelu,
                              AOp::Relu, AOp::Sigmoid};
    r.labels = x.labels;
    r.term = tb.unary(map[static_cast<unsigned>(kind)], x.term);
    return r;
  }
  case Kind::Neg:
    r.labels = x.labels;
    r.term = tb.scale(-1.0, x.term);
    return r;
  case Kind::MulScalar:
    r.labels = x.labels;
    r.term = tb.scale(p.a, x.term);
    return r;
  case Kind::AddScalar:
    r.labels = x.labels;
    r.term = tb.shift(p.a, x.term);
    return r;
  case Kind::Clamp:
    r.labels = x.labels;
    r.term = tb.clamp(p.a, p.b, x.term);
    return r;
  case Kind::Add:
  case Kind::Sub:
  case Kind::Mul:
  case Kind::Div:
  case Kind::Pow: {
    const SValue &y = *args[1];
    if (x.labels.size() != y.labels.size())
      return std::nullopt;
    // Broadcasting only across dims of size 1: two dims of different axes
    // never meet (the target has no such identification).
    for (auto [a, b] : llvm::zip(x.labels, y.labels)) {
      if (a && b && a != b)
        return std::nullopt;
      r.labels.push_back(a ? a : b);
    }
    if (kind == Kind::Add)
      r.term = tb.add(x.term, y.term);
    else if (kind == Kind::Sub)
      r.term = tb.sub(x.term, y.term);
    else if (kind == Kind::Mul)
      r.term = tb.mul(x.term, y.term);
    else if (kind == Kind::Div)
      r.term = tb.div(x.term, y.term);
    else
      r.term = tb.binary(AOp::Pow, x.term, y.term);
    return r;
  }
  case Kind::Matmul: {
    const SValue &y = *args[1];
    size_t rank = x.labels.size();
    if (rank < 2 || y.labels.size() != rank)
      return std::nullopt;
    uint32_t k = x.labels[rank - 1];
    if (k != y.labels[rank - 2])
      return std::nullopt;
    for (size_t d = 0; d + 2 < rank; ++d) {
      if (x.labels[d] != y.labels[d])
        return std::nullopt;
      r.labels.push_back(x.labels[d]);
    }
    r.labels.push_back(x.labels[rank - 2]);
    r.labels.push_back(y.labels[rank - 1]);
    RecExpr::Id prod = tb.mul(x.term, y.term);
    r.term = k ? tb.sum(size(k), k, prod) : prod;
    return r;
  }
  case Kind::ReduceSum:
  case Kind::ReduceMax: {
    if (p.dim < 0 || p.dim >= static_cast<int64_t>(x.labels.size()))
      return std::nullopt;
    uint32_t l = x.labels[p.dim];
    if (!l)
      return std::nullopt;
    r.labels = x.labels;
    r.labels[p.dim] = 0;
    r.term = kind == Kind::ReduceSum ? tb.sum(size(l), l, x.term)
                                     : tb.max(size(l), l, x.term);
    return r;
  }
  case Kind::RmsNorm: {
    if (!lastNonUnit())
      return std::nullopt;
    uint32_t l = x.labels.back();
    int64_t n = size(l);
    RecExpr::Id squares = tb.sum(n, l, tb.unary(AOp::Square, x.term));
    r.labels = x.labels;
    r.term = tb.div(x.term, tb.rms(n, p.a, squares));
    return r;
  }
  case Kind::AccSum:
  case Kind::AccMax:
    if (x.after)
      return std::nullopt;
    r.labels = x.labels;
    if (kind == Kind::AccSum) {
      r.term = loopSum(x.term);
    } else {
      r.term = loop.forloop == 1 || !x.variant || !loop.axis
                   ? x.term
                   : tb.max(loop.forloop, loop.axis, x.term);
    }
    r.variant = false;
    r.after = true;
    return r;
  case Kind::AccSumLast:
  case Kind::AccMeanLast:
  case Kind::AccRmsLast: {
    if (x.after || !lastNonUnit())
      return std::nullopt;
    uint32_t l = x.labels.back();
    int64_t n = size(l);
    r.labels = x.labels;
    r.labels.back() = 0;
    r.variant = false;
    r.after = true;
    if (kind == Kind::AccSumLast) {
      r.term = loopSum(tb.sum(n, l, x.term));
    } else if (kind == Kind::AccMeanLast) {
      r.term = tb.scale(1.0 / static_cast<double>(loop.forloop * n),
                        loopSum(tb.sum(n, l, x.term)));
    } else {
      RecExpr::Id sq = loopSum(tb.sum(n, l, tb.unary(AOp::Square, x.term)));
      r.term = tb.rms(loop.forloop * n, p.a, sq);
    }
    return r;
  }
  }
  return std::nullopt;
}

/// The cost model's view of a search op on values of the given shapes.
CostOp costOpOf(Kind kind, ArrayRef<int64_t> resultShape,
                ArrayRef<ArrayRef<int64_t>> argShapes, bool inLoop) {
  static const ElementwiseKind elementwise[] = {
      ElementwiseKind::Exp,       ElementwiseKind::Square,
      ElementwiseKind::Sqrt,      ElementwiseKind::Rsqrt,
      ElementwiseKind::Silu,      ElementwiseKind::Gelu,
      ElementwiseKind::Relu,      ElementwiseKind::Sigmoid,
      ElementwiseKind::Neg,       ElementwiseKind::MulScalar,
      ElementwiseKind::AddScalar, ElementwiseKind::Clamp,
      ElementwiseKind::Add,       ElementwiseKind::Sub,
      ElementwiseKind::Mul,       ElementwiseKind::Div,
      ElementwiseKind::Pow};
  static_assert(static_cast<unsigned>(Kind::Pow) == 16 &&
                    static_cast<unsigned>(Kind::AccMax) -
                            static_cast<unsigned>(Kind::AccSum) ==
                        4,
                "the tables follow the order of Kind");
  CostOp c;
  c.inLoop = inLoop;
  c.result.assign(resultShape.begin(), resultShape.end());
  for (ArrayRef<int64_t> a : argShapes)
    c.args.emplace_back(a.begin(), a.end());
  switch (kind) {
  case Kind::Matmul:
    c.cls = CostOp::Class::Matmul;
    break;
  case Kind::ReduceSum:
  case Kind::ReduceMax:
    c.cls = CostOp::Class::Reduce;
    break;
  case Kind::RmsNorm:
    c.cls = CostOp::Class::RmsNorm;
    break;
  case Kind::AccSum:
  case Kind::AccSumLast:
  case Kind::AccMeanLast:
  case Kind::AccRmsLast:
  case Kind::AccMax: {
    static const AccumulatorKind acc[] = {
        AccumulatorKind::Sum, AccumulatorKind::SumLast,
        AccumulatorKind::MeanLast, AccumulatorKind::RmsLast,
        AccumulatorKind::Max};
    c.cls = CostOp::Class::Accumulate;
    c.accumulator = acc[static_cast<unsigned>(kind) -
                        static_cast<unsigned>(Kind::AccSum)];
    break;
  }
  default:
    c.cls = CostOp::Class::Elementwise;
    c.elementwise = elementwise[static_cast<unsigned>(kind)];
    break;
  }
  return c;
}

//===----------------------------------------------------------------------===//
// Printing the search IR as MLIR
//===----------------------------------------------------------------------===//

std::string formatDouble(double v) {
  // Always with a '.', as the MLIR float literal grammar needs.
  std::string s;
  llvm::raw_string_ostream(s) << llvm::format("%.17e", v);
  return s;
}

/// Prints one op in the shared mk/mb syntax.
void printOp(raw_ostream &os, StringRef dialect, Kind kind, const Params &p,
             StringRef result, ArrayRef<std::string> args,
             ArrayRef<std::string> argTypes, StringRef resultType) {
  os << "    " << result << " = " << dialect << "." << kindName(kind) << " "
     << args[0];
  switch (kind) {
  case Kind::MulScalar:
  case Kind::AddScalar:
    os << ", " << formatDouble(p.a) << " : " << resultType;
    break;
  case Kind::Clamp:
    os << " min = " << formatDouble(p.a) << " max = " << formatDouble(p.b)
       << " : " << resultType;
    break;
  case Kind::ReduceSum:
  case Kind::ReduceMax:
    os << " dim = " << p.dim << " : " << argTypes[0] << " -> " << resultType;
    break;
  case Kind::RmsNorm:
    os << " eps = " << formatDouble(p.a) << " : " << resultType;
    break;
  case Kind::AccRmsLast:
    os << " eps = " << formatDouble(p.a) << " : " << argTypes[0] << " -> "
       << resultType;
    break;
  case Kind::AccSum:
  case Kind::AccMax:
  case Kind::AccSumLast:
  case Kind::AccMeanLast:
    os << " : " << argTypes[0] << " -> " << resultType;
    break;
  default:
    if (isBinary(kind) || kind == Kind::Matmul)
      os << ", " << args[1] << " : " << argTypes[0] << ", " << argTypes[1]
         << " -> " << resultType;
    else
      os << " : " << resultType;
    break;
  }
  os << "\n";
}

/// Prints `op` with the operand names and types `name` and `type` give.
void printSOp(raw_ostream &os, StringRef dialect, const SOp &op,
              StringRef result, function_ref<std::string(int)> name,
              function_ref<std::string(int)> type) {
  SmallVector<std::string> args, types;
  for (int a : op.args) {
    args.push_back(name(a));
    types.push_back(type(a));
  }
  printOp(os, dialect, op.kind, op.params, result, args, types,
          type(op.result));
}

/// Sizes of every label for one materialisation (the real extents or the
/// reduced ones of the fingerprint).
using Scale = DenseMap<uint32_t, int64_t>;

int64_t splitOf(const SKernel &k, uint32_t label) {
  if (label && label == k.loopAxis)
    return k.forloop;
  for (auto [axis, g] : k.grid)
    if (axis == label)
      return g;
  return 1;
}

std::string tensorType(ArrayRef<int64_t> shape, StringRef elementType) {
  std::string s = "tensor<";
  for (int64_t d : shape)
    s += std::to_string(d) + "x";
  return s + elementType.str() + ">";
}

SmallVector<int64_t, 4> kernelShape(const SValue &v, const Scale &scale) {
  SmallVector<int64_t, 4> shape;
  for (uint32_t l : v.labels)
    shape.push_back(l ? scale.lookup(l) : 1);
  return shape;
}

SmallVector<int64_t, 4> blockShape(const SKernel &k, const SValue &v,
                                   const Scale &scale) {
  SmallVector<int64_t, 4> shape;
  for (uint32_t l : v.labels)
    shape.push_back(l ? scale.lookup(l) / splitOf(k, l) : 1);
  return shape;
}

int dimOf(const Labels &labels, uint32_t label) {
  for (auto [i, l] : llvm::enumerate(labels))
    if (l == label && label)
      return static_cast<int>(i);
  return -1;
}

/// Prints `prog` (returning `outputs`) as a func.func named `name`.
std::string printProgram(const SProgram &prog, ArrayRef<int> outputs,
                         unsigned numInputs, const Scale &scale,
                         StringRef elementType, StringRef name) {
  std::string text;
  llvm::raw_string_ostream os(text);
  SmallVector<std::string> names(prog.vals.size());
  auto ktype = [&](int v) {
    return tensorType(kernelShape(prog.vals[v], scale), elementType);
  };
  os << "func.func @" << name << "(";
  for (unsigned i = 0; i < numInputs; ++i) {
    names[i] = "%v" + std::to_string(i);
    os << (i ? ", " : "") << names[i] << ": " << ktype(i);
  }
  os << ") -> (";
  for (auto [i, o] : llvm::enumerate(outputs))
    os << (i ? ", " : "") << ktype(o);
  os << ") {\n";
  for (const SKernelOp &kop : prog.ops) {
    if (!kop.isKernel) {
      const SOp &op = kop.op;
      names[op.result] = "%v" + std::to_string(op.result);
      printSOp(
          os, "mk", op, names[op.result], [&](int a) { return names[a]; },
          ktype);
      continue;
    }
    const SKernel &k = prog.kernels[kop.kernel];
    std::string kname = "%k" + std::to_string(kop.kernel);
    std::string prefix = "%g" + std::to_string(kop.kernel) + "_";
    os << "    " << kname;
    if (k.results.size() > 1)
      os << ":" << k.results.size();
    os << " = mk.graph_kernel (";
    for (auto [i, in] : llvm::enumerate(k.inputs))
      os << (i ? ", " : "") << names[in];
    int64_t grid[3] = {1, 1, 1};
    for (auto [i, g] : llvm::enumerate(k.grid))
      grid[i] = g.second;
    os << ") grid = [" << grid[0] << ", " << grid[1] << ", " << grid[2]
       << "] block = [" << k.threads << ", 1, 1] forloop = " << k.forloop
       << " {\n  ^bb0(";
    for (auto [i, in] : llvm::enumerate(k.inputs))
      os << (i ? ", " : "") << prefix << "in" << i << ": " << ktype(in);
    os << "):\n";
    auto btype = [&](int b) {
      return tensorType(blockShape(k, k.vals[b], scale), elementType);
    };
    SmallVector<std::string> inner(k.vals.size()), outer(k.vals.size());
    for (size_t b = 0; b < k.vals.size(); ++b)
      inner[b] = outer[b] = prefix + std::to_string(b);
    unsigned firstAcc = k.numBody, firstPost = k.numBody + k.numAcc;
    std::string loopName = prefix + "l";
    for (unsigned j = 0; j < k.numAcc; ++j) {
      int b = k.ops[firstAcc + j].result;
      outer[b] = k.numAcc == 1 ? loopName : loopName + "#" + std::to_string(j);
    }
    os << "    " << loopName;
    if (k.numAcc > 1)
      os << ":" << k.numAcc;
    os << " = mb.for_loop -> (";
    for (unsigned j = 0; j < k.numAcc; ++j)
      os << (j ? ", " : "") << btype(k.ops[firstAcc + j].result);
    os << ") {\n";
    for (auto [i, in] : llvm::enumerate(k.inputs)) {
      const Labels &labels = prog.vals[in].labels;
      os << "    " << inner[i] << " = mb.input_iter " << prefix << "in" << i
         << " imap = [";
      for (unsigned g = 0; g < 3; ++g)
        os << (g ? ", " : "")
           << (g < k.grid.size() ? dimOf(labels, k.grid[g].first) : -1);
      os << "] fmap = " << (k.forloop > 1 ? dimOf(labels, k.loopAxis) : -1)
         << " : " << ktype(in) << " -> " << btype(i) << "\n";
    }
    auto printBlockOp = [&](const SOp &op, ArrayRef<std::string> nameOf) {
      printSOp(
          os, "mb", op, inner[op.result], [&](int a) { return nameOf[a]; },
          btype);
    };
    for (unsigned j = 0; j < firstPost; ++j)
      printBlockOp(k.ops[j], inner);
    os << "    mb.yield ";
    for (unsigned j = 0; j < k.numAcc; ++j)
      os << (j ? ", " : "") << inner[k.ops[firstAcc + j].result];
    os << " : ";
    for (unsigned j = 0; j < k.numAcc; ++j)
      os << (j ? ", " : "") << btype(k.ops[firstAcc + j].result);
    os << "\n    }\n";
    for (unsigned j = firstPost; j < k.ops.size(); ++j)
      printBlockOp(k.ops[j], outer);
    SmallVector<std::string> saved;
    for (auto [i, b] : llvm::enumerate(k.outputs)) {
      saved.push_back(prefix + "o" + std::to_string(i));
      os << "    " << saved.back() << " = mb.output_saver " << outer[b]
         << " omap = [";
      for (unsigned g = 0; g < 3; ++g)
        os << (g ? ", " : "")
           << (g < k.grid.size() ? dimOf(k.vals[b].labels, k.grid[g].first)
                                 : -1);
      os << "] : " << btype(b) << " -> " << ktype(k.results[i]) << "\n";
    }
    os << "    mb.return " << llvm::join(saved, ", ") << " : ";
    for (auto [i, r] : llvm::enumerate(k.results))
      os << (i ? ", " : "") << ktype(r);
    os << "\n  } : (";
    for (auto [i, in] : llvm::enumerate(k.inputs))
      os << (i ? ", " : "") << ktype(in);
    os << ") -> (";
    for (auto [i, r] : llvm::enumerate(k.results)) {
      os << (i ? ", " : "") << ktype(r);
      names[r] = k.results.size() == 1 ? kname
                                       : kname + "#" + std::to_string(i);
    }
    os << ")\n";
  }
  os << "    return ";
  for (auto [i, o] : llvm::enumerate(outputs))
    os << (i ? ", " : "") << names[o];
  os << " : ";
  for (auto [i, o] : llvm::enumerate(outputs))
    os << (i ? ", " : "") << ktype(o);
  os << "\n}\n";
  return text;
}

/// One line describing a program.
std::string summarize(const SProgram &prog) {
  std::string s;
  llvm::raw_string_ostream os(s);
  bool first = true;
  for (const SKernelOp &kop : prog.ops) {
    os << (first ? "" : "; ");
    first = false;
    if (!kop.isKernel) {
      os << "mk." << kindName(kop.op.kind);
      continue;
    }
    const SKernel &k = prog.kernels[kop.kernel];
    int64_t grid[3] = {1, 1, 1};
    for (auto [i, g] : llvm::enumerate(k.grid))
      grid[i] = g.second;
    os << "graph_kernel grid [" << grid[0] << "," << grid[1] << "," << grid[2]
       << "] forloop " << k.forloop << " {";
    for (auto [i, op] : llvm::enumerate(k.ops)) {
      if (i == k.numBody + k.numAcc)
        os << " |";
      os << (i ? " " : "") << kindName(op.kind);
    }
    os << "}";
  }
  return s;
}

//===----------------------------------------------------------------------===//
// The enumeration
//===----------------------------------------------------------------------===//

using Clock = std::chrono::steady_clock;

class Searcher {
public:
  /// Enumerates programs of exactly `numOps` kernel-level ops (the driver
  /// deepens `numOps`: under the cost proxy fewer kernels always win).
  Searcher(const Target &target, const SuperoptimizeOptions &options,
           unsigned numOps, Clock::time_point deadline, unsigned worker,
           unsigned workers)
      : target(target), options(options), numOps(numOps), deadline(deadline),
        worker(worker), workers(workers) {
    // Values are referenced across the recursion (and by ArrayRefs while
    // ops are appended): reserve so that nothing is ever reallocated.
    prog.vals.reserve(target.numInputs +
                      options.maxKernelOps * options.maxKernelOutputs + 1);
    prog.kernels.reserve(options.maxGraphKernels + 1);
    // Terms are built on the target's labels; the input terms are vars.
    for (unsigned i = 0; i < target.numInputs; ++i) {
      SValue v = target.ref.vals[i];
      v.term = tb.var(i);
      v.vars = uint64_t(1) << i;
      (void)admit(v);
      prog.vals.push_back(v);
    }
    stats.pruned = 0;
  }

  void run() { kernelLevel(); }

  std::vector<Candidate> candidates;
  SuperoptimizeStats stats;

private:
  const Target &target;
  const SuperoptimizeOptions &options;
  unsigned numOps;
  Clock::time_point deadline;
  unsigned worker, workers;
  unsigned branch = 0;
  RecExpr expr;
  TermBuilder tb{expr};
  SProgram prog;
  SmallVector<int64_t, 8> lastKernelKey;
  SKernel *open = nullptr;
  SmallVector<int64_t, 8> lastBlockKey;
  /// Set while the open kernel is the program's last op: the outputs it
  /// must produce and the constraints they imply.
  bool lastKernel = false;
  SmallVector<int, 2> missing;
  uint64_t needVars = 0;
  SmallVector<uint32_t, 4> gridCandidates, loopForbidden;
  bool stopped = false;

  bool outOfTime() {
    if (stopped)
      return true;
    // Checking the clock every state is cheap next to a state's work.
    if (Clock::now() > deadline) {
      stopped = true;
      stats.timedOut = true;
    }
    return stopped;
  }

  /// Whether this worker owns the next top-level branch.
  bool ownBranch() { return branch++ % workers == worker; }

  int64_t kernelSize(uint32_t l) const { return l ? target.extent.lookup(l) : 1; }
  int64_t blockSize(uint32_t l) const {
    if (!l)
      return 1;
    int64_t n = target.extent.lookup(l);
    if (l == open->loopAxis)
      return n / open->repF;
    for (auto [a, g] : llvm::zip(open->gridAxes, open->repGrid))
      if (a == l)
        return n / g;
    return n;
  }

  /// Canonical key of an op: operands sorted descending, the kind, the
  /// operands in order, the parameter choice.
  static SmallVector<int64_t, 8> keyOf(unsigned kind, ArrayRef<int> args,
                                       unsigned param) {
    SmallVector<int64_t, 8> key(args.begin(), args.end());
    llvm::sort(key, std::greater<int64_t>());
    key.push_back(-1 - static_cast<int64_t>(kind));
    key.append(args.begin(), args.end());
    key.push_back(param);
    return key;
  }
  static bool keyLess(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(),
                                        b.end());
  }

  /// Prunes `v` with the oracle (filling its class); false if pruned.
  bool admit(SValue &v) {
    if (!target.prune)
      return true;
    std::optional<ClassId> c = target.oracle->subtermClass(expr, v.term);
    if (!c) {
      ++stats.pruned;
      return false;
    }
    v.cls = *c;
    return true;
  }

  /// Whether a value equal to `v` already exists in `vals` (same class,
  /// same dims, same side of the loop).
  bool duplicate(const SValue &v, ArrayRef<SValue> vals) {
    if (v.cls < 0)
      return false;
    for (const SValue &o : vals)
      if (o.cls == v.cls && o.labels == v.labels && o.after == v.after &&
          o.variant == v.variant) {
        ++stats.duplicates;
        return true;
      }
    return false;
  }

  /// Parameter choices of `kind` (one empty choice for most ops).
  SmallVector<Params, 2> paramChoices(Kind kind) const {
    SmallVector<Params, 2> out;
    switch (kind) {
    case Kind::MulScalar:
      for (double c : target.mulScalars)
        out.push_back(Params{c, 0, 0});
      break;
    case Kind::AddScalar:
      for (double c : target.addScalars)
        out.push_back(Params{c, 0, 0});
      break;
    case Kind::Clamp:
      for (auto [lo, hi] : target.clamps)
        out.push_back(Params{lo, hi, 0});
      break;
    case Kind::RmsNorm:
    case Kind::AccRmsLast:
      for (double e : target.eps)
        out.push_back(Params{e, 0, 0});
      break;
    default:
      out.push_back(Params{});
      break;
    }
    return out;
  }

  /// Calls `fn(op, value)` for every legal, admitted, non-duplicate op over
  /// the values `pool` of `vals` whose key exceeds `last`. `accumulators`
  /// selects accumulator kinds instead of ordinary ones.
  template <typename Fn>
  void forEachOp(ArrayRef<SValue> vals, ArrayRef<int> pool,
                 ArrayRef<int64_t> last, bool accumulators,
                 function_ref<int64_t(uint32_t)> size, const LoopCtx &loop,
                 Fn fn) {
    for (unsigned ki = 0; ki < kNumKinds; ++ki) {
      Kind kind = static_cast<Kind>(ki);
      if (!target.allowed[ki] || isAccumulator(kind) != accumulators)
        continue;
      SmallVector<Params, 2> choices = paramChoices(kind);
      bool twoArgs = isBinary(kind) || kind == Kind::Matmul;
      for (int a : pool) {
        for (int b : twoArgs ? pool : ArrayRef<int>(a)) {
          if (twoArgs && isCommutative(kind) && b < a)
            continue;
          // One operand twice: mul(a, a) is square(a), sub and div give
          // constants; add, matmul and pow have no other spelling.
          if (twoArgs && a == b && kind != Kind::Add && kind != Kind::Matmul &&
              kind != Kind::Pow)
            continue;
          SmallVector<int, 2> args = {a};
          if (twoArgs)
            args.push_back(b);
          int64_t rank = static_cast<int64_t>(vals[a].labels.size());
          int64_t dims = kind == Kind::ReduceSum || kind == Kind::ReduceMax
                             ? rank
                             : 1;
          for (int64_t dim = 0; dim < dims; ++dim) {
            for (auto [pi, params] : llvm::enumerate(choices)) {
              Params p = params;
              p.dim = dim;
              SmallVector<int64_t, 8> key =
                  keyOf(ki, args, static_cast<unsigned>(pi * 8 + dim));
              if (!keyLess(last, key))
                continue;
              SmallVector<const SValue *, 2> argVals;
              for (int x : args)
                argVals.push_back(&vals[x]);
              std::optional<SValue> v =
                  applyOp(tb, kind, p, argVals, size, loop);
              if (!v || !admit(*v) || duplicate(*v, vals))
                continue;
              SOp op{kind, p, args, -1};
              fn(op, *v, key);
              if (stopped)
                return;
            }
          }
        }
      }
    }
  }

  //===--------------------------------------------------------------===//
  // Kernel level
  //===--------------------------------------------------------------===//

  void kernelLevel() {
    if (outOfTime())
      return;
    ++stats.states;
    if (checkComplete())
      return;
    if (prog.ops.size() >= numOps)
      return;
    bool top = prog.ops.empty();
    // The last op must produce what is still missing. Without pruning a
    // value of the right shape proves nothing, so the last op is free.
    missing.clear();
    bool last = target.prune && prog.ops.size() + 1 == numOps;
    if (last)
      for (int o : target.refOutputs) {
        const SValue &want = target.ref.vals[o];
        // An output returned twice (or two equal outputs) is produced once.
        bool repeated = llvm::any_of(missing, [&](int m) {
          return matchesOutput(target.ref.vals[m], want);
        });
        if (!repeated && findOutput(want) < 0)
          missing.push_back(o);
      }
    SmallVector<int> pool(prog.vals.size());
    std::iota(pool.begin(), pool.end(), 0);
    LoopCtx noLoop;
    auto ksize = [this](uint32_t l) { return kernelSize(l); };
    // A copy: the recursion reassigns lastKernelKey (and may reallocate it).
    SmallVector<int64_t, 8> lastKey = lastKernelKey;
    forEachOp(prog.vals, pool, lastKey, /*accumulators=*/false, ksize,
              noLoop, [&](SOp op, SValue v, ArrayRef<int64_t> key) {
                if (last && (missing.size() != 1 ||
                             !matchesOutput(v, target.ref.vals[missing[0]])))
                  return;
                if (top && !ownBranch())
                  return;
                op.result = static_cast<int>(prog.vals.size());
                prog.vals.push_back(v);
                prog.ops.push_back(SKernelOp{false, op, -1});
                SmallVector<int64_t, 8> saved = lastKernelKey;
                lastKernelKey.assign(key.begin(), key.end());
                kernelLevel();
                lastKernelKey = saved;
                prog.ops.pop_back();
                prog.vals.pop_back();
              });
    if (prog.kernels.size() < options.maxGraphKernels) {
      lastKernel = last;
      if (last) {
        // Constraints of a kernel that must produce the missing outputs:
        // its inputs reach every argument they need, the grid splits axes
        // of every output, the loop walks an axis of none.
        needVars = 0;
        gridCandidates.clear();
        loopForbidden.clear();
        for (auto [i, o] : llvm::enumerate(missing)) {
          const SValue &m = target.ref.vals[o];
          needVars |= m.vars;
          SmallVector<uint32_t, 4> here;
          for (uint32_t l : m.labels)
            if (l) {
              here.push_back(l);
              loopForbidden.push_back(l);
            }
          if (i == 0)
            gridCandidates = here;
          else
            llvm::erase_if(gridCandidates, [&](uint32_t l) {
              return !llvm::is_contained(here, l);
            });
        }
        if (missing.size() > options.maxKernelOutputs)
          return;
      }
      enumerateGraphKernels();
    }
  }

  /// A value that can stand for target output `want`.
  bool matchesOutput(const SValue &have, const SValue &want) const {
    return have.labels == want.labels &&
           (!target.prune || have.cls == want.cls);
  }

  /// The latest non-argument value matching `want`, or -1.
  int findOutput(const SValue &want) const {
    for (int v = static_cast<int>(prog.vals.size()) - 1;
         v >= static_cast<int>(target.numInputs); --v)
      if (matchesOutput(prog.vals[v], want))
        return v;
    return -1;
  }

  void enumerateGraphKernels() {
    int n = static_cast<int>(prog.vals.size());
    unsigned maxIn = std::min<unsigned>(options.maxKernelInputs, n);
    // Subsets in increasing size, each as an increasing index list.
    SmallVector<int, 4> subset;
    std::function<void(int)> choose = [&](int from) {
      if (!subset.empty())
        openWithInputs(subset);
      if (subset.size() == maxIn || stopped)
        return;
      for (int i = from; i < n && !stopped; ++i) {
        subset.push_back(i);
        choose(i + 1);
        subset.pop_back();
      }
    };
    choose(0);
  }

  void openWithInputs(ArrayRef<int> inputs) {
    SmallVector<int64_t, 8> key = keyOf(kNumKinds, inputs, 0);
    // Two kernels may read the same inputs, so an equal key is allowed (the
    // key does not capture the kernel's body; the rare duplicate orders are
    // left to the candidate deduplication).
    if (keyLess(key, lastKernelKey))
      return;
    if (lastKernel) {
      uint64_t vars = 0;
      for (int in : inputs)
        vars |= prog.vals[in].vars;
      if ((vars & needVars) != needVars)
        return;
    }
    SmallVector<uint32_t, 8> axes;
    for (int in : inputs)
      for (uint32_t l : prog.vals[in].labels)
        if (l && !llvm::is_contained(axes, l))
          axes.push_back(l);
    llvm::sort(axes);
    SmallVector<uint32_t, 9> loops = {0};
    loops.append(axes.begin(), axes.end());
    for (uint32_t loop : loops) {
      if (lastKernel && llvm::is_contained(loopForbidden, loop))
        continue;
      SmallVector<uint32_t, 8> rest;
      for (uint32_t a : axes)
        if (a != loop &&
            (!lastKernel || llvm::is_contained(gridCandidates, a)))
          rest.push_back(a);
      // Every subset of at most 3 of the remaining axes splits the grid.
      SmallVector<uint32_t, 3> grid;
      std::function<void(size_t)> pick = [&](size_t from) {
        openKernel(inputs, loop, grid, key);
        if (grid.size() == 3)
          return;
        for (size_t i = from; i < rest.size() && !stopped; ++i) {
          grid.push_back(rest[i]);
          pick(i + 1);
          grid.pop_back();
        }
      };
      pick(0);
      if (stopped)
        return;
    }
  }

  void openKernel(ArrayRef<int> inputs, uint32_t loop,
                  ArrayRef<uint32_t> grid, ArrayRef<int64_t> key) {
    SKernel k;
    k.vals.reserve(inputs.size() + options.maxBlockOps + 1);
    k.inputs.assign(inputs.begin(), inputs.end());
    k.loopAxis = loop;
    k.gridAxes.assign(grid.begin(), grid.end());
    if (loop) {
      if (target.extent.lookup(loop) < 2)
        return;
      k.repF = representativeSplit(target.extent.lookup(loop));
    }
    for (uint32_t a : grid)
      k.repGrid.push_back(representativeSplit(target.extent.lookup(a)));
    for (int in : inputs) {
      SValue t = prog.vals[in];
      t.variant = loop && llvm::is_contained(t.labels, loop);
      t.after = false;
      t.uses = 0;
      k.vals.push_back(t);
    }
    prog.kernels.push_back(std::move(k));
    open = &prog.kernels.back();
    SmallVector<int64_t, 8> saved = lastKernelKey;
    lastKernelKey.assign(key.begin(), key.end());
    lastBlockKey.clear();
    blockLevel(0);
    lastKernelKey = saved;
    prog.kernels.pop_back();
    open = nullptr;
  }

  //===--------------------------------------------------------------===//
  // Block level
  //===--------------------------------------------------------------===//

  void blockLevel(unsigned phase) {
    if (outOfTime())
      return;
    ++stats.states;
    SKernel &k = *open;
    if (phase >= 1)
      tryClose();
    unsigned used = k.ops.size();
    if (used >= options.maxBlockOps)
      return;
    // Every body value must be consumed and at least one accumulator is
    // needed. A body op or an accumulator lowers the number of unconsumed
    // body values by at most one (a binary op consumes two and adds one);
    // likewise a post-loop op for the unsaved post-loop values.
    unsigned unconsumed = 0, unsaved = 0;
    for (const SValue &v : k.vals)
      if (v.uses == 0)
        ++(v.after ? unsaved : unconsumed);
    unsigned remaining = options.maxBlockOps - used;
    if (unconsumed > remaining || (phase == 2 && unconsumed > 0) ||
        unsaved > remaining + options.maxKernelOutputs)
      return;
    LoopCtx loop{open->repF, open->loopAxis};
    auto bsize = [this](uint32_t l) { return blockSize(l); };
    bool dealHere = prog.ops.empty() && k.ops.empty();
    auto extend = [&](unsigned newPhase, ArrayRef<int> pool, bool acc) {
      SmallVector<int64_t, 8> last =
          newPhase == phase ? lastBlockKey : SmallVector<int64_t, 8>();
      forEachOp(open->vals, pool, last, acc, bsize, loop,
                [&](SOp op, SValue v, ArrayRef<int64_t> key) {
                  SKernel &kk = *open;
                  if (newPhase == 2 && !v.after)
                    return;
                  // The first op of a kernel that opens the program is
                  // where the work is dealt to the workers: one kernel
                  // configuration can hold most of the search.
                  if (dealHere && !ownBranch())
                    return;
                  op.result = static_cast<int>(kk.vals.size());
                  for (int a : op.args)
                    ++kk.vals[a].uses;
                  kk.vals.push_back(v);
                  kk.ops.push_back(op);
                  if (newPhase == 0)
                    ++kk.numBody;
                  else if (newPhase == 1)
                    ++kk.numAcc;
                  SmallVector<int64_t, 8> saved = lastBlockKey;
                  lastBlockKey.assign(key.begin(), key.end());
                  blockLevel(newPhase);
                  lastBlockKey = saved;
                  SKernel &k2 = *open;
                  if (newPhase == 0)
                    --k2.numBody;
                  else if (newPhase == 1)
                    --k2.numAcc;
                  k2.ops.pop_back();
                  k2.vals.pop_back();
                  for (int a : op.args)
                    --k2.vals[a].uses;
                });
    };
    SmallVector<int> before, after;
    for (auto [i, v] : llvm::enumerate(k.vals))
      (v.after ? after : before).push_back(static_cast<int>(i));
    if (phase == 0)
      extend(0, before, /*acc=*/false);
    if (phase <= 1 && !stopped)
      extend(1, before, /*acc=*/true);
    if (!after.empty() && !stopped)
      extend(2, after, /*acc=*/false);
  }

  /// Saves every unconsumed post-loop value and returns to the kernel level.
  void tryClose() {
    SKernel &k = *open;
    SmallVector<int, 2> outs;
    for (auto [i, v] : llvm::enumerate(k.vals)) {
      if (!v.after && v.uses == 0)
        return;
      if (v.after && v.uses == 0)
        outs.push_back(static_cast<int>(i));
    }
    if (outs.empty() || outs.size() > options.maxKernelOutputs)
      return;
    for (int o : outs) {
      const Labels &labels = k.vals[o].labels;
      // Blocks write disjoint tiles: every grid axis is a dim of the output;
      // a dim the loop walks cannot leave the kernel partially summed.
      if (k.loopAxis && llvm::is_contained(labels, k.loopAxis))
        return;
      for (uint32_t g : k.gridAxes)
        if (!llvm::is_contained(labels, g))
          return;
    }
    if (lastKernel) {
      // Each output must be a missing target output (in some order).
      if (outs.size() != missing.size())
        return;
      SmallVector<bool, 2> taken(missing.size(), false);
      for (int o : outs) {
        bool matched = false;
        for (auto [j, m] : llvm::enumerate(missing))
          if (!taken[j] && matchesOutput(k.vals[o], target.ref.vals[m])) {
            taken[j] = matched = true;
            break;
          }
        if (!matched)
          return;
      }
    }
    SmallVector<SValue, 2> results;
    for (int o : outs) {
      SValue r = k.vals[o];
      r.after = false;
      r.variant = false;
      r.uses = 0;
      if (duplicate(r, prog.vals) || duplicate(r, results))
        return;
      results.push_back(r);
    }
    k.outputs = outs;
    k.results.clear();
    for (SValue &r : results) {
      k.results.push_back(static_cast<int>(prog.vals.size()));
      prog.vals.push_back(r);
    }
    int kernelIndex = static_cast<int>(prog.kernels.size()) - 1;
    prog.ops.push_back(SKernelOp{true, SOp{}, kernelIndex});
    SKernel *saved = open;
    SmallVector<int64_t, 8> savedBlockKey = lastBlockKey;
    bool savedLast = lastKernel;
    SmallVector<int, 2> savedMissing = missing;
    uint64_t savedNeed = needVars;
    SmallVector<uint32_t, 4> savedGrid = gridCandidates,
                             savedLoop = loopForbidden;
    open = nullptr;
    kernelLevel();
    open = saved;
    lastBlockKey = savedBlockKey;
    lastKernel = savedLast;
    missing = savedMissing;
    needVars = savedNeed;
    gridCandidates = savedGrid;
    loopForbidden = savedLoop;
    prog.ops.pop_back();
    for (size_t i = 0; i < results.size(); ++i)
      prog.vals.pop_back();
    open->outputs.clear();
    open->results.clear();
  }

  //===--------------------------------------------------------------===//
  // Complete candidates
  //===--------------------------------------------------------------===//

  bool checkComplete() {
    if (prog.ops.empty() || open)
      return false;
    // The values that can stand for each output: with pruning the latest
    // one in the output's class (all of them are proven equal); without,
    // every value of the output's dims, since a shape proves nothing.
    SmallVector<SmallVector<int, 4>, 2> choices;
    for (int refOut : target.refOutputs) {
      const SValue &want = target.ref.vals[refOut];
      SmallVector<int, 4> here;
      for (int v = static_cast<int>(prog.vals.size()) - 1;
           v >= static_cast<int>(target.numInputs); --v)
        if (matchesOutput(prog.vals[v], want)) {
          here.push_back(v);
          if (target.prune)
            break;
        }
      if (here.empty())
        return false;
      choices.push_back(std::move(here));
    }
    // Shorter programs were enumerated (and verified) by a shallower pass.
    if (prog.ops.size() != numOps)
      return target.prune;
    // Every assignment of values to outputs (at most 64 of them).
    SmallVector<unsigned, 2> pos(choices.size(), 0);
    for (unsigned tried = 0; tried < 64; ++tried) {
      SmallVector<int, 2> outs;
      for (auto [i, c] : llvm::enumerate(choices))
        outs.push_back(c[pos[i]]);
      recordIfLive(outs);
      if (!nextCombination(pos, [&](size_t i) { return choices[i].size(); }))
        break;
    }
    // With pruning the outputs are proven equal to the target's: nothing
    // can be gained by extending. Without, keep going.
    return target.prune;
  }

  /// Records the program computing `outs` as a candidate if every op
  /// contributes to them (a program with a dead op is found without it) and
  /// every result of a graph-defined kernel is used.
  void recordIfLive(ArrayRef<int> outs) {
    SmallVector<bool> live(prog.vals.size(), false);
    for (int o : outs)
      live[o] = true;
    for (const SKernelOp &kop : llvm::reverse(prog.ops)) {
      SmallVector<int, 2> results, args;
      if (kop.isKernel) {
        const SKernel &k = prog.kernels[kop.kernel];
        results = k.results;
        args.assign(k.inputs.begin(), k.inputs.end());
      } else {
        results = {kop.op.result};
        args = kop.op.args;
      }
      if (!llvm::all_of(results, [&](int r) { return live[r]; }))
        return;
      for (int a : args)
        live[a] = true;
    }
    ++stats.candidates;
    Candidate c;
    c.prog = prog;
    c.outputs.assign(outs.begin(), outs.end());
    if (instantiate(c))
      candidates.push_back(std::move(c));
  }

  /// Chooses the loop range and grid sizes of every kernel by the cost
  /// proxy; false if some kernel has no instantiation that fits.
  bool instantiate(Candidate &c) {
    double total = 0;
    unsigned kernels = 0;
    const Scale &full = target.extent;
    for (SKernelOp &kop : c.prog.ops) {
      ++kernels;
      if (!kop.isKernel) {
        const SOp &op = kop.op;
        KernelDesc d;
        d.predefined = true;
        SmallVector<SmallVector<int64_t, 4>> argShapes;
        SmallVector<ArrayRef<int64_t>> argRefs;
        for (int a : op.args) {
          argShapes.push_back(kernelShape(c.prog.vals[a], full));
          double b = bytesOf(argShapes.back());
          d.inputs.push_back({b, b, false});
        }
        for (auto &s : argShapes)
          argRefs.push_back(s);
        SmallVector<int64_t, 4> rs = kernelShape(c.prog.vals[op.result], full);
        d.outputBytes.push_back(bytesOf(rs));
        d.ops.push_back(costOpOf(op.kind, rs, argRefs, /*inLoop=*/false));
        total += modelledMicros(target.device,
                                analyzeKernel(target.device, d));
        continue;
      }
      SKernel &k = c.prog.kernels[kop.kernel];
      if (!chooseInstance(c.prog, k, full))
        return false;
      total += k.micros;
    }
    c.kernels = kernels;
    c.micros = total;
    c.numOps = static_cast<unsigned>(c.prog.ops.size());
    for (const SKernel &k : c.prog.kernels)
      c.numOps += static_cast<unsigned>(k.ops.size());
    return true;
  }

  double bytesOf(ArrayRef<int64_t> shape) const {
    double n = static_cast<double>(target.elementBytes);
    for (int64_t d : shape)
      n *= static_cast<double>(d);
    return n;
  }

  bool chooseInstance(const SProgram &p, SKernel &k, const Scale &full) {
    SmallVector<int64_t> fs = {1};
    if (k.loopAxis)
      fs = divisorsAbove1(full.lookup(k.loopAxis));
    SmallVector<SmallVector<int64_t>> gs;
    for (uint32_t a : k.gridAxes)
      gs.push_back(divisorsAbove1(full.lookup(a)));
    bool found = false;
    SKernel best;
    SmallVector<unsigned, 3> idx(gs.size(), 0);
    for (int64_t f : fs) {
      std::fill(idx.begin(), idx.end(), 0);
      while (true) {
        SKernel trial = k;
        trial.forloop = f;
        trial.grid.clear();
        int64_t blocks = 1;
        for (auto [j, a] : llvm::enumerate(k.gridAxes)) {
          trial.grid.push_back({a, gs[j][idx[j]]});
          blocks *= gs[j][idx[j]];
        }
        // The largest split goes on grid x (up to 2^31-1 blocks); y and z
        // are limited to 65535.
        llvm::sort(trial.grid, [](auto &x, auto &y) {
          return x.second != y.second ? x.second > y.second : x.first < y.first;
        });
        bool ok = blocks <= options.maxBlocks;
        for (size_t j = 1; j < trial.grid.size(); ++j)
          ok &= trial.grid[j].second <= 65535;
        if (ok && evaluateInstance(p, trial, full, blocks) &&
            (!found || trial.micros < best.micros)) {
          best = trial;
          found = true;
        }
        if (!nextCombination(idx, [&](size_t j) { return gs[j].size(); }))
          break;
      }
    }
    if (found)
      k = best;
    return found;
  }

  /// Shared memory, threads and modelled time of one instantiation.
  bool evaluateInstance(const SProgram &p, SKernel &k, const Scale &full,
                        int64_t blocks) {
    double smem = 0, largestTile = 1;
    SmallVector<SmallVector<int64_t, 4>> shapes;
    for (const SValue &v : k.vals) {
      shapes.push_back(blockShape(k, v, full));
      double n = 1;
      for (int64_t d : shapes.back())
        n *= static_cast<double>(d);
      largestTile = std::max(largestTile, n);
      smem += n * static_cast<double>(target.elementBytes);
    }
    if (smem > static_cast<double>(options.smemLimit))
      return false;
    int64_t threads = 32;
    while (threads < options.maxBlockThreads &&
           static_cast<double>(threads) < largestTile)
      threads *= 2;
    k.threads = threads;
    KernelDesc d;
    d.blocks = blocks;
    d.threads = threads;
    d.forloop = k.forloop;
    d.smemBytes = smem;
    for (auto [i, in] : llvm::enumerate(k.inputs))
      d.inputs.push_back({bytesOf(kernelShape(p.vals[in], full)),
                          bytesOf(shapes[i]), k.vals[i].variant});
    for (int r : k.results)
      d.outputBytes.push_back(bytesOf(kernelShape(p.vals[r], full)));
    for (auto [j, op] : llvm::enumerate(k.ops)) {
      SmallVector<ArrayRef<int64_t>> args;
      for (int a : op.args)
        args.push_back(shapes[a]);
      d.ops.push_back(costOpOf(op.kind, shapes[op.result], args,
                               j < k.numBody + k.numAcc));
    }
    k.micros = modelledMicros(target.device, analyzeKernel(target.device, d));
    return true;
  }
};

//===----------------------------------------------------------------------===//
// Import of the target
//===----------------------------------------------------------------------===//

std::optional<Kind> kindOf(Operation *op, Params &p) {
  if (auto ew = dyn_cast<ElementwiseOpInterface>(op)) {
    SmallVector<double, 2> s = ew.getScalarParams();
    if (!s.empty())
      p.a = s[0];
    if (s.size() > 1)
      p.b = s[1];
    switch (ew.getElementwiseKind()) {
    case ElementwiseKind::Exp:
      return Kind::Exp;
    case ElementwiseKind::Square:
      return Kind::Square;
    case ElementwiseKind::Sqrt:
      return Kind::Sqrt;
    case ElementwiseKind::Rsqrt:
      return Kind::Rsqrt;
    case ElementwiseKind::Silu:
      return Kind::Silu;
    case ElementwiseKind::Gelu:
      return Kind::Gelu;
    case ElementwiseKind::Relu:
      return Kind::Relu;
    case ElementwiseKind::Sigmoid:
      return Kind::Sigmoid;
    case ElementwiseKind::Neg:
      return Kind::Neg;
    case ElementwiseKind::MulScalar:
      return Kind::MulScalar;
    case ElementwiseKind::AddScalar:
      return Kind::AddScalar;
    case ElementwiseKind::Clamp:
      return Kind::Clamp;
    case ElementwiseKind::Add:
      return Kind::Add;
    case ElementwiseKind::Sub:
      return Kind::Sub;
    case ElementwiseKind::Mul:
      return Kind::Mul;
    case ElementwiseKind::Div:
      return Kind::Div;
    case ElementwiseKind::Pow:
      return Kind::Pow;
    }
    return std::nullopt;
  }
  return TypeSwitch<Operation *, std::optional<Kind>>(op)
      .Case([&](mk::MatmulOp) { return Kind::Matmul; })
      .Case([&](mk::ReduceSumOp r) {
        p.dim = static_cast<int64_t>(r.getDim());
        return Kind::ReduceSum;
      })
      .Case([&](mk::ReduceMaxOp r) {
        p.dim = static_cast<int64_t>(r.getDim());
        return Kind::ReduceMax;
      })
      .Case([&](mk::RmsNormOp r) -> std::optional<Kind> {
        if (r.getWeight())
          return std::nullopt;
        p.a = r.getEps().convertToDouble();
        return Kind::RmsNorm;
      })
      .Default([](Operation *) { return std::nullopt; });
}

/// Builds the target description; fails with `error` on unsupported input.
LogicalResult importTarget(func::FuncOp func,
                           const SuperoptimizeOptions &options, Target &t,
                           std::string &error) {
  t.func = func;
  t.smemLimit = options.smemLimit;
  if (func.isExternal()) {
    error = "function has no body";
    return failure();
  }
  if (!func.getBody().hasOneBlock()) {
    error = "function has more than one block";
    return failure();
  }
  std::optional<DeviceModel> device = getDeviceModel(options.chip);
  if (!device) {
    error = "unknown chip '" + options.chip + "' (expected " +
            getDeviceModelNames() + ")";
    return failure();
  }
  t.device = *device;
  Type element;
  SmallVector<SmallVector<int64_t, 4>> shapes;
  for (auto [i, type] : llvm::enumerate(func.getFunctionType().getInputs())) {
    auto rt = dyn_cast<RankedTensorType>(type);
    if (!rt || !rt.hasStaticShape() || rt.getRank() < 1 || rt.getRank() > 4) {
      error = "argument #" + std::to_string(i) +
              " is not a static tensor of rank 1 to 4";
      return failure();
    }
    if (element && rt.getElementType() != element) {
      error = "arguments of different element types are not supported";
      return failure();
    }
    element = rt.getElementType();
    shapes.emplace_back(rt.getShape());
  }
  if (func.getNumArguments() > 64) {
    error = "more than 64 arguments are not supported";
    return failure();
  }
  if (!element || func.getNumResults() == 0) {
    error = "function needs tensor arguments and results";
    return failure();
  }
  if (!element.isF16() && !element.isBF16() && !element.isF32()) {
    error = "element type must be f16, bf16 or f32";
    return failure();
  }
  llvm::raw_string_ostream(t.elementType) << element;
  t.elementBytes = element.isF32() ? 4 : 2;
  for (auto [i, r] : llvm::enumerate(func.getFunctionType().getResults())) {
    auto rt = dyn_cast<RankedTensorType>(r);
    if (!rt || !rt.hasStaticShape() || rt.getElementType() != element) {
      error = "result #" + std::to_string(i) +
              " is not a static tensor of the arguments' element type";
      return failure();
    }
  }
  // Every op must be a pre-defined mk op the search knows.
  Block &body = func.getBody().front();
  for (Operation &op : body.without_terminator()) {
    Params p;
    if (!kindOf(&op, p)) {
      error = "op '" + op.getName().getStringRef().str() +
              "' is not supported by the search";
      if (isa<mk::RmsNormOp>(op))
        error += " (rms_norm with a weight)";
      return failure();
    }
  }
  // Axis labels (and the oracle, which saturates the target once).
  AxisSpace axes;
  if (options.pruning) {
    // Saturation spends at most its share of the time budget.
    SaturationLimits limits;
    limits.maxSeconds =
        std::min(limits.maxSeconds, options.timeBudget * kSaturationShare);
    FailureOr<std::unique_ptr<PruningOracle>> oracle =
        PruningOracle::create(func, limits);
    if (failed(oracle)) {
      error = "no abstract expression for the function";
      return failure();
    }
    t.oracle = std::move(*oracle);
    t.prune = t.oracle->isComplete();
    axes = t.oracle->getAxes();
  } else {
    axes.setInputs(shapes);
    RecExpr scratch;
    AbstractExprBuilder builder(scratch, axes);
    if (failed(builder.build(func))) {
      error = "no abstract expression for the function";
      return failure();
    }
  }
  t.numInputs = func.getNumArguments();
  // Import the body into the search IR with the same rules as candidates.
  RecExpr &expr = t.expr;
  TermBuilder tb(expr);
  DenseMap<Value, int> ids;
  for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
    SValue v;
    for (auto [d, n] : llvm::enumerate(shapes[i])) {
      uint32_t l = n > 1 ? axes.label(axes.axisOf(i, d)) : 0;
      v.labels.push_back(l);
      if (l)
        t.extent[l] = n;
    }
    v.term = tb.var(i);
    v.vars = uint64_t(1) << i;
    ids[arg] = static_cast<int>(t.ref.vals.size());
    t.ref.vals.push_back(v);
  }
  auto addUnique = [](auto &list, auto value) {
    if (!llvm::is_contained(list, value))
      list.push_back(value);
  };
  auto size = [&](uint32_t l) { return l ? t.extent.lookup(l) : int64_t(1); };
  for (Operation &op : body.without_terminator()) {
    Params p;
    Kind kind = *kindOf(&op, p);
    t.allowed[static_cast<unsigned>(kind)] = true;
    if (kind == Kind::RmsNorm)
      addUnique(t.eps, p.a);
    if (kind == Kind::MulScalar)
      addUnique(t.mulScalars, p.a);
    if (kind == Kind::AddScalar)
      addUnique(t.addScalars, p.a);
    if (kind == Kind::Clamp)
      addUnique(t.clamps, std::make_pair(p.a, p.b));
    SOp sop{kind, p, {}, -1};
    SmallVector<const SValue *, 2> args;
    for (Value v : op.getOperands()) {
      sop.args.push_back(ids.lookup(v));
      args.push_back(&t.ref.vals[ids.lookup(v)]);
    }
    std::optional<SValue> r = applyOp(tb, kind, p, args, size, LoopCtx());
    auto rt = cast<RankedTensorType>(op.getResult(0).getType());
    if (!r || static_cast<int64_t>(r->labels.size()) != rt.getRank()) {
      error = "op '" + op.getName().getStringRef().str() +
              "' combines dims the search cannot relate";
      return failure();
    }
    sop.result = static_cast<int>(t.ref.vals.size());
    ids[op.getResult(0)] = sop.result;
    t.ref.vals.push_back(*r);
    t.ref.ops.push_back(SKernelOp{false, sop, -1});
  }
  for (Value v : body.getTerminator()->getOperands()) {
    // A result that is an argument is only supported when every result is
    // one, or equals one (the trivial program, see trivialCandidates).
    int id = ids.lookup(v);
    t.argOutputs |= id < static_cast<int>(t.numInputs);
    t.refOutputs.push_back(id);
  }
  // The classes of the outputs (what complete candidates must reach).
  if (t.prune)
    for (int o : t.refOutputs) {
      std::optional<ClassId> c = t.oracle->subtermClass(expr, t.ref.vals[o].term);
      if (!c) {
        t.prune = false;
        break;
      }
      t.ref.vals[o].cls = *c;
    }
  // The block-level vocabulary: what the target uses plus the ops that
  // fused forms of its structured ops need.
  for (Kind k : {Kind::Matmul, Kind::Exp, Kind::Square, Kind::Sqrt, Kind::Silu,
                 Kind::Sigmoid, Kind::Gelu, Kind::Relu, Kind::Neg, Kind::Add,
                 Kind::Sub, Kind::Mul, Kind::Div, Kind::ReduceSum,
                 Kind::AccSum, Kind::AccSumLast, Kind::AccMeanLast})
    t.allowed[static_cast<unsigned>(k)] = true;
  if (!t.eps.empty())
    t.allowed[static_cast<unsigned>(Kind::AccRmsLast)] = true;
  if (t.allowed[static_cast<unsigned>(Kind::ReduceMax)])
    t.allowed[static_cast<unsigned>(Kind::AccMax)] = true;
  return success();
}

//===----------------------------------------------------------------------===//
// Verification
//===----------------------------------------------------------------------===//

/// `program` (one func.func) in a module carrying the shared-memory limit
/// the search used, so that the verifier checks the same limit.
std::string inModule(StringRef program, int64_t smemLimit) {
  return "module attributes {mk.smem_limit = " + std::to_string(smemLimit) +
         " : i64} {\n" + program.str() + "}\n";
}

/// Parses `text` (one func.func) in `ctx`; null on failure (diagnostics are
/// swallowed: a candidate the verifier rejects is simply not a program).
OwningOpRef<ModuleOp> parseProgram(MLIRContext *ctx, StringRef text,
                                   int64_t smemLimit) {
  ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &) { return success(); });
  return parseSourceString<ModuleOp>(inModule(text, smemLimit),
                                     ParserConfig(ctx));
}

func::FuncOp firstFunc(ModuleOp m) {
  return *m.getBody()->getOps<func::FuncOp>().begin();
}

/// Reduced extents for the fingerprint of `c`: each axis keeps the least
/// common multiple of the splits its kernels make, times 3, so tiles keep
/// their divisibility and never degenerate to size 1.
Scale reducedScale(const Target &t, const Candidate &c) {
  Scale s;
  for (auto &[l, n] : t.extent) {
    int64_t m = 1;
    for (const SKernel &k : c.prog.kernels)
      m = std::lcm(m, splitOf(k, l));
    s[l] = 3 * m < n ? 3 * m : n;
  }
  return s;
}

/// Runs the enumeration of programs with `numOps` kernel-level ops, the
/// top-level branches dealt round-robin to the workers; adds the counters
/// to `stats`. The candidates come back in a deterministic order.
std::vector<Candidate> enumerate(const Target &target,
                                 const SuperoptimizeOptions &options,
                                 unsigned numOps, Clock::time_point deadline,
                                 SuperoptimizeStats &stats) {
  unsigned workers = std::max(1u, options.threads);
  std::vector<std::unique_ptr<Searcher>> searchers;
  for (unsigned w = 0; w < workers; ++w)
    searchers.push_back(std::make_unique<Searcher>(target, options, numOps,
                                                   deadline, w, workers));
  if (workers == 1) {
    searchers[0]->run();
  } else {
    std::vector<std::thread> threads;
    for (auto &s : searchers)
      threads.emplace_back([&s] { s->run(); });
    for (std::thread &th : threads)
      th.join();
  }
  std::vector<Candidate> candidates;
  for (auto &s : searchers) {
    const SuperoptimizeStats &w = s->stats;
    stats.states += w.states;
    stats.pruned += w.pruned;
    stats.duplicates += w.duplicates;
    stats.candidates += w.candidates;
    stats.timedOut |= w.timedOut;
    for (Candidate &c : s->candidates)
      candidates.push_back(std::move(c));
  }
  return candidates;
}

/// The reduced-shape fingerprint of `c`: false if it proves `c` differs
/// from the target, true otherwise (including when the reduced instance
/// cannot be built or evaluated: then only the full check decides).
/// The target and `c` at the reduced shapes of the fingerprint; false if
/// either does not parse (a candidate the reduction does not fit).
bool parseReduced(MLIRContext *ctx, const Target &target, const Candidate &c,
                  OwningOpRef<ModuleOp> &refMod,
                  OwningOpRef<ModuleOp> &candMod) {
  Scale reduced = reducedScale(target, c);
  refMod = parseProgram(ctx,
                        printProgram(target.ref, target.refOutputs,
                                     target.numInputs, reduced,
                                     target.elementType, "reference"),
                        target.smemLimit);
  candMod = parseProgram(ctx,
                         printProgram(c.prog, c.outputs, target.numInputs,
                                      reduced, target.elementType, "cand"),
                         target.smemLimit);
  return refMod && candMod;
}

bool passesFingerprint(MLIRContext *ctx, const Target &target,
                       const Candidate &c, uint64_t seed) {
  // A scalar constant of the target may stand for a shape (1/64 as the
  // scale of a mean over 64 elements), which shrinking the shapes would
  // break: such targets are only checked at the real shapes.
  if (!target.mulScalars.empty() || !target.addScalars.empty() ||
      !target.clamps.empty())
    return true;
  OwningOpRef<ModuleOp> refMod, candMod;
  if (!parseReduced(ctx, target, c, refMod, candMod))
    return true;
  verify::EquivalenceOptions fp;
  fp.numTests = 1;
  fp.seed = seed;
  fp.floatCheck = false;
  verify::EquivalenceResult r =
      verify::checkEquivalence(firstFunc(*refMod), firstFunc(*candMod), fp);
  return r.verdict != verify::Verdict::NotEquivalent &&
         r.verdict != verify::Verdict::Invalid;
}

/// The check in the kernels' precision: whether `c` is about as accurate as
/// the reference when stored in f16/bf16 (docs/verification.md, numerics).
/// It runs at the reduced shapes of the fingerprint (overflow and
/// cancellation depend on the values, not on the sizes), or at the real
/// shapes for targets whose constants may stand for sizes.
bool passesNumerics(func::FuncOp func, const Target &target,
                    const Candidate &c, uint64_t seed) {
  MLIRContext *ctx = func.getContext();
  OwningOpRef<ModuleOp> refMod, candMod;
  func::FuncOp ref = func, cand;
  if (target.mulScalars.empty() && target.addScalars.empty() &&
      target.clamps.empty()) {
    if (!parseReduced(ctx, target, c, refMod, candMod))
      return true;
    ref = firstFunc(*refMod);
    cand = firstFunc(*candMod);
  } else {
    candMod = parseProgram(ctx, c.text, target.smemLimit);
    if (!candMod)
      return true;
    cand = firstFunc(*candMod);
  }
  verify::NumericsResult r =
      verify::checkNumerics(ref, cand, verify::NumericsOptions(), seed);
  return r.verdict != verify::Verdict::Inaccurate;
}

/// The check at the real shapes: `tests` finite-field tests and, with
/// `floatCheck`, an f64 comparison that must agree to 1e-6.
std::optional<verify::EquivalenceResult>
passesFullCheck(func::FuncOp func, const Target &target, const Candidate &c,
                unsigned tests, uint64_t seed, bool floatCheck) {
  OwningOpRef<ModuleOp> fullMod =
      parseProgram(func.getContext(), c.text, target.smemLimit);
  if (!fullMod)
    return std::nullopt;
  verify::EquivalenceOptions eo;
  eo.numTests = tests;
  eo.seed = seed;
  eo.floatCheck = floatCheck;
  verify::EquivalenceResult r =
      verify::checkEquivalence(func, firstFunc(*fullMod), eo);
  if (r.verdict != verify::Verdict::Equivalent ||
      (r.floatMaxRelDiff && *r.floatMaxRelDiff > 1e-6))
    return std::nullopt;
  return r;
}

/// Runs both the fingerprint and the full check on the first `limit`
/// distinct candidates and counts how they judge (the fingerprint must
/// never reject a candidate the full check accepts).
void auditFingerprints(func::FuncOp func, const Target &target,
                       const SuperoptimizeOptions &options,
                       ArrayRef<Candidate> candidates,
                       SuperoptimizeStats &stats) {
  const std::string *previous = nullptr;
  for (const Candidate &c : candidates) {
    if (stats.audited >= options.auditFingerprints)
      return;
    if (previous && *previous == c.text)
      continue;
    previous = &c.text;
    ++stats.audited;
    bool cheap = passesFingerprint(func.getContext(), target, c, options.seed);
    bool full =
        passesFullCheck(func, target, c, 1, options.seed, false).has_value();
    stats.auditCheapRejects += !cheap;
    stats.auditFullRejects += !full;
    stats.auditFalseRejects += !cheap && full;

  }
}

/// Verifies `candidates` (sorted, best first) until one passes both the
/// reduced-shape fingerprint and the full check; fills `result` with it.
/// No check starts after `deadline`: the candidates left are counted in
/// `stats.unchecked` (a check already running is not interrupted).
void verifyInOrder(func::FuncOp func, const Target &target,
                   const SuperoptimizeOptions &options,
                   ArrayRef<Candidate> candidates, Clock::time_point deadline,
                   SuperoptimizeResult &result) {
  SuperoptimizeStats &stats = result.stats;
  const std::string *previous = nullptr;
  for (auto [i, c] : llvm::enumerate(candidates)) {
    if (previous && *previous == c.text)
      continue;
    previous = &c.text;
    if (Clock::now() >= deadline) {
      for (size_t j = i; j < candidates.size(); ++j)
        stats.unchecked +=
            j == i || candidates[j].text != candidates[j - 1].text;
      stats.timedOut = true;
      if (stats.budgetStop == BudgetStop::None)
        stats.budgetStop = BudgetStop::Verification;
      return;
    }
    ++stats.fingerprinted;
    if (!passesFingerprint(func.getContext(), target, c, options.seed)) {
      ++stats.fingerprintRejected;
      continue;
    }
    ++stats.fullChecks;
    std::optional<verify::EquivalenceResult> r =
        passesFullCheck(func, target, c, options.finalTests, options.seed,
                        /*floatCheck=*/true);
    if (!r)
      continue;
    if (options.numerics &&
        !passesNumerics(func, target, c, options.seed)) {
      ++stats.numericsRejected;
      continue;
    }
    ++stats.verified;
    result.program = inModule(c.text, target.smemLimit);
    result.kernels = c.kernels;
    result.modelledMicros = c.micros;
    result.measured = c.measured;
    result.summary = c.prog.ops.empty() ? "the identity (no ops)"
                                        : summarize(c.prog);
    result.floatMaxRelDiff = r->floatMaxRelDiff.value_or(0.0);
    result.log10Bound = r->log10Bound;
    return;
  }
}

/// The trivial programs for `target`: every output returned as an argument
/// of the same type. An output that is an argument keeps it; any other
/// output may be an argument the oracle puts in its e-class (x * 0.5 * 2.0
/// is x), or, without a complete oracle, any argument of its type. Empty if
/// some output has no such argument; at most `limit` programs.
std::vector<Candidate> trivialCandidates(const Target &target,
                                         unsigned limit) {
  unsigned n = target.numInputs;
  auto shapeOf = [&](int v) { return kernelShape(target.ref.vals[v], target.extent); };
  SmallVector<SmallVector<int, 2>, 2> choices;
  for (int o : target.refOutputs) {
    SmallVector<int, 2> args;
    if (o < static_cast<int>(n)) {
      args.push_back(o);
    } else {
      std::optional<ClassId> out;
      if (target.prune)
        out = target.oracle->classOf(target.expr, target.ref.vals[o].term);
      for (unsigned i = 0; i < n; ++i) {
        if (shapeOf(i) != shapeOf(o))
          continue;
        if (target.prune &&
            target.oracle->classOf(target.expr, target.ref.vals[i].term) != out)
          continue;
        args.push_back(i);
      }
    }
    if (args.empty())
      return {};
    choices.push_back(std::move(args));
  }
  std::vector<Candidate> result;
  SmallVector<unsigned, 2> pos(choices.size(), 0);
  do {
    Candidate c;
    c.prog.vals.assign(target.ref.vals.begin(), target.ref.vals.begin() + n);
    for (auto [k, p] : llvm::enumerate(pos))
      c.outputs.push_back(choices[k][p]);
    c.text = printProgram(c.prog, c.outputs, n, target.extent,
                          target.elementType, "superoptimized");
    result.push_back(std::move(c));
  } while (result.size() < limit &&
           nextCombination(pos, [&](size_t k) { return choices[k].size(); }));
  return result;
}

} // namespace

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

FailureOr<SuperoptimizeResult>
mirage::search::superoptimize(func::FuncOp func,
                              const SuperoptimizeOptions &options,
                              std::string &error) {
  // The budget counts from here: saturation, enumeration and verification.
  auto searchStart = Clock::now();
  auto at = [&](double seconds) {
    return searchStart + std::chrono::duration_cast<Clock::duration>(
                             std::chrono::duration<double>(seconds));
  };
  Clock::time_point enumDeadline = at(options.timeBudget * kEnumerationShare);
  Clock::time_point deadline = at(options.timeBudget);
  SuperoptimizeResult result;
  SuperoptimizeStats &stats = result.stats;
  Target target;
  if (failed(importTarget(func, options, target, error)))
    return failure();
  // The verifier must be able to decide the target at all (a second exp on
  // a path leaves its fragment): check the target against itself at tiny
  // shapes, which is cheap and has the same structure.
  {
    Scale tiny;
    for (auto &[l, n] : target.extent)
      tiny[l] = std::min<int64_t>(n, 3);
    std::string text =
        printProgram(target.ref, target.refOutputs, target.numInputs, tiny,
                     target.elementType, "target");
    OwningOpRef<ModuleOp> m =
        parseProgram(func.getContext(), text, target.smemLimit);
    if (m) {
      verify::EquivalenceOptions eo;
      eo.numTests = 1;
      eo.seed = options.seed;
      eo.floatCheck = false;
      verify::EquivalenceResult self =
          verify::checkEquivalence(firstFunc(*m), firstFunc(*m), eo);
      if (self.verdict == verify::Verdict::Unknown ||
          self.verdict == verify::Verdict::Invalid) {
        error = "the equivalence verifier cannot decide this function (" +
                self.reason + "), so no candidate could be verified";
        return failure();
      }
    }
  }
  if (target.oracle) {
    const SaturationReport &rep = target.oracle->getReport();
    stats.egraphNodes = rep.nodes;
    stats.egraphClasses = rep.classes;
    stats.saturationSeconds = rep.seconds;
    stats.pruningDisabled = !target.prune;
  }

  // Degenerate targets: when every output is (or may equal) an argument,
  // the trivial program that returns the arguments is verified first.
  double verifySpent = 0;
  auto verifyPool = [&](std::vector<Candidate> &pool) {
    auto verifyStart = Clock::now();
    if (options.auditFingerprints)
      auditFingerprints(func, target, options, pool, stats);
    Clock::time_point until = deadline;
    if (options.verifyBudget > 0)
      until = std::min(
          until, verifyStart + std::chrono::duration_cast<Clock::duration>(
                                   std::chrono::duration<double>(
                                       options.verifyBudget - verifySpent)));
    verifyInOrder(func, target, options, pool, until, result);
    pool.clear();
    double spent =
        std::chrono::duration<double>(Clock::now() - verifyStart).count();
    verifySpent += spent;
    stats.verifySeconds += spent;
  };
  {
    std::vector<Candidate> trivial = trivialCandidates(target, 16);
    if (!trivial.empty()) {
      verifyPool(trivial);
      if (!result.program.empty()) {
        stats.trivial = true;
        return result;
      }
    }
    if (target.argOutputs) {
      if (stats.budgetStop != BudgetStop::None)
        return result;
      error = "a result is a function argument and the others are not all "
              "arguments";
      return failure();
    }
  }

  // Deepening over the number of kernel-level ops. A search with one more
  // op costs far more, so it runs only when nothing was found yet or, when
  // ranking by modelled time, when a lower bound on such programs (the
  // launches and the compulsory traffic at full bandwidth), times
  // `deepenFactor`, beats the best candidate so far.
  // Candidates of all depths are then verified together in cost order.
  const Scale &full = target.extent;
  double minBytes = 0;
  for (auto types : {func.getFunctionType().getInputs(),
                     func.getFunctionType().getResults()})
    for (Type t : types)
      minBytes += static_cast<double>(
          cast<RankedTensorType>(t).getNumElements() * target.elementBytes);
  std::vector<Candidate> pool;
  for (unsigned numOps = 1; numOps <= options.maxKernelOps && !stats.timedOut;
       ++numOps) {
    auto enumStart = Clock::now();
    std::vector<Candidate> found =
        enumerate(target, options, numOps, enumDeadline, stats);
    if (stats.timedOut && stats.budgetStop == BudgetStop::None)
      stats.budgetStop = BudgetStop::Enumeration;
    for (Candidate &c : found) {
      c.text = printProgram(c.prog, c.outputs, target.numInputs, full,
                            target.elementType, "superoptimized");
      // A candidate a GPU has timed ranks by its measured time.
      if (!options.measuredMicros.empty()) {
        std::string summary = summarize(c.prog);
        for (const auto &[key, micros] : options.measuredMicros)
          if (key == summary) {
            c.micros = micros;
            c.measured = true;
            break;
          }
      }
      pool.push_back(std::move(c));
    }
    bool byKernels = options.rankByKernels;
    llvm::sort(pool, [byKernels](const Candidate &a, const Candidate &b) {
      return betterCandidate(a, b, byKernels);
    });
    stats.searchSeconds +=
        std::chrono::duration<double>(Clock::now() - enumStart).count();
    if (pool.empty())
      continue;
    double bound = (numOps + 1) * target.device.launchMicros +
                   minBytes / target.device.bytesPerSecond * 1e6;
    // Ranked by kernel count first, a deeper program never wins.
    if (!options.rankByKernels && numOps < options.maxKernelOps &&
        options.deepenFactor > 0 &&
        bound * options.deepenFactor < pool.front().micros) {
      ++stats.deepened;
      continue;
    }
    verifyPool(pool);
    if (!result.program.empty())
      break;
  }
  if (result.program.empty() && !pool.empty())
    verifyPool(pool);
  return result;
}
