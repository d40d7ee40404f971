// Near misses: --mirage-check-equivalence rejects each candidate below with a
// counterexample.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @mm_ref(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %y = mk.matmul %x, %w : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// Wrong imap and fmap of the square weight: the grid splits W's rows and the
// loop walks its columns, which reads W transposed block-wise.
// expected-error @below {{not equivalent to @mm_ref: output #0 element [}}
func.func @mm_wrong_imap(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @mm_ref} {
  %y = mk.graph_kernel (%x, %w) grid = [2, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf32>, %W: tensor<8x8xf32>):
    %acc = mb.for_loop -> (tensor<4x4xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<4x4xf32>
      %wt = mb.input_iter %W imap = [0, -1, -1] fmap = 1 : tensor<8x8xf32> -> tensor<4x4xf32>
      %m = mb.matmul %xt, %wt : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
      %s = mb.accum_sum %m : tensor<4x4xf32> -> tensor<4x4xf32>
      mb.yield %s : tensor<4x4xf32>
    }
    %o = mb.output_saver %acc omap = [1, -1, -1] : tensor<4x4xf32> -> tensor<4x8xf32>
    mb.return %o : tensor<4x8xf32>
  } : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// The loop walks the wrong dim of X (its rows instead of the shared dim).
// expected-error @below {{not equivalent to @mm_ref: output #0 element [}}
func.func @mm_wrong_fmap(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @mm_ref} {
  %y = mk.graph_kernel (%x, %w) grid = [2, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf32>, %W: tensor<8x8xf32>):
    %acc = mb.for_loop -> (tensor<2x4xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 0 : tensor<4x8xf32> -> tensor<2x8xf32>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = -1 : tensor<8x8xf32> -> tensor<8x4xf32>
      %m = mb.matmul %xt, %wt : tensor<2x8xf32>, tensor<8x4xf32> -> tensor<2x4xf32>
      %s = mb.accum_sum %m : tensor<2x4xf32> -> tensor<2x4xf32>
      mb.yield %s : tensor<2x4xf32>
    }
    %c = mb.concat %acc, %acc dim = 0 : tensor<2x4xf32>, tensor<2x4xf32> -> tensor<4x4xf32>
    %o = mb.output_saver %c omap = [1, -1, -1] : tensor<4x4xf32> -> tensor<4x8xf32>
    mb.return %o : tensor<4x8xf32>
  } : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// The second operand of the matmul reads X's tile instead of W's.
// expected-error @below {{not equivalent to @mm_ref: output #0 element [}}
func.func @mm_wrong_tensor(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @mm_ref} {
  %y:2 = mk.graph_kernel (%x, %w) grid = [2, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf32>, %W: tensor<8x8xf32>):
    %acc:2 = mb.for_loop -> (tensor<4x4xf32>, tensor<4x4xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<4x4xf32>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<8x8xf32> -> tensor<4x4xf32>
      %m = mb.matmul %xt, %xt : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
      %n = mb.matmul %wt, %wt : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
      %s = mb.accum_sum %m : tensor<4x4xf32> -> tensor<4x4xf32>
      %t = mb.accum_sum %n : tensor<4x4xf32> -> tensor<4x4xf32>
      mb.yield %s, %t : tensor<4x4xf32>, tensor<4x4xf32>
    }
    %o = mb.output_saver %acc#0 omap = [1, -1, -1] : tensor<4x4xf32> -> tensor<4x8xf32>
    %p = mb.output_saver %acc#1 omap = [1, -1, -1] : tensor<4x4xf32> -> tensor<4x8xf32>
    mb.return %o, %p : tensor<4x8xf32>, tensor<4x8xf32>
  } : (tensor<4x8xf32>, tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  return %y#0 : tensor<4x8xf32>
}
