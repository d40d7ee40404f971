// RUN: mirage-opt --verify-each %mirage_src_root/bench/programs/mha_safe_bs8.mlir | FileCheck %s
// RUN: mirage-opt --verify-each --verify-roundtrip %mirage_src_root/bench/programs/mha_safe_bs8.mlir | mirage-opt --verify-each | FileCheck %s

// Benchmark program bench/programs/mha_safe_bs8.mlir:
// mha_safe, bs = 8: multi-head attention with a safe softmax (the max subtracted).
// Checks the signature (inputs are function arguments, the result is returned)
// and every op with its operands, attributes and shapes.

// The program is pure kernel level: CHECK-NEXT pins every line of the body, so
// no other op (and no graph-defined kernel) can appear, and it is the only function.
// CHECK-LABEL: func.func @mha_safe(
// CHECK-SAME:  %[[V_Q:[a-zA-Z0-9_]+]]: tensor<256x16x64xf16>, %[[V_K:[a-zA-Z0-9_]+]]: tensor<256x64x4096xf16>, %[[V_V:[a-zA-Z0-9_]+]]: tensor<256x4096x64xf16>) -> tensor<256x16x64xf16> {
// CHECK-NEXT:  %[[V_s:[a-zA-Z0-9_]+]] = mk.matmul %[[V_Q]], %[[V_K]] : tensor<256x16x64xf16>, tensor<256x64x4096xf16> -> tensor<256x16x4096xf16>
// CHECK-NEXT:  %[[V_m:[a-zA-Z0-9_]+]] = mk.reduce_max %[[V_s]] dim = 2 : tensor<256x16x4096xf16> -> tensor<256x16x1xf16>
// CHECK-NEXT:  %[[V_c:[a-zA-Z0-9_]+]] = mk.sub %[[V_s]], %[[V_m]] : tensor<256x16x4096xf16>, tensor<256x16x1xf16> -> tensor<256x16x4096xf16>
// CHECK-NEXT:  %[[V_e:[a-zA-Z0-9_]+]] = mk.exp %[[V_c]] : tensor<256x16x4096xf16>
// CHECK-NEXT:  %[[V_d:[a-zA-Z0-9_]+]] = mk.reduce_sum %[[V_e]] dim = 2 : tensor<256x16x4096xf16> -> tensor<256x16x1xf16>
// CHECK-NEXT:  %[[V_p:[a-zA-Z0-9_]+]] = mk.div %[[V_e]], %[[V_d]] : tensor<256x16x4096xf16>, tensor<256x16x1xf16> -> tensor<256x16x4096xf16>
// CHECK-NEXT:  %[[V_o:[a-zA-Z0-9_]+]] = mk.matmul %[[V_p]], %[[V_V]] : tensor<256x16x4096xf16>, tensor<256x4096x64xf16> -> tensor<256x16x64xf16>
// CHECK-NEXT:  return %[[V_o]] : tensor<256x16x64xf16>
// CHECK-NEXT:  }
// CHECK-NOT: func.func
