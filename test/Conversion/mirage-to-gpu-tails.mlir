// RUN: mirage-opt %s --convert-mirage-to-gpu -split-input-file | FileCheck %s
// RUN: mirage-opt %s --convert-mirage-to-gpu="async-copies=1" -split-input-file | FileCheck %s --check-prefix=ASYNC

// Tail tiles ([B26]): the device index of every load along a dim with a
// tail is clamped to the last row (arith.minui; the innermost index to its
// last chunk) and every store past the end is skipped (scf.if on the
// unclamped index). Dims without a tail get neither.

// The tile's rows are whole rows of the tensor: the copy merges them into
// one index of 100 * 64 elements, copied in chunks of 8 (the last at 6392).
// CHECK-LABEL: func.func @exp_rows
// CHECK:       gpu.launch
// CHECK:       %[[AT:.*]] = arith.minui %{{.*}}, %c6392
// CHECK-NEXT:  arith.addi
// CHECK-NEXT:  vector.load %{{.*}}[%[[AT]]]
// CHECK:       %[[IN:.*]] = arith.cmpi ult, %[[TO:.*]], %c6400
// CHECK-NEXT:  scf.if %[[IN]]
// CHECK:       vector.store %{{.*}}[%[[TO]]]
// ASYNC-LABEL: func.func @exp_rows
// ASYNC:       %[[AT:.*]] = arith.minui %{{.*}}, %c6392
// ASYNC:       nvgpu.device_async_copy %{{.*}}[%[[AT]]]
func.func @exp_rows(%x: tensor<100x64xf16>) -> tensor<100x64xf16> {
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

// -----

// The rows of X and of the output have a tail; W's tiles do not.
// CHECK-LABEL: func.func @matmul
// CHECK:       arith.minui %{{.*}}, %c36
// CHECK-NOT:   arith.minui
// CHECK:       arith.cmpi ult, %{{.*}}, %c37
// ASYNC-LABEL: func.func @matmul
// ASYNC:       arith.minui %{{.*}}, %c36
// ASYNC:       nvgpu.device_async_copy
func.func @matmul(%x: tensor<37x64xf16>, %w: tensor<64x32xf16>) -> tensor<37x32xf16> {
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

// -----

// The innermost dim: chunks of 4 elements, the last one starting at 96.
// CHECK-LABEL: func.func @exp_cols
// CHECK:       arith.minui %{{.*}}, %c96
// CHECK:       arith.cmpi ult, %{{.*}}, %c100
func.func @exp_cols(%x: tensor<8x100xf16>) -> tensor<8x100xf16> {
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
