//===- Field.cpp - Finite-field arithmetic for uGraph verification --------===//
//
// Residue arithmetic, batch inversion, the per-test random choices and the
// exact field images of real constants.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Verify/Field.h"

#include "Lanes.h"

#include <cmath>
#include <cstring>

using namespace mirage::verify;

static_assert(kFieldP % 4 == 3 && kFieldQ % 4 == 3,
              "sqrt as x^((m+1)/4) needs m = 3 mod 4");
static_assert((kFieldP - 1) % kFieldQ == 0, "q must divide p - 1");
static_assert(kFieldQ >= (1ULL << 31) && kFieldQ < kUndefinedQ,
              "q must be at least 2^31 and leave room for the undefined mark");
static_assert(kFieldP < (1ULL << 52), "lazy dot products need p < 2^52");

std::string FieldValue::str() const {
  std::string s = "(" + std::to_string(p) + ", ";
  s += hasQ() ? std::to_string(q) : std::string("undef");
  return s + ")";
}

uint64_t mirage::verify::powModP(uint64_t base, uint64_t e) {
  uint64_t result = 1;
  base %= kFieldP;
  while (e) {
    if (e & 1)
      result = mulModP(result, base);
    base = mulModP(base, base);
    e >>= 1;
  }
  return result;
}

uint32_t mirage::verify::powModQ(uint32_t base, uint64_t e) {
  uint32_t result = 1;
  base %= kFieldQ;
  while (e) {
    if (e & 1)
      result = mulModQ(result, base);
    base = mulModQ(base, base);
    e >>= 1;
  }
  return result;
}

uint64_t mirage::verify::invModP(uint64_t a) { return powModP(a, kFieldP - 2); }
uint32_t mirage::verify::invModQ(uint32_t a) { return powModQ(a, kFieldQ - 2); }
uint64_t mirage::verify::sqrtModP(uint64_t a) {
  return powModP(a, (kFieldP + 1) / 4);
}
uint32_t mirage::verify::sqrtModQ(uint32_t a) {
  return powModQ(a, (kFieldQ + 1) / 4);
}

FieldValue mirage::verify::fieldFromInt(int64_t v) {
  uint64_t mag = v < 0 ? 0 - static_cast<uint64_t>(v) : v;
  FieldValue r{mag % kFieldP, static_cast<uint32_t>(mag % kFieldQ)};
  return v < 0 ? fieldNeg(r) : r;
}

FieldValue mirage::verify::fieldInv(FieldValue x) {
  FieldValue r;
  r.p = invModP(x.p);
  r.q = x.hasQ() && x.q != 0 ? invModQ(x.q) : kUndefinedQ;
  return r;
}

FieldValue mirage::verify::fieldSqrt(FieldValue x) {
  return {sqrtModP(x.p), x.hasQ() ? sqrtModQ(x.q) : kUndefinedQ};
}

int64_t mirage::verify::fieldInvertAll(FieldValue *values, size_t n) {
  if (n == 0)
    return -1;
  // Prefix products, separately per component; a zero q component is skipped
  // (its inverse is left undefined) so it cannot poison the others.
  std::vector<uint64_t> prefP(n);
  std::vector<uint32_t> prefQ(n);
  uint64_t accP = 1;
  uint32_t accQ = 1;
  for (size_t i = 0; i < n; ++i) {
    if (values[i].p == 0)
      return static_cast<int64_t>(i);
    prefP[i] = accP;
    accP = mulModP(accP, values[i].p);
    prefQ[i] = accQ;
    if (values[i].hasQ() && values[i].q != 0)
      accQ = mulModQ(accQ, values[i].q);
  }
  uint64_t invP = invModP(accP);
  uint32_t invQ = invModQ(accQ);
  for (size_t i = n; i-- > 0;) {
    FieldValue &v = values[i];
    uint64_t newP = mulModP(invP, prefP[i]);
    invP = mulModP(invP, v.p);
    if (v.hasQ() && v.q != 0) {
      uint32_t newQ = mulModQ(invQ, prefQ[i]);
      invQ = mulModQ(invQ, v.q);
      v.q = newQ;
    } else {
      v.q = kUndefinedQ;
    }
    v.p = newP;
  }
  return -1;
}

