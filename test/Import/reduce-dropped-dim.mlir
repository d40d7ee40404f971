// RUN: mirage-opt --mirage-import %s | FileCheck %s
// RUN: mirage-run --import-check %s | FileCheck %s --check-prefix=DIFF
// RUN: mirage-opt --mirage-import %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK --allow-empty

// Reductions whose result drops the reduced dim (torch-mlir's and IREE's
// form): the mk reduction keeps the dim with size 1, and the users read the
// dropped form through a reshape, which cancels against the broadcast of an
// element-wise user and stays at the boundary where the result is returned.
// REMARK-NOT: left outside

// A row sum returned without its reduced dim.
// CHECK-LABEL: func.func @row_sum
// CHECK-NOT: linalg.
// CHECK: mk.reduce_sum %{{.*}} dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
// CHECK: mk.reshape %{{.*}} : tensor<4x1xf32> -> tensor<4xf32>
// DIFF: PASS @row_sum
func.func @row_sum(%a: tensor<4x8xf32>) -> tensor<4xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<4x8xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// A softmax over the last dim of a rank-3 tensor as IREE writes it: the max
// and the sum drop the reduced dim and the element-wise ops broadcast them
// back; no reshape is left between the mk ops.
// CHECK-LABEL: func.func @softmax_dropped
// CHECK: mk.reduce_max %{{.*}} dim = 2 : tensor<2x4x16xf32> -> tensor<2x4x1xf32>
// CHECK: mk.reduce_sum %{{.*}} dim = 2
// CHECK-NOT: mk.reshape
// CHECK: return
// DIFF: PASS @softmax_dropped
func.func @softmax_dropped(%x: tensor<2x4x16xf32>) -> tensor<2x4x16xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<2x4xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<2x4x16xf32>) outs(%fm : tensor<2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.maximumf %in, %out : f32
    linalg.yield %v : f32
  } -> tensor<2x4xf32>
  %e3 = tensor.empty() : tensor<2x4x16xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %m : tensor<2x4x16xf32>, tensor<2x4xf32>) outs(%e3 : tensor<2x4x16xf32>) {
  ^bb0(%in: f32, %mx: f32, %out: f32):
    %d = arith.subf %in, %mx : f32
    %v = math.exp %d : f32
    linalg.yield %v : f32
  } -> tensor<2x4x16xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x4x16xf32>) outs(%fs : tensor<2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %in, %out : f32
    linalg.yield %v : f32
  } -> tensor<2x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %s : tensor<2x4x16xf32>, tensor<2x4xf32>) outs(%e3 : tensor<2x4x16xf32>) {
  ^bb0(%in: f32, %sum: f32, %out: f32):
    %v = arith.divf %in, %sum : f32
    linalg.yield %v : f32
  } -> tensor<2x4x16xf32>
  return %r : tensor<2x4x16xf32>
}

// linalg.reduce over dim 0, its result used twice: by an element-wise op
// that broadcasts it back and as a result of its own.
// CHECK-LABEL: func.func @column_max_two_uses
// CHECK: %[[M:.*]] = mk.reduce_max %{{.*}} dim = 0 : tensor<8x6xf16> -> tensor<1x6xf16>
// CHECK-DAG: %[[D:.*]] = mk.sub %{{.*}}, %[[M]]
// CHECK-DAG: %[[R:.*]] = mk.reshape %[[M]] : tensor<1x6xf16> -> tensor<6xf16>
// CHECK: return %[[D]], %[[R]]
// DIFF: PASS @column_max_two_uses
func.func @column_max_two_uses(%x: tensor<8x6xf16>) -> (tensor<8x6xf16>, tensor<6xf16>) {
  %ninf = arith.constant 0xFC00 : f16
  %e1 = tensor.empty() : tensor<6xf16>
  %f = linalg.fill ins(%ninf : f16) outs(%e1 : tensor<6xf16>) -> tensor<6xf16>
  %m = linalg.reduce ins(%x : tensor<8x6xf16>) outs(%f : tensor<6xf16>) dimensions = [0]
    (%in: f16, %acc: f16) {
      %0 = arith.maximumf %in, %acc : f16
      linalg.yield %0 : f16
    }
  %e2 = tensor.empty() : tensor<8x6xf16>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %m : tensor<8x6xf16>, tensor<6xf16>) outs(%e2 : tensor<8x6xf16>) {
  ^bb0(%in: f16, %mx: f16, %out: f16):
    %v = arith.subf %in, %mx : f16
    linalg.yield %v : f16
  } -> tensor<8x6xf16>
  return %d, %m : tensor<8x6xf16>, tensor<6xf16>
}

// A rank-1 sum drops its only dim: the mk reduction is imported and the
// rank-0 result (no mk tensor) is a collapse at the boundary.
// CHECK-LABEL: func.func @total
// CHECK: %[[S:.*]] = call @total_mk0
// CHECK: tensor.collapse_shape %[[S]] [] : tensor<1xf32> into tensor<f32>
// CHECK: func.func private @total_mk0
// CHECK: mk.reduce_sum %{{.*}} dim = 0 : tensor<16xf32> -> tensor<1xf32>
// DIFF: PASS @total
func.func @total(%x: tensor<16xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %s = linalg.reduce ins(%x : tensor<16xf32>) outs(%f : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %0 = arith.addf %in, %acc : f32
      linalg.yield %0 : f32
    }
  return %s : tensor<f32>
}

// A statistic scaled in its dropped form and expanded for a broadcast (the
// mean of an RMSNorm with a tensor eps, gc's llama2 export): the scale moves
// past the reshape, the reshapes meet and cancel, and the row statistic
// reaches the broadcast add without a reshape between mk ops.
// CHECK-LABEL: func.func @scaled_statistic
// CHECK: %[[S:.*]] = mk.reduce_sum %{{.*}} dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
// CHECK-NEXT: %[[M:.*]] = mk.mul_scalar %[[S]], 1.250000e-01 : tensor<4x1xf32>
// CHECK-NOT: mk.reshape %[[M]]
// CHECK: mk.add %[[M]], %{{.*}} : tensor<4x1xf32>, tensor<1x1xf32> -> tensor<4x1xf32>
// DIFF: PASS @scaled_statistic
func.func @scaled_statistic(%x: tensor<4x8xf32>, %eps: tensor<1xf32>) -> tensor<4x1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.reduce ins(%x : tensor<4x8xf32>) outs(%f : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %0 = arith.addf %in, %acc : f32
      linalg.yield %0 : f32
    }
  %n = arith.constant dense<8.0> : tensor<4xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  %m = linalg.div ins(%s, %n : tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
  %m2 = tensor.expand_shape %m [[0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
  %e3 = tensor.empty() : tensor<4x1xf32>
  %b = linalg.broadcast ins(%eps : tensor<1xf32>) outs(%e3 : tensor<4x1xf32>) dimensions = [0]
  %e4 = tensor.empty() : tensor<4x1xf32>
  %a = linalg.add ins(%m2, %b : tensor<4x1xf32>, tensor<4x1xf32>) outs(%e4 : tensor<4x1xf32>) -> tensor<4x1xf32>
  return %a : tensor<4x1xf32>
}
