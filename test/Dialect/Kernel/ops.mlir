// RUN: mirage-opt %s | mirage-opt | FileCheck %s
// RUN: mirage-opt %s -mlir-print-op-generic | mirage-opt | FileCheck %s

// Round trip of every mk op, in the custom and in the generic form.

// CHECK-LABEL: func.func @unary_f16
// CHECK-SAME: (%[[X:.*]]: tensor<2x8xf16>)
func.func @unary_f16(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  // CHECK: %[[EXP:.*]] = mk.exp %[[X]] : tensor<2x8xf16>
  %exp = mk.exp %x : tensor<2x8xf16>
  // CHECK: %[[SQUARE:.*]] = mk.square %[[EXP]] : tensor<2x8xf16>
  %square = mk.square %exp : tensor<2x8xf16>
  // CHECK: %[[SQRT:.*]] = mk.sqrt %[[SQUARE]] : tensor<2x8xf16>
  %sqrt = mk.sqrt %square : tensor<2x8xf16>
  // CHECK: %[[RSQRT:.*]] = mk.rsqrt %[[SQRT]] : tensor<2x8xf16>
  %rsqrt = mk.rsqrt %sqrt : tensor<2x8xf16>
  // CHECK: %[[SILU:.*]] = mk.silu %[[RSQRT]] : tensor<2x8xf16>
  %silu = mk.silu %rsqrt : tensor<2x8xf16>
  // CHECK: %[[GELU:.*]] = mk.gelu %[[SILU]] : tensor<2x8xf16>
  %gelu = mk.gelu %silu : tensor<2x8xf16>
  // CHECK: %[[RELU:.*]] = mk.relu %[[GELU]] : tensor<2x8xf16>
  %relu = mk.relu %gelu : tensor<2x8xf16>
  // CHECK: %[[SIGMOID:.*]] = mk.sigmoid %[[RELU]] : tensor<2x8xf16>
  %sigmoid = mk.sigmoid %relu : tensor<2x8xf16>
  // CHECK: %[[NEG:.*]] = mk.neg %[[SIGMOID]] : tensor<2x8xf16>
  %neg = mk.neg %sigmoid : tensor<2x8xf16>
  // CHECK: return %[[NEG]] : tensor<2x8xf16>
  return %neg : tensor<2x8xf16>
}

// CHECK-LABEL: func.func @unary_bf16
// CHECK-SAME: (%[[X:.*]]: tensor<4x2x8xbf16>)
func.func @unary_bf16(%x: tensor<4x2x8xbf16>) -> tensor<4x2x8xbf16> {
  // CHECK: %[[EXP:.*]] = mk.exp %[[X]] : tensor<4x2x8xbf16>
  %exp = mk.exp %x : tensor<4x2x8xbf16>
  // CHECK: %[[SQUARE:.*]] = mk.square %[[EXP]] : tensor<4x2x8xbf16>
  %square = mk.square %exp : tensor<4x2x8xbf16>
  // CHECK: %[[SQRT:.*]] = mk.sqrt %[[SQUARE]] : tensor<4x2x8xbf16>
  %sqrt = mk.sqrt %square : tensor<4x2x8xbf16>
  // CHECK: %[[RSQRT:.*]] = mk.rsqrt %[[SQRT]] : tensor<4x2x8xbf16>
  %rsqrt = mk.rsqrt %sqrt : tensor<4x2x8xbf16>
  // CHECK: %[[SILU:.*]] = mk.silu %[[RSQRT]] : tensor<4x2x8xbf16>
  %silu = mk.silu %rsqrt : tensor<4x2x8xbf16>
  // CHECK: %[[GELU:.*]] = mk.gelu %[[SILU]] : tensor<4x2x8xbf16>
  %gelu = mk.gelu %silu : tensor<4x2x8xbf16>
  // CHECK: %[[RELU:.*]] = mk.relu %[[GELU]] : tensor<4x2x8xbf16>
  %relu = mk.relu %gelu : tensor<4x2x8xbf16>
  // CHECK: %[[SIGMOID:.*]] = mk.sigmoid %[[RELU]] : tensor<4x2x8xbf16>
  %sigmoid = mk.sigmoid %relu : tensor<4x2x8xbf16>
  // CHECK: %[[NEG:.*]] = mk.neg %[[SIGMOID]] : tensor<4x2x8xbf16>
  %neg = mk.neg %sigmoid : tensor<4x2x8xbf16>
  // CHECK: return %[[NEG]] : tensor<4x2x8xbf16>
  return %neg : tensor<4x2x8xbf16>
}

