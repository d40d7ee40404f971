// RUN: mirage-opt --verify-each %mirage_src_root/bench/programs/ntrans_bs8.mlir | FileCheck %s
// RUN: mirage-opt --verify-each --verify-roundtrip %mirage_src_root/bench/programs/ntrans_bs8.mlir | mirage-opt --verify-each | FileCheck %s

// Benchmark program bench/programs/ntrans_bs8.mlir:
// ntrans, bs = 8: the normalised-transformer (nGPT) residual update.
// Checks the signature (inputs are function arguments, the result is returned)
// and every op with its operands, attributes and shapes.

// The program is pure kernel level: CHECK-NEXT pins every line of the body, so
// no other op (and no graph-defined kernel) can appear, and it is the only function.
// CHECK-LABEL: func.func @ntrans(
// CHECK-SAME:  %[[V_H:[a-zA-Z0-9_]+]]: tensor<64x4096xf16>, %[[V_X:[a-zA-Z0-9_]+]]: tensor<64x4096xf16>, %[[V_alpha:[a-zA-Z0-9_]+]]: tensor<1x4096xf16>) -> tensor<64x4096xf16> {
// CHECK-NEXT:  %[[V_hn:[a-zA-Z0-9_]+]] = mk.rms_norm %[[V_H]] eps = 9.9999999999999995E-7 : tensor<64x4096xf16>
// CHECK-NEXT:  %[[V_d:[a-zA-Z0-9_]+]] = mk.sub %[[V_hn]], %[[V_X]] : tensor<64x4096xf16>, tensor<64x4096xf16> -> tensor<64x4096xf16>
// CHECK-NEXT:  %[[V_ad:[a-zA-Z0-9_]+]] = mk.mul %[[V_alpha]], %[[V_d]] : tensor<1x4096xf16>, tensor<64x4096xf16> -> tensor<64x4096xf16>
// CHECK-NEXT:  %[[V_y:[a-zA-Z0-9_]+]] = mk.add %[[V_X]], %[[V_ad]] : tensor<64x4096xf16>, tensor<64x4096xf16> -> tensor<64x4096xf16>
// CHECK-NEXT:  %[[V_o:[a-zA-Z0-9_]+]] = mk.rms_norm %[[V_y]] eps = 9.9999999999999995E-7 : tensor<64x4096xf16>
// CHECK-NEXT:  return %[[V_o]] : tensor<64x4096xf16>
// CHECK-NEXT:  }
// CHECK-NOT: func.func
