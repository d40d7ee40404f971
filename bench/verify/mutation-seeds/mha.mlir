// Small-shape copy of test/Programs/mha_split_seq.mlir (same kernel structure,
// every division exact): Q 4x2x4, K 4x4x16, V 4x16x4; kernel 1 grid [4, 2, 1],
// forloop 2; kernel 2 grid [4, 1, 1], forloop 2. A seed of mirage-mutation-
// bench.
func.func @mha_ref(%Q: tensor<4x2x4xf16>, %K: tensor<4x4x16xf16>, %V: tensor<4x16x4xf16>) -> tensor<4x2x4xf16> {
  %s = mk.matmul %Q, %K : tensor<4x2x4xf16>, tensor<4x4x16xf16> -> tensor<4x2x16xf16>
  %e = mk.exp %s : tensor<4x2x16xf16>
  %d = mk.reduce_sum %e dim = 2 : tensor<4x2x16xf16> -> tensor<4x2x1xf16>
  %p = mk.div %e, %d : tensor<4x2x16xf16>, tensor<4x2x1xf16> -> tensor<4x2x16xf16>
  %o = mk.matmul %p, %V : tensor<4x2x16xf16>, tensor<4x16x4xf16> -> tensor<4x2x4xf16>
  return %o : tensor<4x2x4xf16>
}

func.func @mha_fused(%q: tensor<4x2x4xf16>, %k: tensor<4x4x16xf16>, %v: tensor<4x16x4xf16>) -> tensor<4x2x4xf16> attributes {mk.reference = @mha_ref} {
  %part:2 = mk.graph_kernel (%q, %k, %v) grid = [4, 2, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%Q: tensor<4x2x4xf16>, %K: tensor<4x4x16xf16>, %V: tensor<4x16x4xf16>):
    %acc:2 = mb.for_loop -> (tensor<1x2x4xf16>, tensor<1x2x1xf16>) {
      %qt = mb.input_iter %Q imap = [0, -1, -1] fmap = -1 : tensor<4x2x4xf16> -> tensor<1x2x4xf16>
      %kt = mb.input_iter %K imap = [0, 2, -1] fmap = 2 : tensor<4x4x16xf16> -> tensor<1x4x4xf16>
      %vt = mb.input_iter %V imap = [0, 1, -1] fmap = 1 : tensor<4x16x4xf16> -> tensor<1x4x4xf16>
      %s = mb.matmul %qt, %kt : tensor<1x2x4xf16>, tensor<1x4x4xf16> -> tensor<1x2x4xf16>
      %e = mb.exp %s : tensor<1x2x4xf16>
      %n = mb.matmul %e, %vt : tensor<1x2x4xf16>, tensor<1x4x4xf16> -> tensor<1x2x4xf16>
      %an = mb.accum_sum %n : tensor<1x2x4xf16> -> tensor<1x2x4xf16>
      %ad = mb.accum_sum_last %e : tensor<1x2x4xf16> -> tensor<1x2x1xf16>
      mb.yield %an, %ad : tensor<1x2x4xf16>, tensor<1x2x1xf16>
    }
    %on = mb.output_saver %acc#0 omap = [0, 2, -1] : tensor<1x2x4xf16> -> tensor<4x2x8xf16>
    %od = mb.output_saver %acc#1 omap = [0, 2, -1] : tensor<1x2x1xf16> -> tensor<4x2x2xf16>
    mb.return %on, %od : tensor<4x2x8xf16>, tensor<4x2x2xf16>
  } : (tensor<4x2x4xf16>, tensor<4x4x16xf16>, tensor<4x16x4xf16>) -> (tensor<4x2x8xf16>, tensor<4x2x2xf16>)
  %y = mk.graph_kernel (%part#0, %part#1) grid = [4, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%N: tensor<4x2x8xf16>, %D: tensor<4x2x2xf16>):
    %tot:2 = mb.for_loop -> (tensor<1x2x4xf16>, tensor<1x2x1xf16>) {
      %nt = mb.input_iter %N imap = [0, -1, -1] fmap = 2 : tensor<4x2x8xf16> -> tensor<1x2x4xf16>
      %dt = mb.input_iter %D imap = [0, -1, -1] fmap = 2 : tensor<4x2x2xf16> -> tensor<1x2x1xf16>
      %sn = mb.accum_sum %nt : tensor<1x2x4xf16> -> tensor<1x2x4xf16>
      %sd = mb.accum_sum %dt : tensor<1x2x1xf16> -> tensor<1x2x1xf16>
      mb.yield %sn, %sd : tensor<1x2x4xf16>, tensor<1x2x1xf16>
    }
    %r = mb.div %tot#0, %tot#1 : tensor<1x2x4xf16>, tensor<1x2x1xf16> -> tensor<1x2x4xf16>
    %o = mb.output_saver %r omap = [0, -1, -1] : tensor<1x2x4xf16> -> tensor<4x2x4xf16>
    mb.return %o : tensor<4x2x4xf16>
  } : (tensor<4x2x8xf16>, tensor<4x2x2xf16>) -> tensor<4x2x4xf16>
  return %y : tensor<4x2x4xf16>
}
