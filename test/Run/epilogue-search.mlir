// REQUIRES: libomp
// RUN: mirage-opt %s --mirage-superoptimize 2> %t.remarks | mirage-run - | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks

// The search result of a linear layer with bias, relu and residual (as
// test/Search/superoptimize-epilogue.mlir): one graph-defined kernel whose
// bias and residual are epilogue inputs ([B21]), run on the CPU path against
// the f64 interpreter.

// REMARK: superoptimized: graph_kernel grid [{{[0-9]+}},1,1] forloop {{[0-9]+}} {matmul accum_sum | add relu add}; 1 kernel(s)
// CHECK: @linear_bias_relu_residual on cpu (threads=2): max abs err
// CHECK-NEXT: PASS

func.func @linear_bias_relu_residual(%x: tensor<8x4096xf16>, %w: tensor<4096x256xf16>, %b: tensor<1x256xf16>, %r: tensor<8x256xf16>) -> tensor<8x256xf16> {
  %m = mk.matmul %x, %w : tensor<8x4096xf16>, tensor<4096x256xf16> -> tensor<8x256xf16>
  %a = mk.add %m, %b : tensor<8x256xf16>, tensor<1x256xf16> -> tensor<8x256xf16>
  %h = mk.relu %a : tensor<8x256xf16>
  %y = mk.add %h, %r : tensor<8x256xf16>, tensor<8x256xf16> -> tensor<8x256xf16>
  return %y : tensor<8x256xf16>
}
