// Near misses: --mirage-check-equivalence rejects each candidate below with a
// counterexample.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @mean_ref(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %s = mk.reduce_sum %x dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %m = mk.mul_scalar %s, 0.125 : tensor<4x1xf32>
  return %m : tensor<4x1xf32>
}

// Wrong accumulator kind: sum_last where the mean is needed.
// expected-error @below {{not equivalent to @mean_ref: output #0 element [}}
func.func @mean_sum_last(%x: tensor<4x8xf32>) -> tensor<4x1xf32> attributes {mk.reference = @mean_ref} {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf32>):
    %acc = mb.for_loop -> (tensor<4x1xf32>) {
      %t = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<4x4xf32>
      %s = mb.accum_sum_last %t : tensor<4x4xf32> -> tensor<4x1xf32>
      mb.yield %s : tensor<4x1xf32>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<4x1xf32> -> tensor<4x1xf32>
    mb.return %o : tensor<4x1xf32>
  } : (tensor<4x8xf32>) -> tensor<4x1xf32>
  return %y : tensor<4x1xf32>
}

// Wrong accumulator kind: rms_last where the mean is needed.
// expected-error @below {{not equivalent to @mean_ref: output #0 element [}}
func.func @mean_rms_last(%x: tensor<4x8xf32>) -> tensor<4x1xf32> attributes {mk.reference = @mean_ref} {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf32>):
    %acc = mb.for_loop -> (tensor<4x1xf32>) {
      %t = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<4x4xf32>
      %s = mb.accum_rms_last %t eps = 0.0 : tensor<4x4xf32> -> tensor<4x1xf32>
      mb.yield %s : tensor<4x1xf32>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<4x1xf32> -> tensor<4x1xf32>
    mb.return %o : tensor<4x1xf32>
  } : (tensor<4x8xf32>) -> tensor<4x1xf32>
  return %y : tensor<4x1xf32>
}
