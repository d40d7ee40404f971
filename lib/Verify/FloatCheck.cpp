//===- FloatCheck.cpp - f64 comparison of two programs --------------------===//
//
// Runs both programs in f64 on each input distribution and compares every
// output element. A point where exactly one program is not finite decides
// by how that program first left the finite numbers: through a NaN (an
// undefined operation, e.g. the sqrt of a negative real) it is a
// counterexample; through an infinity (an overflow: exp of a large logit)
// the distribution is ill-conditioned for that program and does not decide.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Verify/FloatCheck.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Operation.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mirage::verify;

llvm::StringRef mirage::verify::stringifyDistribution(FloatDistribution d) {
  switch (d) {
  case FloatDistribution::Mixed:
    return "mixed";
  case FloatDistribution::Wide:
    return "wide";
  case FloatDistribution::Positive:
    return "positive";
  }
  return "unknown";
}

std::vector<FloatTensor> mirage::verify::floatInputs(func::FuncOp func,
                                                     FloatDistribution dist,
                                                     uint64_t seed,
                                                     Deadline deadline) {
  // Each distribution has its own streams: the same seed gives unrelated
  // points for different distributions.
  uint64_t s =
      mix64(seed + 0x51ED270B3A5C1F47ULL * (static_cast<uint64_t>(dist) + 1));
  switch (dist) {
  case FloatDistribution::Mixed:
    return argumentInputs<double>(
        argumentLayout(func), s,
        [](SplitMix64 &rng) { return rng.uniform(-1.0, 1.0); }, 0.0, 1.0,
        deadline);
  case FloatDistribution::Wide:
    return argumentInputs<double>(
        argumentLayout(func), s,
        [](SplitMix64 &rng) {
          // A decade 10^k, k in [-3, 1] (bits 32-63, multiply-shift), a
          // uniform mantissa in [1, 10) (bits 0-30) and a sign (bit 31), all
          // from one draw and without a branch: no transcendental and no
          // mispredicted sign per element (weights have 10^8 of them).
          static constexpr double kDecades[] = {1e-3, 1e-2, 1e-1, 1.0, 10.0};
          uint64_t r = rng.next();
          double unit = static_cast<double>(r & 0x7FFFFFFFu) * 0x1.0p-31;
          double mag = kDecades[((r >> 32) * 5) >> 32] * (1.0 + 9.0 * unit);
          uint64_t bits;
          std::memcpy(&bits, &mag, sizeof(bits));
          bits ^= ((r >> 31) & 1) << 63;
          std::memcpy(&mag, &bits, sizeof(bits));
          return mag;
        },
        0.0, 1.0, deadline);
  case FloatDistribution::Positive:
    return argumentInputs<double>(
        argumentLayout(func), s,
        [](SplitMix64 &rng) { return rng.uniform(0.1, 2.0); }, 0.0, 1.0,
        deadline);
  }
  return {};
}

/// Names the op (and its function) where a program first left the finite
/// numbers, for the reasons of skipped distributions.
static std::string describeNonFinite(const RealEvalInfo &info,
                                     func::FuncOp func) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << (info.firstNonFiniteIsNaN ? "NaN" : "overflow to inf") << " in @"
     << func.getSymName();
  if (info.firstNonFinite)
    os << " at '" << info.firstNonFinite->getName() << "'";
  return s;
}

namespace {
/// The outcome of one distribution.
struct DistributionOutcome {
  /// Compared at least one point where both programs are finite.
  bool decisive = false;
  double maxRelDiff = 0;
  std::optional<FloatCounterexample> counterexample;
  /// Why it did not decide, if it did not.
  std::string skipped;
  /// An evaluation passed the deadline.
  bool cancelled = false;
};
} // namespace

