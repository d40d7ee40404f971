//===- Verification.cpp - Candidates against the target ---------*- C++ -*-===//
//
// The fingerprint, the full check, the numerics check and the order they run
// in (Verification.h; docs/search.md, "Fingerprints and verification").
//
//===----------------------------------------------------------------------===//

#include "Verification.h"

#include "Materialize.h"

#include "Mirage/Verify/Equivalence.h"
#include "Mirage/Verify/Numerics.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <numeric>

using namespace mlir;

namespace mirage::search::detail {

/// `prog` (returning `outputs`) at the extents `scale` as a func.func in a
/// module of its own; null if it does not verify (a candidate the verifier
/// rejects is simply not a program).
static OwningOpRef<ModuleOp> materialize(MLIRContext *ctx, const Target &target,
                                         const SProgram &prog,
                                         ArrayRef<int> outputs,
                                         const Scale &scale, StringRef name) {
  OwningOpRef<ModuleOp> module = scratchModule(ctx, target.smemLimit);
  buildProgram(*module, prog, outputs, target.numInputs, scale, target.element,
               name);
  if (!verifiesQuietly(*module))
    return nullptr;
  return module;
}

static func::FuncOp firstFunc(ModuleOp m) {
  return *m.getBody()->getOps<func::FuncOp>().begin();
}

/// The least common multiple of the splits `c`'s kernels make of axis
/// `label`: every extent of it a multiple of this keeps each grid and loop
/// division exact.
static int64_t splitsOf(const Candidate &c, uint32_t label) {
  int64_t m = 1;
  for (const SKernel &k : c.prog.kernels)
    m = std::lcm(m, splitOf(k, label));
  return m;
}

/// Reduced extents for the fingerprint of `c`: each axis keeps the least
/// common multiple of the splits its kernels make, times 3, so tiles keep
/// their divisibility and never degenerate to size 1.
static Scale reducedScale(const Target &t, const Candidate &c) {
  Scale s;
  for (auto &[l, n] : t.extent) {
    int64_t m = splitsOf(c, l);
    s[l] = 3 * m < n ? 3 * m : n;
  }
  return s;
}

/// reducedScale where axes of different real extents never share a reduced
/// extent: an axis that would meets the next multiple of its splits (or its
/// real extent), so that a program that counts the elements of two axes
/// cannot pass as a program that does not.
static Scale recheckScale(const Target &t, const Candidate &c) {
  Scale s = reducedScale(t, c);
  SmallVector<uint32_t> labels;
  for (auto &[l, n] : t.extent)
    labels.push_back(l);
  llvm::sort(labels);
  for (size_t i = 0; i < labels.size(); ++i) {
    uint32_t l = labels[i];
    int64_t n = t.extent.lookup(l), step = splitsOf(c, l);
    auto collides = [&] {
      return llvm::any_of(ArrayRef(labels).take_front(i), [&](uint32_t o) {
        return s[o] == s[l] && t.extent.lookup(o) != n;
      });
    };
    while (s[l] < n && collides())
      s[l] = std::min(n, s[l] + step);
  }
  return s;
}

/// Roughly how many element operations evaluating `c` at `s` takes: every
/// block value of every block and trip (a matmul's times its contracted
/// extent), and every pre-defined op's result.
static double evaluationWork(const Candidate &c, const Scale &s) {
  auto elements = [](ArrayRef<int64_t> shape) {
    double n = 1;
    for (int64_t d : shape)
      n *= static_cast<double>(d);
    return n;
  };
  double work = 0;
  for (const SKernelOp &op : c.prog.ops) {
    if (!op.isKernel) {
      if (op.op.result < 0)
        continue;
      double n = elements(kernelShape(c.prog.vals[op.op.result], s));
      if (op.op.kind == Kind::Matmul && !op.op.args.empty())
        n *= static_cast<double>(
            kernelShape(c.prog.vals[op.op.args[0]], s).back());
      work += n;
      continue;
    }
    const SKernel &k = c.prog.kernels[op.kernel];
    double blocks = 1, perTrip = 0;
    for (auto [axis, g] : k.grid)
      blocks *= static_cast<double>(g);
    for (unsigned i = 0; i < k.inputs.size(); ++i)
      perTrip += elements(blockShape(k, k.vals[i], s));
    for (const SOp &bop : k.ops) {
      double n = elements(blockShape(k, k.vals[bop.result], s));
      if (bop.kind == Kind::Matmul && !bop.args.empty())
        n *= static_cast<double>(blockShape(k, k.vals[bop.args[0]], s).back());
      perTrip += n;
    }
    work += blocks * static_cast<double>(k.forloop) * perTrip;
  }
  return work;
}

/// The most element operations one evaluation of the numerics check's
/// instance may take (about a tenth of a second in the interpreter; the
/// check runs ten).
constexpr double kNumericsWork = 3e7;

/// The extents of the numerics check: reducedScale, except that every axis
/// the target reduces (a reduction's, a matmul's contracted, rms_norm's
/// normalised dim) keeps its real extent. Overflow and cancellation depend
/// on the values and on how many of them a sum adds: a program that sums a
/// trip's 256 products in f16 overflows where its reduced instance, with a
/// few, does not (and its sums across the loop add all of them). Where that
/// instance would take more than kNumericsWork (a candidate that recomputes
/// a 4096-long norm in each of 8192 blocks), the reduced axes' tiles halve
/// until it does not, down to reducedScale's.
static Scale numericsScale(const Target &t, const Candidate &c) {
  const Scale floor = reducedScale(t, c);
  Scale s = floor;
  SmallVector<uint32_t> reduced;
  auto keep = [&](int v, int64_t dim) {
    const Labels &labels = t.ref.vals[v].labels;
    if (labels.empty())
      return;
    uint32_t l = labels[dim < 0 ? labels.size() - 1 : dim];
    if (!t.extent.count(l) || llvm::is_contained(reduced, l))
      return;
    s[l] = t.extent.lookup(l);
    reduced.push_back(l);
  };
  for (const SKernelOp &op : t.ref.ops) {
    if (op.isKernel || op.op.args.empty())
      continue;
    switch (op.op.kind) {
    case Kind::ReduceSum:
    case Kind::ReduceMax:
      keep(op.op.args[0], op.op.params.dim);
      break;
    case Kind::Matmul:
    case Kind::RmsNorm:
      keep(op.op.args[0], -1);
      break;
    default:
      break;
    }
  }
  while (evaluationWork(c, s) > kNumericsWork) {
    bool shrunk = false;
    for (uint32_t l : reduced) {
      int64_t m = splitsOf(c, l);
      int64_t tile = std::max<int64_t>(s[l] / m / 2, floor.lookup(l) / m);
      if (tile * m < s[l]) {
        s[l] = tile * m;
        shrunk = true;
      }
    }
    if (!shrunk)
      break;
  }
  return s;
}

/// The equivalence check of `a` and `b` with `tests` finite-field tests and,
/// with `floatCheck`, the f64 comparison; Unknown if `deadline` passes.
static verify::EquivalenceResult
runEquivalence(func::FuncOp a, func::FuncOp b, unsigned tests, uint64_t seed,
               bool floatCheck,
               Clock::time_point deadline = verify::kNoDeadline) {
  verify::EquivalenceOptions options;
  options.deadline = deadline;
  options.numTests = tests;
  options.seed = seed;
  options.floatCheck = floatCheck;
  return verify::checkEquivalence(a, b, options);
}

/// A scalar constant of the target may stand for a shape (1/64 as the scale
/// of a mean over 64 elements), which shrinking the shapes would break: such
/// targets are only checked at the real shapes.
static bool hasSizeLikeConstants(const Target &target) {
  return !target.mulScalars.empty() || !target.addScalars.empty() ||
         !target.clamps.empty();
}

/// The target and `c` at the extents `scale` (the fingerprint's reduced
/// ones by default); false if either does not verify (a candidate the
/// reduction does not fit).
static bool buildReduced(MLIRContext *ctx, const Target &target,
                         const Candidate &c, OwningOpRef<ModuleOp> &refMod,
                         OwningOpRef<ModuleOp> &candMod,
                         std::optional<Scale> scale = std::nullopt) {
  Scale reduced = scale ? std::move(*scale) : reducedScale(target, c);
  refMod = materialize(ctx, target, target.ref, target.refOutputs, reduced,
                       "reference");
  candMod = materialize(ctx, target, c.prog, c.outputs, reduced, "cand");
  return refMod && candMod;
}

/// The reduced-shape fingerprint of `c`: false if it proves `c` differs
/// from the target, true otherwise (including when the reduced instance
/// cannot be built or evaluated: then only the full check decides).
static bool
passesFingerprint(MLIRContext *ctx, const Target &target, const Candidate &c,
                  uint64_t seed,
                  Clock::time_point deadline = verify::kNoDeadline) {
  if (hasSizeLikeConstants(target))
    return true;
  OwningOpRef<ModuleOp> refMod, candMod;
  if (!buildReduced(ctx, target, c, refMod, candMod))
    return true;
  verify::EquivalenceResult r =
      runEquivalence(firstFunc(*refMod), firstFunc(*candMod), /*tests=*/1, seed,
                     /*floatCheck=*/false, deadline);
  return r.verdict != verify::Verdict::NotEquivalent &&
         r.verdict != verify::Verdict::Invalid;
}

/// The check in the kernels' precision: whether `c` is about as accurate as
/// the reference when stored in f16/bf16 (docs/verification.md, numerics).
/// It runs at the reduced shapes of the fingerprint with every reduced axis
/// at its real extent (numericsScale), or at the real shapes for targets
/// whose constants may stand for sizes.
/// Unknown when the deadline stopped it.
static verify::Verdict numericsVerdict(func::FuncOp func, const Target &target,
                                       const Candidate &c, uint64_t seed,
                                       Clock::time_point deadline) {
  MLIRContext *ctx = func.getContext();
  OwningOpRef<ModuleOp> refMod, candMod;
  func::FuncOp ref = func, cand;
  if (!hasSizeLikeConstants(target)) {
    if (!buildReduced(ctx, target, c, refMod, candMod,
                      numericsScale(target, c)))
      return verify::Verdict::Equivalent;
    ref = firstFunc(*refMod);
    cand = firstFunc(*candMod);
  } else {
    candMod =
        materialize(ctx, target, c.prog, c.outputs, target.extent, "cand");
    if (!candMod)
      return verify::Verdict::Equivalent;
    cand = firstFunc(*candMod);
  }
  verify::NumericsOptions options;
  options.deadline = deadline;
  return verify::checkNumerics(ref, cand, options, seed).verdict;
}

/// The check at the real shapes: `tests` finite-field tests and, with
/// `floatCheck`, an f64 comparison that must agree to 1e-6. `cancelled` is
/// set when the deadline stopped the check. `program`, when given, receives
/// the candidate built at the real shapes (the program a search returns).
static std::optional<verify::EquivalenceResult>
passesFullCheck(func::FuncOp func, const Target &target, const Candidate &c,
                unsigned tests, uint64_t seed, bool floatCheck,
                Clock::time_point deadline = verify::kNoDeadline,
                bool *cancelled = nullptr,
                OwningOpRef<ModuleOp> *program = nullptr) {
  OwningOpRef<ModuleOp> fullMod =
      materialize(func.getContext(), target, c.prog, c.outputs, target.extent,
                  "superoptimized");
  if (!fullMod)
    return std::nullopt;
  verify::EquivalenceResult r = runEquivalence(func, firstFunc(*fullMod), tests,
                                               seed, floatCheck, deadline);
  if (cancelled)
    *cancelled =
        r.verdict == verify::Verdict::Unknown && verify::pastDeadline(deadline);
  if (r.verdict != verify::Verdict::Equivalent ||
      (r.floatMaxRelDiff && *r.floatMaxRelDiff > 1e-6))
    return std::nullopt;
  if (program)
    *program = std::move(fullMod);
  return r;
}

verify::Verdict recheckAtReducedShapes(const Target &target, const Candidate &c,
                                       uint64_t seed,
                                       OwningOpRef<ModuleOp> &program) {
  MLIRContext *ctx = target.func->getContext();
  program = materialize(ctx, target, c.prog, c.outputs, target.extent,
                        "superoptimized");
  if (!program || hasSizeLikeConstants(target))
    return verify::Verdict::Unknown;
  OwningOpRef<ModuleOp> refMod, candMod;
  if (!buildReduced(ctx, target, c, refMod, candMod, recheckScale(target, c)))
    return verify::Verdict::Unknown;
  verify::EquivalenceResult r =
      runEquivalence(firstFunc(*refMod), firstFunc(*candMod), /*tests=*/1, seed,
                     /*floatCheck=*/false);
  if (r.verdict == verify::Verdict::Equivalent ||
      r.verdict == verify::Verdict::NotEquivalent)
    return r.verdict;
  return verify::Verdict::Unknown;
}

LogicalResult checkTargetDecidable(const Target &target, uint64_t seed,
                                   std::string &error) {
  Scale tiny;
  for (auto &[l, n] : target.extent)
    tiny[l] = std::min<int64_t>(n, 3);
  OwningOpRef<ModuleOp> m =
      materialize(target.func->getContext(), target, target.ref,
                  target.refOutputs, tiny, "target");
  if (!m)
    return success();
  verify::EquivalenceResult self =
      runEquivalence(firstFunc(*m), firstFunc(*m), /*tests=*/1, seed,
                     /*floatCheck=*/false);
  if (self.verdict == verify::Verdict::Unknown ||
      self.verdict == verify::Verdict::Invalid) {
    error = "the equivalence verifier cannot decide this function (" +
            self.reason + "), so no candidate could be verified";
    return failure();
  }
  return success();
}

void auditFingerprints(func::FuncOp func, const Target &target,
                       const SuperoptimizeOptions &options,
                       ArrayRef<Candidate> candidates,
                       SuperoptimizeStats &stats) {
  const Candidate *previous = nullptr;
  for (const Candidate &c : candidates) {
    if (stats.audited >= options.auditFingerprints)
      return;
    if (previous && sameProgram(*previous, c))
      continue;
    previous = &c;
    ++stats.audited;
    bool cheap = passesFingerprint(func.getContext(), target, c, options.seed);
    bool full =
        passesFullCheck(func, target, c, 1, options.seed, false).has_value();
    stats.auditCheapRejects += !cheap;
    stats.auditFullRejects += !full;
    stats.auditFalseRejects += !cheap && full;
  }
}

void verifyInOrder(func::FuncOp func, const Target &target,
                   const SuperoptimizeOptions &options,
                   ArrayRef<Candidate> candidates, Clock::time_point deadline,
                   SuperoptimizeResult &result) {
  SuperoptimizeStats &stats = result.stats;
  const Candidate *previous = nullptr;
  // Candidates i and later are not checked (a check that the deadline
  // stopped did not decide its candidate).
  auto stopAt = [&](size_t i) {
    for (size_t j = i; j < candidates.size(); ++j)
      stats.unchecked +=
          j == i || !sameProgram(candidates[j], candidates[j - 1]);
    stats.timedOut = true;
    if (stats.budgetStop == BudgetStop::None)
      stats.budgetStop = BudgetStop::Verification;
  };
  for (auto [i, c] : llvm::enumerate(candidates)) {
    if (previous && sameProgram(*previous, c))
      continue;
    previous = &c;
    if (verify::pastDeadline(deadline))
      return stopAt(i);
    ++stats.fingerprinted;
    if (!passesFingerprint(func.getContext(), target, c, options.seed,
                           deadline)) {
      ++stats.fingerprintRejected;
      continue;
    }
    ++stats.fullChecks;
    bool cancelled = false;
    OwningOpRef<ModuleOp> program;
    std::optional<verify::EquivalenceResult> r =
        passesFullCheck(func, target, c, options.finalTests, options.seed,
                        /*floatCheck=*/true, deadline, &cancelled, &program);
    if (cancelled)
      return stopAt(i);
    if (!r)
      continue;
    if (options.numerics) {
      verify::Verdict v =
          numericsVerdict(func, target, c, options.seed, deadline);
      if (v == verify::Verdict::Unknown && verify::pastDeadline(deadline))
        return stopAt(i);
      if (v == verify::Verdict::Inaccurate) {
        if (!stats.numericsRejected++)
          stats.firstNumericsRejected = summarize(c.prog);
        continue;
      }
    }
    ++stats.verified;
    result.program = ProgramModule(std::move(program));
    result.structure.assign(c.key().begin(), c.key().end());
    result.kernels = c.kernels;
    result.modelledMicros = c.micros;
    result.measured = c.measured;
    result.summary =
        c.prog.ops.empty() ? "the identity (no ops)" : summarize(c.prog);
    result.floatMaxRelDiff = r->floatMaxRelDiff.value_or(0.0);
    result.log10Bound = r->log10Bound;
    return;
  }
}

} // namespace mirage::search::detail
