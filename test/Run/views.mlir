// REQUIRES: libomp
// RUN: mirage-run %s --func=heads | FileCheck %s --check-prefix=HEADS
// RUN: mirage-run %s --func=heads --omp-threads=0 | FileCheck %s --check-prefix=HEADS
// RUN: mirage-run %s --func=gqa_scores | FileCheck %s --check-prefix=SCORES
// RUN: mirage-run %s --func=gqa_pv | FileCheck %s --check-prefix=PV
// RUN: mirage-run %s --func=linear | FileCheck %s --check-prefix=LINEAR
// RUN: mirage-run %s --func=linear --tensor-cores --omp-threads=0 | FileCheck %s --check-prefix=LINEAR0
// RUN: mirage-run %s --func=slice | FileCheck %s --check-prefix=SLICE

// Input iterators and output savers with views ([B22]-[B25]) run on the CPU
// path (the GPU IR, cp.async emulated) against the f64 interpreter, in f16,
// over several blocks and loop iterations: a head split read and merged
// back (16-byte copies), GQA's shared K^T heads (a floordiv view whose last
// dim is not contiguous: scalar copies) and V heads (contiguous: 16-byte
// copies, merged on the way out), W^T read in place (scalar copies) feeding
// a matmul with a rank-1 bias read as 1xN, and a column slice of a wider
// tensor at an offset of 32 elements (16-byte copies).

// HEADS: @heads on cpu
// HEADS-NEXT: PASS
// SCORES: @gqa_scores on cpu
// SCORES-NEXT: PASS
// PV: @gqa_pv on cpu
// PV-NEXT: PASS
// LINEAR: @linear on cpu (threads=2)
// LINEAR-NEXT: PASS
// LINEAR0: @linear on cpu (threads=0)
// LINEAR0-NEXT: PASS
// SLICE: @slice on cpu
// SLICE-NEXT: PASS

// Q[tokens, 8 heads * 16] read per head ((h, t, d) -> (t, h * 16 + d)),
// exp summed over 4 blocks of 16 tokens per loop, written back merged.
func.func @heads(%q: tensor<128x128xf16>) -> tensor<32x128xf16> {
  %y = mk.graph_kernel (%q) grid = [8, 2, 1] block = [64, 1, 1] forloop = 4 {
  ^bb0(%Q: tensor<128x128xf16>):
    %t = mb.for_loop -> (tensor<1x16x16xf16>) {
      %qt = mb.input_iter %Q imap = [0, 1, -1] fmap = 1 view = affine_map<(h, t, d) -> (t, h * 16 + d)> : tensor<128x128xf16> -> tensor<1x16x16xf16>
      %e = mb.exp %qt : tensor<1x16x16xf16>
      %s = mb.accum_sum %e : tensor<1x16x16xf16> -> tensor<1x16x16xf16>
      mb.yield %s : tensor<1x16x16xf16>
    }
    %o = mb.output_saver %t omap = [0, 1, -1] view = affine_map<(h, t, d) -> (t, h * 16 + d)> : tensor<1x16x16xf16> -> tensor<32x128xf16>
    mb.return %o : tensor<32x128xf16>
  } : (tensor<128x128xf16>) -> tensor<32x128xf16>
  return %y : tensor<32x128xf16>
}

// Scores of 4 query heads against 2 shared K heads: K^T of head h's group
// read in place, (h, d, t) -> (t, (h floordiv 2) * 16 + d); the shared dim
// walks the loop in two steps of 8.
func.func @gqa_scores(%q: tensor<32x64xf16>, %k: tensor<32x32xf16>) -> tensor<4x32x32xf16> {
  %y = mk.graph_kernel (%q, %k) grid = [4, 2, 1] block = [64, 1, 1] forloop = 2 {
  ^bb0(%Q: tensor<32x64xf16>, %K: tensor<32x32xf16>):
    %acc = mb.for_loop -> (tensor<1x16x32xf16>) {
      %qt = mb.input_iter %Q imap = [0, 1, -1] fmap = 2 view = affine_map<(h, t, d) -> (t, h * 16 + d)> : tensor<32x64xf16> -> tensor<1x16x8xf16>
      %kt = mb.input_iter %K imap = [0, -1, -1] fmap = 1 view = affine_map<(h, d, t) -> (t, (h floordiv 2) * 16 + d)> : tensor<32x32xf16> -> tensor<1x8x32xf16>
      %m = mb.matmul %qt, %kt : tensor<1x16x8xf16>, tensor<1x8x32xf16> -> tensor<1x16x32xf16>
      %s = mb.accum_sum %m : tensor<1x16x32xf16> -> tensor<1x16x32xf16>
      mb.yield %s : tensor<1x16x32xf16>
    }
    %o = mb.output_saver %acc omap = [0, 1, -1] : tensor<1x16x32xf16> -> tensor<4x32x32xf16>
    mb.return %o : tensor<4x32x32xf16>
  } : (tensor<32x64xf16>, tensor<32x32xf16>) -> tensor<4x32x32xf16>
  return %y : tensor<4x32x32xf16>
}

