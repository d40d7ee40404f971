// REQUIRES: libomp
// RUN: mirage-run %s --func=decode --sizes kv=1..101:1000 | FileCheck %s --check-prefix=HAND
// RUN: mirage-opt %s --mirage-check-equivalence="sizes=kv=1:5:31:32:33:100" -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV
// RUN: mirage-opt %s --mirage-wrap-kernels -o %t.wrapped.mlir
// RUN: FileCheck %s --check-prefix=WRAP < %t.wrapped.mlir
// RUN: mirage-run %t.wrapped.mlir --func=attention --sizes kv=1..69:127:128:129:255:256:257:389 | FileCheck %s --check-prefix=UNFUSED

// Decode attention over a dynamic key length (docs/dynamic.md "The walked
// tail"): one compiled program for every length, checked against the
// interpreter at every length from 1 to 3 tiles + 5 on the CPU path.

// @decode walks the keys in tiles of 32 with a '?' loop; the scores' tail
// is masked with 0 before the contraction with V and the row sum.
// HAND: 102 sizes, one compiled program: 102 passed
// HAND: PASS
// EQUIV-COUNT-6: remark: equivalent to @ref_exp at kv={{[0-9]+}}

func.func @ref_exp(%q: tensor<8x1x64xf32>, %k: tensor<8x?x64xf32> {mk.sizes = [#mk.size<name = "kv", max = 4096>]}, %v: tensor<8x?x64xf32>) -> tensor<8x1x64xf32> {
  %kt = mk.transpose %k perm = [0, 2, 1] : tensor<8x?x64xf32> -> tensor<8x64x?xf32>
  %s = mk.matmul %q, %kt : tensor<8x1x64xf32>, tensor<8x64x?xf32> -> tensor<8x1x?xf32>
  %e = mk.exp %s : tensor<8x1x?xf32>
  %sum = mk.reduce_sum %e dim = 2 : tensor<8x1x?xf32> -> tensor<8x1x1xf32>
  %o = mk.matmul %e, %v : tensor<8x1x?xf32>, tensor<8x?x64xf32> -> tensor<8x1x64xf32>
  %r = mk.div %o, %sum : tensor<8x1x64xf32>, tensor<8x1x1xf32> -> tensor<8x1x64xf32>
  return %r : tensor<8x1x64xf32>
}

func.func @decode(%q: tensor<8x1x64xf32>, %k: tensor<8x?x64xf32> {mk.sizes = [#mk.size<name = "kv", max = 4096>]}, %v: tensor<8x?x64xf32>) -> tensor<8x1x64xf32> attributes {mk.reference = @ref_exp} {
  %o = mk.graph_kernel (%q, %k, %v) grid = [8, 1, 1] block = [128, 1, 1] forloop = ? {
  ^bb0(%Q: tensor<8x1x64xf32>, %K: tensor<8x?x64xf32>, %V: tensor<8x?x64xf32>):
    %acc:2 = mb.for_loop -> (tensor<1x1x64xf32>, tensor<1x1x1xf32>) {
      %qt = mb.input_iter %Q imap = [0, -1, -1] fmap = -1 : tensor<8x1x64xf32> -> tensor<1x1x64xf32>
      %kt = mb.input_iter %K imap = [0, -1, -1] fmap = 1 : tensor<8x?x64xf32> -> tensor<1x32x64xf32>
      %vt = mb.input_iter %V imap = [0, -1, -1] fmap = 1 : tensor<8x?x64xf32> -> tensor<1x32x64xf32>
      %ktt = mb.transpose %kt perm = [0, 2, 1] : tensor<1x32x64xf32> -> tensor<1x64x32xf32>
      %s = mb.matmul %qt, %ktt : tensor<1x1x64xf32>, tensor<1x64x32xf32> -> tensor<1x1x32xf32>
      %e = mb.exp %s : tensor<1x1x32xf32>
      %em = mb.tail_mask %e dim = 2 fill = 0.0 : tensor<1x1x32xf32>
      %pv = mb.matmul %em, %vt : tensor<1x1x32xf32>, tensor<1x32x64xf32> -> tensor<1x1x64xf32>
      %a = mb.accum_sum %pv : tensor<1x1x64xf32> -> tensor<1x1x64xf32>
      %se = mb.accum_sum_last %em : tensor<1x1x32xf32> -> tensor<1x1x1xf32>
      mb.yield %a, %se : tensor<1x1x64xf32>, tensor<1x1x1xf32>
    }
    %r = mb.div %acc#0, %acc#1 : tensor<1x1x64xf32>, tensor<1x1x1xf32> -> tensor<1x1x64xf32>
    %out = mb.output_saver %r omap = [0, -1, -1] : tensor<1x1x64xf32> -> tensor<8x1x64xf32>
    mb.return %out : tensor<8x1x64xf32>
  } : (tensor<8x1x64xf32>, tensor<8x?x64xf32>, tensor<8x?x64xf32>) -> tensor<8x1x64xf32>
  return %o : tensor<8x1x64xf32>
}

// The softmax with its maximum, one kernel per op: the maximum walks the
// keys with its tail masked with -inf, the sum reads the iterator's zeros,
// the contraction with V walks 128 keys a trip. Its sweep covers every
// length to 64 + 5 and the multiples of 128 and their neighbours to 389
// (every length to 389 passes too; it takes 50 s).
// WRAP-LABEL: func.func @attention(
// WRAP:         forloop = ?
// WRAP:           %[[S:.*]] = mb.input_iter {{.*}} fmap = 2 : tensor<8x1x?xf32> -> tensor<1x1x64xf32>
// WRAP-NEXT:      %[[M:.*]] = mb.tail_mask %[[S]] dim = 2 fill = 0xFFF0000000000000 : tensor<1x1x64xf32>
// WRAP-NEXT:      mb.reduce_max %[[M]] dim = 2
// WRAP:         forloop = ?
// WRAP:           %[[E:.*]] = mb.input_iter {{.*}} fmap = 2 : tensor<8x1x?xf32> -> tensor<1x1x64xf32>
// WRAP-NEXT:      mb.reduce_sum %[[E]] dim = 2
// WRAP:         forloop = ?
// WRAP:           mb.input_iter {{.*}} fmap = 2 : tensor<8x1x?xf32> -> tensor<1x1x128xf32>
// WRAP:           mb.input_iter {{.*}} fmap = 1 : tensor<8x?x64xf32> -> tensor<1x128x16xf32>
// WRAP-NOT:       mb.tail_mask
// WRAP:           mb.matmul
// UNFUSED: 76 sizes, one compiled program: 76 passed
// UNFUSED: PASS
func.func @attention(%q: tensor<8x1x64xf32>, %k: tensor<8x?x64xf32> {mk.sizes = [#mk.size<name = "kv", max = 4096>]}, %v: tensor<8x?x64xf32>) -> tensor<8x1x64xf32> {
  %kt = mk.transpose %k perm = [0, 2, 1] : tensor<8x?x64xf32> -> tensor<8x64x?xf32>
  %s = mk.matmul %q, %kt : tensor<8x1x64xf32>, tensor<8x64x?xf32> -> tensor<8x1x?xf32>
  %m = mk.reduce_max %s dim = 2 : tensor<8x1x?xf32> -> tensor<8x1x1xf32>
  %d = mk.sub %s, %m : tensor<8x1x?xf32>, tensor<8x1x1xf32> -> tensor<8x1x?xf32>
  %e = mk.exp %d : tensor<8x1x?xf32>
  %sum = mk.reduce_sum %e dim = 2 : tensor<8x1x?xf32> -> tensor<8x1x1xf32>
  %o = mk.matmul %e, %v : tensor<8x1x?xf32>, tensor<8x?x64xf32> -> tensor<8x1x64xf32>
  %r = mk.div %o, %sum : tensor<8x1x64xf32>, tensor<8x1x1xf32> -> tensor<8x1x64xf32>
  return %r : tensor<8x1x64xf32>
}
