// Partitioned search of a DAG: the attention projections of a decoder layer
// at small shapes. One normalised input feeds the Q, K and V matmuls (a
// value with three consumers) and the residual adds x to Q (x has two
// consumers). The breadth-first topological order keeps the three
// projections adjacent; the result is equivalent to the input.
//
// RUN: mirage-opt --mirage-superoptimize="threads=2 keep-reference=1 partition-min-ops=6 cache-dir=none" %s -o %t 2> %t.remarks
// RUN: FileCheck %s --input-file=%t
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: mirage-opt --mirage-check-equivalence %t -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV

// A function below partition-min-ops (8) is searched whole first; when that
// verifies nothing (here: one kernel-level op cannot write three outputs),
// it is partitioned with the rest of its budget.
// RUN: mirage-opt --mirage-superoptimize="max-kernel-ops=1 keep-reference=1 cache-dir=none" %s -o %t.fallback 2> %t.fallback.remarks
// RUN: FileCheck %s --check-prefix=FALLBACK --input-file=%t.fallback.remarks
// RUN: mirage-opt --mirage-check-equivalence %t.fallback -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV

// FALLBACK: remark: not superoptimized: no verified program
// FALLBACK: remark: subprogram 1 of 2:
// FALLBACK: remark: subprogram 2 of 2:
// FALLBACK: remark: superoptimized in 2 subprogram(s): 6 ops, 2 kernel(s) (unfused 6)

// REMARK: remark: subprogram 1 of
// REMARK: remark: superoptimized in {{[0-9]+}} subprogram(s): 6 ops, {{[1-3]}} kernel(s) (unfused 6)

// EQUIV: remark: equivalent to @qkv_reference

// CHECK-LABEL: func.func @qkv(
// CHECK-SAME:      attributes {mk.reference = @qkv_reference}
// CHECK-NOT:     mk.matmul
// CHECK:         mk.graph_kernel
// CHECK-NOT:     mk.matmul
// CHECK:         return
func.func @qkv(%x: tensor<8x64xf16>, %w: tensor<1x64xf16>, %wq: tensor<64x64xf16>, %wk: tensor<64x16xf16>, %wv: tensor<64x16xf16>) -> (tensor<8x64xf16>, tensor<8x16xf16>, tensor<8x16xf16>) {
  %n = mk.rms_norm %x eps = 1.0e-05 : tensor<8x64xf16>
  %h = mk.mul %n, %w : tensor<8x64xf16>, tensor<1x64xf16> -> tensor<8x64xf16>
  %q = mk.matmul %h, %wq : tensor<8x64xf16>, tensor<64x64xf16> -> tensor<8x64xf16>
  %k = mk.matmul %h, %wk : tensor<8x64xf16>, tensor<64x16xf16> -> tensor<8x16xf16>
  %v = mk.matmul %h, %wv : tensor<8x64xf16>, tensor<64x16xf16> -> tensor<8x16xf16>
  %r = mk.add %q, %x : tensor<8x64xf16>, tensor<8x64xf16> -> tensor<8x64xf16>
  return %r, %k, %v : tensor<8x64xf16>, tensor<8x16xf16>, tensor<8x16xf16>
}
