//===- Buffers.cpp - Argument buffers and output comparison ---------------===//

#include "Buffers.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mirage;
using namespace mirage::run;

namespace {

uint16_t toHalfBits(float x, Type elem) {
  const llvm::fltSemantics &sem =
      elem.isF16() ? llvm::APFloat::IEEEhalf() : llvm::APFloat::BFloat();
  llvm::APFloat f(x);
  bool lost;
  f.convert(sem, llvm::APFloat::rmNearestTiesToEven, &lost);
  return static_cast<uint16_t>(f.bitcastToAPInt().getZExtValue());
}

/// f16/bf16 bits to float through a table (outputs can have 2^24 elements).
float fromHalfBits(uint16_t bits, Type elem) {
  static std::vector<float> f16Table, bf16Table;
  std::vector<float> &table = elem.isF16() ? f16Table : bf16Table;
  if (table.empty()) {
    const llvm::fltSemantics &sem =
        elem.isF16() ? llvm::APFloat::IEEEhalf() : llvm::APFloat::BFloat();
    table.resize(65536);
    for (unsigned i = 0; i < 65536; ++i)
      table[i] = llvm::APFloat(sem, llvm::APInt(16, i)).convertToFloat();
  }
  return table[bits];
}

} // namespace

/// Appends the red zone to `b`'s bytes.
static void addRedZone(Buffer &b) {
  b.bytes.insert(b.bytes.end(), kRedZoneBytes, kRedZoneCanary);
}

bool mirage::run::writesPastTheEnd(const Buffer &b) {
  return b.bytes.size() < kRedZoneBytes ||
         !std::all_of(b.bytes.end() - kRedZoneBytes, b.bytes.end(),
                      [](uint8_t v) { return v == kRedZoneCanary; });
}

/// Fills `buf` with `t` (already rounded to the element type).
Buffer mirage::run::makeBuffer(const verify::FloatTensor &t, Type elem) {
  Buffer b;
  b.elem = elem;
  b.shape.assign(t.shape.begin(), t.shape.end());
  b.width = elem.isIndex() ? 8 : (elem.getIntOrFloatBitWidth() + 7) / 8;
  int64_t n = verify::FloatTensor::numElementsOf(b.shape);
  b.bytes.assign(n * b.width, 0);
  for (int64_t i = 0; i < static_cast<int64_t>(t.data.size()); ++i) {
    if (!isa<FloatType>(elem)) {
      // Integers (i1 as a byte) and index: the value, little-endian.
      int64_t v = static_cast<int64_t>(t.data[i]);
      std::memcpy(&b.bytes[i * b.width], &v, b.width);
      continue;
    }
    if (b.width == 8) {
      std::memcpy(&b.bytes[i * 8], &t.data[i], 8);
      continue;
    }
    float v = static_cast<float>(t.data[i]);
    if (b.width == 2) {
      uint16_t h = toHalfBits(v, elem);
      std::memcpy(&b.bytes[i * 2], &h, 2);
    } else {
      std::memcpy(&b.bytes[i * 4], &v, 4);
    }
  }
  addRedZone(b);
  return b;
}

Buffer mirage::run::zeroBuffer(ArrayRef<int64_t> shape, Type elem) {
  Buffer b;
  b.elem = elem;
  b.shape.assign(shape.begin(), shape.end());
  b.width = elem.isIndex() ? 8 : (elem.getIntOrFloatBitWidth() + 7) / 8;
  b.bytes.assign(verify::FloatTensor::numElementsOf(b.shape) * b.width, 0);
  addRedZone(b);
  return b;
}

double mirage::run::readElement(const Buffer &b, int64_t i) {
  const uint8_t *p = &b.bytes[i * b.width];
  if (isa<FloatType>(b.elem)) {
    if (b.width == 2) {
      uint16_t h;
      std::memcpy(&h, p, 2);
      return fromHalfBits(h, b.elem);
    }
    if (b.width == 8) {
      double v;
      std::memcpy(&v, p, 8);
      return v;
    }
    float v;
    std::memcpy(&v, p, 4);
    return v;
  }
  // Integers (i1 as a byte) and index, sign-extended.
  int64_t v = 0;
  std::memcpy(&v, p, b.width);
  unsigned bits = b.elem.isIndex() ? 64 : b.elem.getIntOrFloatBitWidth();
  if (bits < 64)
    v = llvm::SignExtend64(v, bits);
  return static_cast<double>(v);
}

