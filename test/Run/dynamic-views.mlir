// REQUIRES: libomp
// RUN: mirage-run %s --func=linear_heads --sizes tokens=1..29:64:100 | FileCheck %s --check-prefix=LINEAR
// RUN: mirage-run %s --func=attention_heads --sizes tokens=1..3:4:5:15:64,kv=1..3:15:16:17:50:256 | FileCheck %s --check-prefix=ATTN
// RUN: mirage-opt %s --mirage-check-equivalence="sizes=tokens=1:7:8:13,kv=1:17:100" -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV
// RUN: mirage-opt %s --mirage-specialize-sizes="sizes=tokens=13,kv=17" | FileCheck %s --check-prefix=STATIC

// Dynamic kernels that read and write through views (docs/dynamic.md,
// "Views"): a view that passes the tokens dim through as it is has strides
// that do not depend on the size ([K19]), so a head split or merge stays
// in the kernel. Every size of the sweeps runs on the CPU path against the
// interpreter, including the tails along the tokens (blocks of 8 and 4)
// and the keys (trips of 16, masked); the equivalence check compares each
// kernel with its kernel-level reference at sizes of both kinds.

// LINEAR: 31 sizes, one compiled program: 31 passed
// LINEAR: PASS
// ATTN: 56 sizes, one compiled program: 56 passed
// ATTN: PASS
// EQUIV-COUNT-4: remark: equivalent to @linear_heads_reference at tokens=
// EQUIV-COUNT-12: remark: equivalent to @attention_heads_reference at
// STATIC-LABEL: func.func @linear_heads(
// STATIC:         grid = [4, 2, 1]
// STATIC:         mb.output_saver %{{.*}} view = #{{.*}} : tensor<8x16xf32> -> tensor<13x4x16xf32>
// STATIC-LABEL: func.func @attention_heads(
// STATIC:         grid = [4, 4, 1] block = [128, 1, 1] forloop = 2

