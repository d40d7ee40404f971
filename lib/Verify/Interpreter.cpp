//===- Interpreter.cpp - Evaluate mk/mb/mt programs -----------------------===//
//
// The evaluator's dispatch over ops and its entry point (Evaluator.h), and
// the public API of Interpreter.h: evaluation in f64, in the kernels'
// precision and in the finite field, and the signature check.
//
// Thread graphs are evaluated one body op at a time over whole (broadcast)
// tiles rather than one element at a time: the result is the same element by
// element, and it lets division use batch inversion.
//
//===----------------------------------------------------------------------===//

#include "Evaluator.h"

#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mirage;
using namespace mirage::verify;
using namespace mirage::verify::detail;

template <typename Dom>
LogicalResult Evaluator<Dom>::evalBlockOps(Block &block) {
  for (Operation &op : block.without_terminator())
    if (failed(evalOp(op)))
      return failure();
  return success();
}

template <typename Dom> LogicalResult Evaluator<Dom>::evalOp(Operation &op) {
  if (auto ew = dyn_cast<ElementwiseOpInterface>(op))
    return evalElementwise(op, ew);
  if (auto kernel = dyn_cast<GraphKernelOpInterface>(op))
    return evalKernel(kernel);
  return llvm::TypeSwitch<Operation *, LogicalResult>(&op)
      .template Case<mk::MatmulOp, mb::MatmulOp>(
          [&](auto) { return evalMatmul(op); })
      .template Case<mk::ReduceSumOp, mb::ReduceSumOp>(
          [&](auto r) { return evalReduce(op, r.getDim(), false); })
      .template Case<mk::ReduceMaxOp, mb::ReduceMaxOp>(
          [&](auto r) { return evalReduce(op, r.getDim(), true); })
      .template Case<mk::RmsNormOp, mb::RmsNormOp>([&](auto r) {
        return evalRmsNorm(op, r.getInput(), r.getWeight(),
                           r.getEps().convertToDouble());
      })
      .template Case<mk::ConcatOp, mb::ConcatOp>(
          [&](auto c) { return evalConcat(op, c.getDim()); })
      .template Case<mk::TransposeOp, mb::TransposeOp>(
          [&](auto t) { return evalTranspose(op, t.getPerm()); })
      .template Case<mk::ReshapeOp>([&](mk::ReshapeOp r) {
        return evalReshape(op, r.getType().getShape());
      })
      .template Case<mk::BandMaskOp>([&](mk::BandMaskOp m) {
        SmallVector<int64_t, 4> origin(m.getType().getRank(), 0);
        return evalBandMask(op, m.getDims(), m.getLower(), m.getUpper(),
                            m.getFill().convertToDouble(), m.getAdditive(),
                            origin);
      })
      .template Case<mb::BandMaskOp>([&](mb::BandMaskOp m) {
        if (!currentKernel)
          return fail(&op, EvalErrorKind::InvalidInput,
                      "block-graph op outside a graph-defined kernel");
        SmallVector<int64_t, 4> origin =
            tileOrigin(m.getType().getShape(), m.getImap(), m.getFmap(),
                       currentKernel.getForloopRange());
        return evalBandMask(op, m.getDims(), m.getLower(), m.getUpper(),
                            m.getFill().convertToDouble(), m.getAdditive(),
                            origin);
      })
      .template Case<mb::TailMaskOp>(
          [&](mb::TailMaskOp m) { return evalTailMask(m); })
      .template Case<mt::ThreadGraphOp>(
          [&](auto tg) { return evalThreadGraph(tg); })
      .template Case<mb::InputIterOp, mb::ForLoopOp, mb::OutputSaverOp>(
          [&](auto) {
            return fail(&op, EvalErrorKind::InvalidInput,
                        "block-graph op outside its place in a graph-defined "
                        "kernel");
          })
      .Default([&](Operation *o) {
        return fail(o, EvalErrorKind::Unsupported,
                    "unsupported op '" + o->getName().getStringRef() +
                        "': the evaluator knows only mk, mb and mt ops");
      });
}

