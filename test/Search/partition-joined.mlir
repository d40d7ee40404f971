// Joined subprograms (docs/partitioning.md): a causal attention of 8 mk ops
// is partitioned (partition-min-ops 8) into subprograms of at most 6 ops,
// {Q.K .. exp} and {sum, div, .V} or the like, two kernels. The two chosen
// subprograms are then joined into one interval of 8 ops, searched like any
// other, and the whole is one kernel at the default options. With an
// explicit max-block-ops=8 its one-kernel form (8 ops and an accumulator)
// cannot fit: no join, two kernels.
// RUN: mirage-opt %s --mirage-superoptimize="threads=2 keep-reference=1 cache-dir=none partition-searches=1" -o %t.opt.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=JOIN --input-file=%t.remarks
// RUN: mirage-opt --mirage-check-equivalence %t.opt.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV
// RUN: mirage-run --func=causal_attention %t.opt.mlir | FileCheck %s --check-prefix=CPU
// RUN: mirage-opt %s --mirage-superoptimize="threads=2 cache-dir=none partition-searches=1 max-block-ops=8" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOJOIN

// JOIN: remark: subprogram 1 of 1: ops 0-7 (mk.matmul, mk.band_mask, mk.reduce_max, mk.sub, mk.exp, mk.reduce_sum, mk.div, mk.matmul): graph_kernel
// JOIN-SAME: 1 kernel(s)
// JOIN: remark: searched subprogram (mk.matmul; mk.band_mask; mk.reduce_max; mk.sub; mk.exp; mk.reduce_sum; mk.div; mk.matmul) in wave {{[0-9]+}} with a budget of
// JOIN: remark: superoptimized in 1 subprogram(s): 8 ops, 1 kernel(s) (unfused 8)
// EQUIV: remark: equivalent to @causal_attention_reference
// CPU: @causal_attention on cpu
// CPU-NEXT: PASS
// NOJOIN-NOT: searched subprogram (mk.matmul; mk.band_mask; mk.reduce_max; mk.sub; mk.exp; mk.reduce_sum; mk.div; mk.matmul)
// NOJOIN: remark: superoptimized in 2 subprogram(s): 8 ops, 2 kernel(s)

func.func @causal_attention(%Q: tensor<4x16x64xf16>, %K: tensor<4x64x512xf16>, %V: tensor<4x512x64xf16>) -> tensor<4x16x64xf16> {
  %s = mk.matmul %Q, %K : tensor<4x16x64xf16>, tensor<4x64x512xf16> -> tensor<4x16x512xf16>
  %b = mk.band_mask %s dims = [1, 2] upper = 496 fill = 0xFFF0000000000000 : tensor<4x16x512xf16>
  %m = mk.reduce_max %b dim = 2 : tensor<4x16x512xf16> -> tensor<4x16x1xf16>
  %c = mk.sub %b, %m : tensor<4x16x512xf16>, tensor<4x16x1xf16> -> tensor<4x16x512xf16>
  %e = mk.exp %c : tensor<4x16x512xf16>
  %d = mk.reduce_sum %e dim = 2 : tensor<4x16x512xf16> -> tensor<4x16x1xf16>
  %p = mk.div %e, %d : tensor<4x16x512xf16>, tensor<4x16x1xf16> -> tensor<4x16x512xf16>
  %o = mk.matmul %p, %V : tensor<4x16x512xf16>, tensor<4x512x64xf16> -> tensor<4x16x64xf16>
  return %o : tensor<4x16x64xf16>
}
