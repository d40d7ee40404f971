//===- Field.h - Finite-field arithmetic for uGraph verification -*- C++
//-*-===//
//
// The value domain of the finite-field evaluator (DESIGN §4): a value is a
// pair (a mod p, b mod q) of residues for primes q | p - 1. Addition,
// subtraction, multiplication and division act on both components;
// exp(x) = omega^(b) mod p for an element omega of multiplicative order q, so
// exp(x + y) = exp(x) * exp(y) holds exactly; after an exp the q component is
// undefined. See docs/verification.md for the choice of primes and the
// probability bound.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_VERIFY_FIELD_H
#define MIRAGE_VERIFY_FIELD_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mirage::verify {

/// The prime of the exponent component: q >= 2^31, q = 3 mod 4.
constexpr uint64_t kFieldQ = 2147483659ULL;
/// The prime of the value component: p = k * q + 1 with k = 524382, about
/// 2^50, p = 3 mod 4. p < 2^52 lets a dot product accumulate up to 2^24
/// unreduced products in an unsigned __int128 and reduce once.
constexpr uint64_t kFieldP = 524382ULL * kFieldQ + 1;
/// Marks a q component that is undefined (the value went through an exp).
/// Never a residue because q < 2^32 - 1.
constexpr uint32_t kUndefinedQ = 0xFFFFFFFFu;

using uint128_t = unsigned __int128;

/// An element of the product domain Z_p x Z_q, with the q part possibly
/// undefined.
struct FieldValue {
  uint64_t p = 0;
  uint32_t q = 0;

  bool hasQ() const { return q != kUndefinedQ; }
  bool operator==(const FieldValue &o) const { return p == o.p && q == o.q; }
  bool operator!=(const FieldValue &o) const { return !(*this == o); }
  /// Renders as "(a, b)" or "(a, undef)".
  std::string str() const;
};

//===----------------------------------------------------------------------===//
// Residue arithmetic. Arguments are reduced residues.
//===----------------------------------------------------------------------===//

inline uint64_t addModP(uint64_t a, uint64_t b) {
  uint64_t s = a + b;
  return s >= kFieldP ? s - kFieldP : s;
}
inline uint64_t subModP(uint64_t a, uint64_t b) {
  return a >= b ? a - b : a + kFieldP - b;
}
/// a * b mod p without a 128-bit division: the quotient is estimated in
/// double precision. a, b < 2^51 are exact doubles, so the estimate of
/// a*b/p < 2^51 is off by at most 2, and the remainder computed in wrapping
/// 64-bit arithmetic lies in (-3p, 3p), where one or two corrections land it.
inline uint64_t mulModP(uint64_t a, uint64_t b) {
  constexpr double kInvP = 1.0 / static_cast<double>(kFieldP);
  uint64_t quot = static_cast<uint64_t>(static_cast<double>(a) *
                                        static_cast<double>(b) * kInvP);
  int64_t r = static_cast<int64_t>(a * b - quot * kFieldP);
  while (r < 0)
    r += static_cast<int64_t>(kFieldP);
  while (r >= static_cast<int64_t>(kFieldP))
    r -= static_cast<int64_t>(kFieldP);
  return static_cast<uint64_t>(r);
}
inline uint64_t negModP(uint64_t a) { return a == 0 ? 0 : kFieldP - a; }
/// a mod p for any 64-bit a, with the same quotient estimate as mulModP
/// (a / p < 2^14, so the estimate is off by at most 1).
inline uint64_t reduceModP(uint64_t a) {
  constexpr double kInvP = 1.0 / static_cast<double>(kFieldP);
  uint64_t quot = static_cast<uint64_t>(static_cast<double>(a) * kInvP);
  int64_t r = static_cast<int64_t>(a - quot * kFieldP);
  if (r < 0)
    r += static_cast<int64_t>(kFieldP);
  if (r >= static_cast<int64_t>(kFieldP))
    r -= static_cast<int64_t>(kFieldP);
  return static_cast<uint64_t>(r);
}
/// a mod p for a 128-bit sum of products (what a dot product accumulates),
/// without a 128-bit division: a = hi * 2^64 + lo.
inline uint64_t reduceModP(uint128_t a) {
  constexpr uint64_t k2To64ModP =
      static_cast<uint64_t>((static_cast<uint128_t>(1) << 64) % kFieldP);
  uint64_t hi = reduceModP(static_cast<uint64_t>(a >> 64));
  return addModP(mulModP(hi, k2To64ModP), reduceModP(static_cast<uint64_t>(a)));
}

