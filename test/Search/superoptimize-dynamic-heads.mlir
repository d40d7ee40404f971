// REQUIRES: libomp
// RUN: mirage-opt %s --mirage-superoptimize="keep-reference=1 cache-dir=none time-budget=10 size-classes=1,64" -o %t.opt.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARKS < %t.remarks
// RUN: FileCheck %s < %t.opt.mlir
// RUN: mirage-run %t.opt.mlir --func=mha --sizes tokens=1..3:8:9:64,kv=1:2:7:128:129:256 | FileCheck %s --check-prefix=SWEEP
// RUN: mirage-opt %t.opt.mlir --mirage-check-equivalence="sizes=tokens=1:7:64,kv=1:100:256" -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV

// Multi-head attention as exports write it: queries, keys and values of
// [tokens, 4 heads * 32], split into heads and transposed by layout ops,
// the result merged back (docs/dynamic.md, "Views"). The search folds the
// layout ops into the kernels' views; the views pass the dynamic dims
// through as they are, so each class's program is generalised with them
// (before, every class kept the unfused form: 29-30 us modelled against
// 4-7 us fused at 2-64 tokens on sm_90).

// The programs found depend on the time budget: any fused one reads and
// writes [tokens, 128] through views.
// REMARKS: remark: superoptimized per size class of tokens (1 <= tokens <= 64), kv (1 <= kv <= 256) searched at 256: {{2 programs dispatched on the size|one program for every size}}

// CHECK-LABEL: func.func @mha(
// CHECK:         mb.input_iter %{{.*}} view = #{{.*}} : tensor<?x128xf32> -> tensor<
// CHECK:         mb.output_saver %{{.*}} view = #{{.*}} : tensor<{{.*}}> -> tensor<?x128xf32>

// SWEEP: 36 sizes, one compiled program: 36 passed
// SWEEP: PASS
// EQUIV-COUNT-9: remark: equivalent to @mha_reference at

func.func @mha(%q: tensor<?x128xf32> {mk.sizes = [#mk.size<name = "tokens", max = 64>]},
               %k: tensor<?x128xf32> {mk.sizes = [#mk.size<name = "kv", max = 256>]},
               %v: tensor<?x128xf32>) -> tensor<?x128xf32> {
  %q3 = mk.reshape %q : tensor<?x128xf32> -> tensor<?x4x32xf32>
  %qh = mk.transpose %q3 perm = [1, 0, 2] : tensor<?x4x32xf32> -> tensor<4x?x32xf32>
  %k3 = mk.reshape %k : tensor<?x128xf32> -> tensor<?x4x32xf32>
  %kt = mk.transpose %k3 perm = [1, 2, 0] : tensor<?x4x32xf32> -> tensor<4x32x?xf32>
  %v3 = mk.reshape %v : tensor<?x128xf32> -> tensor<?x4x32xf32>
  %vh = mk.transpose %v3 perm = [1, 0, 2] : tensor<?x4x32xf32> -> tensor<4x?x32xf32>
  %s = mk.matmul %qh, %kt : tensor<4x?x32xf32>, tensor<4x32x?xf32> -> tensor<4x?x?xf32>
  %m = mk.reduce_max %s dim = 2 : tensor<4x?x?xf32> -> tensor<4x?x1xf32>
  %d = mk.sub %s, %m : tensor<4x?x?xf32>, tensor<4x?x1xf32> -> tensor<4x?x?xf32>
  %e = mk.exp %d : tensor<4x?x?xf32>
  %sum = mk.reduce_sum %e dim = 2 : tensor<4x?x?xf32> -> tensor<4x?x1xf32>
  %o = mk.matmul %e, %vh : tensor<4x?x?xf32>, tensor<4x?x32xf32> -> tensor<4x?x32xf32>
  %r = mk.div %o, %sum : tensor<4x?x32xf32>, tensor<4x?x1xf32> -> tensor<4x?x32xf32>
  %rt = mk.transpose %r perm = [1, 0, 2] : tensor<4x?x32xf32> -> tensor<?x4x32xf32>
  %out = mk.reshape %rt : tensor<?x4x32xf32> -> tensor<?x128xf32>
  return %out : tensor<?x128xf32>
}
