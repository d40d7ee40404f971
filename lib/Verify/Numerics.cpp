//===- Numerics.cpp - Accuracy in the kernels' precision ------------------===//
//
// For each input distribution: round the inputs to the argument types,
// evaluate the reference exactly (f64), and both programs in the kernels'
// precision (evaluateKernelPrecision); compare each one's scaled error
// against the exact values. The candidate is rejected when its error on some
// output is far worse than the reference's own.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Verify/Numerics.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;
using namespace mirage::verify;

llvm::StringRef mirage::verify::stringifyDistribution(NumericsDistribution d) {
  switch (d) {
  case NumericsDistribution::Activations:
    return "activations";
  case NumericsDistribution::Outliers:
    return "outliers";
  case NumericsDistribution::Logits:
    return "logits";
  case NumericsDistribution::LargeLogits:
    return "large-logits";
  }
  return "unknown";
}

/// Half-width of the uniform inputs of `d`.
static double rangeOf(NumericsDistribution d) {
  switch (d) {
  case NumericsDistribution::Activations:
    return 1.0;
  case NumericsDistribution::Outliers:
    return 4.0;
  case NumericsDistribution::Logits:
    return 30.0;
  case NumericsDistribution::LargeLogits:
    return 100.0;
  }
  return 1.0;
}

/// The storage precisions of `func`'s arguments and results, e.g. "f16".
static std::string precisionOf(func::FuncOp func) {
  llvm::SmallVector<std::string, 2> names;
  llvm::StringSet<> seen;
  auto add = [&](Type t) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << cast<RankedTensorType>(t).getElementType();
    if (seen.insert(s).second)
      names.push_back(s);
  };
  for (Type t : func.getFunctionType().getInputs())
    add(t);
  for (Type t : func.getFunctionType().getResults())
    add(t);
  std::string out;
  for (const std::string &n : names)
    out += (out.empty() ? "" : "/") + n;
  return out;
}

namespace {
/// Scaled error of one output: max |x - e| / (|e| + mean |e|) over the
/// elements where the exact value e is finite; inf when x is not finite at
/// such an element.
struct OutputError {
  double error = 0;
  int64_t worst = 0;
};
} // namespace

static OutputError scaledError(const FloatTensor &x, const FloatTensor &exact) {
  double meanAbs = 0;
  int64_t finite = 0;
  for (double e : exact.data)
    if (std::isfinite(e)) {
      meanAbs += std::fabs(e);
      ++finite;
    }
  meanAbs = finite ? meanAbs / finite : 0;
  // An all-zero output has no scale; fall back to an absolute error.
  double floor = meanAbs > 0 ? meanAbs : 1.0;
  OutputError out;
  for (int64_t i = 0, n = exact.numElements(); i < n; ++i) {
    double e = exact.data[i];
    if (!std::isfinite(e))
      continue;
    double v = x.data[i];
    double err =
        std::isfinite(v) ? std::fabs(v - e) / (std::fabs(e) + floor) : HUGE_VAL;
    if (err > out.error) {
      out.error = err;
      out.worst = i;
    }
  }
  return out;
}

