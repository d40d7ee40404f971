// REQUIRES: libomp
// RUN: mirage-run %s --func=odd_rows | FileCheck %s --check-prefix=ODD
// RUN: mirage-run %s --func=odd_rows --omp-threads=0 | FileCheck %s --check-prefix=ODD
// RUN: mirage-run %s --func=mixed_chunks | FileCheck %s --check-prefix=MIXED
// RUN: mirage-run %s --func=mixed_chunks --omp-threads=0 | FileCheck %s --check-prefix=MIXED
// RUN: mirage-run %s --func=column | FileCheck %s --check-prefix=COLUMN
// RUN: mirage-opt %s --mirage-wrap-kernels --convert-mirage-to-gpu="async-copies=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// The tile copies' fallbacks run on the CPU path (2 OpenMP threads per
// block, and one per GPU thread) and match the interpreter: rows of 3 and 7
// f16 that no chunk divides (element by element, with a remark), rows of
// 12 and 10 f16 that take 8- and 4-byte chunks, and a [64, 1] column of
// sums whose kernels copy one-element rows.

// ODD: @odd_rows on cpu
// ODD-NEXT: PASS
// MIXED: @mixed_chunks on cpu
// MIXED-NEXT: PASS
// COLUMN: @column on cpu
// COLUMN-NEXT: PASS
// REMARK: remark: input tile copied one element (2 bytes) at a time: no 16-, 8- or 4-byte chunk divides both its contiguous rows (15 elements) and the device tensor's (15)
// REMARK: remark: output tile copied one element (2 bytes) at a time: its contiguous rows of 1 element(s) are narrower than 4 bytes
func.func @odd_rows(%x: tensor<5x3xf16>, %w: tensor<3x7xf16>) -> tensor<5x7xf16> {
  %e = mk.exp %x : tensor<5x3xf16>
  %m = mk.matmul %e, %w : tensor<5x3xf16>, tensor<3x7xf16> -> tensor<5x7xf16>
  %s = mk.silu %m : tensor<5x7xf16>
  return %s : tensor<5x7xf16>
}
func.func @mixed_chunks(%x: tensor<6x12xf16>, %w: tensor<12x10xf16>) -> tensor<6x10xf16> {
  %m = mk.matmul %x, %w : tensor<6x12xf16>, tensor<12x10xf16> -> tensor<6x10xf16>
  %r = mk.rms_norm %m eps = 1.0e-06 : tensor<6x10xf16>
  return %r : tensor<6x10xf16>
}
func.func @column(%x: tensor<64x40xf16>) -> tensor<64x1xf16> {
  %s = mk.reduce_sum %x dim = 1 : tensor<64x40xf16> -> tensor<64x1xf16>
  %e = mk.exp %s : tensor<64x1xf16>
  return %e : tensor<64x1xf16>
}
