// The superoptimizer on a linear layer with bias, activation and residual,
// relu(X . W + b) + R and the silu form, X [8, 4096], W [4096, 256], b
// [1, 256], R [8, 256], fp16: one graph-defined kernel whose loop walks the
// 4096-dim and accumulates the matmul, and whose bias and residual are
// epilogue inputs ([B21]): read after the loop (fmap -1) by the post-loop
// add, activation and add. A kernel without a loop (the whole 4096-dim in
// one tile, where the body may add b and R) is modelled slower. The result
// is checked against the input by the equivalence verifier; test/Run
// runs it on the CPU path (epilogue-search.mlir). And the Llama down
// projection with its residual, R + H . W_down, at a small shape.
//
// RUN: mirage-opt --mirage-superoptimize="keep-reference=1" %s -o %t 2> %t.remarks
// RUN: FileCheck %s --input-file=%t
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: mirage-opt --mirage-check-equivalence %t -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV

// REMARK: remark: superoptimized: graph_kernel grid [{{[0-9]+}},1,1] forloop {{[0-9]+}} {matmul accum_sum | add relu add}; 1 kernel(s)
// REMARK-SAME: verified 1
// REMARK: remark: superoptimized: graph_kernel grid [{{[0-9]+}},1,1] forloop {{[0-9]+}} {matmul accum_sum | add silu add}; 1 kernel(s)
// REMARK-SAME: verified 1
// REMARK: remark: superoptimized: graph_kernel grid [{{[0-9]+}},1,1] forloop {{[0-9]+}} {matmul accum_sum | add}; 1 kernel(s)
// REMARK-SAME: verified 1

// EQUIV: remark: equivalent to @linear_bias_relu_residual_reference
// EQUIV: remark: equivalent to @linear_bias_silu_residual_reference
// EQUIV: remark: equivalent to @down_residual_reference

// CHECK-LABEL: func.func @linear_bias_relu_residual(
// CHECK-SAME:      attributes {mk.reference = @linear_bias_relu_residual_reference}
// CHECK-NEXT:    %[[K:.*]] = mk.graph_kernel(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) grid = [{{[0-9]+}}, 1, 1] block = [{{[0-9]+}}, 1, 1] forloop = {{[0-9]+}} {
// CHECK-NEXT:    ^bb0(%{{.*}}: tensor<8x4096xf16>, %{{.*}}: tensor<4096x256xf16>, %[[B:.*]]: tensor<1x256xf16>, %[[R:.*]]: tensor<8x256xf16>):
// CHECK-NEXT:      %[[ACC:.*]] = mb.for_loop
// CHECK-NEXT:        mb.input_iter %{{.*}} imap = [-1, -1, -1] fmap = 1
// CHECK-NEXT:        mb.input_iter %{{.*}} imap = [1, -1, -1] fmap = 0
// CHECK-NEXT:        mb.matmul
// CHECK-NEXT:        mb.accum_sum
// CHECK-NEXT:        mb.yield
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[BT:.*]] = mb.input_iter %[[B]] imap = [1, -1, -1] fmap = -1
// CHECK-NEXT:      %[[RT:.*]] = mb.input_iter %[[R]] imap = [1, -1, -1] fmap = -1
// CHECK-NEXT:      %[[A:.*]] = mb.add %{{.*}}, %{{.*}}
// CHECK-NEXT:      %[[H:.*]] = mb.relu %[[A]]
// CHECK-NEXT:      %[[S:.*]] = mb.add %{{.*}}, %{{.*}}
// CHECK-NEXT:      mb.output_saver %[[S]] omap = [1, -1, -1]
// CHECK-NOT:     mk.graph_kernel
// CHECK:         return %[[K]]
func.func @linear_bias_relu_residual(%x: tensor<8x4096xf16>, %w: tensor<4096x256xf16>, %b: tensor<1x256xf16>, %r: tensor<8x256xf16>) -> tensor<8x256xf16> {
  %m = mk.matmul %x, %w : tensor<8x4096xf16>, tensor<4096x256xf16> -> tensor<8x256xf16>
  %a = mk.add %m, %b : tensor<8x256xf16>, tensor<1x256xf16> -> tensor<8x256xf16>
  %h = mk.relu %a : tensor<8x256xf16>
  %y = mk.add %h, %r : tensor<8x256xf16>, tensor<8x256xf16> -> tensor<8x256xf16>
  return %y : tensor<8x256xf16>
}

// CHECK-LABEL: func.func @linear_bias_silu_residual(
// CHECK:           mb.yield
// CHECK-NEXT:      }
// CHECK-NEXT:      mb.input_iter %{{.*}} imap = [1, -1, -1] fmap = -1 : tensor<1x256xf16> -> tensor<1x{{[0-9]+}}xf16>
// CHECK-NEXT:      mb.input_iter %{{.*}} imap = [1, -1, -1] fmap = -1 : tensor<8x256xf16> -> tensor<8x{{[0-9]+}}xf16>
// CHECK:           mb.silu
func.func @linear_bias_silu_residual(%x: tensor<8x4096xf16>, %w: tensor<4096x256xf16>, %b: tensor<1x256xf16>, %r: tensor<8x256xf16>) -> tensor<8x256xf16> {
  %m = mk.matmul %x, %w : tensor<8x4096xf16>, tensor<4096x256xf16> -> tensor<8x256xf16>
  %a = mk.add %m, %b : tensor<8x256xf16>, tensor<1x256xf16> -> tensor<8x256xf16>
  %h = mk.silu %a : tensor<8x256xf16>
  %y = mk.add %h, %r : tensor<8x256xf16>, tensor<8x256xf16> -> tensor<8x256xf16>
  return %y : tensor<8x256xf16>
}

// CHECK-LABEL: func.func @down_residual(
// CHECK:           mb.yield
// CHECK-NEXT:      }
// CHECK-NEXT:      mb.input_iter %{{.*}} imap = [1, -1, -1] fmap = -1 : tensor<8x512xbf16> -> tensor<8x{{[0-9]+}}xbf16>
// CHECK-NEXT:      mb.add
func.func @down_residual(%h: tensor<8x4096xbf16>, %w: tensor<4096x512xbf16>, %r: tensor<8x512xbf16>) -> tensor<8x512xbf16> {
  %m = mk.matmul %h, %w : tensor<8x4096xbf16>, tensor<4096x512xbf16> -> tensor<8x512xbf16>
  %o = mk.add %r, %m : tensor<8x512xbf16>, tensor<8x512xbf16> -> tensor<8x512xbf16>
  return %o : tensor<8x512xbf16>
}
