// REQUIRES: libomp
// RUN: mirage-run %mirage_src_root/test/Programs/llama_down_residual_fused.mlir --func=llama_down_residual | FileCheck %s
// RUN: mirage-run %s --func=bias_relu_residual --omp-threads=0 | FileCheck %s --check-prefix=BIAS

// Graph-defined kernels with epilogue inputs ([B21]) run on the CPU path
// against the f64 interpreter: the known-good Llama down projection with its
// residual (test/Programs), and a linear layer whose bias (a 1xN row,
// broadcast) and residual are read after the loop around a relu, with one
// OpenMP thread per GPU thread so that the barrier before the epilogue
// tiles' readers is exercised.

// CHECK: output 0 (f16, 1024 elements): max abs err
// CHECK: @llama_down_residual on cpu (threads=2): max abs err
// CHECK-NEXT: PASS
// BIAS: @bias_relu_residual on cpu (threads=0): max abs err
// BIAS-NEXT: PASS

func.func @bias_relu_residual(%x: tensor<16x512xf16>, %w: tensor<512x128xf16>, %b: tensor<1x128xf16>, %r: tensor<16x128xf16>) -> tensor<16x128xf16> {
  %y = mk.graph_kernel (%x, %w, %b, %r) grid = [2, 4, 1] block = [64, 1, 1] forloop = 8 {
  ^bb0(%X: tensor<16x512xf16>, %W: tensor<512x128xf16>, %B: tensor<1x128xf16>, %R: tensor<16x128xf16>):
    %acc = mb.for_loop -> (tensor<8x32xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<16x512xf16> -> tensor<8x64xf16>
      %wt = mb.input_iter %W imap = [-1, 1, -1] fmap = 0 : tensor<512x128xf16> -> tensor<64x32xf16>
      %m = mb.matmul %xt, %wt : tensor<8x64xf16>, tensor<64x32xf16> -> tensor<8x32xf16>
      %s = mb.accum_sum %m : tensor<8x32xf16> -> tensor<8x32xf16>
      mb.yield %s : tensor<8x32xf16>
    }
    %bt = mb.input_iter %B imap = [-1, 1, -1] fmap = -1 : tensor<1x128xf16> -> tensor<1x32xf16>
    %a = mb.add %acc, %bt : tensor<8x32xf16>, tensor<1x32xf16> -> tensor<8x32xf16>
    %h = mb.relu %a : tensor<8x32xf16>
    %rt = mb.input_iter %R imap = [0, 1, -1] fmap = -1 : tensor<16x128xf16> -> tensor<8x32xf16>
    %sum = mb.add %h, %rt : tensor<8x32xf16>, tensor<8x32xf16> -> tensor<8x32xf16>
    %o = mb.output_saver %sum omap = [0, 1, -1] : tensor<8x32xf16> -> tensor<16x128xf16>
    mb.return %o : tensor<16x128xf16>
  } : (tensor<16x512xf16>, tensor<512x128xf16>, tensor<1x128xf16>, tensor<16x128xf16>) -> tensor<16x128xf16>
  return %y : tensor<16x128xf16>
}
