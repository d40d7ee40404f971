// REQUIRES: libomp
// RUN: rm -rf %t.cache
// RUN: mirage-opt %s --mirage-superoptimize="keep-reference=1 cache-dir=%t.cache time-budget=30" -o %t.opt.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARKS < %t.remarks
// RUN: FileCheck %s < %t.opt.mlir
// RUN: mirage-run %t.opt.mlir --func=attention --sizes kv=1..69:100:127:128:129:256:257:300:512 | FileCheck %s --check-prefix=SWEEP
// RUN: mirage-opt %t.opt.mlir --mirage-check-equivalence="sizes=kv=1:7:33:100:300:512" -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV
// RUN: mirage-opt %s --mirage-superoptimize="keep-reference=1 cache-dir=%t.cache time-budget=30" -o %t.second.mlir 2>&1 | FileCheck %s --check-prefix=CACHED
// RUN: diff %t.opt.mlir %t.second.mlir

// Decode attention over a dynamic key length (docs/dynamic.md "The walked
// tail"), searched per size class: the programs found walk the keys with a
// '?' loop, the softmax's maximum and sum read the last trip's tail
// masked (-inf and 0), and the result is one compiled program for every
// length, run here at every length to 64 + 5 and around the tiles of the
// larger classes, and checked in the field and f64 at lengths of every
// class. A one-trip program found at a class's representative walks tiles
// of the class's largest length (one trip for every length of the class); a
// program found for one class is checked at another class's samples before
// it is chosen there, and one whose trips do not compose (a softmax whose
// maximum is taken per trip) fails those checks and is passed over.

// Each class's search reports under the class's name.
// REMARKS: remark: size class kv 257..512: superoptimized in 1 subprogram(s)
// REMARKS: remark: superoptimized per size class of kv (1 <= kv <= 512):

// CHECK-LABEL: func.func @attention(
// CHECK-SAME:    mk.reference = @attention_reference
// CHECK:       func.func private @attention__kv_
// CHECK:         mk.graph_kernel({{.*}}) grid = [{{.*}}] block = [{{.*}}] forloop = ? {
// CHECK:           mb.tail_mask %{{.*}} dim = 2 fill = 0xFFF0000000000000
// CHECK:           mb.reduce_max

// SWEEP: 77 sizes, one compiled program: 77 passed
// SWEEP: PASS
// EQUIV-COUNT-6: remark: equivalent to @attention_reference at kv={{[0-9]+}} (program attention__
// CACHED: remark: superoptimized per size class of kv

func.func @attention(%q: tensor<4x1x32xf32>, %k: tensor<4x?x32xf32> {mk.sizes = [#mk.size<name = "kv", max = 512>]}, %v: tensor<4x?x32xf32>) -> tensor<4x1x32xf32> {
  %kt = mk.transpose %k perm = [0, 2, 1] : tensor<4x?x32xf32> -> tensor<4x32x?xf32>
  %s = mk.matmul %q, %kt : tensor<4x1x32xf32>, tensor<4x32x?xf32> -> tensor<4x1x?xf32>
  %m = mk.reduce_max %s dim = 2 : tensor<4x1x?xf32> -> tensor<4x1x1xf32>
  %d = mk.sub %s, %m : tensor<4x1x?xf32>, tensor<4x1x1xf32> -> tensor<4x1x?xf32>
  %e = mk.exp %d : tensor<4x1x?xf32>
  %sum = mk.reduce_sum %e dim = 2 : tensor<4x1x?xf32> -> tensor<4x1x1xf32>
  %o = mk.matmul %e, %v : tensor<4x1x?xf32>, tensor<4x?x32xf32> -> tensor<4x1x32xf32>
  %r = mk.div %o, %sum : tensor<4x1x32xf32>, tensor<4x1x1xf32> -> tensor<4x1x32xf32>
  return %r : tensor<4x1x32xf32>
}
