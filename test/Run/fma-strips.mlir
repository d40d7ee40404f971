// Matmul tiles off the tensor cores (the CPU path, or f32 operands) run as
// FMA strips (KernelEmitterMma.cpp, emitFmaMatmul): a thread sums s
// outputs of one row, n / s columns apart, so that one load of A(i, k)
// feeds s FMAs and each load of B reads consecutive columns across
// consecutive threads. s is 4 or 2 where the row divides and every thread
// still has a strip, else 1. Checked against the f64 interpreter on the CPU
// path over a walked k (the accumulator updated in place), an odd row of 6
// (strips of 2) and a batched tile.
// RUN: mirage-run %s --func=strip4 | FileCheck %s --check-prefix=S4
// RUN: mirage-run %s --func=strip2 | FileCheck %s --check-prefix=S2
// RUN: mirage-run %s --func=batched | FileCheck %s --check-prefix=B
// RUN: mirage-run %s --func=strip4 --omp-threads=0 | FileCheck %s --check-prefix=S4
// RUN: mirage-opt %s --convert-mirage-to-gpu="tensor-cores=0" | FileCheck %s --check-prefix=IR

// S4: PASS
// S2: PASS
// B: PASS

// 16x48 outputs over 64 threads: strips of 4 outputs 12 columns apart.
// IR-LABEL: func.func @strip4
// IR: %[[X:.*]] = memref.view {{.*}} to memref<16x32xf16
// IR: %[[W:.*]] = memref.view {{.*}} to memref<32x48xf16
// IR: scf.for %[[E:.*]] = %{{.*}} to %c192 step
// IR: %[[C:.*]] = arith.remui %[[E]], %c12
// IR: arith.addi %[[C]], %c12
// IR: arith.addi %[[C]], %c24
// IR: arith.addi %[[C]], %c36
// IR: scf.for {{.*}} iter_args({{.*}}, {{.*}}, {{.*}}, {{.*}}) -> (f32, f32, f32, f32)
// IR-NEXT: memref.load %[[X]]
// IR: memref.load %[[W]]
// IR: memref.load %[[W]]
// IR: memref.load %[[W]]
// IR: memref.load %[[W]]
// IR-NOT: memref.load %[[X]]
// IR: scf.yield
// Rows of 6: strips of 2, 3 columns apart.
// IR-LABEL: func.func @strip2
// IR: scf.for {{.*}} iter_args({{.*}}, {{.*}}) -> (f32, f32)

func.func @strip4(%x: tensor<16x64xf16>, %w: tensor<64x48xf16>) -> tensor<16x48xf16> {
  %y = mk.graph_kernel (%x, %w) grid = [1, 1, 1] block = [64, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<16x64xf16>, %W: tensor<64x48xf16>):
    %acc = mb.for_loop -> (tensor<16x48xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<16x64xf16> -> tensor<16x32xf16>
      %wt = mb.input_iter %W imap = [-1, -1, -1] fmap = 0 : tensor<64x48xf16> -> tensor<32x48xf16>
      %m = mb.matmul %xt, %wt : tensor<16x32xf16>, tensor<32x48xf16> -> tensor<16x48xf16>
      %s = mb.accum_sum %m : tensor<16x48xf16> -> tensor<16x48xf16>
      mb.yield %s : tensor<16x48xf16>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<16x48xf16> -> tensor<16x48xf16>
    mb.return %o : tensor<16x48xf16>
  } : (tensor<16x64xf16>, tensor<64x48xf16>) -> tensor<16x48xf16>
  return %y : tensor<16x48xf16>
}

func.func @strip2(%x: tensor<16x32xf32>, %w: tensor<32x6xf32>) -> tensor<16x6xf32> {
  %y = mk.graph_kernel (%x, %w) grid = [1, 1, 1] block = [32, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<16x32xf32>, %W: tensor<32x6xf32>):
    %acc = mb.for_loop -> (tensor<16x6xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = -1 : tensor<16x32xf32> -> tensor<16x32xf32>
      %wt = mb.input_iter %W imap = [-1, -1, -1] fmap = -1 : tensor<32x6xf32> -> tensor<32x6xf32>
      %m = mb.matmul %xt, %wt : tensor<16x32xf32>, tensor<32x6xf32> -> tensor<16x6xf32>
      %r = mb.relu %m : tensor<16x6xf32>
      %s = mb.accum_sum %r : tensor<16x6xf32> -> tensor<16x6xf32>
      mb.yield %s : tensor<16x6xf32>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<16x6xf32> -> tensor<16x6xf32>
    mb.return %o : tensor<16x6xf32>
  } : (tensor<16x32xf32>, tensor<32x6xf32>) -> tensor<16x6xf32>
  return %y : tensor<16x6xf32>
}

func.func @batched(%x: tensor<4x8x16xf16>, %w: tensor<4x16x32xf16>) -> tensor<4x8x32xf16> {
  %y = mk.graph_kernel (%x, %w) grid = [2, 1, 1] block = [64, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<4x8x16xf16>, %W: tensor<4x16x32xf16>):
    %acc = mb.for_loop -> (tensor<2x8x32xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = -1 : tensor<4x8x16xf16> -> tensor<2x8x16xf16>
      %wt = mb.input_iter %W imap = [0, -1, -1] fmap = -1 : tensor<4x16x32xf16> -> tensor<2x16x32xf16>
      %m = mb.matmul %xt, %wt : tensor<2x8x16xf16>, tensor<2x16x32xf16> -> tensor<2x8x32xf16>
      %s = mb.accum_sum %m : tensor<2x8x32xf16> -> tensor<2x8x32xf16>
      mb.yield %s : tensor<2x8x32xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<2x8x32xf16> -> tensor<4x8x32xf16>
    mb.return %o : tensor<4x8x32xf16>
  } : (tensor<4x8x16xf16>, tensor<4x16x32xf16>) -> tensor<4x8x32xf16>
  return %y : tensor<4x8x32xf16>
}
