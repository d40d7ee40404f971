// RUN: mirage-opt --mirage-import %s | FileCheck %s
// RUN: mirage-run --import-check %s | FileCheck %s --check-prefix=DIFF

// One whole Llama decoder layer (HF LlamaDecoderLayer, eager attention, no
// rotary embedding, no mask) in tosa as torch-mlir's torch-to-tosa emits it
// after its canonicalize (constants uniqued at the top, reshape(const) and
// x * 1.0 folded, identity reshapes gone), f32, static shapes:
// batch 1, seq 8, hidden 64, 4 query heads of 16, 2 KV heads (GQA: each KV
// head serves 2 query heads), MLP intermediate 128. Weights are arguments in
// PyTorch's layout ([out, in], RMSNorm weights [64]).
// - RMSNorm: x.pow(2) as tosa.pow with a splat 2.0, mean as reduce_sum times
//   1/64, + eps, rsqrt, mul, the weight reshaped to 1x1x64 times the result.
// - nn.Linear: tosa.transpose of W (perms 1, 0), reshape to rank 3, matmul
//   with zero-point operands (aten.matmul rank 3 x rank 2).
// - heads: reshape to 1x8xHx16, transpose (0, 2, 1, 3).
// - repeat_kv: k[:, :, None].expand(1, 2, 2, 8, 16).reshape(1, 4, 8, 16), as
//   a rank-5 reshape, tosa.tile (multiples 1, 1, 2, 1, 1), reshape.
// - q k^T: transpose (0, 1, 3, 2), rank-4 matmul as reshape to 4x8x16 /
//   4x16x8, tosa.matmul, reshape back; times the 0.25 scale.
// - softmax: reduce_max, sub, exp, reduce_sum, reciprocal times mul.
// - MLP: down(silu(gate(h)) * up(h)), silu as sigmoid(x) * x.

// The differential check (docs/import.md): the function run by upstream MLIR's
// CPU lowering in f32, against the f64 interpreter of its import, on the same
// seeded inputs.
// DIFF: PASS @llama_layer
// DIFF: 1 passed, 0 failed, 0 not checked

// RUN: mirage-opt --mirage-import-to-ptx %s | FileCheck %s --check-prefix=PTX

