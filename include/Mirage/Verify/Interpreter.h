//===- Interpreter.h - Evaluate mk/mb/mt programs ---------------*- C++ -*-===//
//
// One interpreter for programs of the three Mirage levels, instantiated over
// two value domains: f64 (reference numerics) and the finite field of
// Field.h (equivalence testing). Graph-defined kernels run with the exact
// grid, tile, for-loop, accumulator and output-saver semantics of DESIGN
// §3.2: every thread block of the grid, every loop iteration.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_VERIFY_INTERPRETER_H
#define MIRAGE_VERIFY_INTERPRETER_H

#include "Mirage/Verify/Field.h"

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <string>
#include <vector>

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace mirage::verify {

/// Allocates `bytes` of tensor storage. Large buffers are 2 MiB aligned and
/// advised as transparent huge pages: first-touch page faults of the
/// multi-hundred-MB weights otherwise dominate a finite-field test.
void *allocateTensorStorage(size_t bytes);
/// Frees storage from allocateTensorStorage.
void freeTensorStorage(void *ptr);

/// std::allocator replacement that uses allocateTensorStorage.
template <typename T> struct TensorAllocator {
  using value_type = T;
  TensorAllocator() = default;
  template <typename U> TensorAllocator(const TensorAllocator<U> &) {}
  T *allocate(size_t n) {
    return static_cast<T *>(allocateTensorStorage(n * sizeof(T)));
  }
  void deallocate(T *p, size_t) { freeTensorStorage(p); }
  template <typename U> bool operator==(const TensorAllocator<U> &) const {
    return true;
  }
  template <typename U> bool operator!=(const TensorAllocator<U> &) const {
    return false;
  }
};

/// A dense row-major tensor of domain values.
template <typename E> struct Tensor {
  using Storage = std::vector<E, TensorAllocator<E>>;
  llvm::SmallVector<int64_t, 4> shape;
  Storage data;

  Tensor() = default;
  explicit Tensor(llvm::ArrayRef<int64_t> shape, E init = E())
      : shape(shape.begin(), shape.end()), data(numElementsOf(shape), init) {}
  Tensor(const Tensor &) = default;
  Tensor &operator=(const Tensor &) = default;
  /// noexcept, so that vectors of tensors move their storage when they grow
  /// instead of copying it (the shape has at most 4 dims and stays inline).
  Tensor(Tensor &&o) noexcept
      : shape(std::move(o.shape)), data(std::move(o.data)) {}
  Tensor &operator=(Tensor &&o) noexcept {
    shape = std::move(o.shape);
    data = std::move(o.data);
    return *this;
  }
  int64_t numElements() const { return static_cast<int64_t>(data.size()); }
  static int64_t numElementsOf(llvm::ArrayRef<int64_t> shape) {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    return n;
  }
};
using FloatTensor = Tensor<double>;

/// Largest element count of a tensor the evaluator materialises (2^28: the
/// largest benchmark tensor, 4096x6144, has 2^24.6); checkSignature rejects
/// programs with larger tensors.
constexpr int64_t kMaxEvaluatedElements = int64_t(1) << 28;
using FieldTensor = Tensor<FieldValue>;

/// Why an evaluation stopped.
enum class EvalErrorKind {
  /// An op the interpreter does not know (e.g. arith.addf in a function).
  Unsupported,
  /// Malformed program or inputs (wrong number or shape of inputs, ...).
  InvalidInput,
  /// The program leaves the verifiable fragment: an exp of a value whose q
  /// component is undefined (a second exp on one path).
  OutsideFragment,
  /// Division by a value that is zero in the field.
  DivisionByZero,
  /// The evaluation passed its deadline (a time budget ran out).
  Cancelled,
};

/// When an evaluation gives up: past it, the evaluation fails with
/// EvalErrorKind::Cancelled. The clock is read before every op of a function,
/// every thread block of a kernel and every loop iteration, so the overrun is
/// at most one of those. kNoDeadline never stops.
using Deadline = std::chrono::steady_clock::time_point;
inline constexpr Deadline kNoDeadline = Deadline::max();
/// Whether `deadline` has passed (never for kNoDeadline).
inline bool pastDeadline(Deadline deadline) {
  return deadline != kNoDeadline &&
         std::chrono::steady_clock::now() >= deadline;
}

/// An evaluation failure: its kind, a message and the op it happened at.
struct EvalError {
  EvalErrorKind kind = EvalErrorKind::InvalidInput;
  std::string message;
  mlir::Operation *op = nullptr;
};

/// A bound on the degree of a value as a rational function of the inputs
/// (numerator, denominator). Values that are not rational functions (results
/// of exp, sqrt, max, pow) count as fresh variables of degree 1 or half their
/// argument's degree; see docs/verification.md.
struct Degree {
  double num = 1.0;
  double den = 0.0;
};

/// Facts about a field evaluation that the probability bound needs.
struct FieldEvalInfo {
  /// Degree bound of each output.
  llvm::SmallVector<Degree> outputDegrees;
  /// Largest degree of an exp argument (its q-component polynomial).
  double maxExpArgDegree = 0.0;
  /// The program used exp, sqrt, or a random stand-in function
  /// (max/relu/clamp/pow): the bound is then a heuristic (see the docs).
  bool usesExp = false, usesSqrt = false, usesOpaque = false;
};

/// Rounds `x` to the nearest value of the element type `elem` (f16 or bf16,
/// round to nearest even; f32 and others keep `x` as an f32 value), as a
/// store to a tile or a kernel output does in the generated code.
float roundToElementType(float x, mlir::Type elem);

/// Facts about a real-valued evaluation that the float checks need.
struct RealEvalInfo {
  /// The first op whose result held a NaN or an infinity (null if none),
  /// and whether that value was a NaN (an undefined operation such as the
  /// sqrt of a negative number) or an infinity (an overflow or a division by
  /// zero).
  mlir::Operation *firstNonFinite = nullptr;
  bool firstNonFiniteIsNaN = false;
};

/// Evaluates `func` on `inputs` in the f64 domain. On failure returns
/// `std::nullopt` and fills `error`.
std::optional<std::vector<FloatTensor>>
evaluateFloat(mlir::func::FuncOp func, llvm::ArrayRef<FloatTensor> inputs,
              EvalError &error, RealEvalInfo *info = nullptr,
              Deadline deadline = kNoDeadline);

/// Evaluates `func` as the generated code computes: inputs, tiles and kernel
/// outputs rounded to their element type (f16, bf16), every operation,
/// reduction and accumulator in f32 (sequential accumulation, for-loop
/// iterations in order), values inside thread graphs and accumulators kept
/// in f32. `inputs` are rounded to the argument element types first; the
/// outputs are returned as f64.
std::optional<std::vector<FloatTensor>>
evaluateKernelPrecision(mlir::func::FuncOp func,
                        llvm::ArrayRef<FloatTensor> inputs, EvalError &error,
                        RealEvalInfo *info = nullptr,
                        Deadline deadline = kNoDeadline);

/// Evaluates `func` on `inputs` in the finite field, with the random choices
/// of `test`. On failure returns `std::nullopt` and fills `error`.
std::optional<std::vector<FieldTensor>>
evaluateField(mlir::func::FuncOp func, llvm::ArrayRef<FieldTensor> inputs,
              const FieldTest &test, EvalError &error,
              FieldEvalInfo *info = nullptr, Deadline deadline = kNoDeadline);

/// Checks that every argument and result of `func` is a static ranked tensor
/// the interpreter accepts; returns an error message otherwise.
std::optional<std::string> checkSignature(mlir::func::FuncOp func);

/// The seed of the random stream of argument `i` of inputs drawn with `seed`.
inline uint64_t inputStreamSeed(uint64_t seed, unsigned i) {
  return mix64(seed * 0x9E3779B97F4A7C15ULL + i + 1);
}
/// The shapes of `func`'s arguments, or nullopt if one is not a static
/// ranked tensor.
std::optional<std::vector<llvm::SmallVector<int64_t, 4>>>
staticArgumentShapes(mlir::func::FuncOp func);
/// Runs `fill(i)` for every i < n, on two threads where the machine has two
/// cores (each argument's values come from its own stream, so they do not
/// depend on the threads).
void fillInputsInParallel(unsigned n, llvm::function_ref<void(unsigned)> fill);

/// Random inputs of the given shapes (staticArgumentShapes of a function):
/// one SplitMix64 stream per argument derived from `seed`, each element drawn
/// by `draw` (called concurrently for different arguments). Empty without
/// shapes, or when `deadline` passes while they are drawn (the clock is read
/// every 2^20 elements).
template <typename E, typename Draw>
std::vector<Tensor<E>> sampledInputs(
    const std::optional<std::vector<llvm::SmallVector<int64_t, 4>>> &shapes,
    uint64_t seed, const Draw &draw, Deadline deadline = kNoDeadline) {
  if (!shapes)
    return {};
  std::vector<Tensor<E>> inputs(shapes->size());
  std::atomic<bool> late{false};
  fillInputsInParallel(shapes->size(), [&](unsigned i) {
    SplitMix64 rng(inputStreamSeed(seed, i));
    // Appended, not filled and overwritten: fresh pages are touched once,
    // inside the loop that watches the deadline.
    Tensor<E> x;
    x.shape.assign((*shapes)[i].begin(), (*shapes)[i].end());
    int64_t n = Tensor<E>::numElementsOf(x.shape);
    x.data.reserve(n);
    constexpr int64_t kChunk = int64_t(1) << 20;
    for (int64_t b = 0; b < n && !late; b += kChunk) {
      for (int64_t j = b, e = std::min(n, b + kChunk); j < e; ++j)
        x.data.push_back(draw(rng));
      if (pastDeadline(deadline))
        late = true;
    }
    inputs[i] = std::move(x);
  });
  if (late)
    return {};
  return inputs;
}
/// What the random inputs of a function's arguments need to know.
struct ArgumentLayout {
  /// staticArgumentShapes.
  std::optional<std::vector<llvm::SmallVector<int64_t, 4>>> shapes;
  /// Which arguments are masks: read only as the mask operand of selects
  /// (mk/mb/mt.where), directly or through reshapes, transposes,
  /// conversions, 1 - m, kernel operands and input iterators. Random values are
  /// almost never 0, so such an argument would keep every element; its
  /// inputs are 0 or 1 instead, and the tests see the selects fill.
  llvm::SmallVector<bool> masks;
};
ArgumentLayout argumentLayout(mlir::func::FuncOp func);

/// sampledInputs for the arguments `args` describes, except that mask
/// arguments take `zero` or `one`, about half each, from a stream of their
/// own.
template <typename E, typename Draw>
std::vector<Tensor<E>> argumentInputs(const ArgumentLayout &args, uint64_t seed,
                                      const Draw &draw, E zero, E one,
                                      Deadline deadline = kNoDeadline) {
  std::vector<Tensor<E>> inputs =
      sampledInputs<E>(args.shapes, seed, draw, deadline);
  if (inputs.empty())
    return inputs;
  for (auto [i, isMask] : llvm::enumerate(args.masks)) {
    if (!isMask)
      continue;
    SplitMix64 rng(inputStreamSeed(~seed, static_cast<unsigned>(i)));
    for (E &v : inputs[i].data)
      v = rng.next() >> 63 ? one : zero;
  }
  return inputs;
}

/// Uniform random inputs in [-1, 1) for the arguments of `func`, one stream
/// per argument derived from `seed` (0 or 1 for mask arguments).
std::vector<FloatTensor> randomFloatInputs(mlir::func::FuncOp func,
                                           uint64_t seed);
/// Uniform random field inputs, fresh per tensor, derived from `seed` (0 or
/// 1 for mask arguments).
/// Empty if `deadline` passes while they are drawn.
std::vector<FieldTensor> randomFieldInputs(mlir::func::FuncOp func,
                                           const FieldTest &test, uint64_t seed,
                                           Deadline deadline = kNoDeadline);

/// Runs `first` on the calling thread and `second` on another one and waits
/// for both: the two programs of a comparison are evaluated at once (the
/// evaluator only reads the IR). With `parallel` false both run in order.
void runBoth(llvm::function_ref<void()> first,
             llvm::function_ref<void()> second, bool parallel = true);

/// Renders a multi-dimensional index as "[i, j, ...]".
std::string formatIndex(llvm::ArrayRef<int64_t> index);
/// The multi-dimensional index of linear index `linear` in `shape`.
llvm::SmallVector<int64_t, 4> delinearize(int64_t linear,
                                          llvm::ArrayRef<int64_t> shape);

} // namespace mirage::verify

#endif // MIRAGE_VERIFY_INTERPRETER_H
