//===- Matmul.cpp - Matrix products of the evaluator's domains ------------===//
//
// Real products: register tiles of 4 rows x 128 bytes of columns, each
// output accumulated over k in order; the same source is compiled once
// portable and once for AVX-512, and floating-point contraction is off, so
// both give the bits of the naive loop.
//
// Field products: A's rows and B's columns are split into residue planes (an
// undefined q counts as 0 and marks its row or column). The AVX-512 IFMA path
// multiplies 52-bit residues lane-wise: for 8 columns of 4 rows it sums the
// low and the high 52 bits of each product in separate 64-bit lanes (p, q
// < 2^52, so 4096 low parts fit in a lane), then folds hi * 2^52 + lo into a
// residue once per chunk of 4096 terms. The portable path sums 128-bit
// products and reduces once per output.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Verify/Matmul.h"

#include "Mirage/Verify/Interpreter.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#define MIRAGE_HAVE_X86 1
#else
#define MIRAGE_HAVE_X86 0
#endif

using namespace mirage::verify;

namespace {

//===----------------------------------------------------------------------===//
// Real products
//===----------------------------------------------------------------------===//

template <typename F>
[[gnu::always_inline]] inline void
realMatmulBody(const F *a, const F *b, F *c, int64_t m, int64_t k, int64_t n) {
#pragma clang fp contract(off)
  constexpr int64_t kRows = 4;
  constexpr int64_t kCols = 128 / sizeof(F);
  int64_t fullCols = n - n % kCols;
  for (int64_t j0 = 0; j0 < fullCols; j0 += kCols) {
    int64_t i0 = 0;
    for (; i0 + kRows <= m; i0 += kRows) {
      F acc[kRows][kCols] = {};
      const F *a0 = a + i0 * k;
      for (int64_t l = 0; l < k; ++l) {
        const F *bl = b + l * n + j0;
        for (int64_t r = 0; r < kRows; ++r) {
          F x = a0[r * k + l];
          for (int64_t jj = 0; jj < kCols; ++jj)
            acc[r][jj] += x * bl[jj];
        }
      }
      for (int64_t r = 0; r < kRows; ++r)
        std::copy(acc[r], acc[r] + kCols, c + (i0 + r) * n + j0);
    }
    for (; i0 < m; ++i0) {
      F acc[kCols] = {};
      for (int64_t l = 0; l < k; ++l) {
        F x = a[i0 * k + l];
        const F *bl = b + l * n + j0;
        for (int64_t jj = 0; jj < kCols; ++jj)
          acc[jj] += x * bl[jj];
      }
      std::copy(acc, acc + kCols, c + i0 * n + j0);
    }
  }
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = fullCols; j < n; ++j) {
      F s = 0;
      for (int64_t l = 0; l < k; ++l)
        s += a[i * k + l] * b[l * n + j];
      c[i * n + j] = s;
    }
}

#if MIRAGE_HAVE_X86
template <typename F>
__attribute__((target("avx512f,avx512vl"))) void
realMatmulAvx512(const F *a, const F *b, F *c, int64_t m, int64_t k,
                 int64_t n) {
  realMatmulBody(a, b, c, m, k, n);
}
#endif

//===----------------------------------------------------------------------===//
// Field products
//===----------------------------------------------------------------------===//

/// Residue planes of a field matrix, with the rows (of A) or columns (of B)
/// that hold an undefined q. Kept per thread: the evaluator calls matmul
/// once per batch with the same shapes.
struct FieldPlanes {
  std::vector<uint64_t, TensorAllocator<uint64_t>> p, q;
  std::vector<char> undef;
};

/// Splits the m x k matrix `a` into planes in its own layout; `undef` marks
/// rows (byRow) or columns.
void splitPlanes(const FieldValue *a, int64_t m, int64_t k, bool byRow,
                 FieldPlanes &out) {
  out.p.resize(m * k);
  out.q.resize(m * k);
  out.undef.assign(byRow ? m : k, 0);
  for (int64_t r = 0; r < m; ++r)
    for (int64_t i = r * k, e = i + k; i < e; ++i) {
      const FieldValue &v = a[i];
      bool undef = !v.hasQ();
      out.p[i] = v.p;
      out.q[i] = undef ? 0 : v.q;
      out.undef[byRow ? r : i - r * k] |= undef;
    }
}

/// The residue of hi * 2^52 + lo.
uint64_t foldP(uint64_t hi, uint64_t lo) {
  return reduceModP((static_cast<uint128_t>(hi) << 52) + lo);
}
uint32_t foldQ(uint64_t hi, uint64_t lo) {
  return reduceModQ((static_cast<uint128_t>(hi) << 52) + lo);
}

#if MIRAGE_HAVE_X86
/// Terms summed in one 64-bit lane of low parts (each < 2^52).
constexpr int64_t kIfmaChunk = 4096;

