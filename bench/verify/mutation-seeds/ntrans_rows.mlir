// nTrans with two rows per block and the update as tile ops (mb.sub, mb.mul,
// mb.add) instead of a thread graph: H, X 4x8, alpha 1x8, grid [2, 1, 1],
// forloop 1. A seed of mirage-mutation-bench (a variant of the known-good
// ntrans).
func.func @ntrans_rows_ref(%H: tensor<4x8xf16>, %X: tensor<4x8xf16>, %alpha: tensor<1x8xf16>) -> tensor<4x8xf16> {
  %hn = mk.rms_norm %H eps = 1.0e-06 : tensor<4x8xf16>
  %d = mk.sub %hn, %X : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %ad = mk.mul %alpha, %d : tensor<1x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %y = mk.add %X, %ad : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %o = mk.rms_norm %y eps = 1.0e-06 : tensor<4x8xf16>
  return %o : tensor<4x8xf16>
}

func.func @ntrans_rows(%h: tensor<4x8xf16>, %x: tensor<4x8xf16>, %alpha: tensor<1x8xf16>) -> tensor<4x8xf16> attributes {mk.reference = @ntrans_rows_ref} {
  %r = mk.graph_kernel (%h, %x, %alpha) grid = [2, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%H: tensor<4x8xf16>, %X: tensor<4x8xf16>, %AL: tensor<1x8xf16>):
    %acc = mb.for_loop -> (tensor<2x8xf16>) {
      %ht = mb.input_iter %H imap = [0, -1, -1] fmap = -1 : tensor<4x8xf16> -> tensor<2x8xf16>
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = -1 : tensor<4x8xf16> -> tensor<2x8xf16>
      %at = mb.input_iter %AL imap = [-1, -1, -1] fmap = -1 : tensor<1x8xf16> -> tensor<1x8xf16>
      %hn = mb.rms_norm %ht eps = 1.0e-06 : tensor<2x8xf16>
      %d = mb.sub %hn, %xt : tensor<2x8xf16>, tensor<2x8xf16> -> tensor<2x8xf16>
      %ad = mb.mul %at, %d : tensor<1x8xf16>, tensor<2x8xf16> -> tensor<2x8xf16>
      %y = mb.add %xt, %ad : tensor<2x8xf16>, tensor<2x8xf16> -> tensor<2x8xf16>
      %yn = mb.rms_norm %y eps = 1.0e-06 : tensor<2x8xf16>
      %s = mb.accum_sum %yn : tensor<2x8xf16> -> tensor<2x8xf16>
      mb.yield %s : tensor<2x8xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<2x8xf16> -> tensor<4x8xf16>
    mb.return %o : tensor<4x8xf16>
  } : (tensor<4x8xf16>, tensor<4x8xf16>, tensor<1x8xf16>) -> tensor<4x8xf16>
  return %r : tensor<4x8xf16>
}