// CHECK-LABEL: func.func @unary_f32
// CHECK-SAME: (%[[X:.*]]: tensor<16xf32>)
func.func @unary_f32(%x: tensor<16xf32>) -> tensor<16xf32> {
  // CHECK: %[[EXP:.*]] = mk.exp %[[X]] : tensor<16xf32>
  %exp = mk.exp %x : tensor<16xf32>
  // CHECK: %[[SQUARE:.*]] = mk.square %[[EXP]] : tensor<16xf32>
  %square = mk.square %exp : tensor<16xf32>
  // CHECK: %[[SQRT:.*]] = mk.sqrt %[[SQUARE]] : tensor<16xf32>
  %sqrt = mk.sqrt %square : tensor<16xf32>
  // CHECK: %[[RSQRT:.*]] = mk.rsqrt %[[SQRT]] : tensor<16xf32>
  %rsqrt = mk.rsqrt %sqrt : tensor<16xf32>
  // CHECK: %[[SILU:.*]] = mk.silu %[[RSQRT]] : tensor<16xf32>
  %silu = mk.silu %rsqrt : tensor<16xf32>
  // CHECK: %[[GELU:.*]] = mk.gelu %[[SILU]] : tensor<16xf32>
  %gelu = mk.gelu %silu : tensor<16xf32>
  // CHECK: %[[RELU:.*]] = mk.relu %[[GELU]] : tensor<16xf32>
  %relu = mk.relu %gelu : tensor<16xf32>
  // CHECK: %[[SIGMOID:.*]] = mk.sigmoid %[[RELU]] : tensor<16xf32>
  %sigmoid = mk.sigmoid %relu : tensor<16xf32>
  // CHECK: %[[NEG:.*]] = mk.neg %[[SIGMOID]] : tensor<16xf32>
  %neg = mk.neg %sigmoid : tensor<16xf32>
  // CHECK: return %[[NEG]] : tensor<16xf32>
  return %neg : tensor<16xf32>
}

// CHECK-LABEL: func.func @scalar_f16
// CHECK-SAME: (%[[X:.*]]: tensor<2x8xf16>)
func.func @scalar_f16(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  // CHECK: %[[M:.*]] = mk.mul_scalar %[[X]], 2.500000e+00 : tensor<2x8xf16>
  %m = mk.mul_scalar %x, 2.5 : tensor<2x8xf16>
  // CHECK: %[[A:.*]] = mk.add_scalar %[[M]], -1.250000e-01 : tensor<2x8xf16>
  %a = mk.add_scalar %m, -0.125 : tensor<2x8xf16>
  // CHECK: %[[C:.*]] = mk.clamp %[[A]] min = -1.000000e+00 max = 6.000000e+00 : tensor<2x8xf16>
  %c = mk.clamp %a min = -1.0 max = 6.0 : tensor<2x8xf16>
  // CHECK: %[[E:.*]] = mk.clamp %[[C]] min = 0.000000e+00 max = 0.000000e+00 : tensor<2x8xf16>
  %e = mk.clamp %c min = 0.0 max = 0.0 : tensor<2x8xf16>
  // CHECK: return %[[E]] : tensor<2x8xf16>
  return %e : tensor<2x8xf16>
}

// CHECK-LABEL: func.func @scalar_bf16
// CHECK-SAME: (%[[X:.*]]: tensor<4x2x8xbf16>)
func.func @scalar_bf16(%x: tensor<4x2x8xbf16>) -> tensor<4x2x8xbf16> {
  // CHECK: %[[M:.*]] = mk.mul_scalar %[[X]], 2.500000e+00 : tensor<4x2x8xbf16>
  %m = mk.mul_scalar %x, 2.5 : tensor<4x2x8xbf16>
  // CHECK: %[[A:.*]] = mk.add_scalar %[[M]], -1.250000e-01 : tensor<4x2x8xbf16>
  %a = mk.add_scalar %m, -0.125 : tensor<4x2x8xbf16>
  // CHECK: %[[C:.*]] = mk.clamp %[[A]] min = -1.000000e+00 max = 6.000000e+00 : tensor<4x2x8xbf16>
  %c = mk.clamp %a min = -1.0 max = 6.0 : tensor<4x2x8xbf16>
  // CHECK: %[[E:.*]] = mk.clamp %[[C]] min = 0.000000e+00 max = 0.000000e+00 : tensor<4x2x8xbf16>
  %e = mk.clamp %c min = 0.0 max = 0.0 : tensor<4x2x8xbf16>
  // CHECK: return %[[E]] : tensor<4x2x8xbf16>
  return %e : tensor<4x2x8xbf16>
}

// CHECK-LABEL: func.func @scalar_f32
// CHECK-SAME: (%[[X:.*]]: tensor<16xf32>)
func.func @scalar_f32(%x: tensor<16xf32>) -> tensor<16xf32> {
  // CHECK: %[[M:.*]] = mk.mul_scalar %[[X]], 2.500000e+00 : tensor<16xf32>
  %m = mk.mul_scalar %x, 2.5 : tensor<16xf32>
  // CHECK: %[[A:.*]] = mk.add_scalar %[[M]], -1.250000e-01 : tensor<16xf32>
  %a = mk.add_scalar %m, -0.125 : tensor<16xf32>
  // CHECK: %[[C:.*]] = mk.clamp %[[A]] min = -1.000000e+00 max = 6.000000e+00 : tensor<16xf32>
  %c = mk.clamp %a min = -1.0 max = 6.0 : tensor<16xf32>
  // CHECK: %[[E:.*]] = mk.clamp %[[C]] min = 0.000000e+00 max = 0.000000e+00 : tensor<16xf32>
  %e = mk.clamp %c min = 0.0 max = 0.0 : tensor<16xf32>
  // CHECK: return %[[E]] : tensor<16xf32>
  return %e : tensor<16xf32>
}