verify::FloatTensor mirage::run::readBuffer(const Buffer &b) {
  verify::FloatTensor t(b.shape, 0.0);
  for (int64_t i = 0; i < t.numElements(); ++i)
    t.data[i] = readElement(b, i);
  return t;
}

/// Tolerance of an output element type: |got - ref| <= rel * |ref| +
/// abs * scale, where scale is the RMS of the reference output (so that
/// cancellation near zero is measured against the output's magnitude).
namespace {

struct Tolerance {
  double rel, abs;
};
Tolerance toleranceFor(Type elem) {
  if (elem.isF16())
    return {1e-2, 1e-2};
  if (elem.isBF16())
    return {5e-2, 5e-2};
  // f64: a reference of another order of operations (sums, libm's
  // functions) in f64; an ill-conditioned element is judged by its
  // rounding estimate (compareOutputs).
  if (elem.isF64())
    return {1e-6, 1e-6};
  return {1e-4, 1e-5};
}

} // namespace

Type mirage::run::narrowestStorage(Value result) {
  bool f16 = false, bf16 = false;
  auto see = [&](Type t) {
    if (auto rt = dyn_cast<RankedTensorType>(t)) {
      bf16 |= rt.getElementType().isBF16();
      f16 |= rt.getElementType().isF16();
    }
  };
  see(result.getType());
  SetVector<Operation *> slice;
  BackwardSliceOptions options;
  options.omitUsesFromAbove = false;
  (void)getBackwardSlice(result, &slice, options);
  for (Operation *producer : slice)
    producer->walk([&](Operation *op) {
      for (Type t : llvm::concat<const Type>(op->getOperandTypes(),
                                             op->getResultTypes()))
        see(t);
    });
  Builder b(result.getContext());
  return bf16 ? Type(b.getBF16Type()) : f16 ? Type(b.getF16Type()) : Type();
}

int mirage::run::fail(const llvm::Twine &msg) {
  llvm::errs() << "mirage-run: " << msg << "\n";
  return 1;
}

