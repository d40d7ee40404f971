// RUN: mirage-opt --mirage-import %s | FileCheck %s
// RUN: mirage-run --import-check %s | FileCheck %s --check-prefix=DIFF

// Exporters repeat subexpressions: torch's LayerNorm computes the mean of x
// once for the variance and once more to centre x (fuseflow's GPT-3
// layernorm_linear export). The import merges mk ops that compute the same
// value, so the centred value is one value and the normalisation is one
// mk.rms_norm of it (docs/import.md, composites).
// DIFF: PASS @layernorm_twice
// DIFF: PASS @different_scales
// DIFF: 2 passed, 0 failed, 0 not checked

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>

// CHECK-LABEL: func.func @layernorm_twice(
// CHECK: mk.reduce_sum %arg0 dim = 1
// CHECK-NOT: mk.reduce_sum %arg0
// CHECK: %[[C:.*]] = mk.sub %arg0
// CHECK-NOT: mk.sub
// CHECK: mk.rms_norm %[[C]] eps = 9.99999974{{[0-9]*}}E-6 : tensor<16x64xf32>
// CHECK-NOT: mk.reduce_sum
// CHECK: return
func.func @layernorm_twice(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e1 = tensor.empty() : tensor<16x1xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  // The mean, for the variance.
  %s1 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<16x64xf32>) outs(%z1 : tensor<16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<16x1xf32>
  %m1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s1 : tensor<16x1xf32>) outs(%e1 : tensor<16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %in, %n : f32
    linalg.yield %0 : f32
  } -> tensor<16x1xf32>
  %e2 = tensor.empty() : tensor<16x64xf32>
  %c1 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %m1 : tensor<16x64xf32>, tensor<16x1xf32>) outs(%e2 : tensor<16x64xf32>) {
  ^bb0(%in: f32, %mu: f32, %out: f32):
    %0 = arith.subf %in, %mu : f32
    %1 = arith.mulf %0, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<16x64xf32>
  %v = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%c1 : tensor<16x64xf32>) outs(%z1 : tensor<16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<16x1xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%v : tensor<16x1xf32>) outs(%e1 : tensor<16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %in, %n : f32
    %1 = arith.addf %0, %eps : f32
    %2 = math.rsqrt %1 : f32
    linalg.yield %2 : f32
  } -> tensor<16x1xf32>
  // The mean again, to centre x.
  %s2 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<16x64xf32>) outs(%z1 : tensor<16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<16x1xf32>
  %m2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s2 : tensor<16x1xf32>) outs(%e1 : tensor<16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %in, %n : f32
    linalg.yield %0 : f32
  } -> tensor<16x1xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %m2, %r : tensor<16x64xf32>, tensor<16x1xf32>, tensor<16x1xf32>) outs(%e2 : tensor<16x64xf32>) {
  ^bb0(%in: f32, %mu: f32, %rs: f32, %out: f32):
    %0 = arith.subf %in, %mu : f32
    %1 = arith.mulf %0, %rs : f32
    linalg.yield %1 : f32
  } -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// The same reduction scaled by two constants: different values, both kept.
// CHECK-LABEL: func.func @different_scales(
// CHECK: %[[S:.*]] = mk.reduce_sum %arg0 dim = 1
// CHECK-DAG: mk.mul_scalar %[[S]], 5.000000e-01
// CHECK-DAG: mk.mul_scalar %[[S]], 2.500000e-01
func.func @different_scales(%x: tensor<16x64xf32>) -> (tensor<16x1xf32>, tensor<16x1xf32>) {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %quarter = arith.constant 0.25 : f32
  %e1 = tensor.empty() : tensor<16x1xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<16x64xf32>) outs(%z1 : tensor<16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<16x1xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<16x1xf32>) outs(%e1 : tensor<16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.mulf %in, %half : f32
    linalg.yield %0 : f32
  } -> tensor<16x1xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<16x1xf32>) outs(%e1 : tensor<16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.mulf %in, %quarter : f32
    linalg.yield %0 : f32
  } -> tensor<16x1xf32>
  return %a, %b : tensor<16x1xf32>, tensor<16x1xf32>
}
