// REQUIRES: libomp
// RUN: mirage-opt %s --mirage-check-equivalence 2>&1 | FileCheck %s --check-prefix=EQUIV
// RUN: mirage-run %s --func=exp_rows | FileCheck %s
// RUN: mirage-run %s --func=exp_rows --omp-threads=0 | FileCheck %s
// RUN: mirage-run %s --func=matmul | FileCheck %s
// RUN: mirage-run %s --func=matmul --omp-threads=0 | FileCheck %s
// RUN: mirage-run %s --func=exp_cols | FileCheck %s
// RUN: mirage-run %s --func=exp_cols --omp-threads=0 | FileCheck %s

// Tail tiles ([B26], docs/lowering.md "Tail tiles"): a grid dim of
// ceil(size / tile) blocks whose last tile overhangs the tensor. The
// interpreter reads the overhang as the last row and drops its writes; the
// CPU path runs the same code as the GPU (loads clamped to the last row,
// stores past the end skipped) and matches it: 100 rows in 7 blocks of 16, a
// matmul of 37 rows in 3 blocks (the contracted dim walked by the loop), and
// 100 columns in 7 blocks (the innermost dim, copied in 8-byte chunks).

// EQUIV-DAG: remark: equivalent to @exp_rows_ref
// EQUIV-DAG: remark: equivalent to @matmul_ref
// EQUIV-DAG: remark: equivalent to @exp_cols_ref
// CHECK: PASS

func.func @exp_rows_ref(%x: tensor<100x64xf16>) -> tensor<100x64xf16> {
  %y = mk.exp %x : tensor<100x64xf16>
  return %y : tensor<100x64xf16>
}
// 100 rows in 7 blocks of 16: the last block's tile overhangs by 12 rows.
func.func @exp_rows(%x: tensor<100x64xf16>) -> tensor<100x64xf16> attributes {mk.reference = @exp_rows_ref} {
  %y = mk.graph_kernel (%x) grid = [7, 1, 1] block = [64, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<100x64xf16>):
    %acc = mb.for_loop -> (tensor<16x64xf16>) {
      %t = mb.input_iter %X imap = [0, -1, -1] fmap = -1 : tensor<100x64xf16> -> tensor<16x64xf16>
      %e = mb.exp %t : tensor<16x64xf16>
      %a = mb.accum_sum %e : tensor<16x64xf16> -> tensor<16x64xf16>
      mb.yield %a : tensor<16x64xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<16x64xf16> -> tensor<100x64xf16>
    mb.return %o : tensor<100x64xf16>
  } : (tensor<100x64xf16>) -> tensor<100x64xf16>
  return %y : tensor<100x64xf16>
}
func.func @matmul_ref(%x: tensor<37x64xf16>, %w: tensor<64x32xf16>) -> tensor<37x32xf16> {
  %y = mk.matmul %x, %w : tensor<37x64xf16>, tensor<64x32xf16> -> tensor<37x32xf16>
  return %y : tensor<37x32xf16>
}
// 37 rows in 3 blocks of 16, the contracted dim walked in 2 steps.
func.func @matmul(%x: tensor<37x64xf16>, %w: tensor<64x32xf16>) -> tensor<37x32xf16> attributes {mk.reference = @matmul_ref} {
  %y = mk.graph_kernel (%x, %w) grid = [3, 2, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<37x64xf16>, %W: tensor<64x32xf16>):
    %acc = mb.for_loop -> (tensor<16x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<37x64xf16> -> tensor<16x32xf16>
      %wt = mb.input_iter %W imap = [-1, 1, -1] fmap = 0 : tensor<64x32xf16> -> tensor<32x16xf16>
      %m = mb.matmul %xt, %wt : tensor<16x32xf16>, tensor<32x16xf16> -> tensor<16x16xf16>
      %a = mb.accum_sum %m : tensor<16x16xf16> -> tensor<16x16xf16>
      mb.yield %a : tensor<16x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, 1, -1] : tensor<16x16xf16> -> tensor<37x32xf16>
    mb.return %o : tensor<37x32xf16>
  } : (tensor<37x64xf16>, tensor<64x32xf16>) -> tensor<37x32xf16>
  return %y : tensor<37x32xf16>
}
func.func @exp_cols_ref(%x: tensor<8x100xf16>) -> tensor<8x100xf16> {
  %y = mk.exp %x : tensor<8x100xf16>
  return %y : tensor<8x100xf16>
}
// The innermost dim with a tail: 100 columns in 7 blocks of 16.
func.func @exp_cols(%x: tensor<8x100xf16>) -> tensor<8x100xf16> attributes {mk.reference = @exp_cols_ref} {
  %y = mk.graph_kernel (%x) grid = [7, 1, 1] block = [64, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<8x100xf16>):
    %acc = mb.for_loop -> (tensor<8x16xf16>) {
      %t = mb.input_iter %X imap = [1, -1, -1] fmap = -1 : tensor<8x100xf16> -> tensor<8x16xf16>
      %e = mb.exp %t : tensor<8x16xf16>
      %a = mb.accum_sum %e : tensor<8x16xf16> -> tensor<8x16xf16>
      mb.yield %a : tensor<8x16xf16>
    }
    %o = mb.output_saver %acc omap = [1, -1, -1] : tensor<8x16xf16> -> tensor<8x100xf16>
    mb.return %o : tensor<8x100xf16>
  } : (tensor<8x100xf16>) -> tensor<8x100xf16>
  return %y : tensor<8x100xf16>
}
