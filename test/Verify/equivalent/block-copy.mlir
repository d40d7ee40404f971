// --mirage-check-equivalence reports each candidate below equivalent to its
// reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @copy_ref(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  return %x : tensor<4x6xf32>
}

// A copy kernel with swapped grid roles: grid x over dim 1, y over dim 0.
// expected-remark @below {{equivalent to @copy_ref}}
func.func @copy(%x: tensor<4x6xf32>) -> tensor<4x6xf32> attributes {mk.reference = @copy_ref} {
  %y = mk.graph_kernel (%x) grid = [3, 2, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<4x6xf32>):
    %acc = mb.for_loop -> (tensor<2x2xf32>) {
      %t = mb.input_iter %X imap = [1, 0, -1] fmap = -1 : tensor<4x6xf32> -> tensor<2x2xf32>
      %s = mb.accum_sum %t : tensor<2x2xf32> -> tensor<2x2xf32>
      mb.yield %s : tensor<2x2xf32>
    }
    %o = mb.output_saver %acc omap = [1, 0, -1] : tensor<2x2xf32> -> tensor<4x6xf32>
    mb.return %o : tensor<4x6xf32>
  } : (tensor<4x6xf32>) -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}
