// Views ([B22]-[B25]): input iterators that read, and output savers that
// write, a permutation, split, merge, broadcast or slice of the device
// tensor. --mirage-check-equivalence (finite field and f64) reports each
// candidate equivalent to its reference of mk.reshape/mk.transpose/mk.concat.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

// Head split, per-head exp, head merge: Q[tokens, heads * 16].
func.func @heads_exp_ref(%q: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %a = mk.reshape %q : tensor<8x64xf32> -> tensor<8x4x16xf32>
  %b = mk.transpose %a perm = [1, 0, 2] : tensor<8x4x16xf32> -> tensor<4x8x16xf32>
  %e = mk.exp %b : tensor<4x8x16xf32>
  %c = mk.transpose %e perm = [1, 0, 2] : tensor<4x8x16xf32> -> tensor<8x4x16xf32>
  %d = mk.reshape %c : tensor<8x4x16xf32> -> tensor<8x64xf32>
  return %d : tensor<8x64xf32>
}

// One head per block, read and written through the same view.
// expected-remark @below {{equivalent to @heads_exp_ref}}
func.func @heads_exp(%q: tensor<8x64xf32>) -> tensor<8x64xf32> attributes {mk.reference = @heads_exp_ref} {
  %y = mk.graph_kernel (%q) grid = [4, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%Q: tensor<8x64xf32>):
    %t = mb.for_loop -> (tensor<1x8x16xf32>) {
      %qt = mb.input_iter %Q imap = [0, -1, -1] fmap = -1 view = affine_map<(h, t, d) -> (t, h * 16 + d)> : tensor<8x64xf32> -> tensor<1x8x16xf32>
      %e = mb.exp %qt : tensor<1x8x16xf32>
      %s = mb.accum_sum %e : tensor<1x8x16xf32> -> tensor<1x8x16xf32>
      mb.yield %s : tensor<1x8x16xf32>
    }
    %o = mb.output_saver %t omap = [0, -1, -1] view = affine_map<(h, t, d) -> (t, h * 16 + d)> : tensor<1x8x16xf32> -> tensor<8x64xf32>
    mb.return %o : tensor<8x64xf32>
  } : (tensor<8x64xf32>) -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}

// GQA scores: four query heads, two shared K heads (K[tokens, 2 * 16]
// repeated per group by the concat), Q . K^T per head.
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

// K^T of the group's KV head read in place: (h, d, t) -> (t, (h / 2) * 16 + d);
// the shared dim walks the loop in two steps of 8.
// expected-remark @below {{equivalent to @gqa_scores_ref}}
func.func @gqa_scores(%q: tensor<8x64xf32>, %k: tensor<8x32xf32>) -> tensor<4x8x8xf32> attributes {mk.reference = @gqa_scores_ref} {
  %y = mk.graph_kernel (%q, %k) grid = [4, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%Q: tensor<8x64xf32>, %K: tensor<8x32xf32>):
    %acc = mb.for_loop -> (tensor<1x8x8xf32>) {
      %qt = mb.input_iter %Q imap = [0, -1, -1] fmap = 2 view = affine_map<(h, t, d) -> (t, h * 16 + d)> : tensor<8x64xf32> -> tensor<1x8x8xf32>
      %kt = mb.input_iter %K imap = [0, -1, -1] fmap = 1 view = affine_map<(h, d, t) -> (t, (h floordiv 2) * 16 + d)> : tensor<8x32xf32> -> tensor<1x8x8xf32>
      %m = mb.matmul %qt, %kt : tensor<1x8x8xf32>, tensor<1x8x8xf32> -> tensor<1x8x8xf32>
      %s = mb.accum_sum %m : tensor<1x8x8xf32> -> tensor<1x8x8xf32>
      mb.yield %s : tensor<1x8x8xf32>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<1x8x8xf32> -> tensor<4x8x8xf32>
    mb.return %o : tensor<4x8x8xf32>
  } : (tensor<8x64xf32>, tensor<8x32xf32>) -> tensor<4x8x8xf32>
  return %y : tensor<4x8x8xf32>
}

// nn.Linear with W[out, in] read as W^T in place and a rank-1 bias
// broadcast over the rows.
func.func @linear_ref(%x: tensor<4x8xf32>, %w: tensor<6x8xf32>, %b: tensor<6xf32>) -> tensor<4x6xf32> {
  %wt = mk.transpose %w perm = [1, 0] : tensor<6x8xf32> -> tensor<8x6xf32>
  %m = mk.matmul %x, %wt : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  %b2 = mk.reshape %b : tensor<6xf32> -> tensor<1x6xf32>
  %a = mk.add %m, %b2 : tensor<4x6xf32>, tensor<1x6xf32> -> tensor<4x6xf32>
  %y = mk.mul %a, %a : tensor<4x6xf32>, tensor<4x6xf32> -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

// expected-remark @below {{equivalent to @linear_ref}}
func.func @linear(%x: tensor<4x8xf32>, %w: tensor<6x8xf32>, %b: tensor<6xf32>) -> tensor<4x6xf32> attributes {mk.reference = @linear_ref} {
  %y = mk.graph_kernel (%x, %w, %b) grid = [2, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf32>, %W: tensor<6x8xf32>, %B: tensor<6xf32>):
    %acc = mb.for_loop -> (tensor<4x3xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<4x4xf32>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 view = affine_map<(k, n) -> (n, k)> : tensor<6x8xf32> -> tensor<4x3xf32>
      %m = mb.matmul %xt, %wt : tensor<4x4xf32>, tensor<4x3xf32> -> tensor<4x3xf32>
      %s = mb.accum_sum %m : tensor<4x3xf32> -> tensor<4x3xf32>
      mb.yield %s : tensor<4x3xf32>
    }
    %bt = mb.input_iter %B imap = [1, -1, -1] fmap = -1 view = affine_map<(i, n) -> (n)> : tensor<6xf32> -> tensor<1x3xf32>
    %a = mb.add %acc, %bt : tensor<4x3xf32>, tensor<1x3xf32> -> tensor<4x3xf32>
    %sq = mb.mul %a, %a : tensor<4x3xf32>, tensor<4x3xf32> -> tensor<4x3xf32>
    %o = mb.output_saver %sq omap = [1, -1, -1] : tensor<4x3xf32> -> tensor<4x6xf32>
    mb.return %o : tensor<4x6xf32>
  } : (tensor<4x8xf32>, tensor<6x8xf32>, tensor<6xf32>) -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}
