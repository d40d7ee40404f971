// RUN: mirage-opt --mirage-import %s 2>&1 | FileCheck %s
// RUN: mirage-opt --mirage-import=f64-as-f32=0 %s 2>&1 | FileCheck %s --check-prefix=KEEP
// RUN: mirage-run --import-check %s | FileCheck %s --check-prefix=DIFF

// f64 arithmetic of an export (torch-mlir computes LayerNorm's statistics in
// f64: extf f32 -> f64, f64 mean and variance, truncf back). The kernels
// compute in f32, so by default the f64 ops are computed in f32, with a
// remark per op, and the function imports whole. `f64-as-f32=0` keeps them
// outside (upstream runs them in f64). The check compares the f32 import
// with upstream's f64 run of the original.
// DIFF: PASS @layernorm_f64_stats
// DIFF: 1 passed, 0 failed, 0 not checked

// CHECK-COUNT-9: remark: mirage-import: f64 computed in f32 (the kernels' compute precision; f64-as-f32=0 keeps it outside)
// CHECK-LABEL: func.func @layernorm_f64_stats(
// CHECK-NOT: f64
// CHECK-NOT: linalg
// CHECK: mk.reduce_sum %arg0 dim = 1 : tensor<16x32xf32> -> tensor<16x1xf32>
// CHECK: mk.sub %arg0
// CHECK: mk.rms_norm {{.*}} : tensor<16x32xf32>
// CHECK: return
// KEEP: remark: mirage-import: left outside
// KEEP-LABEL: func.func @layernorm_f64_stats(
// KEEP: linalg.generic
// KEEP-SAME: tensor<16x32xf64>
#id = affine_map<(d0, d1) -> (d0, d1)>
#red = affine_map<(d0, d1) -> (d0, 0)>
func.func @layernorm_f64_stats(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %zero = arith.constant 0.0 : f64
  %n = arith.constant 32.0 : f64
  %eps = arith.constant 1.0e-05 : f64
  %wide = tensor.empty() : tensor<16x32xf64>
  %x64 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x32xf32>) outs(%wide : tensor<16x32xf64>) {
  ^bb0(%in: f32, %o: f64):
    %e = arith.extf %in : f32 to f64
    linalg.yield %e : f64
  } -> tensor<16x32xf64>
  %col = tensor.empty() : tensor<16x1xf64>
  %z = linalg.fill ins(%zero : f64) outs(%col : tensor<16x1xf64>) -> tensor<16x1xf64>
  %sum = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "reduction"]}
      ins(%x64 : tensor<16x32xf64>) outs(%z : tensor<16x1xf64>) {
  ^bb0(%in: f64, %acc: f64):
    %s = arith.addf %in, %acc : f64
    linalg.yield %s : f64
  } -> tensor<16x1xf64>
  %mean = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<16x1xf64>) outs(%col : tensor<16x1xf64>) {
  ^bb0(%in: f64, %o: f64):
    %d = arith.divf %in, %n : f64
    linalg.yield %d : f64
  } -> tensor<16x1xf64>
  %cen = linalg.generic {indexing_maps = [#id, #red, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x64, %mean : tensor<16x32xf64>, tensor<16x1xf64>) outs(%wide : tensor<16x32xf64>) {
  ^bb0(%a: f64, %m: f64, %o: f64):
    %d = arith.subf %a, %m : f64
    linalg.yield %d : f64
  } -> tensor<16x32xf64>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%cen : tensor<16x32xf64>) outs(%wide : tensor<16x32xf64>) {
  ^bb0(%a: f64, %o: f64):
    %p = arith.mulf %a, %a : f64
    linalg.yield %p : f64
  } -> tensor<16x32xf64>
  %ssq = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "reduction"]}
      ins(%sq : tensor<16x32xf64>) outs(%z : tensor<16x1xf64>) {
  ^bb0(%in: f64, %acc: f64):
    %s = arith.addf %in, %acc : f64
    linalg.yield %s : f64
  } -> tensor<16x1xf64>
  %narrow = tensor.empty() : tensor<16x1xf32>
  %rstd = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ssq : tensor<16x1xf64>) outs(%narrow : tensor<16x1xf32>) {
  ^bb0(%in: f64, %o: f32):
    %v = arith.divf %in, %n : f64
    %ve = arith.addf %v, %eps : f64
    %r = math.rsqrt %ve : f64
    %t = arith.truncf %r : f64 to f32
    linalg.yield %t : f32
  } -> tensor<16x1xf32>
  %out = tensor.empty() : tensor<16x32xf32>
  %c32 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%cen : tensor<16x32xf64>) outs(%out : tensor<16x32xf32>) {
  ^bb0(%in: f64, %o: f32):
    %t = arith.truncf %in : f64 to f32
    linalg.yield %t : f32
  } -> tensor<16x32xf32>
  %y = linalg.generic {indexing_maps = [#id, #red, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c32, %rstd : tensor<16x32xf32>, tensor<16x1xf32>) outs(%out : tensor<16x32xf32>) {
  ^bb0(%a: f32, %r: f32, %o: f32):
    %p = arith.mulf %a, %r : f32
    linalg.yield %p : f32
  } -> tensor<16x32xf32>
  return %y : tensor<16x32xf32>
}
