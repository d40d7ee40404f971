// RUN: mirage-opt --verify-each %mirage_src_root/bench/programs/gated_mlp.mlir | FileCheck %s
// RUN: mirage-opt --verify-each --verify-roundtrip %mirage_src_root/bench/programs/gated_mlp.mlir | mirage-opt --verify-each | FileCheck %s

// Benchmark program bench/programs/gated_mlp.mlir:
// gated_mlp: the gated MLP of a transformer block (no batch-size parameter).
// Checks the signature (inputs are function arguments, the result is returned)
// and every op with its operands, attributes and shapes.

// The program is pure kernel level: CHECK-NEXT pins every line of the body, so
// no other op (and no graph-defined kernel) can appear, and it is the only function.
// CHECK-LABEL: func.func @gated_mlp(
// CHECK-SAME:  %[[V_X:[a-zA-Z0-9_]+]]: tensor<8x4096xf16>, %[[V_W1:[a-zA-Z0-9_]+]]: tensor<4096x4096xf16>, %[[V_W2:[a-zA-Z0-9_]+]]: tensor<4096x4096xf16>) -> tensor<8x4096xf16> {
// CHECK-NEXT:  %[[V_a:[a-zA-Z0-9_]+]] = mk.matmul %[[V_X]], %[[V_W1]] : tensor<8x4096xf16>, tensor<4096x4096xf16> -> tensor<8x4096xf16>
// CHECK-NEXT:  %[[V_b:[a-zA-Z0-9_]+]] = mk.matmul %[[V_X]], %[[V_W2]] : tensor<8x4096xf16>, tensor<4096x4096xf16> -> tensor<8x4096xf16>
// CHECK-NEXT:  %[[V_s:[a-zA-Z0-9_]+]] = mk.silu %[[V_a]] : tensor<8x4096xf16>
// CHECK-NEXT:  %[[V_o:[a-zA-Z0-9_]+]] = mk.mul %[[V_s]], %[[V_b]] : tensor<8x4096xf16>, tensor<8x4096xf16> -> tensor<8x4096xf16>
// CHECK-NEXT:  return %[[V_o]] : tensor<8x4096xf16>
// CHECK-NEXT:  }
// CHECK-NOT: func.func
