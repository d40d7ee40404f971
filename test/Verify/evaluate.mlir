// --mirage-evaluate prints the outputs of each function; with iota inputs
// (element i of every argument is i + 1) the values are hand-checkable.
// RUN: mirage-opt --mirage-evaluate="inputs=iota print-values" %s -o /dev/null | FileCheck %s
// RUN: mirage-opt --mirage-evaluate="inputs=iota print-values domain=field func=kernel" %s -o /dev/null | FileCheck %s --check-prefix=FIELD
// RUN: mirage-opt --mirage-evaluate="seed=3 func=kernel" %s -o /dev/null > %t.a
// RUN: mirage-opt --mirage-evaluate="seed=3 func=kernel" %s -o /dev/null > %t.b
// RUN: diff %t.a %t.b
// RUN: mirage-opt --mirage-evaluate="seed=4 func=kernel" %s -o /dev/null > %t.c
// RUN: not diff %t.a %t.c

// x = [[1, 2, 3], [4, 5, 6]]: row sums 6 and 15.
// CHECK: @rowsum output #0 tensor<2x1xf32>: sum = 21 mean = 10.5 min = 6 max = 15
// CHECK-NEXT: 6 15
func.func @rowsum(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  %s = mk.reduce_sum %x dim = 1 : tensor<2x3xf32> -> tensor<2x1xf32>
  return %s : tensor<2x1xf32>
}

// Block b reads columns 2b..2b+1 of x (2x4) at iteration 0 and the loop walks
// rows; the sum over the 2 iterations adds the two rows:
// [1+5, 2+6 | 3+7, 4+8].
// CHECK: @kernel output #0 tensor<1x4xf32>: sum = 36 mean = 9 min = 6 max = 12
// CHECK-NEXT: 6 8 10 12
// FIELD: @kernel output #0 tensor<1x4xf32>: sum = (36, 36)
// FIELD-NEXT: (6, 6) (8, 8) (10, 10) (12, 12)
func.func @kernel(%x: tensor<2x4xf32>) -> tensor<1x4xf32> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<2x4xf32>):
    %acc = mb.for_loop -> (tensor<1x2xf32>) {
      %t = mb.input_iter %X imap = [1, -1, -1] fmap = 0 : tensor<2x4xf32> -> tensor<1x2xf32>
      %s = mb.accum_sum %t : tensor<1x2xf32> -> tensor<1x2xf32>
      mb.yield %s : tensor<1x2xf32>
    }
    %o = mb.output_saver %acc omap = [1, -1, -1] : tensor<1x2xf32> -> tensor<1x4xf32>
    mb.return %o : tensor<1x4xf32>
  } : (tensor<2x4xf32>) -> tensor<1x4xf32>
  return %y : tensor<1x4xf32>
}

// A thread graph broadcasting a 2x1 tile over 2x2: (a - b) * 0.5 with
// a = [[1, 2], [3, 4]] and b = [[1], [2]].
// CHECK: @thread output #0 tensor<2x2xf32>: sum = 2 mean = 0.5 min = 0 max = 1
// CHECK-NEXT: 0 0.5 0.5 1
func.func @thread(%x: tensor<2x2xf32>, %y: tensor<2x1xf32>) -> tensor<2x2xf32> {
  %r = mk.graph_kernel (%x, %y) grid = [1, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<2x2xf32>, %Y: tensor<2x1xf32>):
    %acc:2 = mb.for_loop -> (tensor<2x2xf32>, tensor<2x1xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = -1 : tensor<2x2xf32> -> tensor<2x2xf32>
      %yt = mb.input_iter %Y imap = [-1, -1, -1] fmap = -1 : tensor<2x1xf32> -> tensor<2x1xf32>
      %a = mb.accum_sum %xt : tensor<2x2xf32> -> tensor<2x2xf32>
      %b = mb.accum_sum %yt : tensor<2x1xf32> -> tensor<2x1xf32>
      mb.yield %a, %b : tensor<2x2xf32>, tensor<2x1xf32>
    }
    %d = mt.thread_graph (%acc#0, %acc#1) : (tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x2xf32> {
    ^bb0(%a: f32, %b: f32):
      %s = mt.sub %a, %b : f32
      %h = mt.mul_scalar %s, 0.5 : f32
      mt.yield %h : f32
    }
    %o = mb.output_saver %d omap = [-1, -1, -1] : tensor<2x2xf32> -> tensor<2x2xf32>
    mb.return %o : tensor<2x2xf32>
  } : (tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}