template <typename Dom>
std::optional<std::vector<Tensor<typename Dom::Elem>>>
Evaluator<Dom>::run(func::FuncOp func, ArrayRef<T> inputs) {
  if (func.isExternal()) {
    (void)fail(func, EvalErrorKind::InvalidInput,
               "function '" + func.getSymName() + "' has no body");
    return std::nullopt;
  }
  if (std::optional<std::string> bad = checkSignature(func)) {
    (void)fail(func, EvalErrorKind::InvalidInput, *bad);
    return std::nullopt;
  }
  Block &body = func.getBody().front();
  if (inputs.size() != body.getNumArguments()) {
    (void)fail(func, EvalErrorKind::InvalidInput,
               "expected " + Twine(body.getNumArguments()) + " inputs, got " +
                   Twine(inputs.size()));
    return std::nullopt;
  }
  for (auto [arg, in] : llvm::zip(body.getArguments(), inputs)) {
    auto shape = cast<RankedTensorType>(arg.getType()).getShape();
    if (ArrayRef<int64_t>(in.shape) != shape ||
        in.numElements() != T::numElementsOf(shape)) {
      (void)fail(func, EvalErrorKind::InvalidInput,
                 "input #" + Twine(arg.getArgNumber()) +
                     " does not have the argument's shape");
      return std::nullopt;
    }
    // The caller's tensors outlive the evaluation: alias them, no copy.
    env[arg] = Val{TPtr(TPtr(), &in), freshDeg()};
  }
  // Each value is dropped after its last use (by an op of the body or one
  // nested in it): at the real shapes the intermediates are the largest
  // tensors, and their freed storage serves the next ones.
  llvm::DenseMap<Value, Operation *> lastUser;
  for (Operation &op : body)
    op.walk([&](Operation *inner) {
      for (Value v : inner->getOperands())
        lastUser[v] = &op;
    });
  llvm::DenseMap<Operation *, SmallVector<Value, 2>> dyingAfter;
  for (auto [v, user] : lastUser)
    dyingAfter[user].push_back(v);
  for (Operation &op : body.without_terminator()) {
    if (failed(checkDeadline(&op)) || failed(evalOp(op)))
      return std::nullopt;
    auto dying = dyingAfter.find(&op);
    if (dying != dyingAfter.end())
      for (Value v : dying->second)
        env.erase(v);
  }
  auto ret = dyn_cast<func::ReturnOp>(body.getTerminator());
  if (!ret) {
    (void)fail(body.getTerminator(), EvalErrorKind::Unsupported,
               "function must end in func.return");
    return std::nullopt;
  }
  std::vector<T> results;
  for (Value v : ret.getOperands()) {
    Val val;
    if (failed(get(ret, v, val)))
      return std::nullopt;
    results.push_back(*val.t);
    if (info)
      info->outputDegrees.push_back(val.deg);
  }
  return results;
}

//===----------------------------------------------------------------------===//
// Public API
//===----------------------------------------------------------------------===//

/// `x` rounded to the nearest f16 (ties to even), as a float: on the bits,
/// where a cast through _Float16 calls the soft-float routines of libgcc on
/// CPUs the build does not assume F16C of (two thirds of a numerics check's
/// time at decode shapes).
static float roundToHalf(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, sizeof(bits));
  uint32_t sign = bits & 0x80000000u, magnitude = bits ^ sign;
  float r;
  if (magnitude >= 0x7F800000u) // inf and NaN stay
    return x;
  if (magnitude < 0x38800000u) {
    // Below 2^-14 f16 is subnormal, a multiple of 2^-24: the ulp of a
    // float in [0.5, 1), so adding and taking back 0.5 rounds to it (ties
    // to even, the default rounding).
    std::memcpy(&r, &magnitude, sizeof(r));
    r = (r + 0.5f) - 0.5f;
    std::memcpy(&magnitude, &r, sizeof(r));
  } else {
    // 10 of the 23 fraction bits stay: round the 13 others to even (a
    // carry moves into the exponent as it should).
    magnitude += 0x0FFFu + ((magnitude >> 13) & 1u);
    magnitude &= ~0x1FFFu;
    // Past the largest f16 (65504): infinity.
    if (magnitude >= 0x47800000u)
      magnitude = 0x7F800000u;
  }
  bits = sign | magnitude;
  std::memcpy(&r, &bits, sizeof(r));
  return r;
}

float mirage::verify::roundToElementType(float x, Type elem) {
  if (elem.isF16())
    return roundToHalf(x);
  if (elem.isBF16()) {
    // Round to nearest even on the upper 16 bits (no compiler-rt needed).
    if (std::isnan(x))
      return x;
    uint32_t bits;
    std::memcpy(&bits, &x, sizeof(bits));
    bits += 0x7FFFu + ((bits >> 16) & 1u);
    bits &= 0xFFFF0000u;
    float r;
    std::memcpy(&r, &bits, sizeof(r));
    return r;
  }
  return x;
}

