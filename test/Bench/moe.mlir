// RUN: mirage-opt --verify-each %mirage_src_root/bench/programs/moe.mlir | FileCheck %s
// RUN: mirage-opt --verify-each --verify-roundtrip %mirage_src_root/bench/programs/moe.mlir | mirage-opt --verify-each | FileCheck %s

// Benchmark program bench/programs/moe.mlir:
// moe: a mixture-of-experts layer body, 8 experts batched over dim 0 (no bs parameter).
// Checks the signature (inputs are function arguments, the result is returned)
// and every op with its operands, attributes and shapes.

// The program is pure kernel level: CHECK-NEXT pins every line of the body, so
// no other op (and no graph-defined kernel) can appear, and it is the only function.
// CHECK-LABEL: func.func @moe(
// CHECK-SAME:  %[[V_X:[a-zA-Z0-9_]+]]: tensor<8x8x4096xf16>, %[[V_A:[a-zA-Z0-9_]+]]: tensor<8x4096x4096xf16>, %[[V_B:[a-zA-Z0-9_]+]]: tensor<8x4096x4096xf16>) -> tensor<8x8x4096xf16> {
// CHECK-NEXT:  %[[V_h:[a-zA-Z0-9_]+]] = mk.matmul %[[V_X]], %[[V_A]] : tensor<8x8x4096xf16>, tensor<8x4096x4096xf16> -> tensor<8x8x4096xf16>
// CHECK-NEXT:  %[[V_e:[a-zA-Z0-9_]+]] = mk.exp %[[V_h]] : tensor<8x8x4096xf16>
// CHECK-NEXT:  %[[V_o:[a-zA-Z0-9_]+]] = mk.matmul %[[V_e]], %[[V_B]] : tensor<8x8x4096xf16>, tensor<8x4096x4096xf16> -> tensor<8x8x4096xf16>
// CHECK-NEXT:  return %[[V_o]] : tensor<8x8x4096xf16>
// CHECK-NEXT:  }
// CHECK-NOT: func.func