FieldTest::FieldTest(uint64_t seed) {
  SplitMix64 rng(seed ^ 0x6D69726167652D66ULL);
  // omega = g^((p-1)/q) has order exactly q unless it is 1, because q is
  // prime; a uniformly random g gives a uniformly random element of order q.
  do
    omega = powModP(2 + rng.below(kFieldP - 2), (kFieldP - 1) / kFieldQ);
  while (omega == 1);
  expLo.resize(1 << 16);
  expHi.resize(1 << 16);
  uint64_t step = powModP(omega, 1 << 16);
  expLo[0] = expHi[0] = 1;
  for (size_t i = 1; i < expLo.size(); ++i) {
    expLo[i] = mulModP(expLo[i - 1], omega);
    expHi[i] = mulModP(expHi[i - 1], step);
  }
  sqrt2OverPi = randomValue(rng);
  orderSeed = rng.next();
  powKey = rng.next();
  constantKey = rng.next();
}

FieldValue FieldTest::constant(double c) const {
  if (std::optional<FieldValue> exact = exactFieldImage(c))
    return *exact;
  if (!std::isfinite(c))
    return {0, 0};
  double mag = std::fabs(c);
  uint64_t bits;
  std::memcpy(&bits, &mag, sizeof(bits));
  uint64_t h = mix64(bits ^ constantKey);
  FieldValue r{mix64(h) % kFieldP, static_cast<uint32_t>(h % kFieldQ)};
  return c < 0 ? fieldNeg(r) : r;
}

/// Field image of n / d (d > 0).
static FieldValue fromRatio(int64_t n, int64_t d) {
  return fieldMul(fieldFromInt(n), fieldInv(fieldFromInt(d)));
}

std::optional<FieldValue> mirage::verify::exactFieldImage(double c) {
  if (c == 0.0)
    return FieldValue{0, 0};
  if (!std::isfinite(c))
    return std::nullopt;
  double mag = std::fabs(c);
  // Continued-fraction convergents h/k of |c|, stopping at the first one
  // within a relative 1e-15 (decimal literals such as 1e-6 land on their
  // intended rational) while both terms stay small.
  constexpr double kMaxTerm = static_cast<double>(kMaxExactConstantTerm);
  double x = mag;
  double h0 = 1, h1 = 0, k0 = 0, k1 = 1; // h_{-1}, h_{-2}, k_{-1}, k_{-2}
  for (int iter = 0; iter < 64; ++iter) {
    double a = std::floor(x);
    double h = a * h0 + h1, k = a * k0 + k1;
    if (h >= kMaxTerm || k >= kMaxTerm)
      return std::nullopt;
    if (std::fabs(h / k - mag) <= 1e-15 * mag) {
      if (h * k >= static_cast<double>(kMaxExactConstantHeight))
        return std::nullopt;
      FieldValue r =
          fromRatio(static_cast<int64_t>(h), static_cast<int64_t>(k));
      return c < 0 ? fieldNeg(r) : r;
    }
    h1 = h0;
    h0 = h;
    k1 = k0;
    k0 = k;
    double frac = x - a;
    if (frac <= 0)
      return std::nullopt;
    x = 1.0 / frac;
  }
  return std::nullopt;
}

#if MIRAGE_HAVE_X86
/// FieldTest::expAll eight values at a time: the two table entries of each
/// exponent are gathered, and their product is taken lane-wise.
MIRAGE_TARGET_IFMA_FN static void expAllLanes(const uint64_t *lo,
                                              const uint64_t *hi,
                                              const FieldValue *x,
                                              FieldValue *out, int64_t n) {
  const detail::LaneModulus modP{
      _mm512_set1_epi64(static_cast<int64_t>(kFieldP)),
      _mm512_set1_pd(1.0 / static_cast<double>(kFieldP))};
  const __m512i low16 = _mm512_set1_epi64(0xFFFF);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    alignas(64) uint64_t e[8], p[8];
    for (int j = 0; j < 8; ++j)
      e[j] = x[i + j].q;
    __m512i ev = _mm512_load_si512(e);
    __m512i a = _mm512_i64gather_epi64(_mm512_and_si512(ev, low16), lo, 8);
    __m512i b = _mm512_i64gather_epi64(_mm512_srli_epi64(ev, 16), hi, 8);
    _mm512_store_si512(p, detail::mulModPLanes(a, b, modP));
    for (int j = 0; j < 8; ++j)
      out[i + j] = {p[j], kUndefinedQ};
  }
  for (; i < n; ++i)
    out[i] = {mulModP(lo[x[i].q & 0xFFFF], hi[x[i].q >> 16]), kUndefinedQ};
}
#endif

void FieldTest::expAll(const FieldValue *x, FieldValue *out, int64_t n) const {
#if MIRAGE_HAVE_X86
  if (detail::cpuHasIfma())
    return expAllLanes(expLo.data(), expHi.data(), x, out, n);
#endif
  for (int64_t i = 0; i < n; ++i)
    out[i] = {omegaPow(x[i].q), kUndefinedQ};
}
