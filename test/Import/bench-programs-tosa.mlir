// RUN: mirage-opt --mirage-import %s | FileCheck %s
// RUN: mirage-opt --mirage-import %s | mirage-opt --mirage-check-equivalence -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQ
// RUN: mirage-run --import-check %s | FileCheck %s --check-prefix=DIFF

// The benchmark programs of bench/programs not covered in tosa elsewhere
// (gated_mlp and ntrans: bench-programs-more.mlir; gqa: gqa-tosa.mlir) as
// TFLite-style tosa: rank-3 tosa.matmul with zero points (a 2-D linear layer
// reshaped to batch 1 and back), tosa.pow by 2 and a reduce_sum times 1/n
// for the mean, splat eps, rsqrt, the division as reciprocal times mul.
// Each must import to a program the verifier finds equivalent to the
// benchmark's mk form (at these shapes: rmsnorm_matmul and lora at the
// benchmark's, the others with the benchmark's structure at smaller sizes,
// as the upstream side of the differential check runs plain loops).

// DIFF: PASS @tosa_rmsnorm_matmul
// DIFF: PASS @tosa_lora
// DIFF: PASS @tosa_moe
// DIFF: PASS @tosa_mha
// DIFF: PASS @tosa_mqa
// DIFF: PASS @tosa_qknorm_gqa
// DIFF: 6 passed, 0 failed, 0 not checked

// EQ-DAG: remark: equivalent to @rmsnorm_matmul
// EQ-DAG: remark: equivalent to @lora
// EQ-DAG: remark: equivalent to @moe
// EQ-DAG: remark: equivalent to @mha
// EQ-DAG: remark: equivalent to @mqa
// EQ-DAG: remark: equivalent to @qknorm_gqa

// bench/programs/rmsnorm_matmul_bs1.mlir, eps as the f16 value the export
// holds.
func.func @rmsnorm_matmul(%X: tensor<2x4096xf16>, %W: tensor<4096x6144xf16>) -> tensor<2x6144xf16> {
  %n = mk.rms_norm %X eps = 1.0132789611816406E-6 : tensor<2x4096xf16>
  %o = mk.matmul %n, %W : tensor<2x4096xf16>, tensor<4096x6144xf16> -> tensor<2x6144xf16>
  return %o : tensor<2x6144xf16>
}

