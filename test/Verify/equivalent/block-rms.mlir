// --mirage-check-equivalence reports each candidate below equivalent to its
// reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @rms_ref(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %sq = mk.square %x : tensor<4x8xf32>
  %s = mk.reduce_sum %sq dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %m = mk.mul_scalar %s, 0.125 : tensor<4x1xf32>
  %e = mk.add_scalar %m, 1.0e-6 : tensor<4x1xf32>
  %r = mk.sqrt %e : tensor<4x1xf32>
  return %r : tensor<4x1xf32>
}

// rms_last is sqrt(sum(x^2) / (F * n) + eps).
// expected-remark @below {{equivalent to @rms_ref}}
func.func @rms(%x: tensor<4x8xf32>) -> tensor<4x1xf32> attributes {mk.reference = @rms_ref} {
  %y = mk.graph_kernel (%x) grid = [4, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<4x8xf32>):
    %acc = mb.for_loop -> (tensor<1x1xf32>) {
      %t = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<1x2xf32>
      %s = mb.accum_rms_last %t eps = 1.0e-6 : tensor<1x2xf32> -> tensor<1x1xf32>
      mb.yield %s : tensor<1x1xf32>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<1x1xf32> -> tensor<4x1xf32>
    mb.return %o : tensor<4x1xf32>
  } : (tensor<4x8xf32>) -> tensor<4x1xf32>
  return %y : tensor<4x1xf32>
}
