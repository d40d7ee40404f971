// Small-shape copy of test/Programs/ntrans_fused.mlir: H, X 4x16, alpha
// 1x16, grid [4, 1, 1], forloop 1. A seed of mirage-mutation-bench.
func.func @ntrans_ref(%H: tensor<4x16xf16>, %X: tensor<4x16xf16>, %alpha: tensor<1x16xf16>) -> tensor<4x16xf16> {
  %hn = mk.rms_norm %H eps = 1.0e-06 : tensor<4x16xf16>
  %d = mk.sub %hn, %X : tensor<4x16xf16>, tensor<4x16xf16> -> tensor<4x16xf16>
  %ad = mk.mul %alpha, %d : tensor<1x16xf16>, tensor<4x16xf16> -> tensor<4x16xf16>
  %y = mk.add %X, %ad : tensor<4x16xf16>, tensor<4x16xf16> -> tensor<4x16xf16>
  %o = mk.rms_norm %y eps = 1.0e-06 : tensor<4x16xf16>
  return %o : tensor<4x16xf16>
}

func.func @ntrans_fused(%h: tensor<4x16xf16>, %x: tensor<4x16xf16>, %alpha: tensor<1x16xf16>) -> tensor<4x16xf16> attributes {mk.reference = @ntrans_ref} {
  %r = mk.graph_kernel (%h, %x, %alpha) grid = [4, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%H: tensor<4x16xf16>, %X: tensor<4x16xf16>, %AL: tensor<1x16xf16>):
    %acc = mb.for_loop -> (tensor<1x16xf16>) {
      %ht = mb.input_iter %H imap = [0, -1, -1] fmap = -1 : tensor<4x16xf16> -> tensor<1x16xf16>
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = -1 : tensor<4x16xf16> -> tensor<1x16xf16>
      %at = mb.input_iter %AL imap = [-1, -1, -1] fmap = -1 : tensor<1x16xf16> -> tensor<1x16xf16>
      %hn = mb.rms_norm %ht eps = 1.0e-06 : tensor<1x16xf16>
      %y = mt.thread_graph (%xt, %at, %hn) : (tensor<1x16xf16>, tensor<1x16xf16>, tensor<1x16xf16>) -> tensor<1x16xf16> {
      ^bb0(%xe: f16, %ae: f16, %he: f16):
        %de = mt.sub %he, %xe : f16
        %me = mt.mul %ae, %de : f16
        %ye = mt.add %xe, %me : f16
        mt.yield %ye : f16
      }
      %yn = mb.rms_norm %y eps = 1.0e-06 : tensor<1x16xf16>
      %s = mb.accum_sum %yn : tensor<1x16xf16> -> tensor<1x16xf16>
      mb.yield %s : tensor<1x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<1x16xf16> -> tensor<4x16xf16>
    mb.return %o : tensor<4x16xf16>
  } : (tensor<4x16xf16>, tensor<4x16xf16>, tensor<1x16xf16>) -> tensor<4x16xf16>
  return %r : tensor<4x16xf16>
}