// Linear layer, then the heads split: [tokens, 32] x [32, 64] written as
// [tokens, 4, 16], a block per head and 8 tokens.
func.func @linear_heads(%x: tensor<?x32xf32> {mk.sizes = [#mk.size<name = "tokens", max = 128>]}, %w: tensor<32x64xf32>) -> tensor<?x4x16xf32>
    attributes {mk.reference = @linear_heads_reference} {
  %y = mk.graph_kernel (%x, %w) grid = [4, ?, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<?x32xf32>, %W: tensor<32x64xf32>):
    %acc = mb.for_loop -> (tensor<8x16xf32>) {
      %xt = mb.input_iter %X imap = [-1, 0, -1] fmap = -1 : tensor<?x32xf32> -> tensor<8x32xf32>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = -1 : tensor<32x64xf32> -> tensor<32x16xf32>
      %m = mb.matmul %xt, %wt : tensor<8x32xf32>, tensor<32x16xf32> -> tensor<8x16xf32>
      %a = mb.accum_sum %m : tensor<8x16xf32> -> tensor<8x16xf32>
      mb.yield %a : tensor<8x16xf32>
    }
    %r = mb.relu %acc : tensor<8x16xf32>
    %o = mb.output_saver %r omap = [1, 0, -1] view = affine_map<(t, c) -> (t, c floordiv 16, c mod 16)> : tensor<8x16xf32> -> tensor<?x4x16xf32>
    mb.return %o : tensor<?x4x16xf32>
  } : (tensor<?x32xf32>, tensor<32x64xf32>) -> tensor<?x4x16xf32>
  return %y : tensor<?x4x16xf32>
}

func.func private @linear_heads_reference(%x: tensor<?x32xf32> {mk.sizes = [#mk.size<name = "tokens", max = 128>]}, %w: tensor<32x64xf32>) -> tensor<?x4x16xf32> {
  %m = mk.matmul %x, %w : tensor<?x32xf32>, tensor<32x64xf32> -> tensor<?x64xf32>
  %r = mk.relu %m : tensor<?x64xf32>
  %h = mk.reshape %r : tensor<?x64xf32> -> tensor<?x4x16xf32>
  return %h : tensor<?x4x16xf32>
}

// Attention over heads split from [tokens, 4 * 16] and keys from
// [kv, 4 * 16]: Q read as [4, tokens, 16], K^T as [4, 16, kv] and V as
// [4, kv, 16] in place, the output merged back into [tokens, 64]. The
// loop walks the keys in trips of 16 (a '?' loop, its tail masked).
func.func @attention_heads(%q: tensor<?x64xf32> {mk.sizes = [#mk.size<name = "tokens", max = 64>]},
                           %k: tensor<?x64xf32> {mk.sizes = [#mk.size<name = "kv", max = 256>]},
                           %v: tensor<?x64xf32>) -> tensor<?x64xf32>
    attributes {mk.reference = @attention_heads_reference} {
  %y = mk.graph_kernel (%q, %k, %v) grid = [4, ?, 1] block = [128, 1, 1] forloop = ? {
  ^bb0(%Q: tensor<?x64xf32>, %K: tensor<?x64xf32>, %V: tensor<?x64xf32>):
    %acc:2 = mb.for_loop -> (tensor<1x4x1xf32>, tensor<1x4x16xf32>) {
      %qt = mb.input_iter %Q imap = [0, 1, -1] fmap = -1 view = affine_map<(h, t, d) -> (t, h * 16 + d)> : tensor<?x64xf32> -> tensor<1x4x16xf32>
      %kt = mb.input_iter %K imap = [0, -1, -1] fmap = 2 view = affine_map<(h, d, s) -> (s, h * 16 + d)> : tensor<?x64xf32> -> tensor<1x16x16xf32>
      %vt = mb.input_iter %V imap = [0, -1, -1] fmap = 1 view = affine_map<(h, s, d) -> (s, h * 16 + d)> : tensor<?x64xf32> -> tensor<1x16x16xf32>
      %s = mb.matmul %qt, %kt : tensor<1x4x16xf32>, tensor<1x16x16xf32> -> tensor<1x4x16xf32>
      %e = mb.exp %s : tensor<1x4x16xf32>
      %em = mb.tail_mask %e dim = 2 fill = 0.0 : tensor<1x4x16xf32>
      %pv = mb.matmul %em, %vt : tensor<1x4x16xf32>, tensor<1x16x16xf32> -> tensor<1x4x16xf32>
      %sum = mb.accum_sum_last %em : tensor<1x4x16xf32> -> tensor<1x4x1xf32>
      %o = mb.accum_sum %pv : tensor<1x4x16xf32> -> tensor<1x4x16xf32>
      mb.yield %sum, %o : tensor<1x4x1xf32>, tensor<1x4x16xf32>
    }
    %r = mb.div %acc#1, %acc#0 : tensor<1x4x16xf32>, tensor<1x4x1xf32> -> tensor<1x4x16xf32>
    %out = mb.output_saver %r omap = [0, 1, -1] view = affine_map<(h, t, d) -> (t, h * 16 + d)> : tensor<1x4x16xf32> -> tensor<?x64xf32>
    mb.return %out : tensor<?x64xf32>
  } : (tensor<?x64xf32>, tensor<?x64xf32>, tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

func.func private @attention_heads_reference(%q: tensor<?x64xf32> {mk.sizes = [#mk.size<name = "tokens", max = 64>]},
                                             %k: tensor<?x64xf32> {mk.sizes = [#mk.size<name = "kv", max = 256>]},
                                             %v: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %q3 = mk.reshape %q : tensor<?x64xf32> -> tensor<?x4x16xf32>
  %qh = mk.transpose %q3 perm = [1, 0, 2] : tensor<?x4x16xf32> -> tensor<4x?x16xf32>
  %k3 = mk.reshape %k : tensor<?x64xf32> -> tensor<?x4x16xf32>
  %kt = mk.transpose %k3 perm = [1, 2, 0] : tensor<?x4x16xf32> -> tensor<4x16x?xf32>
  %v3 = mk.reshape %v : tensor<?x64xf32> -> tensor<?x4x16xf32>
  %vh = mk.transpose %v3 perm = [1, 0, 2] : tensor<?x4x16xf32> -> tensor<4x?x16xf32>
  %s = mk.matmul %qh, %kt : tensor<4x?x16xf32>, tensor<4x16x?xf32> -> tensor<4x?x?xf32>
  %e = mk.exp %s : tensor<4x?x?xf32>
  %sum = mk.reduce_sum %e dim = 2 : tensor<4x?x?xf32> -> tensor<4x?x1xf32>
  %o = mk.matmul %e, %vh : tensor<4x?x?xf32>, tensor<4x?x16xf32> -> tensor<4x?x16xf32>
  %r = mk.div %o, %sum : tensor<4x?x16xf32>, tensor<4x?x1xf32> -> tensor<4x?x16xf32>
  %rt = mk.transpose %r perm = [1, 0, 2] : tensor<4x?x16xf32> -> tensor<?x4x16xf32>
  %out = mk.reshape %rt : tensor<?x4x16xf32> -> tensor<?x64xf32>
  return %out : tensor<?x64xf32>
}