inline uint32_t addModQ(uint32_t a, uint32_t b) {
  uint64_t s = static_cast<uint64_t>(a) + b;
  return static_cast<uint32_t>(s >= kFieldQ ? s - kFieldQ : s);
}
inline uint32_t subModQ(uint32_t a, uint32_t b) {
  return a >= b ? a - b : static_cast<uint32_t>(a + kFieldQ - b);
}
inline uint32_t mulModQ(uint32_t a, uint32_t b) {
  return static_cast<uint32_t>((static_cast<uint64_t>(a) * b) % kFieldQ);
}
inline uint32_t negModQ(uint32_t a) {
  return a == 0 ? 0 : static_cast<uint32_t>(kFieldQ - a);
}
/// a mod q for a 128-bit sum of products, without a 128-bit division.
inline uint32_t reduceModQ(uint128_t a) {
  constexpr uint64_t k2To64ModQ =
      static_cast<uint64_t>((static_cast<uint128_t>(1) << 64) % kFieldQ);
  uint64_t hi = static_cast<uint64_t>(a >> 64) % kFieldQ;
  uint64_t lo = static_cast<uint64_t>(a) % kFieldQ;
  return static_cast<uint32_t>((hi * k2To64ModQ + lo) % kFieldQ);
}

/// base^e mod p.
uint64_t powModP(uint64_t base, uint64_t e);
/// base^e mod q.
uint32_t powModQ(uint32_t base, uint64_t e);
/// Multiplicative inverse mod p; `a` must be non-zero.
uint64_t invModP(uint64_t a);
/// Multiplicative inverse mod q; `a` must be non-zero.
uint32_t invModQ(uint32_t a);
/// The fixed multiplicative "square root" a^((p+1)/4) mod p: a true square
/// root for quadratic residues, and sqrt(x*y) = sqrt(x)*sqrt(y) always.
uint64_t sqrtModP(uint64_t a);
/// a^((q+1)/4) mod q, the q-component counterpart of sqrtModP.
uint32_t sqrtModQ(uint32_t a);

/// The field image of a signed integer.
FieldValue fieldFromInt(int64_t v);

//===----------------------------------------------------------------------===//
// Value arithmetic. The q component of a result is undefined when an operand's
// is; q-component division by zero also leaves it undefined, because only an
// exp reads it (and then reports leaving the fragment).
//===----------------------------------------------------------------------===//

inline FieldValue fieldAdd(FieldValue x, FieldValue y) {
  return {addModP(x.p, y.p),
          x.hasQ() && y.hasQ() ? addModQ(x.q, y.q) : kUndefinedQ};
}
inline FieldValue fieldSub(FieldValue x, FieldValue y) {
  return {subModP(x.p, y.p),
          x.hasQ() && y.hasQ() ? subModQ(x.q, y.q) : kUndefinedQ};
}
inline FieldValue fieldMul(FieldValue x, FieldValue y) {
  return {mulModP(x.p, y.p),
          x.hasQ() && y.hasQ() ? mulModQ(x.q, y.q) : kUndefinedQ};
}
inline FieldValue fieldNeg(FieldValue x) {
  return {negModP(x.p), x.hasQ() ? negModQ(x.q) : kUndefinedQ};
}
/// Inverse of both components. Requires x.p != 0.
FieldValue fieldInv(FieldValue x);
/// The multiplicative square root of both components.
FieldValue fieldSqrt(FieldValue x);

/// Inverts `n` elements in place with one modular inversion (Montgomery's
/// trick). Returns the index of the first element whose p component is zero,
/// or -1 on success (the elements are then all inverted).
int64_t fieldInvertAll(FieldValue *values, size_t n);
inline int64_t fieldInvertAll(std::vector<FieldValue> &values) {
  return fieldInvertAll(values.data(), values.size());
}

//===----------------------------------------------------------------------===//
// Per-test randomness
//===----------------------------------------------------------------------===//

