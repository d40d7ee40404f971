// RUN: mirage-opt --mirage-absorb-views %s -split-input-file | FileCheck %s
// The rewritten functions compute every element as the originals do (field
// evaluation on the same seeded inputs, every value printed):
// RUN: mirage-opt --mirage-evaluate="domain=field print-values" %s -split-input-file -o /dev/null > %t.before
// RUN: mirage-opt --mirage-absorb-views --mirage-evaluate="domain=field print-values" %s -split-input-file -o /dev/null > %t.after
// RUN: diff %t.before %t.after

// Head split of an argument: the kernel reads Q[tokens, heads * 16] in place.
// CHECK: #[[SPLIT:.*]] = affine_map<(d0, d1, d2) -> (d1, d2 + d0 * 16)>
// CHECK-LABEL: func.func @head_split(
// CHECK-SAME: %[[Q:.*]]: tensor<8x64xf32>
// CHECK-NOT: mk.reshape
// CHECK-NOT: mk.transpose
// CHECK: mk.graph_kernel(%[[Q]])
// CHECK: mb.input_iter %{{.*}} imap = [0, -1, -1] fmap = -1 view = #[[SPLIT]] : tensor<8x64xf32> -> tensor<1x8x16xf32>
// CHECK: } : (tensor<8x64xf32>) -> tensor<4x8x16xf32>
func.func @head_split(%q: tensor<8x64xf32>) -> tensor<4x8x16xf32> {
  %a = mk.reshape %q : tensor<8x64xf32> -> tensor<8x4x16xf32>
  %b = mk.transpose %a perm = [1, 0, 2] : tensor<8x4x16xf32> -> tensor<4x8x16xf32>
  %y = mk.graph_kernel (%b) grid = [4, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%B: tensor<4x8x16xf32>):
    %t = mb.for_loop -> (tensor<1x8x16xf32>) {
      %bt = mb.input_iter %B imap = [0, -1, -1] fmap = -1 : tensor<4x8x16xf32> -> tensor<1x8x16xf32>
      %e = mb.exp %bt : tensor<1x8x16xf32>
      %s = mb.accum_sum %e : tensor<1x8x16xf32> -> tensor<1x8x16xf32>
      mb.yield %s : tensor<1x8x16xf32>
    }
    %o = mb.output_saver %t omap = [0, -1, -1] : tensor<1x8x16xf32> -> tensor<4x8x16xf32>
    mb.return %o : tensor<4x8x16xf32>
  } : (tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  return %y : tensor<4x8x16xf32>
}

// -----

// GQA: two KV heads repeated for four query heads, then K^T; the kernel
// reads K[tokens, 2 * 16] with the group's head (h floordiv 2).
// CHECK: #[[GQA:.*]] = affine_map<(d0, d1, d2) -> (d2, d1 + (d0 floordiv 2) * 16)>
// CHECK-LABEL: func.func @gqa_keys(
// CHECK-SAME: %[[K:.*]]: tensor<8x32xf32>
// CHECK-NOT: mk.concat
// CHECK: mk.graph_kernel(%[[K]])
// CHECK: mb.input_iter %{{.*}} view = #[[GQA]] : tensor<8x32xf32> -> tensor<1x16x8xf32>
func.func @gqa_keys(%k: tensor<8x32xf32>) -> tensor<4x16x8xf32> {
  %k1 = mk.reshape %k : tensor<8x32xf32> -> tensor<8x2x16xf32>
  %kh = mk.transpose %k1 perm = [1, 0, 2] : tensor<8x2x16xf32> -> tensor<2x8x16xf32>
  %k2 = mk.reshape %kh : tensor<2x8x16xf32> -> tensor<2x1x8x16xf32>
  %kr = mk.concat %k2, %k2 dim = 1 : tensor<2x1x8x16xf32>, tensor<2x1x8x16xf32> -> tensor<2x2x8x16xf32>
  %k4 = mk.reshape %kr : tensor<2x2x8x16xf32> -> tensor<4x8x16xf32>
  %kt = mk.transpose %k4 perm = [0, 2, 1] : tensor<4x8x16xf32> -> tensor<4x16x8xf32>
  %y = mk.graph_kernel (%kt) grid = [4, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%K: tensor<4x16x8xf32>):
    %t = mb.for_loop -> (tensor<1x16x8xf32>) {
      %kt2 = mb.input_iter %K imap = [0, -1, -1] fmap = -1 : tensor<4x16x8xf32> -> tensor<1x16x8xf32>
      %s = mb.accum_sum %kt2 : tensor<1x16x8xf32> -> tensor<1x16x8xf32>
      mb.yield %s : tensor<1x16x8xf32>
    }
    %o = mb.output_saver %t omap = [0, -1, -1] : tensor<1x16x8xf32> -> tensor<4x16x8xf32>
    mb.return %o : tensor<4x16x8xf32>
  } : (tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %y : tensor<4x16x8xf32>
}

