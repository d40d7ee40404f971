// RUN: mirage-opt --verify-each %mirage_src_root/bench/programs/rmsnorm_matmul_bs1.mlir | FileCheck %s
// RUN: mirage-opt --verify-each --verify-roundtrip %mirage_src_root/bench/programs/rmsnorm_matmul_bs1.mlir | mirage-opt --verify-each | FileCheck %s

// Benchmark program bench/programs/rmsnorm_matmul_bs1.mlir:
// rmsnorm_matmul, bs = 1: RMSNorm followed by a matmul.
// Checks the signature (inputs are function arguments, the result is returned)
// and every op with its operands, attributes and shapes.

// The program is pure kernel level: CHECK-NEXT pins every line of the body, so
// no other op (and no graph-defined kernel) can appear, and it is the only function.
// CHECK-LABEL: func.func @rmsnorm_matmul(
// CHECK-SAME:  %[[V_X:[a-zA-Z0-9_]+]]: tensor<2x4096xf16>, %[[V_W:[a-zA-Z0-9_]+]]: tensor<4096x6144xf16>) -> tensor<2x6144xf16> {
// CHECK-NEXT:  %[[V_n:[a-zA-Z0-9_]+]] = mk.rms_norm %[[V_X]] eps = 9.9999999999999995E-7 : tensor<2x4096xf16>
// CHECK-NEXT:  %[[V_o:[a-zA-Z0-9_]+]] = mk.matmul %[[V_n]], %[[V_W]] : tensor<2x4096xf16>, tensor<4096x6144xf16> -> tensor<2x6144xf16>
// CHECK-NEXT:  return %[[V_o]] : tensor<2x6144xf16>
// CHECK-NEXT:  }
// CHECK-NOT: func.func
