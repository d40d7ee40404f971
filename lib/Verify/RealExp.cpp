//===- RealExp.cpp - exp of f64 values in bulk ----------------------------===//
//
// The f64 evaluator's exp, eight values at a time on AVX-512: x = n ln2 + r
// with n = round(x / ln2) and |r| <= ln2 / 2 (ln2 split in a high and a low
// part, so r is exact to about 2^-100), exp(r) by its Taylor polynomial of
// degree 13 (truncation below 1e-17 relative), then scaled by 2^n with
// vscalefpd, which rounds to infinity, to subnormals or to zero as IEEE
// arithmetic does. x is clamped to [-746, 710] first (exp is 0 or inf
// beyond), NaN stays NaN. Within a few ulp of std::exp; the portable path
// is std::exp.
//
//===----------------------------------------------------------------------===//

#include "Domains.h"
#include "Lanes.h"

#include <cmath>

using namespace mirage::verify::detail;

namespace {

#if MIRAGE_HAVE_X86
#define MIRAGE_TARGET_AVX512_INLINE                                            \
  __attribute__((target("avx512f,avx512dq"), always_inline))

MIRAGE_TARGET_AVX512_INLINE inline __m512d expOfLanes(__m512d v) {
  // 1/k! for k = 13 down to 0.
  static constexpr double kCoeffs[] = {1.0 / 6227020800.0,
                                       1.0 / 479001600.0,
                                       1.0 / 39916800.0,
                                       1.0 / 3628800.0,
                                       1.0 / 362880.0,
                                       1.0 / 40320.0,
                                       1.0 / 5040.0,
                                       1.0 / 720.0,
                                       1.0 / 120.0,
                                       1.0 / 24.0,
                                       1.0 / 6.0,
                                       0.5,
                                       1.0,
                                       1.0};
  __mmask8 nan = _mm512_cmp_pd_mask(v, v, _CMP_UNORD_Q);
  __m512d c = _mm512_min_pd(_mm512_max_pd(v, _mm512_set1_pd(-746.0)),
                            _mm512_set1_pd(710.0));
  __m512d k = _mm512_roundscale_pd(
      _mm512_mul_pd(c, _mm512_set1_pd(1.4426950408889634074)),
      _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512d r =
      _mm512_fnmadd_pd(k, _mm512_set1_pd(6.93147180369123816490e-01), c);
  r = _mm512_fnmadd_pd(k, _mm512_set1_pd(1.90821492927058770002e-10), r);
  __m512d p = _mm512_set1_pd(kCoeffs[0]);
  for (int j = 1; j < 14; ++j)
    p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(kCoeffs[j]));
  return _mm512_mask_mov_pd(_mm512_scalef_pd(p, k), nan, v);
}

__attribute__((target("avx512f,avx512dq"))) void
expLanes(const double *x, double *out, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm512_storeu_pd(out + i, expOfLanes(_mm512_loadu_pd(x + i)));
  if (i < n) {
    __mmask8 rest = static_cast<__mmask8>((1u << (n - i)) - 1);
    _mm512_mask_storeu_pd(out + i, rest,
                          expOfLanes(_mm512_maskz_loadu_pd(rest, x + i)));
  }
}
#endif

} // namespace

void mirage::verify::detail::expAllF64(const double *x, double *out,
                                       int64_t n) {
#if MIRAGE_HAVE_X86
  if (cpuHasAvx512())
    return expLanes(x, out, n);
#endif
  for (int64_t i = 0; i < n; ++i)
    out[i] = std::exp(x[i]);
}