// CHECK-LABEL: func.func @binary_f16
// CHECK-SAME: (%[[X:.*]]: tensor<2x8xf16>, %[[Y:.*]]: tensor<2x8xf16>)
func.func @binary_f16(%x: tensor<2x8xf16>, %y: tensor<2x8xf16>) -> tensor<2x8xf16> {
  // CHECK: %[[ADD:.*]] = mk.add %[[X]], %[[Y]] : tensor<2x8xf16>, tensor<2x8xf16> -> tensor<2x8xf16>
  %add = mk.add %x, %y : tensor<2x8xf16>, tensor<2x8xf16> -> tensor<2x8xf16>
  // CHECK: %[[SUB:.*]] = mk.sub %[[ADD]], %[[Y]] : tensor<2x8xf16>, tensor<2x8xf16> -> tensor<2x8xf16>
  %sub = mk.sub %add, %y : tensor<2x8xf16>, tensor<2x8xf16> -> tensor<2x8xf16>
  // CHECK: %[[MUL:.*]] = mk.mul %[[SUB]], %[[Y]] : tensor<2x8xf16>, tensor<2x8xf16> -> tensor<2x8xf16>
  %mul = mk.mul %sub, %y : tensor<2x8xf16>, tensor<2x8xf16> -> tensor<2x8xf16>
  // CHECK: %[[DIV:.*]] = mk.div %[[MUL]], %[[Y]] : tensor<2x8xf16>, tensor<2x8xf16> -> tensor<2x8xf16>
  %div = mk.div %mul, %y : tensor<2x8xf16>, tensor<2x8xf16> -> tensor<2x8xf16>
  // CHECK: %[[POW:.*]] = mk.pow %[[DIV]], %[[Y]] : tensor<2x8xf16>, tensor<2x8xf16> -> tensor<2x8xf16>
  %pow = mk.pow %div, %y : tensor<2x8xf16>, tensor<2x8xf16> -> tensor<2x8xf16>
  // CHECK: return %[[POW]] : tensor<2x8xf16>
  return %pow : tensor<2x8xf16>
}

// CHECK-LABEL: func.func @binary_bf16
// CHECK-SAME: (%[[X:.*]]: tensor<4x2x8xbf16>, %[[Y:.*]]: tensor<4x2x8xbf16>)
func.func @binary_bf16(%x: tensor<4x2x8xbf16>, %y: tensor<4x2x8xbf16>) -> tensor<4x2x8xbf16> {
  // CHECK: %[[ADD:.*]] = mk.add %[[X]], %[[Y]] : tensor<4x2x8xbf16>, tensor<4x2x8xbf16> -> tensor<4x2x8xbf16>
  %add = mk.add %x, %y : tensor<4x2x8xbf16>, tensor<4x2x8xbf16> -> tensor<4x2x8xbf16>
  // CHECK: %[[SUB:.*]] = mk.sub %[[ADD]], %[[Y]] : tensor<4x2x8xbf16>, tensor<4x2x8xbf16> -> tensor<4x2x8xbf16>
  %sub = mk.sub %add, %y : tensor<4x2x8xbf16>, tensor<4x2x8xbf16> -> tensor<4x2x8xbf16>
  // CHECK: %[[MUL:.*]] = mk.mul %[[SUB]], %[[Y]] : tensor<4x2x8xbf16>, tensor<4x2x8xbf16> -> tensor<4x2x8xbf16>
  %mul = mk.mul %sub, %y : tensor<4x2x8xbf16>, tensor<4x2x8xbf16> -> tensor<4x2x8xbf16>
  // CHECK: %[[DIV:.*]] = mk.div %[[MUL]], %[[Y]] : tensor<4x2x8xbf16>, tensor<4x2x8xbf16> -> tensor<4x2x8xbf16>
  %div = mk.div %mul, %y : tensor<4x2x8xbf16>, tensor<4x2x8xbf16> -> tensor<4x2x8xbf16>
  // CHECK: %[[POW:.*]] = mk.pow %[[DIV]], %[[Y]] : tensor<4x2x8xbf16>, tensor<4x2x8xbf16> -> tensor<4x2x8xbf16>
  %pow = mk.pow %div, %y : tensor<4x2x8xbf16>, tensor<4x2x8xbf16> -> tensor<4x2x8xbf16>
  // CHECK: return %[[POW]] : tensor<4x2x8xbf16>
  return %pow : tensor<4x2x8xbf16>
}

