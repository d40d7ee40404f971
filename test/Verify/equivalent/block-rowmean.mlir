// --mirage-check-equivalence reports each candidate below equivalent to its
// reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @rowmean_ref(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %s = mk.reduce_sum %x dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %m = mk.mul_scalar %s, 0.125 : tensor<4x1xf32>
  return %m : tensor<4x1xf32>
}

// mean_last divides by F * n = 8.
// expected-remark @below {{equivalent to @rowmean_ref}}
func.func @rowmean(%x: tensor<4x8xf32>) -> tensor<4x1xf32> attributes {mk.reference = @rowmean_ref} {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf32>):
    %acc = mb.for_loop -> (tensor<4x1xf32>) {
      %t = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<4x4xf32>
      %s = mb.accum_mean_last %t : tensor<4x4xf32> -> tensor<4x1xf32>
      mb.yield %s : tensor<4x1xf32>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<4x1xf32> -> tensor<4x1xf32>
    mb.return %o : tensor<4x1xf32>
  } : (tensor<4x8xf32>) -> tensor<4x1xf32>
  return %y : tensor<4x1xf32>
}
