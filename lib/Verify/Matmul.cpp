//===- Matmul.cpp - Matrix products of the evaluator's domains ------------===//
//
// Real products: register tiles of 4 rows x 128 bytes of columns, each
// output accumulated over k in order; the same source is compiled once
// portable and once for AVX-512, and floating-point contraction is off, so
// both give the bits of the naive loop.
//
// Field products: A's rows and B's columns are split into residue planes (an
// undefined q counts as 0 and marks its row or column); the AVX-512 path
// reads B's values directly, separating p and q in registers, when A has at
// most 16 rows (the split would move more memory than the products). The
// AVX-512 IFMA path
// multiplies 52-bit residues lane-wise: for 8 columns of 4 rows it sums the
// low and the high 52 bits of each product in separate 64-bit lanes (p, q
// < 2^52, so 4096 low parts fit in a lane), then folds hi * 2^52 + lo into a
// residue once per chunk of 4096 terms. The portable path sums 128-bit
// products and reduces once per output.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Verify/Matmul.h"

#include "Mirage/Verify/Interpreter.h"

#include "Lanes.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

using namespace mirage::verify;
using namespace mirage::verify::detail;

namespace {

//===----------------------------------------------------------------------===//
// Real products
//===----------------------------------------------------------------------===//

/// C[:, j0 : j0 + width) for the kCols columns of B at `bc` (row stride
/// `ldb`; columns past `width` may hold anything, they are not stored).
template <typename F, int64_t kCols>
[[gnu::always_inline]] inline void
realColumnTile(const F *a, const F *bc, int64_t ldb, F *c, int64_t m, int64_t k,
               int64_t n, int64_t j0, int64_t width) {
#pragma clang fp contract(off)
  constexpr int64_t kRows = 4;
  int64_t i0 = 0;
  for (; i0 + kRows <= m; i0 += kRows) {
    F acc[kRows][kCols] = {};
    const F *a0 = a + i0 * k;
    for (int64_t l = 0; l < k; ++l) {
      const F *bl = bc + l * ldb;
      for (int64_t r = 0; r < kRows; ++r) {
        F x = a0[r * k + l];
        for (int64_t jj = 0; jj < kCols; ++jj)
          acc[r][jj] += x * bl[jj];
      }
    }
    for (int64_t r = 0; r < kRows; ++r)
      std::copy(acc[r], acc[r] + width, c + (i0 + r) * n + j0);
  }
  for (; i0 < m; ++i0) {
    F acc[kCols] = {};
    for (int64_t l = 0; l < k; ++l) {
      F x = a[i0 * k + l];
      const F *bl = bc + l * ldb;
      for (int64_t jj = 0; jj < kCols; ++jj)
        acc[jj] += x * bl[jj];
    }
    std::copy(acc, acc + width, c + i0 * n + j0);
  }
}

template <typename F>
[[gnu::always_inline]] inline void
realMatmulBody(const F *a, const F *b, F *c, int64_t m, int64_t k, int64_t n) {
#pragma clang fp contract(off)
  constexpr int64_t kCols = 128 / sizeof(F);
  constexpr int64_t kRowLanes = 64 / sizeof(F);
  int64_t fullCols = n - n % kCols;
  if (fullCols == 0 && m >= kRowLanes && n * 2 <= kCols) {
    // A few columns and many rows: vectorize over the rows of A instead, A
    // transposed so that a row block is contiguous per l.
    thread_local std::vector<F> at;
    at.resize(m * k);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t l = 0; l < k; ++l)
        at[l * m + i] = a[i * k + l];
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i0 = 0; i0 < m; i0 += kRowLanes) {
        int64_t rows = std::min(kRowLanes, m - i0);
        F acc[kRowLanes] = {};
        const F *ai = at.data() + i0;
        if (rows == kRowLanes) {
          for (int64_t l = 0; l < k; ++l) {
            F y = b[l * n + j];
            for (int64_t r = 0; r < kRowLanes; ++r)
              acc[r] += ai[l * m + r] * y;
          }
        } else {
          for (int64_t l = 0; l < k; ++l) {
            F y = b[l * n + j];
            for (int64_t r = 0; r < rows; ++r)
              acc[r] += ai[l * m + r] * y;
          }
        }
        for (int64_t r = 0; r < rows; ++r)
          c[(i0 + r) * n + j] = acc[r];
      }
    return;
  }
  for (int64_t j0 = 0; j0 < fullCols; j0 += kCols)
    realColumnTile<F, kCols>(a, b + j0, n, c, m, k, n, j0, kCols);
  if (fullCols == n)
    return;
  // The last columns, zero-padded to a whole tile: the padding only feeds
  // outputs that are not stored, so each stored output is the same sum.
  int64_t width = n - fullCols;
  // A remainder of at most half a tile gets a half-width tile.
  constexpr int64_t kHalf = kCols / 2;
  int64_t tile = width <= kHalf ? kHalf : kCols;
  // A remainder of exactly half a tile is read in place (the tile does not
  // reach past the row).
  if (width == kHalf)
    return realColumnTile<F, kHalf>(a, b + fullCols, n, c, m, k, n, fullCols,
                                    width);
  thread_local std::vector<F> padded;
  padded.assign(k * tile, F(0));
  for (int64_t l = 0; l < k; ++l)
    std::copy(b + l * n + fullCols, b + l * n + n, padded.data() + l * tile);
  if (tile == kHalf)
    realColumnTile<F, kHalf>(a, padded.data(), kHalf, c, m, k, n, fullCols,
                             width);
  else
    realColumnTile<F, kCols>(a, padded.data(), kCols, c, m, k, n, fullCols,
                             width);
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

