// --mirage-check-equivalence reports each candidate below equivalent to its
// reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @attn_ref(%q: tensor<2x4x4xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x8x4xf32>) -> tensor<2x4x4xf32> {
  %s = mk.matmul %q, %k : tensor<2x4x4xf32>, tensor<2x4x8xf32> -> tensor<2x4x8xf32>
  %e = mk.exp %s : tensor<2x4x8xf32>
  %d = mk.reduce_sum %e dim = 2 : tensor<2x4x8xf32> -> tensor<2x4x1xf32>
  %p = mk.div %e, %d : tensor<2x4x8xf32>, tensor<2x4x1xf32> -> tensor<2x4x8xf32>
  %o = mk.matmul %p, %v : tensor<2x4x8xf32>, tensor<2x8x4xf32> -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// Attention split over the sequence (grid y, 2 chunks) with partial
// numerators and denominators, combined by a second kernel.
// expected-remark @below {{equivalent to @attn_ref}}
func.func @attn_split(%q: tensor<2x4x4xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x8x4xf32>) -> tensor<2x4x4xf32> attributes {mk.reference = @attn_ref} {
  %part:2 = mk.graph_kernel (%q, %k, %v) grid = [2, 2, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%Q: tensor<2x4x4xf32>, %K: tensor<2x4x8xf32>, %V: tensor<2x8x4xf32>):
    %acc:2 = mb.for_loop -> (tensor<1x4x4xf32>, tensor<1x4x1xf32>) {
      %qt = mb.input_iter %Q imap = [0, -1, -1] fmap = -1 : tensor<2x4x4xf32> -> tensor<1x4x4xf32>
      %kt = mb.input_iter %K imap = [0, 2, -1] fmap = 2 : tensor<2x4x8xf32> -> tensor<1x4x2xf32>
      %vt = mb.input_iter %V imap = [0, 1, -1] fmap = 1 : tensor<2x8x4xf32> -> tensor<1x2x4xf32>
      %s = mb.matmul %qt, %kt : tensor<1x4x4xf32>, tensor<1x4x2xf32> -> tensor<1x4x2xf32>
      %e = mb.exp %s : tensor<1x4x2xf32>
      %n = mb.matmul %e, %vt : tensor<1x4x2xf32>, tensor<1x2x4xf32> -> tensor<1x4x4xf32>
      %an = mb.accum_sum %n : tensor<1x4x4xf32> -> tensor<1x4x4xf32>
      %ad = mb.accum_sum_last %e : tensor<1x4x2xf32> -> tensor<1x4x1xf32>
      mb.yield %an, %ad : tensor<1x4x4xf32>, tensor<1x4x1xf32>
    }
    %on = mb.output_saver %acc#0 omap = [0, 2, -1] : tensor<1x4x4xf32> -> tensor<2x4x8xf32>
    %od = mb.output_saver %acc#1 omap = [0, 2, -1] : tensor<1x4x1xf32> -> tensor<2x4x2xf32>
    mb.return %on, %od : tensor<2x4x8xf32>, tensor<2x4x2xf32>
  } : (tensor<2x4x4xf32>, tensor<2x4x8xf32>, tensor<2x8x4xf32>) -> (tensor<2x4x8xf32>, tensor<2x4x2xf32>)
  %o = mk.graph_kernel (%part#0, %part#1) grid = [2, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%N: tensor<2x4x8xf32>, %D: tensor<2x4x2xf32>):
    %acc:2 = mb.for_loop -> (tensor<1x4x4xf32>, tensor<1x4x1xf32>) {
      %nt = mb.input_iter %N imap = [0, -1, -1] fmap = 2 : tensor<2x4x8xf32> -> tensor<1x4x4xf32>
      %dt = mb.input_iter %D imap = [0, -1, -1] fmap = 2 : tensor<2x4x2xf32> -> tensor<1x4x1xf32>
      %an = mb.accum_sum %nt : tensor<1x4x4xf32> -> tensor<1x4x4xf32>
      %ad = mb.accum_sum %dt : tensor<1x4x1xf32> -> tensor<1x4x1xf32>
      mb.yield %an, %ad : tensor<1x4x4xf32>, tensor<1x4x1xf32>
    }
    %r = mb.div %acc#0, %acc#1 : tensor<1x4x4xf32>, tensor<1x4x1xf32> -> tensor<1x4x4xf32>
    %out = mb.output_saver %r omap = [0, -1, -1] : tensor<1x4x4xf32> -> tensor<2x4x4xf32>
    mb.return %out : tensor<2x4x4xf32>
  } : (tensor<2x4x8xf32>, tensor<2x4x2xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}