// CHECK-LABEL: func.func @binary_f32
// CHECK-SAME: (%[[X:.*]]: tensor<16xf32>, %[[Y:.*]]: tensor<16xf32>)
func.func @binary_f32(%x: tensor<16xf32>, %y: tensor<16xf32>) -> tensor<16xf32> {
  // CHECK: %[[ADD:.*]] = mk.add %[[X]], %[[Y]] : tensor<16xf32>, tensor<16xf32> -> tensor<16xf32>
  %add = mk.add %x, %y : tensor<16xf32>, tensor<16xf32> -> tensor<16xf32>
  // CHECK: %[[SUB:.*]] = mk.sub %[[ADD]], %[[Y]] : tensor<16xf32>, tensor<16xf32> -> tensor<16xf32>
  %sub = mk.sub %add, %y : tensor<16xf32>, tensor<16xf32> -> tensor<16xf32>
  // CHECK: %[[MUL:.*]] = mk.mul %[[SUB]], %[[Y]] : tensor<16xf32>, tensor<16xf32> -> tensor<16xf32>
  %mul = mk.mul %sub, %y : tensor<16xf32>, tensor<16xf32> -> tensor<16xf32>
  // CHECK: %[[DIV:.*]] = mk.div %[[MUL]], %[[Y]] : tensor<16xf32>, tensor<16xf32> -> tensor<16xf32>
  %div = mk.div %mul, %y : tensor<16xf32>, tensor<16xf32> -> tensor<16xf32>
  // CHECK: %[[POW:.*]] = mk.pow %[[DIV]], %[[Y]] : tensor<16xf32>, tensor<16xf32> -> tensor<16xf32>
  %pow = mk.pow %div, %y : tensor<16xf32>, tensor<16xf32> -> tensor<16xf32>
  // CHECK: return %[[POW]] : tensor<16xf32>
  return %pow : tensor<16xf32>
}
// Broadcasting: each dim pair is equal or one of them is 1, on either side.
// CHECK-LABEL: func.func @binary_broadcast
// CHECK-SAME: (%[[A:.*]]: tensor<2x1x8xf16>, %[[B:.*]]: tensor<1x4x8xf16>, %[[C:.*]]: tensor<1x1x1xf16>)
func.func @binary_broadcast(%a: tensor<2x1x8xf16>, %b: tensor<1x4x8xf16>,
                            %c: tensor<1x1x1xf16>) -> tensor<2x4x8xf16> {
  // CHECK: %[[ADD:.*]] = mk.add %[[A]], %[[B]] : tensor<2x1x8xf16>, tensor<1x4x8xf16> -> tensor<2x4x8xf16>
  %add = mk.add %a, %b : tensor<2x1x8xf16>, tensor<1x4x8xf16> -> tensor<2x4x8xf16>
  // CHECK: %[[SUB:.*]] = mk.sub %[[C]], %[[ADD]] : tensor<1x1x1xf16>, tensor<2x4x8xf16> -> tensor<2x4x8xf16>
  %sub = mk.sub %c, %add : tensor<1x1x1xf16>, tensor<2x4x8xf16> -> tensor<2x4x8xf16>
  // CHECK: %[[MUL:.*]] = mk.mul %[[SUB]], %[[B]] : tensor<2x4x8xf16>, tensor<1x4x8xf16> -> tensor<2x4x8xf16>
  %mul = mk.mul %sub, %b : tensor<2x4x8xf16>, tensor<1x4x8xf16> -> tensor<2x4x8xf16>
  // CHECK: %[[DIV:.*]] = mk.div %[[MUL]], %[[A]] : tensor<2x4x8xf16>, tensor<2x1x8xf16> -> tensor<2x4x8xf16>
  %div = mk.div %mul, %a : tensor<2x4x8xf16>, tensor<2x1x8xf16> -> tensor<2x4x8xf16>
  // CHECK: %[[POW:.*]] = mk.pow %[[DIV]], %[[C]] : tensor<2x4x8xf16>, tensor<1x1x1xf16> -> tensor<2x4x8xf16>
  %pow = mk.pow %div, %c : tensor<2x4x8xf16>, tensor<1x1x1xf16> -> tensor<2x4x8xf16>
  // CHECK: return %[[POW]]
  return %pow : tensor<2x4x8xf16>
}

// CHECK-LABEL: func.func @matmul_2d
// CHECK-SAME: (%[[X:.*]]: tensor<2x4096xf16>, %[[W:.*]]: tensor<4096x6144xf16>)
func.func @matmul_2d(%x: tensor<2x4096xf16>, %w: tensor<4096x6144xf16>)
    -> tensor<2x6144xf16> {
  // CHECK: %[[Y:.*]] = mk.matmul %[[X]], %[[W]] : tensor<2x4096xf16>, tensor<4096x6144xf16> -> tensor<2x6144xf16>
  %y = mk.matmul %x, %w : tensor<2x4096xf16>, tensor<4096x6144xf16>
      -> tensor<2x6144xf16>
  // CHECK: return %[[Y]]
  return %y : tensor<2x6144xf16>
}

// CHECK-LABEL: func.func @matmul_batched_rank3_bf16
// CHECK-SAME: (%[[Q:.*]]: tensor<2x256x64xbf16>, %[[K:.*]]: tensor<2x64x4096xbf16>)
func.func @matmul_batched_rank3_bf16(%q: tensor<2x256x64xbf16>,
                                     %k: tensor<2x64x4096xbf16>)
    -> tensor<2x256x4096xbf16> {
  // CHECK: %[[S:.*]] = mk.matmul %[[Q]], %[[K]] : tensor<2x256x64xbf16>, tensor<2x64x4096xbf16> -> tensor<2x256x4096xbf16>
  %s = mk.matmul %q, %k : tensor<2x256x64xbf16>, tensor<2x64x4096xbf16>
      -> tensor<2x256x4096xbf16>
  // CHECK: return %[[S]]
  return %s : tensor<2x256x4096xbf16>
}