// Every op has an mk form, so the whole layer becomes one function of mk ops
// (nothing left to outline). The leading batch dim of 1 is dropped; x.pow(2)
// is mk.square, so each RMSNorm is one mk.rms_norm times its weight;
// repeat_kv's rank-5 reshape, tile (multiples 1, 1, 2, 1, 1) and reshape are
// mk.reshape to 2x1x8x16 (the batch and the size-1 dim not repeated gone),
// mk.concat of two copies along the repeated dim, mk.reshape to 4x8x16.
// CHECK-LABEL: func.func @llama_layer(
// CHECK-SAME: %[[X:[^:]*]]: tensor<1x8x64xf32>
// CHECK-NOT: tosa.
// CHECK-NOT: call
// CHECK: %[[X2:.*]] = mk.reshape %[[X]] : tensor<1x8x64xf32> -> tensor<8x64xf32>
// CHECK-NEXT: %[[N1:.*]] = mk.rms_norm %[[X2]] eps = 9.99999{{[0-9]*}}E-7 : tensor<8x64xf32>
// CHECK-NEXT: %[[W1:.*]] = mk.reshape %arg1 : tensor<64xf32> -> tensor<1x64xf32>
// CHECK-NEXT: %[[H1:.*]] = mk.mul %[[W1]], %[[N1]] : tensor<1x64xf32>, tensor<8x64xf32> -> tensor<8x64xf32>
// CHECK: %[[Q:.*]] = mk.matmul %[[H1]], %{{.*}} : tensor<8x64xf32>, tensor<64x64xf32> -> tensor<8x64xf32>
// CHECK: %[[K:.*]] = mk.matmul %[[H1]], %{{.*}} : tensor<8x64xf32>, tensor<64x32xf32> -> tensor<8x32xf32>
// CHECK: %[[V:.*]] = mk.matmul %[[H1]], %{{.*}} : tensor<8x64xf32>, tensor<64x32xf32> -> tensor<8x32xf32>
// CHECK: %[[QH:.*]] = mk.transpose %{{.*}} perm = [1, 0, 2] : tensor<8x4x16xf32> -> tensor<4x8x16xf32>
// CHECK: %[[KH:.*]] = mk.transpose %{{.*}} perm = [1, 0, 2] : tensor<8x2x16xf32> -> tensor<2x8x16xf32>
// CHECK: %[[VH:.*]] = mk.transpose %{{.*}} perm = [1, 0, 2] : tensor<8x2x16xf32> -> tensor<2x8x16xf32>
// CHECK-NEXT: %[[K1:.*]] = mk.reshape %[[KH]] : tensor<2x8x16xf32> -> tensor<2x1x8x16xf32>
// CHECK-NEXT: %[[KR:.*]] = mk.concat %[[K1]], %[[K1]] dim = 1 : tensor<2x1x8x16xf32>, tensor<2x1x8x16xf32> -> tensor<2x2x8x16xf32>
// CHECK-NEXT: %[[V1:.*]] = mk.reshape %[[VH]] : tensor<2x8x16xf32> -> tensor<2x1x8x16xf32>
// CHECK-NEXT: %[[VR:.*]] = mk.concat %[[V1]], %[[V1]] dim = 1
// CHECK-NEXT: %[[K4:.*]] = mk.reshape %[[KR]] : tensor<2x2x8x16xf32> -> tensor<4x8x16xf32>
// CHECK-NEXT: %[[KT:.*]] = mk.transpose %[[K4]] perm = [0, 2, 1] : tensor<4x8x16xf32> -> tensor<4x16x8xf32>
// CHECK-NEXT: %[[S:.*]] = mk.matmul %[[QH]], %[[KT]] : tensor<4x8x16xf32>, tensor<4x16x8xf32> -> tensor<4x8x8xf32>
// softmax (reciprocal times mul is mk.div), probs V, o_proj, residual.
// CHECK-NEXT: %[[SC:.*]] = mk.mul_scalar %[[S]], 2.500000e-01
// CHECK-NEXT: %[[MX:.*]] = mk.reduce_max %[[SC]] dim = 2 : tensor<4x8x8xf32> -> tensor<4x8x1xf32>
// CHECK-NEXT: %[[D:.*]] = mk.sub %[[SC]], %[[MX]]
// CHECK-NEXT: %[[E:.*]] = mk.exp %[[D]]
// CHECK-NEXT: %[[SUM:.*]] = mk.reduce_sum %[[E]] dim = 2 : tensor<4x8x8xf32> -> tensor<4x8x1xf32>
// CHECK-NEXT: %[[P:.*]] = mk.div %[[E]], %[[SUM]]
// CHECK-NEXT: %[[V4:.*]] = mk.reshape %[[VR]] : tensor<2x2x8x16xf32> -> tensor<4x8x16xf32>
// CHECK-NEXT: mk.matmul %[[P]], %[[V4]] : tensor<4x8x8xf32>, tensor<4x8x16xf32> -> tensor<4x8x16xf32>
// CHECK: %[[O:.*]] = mk.matmul %{{.*}}, %{{.*}} : tensor<8x64xf32>, tensor<64x64xf32> -> tensor<8x64xf32>
// CHECK-NEXT: %[[X1:.*]] = mk.add %[[X2]], %[[O]]
// post_attention_layernorm, MLP (sigmoid(x) * x is mk.silu), residual.
// CHECK-NEXT: %[[N2:.*]] = mk.rms_norm %[[X1]]
// CHECK: %[[G:.*]] = mk.matmul %{{.*}}, %{{.*}} : tensor<8x64xf32>, tensor<64x128xf32> -> tensor<8x128xf32>
// CHECK-NEXT: %[[A:.*]] = mk.silu %[[G]] : tensor<8x128xf32>
// CHECK: %[[U:.*]] = mk.matmul %{{.*}}, %{{.*}} : tensor<8x64xf32>, tensor<64x128xf32> -> tensor<8x128xf32>
// CHECK-NEXT: %[[AU:.*]] = mk.mul %[[A]], %[[U]]
// CHECK: %[[DN:.*]] = mk.matmul %[[AU]], %{{.*}} : tensor<8x128xf32>, tensor<128x64xf32> -> tensor<8x64xf32>
// CHECK-NEXT: %[[Y:.*]] = mk.add %[[X1]], %[[DN]]
// CHECK-NEXT: %[[Y3:.*]] = mk.reshape %[[Y]] : tensor<8x64xf32> -> tensor<1x8x64xf32>
// CHECK-NEXT: return %[[Y3]]

// The named pipeline (mirage-import-to-ptx) leaves only the host function
// and its kernels.
// PTX-NOT: tosa.
// PTX-NOT: mk.
// PTX-LABEL: llvm.func @llama_layer(
// PTX: gpu.launch_func
// PTX: gpu.binary @{{.*}} [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
// PTX-SAME: .visible .entry

