//===- SearchIR.h - The search's own small IR -------------------*- C++ -*-===//
//
// Private to lib/Search. The search works on its own small IR, not on MLIR:
// every tensor is a list of logical-axis labels (those of the target's
// AxisSpace, 0 for a dim of size 1), its abstract term and its e-class. A dim
// labelled `l` of a kernel-level tensor has the axis's full extent; in a
// graph-defined kernel it has the extent divided by the grid dim or the loop
// range that walks `l`. So the structure of a block graph does not depend on
// the grid sizes and the loop range: they are chosen after the structure is
// found (Instantiation.h), by the cost proxy, among all divisors that fit the
// device.
//
// Every stage of the search (docs/search.md, "Stages") passes these types:
// TargetImport builds the Target, Enumeration produces Candidates,
// Instantiation sizes them, Materialize prints them, Verification and
// Ranking judge them.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_SEARCH_SEARCHIR_H
#define MIRAGE_LIB_SEARCH_SEARCHIR_H

#include "Mirage/Search/AbstractExpr.h"
#include "Mirage/Search/CostModel.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mirage::search::detail {

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
  Reciprocal,
  Tanh,
  GeluErf,
  Add,
  Sub,
  Mul,
  Div,
  Pow,
  Max,
  /// where(m, x): x where the mask m is not 0, the fill elsewhere (Params:
  /// `a` the fill, `b` 1 when inverted: the fill where m is not 0).
  Where,
  Matmul,
  ReduceSum,
  ReduceMax,
  RmsNorm,
  /// band_mask: keeps a band of diagonals of two dims (or a range of one)
  /// and fills the rest (Params: `a` the fill, `dims`, `lower`, `upper`).
  BandMask,
  AccSum,
  AccSumLast,
  AccMeanLast,
  AccRmsLast,
  AccMax,
  /// accum_rescaled_sum(x, m): the online-softmax sum of a body value x
  /// computed relative to the loop step's maximum m.
  AccRescaledSum,
};
constexpr unsigned kNumKinds = static_cast<unsigned>(Kind::AccRescaledSum) + 1;

/// The op's name in the mk and mb dialects ("exp", "accum_sum", ...).
const char *kindName(Kind k);
inline bool isBinary(Kind k) { return k >= Kind::Add && k <= Kind::Where; }
inline bool isAccumulator(Kind k) { return k >= Kind::AccSum; }
/// Ops with two operands: the binary element-wise ops, matmul and
/// accum_rescaled_sum (the value and its maximum).
inline bool takesTwoOperands(Kind k) {
  return isBinary(k) || k == Kind::Matmul || k == Kind::AccRescaledSum;
}
inline bool isCommutative(Kind k) {
  return k == Kind::Add || k == Kind::Mul || k == Kind::Max;
}

/// Scalar parameters: the constant of mul_scalar/add_scalar, clamp bounds,
/// the eps of rms_norm/accum_rms_last, the dim of a reduction.
struct Params {
  double a = 0, b = 0;
  int64_t dim = 0;
  /// band_mask: the masked dims (-1: none; one dim in maskDims[1]), the
  /// bounds and the additive form.
  int64_t maskDims[2] = {-1, -1};
  std::optional<int64_t> lower, upper;
  bool additive = false;
};

/// The logical axis of every dim of a tensor (0 for a dim of size 1).
using Labels = llvm::SmallVector<uint32_t, 4>;

/// Sizes of every label for one materialisation (the real extents or the
/// reduced ones of the fingerprint).
using Scale = llvm::DenseMap<uint32_t, int64_t>;

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
  /// Online softmax (block level): `stepMax` marks a reduce_max over the
  /// part of an axis one loop step sees, whose term is the maximum over the
  /// whole axis (the value it stands for once the step's results are
  /// rescaled); `shifted` marks every body value computed from one. Such a
  /// value is only accumulated by accum_rescaled_sum (against the step
  /// maximum) or, for the maximum itself, accum_max; the other accumulators
  /// would add values relative to different maxima.
  bool stepMax = false;
  bool shifted = false;
};

/// An op of either level: kernel-level pre-defined ops and block ops.
/// `args` and `result` index the values of the enclosing program or kernel.
struct SOp {
  Kind kind;
  Params params;
  llvm::SmallVector<int, 2> args;
  int result = -1;
};

/// A graph-defined kernel: structure, then the instantiation the cost proxy
/// chose. An input tile read only by post-loop ops is an epilogue input
/// (isEpilogueInput): loaded once after the loop, not in the body.
struct SKernel {
  llvm::SmallVector<int, 4> inputs;
  uint32_t loopAxis = 0;
  llvm::SmallVector<uint32_t, 3> gridAxes;
  /// Representative loop range and grid sizes used for the terms while the
  /// structure is enumerated.
  int64_t repF = 1;
  llvm::SmallVector<int64_t, 3> repGrid;
  /// Block values: the tiles of `inputs` first.
  llvm::SmallVector<SValue, 8> vals;
  /// Body ops, then accumulators, then post-loop ops.
  llvm::SmallVector<SOp, 8> ops;
  unsigned numBody = 0, numAcc = 0;
  llvm::SmallVector<int, 2> outputs;
  llvm::SmallVector<int, 2> results;
  // Instantiation.
  int64_t forloop = 1;
  /// Grid dims x, y, z as (axis, size); fewer than 3 entries = size 1.
  llvm::SmallVector<std::pair<uint32_t, int64_t>, 3> grid;
  int64_t threads = 32;
  double micros = 0;
};