// CHECK-LABEL: func.func @matmul_batched_rank4_f32
// CHECK-SAME: (%[[A:.*]]: tensor<2x3x4x5xf32>, %[[B:.*]]: tensor<2x3x5x6xf32>)
func.func @matmul_batched_rank4_f32(%a: tensor<2x3x4x5xf32>,
                                    %b: tensor<2x3x5x6xf32>)
    -> tensor<2x3x4x6xf32> {
  // CHECK: %[[C:.*]] = mk.matmul %[[A]], %[[B]] : tensor<2x3x4x5xf32>, tensor<2x3x5x6xf32> -> tensor<2x3x4x6xf32>
  %c = mk.matmul %a, %b : tensor<2x3x4x5xf32>, tensor<2x3x5x6xf32>
      -> tensor<2x3x4x6xf32>
  // CHECK: return %[[C]]
  return %c : tensor<2x3x4x6xf32>
}

// CHECK-LABEL: func.func @reductions
// CHECK-SAME: (%[[X:.*]]: tensor<2x256x4096xf16>, %[[Y:.*]]: tensor<8xf32>)
func.func @reductions(%x: tensor<2x256x4096xf16>, %y: tensor<8xf32>)
    -> (tensor<2x256x1xf16>, tensor<1x256x4096xf16>, tensor<2x1x1xf16>,
        tensor<1xf32>, tensor<1xf32>) {
  // CHECK: %[[S2:.*]] = mk.reduce_sum %[[X]] dim = 2 : tensor<2x256x4096xf16> -> tensor<2x256x1xf16>
  %s2 = mk.reduce_sum %x dim = 2 : tensor<2x256x4096xf16> -> tensor<2x256x1xf16>
  // CHECK: %[[M0:.*]] = mk.reduce_max %[[X]] dim = 0 : tensor<2x256x4096xf16> -> tensor<1x256x4096xf16>
  %m0 = mk.reduce_max %x dim = 0 : tensor<2x256x4096xf16> -> tensor<1x256x4096xf16>
  // CHECK: %[[M1:.*]] = mk.reduce_max %[[S2]] dim = 1 : tensor<2x256x1xf16> -> tensor<2x1x1xf16>
  %m1 = mk.reduce_max %s2 dim = 1 : tensor<2x256x1xf16> -> tensor<2x1x1xf16>
  // CHECK: %[[S0:.*]] = mk.reduce_sum %[[Y]] dim = 0 : tensor<8xf32> -> tensor<1xf32>
  %s0 = mk.reduce_sum %y dim = 0 : tensor<8xf32> -> tensor<1xf32>
  // CHECK: %[[MY:.*]] = mk.reduce_max %[[Y]] dim = 0 : tensor<8xf32> -> tensor<1xf32>
  %my = mk.reduce_max %y dim = 0 : tensor<8xf32> -> tensor<1xf32>
  // CHECK: return %[[S2]], %[[M0]], %[[M1]], %[[S0]], %[[MY]]
  return %s2, %m0, %m1, %s0, %my : tensor<2x256x1xf16>, tensor<1x256x4096xf16>,
      tensor<2x1x1xf16>, tensor<1xf32>, tensor<1xf32>
}

// CHECK-LABEL: func.func @rms_norm
// CHECK-SAME: (%[[X:.*]]: tensor<2x4096xf16>, %[[W:.*]]: tensor<4096xf16>, %[[Z:.*]]: tensor<4x2x64xbf16>, %[[V:.*]]: tensor<16xf32>)
func.func @rms_norm(%x: tensor<2x4096xf16>, %w: tensor<4096xf16>,
                    %z: tensor<4x2x64xbf16>, %v: tensor<16xf32>)
    -> (tensor<2x4096xf16>, tensor<2x4096xf16>, tensor<4x2x64xbf16>,
        tensor<16xf32>) {
  // CHECK: %[[N:.*]] = mk.rms_norm %[[X]] eps = 9.9999999999999995E-7 : tensor<2x4096xf16>
  %n = mk.rms_norm %x eps = 1.0e-6 : tensor<2x4096xf16>
  // CHECK: %[[NW:.*]] = mk.rms_norm %[[X]] weight(%[[W]] : tensor<4096xf16>) eps = 9.9999999999999995E-7 : tensor<2x4096xf16>
  %nw = mk.rms_norm %x weight(%w : tensor<4096xf16>) eps = 1.0e-6
      : tensor<2x4096xf16>
  // CHECK: %[[NZ:.*]] = mk.rms_norm %[[Z]] eps = 0.000000e+00 : tensor<4x2x64xbf16>
  %nz = mk.rms_norm %z eps = 0.0 : tensor<4x2x64xbf16>
  // CHECK: %[[NV:.*]] = mk.rms_norm %[[V]] weight(%[[V]] : tensor<16xf32>) eps = 1.000000e-05 : tensor<16xf32>
  %nv = mk.rms_norm %v weight(%v : tensor<16xf32>) eps = 1.0e-5 : tensor<16xf32>
  // CHECK: return %[[N]], %[[NW]], %[[NZ]], %[[NV]]
  return %n, %nw, %nz, %nv : tensor<2x4096xf16>, tensor<2x4096xf16>,
      tensor<4x2x64xbf16>, tensor<16xf32>
}