__attribute__((target("avx512f,avx512ifma"))) void
fieldMatmulIfma(const FieldValue *a, const FieldValue *b, FieldValue *c,
                int64_t m, int64_t k, int64_t n) {
  thread_local FieldPlanes pa, pb;
  splitPlanes(a, m, k, /*byRow=*/true, pa);
  splitPlanes(b, k, n, /*byRow=*/false, pb);
  constexpr int64_t kRows = 4;
  for (int64_t j0 = 0; j0 < n; j0 += 8) {
    int64_t cols = std::min<int64_t>(8, n - j0);
    __mmask8 lanes = static_cast<__mmask8>((1u << cols) - 1);
    for (int64_t i0 = 0; i0 < m; i0 += kRows) {
      int64_t rows = std::min(kRows, m - i0);
      uint64_t outP[kRows][8] = {}, outQ[kRows][8] = {};
      for (int64_t l0 = 0; l0 < k; l0 += kIfmaChunk) {
        int64_t l1 = std::min(k, l0 + kIfmaChunk);
        __m512i loP[kRows], hiP[kRows], loQ[kRows], hiQ[kRows];
        for (int64_t r = 0; r < kRows; ++r)
          loP[r] = hiP[r] = loQ[r] = hiQ[r] = _mm512_setzero_si512();
        if (rows == kRows) {
          for (int64_t l = l0; l < l1; ++l) {
            __m512i bp = _mm512_maskz_loadu_epi64(lanes, &pb.p[l * n + j0]);
            __m512i bq = _mm512_maskz_loadu_epi64(lanes, &pb.q[l * n + j0]);
            for (int64_t r = 0; r < kRows; ++r) {
              __m512i xp = _mm512_set1_epi64(pa.p[(i0 + r) * k + l]);
              __m512i xq = _mm512_set1_epi64(pa.q[(i0 + r) * k + l]);
              loP[r] = _mm512_madd52lo_epu64(loP[r], xp, bp);
              hiP[r] = _mm512_madd52hi_epu64(hiP[r], xp, bp);
              loQ[r] = _mm512_madd52lo_epu64(loQ[r], xq, bq);
              hiQ[r] = _mm512_madd52hi_epu64(hiQ[r], xq, bq);
            }
          }
        } else {
          for (int64_t l = l0; l < l1; ++l) {
            __m512i bp = _mm512_maskz_loadu_epi64(lanes, &pb.p[l * n + j0]);
            __m512i bq = _mm512_maskz_loadu_epi64(lanes, &pb.q[l * n + j0]);
            for (int64_t r = 0; r < rows; ++r) {
              __m512i xp = _mm512_set1_epi64(pa.p[(i0 + r) * k + l]);
              __m512i xq = _mm512_set1_epi64(pa.q[(i0 + r) * k + l]);
              loP[r] = _mm512_madd52lo_epu64(loP[r], xp, bp);
              hiP[r] = _mm512_madd52hi_epu64(hiP[r], xp, bp);
              loQ[r] = _mm512_madd52lo_epu64(loQ[r], xq, bq);
              hiQ[r] = _mm512_madd52hi_epu64(hiQ[r], xq, bq);
            }
          }
        }
        for (int64_t r = 0; r < rows; ++r) {
          alignas(64) uint64_t lp[8], hp[8], lq[8], hq[8];
          _mm512_store_si512(lp, loP[r]);
          _mm512_store_si512(hp, hiP[r]);
          _mm512_store_si512(lq, loQ[r]);
          _mm512_store_si512(hq, hiQ[r]);
          for (int64_t jj = 0; jj < cols; ++jj) {
            outP[r][jj] = addModP(outP[r][jj], foldP(hp[jj], lp[jj]));
            outQ[r][jj] = addModQ(static_cast<uint32_t>(outQ[r][jj]),
                                  foldQ(hq[jj], lq[jj]));
          }
        }
      }
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t jj = 0; jj < cols; ++jj) {
          FieldValue &out = c[(i0 + r) * n + j0 + jj];
          out.p = outP[r][jj];
          out.q = pa.undef[i0 + r] || pb.undef[j0 + jj]
                      ? kUndefinedQ
                      : static_cast<uint32_t>(outQ[r][jj]);
        }
    }
  }
}
#endif

bool useAvx512(bool ifma) {
#if MIRAGE_HAVE_X86
  static const bool forcedPortable = [] {
    const char *env = std::getenv("MIRAGE_PORTABLE_MATMUL");
    return env && *env && *env != '0';
  }();
  if (forcedPortable)
    return false;
  __builtin_cpu_init();
  if (ifma)
    return __builtin_cpu_supports("avx512f") &&
           __builtin_cpu_supports("avx512ifma");
  return __builtin_cpu_supports("avx512f") &&
         __builtin_cpu_supports("avx512vl");
#else
  (void)ifma;
  return false;
#endif
}