/// A kernel-level op: a pre-defined op, or graph-defined kernel `kernel` of
/// the program.
struct SKernelOp {
  bool isKernel = false;
  SOp op;
  int kernel = -1;
};

/// A kernel graph: values (the function arguments first), ops in program
/// order, and the graph-defined kernels they refer to.
struct SProgram {
  llvm::SmallVector<SValue, 8> vals;
  llvm::SmallVector<SKernelOp, 4> ops;
  std::vector<SKernel> kernels;
};

/// A complete candidate with its cost.
struct Target;

struct Candidate {
  SProgram prog;
  llvm::SmallVector<int, 2> outputs;
  unsigned kernels = 0;
  double micros = 0;
  /// Ops of all levels (kernel ops and block ops).
  unsigned numOps = 0;
  /// `micros` is a measured time (SuperoptimizeOptions::measuredMicros).
  bool measured = false;
  /// The target it computes.
  const Target *target = nullptr;

  /// The candidate's identity, for ranking ties and deduplication:
  /// everything its program is built from (every value's labels, the ops
  /// with their parameters and operands, each kernel's structure and
  /// instantiation, the outputs) as a list of numbers. Equal keys build the
  /// same program (buildProgram, Materialize.h). Made on first use: most
  /// candidates never need it.
  llvm::ArrayRef<int64_t> key() const;

private:
  mutable std::optional<llvm::SmallVector<int64_t, 0>> encoded;
};

/// Whether `a` and `b` build the same program (equal keys).
bool sameProgram(const Candidate &a, const Candidate &b);

/// The candidate of `target` whose key is `key` (its structure, without a
/// modelled time), or failure with `error` when `key` is not one: every
/// number is checked against what the builders index with it (values
/// defined once and before their uses, labels of the target's axes, splits
/// that divide them), so that any list of numbers either fails here or
/// builds IR that the verifier judges. Defined in CandidateKey.cpp.
mlir::FailureOr<Candidate> candidateOfKey(llvm::ArrayRef<int64_t> key,
                                          const Target &target,
                                          std::string &error);

//===----------------------------------------------------------------------===//
// The target
//===----------------------------------------------------------------------===//

/// The function being superoptimized, as the search sees it (TargetImport.h).
struct Target {
  mlir::func::FuncOp func;
  /// The element type of every tensor (f16, bf16 or f32).
  mlir::Type element;
  int64_t elementBytes = 2;
  /// Extent of every axis label.
  Scale extent;
  /// The target as a search-IR program (for the reduced-shape reference).
  SProgram ref;
  llvm::SmallVector<int, 2> refOutputs;
  unsigned numInputs = 0;
  std::unique_ptr<PruningOracle> oracle;
  bool prune = false;
  /// Constants of the target, offered to the ops that take them.
  llvm::SmallVector<double, 2> eps, mulScalars, addScalars;
  llvm::SmallVector<std::pair<double, double>, 1> clamps;
  /// The fills of the target's selects by a mask tensor, with 1 for an
  /// inverted select (Params' a and b).
  llvm::SmallVector<std::pair<double, double>, 1> whereFills;
  /// The band masks of the target (their Params).
  llvm::SmallVector<Params, 1> masks;
  /// Kinds allowed in candidates.
  bool allowed[kNumKinds] = {};
  DeviceModel device{};
  /// Tensor-core FLOPs of the target's matmuls (unpadded), for the
  /// deepening bound (Ranking.h).
  double matmulFlops = 0;
  int64_t smemLimit = 98304;
  /// Some result of the target is one of its arguments.
  bool argOutputs = false;
  /// The term of every argument and of every output in `expr`, for class
  /// lookups in the oracle.
  RecExpr expr;
};

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

/// How many parts kernel `k` splits axis `label` into: the loop range if the
/// loop walks it, the grid size if the grid splits it, else 1.
int64_t splitOf(const SKernel &k, uint32_t label);

/// The shape of kernel-level value `v` at the extents `scale`.
llvm::SmallVector<int64_t, 4> kernelShape(const SValue &v, const Scale &scale);

/// The shape of block value `v` of kernel `k` (one block's tile in one loop
/// iteration) at the extents `scale`.
llvm::SmallVector<int64_t, 4> blockShape(const SKernel &k, const SValue &v,
                                         const Scale &scale);

/// Whether block value `b` of kernel `k` is an input tile that only
/// post-loop ops read: an epilogue input (mb.input_iter after the loop,
/// [B21]). The enumeration gives such tiles no body uses.
bool isEpilogueInput(const SKernel &k, int b);

/// The divisors of `n` above 1, in increasing order.
llvm::SmallVector<int64_t> divisorsAbove1(int64_t n);

//===----------------------------------------------------------------------===//
// Utilities shared by the stages
//===----------------------------------------------------------------------===//

/// The clock of the time budget.
using Clock = std::chrono::steady_clock;

/// Advances the mixed-radix counter `pos` (digit i counts to `size(i)`);
/// false once every combination has been visited.
template <typename SizeFn>
bool nextCombination(llvm::MutableArrayRef<unsigned> pos, SizeFn size) {
  for (size_t i = 0; i < pos.size(); ++i) {
    if (++pos[i] < size(i))
      return true;
    pos[i] = 0;
  }
  return false;
}

} // namespace mirage::search::detail

#endif // MIRAGE_LIB_SEARCH_SEARCHIR_H