// CHECK-LABEL: func.func @concat
// CHECK-SAME: (%[[A:.*]]: tensor<2x8xf16>, %[[B:.*]]: tensor<3x8xf16>, %[[C:.*]]: tensor<2x4x8xf32>)
func.func @concat(%a: tensor<2x8xf16>, %b: tensor<3x8xf16>,
                  %c: tensor<2x4x8xf32>)
    -> (tensor<7x8xf16>, tensor<2x16xf16>, tensor<2x4x24xf32>) {
  // CHECK: %[[R0:.*]] = mk.concat %[[A]], %[[B]], %[[A]] dim = 0 : tensor<2x8xf16>, tensor<3x8xf16>, tensor<2x8xf16> -> tensor<7x8xf16>
  %r0 = mk.concat %a, %b, %a dim = 0
      : tensor<2x8xf16>, tensor<3x8xf16>, tensor<2x8xf16> -> tensor<7x8xf16>
  // CHECK: %[[R1:.*]] = mk.concat %[[A]], %[[A]] dim = 1 : tensor<2x8xf16>, tensor<2x8xf16> -> tensor<2x16xf16>
  %r1 = mk.concat %a, %a dim = 1
      : tensor<2x8xf16>, tensor<2x8xf16> -> tensor<2x16xf16>
  // CHECK: %[[R2:.*]] = mk.concat %[[C]], %[[C]], %[[C]] dim = 2 : tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32> -> tensor<2x4x24xf32>
  %r2 = mk.concat %c, %c, %c dim = 2
      : tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>
      -> tensor<2x4x24xf32>
  // CHECK: return %[[R0]], %[[R1]], %[[R2]]
  return %r0, %r1, %r2 : tensor<7x8xf16>, tensor<2x16xf16>, tensor<2x4x24xf32>
}

// CHECK-LABEL: func.func @transpose
// CHECK-SAME: (%[[X:.*]]: tensor<2x8xf16>, %[[Y:.*]]: tensor<2x3x4x5xbf16>)
func.func @transpose(%x: tensor<2x8xf16>, %y: tensor<2x3x4x5xbf16>)
    -> (tensor<8x2xf16>, tensor<5x2x4x3xbf16>) {
  // CHECK: %[[T0:.*]] = mk.transpose %[[X]] perm = [1, 0] : tensor<2x8xf16> -> tensor<8x2xf16>
  %t0 = mk.transpose %x perm = [1, 0] : tensor<2x8xf16> -> tensor<8x2xf16>
  // CHECK: %[[T1:.*]] = mk.transpose %[[Y]] perm = [3, 0, 2, 1] : tensor<2x3x4x5xbf16> -> tensor<5x2x4x3xbf16>
  %t1 = mk.transpose %y perm = [3, 0, 2, 1]
      : tensor<2x3x4x5xbf16> -> tensor<5x2x4x3xbf16>
  // CHECK: return %[[T0]], %[[T1]]
  return %t0, %t1 : tensor<8x2xf16>, tensor<5x2x4x3xbf16>
}

// The fused RMSNorm+MatMul of DESIGN §3.2: the loop accumulates the matmul
// and the rms of X, and the division runs once after the loop.
// CHECK-LABEL: func.func @graph_kernel_rmsnorm_matmul
// CHECK-SAME: (%[[X:.*]]: tensor<2x4096xf16>, %[[W:.*]]: tensor<4096x6144xf16>)
func.func @graph_kernel_rmsnorm_matmul(%x: tensor<2x4096xf16>,
                                       %w: tensor<4096x6144xf16>)
    -> tensor<2x6144xf16> {
  // CHECK: %[[Y:.*]] = mk.graph_kernel(%[[X]], %[[W]]) grid = [256, 1, 1] block = [128, 1, 1] forloop = 32 {
  // CHECK-NEXT: ^bb0(%[[BX:.*]]: tensor<2x4096xf16>, %[[BW:.*]]: tensor<4096x6144xf16>):
  // CHECK-NEXT: %[[ACC:.*]]:2 = mb.for_loop -> (tensor<2x1xf16>, tensor<2x24xf16>) {
  // CHECK-NEXT: %[[XT:.*]] = mb.input_iter %[[BX]] imap = [-1, -1, -1] fmap = 1 : tensor<2x4096xf16> -> tensor<2x128xf16>
  // CHECK-NEXT: %[[WT:.*]] = mb.input_iter %[[BW]] imap = [1, -1, -1] fmap = 0 : tensor<4096x6144xf16> -> tensor<128x24xf16>
  // CHECK-NEXT: %[[M:.*]] = mb.matmul %[[XT]], %[[WT]]
  // CHECK-NEXT: %[[R:.*]] = mb.accum_rms_last %[[XT]] eps = 9.9999999999999995E-7
  // CHECK-NEXT: %[[S:.*]] = mb.accum_sum %[[M]]
  // CHECK-NEXT: mb.yield %[[R]], %[[S]]
  // CHECK-NEXT: }
  // CHECK-NEXT: %[[Q:.*]] = mb.div %[[ACC]]#1, %[[ACC]]#0
  // CHECK-NEXT: %[[O:.*]] = mb.output_saver %[[Q]] omap = [1, -1, -1] : tensor<2x24xf16> -> tensor<2x6144xf16>
  // CHECK-NEXT: mb.return %[[O]] : tensor<2x6144xf16>
  // CHECK-NEXT: } : (tensor<2x4096xf16>, tensor<4096x6144xf16>) -> tensor<2x6144xf16>
  %y = mk.graph_kernel (%x, %w) grid = [256, 1, 1] block = [128, 1, 1]
      forloop = 32 {
  ^bb0(%X: tensor<2x4096xf16>, %W: tensor<4096x6144xf16>):
    %acc:2 = mb.for_loop -> (tensor<2x1xf16>, tensor<2x24xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1
          : tensor<2x4096xf16> -> tensor<2x128xf16>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0
          : tensor<4096x6144xf16> -> tensor<128x24xf16>
      %m = mb.matmul %xt, %wt : tensor<2x128xf16>, tensor<128x24xf16>
          -> tensor<2x24xf16>
      %r = mb.accum_rms_last %xt eps = 1.0e-06
          : tensor<2x128xf16> -> tensor<2x1xf16>
      %s = mb.accum_sum %m : tensor<2x24xf16> -> tensor<2x24xf16>
      mb.yield %r, %s : tensor<2x1xf16>, tensor<2x24xf16>
    }
    %q = mb.div %acc#1, %acc#0 : tensor<2x24xf16>, tensor<2x1xf16>
        -> tensor<2x24xf16>
    %o = mb.output_saver %q omap = [1, -1, -1]
        : tensor<2x24xf16> -> tensor<2x6144xf16>
    mb.return %o : tensor<2x6144xf16>
  } : (tensor<2x4096xf16>, tensor<4096x6144xf16>) -> tensor<2x6144xf16>
  // CHECK: return %[[Y]]
  return %y : tensor<2x6144xf16>
}