/// SplitMix64: a small, fast, seedable generator with good statistical
/// quality; enough for drawing test points (the bound needs uniformity, not
/// unpredictability).
class SplitMix64 {
public:
  explicit SplitMix64(uint64_t seed) : state(seed) {}
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, bound): Lemire's multiply-shift with rejection, exactly
  /// uniform, and the common case needs no division.
  uint64_t below(uint64_t bound) {
    unsigned __int128 m = static_cast<unsigned __int128>(next()) * bound;
    uint64_t low = static_cast<uint64_t>(m);
    if (low < bound) {
      uint64_t threshold = (0 - bound) % bound;
      while (low < threshold) {
        m = static_cast<unsigned __int128>(next()) * bound;
        low = static_cast<uint64_t>(m);
      }
    }
    return static_cast<uint64_t>(m >> 64);
  }
  /// Uniform in [lo, hi).
  double uniform(double lo, double hi) {
    double unit = static_cast<double>(next() >> 11) * 0x1.0p-53;
    return lo + (hi - lo) * unit;
  }

private:
  uint64_t state;
};

/// Stateless 64-bit mixer used for keyed hashes.
inline uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/// The random choices of one finite-field test: omega, the keys of the fixed
/// random functions and the random stand-ins for irrational constants. Shared
/// by the reference and the candidate of one test.
class FieldTest {
public:
  /// Draws omega and the keys from `seed`.
  explicit FieldTest(uint64_t seed);

  /// omega^e mod p for e < q (two table lookups and one multiplication).
  uint64_t omegaPow(uint32_t e) const {
    return mulModP(expLo[e & 0xFFFF], expHi[e >> 16]);
  }
  uint64_t getOmega() const { return omega; }
  /// exp of `n` values whose q components are all defined: out[i] =
  /// (omega^x[i].q, undefined). Lane-wise where the CPU has AVX-512.
  void expAll(const FieldValue *x, FieldValue *out, int64_t n) const;
  /// A uniformly random element (both components defined).
  static FieldValue randomValue(SplitMix64 &rng) {
    uint64_t p = rng.below(kFieldP);
    return {p, static_cast<uint32_t>(rng.below(kFieldQ))};
  }
  /// The field image of sqrt(2/pi) used by gelu: a fixed random element,
  /// since it has no exact image.
  FieldValue getSqrt2OverPi() const { return sqrt2OverPi; }
  /// Key of the random total order that defines max/relu/clamp.
  uint64_t orderKey(FieldValue x) const { return mix64(x.p ^ orderSeed); }
  /// Key of the random function that stands in for pow.
  uint64_t getPowKey() const { return powKey; }
  /// The field image of the real constant `c` in this test: its exact image
  /// when it has small height (exactFieldImage), otherwise a random element
  /// fixed for this test and keyed by |c|, negated for negative c (so -c and
  /// neg(c) agree). Such a constant acts as one more random variable.
  FieldValue constant(double c) const;

private:
  uint64_t omega;
  std::vector<uint64_t> expLo, expHi;
  FieldValue sqrt2OverPi;
  uint64_t orderSeed;
  uint64_t powKey;
  uint64_t constantKey;
};

/// Largest numerator and denominator of a constant with an exact image, and
/// the largest product of the two: two such constants c = n1/d1 and
/// c' = n2/d2 differ by (n1*d2 - n2*d1)/(d1*d2), whose numerator is below
/// 2^31 < q < p in magnitude, so distinct small constants cannot alias in
/// either component (e.g. exp(x + c) against exp(x + c') with c - c' a
/// multiple of q).
constexpr int64_t kMaxExactConstantTerm = int64_t(1) << 24;
constexpr int64_t kMaxExactConstantHeight = int64_t(1) << 30;

/// The exact field image of a real constant of small height: the rational
/// n/d it equals within a relative 1e-15 (continued fractions: 1e-6 ->
/// 1/10^6, 0.125 -> 1/8, 0.3333333333333333 -> 1/3) when |n| and d are below
/// kMaxExactConstantTerm and |n|*d below kMaxExactConstantHeight; nothing
/// otherwise (large integers, long decimals, irrational values), which
/// FieldTest::constant maps to a random element.
std::optional<FieldValue> exactFieldImage(double c);

} // namespace mirage::verify

#endif // MIRAGE_VERIFY_FIELD_H