/// Sizes `out` for an m x k matrix; no row or column marked.
void resizePlanes(int64_t m, int64_t k, bool byRow, FieldPlanes &out) {
  out.p.resize(m * k);
  out.q.resize(m * k);
  out.undef.assign(byRow ? m : k, 0);
}

/// Elements [begin, end) of the m x k matrix `a` into the planes of `out`
/// (resizePlanes), in its own layout; `undef` marks rows (byRow) or columns.
void splitPlanesRange(const FieldValue *a, int64_t k, bool byRow, int64_t begin,
                      int64_t end, FieldPlanes &out) {
  for (int64_t i = begin; i < end; ++i) {
    bool undef = !a[i].hasQ();
    out.p[i] = a[i].p;
    out.q[i] = undef ? 0 : a[i].q;
    if (undef)
      out.undef[byRow ? i / k : i % k] = 1;
  }
}

#if MIRAGE_HAVE_X86
/// splitPlanesRange over the whole matrix, eight values at a time: the p and q
/// components of four 16-byte values per register are separated with permutes
/// (the padding after q is masked off).
MIRAGE_TARGET_IFMA_FN void splitPlanesLanes(const FieldValue *a, int64_t m,
                                            int64_t k, bool byRow,
                                            FieldPlanes &out) {
  static_assert(sizeof(FieldValue) == 16, "p, q and 4 bytes of padding");
  int64_t n = m * k;
  resizePlanes(m, k, byRow, out);
  const __m512i even = _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14);
  const __m512i odd = _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15);
  const __m512i low32 = _mm512_set1_epi64(0xFFFFFFFFLL);
  const __m512i undefQ = _mm512_set1_epi64(kUndefinedQ);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m512i lo = _mm512_loadu_si512(static_cast<const void *>(a + i));
    __m512i hi = _mm512_loadu_si512(static_cast<const void *>(a + i + 4));
    __m512i p = _mm512_permutex2var_epi64(lo, even, hi);
    __m512i q = _mm512_and_si512(_mm512_permutex2var_epi64(lo, odd, hi), low32);
    __mmask8 undef = _mm512_cmpeq_epi64_mask(q, undefQ);
    _mm512_storeu_si512(out.p.data() + i, p);
    _mm512_storeu_si512(out.q.data() + i, _mm512_maskz_mov_epi64(~undef, q));
    for (unsigned bits = undef; bits; bits &= bits - 1) {
      int64_t e = i + __builtin_ctz(bits);
      out.undef[byRow ? e / k : e % k] = 1;
    }
  }
  splitPlanesRange(a, k, byRow, i, n, out);
}

/// Terms summed in one 64-bit lane of low parts (each < 2^52).
constexpr int64_t kIfmaChunk = 4096;
/// Products with at most this many rows read B's values where they are
/// instead of splitting B into planes: with few rows each value of B is used
/// a few times, and the split (a read and a write of all of B) would move
/// more memory than the products read.
constexpr int64_t kDirectRows = 16;

/// B's residues for the inner loop from its planes (splitPlanesLanes).
struct PlanesOfB {
  const FieldPlanes &planes;
  int64_t n;
  MIRAGE_TARGET_IFMA void load(int64_t l, int64_t j0, __mmask8 lanes,
                               __m512i &p, __m512i &q,
                               __mmask8 & /*undef*/) const {
    p = _mm512_maskz_loadu_epi64(lanes, &planes.p[l * n + j0]);
    q = _mm512_maskz_loadu_epi64(lanes, &planes.q[l * n + j0]);
  }
};