// A kernel with two results, a 2-D grid and a thread graph after the loop.
// CHECK-LABEL: func.func @graph_kernel_two_outputs_f32
// CHECK-SAME: (%[[A:.*]]: tensor<64x64xf32>)
func.func @graph_kernel_two_outputs_f32(%a: tensor<64x64xf32>)
    -> (tensor<64x8xf32>, tensor<64x4xf32>) {
  // CHECK: %[[R:.*]]:2 = mk.graph_kernel(%[[A]]) grid = [4, 2, 1] block = [32, 4, 1] forloop = 4 {
  // CHECK: mt.thread_graph
  // CHECK: mb.return %{{.*}}, %{{.*}} : tensor<64x8xf32>, tensor<64x4xf32>
  // CHECK-NEXT: } : (tensor<64x64xf32>) -> (tensor<64x8xf32>, tensor<64x4xf32>)
  %r:2 = mk.graph_kernel (%a) grid = [4, 2, 1] block = [32, 4, 1] forloop = 4 {
  ^bb0(%A: tensor<64x64xf32>):
    %acc:2 = mb.for_loop -> (tensor<32x2xf32>, tensor<32x1xf32>) {
      %t = mb.input_iter %A imap = [1, 0, -1] fmap = 1
          : tensor<64x64xf32> -> tensor<32x4xf32>
      %e = mb.exp %t : tensor<32x4xf32>
      %s = mb.accum_sum_to %e dimx = 2 : tensor<32x4xf32> -> tensor<32x2xf32>
      %m = mb.accum_sum_last %t : tensor<32x4xf32> -> tensor<32x1xf32>
      mb.yield %s, %m : tensor<32x2xf32>, tensor<32x1xf32>
    }
    %g = mt.thread_graph (%acc#0, %acc#1)
        : (tensor<32x2xf32>, tensor<32x1xf32>) -> tensor<32x2xf32> {
    ^bb0(%p: f32, %q: f32):
      %d = mt.div %p, %q : f32
      mt.yield %d : f32
    }
    %o0 = mb.output_saver %g omap = [1, 0, -1]
        : tensor<32x2xf32> -> tensor<64x8xf32>
    %o1 = mb.output_saver %acc#1 omap = [1, 0, -1]
        : tensor<32x1xf32> -> tensor<64x4xf32>
    mb.return %o0, %o1 : tensor<64x8xf32>, tensor<64x4xf32>
  } : (tensor<64x64xf32>) -> (tensor<64x8xf32>, tensor<64x4xf32>)
  // CHECK: return %[[R]]#0, %[[R]]#1
  return %r#0, %r#1 : tensor<64x8xf32>, tensor<64x4xf32>
}

// CHECK-LABEL: func.func @issue12_ops(
// CHECK-SAME: %[[X:.*]]: tensor<2x8xf16>, %[[Y:.*]]: tensor<1x8xf16>)
// CHECK: %[[R:.*]] = mk.reciprocal %[[X]] : tensor<2x8xf16>
// CHECK: %[[T:.*]] = mk.tanh %[[R]] : tensor<2x8xf16>
// CHECK: %[[G:.*]] = mk.gelu_erf %[[T]] : tensor<2x8xf16>
// CHECK: %[[M:.*]] = mk.max %[[G]], %[[Y]] : tensor<2x8xf16>, tensor<1x8xf16> -> tensor<2x8xf16>
// CHECK: return %[[M]]
func.func @issue12_ops(%x: tensor<2x8xf16>, %y: tensor<1x8xf16>) -> tensor<2x8xf16> {
  %r = mk.reciprocal %x : tensor<2x8xf16>
  %t = mk.tanh %r : tensor<2x8xf16>
  %g = mk.gelu_erf %t : tensor<2x8xf16>
  %m = mk.max %g, %y : tensor<2x8xf16>, tensor<1x8xf16> -> tensor<2x8xf16>
  return %m : tensor<2x8xf16>
}

// CHECK-LABEL: func.func @reshape(
// CHECK-SAME: %[[X:.*]]: tensor<2x8x4xbf16>)
// CHECK: %[[A:.*]] = mk.reshape %[[X]] : tensor<2x8x4xbf16> -> tensor<16x4xbf16>
// CHECK: %[[B:.*]] = mk.reshape %[[X]] : tensor<2x8x4xbf16> -> tensor<64xbf16>
// CHECK: return %[[A]], %[[B]]
func.func @reshape(%x: tensor<2x8x4xbf16>) -> (tensor<16x4xbf16>, tensor<64xbf16>) {
  %a = mk.reshape %x : tensor<2x8x4xbf16> -> tensor<16x4xbf16>
  %b = mk.reshape %x : tensor<2x8x4xbf16> -> tensor<64xbf16>
  return %a, %b : tensor<16x4xbf16>, tensor<64xbf16>
}

// The block graph needs exactly 256 bytes of shared memory (two 2x32 f16
// tiles), which the nearest mk.smem_limit allows ([K7] is <=).
// CHECK: module attributes {mk.smem_limit = 256 : i64}
// CHECK-LABEL: func.func @graph_kernel_smem_at_limit
// CHECK: mk.graph_kernel
module attributes {mk.smem_limit = 256 : i64} {
  func.func @graph_kernel_smem_at_limit(%x: tensor<2x128xf16>)
      -> tensor<2x32xf16> {
    %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
    ^bb0(%X: tensor<2x128xf16>):
      %acc = mb.for_loop -> (tensor<2x32xf16>) {
        %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1
            : tensor<2x128xf16> -> tensor<2x32xf16>
        %s = mb.accum_sum %xt : tensor<2x32xf16> -> tensor<2x32xf16>
        mb.yield %s : tensor<2x32xf16>
      }
      %o = mb.output_saver %acc omap = [-1, -1, -1]
          : tensor<2x32xf16> -> tensor<2x32xf16>
      mb.return %o : tensor<2x32xf16>
    } : (tensor<2x128xf16>) -> tensor<2x32xf16>
    return %y : tensor<2x32xf16>
  }
}

