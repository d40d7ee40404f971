// RUN: mirage-opt --verify-each %mirage_src_root/bench/programs/lora.mlir | FileCheck %s
// RUN: mirage-opt --verify-each --verify-roundtrip %mirage_src_root/bench/programs/lora.mlir | mirage-opt --verify-each | FileCheck %s

// Benchmark program bench/programs/lora.mlir:
// lora: a linear layer with a low-rank (rank 16) adapter (no batch-size parameter).
// Checks the signature (inputs are function arguments, the result is returned)
// and every op with its operands, attributes and shapes.

// The program is pure kernel level: CHECK-NEXT pins every line of the body, so
// no other op (and no graph-defined kernel) can appear, and it is the only function.
// CHECK-LABEL: func.func @lora(
// CHECK-SAME:  %[[V_X:[a-zA-Z0-9_]+]]: tensor<16x256xf16>, %[[V_W:[a-zA-Z0-9_]+]]: tensor<256x4096xf16>, %[[V_A:[a-zA-Z0-9_]+]]: tensor<256x16xf16>, %[[V_B:[a-zA-Z0-9_]+]]: tensor<16x4096xf16>) -> tensor<16x4096xf16> {
// CHECK-NEXT:  %[[V_xw:[a-zA-Z0-9_]+]] = mk.matmul %[[V_X]], %[[V_W]] : tensor<16x256xf16>, tensor<256x4096xf16> -> tensor<16x4096xf16>
// CHECK-NEXT:  %[[V_xa:[a-zA-Z0-9_]+]] = mk.matmul %[[V_X]], %[[V_A]] : tensor<16x256xf16>, tensor<256x16xf16> -> tensor<16x16xf16>
// CHECK-NEXT:  %[[V_xab:[a-zA-Z0-9_]+]] = mk.matmul %[[V_xa]], %[[V_B]] : tensor<16x16xf16>, tensor<16x4096xf16> -> tensor<16x4096xf16>
// CHECK-NEXT:  %[[V_o:[a-zA-Z0-9_]+]] = mk.add %[[V_xw]], %[[V_xab]] : tensor<16x4096xf16>, tensor<16x4096xf16> -> tensor<16x4096xf16>
// CHECK-NEXT:  return %[[V_o]] : tensor<16x4096xf16>
// CHECK-NEXT:  }
// CHECK-NOT: func.func