/// B's residues for the inner loop from its values: the p and q components
/// of 8 values (two registers of 4) are separated with permutes, as in
/// splitPlanesLanes; lanes with an undefined q get 0 and are marked in
/// `undef`.
struct ValuesOfB {
  const FieldValue *b;
  int64_t n;
  MIRAGE_TARGET_IFMA void load(int64_t l, int64_t j0, __mmask8 lanes,
                               __m512i &p, __m512i &q, __mmask8 &undef) const {
    // Value i of a register covers its 64-bit words 2i and 2i + 1.
    static constexpr __mmask8 kWords[16] = {0x00, 0x03, 0x0C, 0x0F, 0x30, 0x33,
                                            0x3C, 0x3F, 0xC0, 0xC3, 0xCC, 0xCF,
                                            0xF0, 0xF3, 0xFC, 0xFF};
    const FieldValue *row = b + l * n + j0;
    __m512i lo = _mm512_maskz_loadu_epi64(kWords[lanes & 15], row);
    __m512i hi = _mm512_maskz_loadu_epi64(kWords[lanes >> 4], row + 4);
    const __m512i even = _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14);
    const __m512i odd = _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15);
    p = _mm512_permutex2var_epi64(lo, even, hi);
    q = _mm512_and_si512(_mm512_permutex2var_epi64(lo, odd, hi),
                         _mm512_set1_epi64(0xFFFFFFFFLL));
    __mmask8 u =
        _mm512_mask_cmpeq_epi64_mask(lanes, q, _mm512_set1_epi64(kUndefinedQ));
    q = _mm512_maskz_mov_epi64(static_cast<__mmask8>(~u), q);
    undef |= u;
  }
};

/// Sums the products over l in [l0, l1) of `rows` rows of A (from i0) and 8
/// columns of B (from j0, `lanes` of them valid) into low and high parts;
/// `undef` collects the lanes of B whose q is undefined (ValuesOfB).
/// With Rows > 1 the row loop has a constant trip count.
template <int Rows, typename BSource>
MIRAGE_TARGET_IFMA inline void
accumulateChunk(const FieldPlanes &pa, const BSource &bs, int64_t i0,
                int64_t j0, int64_t k, int64_t l0, int64_t l1, __mmask8 lanes,
                int64_t rows, __m512i *loP, __m512i *hiP, __m512i *loQ,
                __m512i *hiQ, __mmask8 &undef) {
  int64_t count = Rows > 1 ? Rows : rows;
  for (int64_t l = l0; l < l1; ++l) {
    __m512i bp, bq;
    bs.load(l, j0, lanes, bp, bq, undef);
    for (int64_t r = 0; r < count; ++r) {
      __m512i xp = _mm512_set1_epi64(pa.p[(i0 + r) * k + l]);
      __m512i xq = _mm512_set1_epi64(pa.q[(i0 + r) * k + l]);
      loP[r] = _mm512_madd52lo_epu64(loP[r], xp, bp);
      hiP[r] = _mm512_madd52hi_epu64(hiP[r], xp, bp);
      loQ[r] = _mm512_madd52lo_epu64(loQ[r], xq, bq);
      hiQ[r] = _mm512_madd52hi_epu64(hiQ[r], xq, bq);
    }
  }
}

