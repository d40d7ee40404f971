// Near misses with views ([B22]-[B25]): --mirage-check-equivalence rejects
// each candidate below with a counterexample.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @gqa_scores_ref(%q: tensor<8x64xf32>, %k: tensor<8x32xf32>) -> tensor<4x8x8xf32> {
  %q1 = mk.reshape %q : tensor<8x64xf32> -> tensor<8x4x16xf32>
  %qh = mk.transpose %q1 perm = [1, 0, 2] : tensor<8x4x16xf32> -> tensor<4x8x16xf32>
  %k1 = mk.reshape %k : tensor<8x32xf32> -> tensor<8x2x16xf32>
  %kh = mk.transpose %k1 perm = [1, 0, 2] : tensor<8x2x16xf32> -> tensor<2x8x16xf32>
  %k2 = mk.reshape %kh : tensor<2x8x16xf32> -> tensor<2x1x8x16xf32>
  %kr = mk.concat %k2, %k2 dim = 1 : tensor<2x1x8x16xf32>, tensor<2x1x8x16xf32> -> tensor<2x2x8x16xf32>
  %k4 = mk.reshape %kr : tensor<2x2x8x16xf32> -> tensor<4x8x16xf32>
  %kt = mk.transpose %k4 perm = [0, 2, 1] : tensor<4x8x16xf32> -> tensor<4x16x8xf32>
  %s = mk.matmul %qh, %kt : tensor<4x8x16xf32>, tensor<4x16x8xf32> -> tensor<4x8x8xf32>
  return %s : tensor<4x8x8xf32>
}

// Query head h reads KV head h mod 2 (interleaved groups) where the export
// repeats each KV head for two consecutive query heads (h floordiv 2).
// expected-error @below {{not equivalent to @gqa_scores_ref: output #0 element [}}
func.func @gqa_scores_interleaved(%q: tensor<8x64xf32>, %k: tensor<8x32xf32>) -> tensor<4x8x8xf32> attributes {mk.reference = @gqa_scores_ref} {
  %y = mk.graph_kernel (%q, %k) grid = [4, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%Q: tensor<8x64xf32>, %K: tensor<8x32xf32>):
    %acc = mb.for_loop -> (tensor<1x8x8xf32>) {
      %qt = mb.input_iter %Q imap = [0, -1, -1] fmap = 2 view = affine_map<(h, t, d) -> (t, h * 16 + d)> : tensor<8x64xf32> -> tensor<1x8x8xf32>
      %kt = mb.input_iter %K imap = [0, -1, -1] fmap = 1 view = affine_map<(h, d, t) -> (t, (h mod 2) * 16 + d)> : tensor<8x32xf32> -> tensor<1x8x8xf32>
      %m = mb.matmul %qt, %kt : tensor<1x8x8xf32>, tensor<1x8x8xf32> -> tensor<1x8x8xf32>
      %s = mb.accum_sum %m : tensor<1x8x8xf32> -> tensor<1x8x8xf32>
      mb.yield %s : tensor<1x8x8xf32>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<1x8x8xf32> -> tensor<4x8x8xf32>
    mb.return %o : tensor<4x8x8xf32>
  } : (tensor<8x64xf32>, tensor<8x32xf32>) -> tensor<4x8x8xf32>
  return %y : tensor<4x8x8xf32>
}

func.func @heads_exp_ref(%q: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %a = mk.reshape %q : tensor<8x64xf32> -> tensor<8x4x16xf32>
  %b = mk.transpose %a perm = [1, 0, 2] : tensor<8x4x16xf32> -> tensor<4x8x16xf32>
  %e = mk.exp %b : tensor<4x8x16xf32>
  %c = mk.transpose %e perm = [1, 0, 2] : tensor<4x8x16xf32> -> tensor<8x4x16xf32>
  %d = mk.reshape %c : tensor<8x4x16xf32> -> tensor<8x64xf32>
  return %d : tensor<8x64xf32>
}

// The merge writes [heads, tokens, 16] back in the split order but without
// the transpose: head h lands in rows 2h, 2h + 1 (a reshape only).
// expected-error @below {{not equivalent to @heads_exp_ref: output #0 element [}}
func.func @heads_exp_merged_untransposed(%q: tensor<8x64xf32>) -> tensor<8x64xf32> attributes {mk.reference = @heads_exp_ref} {
  %y = mk.graph_kernel (%q) grid = [4, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%Q: tensor<8x64xf32>):
    %t = mb.for_loop -> (tensor<1x8x16xf32>) {
      %qt = mb.input_iter %Q imap = [0, -1, -1] fmap = -1 view = affine_map<(h, t, d) -> (t, h * 16 + d)> : tensor<8x64xf32> -> tensor<1x8x16xf32>
      %e = mb.exp %qt : tensor<1x8x16xf32>
      %s = mb.accum_sum %e : tensor<1x8x16xf32> -> tensor<1x8x16xf32>
      mb.yield %s : tensor<1x8x16xf32>
    }
    %o = mb.output_saver %t omap = [0, -1, -1] view = affine_map<(h, t, d) -> (h * 2 + t floordiv 4, (t mod 4) * 16 + d)> : tensor<1x8x16xf32> -> tensor<8x64xf32>
    mb.return %o : tensor<8x64xf32>
  } : (tensor<8x64xf32>) -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}