// The 2-D activations and weight go to rank 3 for tosa.matmul and back; the
// import drops the size-1 batch again, so the rms_norm composite matches
// and the reshapes fold away at the function's edges.
// CHECK-LABEL: func.func @tosa_rmsnorm_matmul(
// CHECK-NOT: tosa.
// CHECK: mk.rms_norm %{{.*}} eps = 1.0132789611816406E-6 : tensor<2x4096xf16>
// CHECK-NEXT: mk.matmul {{.*}} : tensor<2x4096xf16>, tensor<4096x6144xf16> -> tensor<2x6144xf16>
// CHECK-NOT: tosa.
// CHECK: return
func.func @tosa_rmsnorm_matmul(%x: tensor<2x4096xf16>, %w: tensor<4096x6144xf16>) -> tensor<2x6144xf16> attributes {mk.reference = @rmsnorm_matmul} {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %two = "tosa.const"() <{values = dense<2.0> : tensor<1x1x1xf16>}> : () -> tensor<1x1x1xf16>
  %inv_n = "tosa.const"() <{values = dense<2.441406e-04> : tensor<1x1x1xf16>}> : () -> tensor<1x1x1xf16>
  %eps = "tosa.const"() <{values = dense<1.0e-06> : tensor<1x1x1xf16>}> : () -> tensor<1x1x1xf16>
  %s_x = tosa.const_shape {values = dense<[1, 2, 4096]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_w = tosa.const_shape {values = dense<[1, 4096, 6144]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_o = tosa.const_shape {values = dense<[2, 6144]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %x3 = tosa.reshape %x, %s_x : (tensor<2x4096xf16>, !tosa.shape<3>) -> tensor<1x2x4096xf16>
  %0 = tosa.pow %x3, %two : (tensor<1x2x4096xf16>, tensor<1x1x1xf16>) -> tensor<1x2x4096xf16>
  %1 = tosa.reduce_sum %0 {axis = 2 : i32} : (tensor<1x2x4096xf16>) -> tensor<1x2x1xf16>
  %2 = tosa.mul %1, %inv_n, %shift : (tensor<1x2x1xf16>, tensor<1x1x1xf16>, tensor<1xi8>) -> tensor<1x2x1xf16>
  %3 = tosa.add %2, %eps : (tensor<1x2x1xf16>, tensor<1x1x1xf16>) -> tensor<1x2x1xf16>
  %4 = tosa.rsqrt %3 : (tensor<1x2x1xf16>) -> tensor<1x2x1xf16>
  %5 = tosa.mul %x3, %4, %shift : (tensor<1x2x4096xf16>, tensor<1x2x1xf16>, tensor<1xi8>) -> tensor<1x2x4096xf16>
  %w3 = tosa.reshape %w, %s_w : (tensor<4096x6144xf16>, !tosa.shape<3>) -> tensor<1x4096x6144xf16>
  %6 = tosa.matmul %5, %w3, %zp, %zp : (tensor<1x2x4096xf16>, tensor<1x4096x6144xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x2x6144xf16>
  %7 = tosa.reshape %6, %s_o : (tensor<1x2x6144xf16>, !tosa.shape<2>) -> tensor<2x6144xf16>
  return %7 : tensor<2x6144xf16>
}

// bench/programs/lora.mlir.
func.func @lora(%X: tensor<16x256xf16>, %W: tensor<256x4096xf16>, %A: tensor<256x16xf16>, %B: tensor<16x4096xf16>) -> tensor<16x4096xf16> {
  %xw = mk.matmul %X, %W : tensor<16x256xf16>, tensor<256x4096xf16> -> tensor<16x4096xf16>
  %xa = mk.matmul %X, %A : tensor<16x256xf16>, tensor<256x16xf16> -> tensor<16x16xf16>
  %xab = mk.matmul %xa, %B : tensor<16x16xf16>, tensor<16x4096xf16> -> tensor<16x4096xf16>
  %o = mk.add %xw, %xab : tensor<16x4096xf16>, tensor<16x4096xf16> -> tensor<16x4096xf16>
  return %o : tensor<16x4096xf16>
}

// CHECK-LABEL: func.func @tosa_lora(
// CHECK-NOT: tosa.
// CHECK-COUNT-3: mk.matmul
// CHECK: mk.add
// CHECK-NOT: tosa.
// CHECK: return
func.func @tosa_lora(%x: tensor<16x256xf16>, %w: tensor<256x4096xf16>, %a: tensor<256x16xf16>, %b: tensor<16x4096xf16>) -> tensor<16x4096xf16> attributes {mk.reference = @lora} {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %s_x = tosa.const_shape {values = dense<[1, 16, 256]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_w = tosa.const_shape {values = dense<[1, 256, 4096]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_a = tosa.const_shape {values = dense<[1, 256, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_b = tosa.const_shape {values = dense<[1, 16, 4096]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_o = tosa.const_shape {values = dense<[16, 4096]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %x3 = tosa.reshape %x, %s_x : (tensor<16x256xf16>, !tosa.shape<3>) -> tensor<1x16x256xf16>
  %w3 = tosa.reshape %w, %s_w : (tensor<256x4096xf16>, !tosa.shape<3>) -> tensor<1x256x4096xf16>
  %a3 = tosa.reshape %a, %s_a : (tensor<256x16xf16>, !tosa.shape<3>) -> tensor<1x256x16xf16>
  %b3 = tosa.reshape %b, %s_b : (tensor<16x4096xf16>, !tosa.shape<3>) -> tensor<1x16x4096xf16>
  %xw = tosa.matmul %x3, %w3, %zp, %zp : (tensor<1x16x256xf16>, tensor<1x256x4096xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x16x4096xf16>
  %xa = tosa.matmul %x3, %a3, %zp, %zp : (tensor<1x16x256xf16>, tensor<1x256x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x16x16xf16>
  %xab = tosa.matmul %xa, %b3, %zp, %zp : (tensor<1x16x16xf16>, tensor<1x16x4096xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x16x4096xf16>
  %sum = tosa.add %xw, %xab : (tensor<1x16x4096xf16>, tensor<1x16x4096xf16>) -> tensor<1x16x4096xf16>
  %o = tosa.reshape %sum, %s_o : (tensor<1x16x4096xf16>, !tosa.shape<2>) -> tensor<16x4096xf16>
  return %o : tensor<16x4096xf16>
}

// bench/programs/moe.mlir's structure (8 experts of 4096x4096 there).
func.func @moe(%X: tensor<4x8x64xf16>, %A: tensor<4x64x128xf16>, %B: tensor<4x128x64xf16>) -> tensor<4x8x64xf16> {
  %h = mk.matmul %X, %A : tensor<4x8x64xf16>, tensor<4x64x128xf16> -> tensor<4x8x128xf16>
  %e = mk.exp %h : tensor<4x8x128xf16>
  %o = mk.matmul %e, %B : tensor<4x8x128xf16>, tensor<4x128x64xf16> -> tensor<4x8x64xf16>
  return %o : tensor<4x8x64xf16>
}

// CHECK-LABEL: func.func @tosa_moe(
// CHECK-NEXT: mk.matmul
// CHECK-NEXT: mk.exp
// CHECK-NEXT: mk.matmul
// CHECK-NEXT: return
func.func @tosa_moe(%x: tensor<4x8x64xf16>, %a: tensor<4x64x128xf16>, %b: tensor<4x128x64xf16>) -> tensor<4x8x64xf16> attributes {mk.reference = @moe} {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %h = tosa.matmul %x, %a, %zp, %zp : (tensor<4x8x64xf16>, tensor<4x64x128xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<4x8x128xf16>
  %e = tosa.exp %h : (tensor<4x8x128xf16>) -> tensor<4x8x128xf16>
  %o = tosa.matmul %e, %b, %zp, %zp : (tensor<4x8x128xf16>, tensor<4x128x64xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<4x8x64xf16>
  return %o : tensor<4x8x64xf16>
}

// bench/programs/mha_bs1.mlir's structure (32 heads, 16 queries, 4096 keys
// there), with K as the model holds it (keys x head dim) and transposed.
func.func @mha(%Q: tensor<8x16x64xf16>, %K: tensor<8x64x512xf16>, %V: tensor<8x512x64xf16>) -> tensor<8x16x64xf16> {
  %s = mk.matmul %Q, %K : tensor<8x16x64xf16>, tensor<8x64x512xf16> -> tensor<8x16x512xf16>
  %e = mk.exp %s : tensor<8x16x512xf16>
  %d = mk.reduce_sum %e dim = 2 : tensor<8x16x512xf16> -> tensor<8x16x1xf16>
  %p = mk.div %e, %d : tensor<8x16x512xf16>, tensor<8x16x1xf16> -> tensor<8x16x512xf16>
  %o = mk.matmul %p, %V : tensor<8x16x512xf16>, tensor<8x512x64xf16> -> tensor<8x16x64xf16>
  return %o : tensor<8x16x64xf16>
}

// CHECK-LABEL: func.func @tosa_mha(
// CHECK-NEXT: mk.matmul
// CHECK-NEXT: mk.exp
// CHECK-NEXT: mk.reduce_sum
// CHECK-NEXT: mk.div
// CHECK-NEXT: mk.matmul
// CHECK-NEXT: return
func.func @tosa_mha(%q: tensor<8x16x64xf16>, %k: tensor<8x64x512xf16>, %v: tensor<8x512x64xf16>) -> tensor<8x16x64xf16> attributes {mk.reference = @mha} {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.matmul %q, %k, %zp, %zp : (tensor<8x16x64xf16>, tensor<8x64x512xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<8x16x512xf16>
  %1 = tosa.exp %0 : (tensor<8x16x512xf16>) -> tensor<8x16x512xf16>
  %2 = tosa.reduce_sum %1 {axis = 2 : i32} : (tensor<8x16x512xf16>) -> tensor<8x16x1xf16>
  %3 = tosa.reciprocal %2 : (tensor<8x16x1xf16>) -> tensor<8x16x1xf16>
  %4 = tosa.mul %1, %3, %shift : (tensor<8x16x512xf16>, tensor<8x16x1xf16>, tensor<1xi8>) -> tensor<8x16x512xf16>
  %5 = tosa.matmul %4, %v, %zp, %zp : (tensor<8x16x512xf16>, tensor<8x512x64xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<8x16x64xf16>
  return %5 : tensor<8x16x64xf16>
}

// bench/programs/mqa_bs1.mlir's structure: one shared K/V head (1024
// queries and 4096 keys there). The size-1 head dim is dropped inside and
// restored at the edges.
func.func @mqa(%Q: tensor<1x128x64xf16>, %K: tensor<1x64x512xf16>, %V: tensor<1x512x64xf16>) -> tensor<1x128x64xf16> {
  %s = mk.matmul %Q, %K : tensor<1x128x64xf16>, tensor<1x64x512xf16> -> tensor<1x128x512xf16>
  %e = mk.exp %s : tensor<1x128x512xf16>
  %d = mk.reduce_sum %e dim = 2 : tensor<1x128x512xf16> -> tensor<1x128x1xf16>
  %p = mk.div %e, %d : tensor<1x128x512xf16>, tensor<1x128x1xf16> -> tensor<1x128x512xf16>
  %o = mk.matmul %p, %V : tensor<1x128x512xf16>, tensor<1x512x64xf16> -> tensor<1x128x64xf16>
  return %o : tensor<1x128x64xf16>
}

// CHECK-LABEL: func.func @tosa_mqa(
// CHECK-NOT: tosa.
// CHECK: mk.matmul {{.*}} : tensor<128x64xf16>, tensor<64x512xf16> -> tensor<128x512xf16>
// CHECK-NEXT: mk.exp
// CHECK-NEXT: mk.reduce_sum
// CHECK-NEXT: mk.div
// CHECK: mk.matmul {{.*}} : tensor<128x512xf16>, tensor<512x64xf16> -> tensor<128x64xf16>
// CHECK-NOT: tosa.
// CHECK: return
func.func @tosa_mqa(%q: tensor<1x128x64xf16>, %k: tensor<1x64x512xf16>, %v: tensor<1x512x64xf16>) -> tensor<1x128x64xf16> attributes {mk.reference = @mqa} {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.matmul %q, %k, %zp, %zp : (tensor<1x128x64xf16>, tensor<1x64x512xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x128x512xf16>
  %1 = tosa.exp %0 : (tensor<1x128x512xf16>) -> tensor<1x128x512xf16>
  %2 = tosa.reduce_sum %1 {axis = 2 : i32} : (tensor<1x128x512xf16>) -> tensor<1x128x1xf16>
  %3 = tosa.reciprocal %2 : (tensor<1x128x1xf16>) -> tensor<1x128x1xf16>
  %4 = tosa.mul %1, %3, %shift : (tensor<1x128x512xf16>, tensor<1x128x1xf16>, tensor<1xi8>) -> tensor<1x128x512xf16>
  %5 = tosa.matmul %4, %v, %zp, %zp : (tensor<1x128x512xf16>, tensor<1x512x64xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x128x64xf16>
  return %5 : tensor<1x128x64xf16>
}

// bench/programs/qknorm_gqa_bs1.mlir's structure (256 queries and 4096 keys
// there): Q and V RMS-normalised over the head dim.
func.func @qknorm_gqa(%Q: tensor<2x64x64xf16>, %K: tensor<2x64x512xf16>, %V: tensor<2x512x64xf16>) -> tensor<2x64x64xf16> {
  %qn = mk.rms_norm %Q eps = 1.0132789611816406E-6 : tensor<2x64x64xf16>
  %vn = mk.rms_norm %V eps = 1.0132789611816406E-6 : tensor<2x512x64xf16>
  %s = mk.matmul %qn, %K : tensor<2x64x64xf16>, tensor<2x64x512xf16> -> tensor<2x64x512xf16>
  %e = mk.exp %s : tensor<2x64x512xf16>
  %d = mk.reduce_sum %e dim = 2 : tensor<2x64x512xf16> -> tensor<2x64x1xf16>
  %p = mk.div %e, %d : tensor<2x64x512xf16>, tensor<2x64x1xf16> -> tensor<2x64x512xf16>
  %o = mk.matmul %p, %vn : tensor<2x64x512xf16>, tensor<2x512x64xf16> -> tensor<2x64x64xf16>
  return %o : tensor<2x64x64xf16>
}

// CHECK-LABEL: func.func @tosa_qknorm_gqa(
// CHECK-DAG: mk.rms_norm %arg0 eps = 1.0132789611816406E-6 : tensor<2x64x64xf16>
// CHECK-DAG: mk.rms_norm %arg2 eps = 1.0132789611816406E-6 : tensor<2x512x64xf16>
// CHECK: mk.matmul
// CHECK-NEXT: mk.exp
// CHECK-NEXT: mk.reduce_sum
// CHECK-NEXT: mk.div
// CHECK-NEXT: mk.matmul
// CHECK-NEXT: return
func.func @tosa_qknorm_gqa(%q: tensor<2x64x64xf16>, %k: tensor<2x64x512xf16>, %v: tensor<2x512x64xf16>) -> tensor<2x64x64xf16> attributes {mk.reference = @qknorm_gqa} {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %two = "tosa.const"() <{values = dense<2.0> : tensor<1x1x1xf16>}> : () -> tensor<1x1x1xf16>
  %inv_n = "tosa.const"() <{values = dense<1.562500e-02> : tensor<1x1x1xf16>}> : () -> tensor<1x1x1xf16>
  %eps = "tosa.const"() <{values = dense<1.0e-06> : tensor<1x1x1xf16>}> : () -> tensor<1x1x1xf16>
  %q0 = tosa.pow %q, %two : (tensor<2x64x64xf16>, tensor<1x1x1xf16>) -> tensor<2x64x64xf16>
  %q1 = tosa.reduce_sum %q0 {axis = 2 : i32} : (tensor<2x64x64xf16>) -> tensor<2x64x1xf16>
  %q2 = tosa.mul %q1, %inv_n, %shift : (tensor<2x64x1xf16>, tensor<1x1x1xf16>, tensor<1xi8>) -> tensor<2x64x1xf16>
  %q3 = tosa.add %q2, %eps : (tensor<2x64x1xf16>, tensor<1x1x1xf16>) -> tensor<2x64x1xf16>
  %q4 = tosa.rsqrt %q3 : (tensor<2x64x1xf16>) -> tensor<2x64x1xf16>
  %qn = tosa.mul %q, %q4, %shift : (tensor<2x64x64xf16>, tensor<2x64x1xf16>, tensor<1xi8>) -> tensor<2x64x64xf16>
  %v0 = tosa.pow %v, %two : (tensor<2x512x64xf16>, tensor<1x1x1xf16>) -> tensor<2x512x64xf16>
  %v1 = tosa.reduce_sum %v0 {axis = 2 : i32} : (tensor<2x512x64xf16>) -> tensor<2x512x1xf16>
  %v2 = tosa.mul %v1, %inv_n, %shift : (tensor<2x512x1xf16>, tensor<1x1x1xf16>, tensor<1xi8>) -> tensor<2x512x1xf16>
  %v3 = tosa.add %v2, %eps : (tensor<2x512x1xf16>, tensor<1x1x1xf16>) -> tensor<2x512x1xf16>
  %v4 = tosa.rsqrt %v3 : (tensor<2x512x1xf16>) -> tensor<2x512x1xf16>
  %vn = tosa.mul %v, %v4, %shift : (tensor<2x512x64xf16>, tensor<2x512x1xf16>, tensor<1xi8>) -> tensor<2x512x64xf16>
  %0 = tosa.matmul %qn, %k, %zp, %zp : (tensor<2x64x64xf16>, tensor<2x64x512xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x64x512xf16>
  %1 = tosa.exp %0 : (tensor<2x64x512xf16>) -> tensor<2x64x512xf16>
  %2 = tosa.reduce_sum %1 {axis = 2 : i32} : (tensor<2x64x512xf16>) -> tensor<2x64x1xf16>
  %3 = tosa.reciprocal %2 : (tensor<2x64x1xf16>) -> tensor<2x64x1xf16>
  %4 = tosa.mul %1, %3, %shift : (tensor<2x64x512xf16>, tensor<2x64x1xf16>, tensor<1xi8>) -> tensor<2x64x512xf16>
  %5 = tosa.matmul %4, %vn, %zp, %zp : (tensor<2x64x512xf16>, tensor<2x512x64xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x64x64xf16>
  return %5 : tensor<2x64x64xf16>
}