// P . V per query head with V[tokens, 2 heads * 16] shared by pairs of
// heads, (h, t, d) -> (t, (h floordiv 2) * 16 + d), and the heads merged
// into O[tokens, 4 * 16].
func.func @gqa_pv(%p: tensor<4x32x32xf16>, %v: tensor<32x32xf16>) -> tensor<32x64xf16> {
  %y = mk.graph_kernel (%p, %v) grid = [4, 2, 1] block = [64, 1, 1] forloop = 2 {
  ^bb0(%P: tensor<4x32x32xf16>, %V: tensor<32x32xf16>):
    %acc = mb.for_loop -> (tensor<1x16x16xf16>) {
      %pt = mb.input_iter %P imap = [0, 1, -1] fmap = 2 : tensor<4x32x32xf16> -> tensor<1x16x16xf16>
      %vt = mb.input_iter %V imap = [0, -1, -1] fmap = 1 view = affine_map<(h, t, d) -> (t, (h floordiv 2) * 16 + d)> : tensor<32x32xf16> -> tensor<1x16x16xf16>
      %m = mb.matmul %pt, %vt : tensor<1x16x16xf16>, tensor<1x16x16xf16> -> tensor<1x16x16xf16>
      %s = mb.accum_sum %m : tensor<1x16x16xf16> -> tensor<1x16x16xf16>
      mb.yield %s : tensor<1x16x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, 1, -1] view = affine_map<(h, t, d) -> (t, h * 16 + d)> : tensor<1x16x16xf16> -> tensor<32x64xf16>
    mb.return %o : tensor<32x64xf16>
  } : (tensor<4x32x32xf16>, tensor<32x32xf16>) -> tensor<32x64xf16>
  return %y : tensor<32x64xf16>
}

// nn.Linear: X . W^T + b with W[out, in] read as W^T in place,
// (k, n) -> (n, k), and the rank-1 bias read as a 1xN row, (i, n) -> (n),
// after the loop.
func.func @linear(%x: tensor<32x64xf16>, %w: tensor<48x64xf16>, %b: tensor<48xf16>) -> tensor<32x48xf16> {
  %y = mk.graph_kernel (%x, %w, %b) grid = [2, 3, 1] block = [64, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<32x64xf16>, %W: tensor<48x64xf16>, %B: tensor<48xf16>):
    %acc = mb.for_loop -> (tensor<16x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<32x64xf16> -> tensor<16x16xf16>
      %wt = mb.input_iter %W imap = [-1, 1, -1] fmap = 0 view = affine_map<(k, n) -> (n, k)> : tensor<48x64xf16> -> tensor<16x16xf16>
      %m = mb.matmul %xt, %wt : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf16>
      %s = mb.accum_sum %m : tensor<16x16xf16> -> tensor<16x16xf16>
      mb.yield %s : tensor<16x16xf16>
    }
    %bt = mb.input_iter %B imap = [-1, 1, -1] fmap = -1 view = affine_map<(i, n) -> (n)> : tensor<48xf16> -> tensor<1x16xf16>
    %a = mb.add %acc, %bt : tensor<16x16xf16>, tensor<1x16xf16> -> tensor<16x16xf16>
    %o = mb.output_saver %a omap = [0, 1, -1] : tensor<16x16xf16> -> tensor<32x48xf16>
    mb.return %o : tensor<32x48xf16>
  } : (tensor<32x64xf16>, tensor<48x64xf16>, tensor<48xf16>) -> tensor<32x48xf16>
  return %y : tensor<32x48xf16>
}

// X[:, 32:96] . W: the columns 32 .. 95 of a wider X, (i, j) -> (i, j + 32).
func.func @slice(%x: tensor<32x96xf16>, %w: tensor<64x32xf16>) -> tensor<32x32xf16> {
  %y = mk.graph_kernel (%x, %w) grid = [2, 2, 1] block = [64, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<32x96xf16>, %W: tensor<64x32xf16>):
    %acc = mb.for_loop -> (tensor<16x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 view = affine_map<(i, j) -> (i, j + 32)> : tensor<32x96xf16> -> tensor<16x16xf16>
      %wt = mb.input_iter %W imap = [-1, 1, -1] fmap = 0 : tensor<64x32xf16> -> tensor<16x16xf16>
      %m = mb.matmul %xt, %wt : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf16>
      %s = mb.accum_sum %m : tensor<16x16xf16> -> tensor<16x16xf16>
      mb.yield %s : tensor<16x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, 1, -1] : tensor<16x16xf16> -> tensor<32x32xf16>
    mb.return %o : tensor<32x32xf16>
  } : (tensor<32x96xf16>, tensor<64x32xf16>) -> tensor<32x32xf16>
  return %y : tensor<32x32xf16>
}