// Mixed precision: a conversion of storage type, a bf16 matmul that writes
// its f32 accumulator.
// CHECK-LABEL: func.func @mixed_precision
// CHECK: %[[W:.*]] = mk.convert %{{.*}} : tensor<2x8xbf16> -> tensor<2x8xf32>
// CHECK: %[[M:.*]] = mk.matmul %{{.*}}, %{{.*}} : tensor<2x8xbf16>, tensor<8x4xbf16> -> tensor<2x4xf32>
// CHECK: mk.convert %{{.*}} : tensor<2x4xf32> -> tensor<2x4xf16>
func.func @mixed_precision(%x: tensor<2x8xbf16>, %w: tensor<8x4xbf16>) -> (tensor<2x8xf32>, tensor<2x4xf16>) {
  %0 = mk.convert %x : tensor<2x8xbf16> -> tensor<2x8xf32>
  %1 = mk.matmul %x, %w : tensor<2x8xbf16>, tensor<8x4xbf16> -> tensor<2x4xf32>
  %2 = mk.convert %1 : tensor<2x4xf32> -> tensor<2x4xf16>
  return %0, %2 : tensor<2x8xf32>, tensor<2x4xf16>
}

// CHECK-LABEL: func.func @band_masks
func.func @band_masks(%x: tensor<2x8x16xf16>) -> tensor<2x8x16xf16> {
  // CHECK: mk.band_mask %{{.*}} dims = [1, 2] upper = 0 fill = 0xFFF0000000000000 : tensor<2x8x16xf16>
  %causal = mk.band_mask %x dims = [1, 2] upper = 0 fill = 0xFFF0000000000000 : tensor<2x8x16xf16>
  // CHECK: mk.band_mask %{{.*}} dims = [1, 2] lower = -3 upper = 8 fill = -1.000000e+09 additive : tensor<2x8x16xf16>
  %window = mk.band_mask %causal dims = [1, 2] lower = -3 upper = 8 fill = -1.0e9 additive : tensor<2x8x16xf16>
  // CHECK: mk.band_mask %{{.*}} dims = [2] upper = 11 fill = 0.000000e+00 : tensor<2x8x16xf16>
  %length = mk.band_mask %window dims = [2] upper = 11 fill = 0.0 : tensor<2x8x16xf16>
  return %length : tensor<2x8x16xf16>
}

// CHECK-LABEL: func.func @where_mask
func.func @where_mask(%m: tensor<1x16xf16>, %x: tensor<8x16xf16>) -> tensor<8x16xf16> {
  // CHECK: mk.where %{{.*}}, %{{.*}} fill = 0xFFF0000000000000 : tensor<1x16xf16>, tensor<8x16xf16> -> tensor<8x16xf16>
  %r = mk.where %m, %x fill = 0xFFF0000000000000 : tensor<1x16xf16>, tensor<8x16xf16> -> tensor<8x16xf16>
  // CHECK: mk.where %{{.*}}, %{{.*}} fill = -1.000000e+04 inverted : tensor<1x16xf16>, tensor<8x16xf16> -> tensor<8x16xf16>
  %i = mk.where %m, %r fill = -1.0e4 inverted : tensor<1x16xf16>, tensor<8x16xf16> -> tensor<8x16xf16>
  return %i : tensor<8x16xf16>
}
