// REQUIRES: libomp
// RUN: mirage-run --func=masked_row_sums %s | FileCheck %s --check-prefix=TILED
// RUN: mirage-run --func=causal_softmax %s | FileCheck %s --check-prefix=SOFTMAX
// RUN: mirage-run --func=window_length %s | FileCheck %s --check-prefix=WINDOW
// RUN: mirage-run --func=where_softmax %s | FileCheck %s --check-prefix=WHERE
// RUN: not mirage-opt --mlir-print-op-on-diagnostic=false --mirage-check-equivalence %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV
// RUN: mirage-opt %s --mirage-wrap-kernels --convert-mirage-to-gpu | FileCheck %s --check-prefix=GPU

// Masks from index compares (mk/mb.band_mask, issue 30 item 4). The CPU path
// runs the GPU-structured code and is compared with the f64 interpreter:
// - masked_row_sums: a block graph whose tiles lie away from the origin on
//   both masked dims (grid x over the 64 rows, the loop over the 128
//   columns in 4 steps of 32), a causal band with an offset in the loop and
//   a row-length mask after it; the field and f64 checks compare it with
//   its kernel-level reference, and a copy that forgets the loop's offset
//   (fmap = -1: every tile masked as if it were the first) differs;
// - causal_softmax: -inf fill, so a row's max and sum skip the masked
//   scores (rows 0..15 of 48 keys with 32 cached positions: keys up to
//   32 + i kept), wrapped kernel by kernel;
// - window_length: an additive sliding window and a one-dim length mask on
//   f16;
// - where_softmax: a mask tensor (mk.where, keys whose mask is 0 are -inf)
//   broadcast over the rows before a safe softmax; the mask is relu of an
//   input uniform in [-1, 1), so about half the keys are masked.
// TILED: @masked_row_sums on cpu
// TILED-NEXT: PASS
// SOFTMAX: @causal_softmax on cpu
// SOFTMAX-NEXT: PASS
// WINDOW: @window_length on cpu
// WINDOW-NEXT: PASS
// WHERE: @where_softmax on cpu
// WHERE-NEXT: PASS
// EQUIV: remark: equivalent to @masked_row_sums_reference
// EQUIV: error: not equivalent to @masked_row_sums_reference: output #0
// GPU: arith.cmpi sle
// GPU: arith.select

func.func @masked_row_sums_reference(%s: tensor<64x128xf32>) -> tensor<64x1xf32> {
  %m = mk.band_mask %s dims = [0, 1] upper = 40 fill = 0.0 : tensor<64x128xf32>
  %r = mk.reduce_sum %m dim = 1 : tensor<64x128xf32> -> tensor<64x1xf32>
  %l = mk.band_mask %r dims = [0] lower = 20 fill = 0.5 additive : tensor<64x1xf32>
  return %l : tensor<64x1xf32>
}

func.func @masked_row_sums(%s: tensor<64x128xf32>) -> tensor<64x1xf32> attributes {mk.reference = @masked_row_sums_reference} {
  %y = mk.graph_kernel (%s) grid = [4, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%S: tensor<64x128xf32>):
    %acc = mb.for_loop -> (tensor<16x1xf32>) {
      %t = mb.input_iter %S imap = [0, -1, -1] fmap = 1 : tensor<64x128xf32> -> tensor<16x32xf32>
      %m = mb.band_mask %t dims = [0, 1] upper = 40 fill = 0.0 imap = [0, -1, -1] fmap = 1 : tensor<16x32xf32>
      %a = mb.accum_sum_last %m : tensor<16x32xf32> -> tensor<16x1xf32>
      mb.yield %a : tensor<16x1xf32>
    }
    %l = mb.band_mask %acc dims = [0] lower = 20 fill = 0.5 additive imap = [0, -1, -1] fmap = -1 : tensor<16x1xf32>
    %o = mb.output_saver %l omap = [0, -1, -1] : tensor<16x1xf32> -> tensor<64x1xf32>
    mb.return %o : tensor<64x1xf32>
  } : (tensor<64x128xf32>) -> tensor<64x1xf32>
  return %y : tensor<64x1xf32>
}

func.func @masked_row_sums_forgets_the_loop(%s: tensor<64x128xf32>) -> tensor<64x1xf32> attributes {mk.reference = @masked_row_sums_reference} {
  %y = mk.graph_kernel (%s) grid = [4, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%S: tensor<64x128xf32>):
    %acc = mb.for_loop -> (tensor<16x1xf32>) {
      %t = mb.input_iter %S imap = [0, -1, -1] fmap = 1 : tensor<64x128xf32> -> tensor<16x32xf32>
      %m = mb.band_mask %t dims = [0, 1] upper = 40 fill = 0.0 imap = [0, -1, -1] fmap = -1 : tensor<16x32xf32>
      %a = mb.accum_sum_last %m : tensor<16x32xf32> -> tensor<16x1xf32>
      mb.yield %a : tensor<16x1xf32>
    }
    %l = mb.band_mask %acc dims = [0] lower = 20 fill = 0.5 additive imap = [0, -1, -1] fmap = -1 : tensor<16x1xf32>
    %o = mb.output_saver %l omap = [0, -1, -1] : tensor<16x1xf32> -> tensor<64x1xf32>
    mb.return %o : tensor<64x1xf32>
  } : (tensor<64x128xf32>) -> tensor<64x1xf32>
  return %y : tensor<64x1xf32>
}

func.func @causal_softmax(%s: tensor<2x16x48xf32>) -> tensor<2x16x48xf32> {
  %m = mk.band_mask %s dims = [1, 2] upper = 32 fill = 0xFFF0000000000000 : tensor<2x16x48xf32>
  %mx = mk.reduce_max %m dim = 2 : tensor<2x16x48xf32> -> tensor<2x16x1xf32>
  %d = mk.sub %m, %mx : tensor<2x16x48xf32>, tensor<2x16x1xf32> -> tensor<2x16x48xf32>
  %e = mk.exp %d : tensor<2x16x48xf32>
  %sum = mk.reduce_sum %e dim = 2 : tensor<2x16x48xf32> -> tensor<2x16x1xf32>
  %r = mk.div %e, %sum : tensor<2x16x48xf32>, tensor<2x16x1xf32> -> tensor<2x16x48xf32>
  return %r : tensor<2x16x48xf32>
}

func.func @window_length(%s: tensor<64x64xf16>) -> tensor<64x64xf16> {
  %m = mk.band_mask %s dims = [0, 1] lower = -5 upper = 0 fill = -1.0e4 additive : tensor<64x64xf16>
  %l = mk.band_mask %m dims = [1] upper = 40 fill = 0.0 : tensor<64x64xf16>
  return %l : tensor<64x64xf16>
}

func.func @where_softmax(%in: tensor<1x64xf32>, %s: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %mask = mk.relu %in : tensor<1x64xf32>
  %m = mk.where %mask, %s fill = 0xFFF0000000000000 : tensor<1x64xf32>, tensor<16x64xf32> -> tensor<16x64xf32>
  %mx = mk.reduce_max %m dim = 1 : tensor<16x64xf32> -> tensor<16x1xf32>
  %d = mk.sub %m, %mx : tensor<16x64xf32>, tensor<16x1xf32> -> tensor<16x64xf32>
  %e = mk.exp %d : tensor<16x64xf32>
  %sum = mk.reduce_sum %e dim = 1 : tensor<16x64xf32> -> tensor<16x1xf32>
  %r = mk.div %e, %sum : tensor<16x64xf32>, tensor<16x1xf32> -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}