std::optional<std::string> mirage::verify::checkSignature(func::FuncOp func) {
  auto check = [](Type t, StringRef what,
                  unsigned i) -> std::optional<std::string> {
    auto rt = dyn_cast<RankedTensorType>(t);
    if (!rt || !rt.hasStaticShape() || rt.getRank() < 1 || rt.getRank() > 4 ||
        !isa<FloatType>(rt.getElementType())) {
      std::string s;
      llvm::raw_string_ostream os(s);
      os << what << " #" << i << " has type " << t
         << "; the evaluator needs static float tensors of rank 1 to 4";
      return s;
    }
    return std::nullopt;
  };
  FunctionType ft = func.getFunctionType();
  for (auto [i, t] : llvm::enumerate(ft.getInputs()))
    if (auto bad = check(t, "argument", i))
      return bad;
  for (auto [i, t] : llvm::enumerate(ft.getResults()))
    if (auto bad = check(t, "result", i))
      return bad;
  // Every tensor the evaluation materialises must have a representable and
  // affordable element count (an overflowing count would make tensors empty
  // and every comparison vacuous), and every constant must have an exact
  // field image (inf and NaN have none).
  std::optional<std::string> bad;
  auto tooLarge = [&](Type t) {
    auto rt = dyn_cast<RankedTensorType>(t);
    if (!rt || !rt.hasStaticShape())
      return false;
    int64_t n = 1;
    for (int64_t d : rt.getShape())
      if (d < 0 || llvm::MulOverflow(n, d, n))
        return true;
    return n > kMaxEvaluatedElements;
  };
  for (Type t : llvm::concat<const Type>(ft.getInputs(), ft.getResults()))
    if (tooLarge(t))
      return "tensor type " + llvm::formatv("{0}", t).str() +
             " has more elements than the evaluator handles (" +
             std::to_string(kMaxEvaluatedElements) + ")";
  func.walk([&](Operation *op) {
    for (Type t : op->getResultTypes())
      if (tooLarge(t)) {
        bad = "'" + op->getName().getStringRef().str() + "' produces " +
              llvm::formatv("{0}", t).str() +
              ", more elements than the evaluator handles (" +
              std::to_string(kMaxEvaluatedElements) + ")";
        return WalkResult::interrupt();
      }
    SmallVector<double, 2> constants;
    // An infinite bound of a clamp is no bound (max(x, c) is a clamp to
    // [c, +inf]): the evaluators skip it. An infinite fill of a where has a
    // stand-in in the field, as band_mask's.
    if (auto ew = dyn_cast<ElementwiseOpInterface>(op))
      for (double c : ew.getScalarParams())
        if (!((ew.getElementwiseKind() == ElementwiseKind::Clamp ||
               ew.getElementwiseKind() == ElementwiseKind::Where) &&
              std::isinf(c)))
          constants.push_back(c);
    if (auto eps = op->getAttrOfType<FloatAttr>("eps"))
      constants.push_back(eps.getValueAsDouble());
    for (double c : constants)
      if (!std::isfinite(c)) {
        bad = "'" + op->getName().getStringRef().str() +
              "' has a non-finite constant, which has no field image";
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return bad;
}

std::optional<std::vector<FloatTensor>>
mirage::verify::evaluateFloat(func::FuncOp func, ArrayRef<FloatTensor> inputs,
                              EvalError &error, RealEvalInfo *info,
                              Deadline deadline) {
  FloatDomain dom;
  Evaluator<FloatDomain> ev(dom, error, nullptr, info, deadline);
  return ev.run(func, inputs);
}

std::optional<std::vector<FloatTensor>> mirage::verify::evaluateKernelPrecision(
    func::FuncOp func, ArrayRef<FloatTensor> inputs, EvalError &error,
    RealEvalInfo *info, Deadline deadline) {
  using F32Tensor = Tensor<float>;
  std::vector<F32Tensor> in;
  ArrayRef<Type> argTypes = func.getFunctionType().getInputs();
  for (auto [i, x] : llvm::enumerate(inputs)) {
    F32Tensor t(x.shape);
    Type elem = i < argTypes.size()
                    ? cast<RankedTensorType>(argTypes[i]).getElementType()
                    : Type();
    for (auto [dst, src] : llvm::zip_equal(t.data, x.data))
      dst = elem ? roundToElementType(static_cast<float>(src), elem)
                 : static_cast<float>(src);
    in.push_back(std::move(t));
  }
  KernelPrecisionDomain dom;
  Evaluator<KernelPrecisionDomain> ev(dom, error, nullptr, info, deadline);
  auto out = ev.run(func, in);
  if (!out)
    return std::nullopt;
  std::vector<FloatTensor> results;
  for (const F32Tensor &t : *out) {
    FloatTensor r(t.shape);
    for (auto [dst, src] : llvm::zip_equal(r.data, t.data))
      dst = src;
    results.push_back(std::move(r));
  }
  return results;
}

std::optional<std::vector<FieldTensor>>
mirage::verify::evaluateField(func::FuncOp func, ArrayRef<FieldTensor> inputs,
                              const FieldTest &test, EvalError &error,
                              FieldEvalInfo *info, Deadline deadline) {
  FieldDomain dom(test);
  Evaluator<FieldDomain> ev(dom, error, info, nullptr, deadline);
  return ev.run(func, inputs);
}

#define MIRAGE_INSTANTIATE_EVALUATOR_CORE(Dom)                                 \
  template LogicalResult Evaluator<Dom>::evalBlockOps(Block &);                \
  template LogicalResult Evaluator<Dom>::evalOp(Operation &);
MIRAGE_FOR_EACH_DOMAIN(MIRAGE_INSTANTIATE_EVALUATOR_CORE)
