// RUN: mirage-opt --mirage-import %s | FileCheck %s
// RUN: mirage-run --import-check %s | FileCheck %s --check-prefix=DIFF

// Mixed precision inside a run (issue 30 item 3): bf16/f16 storage with f32
// compute. A bf16 matmul accumulating in f32 is one mk.matmul with an f32
// result ([C0.15]); a cast that does not fold into a matmul (extf/truncf at
// the edges of a generic's body, linalg.copy or tosa.cast between float
// types) is an mk.convert, so no cast cuts the mk function: every function
// here imports whole. The check runs the original upstream and the import
// in the interpreter.
// DIFF: PASS @bf16_rmsnorm_run
// DIFF: PASS @bf16_matmul_f32_acc
// DIFF: PASS @generic_contraction_extf
// DIFF: PASS @mixed_operands
// DIFF: PASS @copy_cast_chain
// DIFF: PASS @tosa_cast_matmul
// DIFF: PASS @f16_storage_generic
// DIFF: 7 passed, 0 failed, 0 not checked

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
#col = affine_map<(d0, d1) -> (d1)>

// A bf16 matmul, its result copied to f32 for an RMSNorm computed in f32,
// and rounded back to bf16 after the bf16 gain (the graph-compiler Llama
// layer's form).
// CHECK-LABEL: func.func @bf16_rmsnorm_run(
// CHECK-NOT: call
// CHECK-DAG: %[[G:.*]] = mk.convert %arg2 : tensor<32xbf16> -> tensor<32xf32>
// CHECK-DAG: %[[M:.*]] = mk.matmul %arg0, %arg1 : tensor<8x64xbf16>, tensor<64x32xbf16> -> tensor<8x32xbf16>
// CHECK: %[[C:.*]] = mk.convert %[[M]] : tensor<8x32xbf16> -> tensor<8x32xf32>
// CHECK: mk.reduce_sum
// CHECK: mk.rsqrt {{.*}} : tensor<8x1xf32>
// CHECK: mk.mul
// CHECK: %[[Y:.*]] = mk.mul {{.*}}, %[[GR:.*]] : tensor<8x32xf32>, tensor<1x32xf32> -> tensor<8x32xf32>
// CHECK-NEXT: %[[R:.*]] = mk.convert %[[Y]] : tensor<8x32xf32> -> tensor<8x32xbf16>
// CHECK-NEXT: return %[[R]]
func.func @bf16_rmsnorm_run(%x: tensor<8x64xbf16>, %w: tensor<64x32xbf16>, %g: tensor<32xbf16>) -> tensor<8x32xbf16> {
  %z = arith.constant 0.0 : bf16
  %e0 = tensor.empty() : tensor<8x32xbf16>
  %f0 = linalg.fill ins(%z : bf16) outs(%e0 : tensor<8x32xbf16>) -> tensor<8x32xbf16>
  %m = linalg.matmul ins(%x, %w : tensor<8x64xbf16>, tensor<64x32xbf16>) outs(%f0 : tensor<8x32xbf16>) -> tensor<8x32xbf16>
  %e1 = tensor.empty() : tensor<8x32xf32>
  %c = linalg.copy ins(%m : tensor<8x32xbf16>) outs(%e1 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %sq = linalg.mul ins(%c, %c : tensor<8x32xf32>, tensor<8x32xf32>) outs(%e1 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %zf = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<8xf32>
  %f2 = linalg.fill ins(%zf : f32) outs(%e2 : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.reduce ins(%sq : tensor<8x32xf32>) outs(%f2 : tensor<8xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %a = arith.addf %in, %init : f32
      linalg.yield %a : f32
    }
  %se = tensor.expand_shape %s [[0, 1]] output_shape [8, 1] : tensor<8xf32> into tensor<8x1xf32>
  %e3 = tensor.empty() : tensor<8x32xbf16>
  %n = linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %se, %g : tensor<8x32xf32>, tensor<8x1xf32>, tensor<32xbf16>) outs(%e3 : tensor<8x32xbf16>) {
  ^bb0(%v: f32, %ss: f32, %gg: bf16, %o: bf16):
    %k = arith.constant 3.125e-02 : f32
    %eps = arith.constant 1.0e-06 : f32
    %mean = arith.mulf %ss, %k : f32
    %me = arith.addf %mean, %eps : f32
    %r = math.rsqrt %me : f32
    %y = arith.mulf %v, %r : f32
    %gw = arith.extf %gg : bf16 to f32
    %yw = arith.mulf %y, %gw : f32
    %t = arith.truncf %yw : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<8x32xbf16>
  return %n : tensor<8x32xbf16>
}

// linalg.matmul of bf16 operands into an f32 accumulator: one mk.matmul
// whose result is f32, then the bias added in f32.
// CHECK-LABEL: func.func @bf16_matmul_f32_acc(
// CHECK: %[[M:.*]] = mk.matmul %arg0, %arg1 : tensor<16x64xbf16>, tensor<64x32xbf16> -> tensor<16x32xf32>
// CHECK: mk.add %[[M]], {{.*}} -> tensor<16x32xf32>
func.func @bf16_matmul_f32_acc(%x: tensor<16x64xbf16>, %w: tensor<64x32xbf16>, %b: tensor<32xf32>) -> tensor<16x32xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %m = linalg.matmul ins(%x, %w : tensor<16x64xbf16>, tensor<64x32xbf16>) outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
  %r = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m, %b : tensor<16x32xf32>, tensor<32xf32>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}

// A generic contraction whose body widens its bf16 operands (out + extf(a) *
// extf(b)), with nn.Linear's transposed weight: one mk.matmul with an f32
// result after the transpose.
// CHECK-LABEL: func.func @generic_contraction_extf(
// CHECK: %[[T:.*]] = mk.transpose %arg1 perm = [1, 0] : tensor<32x64xbf16> -> tensor<64x32xbf16>
// CHECK: mk.matmul %arg0, %[[T]] : tensor<16x64xbf16>, tensor<64x32xbf16> -> tensor<16x32xf32>
func.func @generic_contraction_extf(%x: tensor<16x64xbf16>, %w: tensor<32x64xbf16>) -> tensor<16x32xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<16x64xbf16>, tensor<32x64xbf16>) outs(%f : tensor<16x32xf32>) {
  ^bb0(%a: bf16, %b: bf16, %o: f32):
    %aa = arith.extf %a : bf16 to f32
    %bb = arith.extf %b : bf16 to f32
    %p = arith.mulf %aa, %bb : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}

// Operands of two storage types (bf16 activations, f16 weights) into f32:
// both converted to f32, an f32 matmul.
// CHECK-LABEL: func.func @mixed_operands(
// CHECK-DAG: %[[A:.*]] = mk.convert %arg0 : tensor<8x32xbf16> -> tensor<8x32xf32>
// CHECK-DAG: %[[B:.*]] = mk.convert %arg1 : tensor<32x16xf16> -> tensor<32x16xf32>
// CHECK: mk.matmul %[[A]], %[[B]] : tensor<8x32xf32>, tensor<32x16xf32> -> tensor<8x16xf32>
func.func @mixed_operands(%x: tensor<8x32xbf16>, %w: tensor<32x16xf16>) -> tensor<8x16xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %m = linalg.matmul ins(%x, %w : tensor<8x32xbf16>, tensor<32x16xf16>) outs(%f : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %m : tensor<8x16xf32>
}

// Copies between element types in the middle of a run, and a round trip
// (bf16 -> f32 -> bf16: two converts, exact, which mk.convert's folder
// removes when the function is canonicalised; its widening is the first
// copy's, merged into it).
// CHECK-LABEL: func.func @copy_cast_chain(
// CHECK: %[[E:.*]] = mk.exp %arg0 : tensor<4x16xbf16>
// CHECK-NEXT: %[[W:.*]] = mk.convert %[[E]] : tensor<4x16xbf16> -> tensor<4x16xf32>
// CHECK-NEXT: %[[S:.*]] = mk.mul_scalar %[[W]], 2.5{{.*}} : tensor<4x16xf32>
// CHECK-NEXT: %[[N:.*]] = mk.convert %[[S]] : tensor<4x16xf32> -> tensor<4x16xbf16>
// CHECK-NEXT: %[[D:.*]] = mk.convert %[[W]] : tensor<4x16xf32> -> tensor<4x16xbf16>
// CHECK-NEXT: %[[A:.*]] = mk.add %[[N]], %[[D]] : tensor<4x16xbf16>, tensor<4x16xbf16> -> tensor<4x16xbf16>
// CHECK-NEXT: return %[[A]]
func.func @copy_cast_chain(%x: tensor<4x16xbf16>) -> tensor<4x16xbf16> {
  %eb = tensor.empty() : tensor<4x16xbf16>
  %ef = tensor.empty() : tensor<4x16xf32>
  %e = linalg.exp ins(%x : tensor<4x16xbf16>) outs(%eb : tensor<4x16xbf16>) -> tensor<4x16xbf16>
  %w = linalg.copy ins(%e : tensor<4x16xbf16>) outs(%ef : tensor<4x16xf32>) -> tensor<4x16xf32>
  %k = arith.constant dense<2.5> : tensor<4x16xf32>
  %s = linalg.mul ins(%w, %k : tensor<4x16xf32>, tensor<4x16xf32>) outs(%ef : tensor<4x16xf32>) -> tensor<4x16xf32>
  %n = linalg.copy ins(%s : tensor<4x16xf32>) outs(%eb : tensor<4x16xbf16>) -> tensor<4x16xbf16>
  %rt = linalg.copy ins(%e : tensor<4x16xbf16>) outs(%ef : tensor<4x16xf32>) -> tensor<4x16xf32>
  %back = linalg.copy ins(%rt : tensor<4x16xf32>) outs(%eb : tensor<4x16xbf16>) -> tensor<4x16xbf16>
  %a = linalg.add ins(%n, %back : tensor<4x16xbf16>, tensor<4x16xbf16>) outs(%eb : tensor<4x16xbf16>) -> tensor<4x16xbf16>
  return %a : tensor<4x16xbf16>
}

// tosa: a bf16 matmul with an f32 accumulator type, tosa.cast back to bf16
// and up again around a tanh.
// CHECK-LABEL: func.func @tosa_cast_matmul(
// CHECK: %[[M:.*]] = mk.matmul {{.*}} : tensor<8x16xbf16>, tensor<16x8xbf16> -> tensor<8x8xf32>
// CHECK: %[[C:.*]] = mk.convert %[[M]] : tensor<8x8xf32> -> tensor<8x8xbf16>
// CHECK: %[[T:.*]] = mk.tanh %[[C]] : tensor<8x8xbf16>
// CHECK: mk.convert %[[T]] : tensor<8x8xbf16> -> tensor<8x8xf32>
func.func @tosa_cast_matmul(%a: tensor<1x8x16xbf16>, %b: tensor<1x16x8xbf16>) -> tensor<1x8x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %m = tosa.matmul %a, %b, %zp, %zp : (tensor<1x8x16xbf16>, tensor<1x16x8xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<1x8x8xf32>
  %c = tosa.cast %m : (tensor<1x8x8xf32>) -> tensor<1x8x8xbf16>
  %t = tosa.tanh %c : (tensor<1x8x8xbf16>) -> tensor<1x8x8xbf16>
  %u = tosa.cast %t : (tensor<1x8x8xbf16>) -> tensor<1x8x8xf32>
  return %u : tensor<1x8x8xf32>
}

// f16 storage: inputs widened at the edges of a body that computes in f32,
// the result rounded back to f16.
// CHECK-LABEL: func.func @f16_storage_generic(
// CHECK-DAG: %[[X:.*]] = mk.convert %arg0 : tensor<4x8xf16> -> tensor<4x8xf32>
// CHECK-DAG: %[[Y:.*]] = mk.convert %arg1 : tensor<4x8xf16> -> tensor<4x8xf32>
// CHECK: %[[D:.*]] = mk.div %[[X]], %[[Y]] : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
// CHECK-NEXT: %[[R:.*]] = mk.convert %[[D]] : tensor<4x8xf32> -> tensor<4x8xf16>
func.func @f16_storage_generic(%x: tensor<4x8xf16>, %y: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %e = tensor.empty() : tensor<4x8xf16>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<4x8xf16>, tensor<4x8xf16>) outs(%e : tensor<4x8xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %aa = arith.extf %a : f16 to f32
    %bb = arith.extf %b : f16 to f32
    %q = arith.divf %aa, %bb : f32
    %t = arith.truncf %q : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4x8xf16>
  return %r : tensor<4x8xf16>
}
