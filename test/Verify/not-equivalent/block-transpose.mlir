// Near misses: --mirage-check-equivalence rejects each candidate below with a
// counterexample.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @transpose_ref(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %t = mk.transpose %x perm = [1, 0] : tensor<4x4xf32> -> tensor<4x4xf32>
  return %t : tensor<4x4xf32>
}

// Each block transposes its 2x2 tile (mb.transpose) but saves it at its own
// block position (omap [0, 1]) instead of the mirrored one (omap [1, 0]):
// the off-diagonal blocks are wrong.
// expected-error @below {{not equivalent to @transpose_ref: output #0 element [}}
func.func @transpose_wrong_omap(%x: tensor<4x4xf32>) -> tensor<4x4xf32> attributes {mk.reference = @transpose_ref} {
  %y = mk.graph_kernel (%x) grid = [2, 2, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<4x4xf32>):
    %acc = mb.for_loop -> (tensor<2x2xf32>) {
      %t = mb.input_iter %X imap = [0, 1, -1] fmap = -1 : tensor<4x4xf32> -> tensor<2x2xf32>
      %s = mb.accum_sum %t : tensor<2x2xf32> -> tensor<2x2xf32>
      mb.yield %s : tensor<2x2xf32>
    }
    %tt = mb.transpose %acc perm = [1, 0] : tensor<2x2xf32> -> tensor<2x2xf32>
    %o = mb.output_saver %tt omap = [0, 1, -1] : tensor<2x2xf32> -> tensor<4x4xf32>
    mb.return %o : tensor<4x4xf32>
  } : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}
