//===- Domains.h - Value domains of the evaluator ---------------*- C++ -*-===//
//
// The value domains the evaluator is templated over: real numbers (f64 for
// the reference numerics, f32 for the kernels' precision) and the finite
// field of Field.h, plus the degree bookkeeping of the Schwartz-Zippel bound.
// Private to lib/Verify.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_VERIFY_DOMAINS_H
#define MIRAGE_LIB_VERIFY_DOMAINS_H

#include "Mirage/Verify/Interpreter.h"
#include "Mirage/Verify/Matmul.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace mirage::verify::detail {

//===----------------------------------------------------------------------===//
// Value domains
//===----------------------------------------------------------------------===//

/// A failure raised inside a domain operation; the evaluator attaches the op.
struct DomainError {
  EvalErrorKind kind;
  std::string message;
};

/// Real numbers as `F`: f64 for the reference numerics, f32 for the kernels'
/// precision (where the evaluator also rounds stored values to their element
/// type, see Evaluator::set).
/// exp of `n` f64 values (RealExp.cpp): eight at a time on AVX-512, within
/// a few ulp of std::exp (the same overflow, underflow and NaN results);
/// std::exp on other CPUs.
void expAllF64(const double *x, double *out, int64_t n);

template <typename F> class RealDomain {
public:
  using Elem = F;
  /// Values stored to tiles and kernel outputs are rounded to their element
  /// type (the f32 domain models the generated code).
  static constexpr bool kRoundsStorage = std::is_same_v<F, float>;

  std::optional<DomainError> err;

  Elem zero() const { return 0; }
  Elem constant(double c) const { return static_cast<F>(c); }
  Elem recip(int64_t n) const { return F(1) / static_cast<F>(n); }
  Elem sqrt2OverPi() const { return static_cast<F>(std::sqrt(2.0 / M_PI)); }
  Elem add(Elem a, Elem b) const { return a + b; }
  Elem sub(Elem a, Elem b) const { return a - b; }
  Elem mul(Elem a, Elem b) const { return a * b; }
  /// a / b rounded once, as arith.divf: a * (1 / b) rounds twice, and is
  /// NaN where 1 / b overflows (a subnormal b) and a is 0.
  Elem div(Elem a, Elem b) const { return a / b; }
  Elem neg(Elem a) const { return -a; }
  Elem exp(Elem a) { return std::exp(a); }
  void expAll(const Elem *x, Elem *out, int64_t n) {
    if constexpr (std::is_same_v<F, double>)
      return expAllF64(x, out, n);
    for (int64_t i = 0; i < n; ++i)
      out[i] = std::exp(x[i]);
  }
  Elem sqrt(Elem a) const { return std::sqrt(a); }
  Elem pow(Elem a, Elem b) const { return std::pow(a, b); }
  /// tanh of `n` values.
  void tanhAll(const Elem *x, Elem *out, int64_t n) {
    for (int64_t i = 0; i < n; ++i)
      out[i] = std::tanh(x[i]);
  }
  /// The exact GELU, 0.5 x (1 + erf(x / sqrt(2))).
  Elem geluErf(Elem a) const {
    return F(0.5) * a * (F(1) + std::erf(a * static_cast<F>(M_SQRT1_2)));
  }
  /// NaN-propagating, as arith.maximumf/minimumf that the lowering emits
  /// (and tosa.maximum with nan_mode PROPAGATE): a NaN on either side is
  /// the result, whatever the order of the operands.
  Elem max(Elem a, Elem b) const {
    return a != a ? a : b != b ? b : a >= b ? a : b;
  }
  Elem min(Elem a, Elem b) const {
    return a != a ? a : b != b ? b : a <= b ? a : b;
  }
  bool isExactConstant(double) const { return true; }
  /// Division by zero gives an infinity here, as in IEEE arithmetic.
  template <typename V> void invertAll(V &v) {
    for (Elem &x : v)
      x = F(1) / x;
  }
  /// Sequential accumulation over k in `F` (f32 accumulation of the
  /// generated code in the f32 domain), Matmul.h.
  void matmul(const Elem *a, const Elem *b, Elem *c, int64_t m, int64_t k,
              int64_t n) const {
    verify::matmul(a, b, c, m, k, n);
  }
};
using FloatDomain = RealDomain<double>;
using KernelPrecisionDomain = RealDomain<float>;

/// Pairs (a mod p, b mod q), see Field.h.
class FieldDomain {
public:
  using Elem = FieldValue;
  static constexpr bool kRoundsStorage = false;

  /// The stand-in for an infinite mask fill (times its sign), which has no
  /// field image: a value without an exact one. max and min order -inf's
  /// stand-in first and +inf's last, so a masked element is the identity
  /// of a maximum as it is in the reals.
  static constexpr double kInfiniteFillStandIn = 3.0e38 * 1.0471975511965976;

  explicit FieldDomain(const FieldTest &test)
      : test(test), negInf(test.constant(-kInfiniteFillStandIn)),
        posInf(test.constant(kInfiniteFillStandIn)) {}

  std::optional<DomainError> err;