std::string mirage::run::typeName(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

namespace {

/// NaN on both sides, or infinities of the same sign. The sign of a NaN is
/// not compared: IEEE 754 leaves it unspecified (x86 produces the negative
/// default NaN, so both sides often print "-nan", but not always).
bool sameNonFinite(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::isnan(a) && std::isnan(b);
  return std::isinf(a) && a == b;
}

} // namespace

/// Compares every output with the reference and prints the report; false on
/// a mismatch.
bool mirage::run::compareOutputs(ArrayRef<Buffer> outBufs,
                                 ArrayRef<verify::FloatTensor> reference,
                                 double tolScale, double &maxAbs,
                                 double &maxRel,
                                 const ComparisonAids &aids) {
  ArrayRef<verify::FloatTensor> f32Reference = aids.f32Reference;
  double roundingScale = aids.roundingScale;
  bool ok = true;
  maxAbs = maxRel = 0;
  for (auto [o, b] : llvm::enumerate(outBufs)) {
    const auto &ref = reference[o];
    Tolerance tol = toleranceFor(b.elem);
    if (o < aids.storage.size() && aids.storage[o]) {
      Tolerance narrow = toleranceFor(aids.storage[o]);
      tol = {std::max(tol.rel, narrow.rel), std::max(tol.abs, narrow.abs)};
    }
    // The RMS of the finite reference elements.
    double ss = 0;
    int64_t finite = 0;
    for (double v : ref.data)
      if (std::isfinite(v)) {
        ss += v * v;
        ++finite;
      }
    double scale = finite ? std::sqrt(ss / finite) : 1.0;
    if (!(scale > 0) || !std::isfinite(scale))
      scale = 1.0;
    int64_t bad = 0, firstBad = -1, agree = 0, firstAgree = -1, overflow = 0,
            firstOverflow = -1, illConditioned = 0, firstIll = -1,
            sensitive = 0, firstSensitive = -1, overflowWide = 0,
            firstOverflowWide = -1;
    double firstMoved = 0, firstWide = 0;
    // The f32 rounding error of the reference in f32, per row (the last
    // dim): one sample of rounding per element can be small by chance where
    // its neighbours, computed from the same rows of the inputs, show the
    // size of the rounding (a dot product's error scales with the sum of
    // its terms' magnitudes, alike along a row).
    int64_t rowLength = ref.shape.empty() ? 1 : std::max<int64_t>(
                                                    ref.shape.back(), 1);
    std::vector<double> rowF32Err(
        (ref.numElements() + rowLength - 1) / rowLength, 0.0);
    if (o < f32Reference.size())
      for (int64_t i = 0; i < ref.numElements(); ++i) {
        double e = std::fabs(f32Reference[o].data[i] - ref.data[i]);
        if (std::isfinite(e))
          rowF32Err[i / rowLength] = std::max(rowF32Err[i / rowLength], e);
      }
    double outAbs = 0, outRel = 0;
    for (int64_t i = 0; i < ref.numElements(); ++i) {
      double got = readElement(b, i), want = ref.data[i];
      if (sameNonFinite(got, want)) {
        if (firstAgree < 0)
          firstAgree = i;
        ++agree;
        continue;
      }
      double err = std::fabs(got - want);
      double lim = tolScale * (tol.rel * std::fabs(want) + tol.abs * scale);
      if (!std::isfinite(got) && std::isfinite(want) && roundingScale == 1.0) {
        if (o < f32Reference.size() &&
            !std::isfinite(f32Reference[o].data[i])) {
          if (firstOverflow < 0)
            firstOverflow = i;
          ++overflow;
          continue;
        }
        const std::vector<Buffer> *wide =
            aids.outputsInF64 ? aids.outputsInF64() : nullptr;
        double inF64 = wide && o < wide->size() ? readElement((*wide)[o], i)
                                                : NAN;
        if (std::fabs(inF64 - want) <= lim) {
          if (firstOverflowWide < 0) {
            firstOverflowWide = i;
            firstWide = inF64;
          }
          ++overflowWide;
          continue;
        }
      }
      double inF32 = o < f32Reference.size() ? f32Reference[o].data[i] : NAN;
      double f32Err = roundingScale * std::max(std::fabs(inF32 - want),
                                               rowF32Err[i / rowLength]);
      // Not finite in f64 only, or of another non-finite kind there, where
      // the import in f32 has the output's kind: f32 rounding decides (a
      // variance that rounds to a small negative or positive value under
      // rsqrt); there is no real value to compare with.
      bool roundingDecides =
          !std::isfinite(want) && o < f32Reference.size() &&
          (std::isfinite(got) ? std::isfinite(inF32)
                              : sameNonFinite(got, inF32));
      // Moved out of tolerance, or to another kind, by a perturbation of
      // the inputs far below the tolerance: ill-conditioned here.
      bool sensitiveHere = false;
      for (unsigned k = 0; aids.perturbedReference && !(err <= lim) &&
                           !sensitiveHere && k < kPerturbations;
           ++k) {
        const std::vector<verify::FloatTensor> *p = aids.perturbedReference(k);
        if (!p || o >= p->size())
          break;
        double moved = (*p)[o].data[i];
        sensitiveHere = !sameNonFinite(moved, want) &&
                        !(std::fabs(moved - want) <= lim);
        if (sensitiveHere && firstSensitive < 0) {
          firstSensitive = i;
          firstMoved = moved;
        }
      }
      if (sensitiveHere) {
        ++sensitive;
      } else if (roundingDecides ||
          (!(err <= lim) && std::isfinite(got) && f32Err > lim &&
           err <= kIllConditionedFactor * f32Err + lim)) {
        if (firstIll < 0)
          firstIll = i;
        ++illConditioned;
      } else if (!(err <= lim)) {
        if (firstBad < 0)
          firstBad = i;
        ++bad;
      }
      if (std::isfinite(err)) {
        outAbs = std::max(outAbs, err);
        outRel = std::max(outRel, err / std::max(std::fabs(want), scale));
      } else {
        outAbs = outRel = INFINITY;
      }
    }
    llvm::outs() << "output " << o << " (" << typeName(b.elem) << ", "
                 << ref.numElements() << " elements): max abs err "
                 << llvm::format("%.3e", outAbs) << ", max rel err "
                 << llvm::format("%.3e", outRel) << " (tolerance rel "
                 << llvm::format("%g", tol.rel * tolScale) << ", abs "
                 << llvm::format("%g", tol.abs * tolScale) << " x rms "
                 << llvm::format("%.3e", scale) << ")\n";
    auto where = [&](int64_t i) {
      return "element " + std::to_string(i) + " " +
             verify::formatIndex(verify::delinearize(i, ref.shape));
    };
    if (agree)
      llvm::outs() << "output " << o << ": " << agree << " of "
                   << ref.numElements()
                   << " elements are NaN or inf on both sides (agree; first "
                   << where(firstAgree) << ": "
                   << llvm::format("%g", ref.data[firstAgree]) << ")\n";
    // A NOTE line: the first element of its kind, what the output and the
    // reference are there and what `which` (an aid) gives, why it is not a
    // mismatch, and how many elements are of the kind.
    size_t output = o;
    const Buffer &outBuf = b;
    auto note = [&](int64_t first, const char *gotFormat, double which,
                    const char *whichFormat, const std::string &why,
                    int64_t count, StringRef detail = "") {
      llvm::outs() << "NOTE output " << output << " " << where(first)
                   << ": got "
                   << llvm::format(gotFormat, readElement(outBuf, first))
                   << ", expected " << llvm::format("%.6g", ref.data[first])
                   << ", which is " << llvm::format(whichFormat, which) << " "
                   << why << " (" << count << " of " << ref.numElements()
                   << " elements" << detail
                   << "; not counted as a mismatch)\n";
    };
    if (overflow)
      note(firstOverflow, "%g", f32Reference[o].data[firstOverflow], "%g",
           "in f32: the computation overflows in f32", overflow);
    if (overflowWide)
      note(firstOverflowWide, "%g", firstWide, "%.6g",
           "computed in f64: an intermediate overflows in f32", overflowWide);
    if (illConditioned) {
      std::string detail;
      llvm::raw_string_ostream os(detail);
      os << " where " << typeName(b.elem)
         << " rounding accounts for the difference: within "
         << llvm::format("%g", kIllConditionedFactor) << "x its own error"
         << (roundingScale == 1.0 ? ""
                                  : " (the import's f32 error times the "
                                    "ratio of the precisions)")
         << ", or not finite in f64 only";
      note(firstIll, "%.6g", f32Reference[o].data[firstIll], "%.6g",
           "in f32: ill-conditioned in " + typeName(b.elem), illConditioned,
           detail);
    }
    if (sensitive) {
      std::string why;
      llvm::raw_string_ostream os(why);
      os << "on inputs moved by " << llvm::format("%g", kInputPerturbation)
         << " relative: ill-conditioned at these inputs";
      note(firstSensitive, "%.6g", firstMoved, "%.6g", why, sensitive);
    }
    if (bad) {
      ok = false;
      llvm::outs() << "MISMATCH output " << o << " " << where(firstBad)
                   << ": got " << llvm::format("%.6g", readElement(b, firstBad))
                   << ", expected " << llvm::format("%.6g", ref.data[firstBad])
                   << " (" << bad << " of " << ref.numElements()
                   << " elements out of "
                   << "tolerance)\n";
    }
    maxAbs = std::max(maxAbs, outAbs);
    maxRel = std::max(maxRel, outRel);
  }
  return ok;
}

std::vector<verify::FloatTensor>
mirage::run::perturbInputs(ArrayRef<verify::FloatTensor> inputs,
                           ArrayRef<bool> isFloat, uint64_t seed) {
  std::vector<verify::FloatTensor> out(inputs.begin(), inputs.end());
  uint64_t state = seed ^ 0x9e3779b97f4a7c15ULL;
  for (auto [i, t] : llvm::enumerate(out)) {
    if (i < isFloat.size() && !isFloat[i])
      continue;
    for (double &v : t.data) {
      // xorshift64: one random sign per element.
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
      v *= (state & 1) ? 1 + kInputPerturbation : 1 - kInputPerturbation;
    }
  }
  return out;
}

/// Expanded memref descriptor of a row-major buffer at `ptr`: allocated
/// pointer, aligned pointer, offset, sizes, strides.
std::vector<int64_t> mirage::run::descriptor(void *ptr,
                                             ArrayRef<int64_t> shape) {
  int64_t p = reinterpret_cast<int64_t>(ptr);
  std::vector<int64_t> d = {p, p, 0};
  d.insert(d.end(), shape.begin(), shape.end());
  SmallVector<int64_t, 4> strides(shape.size(), 1);
  for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  d.insert(d.end(), strides.begin(), strides.end());
  return d;
}

double mirage::run::msSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - t0)
      .count();
}