func.func @llama_layer(%x: tensor<1x8x64xf32>, %w_in: tensor<64xf32>, %wq: tensor<64x64xf32>, %wk: tensor<32x64xf32>, %wv: tensor<32x64xf32>, %wo: tensor<64x64xf32>, %w_post: tensor<64xf32>, %wg: tensor<128x64xf32>, %wu: tensor<128x64xf32>, %wd: tensor<64x128xf32>) -> tensor<1x8x64xf32> {
  %two = "tosa.const"() <{values = dense<2.000000e+00> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %inv_n = "tosa.const"() <{values = dense<1.562500e-02> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %eps = "tosa.const"() <{values = dense<9.99999997E-7> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %zp = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
  %scale = "tosa.const"() <{values = dense<2.500000e-01> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %s_1x1x64 = tosa.const_shape  {values = dense<[1, 1, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_1x64x64 = tosa.const_shape  {values = dense<[1, 64, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_1x64x32 = tosa.const_shape  {values = dense<[1, 64, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_1x8x4x16 = tosa.const_shape  {values = dense<[1, 8, 4, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s_1x8x2x16 = tosa.const_shape  {values = dense<[1, 8, 2, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s_1x2x1x8x16 = tosa.const_shape  {values = dense<[1, 2, 1, 8, 16]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %m_kv = tosa.const_shape  {values = dense<[1, 1, 2, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %s_1x4x8x16 = tosa.const_shape  {values = dense<[1, 4, 8, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s_4x8x16 = tosa.const_shape  {values = dense<[4, 8, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_4x16x8 = tosa.const_shape  {values = dense<[4, 16, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_1x4x8x8 = tosa.const_shape  {values = dense<[1, 4, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s_4x8x8 = tosa.const_shape  {values = dense<[4, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_1x8x64 = tosa.const_shape  {values = dense<[1, 8, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_1x64x128 = tosa.const_shape  {values = dense<[1, 64, 128]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_1x128x64 = tosa.const_shape  {values = dense<[1, 128, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>

  // input_layernorm (LlamaRMSNorm): x.pow(2).mean(-1, keepdim) ; x * rsqrt(var + eps) ; weight * x
  %0 = tosa.pow %x, %two : (tensor<1x8x64xf32>, tensor<1x1x1xf32>) -> tensor<1x8x64xf32>
  %1 = tosa.reduce_sum %0 {axis = 2 : i32} : (tensor<1x8x64xf32>) -> tensor<1x8x1xf32>
  %2 = tosa.mul %1, %inv_n, %shift : (tensor<1x8x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x8x1xf32>
  %3 = tosa.add %2, %eps : (tensor<1x8x1xf32>, tensor<1x1x1xf32>) -> tensor<1x8x1xf32>
  %4 = tosa.rsqrt %3 : (tensor<1x8x1xf32>) -> tensor<1x8x1xf32>
  %5 = tosa.mul %x, %4, %shift : (tensor<1x8x64xf32>, tensor<1x8x1xf32>, tensor<1xi8>) -> tensor<1x8x64xf32>
  %6 = tosa.reshape %w_in, %s_1x1x64 : (tensor<64xf32>, !tosa.shape<3>) -> tensor<1x1x64xf32>
  %7 = tosa.mul %6, %5, %shift : (tensor<1x1x64xf32>, tensor<1x8x64xf32>, tensor<1xi8>) -> tensor<1x8x64xf32>

  // q_proj / k_proj / v_proj (nn.Linear, no bias): x @ W^T
  %8 = tosa.transpose %wq {perms = array<i32: 1, 0>} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %9 = tosa.reshape %8, %s_1x64x64 : (tensor<64x64xf32>, !tosa.shape<3>) -> tensor<1x64x64xf32>
  %10 = tosa.matmul %7, %9, %zp, %zp : (tensor<1x8x64xf32>, tensor<1x64x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x64xf32>
  %11 = tosa.transpose %wk {perms = array<i32: 1, 0>} : (tensor<32x64xf32>) -> tensor<64x32xf32>
  %12 = tosa.reshape %11, %s_1x64x32 : (tensor<64x32xf32>, !tosa.shape<3>) -> tensor<1x64x32xf32>
  %13 = tosa.matmul %7, %12, %zp, %zp : (tensor<1x8x64xf32>, tensor<1x64x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x32xf32>
  %14 = tosa.transpose %wv {perms = array<i32: 1, 0>} : (tensor<32x64xf32>) -> tensor<64x32xf32>
  %15 = tosa.reshape %14, %s_1x64x32 : (tensor<64x32xf32>, !tosa.shape<3>) -> tensor<1x64x32xf32>
  %16 = tosa.matmul %7, %15, %zp, %zp : (tensor<1x8x64xf32>, tensor<1x64x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x32xf32>

  // .view(1, 8, heads, 16).transpose(1, 2)
  %17 = tosa.reshape %10, %s_1x8x4x16 : (tensor<1x8x64xf32>, !tosa.shape<4>) -> tensor<1x8x4x16xf32>
  %18 = tosa.transpose %17 {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x8x4x16xf32>) -> tensor<1x4x8x16xf32>
  %19 = tosa.reshape %13, %s_1x8x2x16 : (tensor<1x8x32xf32>, !tosa.shape<4>) -> tensor<1x8x2x16xf32>
  %20 = tosa.transpose %19 {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x8x2x16xf32>) -> tensor<1x2x8x16xf32>
  %21 = tosa.reshape %16, %s_1x8x2x16 : (tensor<1x8x32xf32>, !tosa.shape<4>) -> tensor<1x8x2x16xf32>
  %22 = tosa.transpose %21 {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x8x2x16xf32>) -> tensor<1x2x8x16xf32>

  // repeat_kv: k[:, :, None, :, :].expand(1, 2, 2, 8, 16).reshape(1, 4, 8, 16)
  %23 = tosa.reshape %20, %s_1x2x1x8x16 : (tensor<1x2x8x16xf32>, !tosa.shape<5>) -> tensor<1x2x1x8x16xf32>
  %24 = tosa.tile %23, %m_kv : (tensor<1x2x1x8x16xf32>, !tosa.shape<5>) -> tensor<1x2x2x8x16xf32>
  %25 = tosa.reshape %24, %s_1x4x8x16 : (tensor<1x2x2x8x16xf32>, !tosa.shape<4>) -> tensor<1x4x8x16xf32>
  %26 = tosa.reshape %22, %s_1x2x1x8x16 : (tensor<1x2x8x16xf32>, !tosa.shape<5>) -> tensor<1x2x1x8x16xf32>
  %27 = tosa.tile %26, %m_kv : (tensor<1x2x1x8x16xf32>, !tosa.shape<5>) -> tensor<1x2x2x8x16xf32>
  %28 = tosa.reshape %27, %s_1x4x8x16 : (tensor<1x2x2x8x16xf32>, !tosa.shape<4>) -> tensor<1x4x8x16xf32>

  // scores = matmul(q, k.transpose(2, 3)) * scaling
  %29 = tosa.transpose %25 {perms = array<i32: 0, 1, 3, 2>} : (tensor<1x4x8x16xf32>) -> tensor<1x4x16x8xf32>
  %30 = tosa.reshape %18, %s_4x8x16 : (tensor<1x4x8x16xf32>, !tosa.shape<3>) -> tensor<4x8x16xf32>
  %31 = tosa.reshape %29, %s_4x16x8 : (tensor<1x4x16x8xf32>, !tosa.shape<3>) -> tensor<4x16x8xf32>
  %32 = tosa.matmul %30, %31, %zp, %zp : (tensor<4x8x16xf32>, tensor<4x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x8xf32>
  %33 = tosa.reshape %32, %s_1x4x8x8 : (tensor<4x8x8xf32>, !tosa.shape<4>) -> tensor<1x4x8x8xf32>
  %34 = tosa.mul %33, %scale, %shift : (tensor<1x4x8x8xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x8x8xf32>

  // softmax(dim=-1): amax, sub, exp, sum, div (as reciprocal * mul)
  %35 = tosa.reduce_max %34 {axis = 3 : i32} : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x1xf32>
  %36 = tosa.sub %34, %35 : (tensor<1x4x8x8xf32>, tensor<1x4x8x1xf32>) -> tensor<1x4x8x8xf32>
  %37 = tosa.exp %36 : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %38 = tosa.reduce_sum %37 {axis = 3 : i32} : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x1xf32>
  %39 = tosa.reciprocal %38 : (tensor<1x4x8x1xf32>) -> tensor<1x4x8x1xf32>
  %40 = tosa.mul %37, %39, %shift : (tensor<1x4x8x8xf32>, tensor<1x4x8x1xf32>, tensor<1xi8>) -> tensor<1x4x8x8xf32>

  // ctx = matmul(probs, v)
  %41 = tosa.reshape %40, %s_4x8x8 : (tensor<1x4x8x8xf32>, !tosa.shape<3>) -> tensor<4x8x8xf32>
  %42 = tosa.reshape %28, %s_4x8x16 : (tensor<1x4x8x16xf32>, !tosa.shape<3>) -> tensor<4x8x16xf32>
  %43 = tosa.matmul %41, %42, %zp, %zp : (tensor<4x8x8xf32>, tensor<4x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x16xf32>
  %44 = tosa.reshape %43, %s_1x4x8x16 : (tensor<4x8x16xf32>, !tosa.shape<4>) -> tensor<1x4x8x16xf32>

  // .transpose(1, 2).reshape(1, 8, 64), o_proj, residual
  %45 = tosa.transpose %44 {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x4x8x16xf32>) -> tensor<1x8x4x16xf32>
  %46 = tosa.reshape %45, %s_1x8x64 : (tensor<1x8x4x16xf32>, !tosa.shape<3>) -> tensor<1x8x64xf32>
  %47 = tosa.transpose %wo {perms = array<i32: 1, 0>} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %48 = tosa.reshape %47, %s_1x64x64 : (tensor<64x64xf32>, !tosa.shape<3>) -> tensor<1x64x64xf32>
  %49 = tosa.matmul %46, %48, %zp, %zp : (tensor<1x8x64xf32>, tensor<1x64x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x64xf32>
  %50 = tosa.add %x, %49 : (tensor<1x8x64xf32>, tensor<1x8x64xf32>) -> tensor<1x8x64xf32>

  // post_attention_layernorm
  %51 = tosa.pow %50, %two : (tensor<1x8x64xf32>, tensor<1x1x1xf32>) -> tensor<1x8x64xf32>
  %52 = tosa.reduce_sum %51 {axis = 2 : i32} : (tensor<1x8x64xf32>) -> tensor<1x8x1xf32>
  %53 = tosa.mul %52, %inv_n, %shift : (tensor<1x8x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x8x1xf32>
  %54 = tosa.add %53, %eps : (tensor<1x8x1xf32>, tensor<1x1x1xf32>) -> tensor<1x8x1xf32>
  %55 = tosa.rsqrt %54 : (tensor<1x8x1xf32>) -> tensor<1x8x1xf32>
  %56 = tosa.mul %50, %55, %shift : (tensor<1x8x64xf32>, tensor<1x8x1xf32>, tensor<1xi8>) -> tensor<1x8x64xf32>
  %57 = tosa.reshape %w_post, %s_1x1x64 : (tensor<64xf32>, !tosa.shape<3>) -> tensor<1x1x64xf32>
  %58 = tosa.mul %57, %56, %shift : (tensor<1x1x64xf32>, tensor<1x8x64xf32>, tensor<1xi8>) -> tensor<1x8x64xf32>

  // mlp: down_proj(silu(gate_proj(h)) * up_proj(h)), silu as sigmoid(x) * x
  %59 = tosa.transpose %wg {perms = array<i32: 1, 0>} : (tensor<128x64xf32>) -> tensor<64x128xf32>
  %60 = tosa.reshape %59, %s_1x64x128 : (tensor<64x128xf32>, !tosa.shape<3>) -> tensor<1x64x128xf32>
  %61 = tosa.matmul %58, %60, %zp, %zp : (tensor<1x8x64xf32>, tensor<1x64x128xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x128xf32>
  %62 = tosa.sigmoid %61 : (tensor<1x8x128xf32>) -> tensor<1x8x128xf32>
  %63 = tosa.mul %62, %61, %shift : (tensor<1x8x128xf32>, tensor<1x8x128xf32>, tensor<1xi8>) -> tensor<1x8x128xf32>
  %64 = tosa.transpose %wu {perms = array<i32: 1, 0>} : (tensor<128x64xf32>) -> tensor<64x128xf32>
  %65 = tosa.reshape %64, %s_1x64x128 : (tensor<64x128xf32>, !tosa.shape<3>) -> tensor<1x64x128xf32>
  %66 = tosa.matmul %58, %65, %zp, %zp : (tensor<1x8x64xf32>, tensor<1x64x128xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x128xf32>
  %67 = tosa.mul %63, %66, %shift : (tensor<1x8x128xf32>, tensor<1x8x128xf32>, tensor<1xi8>) -> tensor<1x8x128xf32>
  %68 = tosa.transpose %wd {perms = array<i32: 1, 0>} : (tensor<64x128xf32>) -> tensor<128x64xf32>
  %69 = tosa.reshape %68, %s_1x128x64 : (tensor<128x64xf32>, !tosa.shape<3>) -> tensor<1x128x64xf32>
  %70 = tosa.matmul %67, %69, %zp, %zp : (tensor<1x8x128xf32>, tensor<1x128x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x64xf32>
  %71 = tosa.add %50, %70 : (tensor<1x8x64xf32>, tensor<1x8x64xf32>) -> tensor<1x8x64xf32>
  return %71 : tensor<1x8x64xf32>
}