  Elem zero() const { return {0, 0}; }
  Elem constant(double c) {
    uint64_t bits;
    std::memcpy(&bits, &c, sizeof(bits));
    auto it = constants.find(bits);
    if (it != constants.end())
      return it->second;
    FieldValue v = test.constant(c);
    constants[bits] = v;
    return v;
  }
  /// Whether `c` has an exact image; otherwise it is a random element that
  /// counts as one more variable in the degree bound.
  bool isExactConstant(double c) const {
    return exactFieldImage(c).has_value();
  }
  Elem recip(int64_t n) const { return fieldInv(fieldFromInt(n)); }
  Elem sqrt2OverPi() const { return test.getSqrt2OverPi(); }
  Elem add(Elem a, Elem b) const { return fieldAdd(a, b); }
  Elem sub(Elem a, Elem b) const { return fieldSub(a, b); }
  Elem mul(Elem a, Elem b) const { return fieldMul(a, b); }
  Elem neg(Elem a) const { return fieldNeg(a); }
  Elem exp(Elem a) {
    if (!a.hasQ()) {
      if (!err)
        err = DomainError{EvalErrorKind::OutsideFragment,
                          "exp of a value whose exponent component is "
                          "undefined (a second exp on one path): outside the "
                          "verifiable fragment"};
      return {1, kUndefinedQ};
    }
    return {test.omegaPow(a.q), kUndefinedQ};
  }
  /// exp of `n` values (exp above for each, in bulk).
  void expAll(const Elem *x, Elem *out, int64_t n) {
    for (int64_t i = 0; i < n; ++i)
      if (!x[i].hasQ()) {
        for (int64_t j = 0; j < n; ++j)
          out[j] = exp(x[j]);
        return;
      }
    test.expAll(x, out, n);
  }
  Elem sqrt(Elem a) const { return fieldSqrt(a); }
  /// pow has no field image; it is a fixed random function of both
  /// arguments, so only identical uses compare equal.
  Elem pow(Elem a, Elem b) const { return opaque(test.getPowKey(), a, b.p); }
  /// tanh(x) = (e^2x - 1) / (e^2x + 1) = 1 - 2 / (exp(2x) + 1) through the
  /// field exp, so it agrees with the spellings through exp and sigmoid.
  void tanhAll(const Elem *x, Elem *out, int64_t n) {
    for (int64_t i = 0; i < n; ++i)
      out[i] = add(x[i], x[i]);
    expAll(out, out, n);
    Elem one = constant(1.0);
    for (int64_t i = 0; i < n; ++i)
      out[i] = add(out[i], one);
    llvm::MutableArrayRef<Elem> dens(out, n);
    invertAll(dens);
    for (int64_t i = 0; i < n; ++i)
      out[i] = sub(one, add(out[i], out[i]));
  }
  /// The exact GELU (erf) has no field image either: a fixed random function
  /// of its argument, other than pow's.
  Elem geluErf(Elem a) const {
    return opaque(test.getPowKey() ^ 0x9e3779b97f4a7c15ULL, a, 0);
  }
  /// max and min under a random total order of the field: commutative,
  /// associative and idempotent like the real ones, so a maximum taken in
  /// tiles equals the maximum taken at once.
  Elem max(Elem a, Elem b) const { return before(a, b) ? b : a; }
  Elem min(Elem a, Elem b) const { return before(a, b) ? a : b; }
  template <typename V> void invertAll(V &v) {
    int64_t bad = fieldInvertAll(v.data(), v.size());
    if (bad >= 0 && !err)
      err = DomainError{EvalErrorKind::DivisionByZero,
                        "division by a value that is zero in the field "
                        "(element " +
                            std::to_string(bad) +
                            " of the divisor): outside the verifiable "
                            "fragment"};
  }
  /// Exact, Matmul.h.
  void matmul(const Elem *a, const Elem *b, Elem *c, int64_t m, int64_t k,
              int64_t n) const {
    verify::matmul(a, b, c, m, k, n);
  }

private:
  /// A fixed random function of `a` and `b` under `key`.
  static Elem opaque(uint64_t key, Elem a, uint64_t b) {
    uint64_t h = mix64(mix64(a.p ^ key) + b);
    uint64_t h2 = mix64(h ^ 0x5bd1e995ULL);
    return {h % kFieldP, static_cast<uint32_t>(h2 % kFieldQ)};
  }
  bool before(Elem a, Elem b) const {
    if (a == b)
      return false;
    if (a == negInf || b == posInf)
      return true;
    if (b == negInf || a == posInf)
      return false;
    uint64_t ka = test.orderKey(a), kb = test.orderKey(b);
    if (ka != kb)
      return ka < kb;
    return a.q < b.q;
  }

  const FieldTest &test;
  Elem negInf, posInf;
  llvm::DenseMap<uint64_t, FieldValue> constants;
};

//===----------------------------------------------------------------------===//
// Degree bookkeeping (see Degree in Interpreter.h)
//===----------------------------------------------------------------------===//

inline Degree constDeg() { return {0, 0}; }
inline Degree addDeg(Degree a, Degree b) {
  if (a.den == 0 && b.den == 0)
    return {std::max(a.num, b.num), 0};
  return {std::max(a.num + b.den, b.num + a.den), a.den + b.den};
}
inline Degree mulDeg(Degree a, Degree b) {
  return {a.num + b.num, a.den + b.den};
}
inline Degree divDeg(Degree a, Degree b) {
  return {a.num + b.den, a.den + b.num};
}
/// A sum of `count` terms of degree `d` with possibly different denominators.
inline Degree sumDeg(Degree d, int64_t count) {
  if (d.den == 0)
    return d;
  double c = static_cast<double>(count);
  return {d.num + (c - 1) * d.den, c * d.den};
}
inline Degree sqrtDeg(Degree d) {
  return {std::ceil(d.num / 2), std::ceil(d.den / 2)};
}
inline Degree maxDeg(Degree a, Degree b) {
  return {std::max(a.num, b.num), std::max(a.den, b.den)};
}
inline Degree freshDeg() { return {1, 0}; }

} // namespace mirage::verify::detail

#endif // MIRAGE_LIB_VERIFY_DOMAINS_H
