// Near misses: --mirage-check-equivalence rejects each candidate below with a
// counterexample.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

// A thread graph with swapped sub operands.
func.func @sub_ref(%x: tensor<4x4xf32>, %y: tensor<4x1xf32>) -> tensor<4x4xf32> {
  %d = mk.sub %x, %y : tensor<4x4xf32>, tensor<4x1xf32> -> tensor<4x4xf32>
  return %d : tensor<4x4xf32>
}
// expected-error @below {{not equivalent to @sub_ref: output #0 element [}}
func.func @sub_swapped(%x: tensor<4x4xf32>, %y: tensor<4x1xf32>) -> tensor<4x4xf32> attributes {mk.reference = @sub_ref} {
  %r = mk.graph_kernel (%x, %y) grid = [1, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<4x4xf32>, %Y: tensor<4x1xf32>):
    %acc:2 = mb.for_loop -> (tensor<4x4xf32>, tensor<4x1xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = -1 : tensor<4x4xf32> -> tensor<4x4xf32>
      %yt = mb.input_iter %Y imap = [-1, -1, -1] fmap = -1 : tensor<4x1xf32> -> tensor<4x1xf32>
      %a = mb.accum_sum %xt : tensor<4x4xf32> -> tensor<4x4xf32>
      %b = mb.accum_sum %yt : tensor<4x1xf32> -> tensor<4x1xf32>
      mb.yield %a, %b : tensor<4x4xf32>, tensor<4x1xf32>
    }
    %d = mt.thread_graph (%acc#0, %acc#1) : (tensor<4x4xf32>, tensor<4x1xf32>) -> tensor<4x4xf32> {
    ^bb0(%a: f32, %b: f32):
      %s = mt.sub %b, %a : f32
      mt.yield %s : f32
    }
    %o = mb.output_saver %d omap = [-1, -1, -1] : tensor<4x4xf32> -> tensor<4x4xf32>
    mb.return %o : tensor<4x4xf32>
  } : (tensor<4x4xf32>, tensor<4x1xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
