// REQUIRES: libomp
// RUN: mirage-opt %s --mirage-superoptimize="keep-reference=1 cache-dir=none time-budget=20 size-classes=1,64" -o %t.opt.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARKS < %t.remarks
// RUN: FileCheck %s < %t.opt.mlir
// RUN: mirage-run %t.opt.mlir --func=attention --sizes tokens=1..5:17:64,kv=1..9:127:128:129:255:256 | FileCheck %s --check-prefix=SWEEP
// RUN: mirage-opt %t.opt.mlir --mirage-check-equivalence="sizes=tokens=1:7:64,kv=1:100:256" -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV
// RUN: not mirage-opt %s --mirage-superoptimize="cache-dir=none dispatch-size=heads" 2>&1 | FileCheck %s --check-prefix=NONAME

// Prefill attention: the query count and the key length are two dynamic
// sizes (docs/dynamic.md, "Several sizes"). The search takes the classes of
// the first, the tokens, and holds the keys at their largest length (256),
// where a program that walks them covers every shorter length; the program
// found is generalised back in both sizes (a '?' grid dim over the queries,
// a '?' loop over the keys with its tail masked), checked at points that
// vary each size and both at once, and run here on the CPU path at every
// combination of 7 query counts and 14 key lengths.

// REMARKS: remark: superoptimized per size class of tokens (1 <= tokens <= 64), kv (1 <= kv <= 256) searched at 256:

// CHECK-LABEL: func.func @attention(
// CHECK-SAME:    mk.reference = @attention_reference
// CHECK:         mk.graph_kernel({{.*}}) grid = [{{.*}}?{{.*}}] block = [{{.*}}] forloop = ? {
// CHECK:           mb.tail_mask %{{.*}} dim = 2 fill = 0xFFF0000000000000
// CHECK:           mb.reduce_max

// SWEEP: 98 sizes, one compiled program: 98 passed
// SWEEP: PASS
// EQUIV-COUNT-9: remark: equivalent to @attention_reference at {{kv=[0-9]+, tokens=[0-9]+|tokens=[0-9]+, kv=[0-9]+}}
// NONAME: error: mirage-superoptimize: dispatch-size 'heads' is not a dynamic size of @attention (its sizes: tokens, kv)

func.func @attention(%q: tensor<4x?x32xf32> {mk.sizes = [#mk.size<name = "tokens", max = 64>]},
                     %k: tensor<4x?x32xf32> {mk.sizes = [#mk.size<name = "kv", max = 256>]},
                     %v: tensor<4x?x32xf32>) -> tensor<4x?x32xf32> {
  %kt = mk.transpose %k perm = [0, 2, 1] : tensor<4x?x32xf32> -> tensor<4x32x?xf32>
  %s = mk.matmul %q, %kt : tensor<4x?x32xf32>, tensor<4x32x?xf32> -> tensor<4x?x?xf32>
  %m = mk.reduce_max %s dim = 2 : tensor<4x?x?xf32> -> tensor<4x?x1xf32>
  %d = mk.sub %s, %m : tensor<4x?x?xf32>, tensor<4x?x1xf32> -> tensor<4x?x?xf32>
  %e = mk.exp %d : tensor<4x?x?xf32>
  %sum = mk.reduce_sum %e dim = 2 : tensor<4x?x?xf32> -> tensor<4x?x1xf32>
  %o = mk.matmul %e, %v : tensor<4x?x?xf32>, tensor<4x?x32xf32> -> tensor<4x?x32xf32>
  %r = mk.div %o, %sum : tensor<4x?x32xf32>, tensor<4x?x1xf32> -> tensor<4x?x32xf32>
  return %r : tensor<4x?x32xf32>
}
