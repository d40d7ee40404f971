//===- FieldTest.cpp - Finite-field arithmetic of the verifier --*- C++ -*-===//
//
// Properties the equivalence check relies on: q | p - 1 with both primes
// = 3 mod 4, exact inverses (also in batch), the exp homomorphism, the
// multiplicativity of sqrt and exact images of decimal constants.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Verify/Field.h"

#include <cmath>

#include "gtest/gtest.h"

using namespace mirage::verify;

namespace {

/// Deterministic Miller-Rabin for 64-bit n (these bases suffice below 2^64).
bool isPrime(uint64_t n) {
  if (n < 2)
    return false;
  for (uint64_t small : {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37})
    if (n % small == 0)
      return n == small;
  uint64_t d = n - 1;
  int s = 0;
  while (d % 2 == 0) {
    d /= 2;
    ++s;
  }
  auto mulmod = [n](uint64_t a, uint64_t b) {
    return static_cast<uint64_t>(static_cast<uint128_t>(a) * b % n);
  };
  for (uint64_t a : {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37}) {
    uint64_t x = 1, base = a, e = d;
    while (e) {
      if (e & 1)
        x = mulmod(x, base);
      base = mulmod(base, base);
      e >>= 1;
    }
    if (x == 1 || x == n - 1)
      continue;
    bool composite = true;
    for (int r = 1; r < s && composite; ++r) {
      x = mulmod(x, x);
      composite = x != n - 1;
    }
    if (composite)
      return false;
  }
  return true;
}

TEST(Field, Primes) {
  EXPECT_TRUE(isPrime(kFieldP));
  EXPECT_TRUE(isPrime(kFieldQ));
  EXPECT_EQ(0u, (kFieldP - 1) % kFieldQ);
  EXPECT_GE(kFieldQ, 1ULL << 31);
  EXPECT_EQ(3u, kFieldP % 4);
  EXPECT_EQ(3u, kFieldQ % 4);
}

TEST(Field, MulModMatchesWideDivision) {
  // The double-precision quotient estimate against exact 128-bit division,
  // on random residues and on the extremes.
  auto exact = [](uint64_t a, uint64_t b) {
    return static_cast<uint64_t>(static_cast<uint128_t>(a) * b % kFieldP);
  };
  SplitMix64 rng(11);
  for (int i = 0; i < 200000; ++i) {
    uint64_t a = rng.below(kFieldP), b = rng.below(kFieldP);
    ASSERT_EQ(exact(a, b), mulModP(a, b)) << a << " * " << b;
  }
  for (uint64_t a : {uint64_t(0), uint64_t(1), uint64_t(2), kFieldP - 2,
                     kFieldP - 1, kFieldP / 2, kFieldQ, kFieldQ - 1})
    for (uint64_t b :
         {uint64_t(0), uint64_t(1), kFieldP - 1, kFieldP / 3, kFieldQ + 1})
      EXPECT_EQ(exact(a, b), mulModP(a, b)) << a << " * " << b;
}

TEST(Field, WideReductionMatchesDivision) {
  // The reductions of dot-product sums: random 128-bit values up to 2^127
  // (sums of 2^24 products of p residues stay below 2^126), random 64-bit
  // values, and the extremes.
  SplitMix64 rng(5);
  auto check = [](uint128_t a) {
    ASSERT_EQ(static_cast<uint64_t>(a % kFieldP), reduceModP(a));
    ASSERT_EQ(static_cast<uint32_t>(a % kFieldQ), reduceModQ(a));
  };
  for (int i = 0; i < 200000; ++i) {
    uint128_t a =
        (static_cast<uint128_t>(rng.next() >> (i % 64)) << 64) | rng.next();
    check(a >> 1);
    uint64_t b = rng.next() >> (i % 64);
    ASSERT_EQ(b % kFieldP, reduceModP(b)) << b;
  }
  uint128_t all = ~static_cast<uint128_t>(0);
  for (uint128_t a :
       {static_cast<uint128_t>(0), static_cast<uint128_t>(1),
        static_cast<uint128_t>(kFieldP), static_cast<uint128_t>(kFieldP - 1),
        static_cast<uint128_t>(~uint64_t(0)), static_cast<uint128_t>(1) << 64,
        all >> 1, (all >> 1) - kFieldP})
    check(a);
}

TEST(Field, Inverses) {
  SplitMix64 rng(1);
  FieldTest test(1);
  for (int i = 0; i < 1000; ++i) {
    FieldValue x = test.randomValue(rng);
    if (x.p == 0 || x.q == 0)
      continue;
    FieldValue one = fieldMul(x, fieldInv(x));
    EXPECT_EQ(1u, one.p);
    EXPECT_EQ(1u, one.q);
  }
  EXPECT_EQ(1u, mulModP(invModP(kFieldP - 1), kFieldP - 1));
  EXPECT_EQ(1u, mulModQ(invModQ(2), 2));
}

TEST(Field, BatchInversionMatchesSingle) {
  SplitMix64 rng(2);
  FieldTest test(2);
  std::vector<FieldValue> values;
  for (int i = 0; i < 257; ++i)
    values.push_back(test.randomValue(rng));
  values[17].q = 0;           // q-zero: its q inverse becomes undefined
  values[40].q = kUndefinedQ; // already undefined
  std::vector<FieldValue> inv = values;
  ASSERT_EQ(-1, fieldInvertAll(inv));
  for (size_t i = 0; i < values.size(); ++i) {
    EXPECT_EQ(invModP(values[i].p), inv[i].p);
    if (i == 17 || i == 40)
      EXPECT_FALSE(inv[i].hasQ());
    else
      EXPECT_EQ(invModQ(values[i].q), inv[i].q);
  }
  // A zero p component is reported with its index.
  values[100].p = 0;
  EXPECT_EQ(100, fieldInvertAll(values));
}

TEST(Field, OmegaHasOrderQ) {
  for (uint64_t seed : {0u, 1u, 7u}) {
    FieldTest test(seed);
    EXPECT_NE(1u, test.getOmega());
    EXPECT_EQ(1u, powModP(test.getOmega(), kFieldQ));
    // The table lookup agrees with exponentiation.
    for (uint32_t e : {0u, 1u, 65535u, 65536u, 123456789u,
                       static_cast<uint32_t>(kFieldQ - 1)})
      EXPECT_EQ(powModP(test.getOmega(), e), test.omegaPow(e));
  }
  // Different seeds draw different roots.
  EXPECT_NE(FieldTest(1).getOmega(), FieldTest(2).getOmega());
}

TEST(Field, ExpHomomorphism) {
  FieldTest test(3);
  SplitMix64 rng(3);
  for (int i = 0; i < 1000; ++i) {
    uint32_t a = static_cast<uint32_t>(rng.below(kFieldQ));
    uint32_t b = static_cast<uint32_t>(rng.below(kFieldQ));
    // exp(a + b) = exp(a) * exp(b), with a + b taken mod q.
    EXPECT_EQ(test.omegaPow(addModQ(a, b)),
              mulModP(test.omegaPow(a), test.omegaPow(b)));
    // exp(-a) = 1 / exp(a).
    EXPECT_EQ(test.omegaPow(negModQ(a)), invModP(test.omegaPow(a)));
  }
  EXPECT_EQ(1u, test.omegaPow(0));
}

TEST(Field, SqrtIsMultiplicative) {
  FieldTest test(4);
  SplitMix64 rng(4);
  for (int i = 0; i < 500; ++i) {
    FieldValue x = test.randomValue(rng), y = test.randomValue(rng);
    EXPECT_EQ(fieldSqrt(fieldMul(x, y)), fieldMul(fieldSqrt(x), fieldSqrt(y)));
    // On squares it is a square root (up to sign): sqrt(x^2)^2 = x^2.
    FieldValue sq = fieldMul(x, x);
    FieldValue r = fieldSqrt(sq);
    EXPECT_EQ(sq, fieldMul(r, r));
  }
}

TEST(Field, SmallConstantsAreExact) {
  auto exact = [](double c) {
    std::optional<FieldValue> v = exactFieldImage(c);
    EXPECT_TRUE(v.has_value()) << c;
    return v.value_or(FieldValue{});
  };
  // 1e-6 is exactly 1 / 10^6 in the field, not its binary approximation.
  EXPECT_EQ(fieldFromInt(1), fieldMul(exact(1e-6), fieldFromInt(1000000)));
  EXPECT_EQ(fieldFromInt(1), fieldMul(exact(0.5), fieldFromInt(2)));
  EXPECT_EQ(fieldFromInt(-3), exact(-3.0));
  EXPECT_EQ(fieldFromInt(1), fieldMul(exact(1.0 / 3.0), fieldFromInt(3)));
  EXPECT_EQ(fieldFromInt(0), exact(0.0));
  // 1 / 4096 (a mean over a row) is exact as well.
  EXPECT_EQ(fieldFromInt(1), fieldMul(exact(1.0 / 4096), fieldFromInt(4096)));
  EXPECT_EQ(fieldFromInt(-7), fieldMul(exact(-7.0 / 1000), fieldFromInt(1000)));
  // Negative integers map to p - n.
  EXPECT_EQ(kFieldP - 5, fieldFromInt(-5).p);
}

TEST(Field, LargeConstantsGetRandomImages) {
  // Terms of 2^24 and more, or a product n * d of 2^30 and more, have no
  // exact image: they could alias a different constant mod q or p.
  EXPECT_FALSE(exactFieldImage(2147483660.0).has_value()); // 1 + q
  EXPECT_FALSE(exactFieldImage(double(1 << 24)).has_value());
  EXPECT_FALSE(exactFieldImage(0.044715).has_value()); // 8943 / 200000
  EXPECT_FALSE(exactFieldImage(std::sqrt(2.0)).has_value());
  EXPECT_FALSE(exactFieldImage(1e-12).has_value());
  EXPECT_TRUE(exactFieldImage(double((1 << 24) - 1)).has_value());
  FieldTest a(1), b(2);
  // Fixed within a test, fresh across tests, odd under negation.
  EXPECT_EQ(a.constant(2147483660.0), a.constant(2147483660.0));
  EXPECT_NE(a.constant(2147483660.0), b.constant(2147483660.0));
  EXPECT_EQ(fieldNeg(a.constant(2147483660.0)), a.constant(-2147483660.0));
  EXPECT_NE(a.constant(2147483660.0), a.constant(2147483661.0));
  // 1 and 1 + q are the same residue mod q; their images must differ there.
  EXPECT_NE(a.constant(1.0).q, a.constant(2147483660.0).q);
  // Small constants keep their exact image.
  EXPECT_EQ(*exactFieldImage(0.25), a.constant(0.25));
}

TEST(Field, UniformSampling) {
  SplitMix64 rng(5);
  int low = 0;
  for (int i = 0; i < 10000; ++i) {
    uint64_t v = rng.below(10);
    EXPECT_LT(v, 10u);
    low += v < 5;
  }
  // Roughly half below 5 (loose: a sanity check, not a statistical test).
  EXPECT_GT(low, 4500);
  EXPECT_LT(low, 5500);
}

} // namespace

TEST(Field, ExpAllMatchesOmegaPow) {
  FieldTest test(42);
  SplitMix64 rng(7);
  for (int64_t n : {0, 1, 7, 8, 9, 100}) {
    std::vector<FieldValue> x(n), out(n);
    for (FieldValue &v : x)
      v = FieldTest::randomValue(rng);
    if (n > 2)
      x[1].q = static_cast<uint32_t>(kFieldQ - 1);
    test.expAll(x.data(), out.data(), n);
    for (int64_t i = 0; i < n; ++i) {
      EXPECT_EQ(out[i].p, test.omegaPow(x[i].q)) << n << " @" << i;
      EXPECT_FALSE(out[i].hasQ());
    }
  }
}