// -----

// Head merge: the kernel writes [heads, tokens, 16] straight into the merged
// [tokens, heads * 16] layout.
// CHECK: #[[MERGE:.*]] = affine_map<(d0, d1, d2) -> (d1, d2 + d0 * 16)>
// CHECK-LABEL: func.func @head_merge(
// CHECK: %[[Y:.*]] = mk.graph_kernel
// CHECK: mb.output_saver %{{.*}} omap = [0, -1, -1] view = #[[MERGE]] : tensor<1x8x16xf32> -> tensor<8x64xf32>
// CHECK: } : (tensor<4x8x16xf32>) -> tensor<8x64xf32>
// CHECK-NOT: mk.transpose
// CHECK-NEXT: return %[[Y]]
func.func @head_merge(%x: tensor<4x8x16xf32>) -> tensor<8x64xf32> {
  %y = mk.graph_kernel (%x) grid = [4, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<4x8x16xf32>):
    %t = mb.for_loop -> (tensor<1x8x16xf32>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = -1 : tensor<4x8x16xf32> -> tensor<1x8x16xf32>
      %s = mb.accum_sum %xt : tensor<1x8x16xf32> -> tensor<1x8x16xf32>
      mb.yield %s : tensor<1x8x16xf32>
    }
    %o = mb.output_saver %t omap = [0, -1, -1] : tensor<1x8x16xf32> -> tensor<4x8x16xf32>
    mb.return %o : tensor<4x8x16xf32>
  } : (tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  %a = mk.transpose %y perm = [1, 0, 2] : tensor<4x8x16xf32> -> tensor<8x4x16xf32>
  %b = mk.reshape %a : tensor<8x4x16xf32> -> tensor<8x64xf32>
  return %b : tensor<8x64xf32>
}

// -----

// A repeat that a reshape cuts unevenly (index i of 12 reads element i mod 6;
// as 3x4, (a, b) reads (4a + b) mod 6: not a sum of digits) is not a view:
// the kernel reads the concat's result (the reshape becomes its view), the
// concat stays. A transposed value that is also returned stays for that use.
// CHECK-LABEL: func.func @uneven_repeat(
// CHECK: %[[C:.*]] = mk.concat
// CHECK-NOT: mk.reshape
// CHECK: %[[T:.*]] = mk.transpose
// CHECK: mk.graph_kernel(%[[C]], %{{.*}})
// CHECK: return %{{.*}}, %[[T]]
func.func @uneven_repeat(%x: tensor<6xf32>, %w: tensor<4x3xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>) {
  %c = mk.concat %x, %x dim = 0 : tensor<6xf32>, tensor<6xf32> -> tensor<12xf32>
  %r = mk.reshape %c : tensor<12xf32> -> tensor<3x4xf32>
  %t = mk.transpose %w perm = [1, 0] : tensor<4x3xf32> -> tensor<3x4xf32>
  %y = mk.graph_kernel (%r, %t) grid = [1, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%R: tensor<3x4xf32>, %T: tensor<3x4xf32>):
    %s = mb.for_loop -> (tensor<3x4xf32>) {
      %rt = mb.input_iter %R imap = [-1, -1, -1] fmap = -1 : tensor<3x4xf32> -> tensor<3x4xf32>
      %tt = mb.input_iter %T imap = [-1, -1, -1] fmap = -1 : tensor<3x4xf32> -> tensor<3x4xf32>
      %m = mb.mul %rt, %tt : tensor<3x4xf32>, tensor<3x4xf32> -> tensor<3x4xf32>
      %a = mb.accum_sum %m : tensor<3x4xf32> -> tensor<3x4xf32>
      mb.yield %a : tensor<3x4xf32>
    }
    %o = mb.output_saver %s omap = [-1, -1, -1] : tensor<3x4xf32> -> tensor<3x4xf32>
    mb.return %o : tensor<3x4xf32>
  } : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return %y, %t : tensor<3x4xf32>, tensor<3x4xf32>
}
