//===- MatmulTest.cpp - The evaluator's matrix products -------------------===//
//
// Every path of Matmul.h against a naive reference, on shapes that exercise
// the register tiles' edges (rows not a multiple of 4, columns not a
// multiple of the vector width), long reductions (more than one chunk of
// the field path), undefined q components, and for the field both ways of
// reading B (its values for at most 16 rows of A, its planes above).
//
//===----------------------------------------------------------------------===//

#include "Mirage/Verify/Matmul.h"

#include <gtest/gtest.h>

#include <vector>

using namespace mirage::verify;

namespace {

struct Shape {
  int64_t m, k, n;
};

const Shape kShapes[] = {{1, 1, 1},    {3, 5, 7},    {4, 8, 8},
                         {5, 17, 33},  {16, 64, 40}, {7, 4097, 9},
                         {2, 9000, 3}, {9, 3, 130},  {8, 300, 2},
                         {19, 50, 1},  {20, 33, 13}, {17, 4100, 9},
                         {5, 9, 16},   {2, 7, 48}};

template <typename F>
std::vector<F> naive(const std::vector<F> &a, const std::vector<F> &b,
                     const Shape &s) {
  std::vector<F> c(s.m * s.n);
  for (int64_t i = 0; i < s.m; ++i)
    for (int64_t j = 0; j < s.n; ++j) {
      volatile F acc = 0; // no contraction: add the rounded product
      for (int64_t l = 0; l < s.k; ++l) {
        volatile F prod = a[i * s.k + l] * b[l * s.n + j];
        acc = acc + prod;
      }
      c[i * s.n + j] = acc;
    }
  return c;
}

template <typename F> void checkReal() {
  for (const Shape &s : kShapes) {
    SplitMix64 rng(s.m * 1000003 + s.k * 101 + s.n);
    std::vector<F> a(s.m * s.k), b(s.k * s.n);
    for (F &x : a)
      x = static_cast<F>(rng.uniform(-1, 1));
    for (F &x : b)
      x = static_cast<F>(rng.uniform(-1, 1));
    std::vector<F> want = naive(a, b, s), fast(s.m * s.n), portable(s.m * s.n);
    matmul(a.data(), b.data(), fast.data(), s.m, s.k, s.n);
    matmulPortable(a.data(), b.data(), portable.data(), s.m, s.k, s.n);
    for (int64_t i = 0; i < s.m * s.n; ++i) {
      // Bit-identical: the same order of accumulation, no fused multiply-add.
      ASSERT_EQ(want[i], fast[i])
          << s.m << "x" << s.k << "x" << s.n << " @" << i;
      ASSERT_EQ(want[i], portable[i])
          << s.m << "x" << s.k << "x" << s.n << " @" << i;
    }
  }
}

TEST(Matmul, DoubleMatchesSequentialSum) { checkReal<double>(); }
TEST(Matmul, FloatMatchesSequentialSum) { checkReal<float>(); }

TEST(Matmul, FieldMatchesResidueArithmetic) {
  for (const Shape &s : kShapes) {
    SplitMix64 rng(s.m * 7 + s.k * 13 + s.n * 17);
    std::vector<FieldValue> a(s.m * s.k), b(s.k * s.n);
    for (FieldValue &x : a)
      x = FieldTest::randomValue(rng);
    for (FieldValue &x : b)
      x = FieldTest::randomValue(rng);
    // Extreme residues, and one undefined q in a row of A and a column of B.
    a[0] = {kFieldP - 1, static_cast<uint32_t>(kFieldQ - 1)};
    b[0] = {kFieldP - 1, static_cast<uint32_t>(kFieldQ - 1)};
    int64_t undefRow = s.m / 2, undefCol = s.n - 1;
    if (s.m > 1)
      a[undefRow * s.k + s.k / 2].q = kUndefinedQ;
    if (s.n > 1)
      b[(s.k - 1) * s.n + undefCol].q = kUndefinedQ;
    std::vector<FieldValue> fast(s.m * s.n), portable(s.m * s.n);
    matmul(a.data(), b.data(), fast.data(), s.m, s.k, s.n);
    matmulPortable(a.data(), b.data(), portable.data(), s.m, s.k, s.n);
    for (int64_t i = 0; i < s.m; ++i)
      for (int64_t j = 0; j < s.n; ++j) {
        uint64_t p = 0;
        uint32_t q = 0;
        bool undef = (s.m > 1 && i == undefRow) || (s.n > 1 && j == undefCol);
        for (int64_t l = 0; l < s.k; ++l) {
          const FieldValue &x = a[i * s.k + l], &y = b[l * s.n + j];
          p = addModP(p, mulModP(x.p, y.p));
          if (x.hasQ() && y.hasQ())
            q = addModQ(q, static_cast<uint32_t>(
                               (static_cast<uint64_t>(x.q) * y.q) % kFieldQ));
        }
        FieldValue want{p, undef ? kUndefinedQ : q};
        ASSERT_EQ(want, fast[i * s.n + j])
            << s.m << "x" << s.k << "x" << s.n << " @" << i << "," << j;
        ASSERT_EQ(want, portable[i * s.n + j])
            << s.m << "x" << s.k << "x" << s.n << " @" << i << "," << j;
      }
  }
}

} // namespace
