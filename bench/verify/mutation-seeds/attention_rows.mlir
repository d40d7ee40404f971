// Split-sequence attention (the known-good mqa structure) with Q's rows over
// grid z in 4 parts: Q 1x8x4, K 1x4x8, V 1x8x4; kernel 1 grid [1, 2, 4],
// forloop 2; kernel 2 grid [1, 4, 1], forloop 2. A seed of mirage-mutation-
// bench.
func.func @attention_rows_ref(%Q: tensor<1x8x4xf16>, %K: tensor<1x4x8xf16>, %V: tensor<1x8x4xf16>) -> tensor<1x8x4xf16> {
  %s = mk.matmul %Q, %K : tensor<1x8x4xf16>, tensor<1x4x8xf16> -> tensor<1x8x8xf16>
  %e = mk.exp %s : tensor<1x8x8xf16>
  %d = mk.reduce_sum %e dim = 2 : tensor<1x8x8xf16> -> tensor<1x8x1xf16>
  %p = mk.div %e, %d : tensor<1x8x8xf16>, tensor<1x8x1xf16> -> tensor<1x8x8xf16>
  %o = mk.matmul %p, %V : tensor<1x8x8xf16>, tensor<1x8x4xf16> -> tensor<1x8x4xf16>
  return %o : tensor<1x8x4xf16>
}

func.func @attention_rows_fused(%q: tensor<1x8x4xf16>, %k: tensor<1x4x8xf16>, %v: tensor<1x8x4xf16>) -> tensor<1x8x4xf16> attributes {mk.reference = @attention_rows_ref} {
  %part:2 = mk.graph_kernel (%q, %k, %v) grid = [1, 2, 4] block = [128, 1, 1] forloop = 2 {
  ^bb0(%Q: tensor<1x8x4xf16>, %K: tensor<1x4x8xf16>, %V: tensor<1x8x4xf16>):
    %acc:2 = mb.for_loop -> (tensor<1x2x4xf16>, tensor<1x2x1xf16>) {
      %qt = mb.input_iter %Q imap = [0, -1, 1] fmap = -1 : tensor<1x8x4xf16> -> tensor<1x2x4xf16>
      %kt = mb.input_iter %K imap = [0, 2, -1] fmap = 2 : tensor<1x4x8xf16> -> tensor<1x4x2xf16>
      %vt = mb.input_iter %V imap = [0, 1, -1] fmap = 1 : tensor<1x8x4xf16> -> tensor<1x2x4xf16>
      %s = mb.matmul %qt, %kt : tensor<1x2x4xf16>, tensor<1x4x2xf16> -> tensor<1x2x2xf16>
      %e = mb.exp %s : tensor<1x2x2xf16>
      %n = mb.matmul %e, %vt : tensor<1x2x2xf16>, tensor<1x2x4xf16> -> tensor<1x2x4xf16>
      %an = mb.accum_sum %n : tensor<1x2x4xf16> -> tensor<1x2x4xf16>
      %ad = mb.accum_sum_last %e : tensor<1x2x2xf16> -> tensor<1x2x1xf16>
      mb.yield %an, %ad : tensor<1x2x4xf16>, tensor<1x2x1xf16>
    }
    %on = mb.output_saver %acc#0 omap = [0, 2, 1] : tensor<1x2x4xf16> -> tensor<1x8x8xf16>
    %od = mb.output_saver %acc#1 omap = [0, 2, 1] : tensor<1x2x1xf16> -> tensor<1x8x2xf16>
    mb.return %on, %od : tensor<1x8x8xf16>, tensor<1x8x2xf16>
  } : (tensor<1x8x4xf16>, tensor<1x4x8xf16>, tensor<1x8x4xf16>) -> (tensor<1x8x8xf16>, tensor<1x8x2xf16>)
  %y = mk.graph_kernel (%part#0, %part#1) grid = [1, 4, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%N: tensor<1x8x8xf16>, %D: tensor<1x8x2xf16>):
    %tot:2 = mb.for_loop -> (tensor<1x2x4xf16>, tensor<1x2x1xf16>) {
      %nt = mb.input_iter %N imap = [0, 1, -1] fmap = 2 : tensor<1x8x8xf16> -> tensor<1x2x4xf16>
      %dt = mb.input_iter %D imap = [0, 1, -1] fmap = 2 : tensor<1x8x2xf16> -> tensor<1x2x1xf16>
      %sn = mb.accum_sum %nt : tensor<1x2x4xf16> -> tensor<1x2x4xf16>
      %sd = mb.accum_sum %dt : tensor<1x2x1xf16> -> tensor<1x2x1xf16>
      mb.yield %sn, %sd : tensor<1x2x4xf16>, tensor<1x2x1xf16>
    }
    %r = mb.div %tot#0, %tot#1 : tensor<1x2x4xf16>, tensor<1x2x1xf16> -> tensor<1x2x4xf16>
    %o = mb.output_saver %r omap = [0, 1, -1] : tensor<1x2x4xf16> -> tensor<1x8x4xf16>
    mb.return %o : tensor<1x8x4xf16>
  } : (tensor<1x8x8xf16>, tensor<1x8x2xf16>) -> tensor<1x8x4xf16>
  return %y : tensor<1x8x4xf16>
}