NumericsResult mirage::verify::checkNumerics(func::FuncOp reference,
                                             func::FuncOp candidate,
                                             const NumericsOptions &options,
                                             uint64_t seed) {
  NumericsResult result;
  result.precision = precisionOf(candidate);
  ArrayRef<Type> argTypes = reference.getFunctionType().getInputs();
  bool decided = false;
  for (NumericsDistribution dist : options.distributions) {
    double range = rangeOf(dist);
    uint64_t s =
        mix64(seed + 0x3C6EF372FE94F82BULL * (static_cast<uint64_t>(dist) + 1));
    std::vector<FloatTensor> inputs = argumentInputs<double>(
        argumentLayout(reference), s,
        [range](SplitMix64 &rng) { return rng.uniform(-range, range); }, 0.0,
        1.0, options.deadline);
    if (pastDeadline(options.deadline)) {
      result.verdict = Verdict::Unknown;
      result.reason = "the time budget ran out during the numerics check";
      return result;
    }
    // The exact run sees the inputs the kernels see: rounded to their types.
    for (auto [x, t] : llvm::zip(inputs, argTypes)) {
      Type elem = cast<RankedTensorType>(t).getElementType();
      for (double &v : x.data)
        v = roundToElementType(static_cast<float>(v), elem);
    }
    EvalError e0, e1, e2;
    std::optional<std::vector<FloatTensor>> exact, ref, cand;
    runBoth(
        [&] {
          exact =
              evaluateFloat(reference, inputs, e0, nullptr, options.deadline);
          if (exact)
            ref = evaluateKernelPrecision(reference, inputs, e1, nullptr,
                                          options.deadline);
        },
        [&] {
          cand = evaluateKernelPrecision(candidate, inputs, e2, nullptr,
                                         options.deadline);
        },
        options.parallel);
    auto cancelled = [](bool ok, const EvalError &e) {
      return !ok && e.kind == EvalErrorKind::Cancelled;
    };
    if (cancelled(exact.has_value(), e0) || cancelled(ref.has_value(), e1) ||
        cancelled(cand.has_value(), e2)) {
      result.verdict = Verdict::Unknown;
      result.reason = "the time budget ran out during the numerics check";
      return result;
    }
    if (!exact || !ref || !cand) {
      const EvalError &e = !exact ? e0 : !ref ? e1 : e2;
      func::FuncOp f = exact && ref ? candidate : reference;
      result.verdict = Verdict::Invalid;
      result.reason =
          ("evaluation of @" + f.getSymName() + " failed: " + e.message).str();
      return result;
    }
    std::optional<NumericsError> worstHere;
    bool anyFinite = false;
    for (unsigned o = 0; o < exact->size(); ++o) {
      const FloatTensor &x = (*exact)[o];
      if (llvm::none_of(x.data, [](double v) { return std::isfinite(v); }))
        continue;
      anyFinite = true;
      OutputError re = scaledError((*ref)[o], x);
      OutputError ce = scaledError((*cand)[o], x);
      NumericsError err;
      err.distribution = dist;
      err.outputIndex = o;
      err.referenceError = re.error;
      err.candidateError = ce.error;
      err.element = delinearize(ce.worst, x.shape);
      err.exact = x.data[ce.worst];
      err.candidateValue = (*cand)[o].data[ce.worst];
      err.referenceValue = (*ref)[o].data[ce.worst];
      // Rejected: far worse than the reference, or not finite where the
      // reference is (inf > any finite bound; an inf reference error
      // accepts, since the reference itself breaks down there).
      bool rejected = ce.error > options.factor * re.error + options.floor;
      if (rejected) {
        result.verdict = Verdict::Inaccurate;
        result.worst = err;
        result.errors.push_back(err);
        return result;
      }
      if (!worstHere || err.candidateError > worstHere->candidateError)
        worstHere = err;
    }
    if (!anyFinite) {
      result.skipped.push_back(
          (stringifyDistribution(dist) +
           ": the exact reference has no finite output element")
              .str());
      continue;
    }
    decided = true;
    result.errors.push_back(*worstHere);
  }
  result.verdict = decided ? Verdict::Equivalent : Verdict::Unknown;
  if (!decided)
    result.reason = "no distribution had a finite exact reference";
  return result;
}

/// Renders an error for reports: "inf" or "3.1e-04".
static std::string fmtErr(double v) {
  if (std::isinf(v))
    return "inf";
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::format("%.2g", v);
  return s;
}

std::string mirage::verify::describeNumerics(const NumericsResult &result) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << result.precision << " numerics: ";
  switch (result.verdict) {
  case Verdict::Inaccurate: {
    const NumericsError &w = *result.worst;
    os << "rejected on " << stringifyDistribution(w.distribution)
       << " inputs: output #" << w.outputIndex << " error "
       << fmtErr(w.candidateError) << " against the reference's "
       << fmtErr(w.referenceError) << " (element " << formatIndex(w.element)
       << ": exact " << llvm::format("%.6g", w.exact) << ", candidate "
       << llvm::format("%.6g", w.candidateValue) << ", reference "
       << llvm::format("%.6g", w.referenceValue) << ")";
    return s;
  }
  case Verdict::Equivalent: {
    os << "accepted (";
    for (auto [i, e] : llvm::enumerate(result.errors))
      os << (i ? ", " : "") << stringifyDistribution(e.distribution)
         << " error " << fmtErr(e.candidateError) << " vs reference "
         << fmtErr(e.referenceError);
    os << ")";
    break;
  }
  default:
    os << stringifyVerdict(result.verdict) << ": " << result.reason;
    break;
  }
  for (const std::string &sk : result.skipped)
    os << "; " << sk;
  return s;
}
