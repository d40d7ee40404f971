// Near misses with epilogue inputs ([B21]): --mirage-check-equivalence
// rejects each candidate below with a counterexample.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @mm_res_ref(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>, %r: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %m = mk.matmul %x, %w : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  %y = mk.add %m, %r : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}

// The residual's tile is read with the grid dims swapped: block (x, y) adds
// the residual of block (y, x).
// expected-error @below {{not equivalent to @mm_res_ref: output #0 element [}}
func.func @mm_res_swapped_imap(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>, %r: tensor<4x4xf32>) -> tensor<4x4xf32> attributes {mk.reference = @mm_res_ref} {
  %y = mk.graph_kernel (%x, %w, %r) grid = [2, 2, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf32>, %W: tensor<8x4xf32>, %R: tensor<4x4xf32>):
    %acc = mb.for_loop -> (tensor<2x2xf32>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<2x4xf32>
      %wt = mb.input_iter %W imap = [-1, 1, -1] fmap = 0 : tensor<8x4xf32> -> tensor<4x2xf32>
      %m = mb.matmul %xt, %wt : tensor<2x4xf32>, tensor<4x2xf32> -> tensor<2x2xf32>
      %s = mb.accum_sum %m : tensor<2x2xf32> -> tensor<2x2xf32>
      mb.yield %s : tensor<2x2xf32>
    }
    %rt = mb.input_iter %R imap = [1, 0, -1] fmap = -1 : tensor<4x4xf32> -> tensor<2x2xf32>
    %sum = mb.add %acc, %rt : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<2x2xf32>
    %o = mb.output_saver %sum omap = [0, 1, -1] : tensor<2x2xf32> -> tensor<4x4xf32>
    mb.return %o : tensor<4x4xf32>
  } : (tensor<4x8xf32>, tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}

// The residual read in the loop body and accumulated: added F = 2 times.
// expected-error @below {{not equivalent to @mm_res_ref: output #0 element [}}
func.func @mm_res_in_the_loop(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>, %r: tensor<4x4xf32>) -> tensor<4x4xf32> attributes {mk.reference = @mm_res_ref} {
  %y = mk.graph_kernel (%x, %w, %r) grid = [2, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf32>, %W: tensor<8x4xf32>, %R: tensor<4x4xf32>):
    %acc = mb.for_loop -> (tensor<4x2xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<4x4xf32>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<8x4xf32> -> tensor<4x2xf32>
      %rt = mb.input_iter %R imap = [1, -1, -1] fmap = -1 : tensor<4x4xf32> -> tensor<4x2xf32>
      %m = mb.matmul %xt, %wt : tensor<4x4xf32>, tensor<4x2xf32> -> tensor<4x2xf32>
      %a = mb.add %m, %rt : tensor<4x2xf32>, tensor<4x2xf32> -> tensor<4x2xf32>
      %s = mb.accum_sum %a : tensor<4x2xf32> -> tensor<4x2xf32>
      mb.yield %s : tensor<4x2xf32>
    }
    %o = mb.output_saver %acc omap = [1, -1, -1] : tensor<4x2xf32> -> tensor<4x4xf32>
    mb.return %o : tensor<4x4xf32>
  } : (tensor<4x8xf32>, tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}