static DistributionOutcome compareOn(func::FuncOp reference,
                                     func::FuncOp candidate,
                                     FloatDistribution dist, uint64_t seed,
                                     const FloatCheckOptions &options,
                                     std::optional<std::string> &invalid) {
  double tolerance = options.tolerance;
  DistributionOutcome out;
  std::vector<FloatTensor> inputs =
      floatInputs(reference, dist, seed, options.deadline);
  if (pastDeadline(options.deadline)) {
    out.cancelled = true;
    return out;
  }
  EvalError refErr, candErr;
  RealEvalInfo refInfo, candInfo;
  std::optional<std::vector<FloatTensor>> ref, cand;
  runBoth(
      [&] {
        ref = evaluateFloat(reference, inputs, refErr, &refInfo,
                            options.deadline);
      },
      [&] {
        cand = evaluateFloat(candidate, inputs, candErr, &candInfo,
                             options.deadline);
      },
      options.parallel);
  if ((!ref && refErr.kind == EvalErrorKind::Cancelled) ||
      (!cand && candErr.kind == EvalErrorKind::Cancelled)) {
    out.cancelled = true;
    return out;
  }
  if (!ref || !cand) {
    const EvalError &e = ref ? candErr : refErr;
    invalid =
        ("f64 evaluation of @" + (ref ? candidate : reference).getSymName() +
         " failed: " + e.message)
            .str();
    return out;
  }
  auto counterexample = [&](unsigned o, int64_t i, double a, double b,
                            double rel) {
    FloatCounterexample cex;
    cex.distribution = dist;
    cex.seed = seed;
    cex.outputIndex = o;
    cex.element = delinearize(i, (*ref)[o].shape);
    cex.referenceValue = a;
    cex.candidateValue = b;
    cex.relDiff = rel;
    out.counterexample = std::move(cex);
  };
  // A program that overflowed somewhere can produce wrong finite values too
  // (x / inf = 0): a disagreement is then blamed on the overflow and the
  // distribution does not decide. Without an overflow every disagreement is
  // a counterexample.
  auto overflowed = [](const RealEvalInfo &info) {
    return info.firstNonFinite && !info.firstNonFiniteIsNaN;
  };
  auto disagree = [&](unsigned o, int64_t i, double a, double b, double rel) {
    if (overflowed(refInfo) || overflowed(candInfo)) {
      bool refFirst = overflowed(refInfo);
      out.skipped = (stringifyDistribution(dist) + ": " +
                     describeNonFinite(refFirst ? refInfo : candInfo,
                                       refFirst ? reference : candidate))
                        .str();
      out.decisive = false;
      out.maxRelDiff = 0;
      return;
    }
    counterexample(o, i, a, b, rel);
    out.decisive = true;
  };
  bool compared = false;
  for (unsigned o = 0; o < ref->size(); ++o) {
    const FloatTensor &x = (*ref)[o], &y = (*cand)[o];
    double scale = 0;
    for (double v : x.data)
      if (std::isfinite(v))
        scale = std::max(scale, std::fabs(v));
    double floor = 1e-3 * scale;
    for (int64_t i = 0, n = x.numElements(); i < n; ++i) {
      double a = x.data[i], b = y.data[i];
      bool fa = std::isfinite(a), fb = std::isfinite(b);
      if (!fa && !fb)
        continue; // ill-conditioned for both at this point
      if (fa != fb) {
        disagree(o, i, a, b, HUGE_VAL);
        return out;
      }
      compared = true;
      if (a == b)
        continue;
      double rel =
          std::fabs(a - b) / std::max({std::fabs(a), std::fabs(b), floor});
      if (rel > tolerance) {
        disagree(o, i, a, b, rel);
        return out;
      }
      out.maxRelDiff = std::max(out.maxRelDiff, rel);
    }
  }
  out.decisive = compared;
  if (!compared)
    out.skipped = (stringifyDistribution(dist) +
                   ": no output element is finite in both programs")
                      .str();
  return out;
}

FloatCheckResult mirage::verify::checkFloat(func::FuncOp reference,
                                            func::FuncOp candidate,
                                            const FloatCheckOptions &options,
                                            uint64_t seed) {
  FloatCheckResult result;
  for (FloatDistribution dist : options.distributions) {
    std::optional<std::string> invalid;
    DistributionOutcome o =
        compareOn(reference, candidate, dist, seed, options, invalid);
    if (invalid) {
      result.verdict = Verdict::Invalid;
      result.reason = *invalid;
      return result;
    }
    if (o.cancelled) {
      result.verdict = Verdict::Unknown;
      result.reason = "the time budget ran out during the f64 check";
      return result;
    }
    result.run.push_back(dist);
    if (o.counterexample) {
      result.verdict = Verdict::NotEquivalent;
      result.counterexample = std::move(o.counterexample);
      result.decisive.push_back(dist);
      return result;
    }
    if (!o.decisive) {
      result.skipped.push_back(o.skipped);
      continue;
    }
    result.decisive.push_back(dist);
    result.maxRelDiff = std::max(result.maxRelDiff, o.maxRelDiff);
  }
  if (result.decisive.empty()) {
    result.verdict = Verdict::Unknown;
    result.reason = "no f64 run was decisive";
    for (const std::string &s : result.skipped)
      result.reason += "; " + s;
    return result;
  }
  result.verdict = Verdict::Equivalent;
  return result;
}
