// QK-norm attention in one kernel with online softmax (as
// attention_online.mlir, with mb.rms_norm of the Q and V tiles in the loop
// body): Q 2x4x4, K 2x4x8, V 2x8x4, grid [2, 1, 1], forloop 2. A seed of
// mirage-mutation-bench (a variant of the known-good qknorm_gqa).
func.func @qknorm_attention_online_ref(%Q: tensor<2x4x4xf16>, %K: tensor<2x4x8xf16>, %V: tensor<2x8x4xf16>) -> tensor<2x4x4xf16> {
  %qn = mk.rms_norm %Q eps = 1.0e-06 : tensor<2x4x4xf16>
  %vn = mk.rms_norm %V eps = 1.0e-06 : tensor<2x8x4xf16>
  %s = mk.matmul %qn, %K : tensor<2x4x4xf16>, tensor<2x4x8xf16> -> tensor<2x4x8xf16>
  %e = mk.exp %s : tensor<2x4x8xf16>
  %d = mk.reduce_sum %e dim = 2 : tensor<2x4x8xf16> -> tensor<2x4x1xf16>
  %p = mk.div %e, %d : tensor<2x4x8xf16>, tensor<2x4x1xf16> -> tensor<2x4x8xf16>
  %o = mk.matmul %p, %vn : tensor<2x4x8xf16>, tensor<2x8x4xf16> -> tensor<2x4x4xf16>
  return %o : tensor<2x4x4xf16>
}

func.func @qknorm_attention_online(%q: tensor<2x4x4xf16>, %k: tensor<2x4x8xf16>, %v: tensor<2x8x4xf16>) -> tensor<2x4x4xf16> attributes {mk.reference = @qknorm_attention_online_ref} {
  %y = mk.graph_kernel (%q, %k, %v) grid = [2, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%Q: tensor<2x4x4xf16>, %K: tensor<2x4x8xf16>, %V: tensor<2x8x4xf16>):
    %acc:2 = mb.for_loop -> (tensor<1x4x4xf16>, tensor<1x4x1xf16>) {
      %qt = mb.input_iter %Q imap = [0, -1, -1] fmap = -1 : tensor<2x4x4xf16> -> tensor<1x4x4xf16>
      %kt = mb.input_iter %K imap = [0, -1, -1] fmap = 2 : tensor<2x4x8xf16> -> tensor<1x4x4xf16>
      %vt = mb.input_iter %V imap = [0, -1, -1] fmap = 1 : tensor<2x8x4xf16> -> tensor<1x4x4xf16>
      %qn = mb.rms_norm %qt eps = 1.0e-06 : tensor<1x4x4xf16>
      %vn = mb.rms_norm %vt eps = 1.0e-06 : tensor<1x4x4xf16>
      %s = mb.matmul %qn, %kt : tensor<1x4x4xf16>, tensor<1x4x4xf16> -> tensor<1x4x4xf16>
      %m = mb.reduce_max %s dim = 2 : tensor<1x4x4xf16> -> tensor<1x4x1xf16>
      %d = mb.sub %s, %m : tensor<1x4x4xf16>, tensor<1x4x1xf16> -> tensor<1x4x4xf16>
      %e = mb.exp %d : tensor<1x4x4xf16>
      %n = mb.matmul %e, %vn : tensor<1x4x4xf16>, tensor<1x4x4xf16> -> tensor<1x4x4xf16>
      %l = mb.reduce_sum %e dim = 2 : tensor<1x4x4xf16> -> tensor<1x4x1xf16>
      %an = mb.accum_rescaled_sum %n, %m : tensor<1x4x4xf16>, tensor<1x4x1xf16> -> tensor<1x4x4xf16>
      %al = mb.accum_rescaled_sum %l, %m : tensor<1x4x1xf16>, tensor<1x4x1xf16> -> tensor<1x4x1xf16>
      mb.yield %an, %al : tensor<1x4x4xf16>, tensor<1x4x1xf16>
    }
    %r = mb.div %acc#0, %acc#1 : tensor<1x4x4xf16>, tensor<1x4x1xf16> -> tensor<1x4x4xf16>
    %o = mb.output_saver %r omap = [0, -1, -1] : tensor<1x4x4xf16> -> tensor<2x4x4xf16>
    mb.return %o : tensor<2x4x4xf16>
  } : (tensor<2x4x4xf16>, tensor<2x4x8xf16>, tensor<2x8x4xf16>) -> tensor<2x4x4xf16>
  return %y : tensor<2x4x4xf16>
}