bool hasAvx512() {
  static const bool has = useAvx512(false);
  return has;
}
bool hasIfma() {
  static const bool has = useAvx512(true);
  return has;
}

} // namespace

void mirage::verify::matmulPortable(const double *a, const double *b, double *c,
                                    int64_t m, int64_t k, int64_t n) {
  realMatmulBody(a, b, c, m, k, n);
}

void mirage::verify::matmulPortable(const float *a, const float *b, float *c,
                                    int64_t m, int64_t k, int64_t n) {
  realMatmulBody(a, b, c, m, k, n);
}

void mirage::verify::matmul(const double *a, const double *b, double *c,
                            int64_t m, int64_t k, int64_t n) {
#if MIRAGE_HAVE_X86
  if (hasAvx512())
    return realMatmulAvx512(a, b, c, m, k, n);
#endif
  matmulPortable(a, b, c, m, k, n);
}

void mirage::verify::matmul(const float *a, const float *b, float *c, int64_t m,
                            int64_t k, int64_t n) {
#if MIRAGE_HAVE_X86
  if (hasAvx512())
    return realMatmulAvx512(a, b, c, m, k, n);
#endif
  matmulPortable(a, b, c, m, k, n);
}

void mirage::verify::matmulPortable(const FieldValue *a, const FieldValue *b,
                                    FieldValue *c, int64_t m, int64_t k,
                                    int64_t n) {
  // A's rows and B's columns as contiguous residue arrays (B transposed in
  // 32 x 32 blocks so that reads and writes stay in cache), then dot
  // products of up to 4 rows at once: products of p residues are < 2^102,
  // so 2^24 of them fit in 128 bits.
  FieldPlanes pa, pb;
  splitPlanes(a, m, k, /*byRow=*/true, pa);
  std::vector<uint64_t, TensorAllocator<uint64_t>> bp(n * k), bq(n * k);
  std::vector<char> colUndef(n, 0);
  constexpr int64_t kBlock = 32;
  for (int64_t l0 = 0; l0 < k; l0 += kBlock)
    for (int64_t j0 = 0; j0 < n; j0 += kBlock) {
      int64_t l1 = std::min(k, l0 + kBlock), j1 = std::min(n, j0 + kBlock);
      for (int64_t j = j0; j < j1; ++j)
        for (int64_t l = l0; l < l1; ++l) {
          const FieldValue &v = b[l * n + j];
          bp[j * k + l] = v.p;
          bq[j * k + l] = v.hasQ() ? v.q : 0;
          colUndef[j] |= !v.hasQ();
        }
    }
  constexpr int64_t kChunk = int64_t(1) << 24;
  for (int64_t j = 0; j < n; ++j) {
    const uint64_t *bpj = bp.data() + j * k;
    const uint64_t *bqj = bq.data() + j * k;
    for (int64_t i0 = 0; i0 < m; i0 += 4) {
      int rows = static_cast<int>(std::min<int64_t>(4, m - i0));
      uint64_t outP[4] = {0, 0, 0, 0};
      uint32_t outQ[4] = {0, 0, 0, 0};
      for (int64_t l0 = 0; l0 < k; l0 += kChunk) {
        int64_t len = std::min(kChunk, k - l0);
        uint128_t sp[4] = {0, 0, 0, 0}, sq[4] = {0, 0, 0, 0};
        for (int r = 0; r < rows; ++r) {
          const uint64_t *ar = pa.p.data() + (i0 + r) * k + l0;
          const uint64_t *qr = pa.q.data() + (i0 + r) * k + l0;
          uint128_t s1 = 0, s2 = 0;
          for (int64_t l = 0; l < len; ++l) {
            s1 += static_cast<uint128_t>(ar[l]) * bpj[l0 + l];
            s2 += qr[l] * bqj[l0 + l];
          }
          sp[r] = s1;
          sq[r] = s2;
        }
        for (int r = 0; r < rows; ++r) {
          outP[r] = addModP(outP[r], reduceModP(sp[r]));
          outQ[r] = addModQ(outQ[r], reduceModQ(sq[r]));
        }
      }
      for (int r = 0; r < rows; ++r) {
        FieldValue &out = c[(i0 + r) * n + j];
        out.p = outP[r];
        out.q = pa.undef[i0 + r] || colUndef[j] ? kUndefinedQ : outQ[r];
      }
    }
  }
}

void mirage::verify::matmul(const FieldValue *a, const FieldValue *b,
                            FieldValue *c, int64_t m, int64_t k, int64_t n) {
#if MIRAGE_HAVE_X86
  if (hasIfma())
    return fieldMatmulIfma(a, b, c, m, k, n);
#endif
  matmulPortable(a, b, c, m, k, n);
}

bool mirage::verify::matmulUsesAvx512() { return hasAvx512(); }
