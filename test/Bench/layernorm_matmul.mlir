// RUN: mirage-opt --verify-each %mirage_src_root/bench/programs/layernorm_matmul.mlir | FileCheck %s
// RUN: mirage-opt --verify-each --verify-roundtrip %mirage_src_root/bench/programs/layernorm_matmul.mlir | mirage-opt --verify-each | FileCheck %s

// Benchmark program bench/programs/layernorm_matmul.mlir:
// layernorm_matmul: LayerNorm (mean, centred variance, affine weight and bias), then a matmul.
// Checks the signature (inputs are function arguments, the result is returned)
// and every op with its operands, attributes and shapes.

// The program is pure kernel level: CHECK-NEXT pins every line of the body, so
// no other op (and no graph-defined kernel) can appear, and it is the only function.
// CHECK-LABEL: func.func @layernorm_matmul(
// CHECK-SAME:  %[[V_X:[a-zA-Z0-9_]+]]: tensor<16x4096xf16>, %[[V_gamma:[a-zA-Z0-9_]+]]: tensor<1x4096xf16>, %[[V_beta:[a-zA-Z0-9_]+]]: tensor<1x4096xf16>, %[[V_W:[a-zA-Z0-9_]+]]: tensor<4096x4096xf16>) -> tensor<16x4096xf16> {
// CHECK-NEXT:  %[[V_s:[a-zA-Z0-9_]+]] = mk.reduce_sum %[[V_X]] dim = 1 : tensor<16x4096xf16> -> tensor<16x1xf16>
// CHECK-NEXT:  %[[V_mu:[a-zA-Z0-9_]+]] = mk.mul_scalar %[[V_s]], 2.44140625E-4 : tensor<16x1xf16>
// CHECK-NEXT:  %[[V_c:[a-zA-Z0-9_]+]] = mk.sub %[[V_X]], %[[V_mu]] : tensor<16x4096xf16>, tensor<16x1xf16> -> tensor<16x4096xf16>
// CHECK-NEXT:  %[[V_c2:[a-zA-Z0-9_]+]] = mk.square %[[V_c]] : tensor<16x4096xf16>
// CHECK-NEXT:  %[[V_s2:[a-zA-Z0-9_]+]] = mk.reduce_sum %[[V_c2]] dim = 1 : tensor<16x4096xf16> -> tensor<16x1xf16>
// CHECK-NEXT:  %[[V_var:[a-zA-Z0-9_]+]] = mk.mul_scalar %[[V_s2]], 2.44140625E-4 : tensor<16x1xf16>
// CHECK-NEXT:  %[[V_ve:[a-zA-Z0-9_]+]] = mk.add_scalar %[[V_var]], 1.000000e-05 : tensor<16x1xf16>
// CHECK-NEXT:  %[[V_sd:[a-zA-Z0-9_]+]] = mk.sqrt %[[V_ve]] : tensor<16x1xf16>
// CHECK-NEXT:  %[[V_n:[a-zA-Z0-9_]+]] = mk.div %[[V_c]], %[[V_sd]] : tensor<16x4096xf16>, tensor<16x1xf16> -> tensor<16x4096xf16>
// CHECK-NEXT:  %[[V_ng:[a-zA-Z0-9_]+]] = mk.mul %[[V_n]], %[[V_gamma]] : tensor<16x4096xf16>, tensor<1x4096xf16> -> tensor<16x4096xf16>
// CHECK-NEXT:  %[[V_nb:[a-zA-Z0-9_]+]] = mk.add %[[V_ng]], %[[V_beta]] : tensor<16x4096xf16>, tensor<1x4096xf16> -> tensor<16x4096xf16>
// CHECK-NEXT:  %[[V_o:[a-zA-Z0-9_]+]] = mk.matmul %[[V_nb]], %[[V_W]] : tensor<16x4096xf16>, tensor<4096x4096xf16> -> tensor<16x4096xf16>
// CHECK-NEXT:  return %[[V_o]] : tensor<16x4096xf16>
// CHECK-NEXT:  }
// CHECK-NOT: func.func
