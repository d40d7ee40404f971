//===- Matmul.h - Matrix products of the evaluator's domains ----*- C++ -*-===//
//
// The products C = A * B (row-major, A m x k, B k x n) that dominate the
// evaluation of a program: in f64 and f32 with the reduction over k in order
// (each output is sum_l a[i][l] * b[l][j] accumulated from l = 0 up, with no
// fused multiply-add, so every path gives the same bits), and in the finite
// field (exact). Each has a portable path and, where the CPU has it, an
// AVX-512 one (IFMA for the field) chosen at run time; the results are
// identical, the portable paths are exposed for testing that.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_VERIFY_MATMUL_H
#define MIRAGE_VERIFY_MATMUL_H

#include "Mirage/Verify/Field.h"

#include <cstdint>

namespace mirage::verify {

void matmul(const double *a, const double *b, double *c, int64_t m, int64_t k,
            int64_t n);
void matmul(const float *a, const float *b, float *c, int64_t m, int64_t k,
            int64_t n);
/// An output's q component is undefined when its row of A or its column of
/// B holds an undefined q.
void matmul(const FieldValue *a, const FieldValue *b, FieldValue *c, int64_t m,
            int64_t k, int64_t n);

/// The same products on the portable path only.
void matmulPortable(const double *a, const double *b, double *c, int64_t m,
                    int64_t k, int64_t n);
void matmulPortable(const float *a, const float *b, float *c, int64_t m,
                    int64_t k, int64_t n);
void matmulPortable(const FieldValue *a, const FieldValue *b, FieldValue *c,
                    int64_t m, int64_t k, int64_t n);

/// Whether matmul uses the AVX-512 paths on this CPU (for reports).
bool matmulUsesAvx512();

} // namespace mirage::verify

#endif // MIRAGE_VERIFY_MATMUL_H