/// C = A B with A's planes in `pa` and B read through `bs`; `colUndef(j)`
/// says whether column j of B holds an undefined q (for ValuesOfB the
/// lanes found while reading count too).
template <typename BSource, typename ColUndef>
MIRAGE_TARGET_IFMA inline void
fieldProductLanes(const FieldPlanes &pa, const BSource &bs, FieldValue *c,
                  int64_t m, int64_t k, int64_t n, ColUndef colUndef) {
  constexpr int64_t kRows = 4;
  const LaneModulus modP{_mm512_set1_epi64(static_cast<int64_t>(kFieldP)),
                         _mm512_set1_pd(1.0 / static_cast<double>(kFieldP))};
  const LaneModulus modQ{_mm512_set1_epi64(static_cast<int64_t>(kFieldQ)),
                         _mm512_set1_pd(1.0 / static_cast<double>(kFieldQ))};
  // 2^52 mod p and mod q: a lane's value is hi * 2^52 + lo.
  const __m512i r52P =
      _mm512_set1_epi64(static_cast<int64_t>((uint64_t(1) << 52) % kFieldP));
  const __m512i r52Q =
      _mm512_set1_epi64(static_cast<int64_t>((uint64_t(1) << 52) % kFieldQ));
  for (int64_t j0 = 0; j0 < n; j0 += 8) {
    int64_t cols = std::min<int64_t>(8, n - j0);
    __mmask8 lanes = static_cast<__mmask8>((1u << cols) - 1);
    __mmask8 undef = 0;
    for (int64_t i0 = 0; i0 < m; i0 += kRows) {
      int64_t rows = std::min(kRows, m - i0);
      __m512i outP[kRows], outQ[kRows];
      for (int64_t r = 0; r < kRows; ++r)
        outP[r] = outQ[r] = _mm512_setzero_si512();
      for (int64_t l0 = 0; l0 < k; l0 += kIfmaChunk) {
        int64_t l1 = std::min(k, l0 + kIfmaChunk);
        __m512i loP[kRows], hiP[kRows], loQ[kRows], hiQ[kRows];
        for (int64_t r = 0; r < kRows; ++r)
          loP[r] = hiP[r] = loQ[r] = hiQ[r] = _mm512_setzero_si512();
        if (rows == kRows)
          accumulateChunk<kRows>(pa, bs, i0, j0, k, l0, l1, lanes, kRows, loP,
                                 hiP, loQ, hiQ, undef);
        else
          accumulateChunk<1>(pa, bs, i0, j0, k, l0, l1, lanes, rows, loP, hiP,
                             loQ, hiQ, undef);
        // Fold: hi < 2^60 (p) or 2^24 (q), lo < 2^64.
        for (int64_t r = 0; r < rows; ++r) {
          __m512i p =
              addLanes(mulModPLanes(reduceLanes(hiP[r], modP), r52P, modP),
                       reduceLanes(loP[r], modP), modP);
          __m512i q =
              addLanes(reduceLanes(_mm512_mullo_epi64(hiQ[r], r52Q), modQ),
                       reduceLanes(loQ[r], modQ), modQ);
          outP[r] = addLanes(outP[r], p, modP);
          outQ[r] = addLanes(outQ[r], q, modQ);
        }
      }
      for (int64_t r = 0; r < rows; ++r) {
        alignas(64) uint64_t ps[8], qs[8];
        _mm512_store_si512(ps, outP[r]);
        _mm512_store_si512(qs, outQ[r]);
        for (int64_t jj = 0; jj < cols; ++jj) {
          FieldValue &out = c[(i0 + r) * n + j0 + jj];
          out.p = ps[jj];
          out.q = pa.undef[i0 + r] || ((undef >> jj) & 1) || colUndef(j0 + jj)
                      ? kUndefinedQ
                      : static_cast<uint32_t>(qs[jj]);
        }
      }
    }
  }
}

MIRAGE_TARGET_IFMA_FN void fieldMatmulIfma(const FieldValue *a,
                                           const FieldValue *b, FieldValue *c,
                                           int64_t m, int64_t k, int64_t n) {
  thread_local FieldPlanes pa, pb;
  splitPlanesLanes(a, m, k, /*byRow=*/true, pa);
  if (m <= kDirectRows)
    return fieldProductLanes(pa, ValuesOfB{b, n}, c, m, k, n,
                             [](int64_t) { return false; });
  splitPlanesLanes(b, k, n, /*byRow=*/false, pb);
  fieldProductLanes(pa, PlanesOfB{pb, n}, c, m, k, n,
                    [&](int64_t j) { return pb.undef[j] != 0; });
}
#endif

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
  if (cpuHasAvx512())
    return realMatmulAvx512(a, b, c, m, k, n);
#endif
  matmulPortable(a, b, c, m, k, n);
}

void mirage::verify::matmul(const float *a, const float *b, float *c, int64_t m,
                            int64_t k, int64_t n) {
#if MIRAGE_HAVE_X86
  if (cpuHasAvx512())
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
  FieldPlanes pa;
  resizePlanes(m, k, /*byRow=*/true, pa);
  splitPlanesRange(a, k, /*byRow=*/true, 0, m * k, pa);
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
  if (cpuHasIfma())
    return fieldMatmulIfma(a, b, c, m, k, n);
#endif
  matmulPortable(a, b, c, m, k, n);
}

bool mirage::verify::matmulUsesAvx512() { return cpuHasAvx512(); }
