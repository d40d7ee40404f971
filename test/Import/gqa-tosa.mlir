// RUN: mirage-opt --mirage-import %s | FileCheck %s
// RUN: mirage-opt --mirage-import %s | mirage-opt --mirage-check-equivalence -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQ
// RUN: mirage-run --import-check %s | FileCheck %s --check-prefix=DIFF

// The differential check (docs/import.md): each function written in
// linalg/tosa, run by upstream MLIR's CPU lowering in f32, against the f64
// interpreter of its import, on the same seeded inputs.
// DIFF: PASS @tosa_gqa
// DIFF: 1 passed, 0 failed, 0 not checked

// The gqa benchmark (bench/programs/gqa_bs1.mlir) in tosa as TFLite emits it:
// tosa.matmul with zero-point operands, exp, a keep-dim reduce_sum, the
// division as reciprocal times mul (shift operand 0).

// EQ: remark: equivalent to @gqa

func.func @gqa(%Q: tensor<2x256x64xf16>, %K: tensor<2x64x4096xf16>, %V: tensor<2x4096x64xf16>) -> tensor<2x256x64xf16> {
  %s = mk.matmul %Q, %K : tensor<2x256x64xf16>, tensor<2x64x4096xf16> -> tensor<2x256x4096xf16>
  %e = mk.exp %s : tensor<2x256x4096xf16>
  %d = mk.reduce_sum %e dim = 2 : tensor<2x256x4096xf16> -> tensor<2x256x1xf16>
  %p = mk.div %e, %d : tensor<2x256x4096xf16>, tensor<2x256x1xf16> -> tensor<2x256x4096xf16>
  %o = mk.matmul %p, %V : tensor<2x256x4096xf16>, tensor<2x4096x64xf16> -> tensor<2x256x64xf16>
  return %o : tensor<2x256x64xf16>
}

// CHECK-LABEL: func.func @tosa_gqa
// CHECK-SAME: (%[[Q:.*]]: tensor<2x256x64xf16>, %[[K:.*]]: tensor<2x64x4096xf16>, %[[V:.*]]: tensor<2x4096x64xf16>)
// CHECK-NEXT: %[[S:.*]] = mk.matmul %[[Q]], %[[K]]
// CHECK-NEXT: %[[E:.*]] = mk.exp %[[S]]
// CHECK-NEXT: %[[D:.*]] = mk.reduce_sum %[[E]] dim = 2
// CHECK-NEXT: %[[P:.*]] = mk.div %[[E]], %[[D]]
// CHECK-NEXT: %[[O:.*]] = mk.matmul %[[P]], %[[V]]
// CHECK-NEXT: return %[[O]]
func.func @tosa_gqa(%q: tensor<2x256x64xf16>, %k: tensor<2x64x4096xf16>, %v: tensor<2x4096x64xf16>) -> tensor<2x256x64xf16> attributes {mk.reference = @gqa} {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.matmul %q, %k, %zp, %zp : (tensor<2x256x64xf16>, tensor<2x64x4096xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x256x4096xf16>
  %1 = tosa.exp %0 : (tensor<2x256x4096xf16>) -> tensor<2x256x4096xf16>
  %2 = tosa.reduce_sum %1 {axis = 2 : i32} : (tensor<2x256x4096xf16>) -> tensor<2x256x1xf16>
  %3 = tosa.reciprocal %2 : (tensor<2x256x1xf16>) -> tensor<2x256x1xf16>
  %4 = tosa.mul %1, %3, %shift : (tensor<2x256x4096xf16>, tensor<2x256x1xf16>, tensor<1xi8>) -> tensor<2x256x4096xf16>
  %5 = tosa.matmul %4, %v, %zp, %zp : (tensor<2x256x4096xf16>, tensor<2x4096x64xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x256x64xf16>
  return %5 : tensor<2x256x64xf16>
}
