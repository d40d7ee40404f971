// Small-shape copy of test/Programs/qknorm_gqa_split_seq.mlir (same kernel
// structure, every division exact): Q 2x8x4, K 2x4x16, V 2x16x4, rms_norm of
// the Q and V tiles; kernel 1 grid [2, 2, 2], forloop 2; kernel 2 grid [2, 2,
// 1], forloop 2. A seed of mirage-mutation-bench.
func.func @qknorm_gqa_ref(%Q: tensor<2x8x4xf16>, %K: tensor<2x4x16xf16>, %V: tensor<2x16x4xf16>) -> tensor<2x8x4xf16> {
  %qn = mk.rms_norm %Q eps = 1.0e-06 : tensor<2x8x4xf16>
  %vn = mk.rms_norm %V eps = 1.0e-06 : tensor<2x16x4xf16>
  %s = mk.matmul %qn, %K : tensor<2x8x4xf16>, tensor<2x4x16xf16> -> tensor<2x8x16xf16>
  %e = mk.exp %s : tensor<2x8x16xf16>
  %d = mk.reduce_sum %e dim = 2 : tensor<2x8x16xf16> -> tensor<2x8x1xf16>
  %p = mk.div %e, %d : tensor<2x8x16xf16>, tensor<2x8x1xf16> -> tensor<2x8x16xf16>
  %o = mk.matmul %p, %vn : tensor<2x8x16xf16>, tensor<2x16x4xf16> -> tensor<2x8x4xf16>
  return %o : tensor<2x8x4xf16>
}

func.func @qknorm_gqa_fused(%q: tensor<2x8x4xf16>, %k: tensor<2x4x16xf16>, %v: tensor<2x16x4xf16>) -> tensor<2x8x4xf16> attributes {mk.reference = @qknorm_gqa_ref} {
  %part:2 = mk.graph_kernel (%q, %k, %v) grid = [2, 2, 2] block = [128, 1, 1] forloop = 2 {
  ^bb0(%Q: tensor<2x8x4xf16>, %K: tensor<2x4x16xf16>, %V: tensor<2x16x4xf16>):
    %acc:2 = mb.for_loop -> (tensor<1x4x4xf16>, tensor<1x4x1xf16>) {
      %qt = mb.input_iter %Q imap = [0, -1, 1] fmap = -1 : tensor<2x8x4xf16> -> tensor<1x4x4xf16>
      %kt = mb.input_iter %K imap = [0, 2, -1] fmap = 2 : tensor<2x4x16xf16> -> tensor<1x4x4xf16>
      %vt = mb.input_iter %V imap = [0, 1, -1] fmap = 1 : tensor<2x16x4xf16> -> tensor<1x4x4xf16>
      %qn = mb.rms_norm %qt eps = 1.0e-06 : tensor<1x4x4xf16>
      %vn = mb.rms_norm %vt eps = 1.0e-06 : tensor<1x4x4xf16>
      %s = mb.matmul %qn, %kt : tensor<1x4x4xf16>, tensor<1x4x4xf16> -> tensor<1x4x4xf16>
      %e = mb.exp %s : tensor<1x4x4xf16>
      %n = mb.matmul %e, %vn : tensor<1x4x4xf16>, tensor<1x4x4xf16> -> tensor<1x4x4xf16>
      %an = mb.accum_sum %n : tensor<1x4x4xf16> -> tensor<1x4x4xf16>
      %ad = mb.accum_sum_last %e : tensor<1x4x4xf16> -> tensor<1x4x1xf16>
      mb.yield %an, %ad : tensor<1x4x4xf16>, tensor<1x4x1xf16>
    }
    %on = mb.output_saver %acc#0 omap = [0, 2, 1] : tensor<1x4x4xf16> -> tensor<2x8x8xf16>
    %od = mb.output_saver %acc#1 omap = [0, 2, 1] : tensor<1x4x1xf16> -> tensor<2x8x2xf16>
    mb.return %on, %od : tensor<2x8x8xf16>, tensor<2x8x2xf16>
  } : (tensor<2x8x4xf16>, tensor<2x4x16xf16>, tensor<2x16x4xf16>) -> (tensor<2x8x8xf16>, tensor<2x8x2xf16>)
  %y = mk.graph_kernel (%part#0, %part#1) grid = [2, 2, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%N: tensor<2x8x8xf16>, %D: tensor<2x8x2xf16>):
    %tot:2 = mb.for_loop -> (tensor<1x4x4xf16>, tensor<1x4x1xf16>) {
      %nt = mb.input_iter %N imap = [0, 1, -1] fmap = 2 : tensor<2x8x8xf16> -> tensor<1x4x4xf16>
      %dt = mb.input_iter %D imap = [0, 1, -1] fmap = 2 : tensor<2x8x2xf16> -> tensor<1x4x1xf16>
      %sn = mb.accum_sum %nt : tensor<1x4x4xf16> -> tensor<1x4x4xf16>
      %sd = mb.accum_sum %dt : tensor<1x4x1xf16> -> tensor<1x4x1xf16>
      mb.yield %sn, %sd : tensor<1x4x4xf16>, tensor<1x4x1xf16>
    }
    %r = mb.div %tot#0, %tot#1 : tensor<1x4x4xf16>, tensor<1x4x1xf16> -> tensor<1x4x4xf16>
    %o = mb.output_saver %r omap = [0, 1, -1] : tensor<1x4x4xf16> -> tensor<2x8x4xf16>
    mb.return %o : tensor<2x8x4xf16>
  } : (tensor<2x8x8xf16>, tensor<2x8x2xf16>) -> tensor<2x8x4xf16>
  return %y : tensor<2x8x4xf16>
}
