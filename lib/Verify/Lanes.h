//===- Lanes.h - AVX-512 helpers of the evaluator's kernels -----*- C++ -*-===//
//
// Lane-wise residue arithmetic for the AVX-512 paths of the field kernels
// (Matmul.cpp, Field.cpp) and the run-time choice of those paths. The
// helpers are always_inline and carry their target features, so they can be
// called from functions compiled for AVX-512 in an otherwise portable build.
// Private to lib/Verify.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_VERIFY_LANES_H
#define MIRAGE_LIB_VERIFY_LANES_H

#include <cstdlib>

#if defined(__x86_64__)
#include <immintrin.h>
#define MIRAGE_HAVE_X86 1
#else
#define MIRAGE_HAVE_X86 0
#endif

namespace mirage::verify::detail {

#if MIRAGE_HAVE_X86
#define MIRAGE_TARGET_IFMA_FN                                                  \
  __attribute__((target("avx512f,avx512dq,avx512ifma")))
#define MIRAGE_TARGET_IFMA                                                     \
  __attribute__((target("avx512f,avx512dq,avx512ifma"), always_inline))

/// A modulus for the lane-wise reductions below.
struct LaneModulus {
  __m512i m;
  __m512d inverse;
};

/// Lanes mod m for lanes whose true remainder r satisfies: the computed
/// x - quot * m (wrapping) lies in [-2m, 3m); the quotient is estimated in
/// double precision as in mulModP.
MIRAGE_TARGET_IFMA inline __m512i correct(__m512i r, const LaneModulus &mod) {
  __m512i zero = _mm512_setzero_si512();
  for (int i = 0; i < 2; ++i)
    r = _mm512_mask_add_epi64(r, _mm512_cmplt_epi64_mask(r, zero), r, mod.m);
  for (int i = 0; i < 2; ++i)
    r = _mm512_mask_sub_epi64(r, _mm512_cmpge_epi64_mask(r, mod.m), r, mod.m);
  return r;
}
/// x mod m for any 64-bit lanes when x / m < 2^40 (then the estimated
/// quotient is off by at most 1).
MIRAGE_TARGET_IFMA inline __m512i reduceLanes(__m512i x,
                                              const LaneModulus &mod) {
  __m512i quot =
      _mm512_cvttpd_epu64(_mm512_mul_pd(_mm512_cvtepu64_pd(x), mod.inverse));
  return correct(_mm512_sub_epi64(x, _mm512_mullo_epi64(quot, mod.m)), mod);
}
/// a * b mod p for residues (mulModP lane-wise: the estimate is off by at
/// most 2, so three corrections each way).
MIRAGE_TARGET_IFMA inline __m512i mulModPLanes(__m512i a, __m512i b,
                                               const LaneModulus &p) {
  __m512d prod = _mm512_mul_pd(_mm512_cvtepu64_pd(a), _mm512_cvtepu64_pd(b));
  __m512i quot = _mm512_cvttpd_epu64(_mm512_mul_pd(prod, p.inverse));
  __m512i r =
      _mm512_sub_epi64(_mm512_mullo_epi64(a, b), _mm512_mullo_epi64(quot, p.m));
  r = _mm512_mask_add_epi64(
      r, _mm512_cmplt_epi64_mask(r, _mm512_setzero_si512()), r, p.m);
  r = correct(r, p);
  return _mm512_mask_sub_epi64(r, _mm512_cmpge_epi64_mask(r, p.m), r, p.m);
}
MIRAGE_TARGET_IFMA inline __m512i addLanes(__m512i a, __m512i b,
                                           const LaneModulus &mod) {
  __m512i s = _mm512_add_epi64(a, b);
  return _mm512_mask_sub_epi64(s, _mm512_cmpge_epi64_mask(s, mod.m), s, mod.m);
}
#endif

/// Whether the CPU has the features of the AVX-512 paths (IFMA: also DQ for
/// the lane-wise reductions); MIRAGE_PORTABLE_MATMUL=1 turns them off.
inline bool useAvx512(bool ifma) {
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
           __builtin_cpu_supports("avx512dq") &&
           __builtin_cpu_supports("avx512ifma");
  return __builtin_cpu_supports("avx512f") &&
         __builtin_cpu_supports("avx512vl");
#else
  (void)ifma;
  return false;
#endif
}

inline bool cpuHasAvx512() {
  static const bool has = useAvx512(false);
  return has;
}
inline bool cpuHasIfma() {
  static const bool has = useAvx512(true);
  return has;
}

} // namespace mirage::verify::detail

#endif // MIRAGE_LIB_VERIFY_LANES_H
