// Near misses: --mirage-check-equivalence rejects each candidate below with a
// counterexample.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @rmsmm_ref(%x: tensor<2x8xf32>, %w: tensor<8x6xf32>) -> tensor<2x6xf32> {
  %n = mk.rms_norm %x eps = 1.0e-6 : tensor<2x8xf32>
  %y = mk.matmul %n, %w : tensor<2x8xf32>, tensor<8x6xf32> -> tensor<2x6xf32>
  return %y : tensor<2x6xf32>
}

// RMSNorm+MatMul without the epsilon in the rms accumulator.
// expected-error @below {{not equivalent to @rmsmm_ref: output #0 element [}}
func.func @rmsmm_no_eps(%x: tensor<2x8xf32>, %w: tensor<8x6xf32>) -> tensor<2x6xf32> attributes {mk.reference = @rmsmm_ref} {
  %y = mk.graph_kernel (%x, %w) grid = [3, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<2x8xf32>, %W: tensor<8x6xf32>):
    %acc:2 = mb.for_loop -> (tensor<2x1xf32>, tensor<2x2xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x8xf32> -> tensor<2x4xf32>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<8x6xf32> -> tensor<4x2xf32>
      %m = mb.matmul %xt, %wt : tensor<2x4xf32>, tensor<4x2xf32> -> tensor<2x2xf32>
      %r = mb.accum_rms_last %xt eps = 0.0 : tensor<2x4xf32> -> tensor<2x1xf32>
      %s = mb.accum_sum %m : tensor<2x2xf32> -> tensor<2x2xf32>
      mb.yield %r, %s : tensor<2x1xf32>, tensor<2x2xf32>
    }
    %q = mb.div %acc#1, %acc#0 : tensor<2x2xf32>, tensor<2x1xf32> -> tensor<2x2xf32>
    %o = mb.output_saver %q omap = [1, -1, -1] : tensor<2x2xf32> -> tensor<2x6xf32>
    mb.return %o : tensor<2x6xf32>
  } : (tensor<2x8xf32>, tensor<8x6xf32>) -> tensor<2x6xf32>
  return %y : tensor<2x6xf32>
}

// Swapped div operands in the post-loop thread graph: rms / acc.
// expected-error @below {{not equivalent to @rmsmm_ref: output #0 element [}}
func.func @rmsmm_div_swapped(%x: tensor<2x8xf32>, %w: tensor<8x6xf32>) -> tensor<2x6xf32> attributes {mk.reference = @rmsmm_ref} {
  %y = mk.graph_kernel (%x, %w) grid = [3, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<2x8xf32>, %W: tensor<8x6xf32>):
    %acc:2 = mb.for_loop -> (tensor<2x1xf32>, tensor<2x2xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x8xf32> -> tensor<2x4xf32>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<8x6xf32> -> tensor<4x2xf32>
      %m = mb.matmul %xt, %wt : tensor<2x4xf32>, tensor<4x2xf32> -> tensor<2x2xf32>
      %r = mb.accum_rms_last %xt eps = 1.0e-6 : tensor<2x4xf32> -> tensor<2x1xf32>
      %s = mb.accum_sum %m : tensor<2x2xf32> -> tensor<2x2xf32>
      mb.yield %r, %s : tensor<2x1xf32>, tensor<2x2xf32>
    }
    %q = mt.thread_graph (%acc#1, %acc#0) : (tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x2xf32> {
    ^bb0(%a: f32, %b: f32):
      %d = mt.div %b, %a : f32
      mt.yield %d : f32
    }
    %o = mb.output_saver %q omap = [1, -1, -1] : tensor<2x2xf32> -> tensor<2x6xf32>
    mb.return %o : tensor<2x6xf32>
  } : (tensor<2x8xf32>, tensor<8x6xf32>) -> tensor<2x6xf32>
  return %y : tensor<2x6xf32>
}
