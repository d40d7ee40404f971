// RUN: mirage-opt --mirage-import %s | FileCheck %s
// RUN: mirage-run --import-check %s | FileCheck %s --check-prefix=DIFF

// One whole post-LN BERT encoder layer (HF BertLayer, eager attention, no
// mask, dropout off) in linalg-on-tensors as torch-mlir prints it, at a small
// shape: batch 1, seq 8, hidden 64, 4 heads of 16, FFN 256, f32. Weights and
// biases are arguments (nn.Linear layout [out, in]). The forms follow real
// torch-mlir exports of BERT:
// - nn.Linear on a 3-d input: linalg.transpose of W, x collapsed to 8x64 and
//   broadcast back to batch 1 by a copy generic ((d0, d1, d2) -> (d1, d2)),
//   W^T broadcast to 1xKxN the same way, linalg.batch_matmul into a zero
//   fill, the bias added by a generic reading it through (d0, d1, d2) -> (d2);
// - heads: tensor.expand_shape to 1x8x4x16, linalg.transpose [0, 2, 1, 3];
//   k^T by linalg.transpose [0, 1, 3, 2]; the 4-d matmuls collapse the batch
//   dims, run linalg.batch_matmul and expand back; scores / sqrt(16) by divf;
// - softmax as aten._softmax decomposes: max.dim (a two-result generic that
//   also yields the argmax from linalg.index), expand_shape to keep the dim,
//   sub, exp, sum (output map keeps the dim as 0), div;
// - native_layer_norm decomposed: sum / n, the mean collapsed to 1x8 and
//   broadcast to 1x8x64 by a copy generic, sub, x*x, sum / n, + eps (the f64
//   constant truncated in the body), rsqrt, broadcast, mul, * gamma, + beta;
// - exact GELU (approximate="none") in one generic body.
// DIFF: PASS @bert_layer
// DIFF: 1 passed, 0 failed, 0 not checked

// RUN: mirage-opt --mirage-import-to-ptx %s | FileCheck %s --check-prefix=PTX

// Every op of the layer has an mk counterpart, so the whole function becomes
// mk (nothing is left to outline): LayerNorm is the mean subtracted, then
// rms_norm of the centred rows (the variance of centred values is the mean
// of their squares), * gamma + beta; the max's argmax is dropped, the row
// statistics' broadcasts become mk's size-1 broadcasting, the f64 eps
// truncated in the body is its f32 value.
// CHECK-LABEL: func.func @bert_layer(
// CHECK-NOT: linalg.
// CHECK-NOT: call
// q, k, v projections (x collapsed to 8x64, W^T, + bias), heads, q k^T / 4.
// CHECK: %[[X:.*]] = mk.reshape %arg0 : tensor<1x8x64xf32> -> tensor<8x64xf32>
// CHECK-COUNT-3: mk.matmul %[[X]], %{{.*}} : tensor<8x64xf32>, tensor<64x64xf32> -> tensor<8x64xf32>
// CHECK: mk.transpose %{{.*}} perm = [0, 2, 1] : tensor<4x8x16xf32> -> tensor<4x16x8xf32>
// CHECK: mk.matmul %{{.*}}, %{{.*}} : tensor<4x8x16xf32>, tensor<4x16x8xf32> -> tensor<4x8x8xf32>
// CHECK: %[[S:.*]] = mk.mul_scalar %{{.*}}, 2.500000e-01 : tensor<4x8x8xf32>
// softmax, probs v, output projection, residual.
// CHECK: %[[M:.*]] = mk.reduce_max %[[S]] dim = 2 : tensor<4x8x8xf32> -> tensor<4x8x1xf32>
// CHECK: mk.sub %[[S]], %[[M]] : tensor<4x8x8xf32>, tensor<4x8x1xf32> -> tensor<4x8x8xf32>
// CHECK: mk.exp %{{.*}} : tensor<4x8x8xf32>
// CHECK: mk.reduce_sum %{{.*}} dim = 2 : tensor<4x8x8xf32> -> tensor<4x8x1xf32>
// CHECK: mk.div %{{.*}}, %{{.*}} : tensor<4x8x8xf32>, tensor<4x8x1xf32> -> tensor<4x8x8xf32>
// CHECK: mk.matmul %{{.*}}, %{{.*}} : tensor<4x8x8xf32>, tensor<4x8x16xf32> -> tensor<4x8x16xf32>
// CHECK: mk.matmul %{{.*}}, %{{.*}} : tensor<8x64xf32>, tensor<64x64xf32> -> tensor<8x64xf32>
// CHECK: %[[R1:.*]] = mk.add %{{.*}}, %[[X]] : tensor<8x64xf32>, tensor<8x64xf32> -> tensor<8x64xf32>
// first LayerNorm.
// CHECK: %[[SUM1:.*]] = mk.reduce_sum %[[R1]] dim = 1 : tensor<8x64xf32> -> tensor<8x1xf32>
// CHECK: %[[MEAN1:.*]] = mk.mul_scalar %[[SUM1]], 1.562500e-02 : tensor<8x1xf32>
// CHECK: %[[C1:.*]] = mk.sub %[[R1]], %[[MEAN1]] : tensor<8x64xf32>, tensor<8x1xf32> -> tensor<8x64xf32>
// CHECK: mk.rms_norm %[[C1]] eps = 9.999999960041972E-13 : tensor<8x64xf32>
// CHECK: mk.mul %{{.*}}, %{{.*}} : tensor<8x64xf32>, tensor<1x64xf32> -> tensor<8x64xf32>
// CHECK: mk.add %{{.*}}, %{{.*}} : tensor<8x64xf32>, tensor<1x64xf32> -> tensor<8x64xf32>
// FFN with the exact GELU, then the second LayerNorm.
// CHECK: mk.matmul %{{.*}}, %{{.*}} : tensor<8x64xf32>, tensor<64x256xf32> -> tensor<8x256xf32>
// CHECK: mk.gelu_erf %{{.*}} : tensor<8x256xf32>
// CHECK: mk.matmul %{{.*}}, %{{.*}} : tensor<8x256xf32>, tensor<256x64xf32> -> tensor<8x64xf32>
// CHECK: mk.reduce_sum %{{.*}} dim = 1 : tensor<8x64xf32> -> tensor<8x1xf32>
// CHECK: mk.rms_norm %{{.*}} eps = 9.999999960041972E-13 : tensor<8x64xf32>
// CHECK: %[[OUT:.*]] = mk.reshape %{{.*}} : tensor<8x64xf32> -> tensor<1x8x64xf32>
// CHECK-NEXT: return %[[OUT]] : tensor<1x8x64xf32>

// The named pipeline (mirage-import-to-ptx) leaves only the host function
// and its kernels.
// PTX-NOT: linalg.
// PTX-NOT: mk.
// PTX-LABEL: llvm.func @bert_layer(
// PTX: gpu.launch_func
// PTX: gpu.binary @{{.*}} [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
// PTX-SAME: .visible .entry

#map = affine_map<(d0, d1, d2) -> (d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d2)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map5 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#map6 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#map7 = affine_map<(d0, d1, d2) -> (d0, d1)>
module attributes {torch.debug_module_name = "BertLayer"} {
  func.func @bert_layer(%arg0: tensor<1x8x64xf32>, %arg1: tensor<64x64xf32>, %arg2: tensor<64xf32>, %arg3: tensor<64x64xf32>, %arg4: tensor<64xf32>, %arg5: tensor<64x64xf32>, %arg6: tensor<64xf32>, %arg7: tensor<64x64xf32>, %arg8: tensor<64xf32>, %arg9: tensor<64xf32>, %arg10: tensor<64xf32>, %arg11: tensor<256x64xf32>, %arg12: tensor<256xf32>, %arg13: tensor<64x256xf32>, %arg14: tensor<64xf32>, %arg15: tensor<64xf32>, %arg16: tensor<64xf32>) -> tensor<1x8x64xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 1.000000e+00 : f32
    %cst_2 = arith.constant 1.41421354 : f32
    %cst_3 = arith.constant 5.000000e-01 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_4 = arith.constant 9.9999999999999998E-13 : f64
    %cst_5 = arith.constant 6.400000e+01 : f32
    %cst_6 = arith.constant 4.000000e+00 : f32
    %0 = tensor.empty() : tensor<64x64xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<64x64xf32>) outs(%0 : tensor<64x64xf32>) permutation = [1, 0] 
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2]] : tensor<1x8x64xf32> into tensor<8x64xf32>
    %1 = tensor.empty() : tensor<1x8x64xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed : tensor<8x64xf32>) outs(%1 : tensor<1x8x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x8x64xf32>
    %3 = tensor.empty() : tensor<1x64x64xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%transposed : tensor<64x64xf32>) outs(%3 : tensor<1x64x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x64x64xf32>
    %5 = linalg.fill ins(%cst : f32) outs(%1 : tensor<1x8x64xf32>) -> tensor<1x8x64xf32>
    %6 = linalg.batch_matmul ins(%2, %4 : tensor<1x8x64xf32>, tensor<1x64x64xf32>) outs(%5 : tensor<1x8x64xf32>) -> tensor<1x8x64xf32>
    %7 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6, %arg2 : tensor<1x8x64xf32>, tensor<64xf32>) outs(%1 : tensor<1x8x64xf32>) {
    ^bb0(%in: f32, %in_33: f32, %out: f32):
      %85 = arith.addf %in, %in_33 : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x64xf32>
    %expanded = tensor.expand_shape %7 [[0], [1], [2, 3]] output_shape [1, 8, 4, 16] : tensor<1x8x64xf32> into tensor<1x8x4x16xf32>
    %8 = tensor.empty() : tensor<1x4x8x16xf32>
    %transposed_7 = linalg.transpose ins(%expanded : tensor<1x8x4x16xf32>) outs(%8 : tensor<1x4x8x16xf32>) permutation = [0, 2, 1, 3] 
    %transposed_8 = linalg.transpose ins(%arg3 : tensor<64x64xf32>) outs(%0 : tensor<64x64xf32>) permutation = [1, 0] 
    %9 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%transposed_8 : tensor<64x64xf32>) outs(%3 : tensor<1x64x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x64x64xf32>
    %10 = linalg.batch_matmul ins(%2, %9 : tensor<1x8x64xf32>, tensor<1x64x64xf32>) outs(%5 : tensor<1x8x64xf32>) -> tensor<1x8x64xf32>
    %11 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%10, %arg4 : tensor<1x8x64xf32>, tensor<64xf32>) outs(%1 : tensor<1x8x64xf32>) {
    ^bb0(%in: f32, %in_33: f32, %out: f32):
      %85 = arith.addf %in, %in_33 : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x64xf32>
    %expanded_9 = tensor.expand_shape %11 [[0], [1], [2, 3]] output_shape [1, 8, 4, 16] : tensor<1x8x64xf32> into tensor<1x8x4x16xf32>
    %transposed_10 = linalg.transpose ins(%expanded_9 : tensor<1x8x4x16xf32>) outs(%8 : tensor<1x4x8x16xf32>) permutation = [0, 2, 1, 3] 
    %transposed_11 = linalg.transpose ins(%arg5 : tensor<64x64xf32>) outs(%0 : tensor<64x64xf32>) permutation = [1, 0] 
    %12 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%transposed_11 : tensor<64x64xf32>) outs(%3 : tensor<1x64x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x64x64xf32>
    %13 = linalg.batch_matmul ins(%2, %12 : tensor<1x8x64xf32>, tensor<1x64x64xf32>) outs(%5 : tensor<1x8x64xf32>) -> tensor<1x8x64xf32>
    %14 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%13, %arg6 : tensor<1x8x64xf32>, tensor<64xf32>) outs(%1 : tensor<1x8x64xf32>) {
    ^bb0(%in: f32, %in_33: f32, %out: f32):
      %85 = arith.addf %in, %in_33 : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x64xf32>
    %expanded_12 = tensor.expand_shape %14 [[0], [1], [2, 3]] output_shape [1, 8, 4, 16] : tensor<1x8x64xf32> into tensor<1x8x4x16xf32>
    %transposed_13 = linalg.transpose ins(%expanded_12 : tensor<1x8x4x16xf32>) outs(%8 : tensor<1x4x8x16xf32>) permutation = [0, 2, 1, 3] 
    %15 = tensor.empty() : tensor<1x4x16x8xf32>
    %transposed_14 = linalg.transpose ins(%transposed_10 : tensor<1x4x8x16xf32>) outs(%15 : tensor<1x4x16x8xf32>) permutation = [0, 1, 3, 2] 
    %collapsed_15 = tensor.collapse_shape %transposed_7 [[0, 1], [2], [3]] : tensor<1x4x8x16xf32> into tensor<4x8x16xf32>
    %collapsed_16 = tensor.collapse_shape %transposed_14 [[0, 1], [2], [3]] : tensor<1x4x16x8xf32> into tensor<4x16x8xf32>
    %16 = tensor.empty() : tensor<4x8x8xf32>
    %17 = linalg.fill ins(%cst : f32) outs(%16 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %18 = linalg.batch_matmul ins(%collapsed_15, %collapsed_16 : tensor<4x8x16xf32>, tensor<4x16x8xf32>) outs(%17 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %expanded_17 = tensor.expand_shape %18 [[0, 1], [2], [3]] output_shape [1, 4, 8, 8] : tensor<4x8x8xf32> into tensor<1x4x8x8xf32>
    %19 = tensor.empty() : tensor<1x4x8x8xf32>
    %20 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_17 : tensor<1x4x8x8xf32>) outs(%19 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.divf %in, %cst_6 : f32
      linalg.yield %85 : f32
    } -> tensor<1x4x8x8xf32>
    %21 = tensor.empty() : tensor<1x4x8xi64>
    %22 = linalg.fill ins(%c0_i64 : i64) outs(%21 : tensor<1x4x8xi64>) -> tensor<1x4x8xi64>
    %23 = tensor.empty() : tensor<1x4x8xf32>
    %24 = linalg.fill ins(%cst_0 : f32) outs(%23 : tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
    %25:2 = linalg.generic {indexing_maps = [#map3, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%20 : tensor<1x4x8x8xf32>) outs(%24, %22 : tensor<1x4x8xf32>, tensor<1x4x8xi64>) {
    ^bb0(%in: f32, %out: f32, %out_33: i64):
      %85 = linalg.index 3 : index
      %86 = arith.index_cast %85 : index to i64
      %87 = arith.maximumf %in, %out : f32
      %88 = arith.cmpf ogt, %in, %out : f32
      %89 = arith.select %88, %86, %out_33 : i64
      linalg.yield %87, %89 : f32, i64
    } -> (tensor<1x4x8xf32>, tensor<1x4x8xi64>)
    %expanded_18 = tensor.expand_shape %25#0 [[0], [1], [2, 3]] output_shape [1, 4, 8, 1] : tensor<1x4x8xf32> into tensor<1x4x8x1xf32>
    %26 = linalg.generic {indexing_maps = [#map3, #map5, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%20, %expanded_18 : tensor<1x4x8x8xf32>, tensor<1x4x8x1xf32>) outs(%19 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_33: f32, %out: f32):
      %85 = arith.subf %in, %in_33 : f32
      linalg.yield %85 : f32
    } -> tensor<1x4x8x8xf32>
    %27 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%26 : tensor<1x4x8x8xf32>) outs(%19 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = math.exp %in : f32
      linalg.yield %85 : f32
    } -> tensor<1x4x8x8xf32>
    %28 = tensor.empty() : tensor<1x4x8x1xf32>
    %29 = linalg.fill ins(%cst : f32) outs(%28 : tensor<1x4x8x1xf32>) -> tensor<1x4x8x1xf32>
    %30 = linalg.generic {indexing_maps = [#map3, #map5], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%27 : tensor<1x4x8x8xf32>) outs(%29 : tensor<1x4x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.addf %in, %out : f32
      linalg.yield %85 : f32
    } -> tensor<1x4x8x1xf32>
    %31 = linalg.generic {indexing_maps = [#map3, #map5, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%27, %30 : tensor<1x4x8x8xf32>, tensor<1x4x8x1xf32>) outs(%19 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_33: f32, %out: f32):
      %85 = arith.divf %in, %in_33 : f32
      linalg.yield %85 : f32
    } -> tensor<1x4x8x8xf32>
    %collapsed_19 = tensor.collapse_shape %31 [[0, 1], [2], [3]] : tensor<1x4x8x8xf32> into tensor<4x8x8xf32>
    %collapsed_20 = tensor.collapse_shape %transposed_13 [[0, 1], [2], [3]] : tensor<1x4x8x16xf32> into tensor<4x8x16xf32>
    %32 = tensor.empty() : tensor<4x8x16xf32>
    %33 = linalg.fill ins(%cst : f32) outs(%32 : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
    %34 = linalg.batch_matmul ins(%collapsed_19, %collapsed_20 : tensor<4x8x8xf32>, tensor<4x8x16xf32>) outs(%33 : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
    %expanded_21 = tensor.expand_shape %34 [[0, 1], [2], [3]] output_shape [1, 4, 8, 16] : tensor<4x8x16xf32> into tensor<1x4x8x16xf32>
    %35 = tensor.empty() : tensor<1x8x4x16xf32>
    %transposed_22 = linalg.transpose ins(%expanded_21 : tensor<1x4x8x16xf32>) outs(%35 : tensor<1x8x4x16xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_23 = tensor.collapse_shape %transposed_22 [[0, 1], [2, 3]] : tensor<1x8x4x16xf32> into tensor<8x64xf32>
    %transposed_24 = linalg.transpose ins(%arg7 : tensor<64x64xf32>) outs(%0 : tensor<64x64xf32>) permutation = [1, 0] 
    %36 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_23 : tensor<8x64xf32>) outs(%1 : tensor<1x8x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x8x64xf32>
    %37 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%transposed_24 : tensor<64x64xf32>) outs(%3 : tensor<1x64x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x64x64xf32>
    %38 = linalg.batch_matmul ins(%36, %37 : tensor<1x8x64xf32>, tensor<1x64x64xf32>) outs(%5 : tensor<1x8x64xf32>) -> tensor<1x8x64xf32>
    %39 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%38, %arg8 : tensor<1x8x64xf32>, tensor<64xf32>) outs(%1 : tensor<1x8x64xf32>) {
    ^bb0(%in: f32, %in_33: f32, %out: f32):
      %85 = arith.addf %in, %in_33 : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x64xf32>
    %40 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%39, %arg0 : tensor<1x8x64xf32>, tensor<1x8x64xf32>) outs(%1 : tensor<1x8x64xf32>) {
    ^bb0(%in: f32, %in_33: f32, %out: f32):
      %85 = arith.addf %in, %in_33 : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x64xf32>
    %41 = tensor.empty() : tensor<1x8x1xf32>
    %42 = linalg.fill ins(%cst : f32) outs(%41 : tensor<1x8x1xf32>) -> tensor<1x8x1xf32>
    %43 = linalg.generic {indexing_maps = [#map1, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%40 : tensor<1x8x64xf32>) outs(%42 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.addf %in, %out : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x1xf32>
    %44 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%43 : tensor<1x8x1xf32>) outs(%41 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.divf %in, %cst_5 : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x1xf32>
    %collapsed_25 = tensor.collapse_shape %44 [[0], [1, 2]] : tensor<1x8x1xf32> into tensor<1x8xf32>
    %45 = linalg.generic {indexing_maps = [#map7, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_25 : tensor<1x8xf32>) outs(%1 : tensor<1x8x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x8x64xf32>
    %46 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%40, %45 : tensor<1x8x64xf32>, tensor<1x8x64xf32>) outs(%1 : tensor<1x8x64xf32>) {
    ^bb0(%in: f32, %in_33: f32, %out: f32):
      %85 = arith.subf %in, %in_33 : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x64xf32>
    %47 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%46, %46 : tensor<1x8x64xf32>, tensor<1x8x64xf32>) outs(%1 : tensor<1x8x64xf32>) {
    ^bb0(%in: f32, %in_33: f32, %out: f32):
      %85 = arith.mulf %in, %in_33 : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x64xf32>
    %48 = linalg.generic {indexing_maps = [#map1, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%47 : tensor<1x8x64xf32>) outs(%42 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.addf %in, %out : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x1xf32>
    %49 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%48 : tensor<1x8x1xf32>) outs(%41 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.divf %in, %cst_5 : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x1xf32>
    %50 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%49 : tensor<1x8x1xf32>) outs(%41 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.truncf %cst_4 : f64 to f32
      %86 = arith.addf %in, %85 : f32
      linalg.yield %86 : f32
    } -> tensor<1x8x1xf32>
    %51 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%50 : tensor<1x8x1xf32>) outs(%41 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = math.rsqrt %in : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x1xf32>
    %collapsed_26 = tensor.collapse_shape %51 [[0], [1, 2]] : tensor<1x8x1xf32> into tensor<1x8xf32>
    %52 = linalg.generic {indexing_maps = [#map7, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_26 : tensor<1x8xf32>) outs(%1 : tensor<1x8x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x8x64xf32>
    %53 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%46, %52 : tensor<1x8x64xf32>, tensor<1x8x64xf32>) outs(%1 : tensor<1x8x64xf32>) {
    ^bb0(%in: f32, %in_33: f32, %out: f32):
      %85 = arith.mulf %in, %in_33 : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x64xf32>
    %54 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%53, %arg9 : tensor<1x8x64xf32>, tensor<64xf32>) outs(%1 : tensor<1x8x64xf32>) {
    ^bb0(%in: f32, %in_33: f32, %out: f32):
      %85 = arith.mulf %in, %in_33 : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x64xf32>
    %55 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%54, %arg10 : tensor<1x8x64xf32>, tensor<64xf32>) outs(%1 : tensor<1x8x64xf32>) {
    ^bb0(%in: f32, %in_33: f32, %out: f32):
      %85 = arith.addf %in, %in_33 : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x64xf32>
    %56 = tensor.empty() : tensor<64x256xf32>
    %transposed_27 = linalg.transpose ins(%arg11 : tensor<256x64xf32>) outs(%56 : tensor<64x256xf32>) permutation = [1, 0] 
    %collapsed_28 = tensor.collapse_shape %55 [[0, 1], [2]] : tensor<1x8x64xf32> into tensor<8x64xf32>
    %57 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_28 : tensor<8x64xf32>) outs(%1 : tensor<1x8x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x8x64xf32>
    %58 = tensor.empty() : tensor<1x64x256xf32>
    %59 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%transposed_27 : tensor<64x256xf32>) outs(%58 : tensor<1x64x256xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x64x256xf32>
    %60 = tensor.empty() : tensor<1x8x256xf32>
    %61 = linalg.fill ins(%cst : f32) outs(%60 : tensor<1x8x256xf32>) -> tensor<1x8x256xf32>
    %62 = linalg.batch_matmul ins(%57, %59 : tensor<1x8x64xf32>, tensor<1x64x256xf32>) outs(%61 : tensor<1x8x256xf32>) -> tensor<1x8x256xf32>
    %63 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%62, %arg12 : tensor<1x8x256xf32>, tensor<256xf32>) outs(%60 : tensor<1x8x256xf32>) {
    ^bb0(%in: f32, %in_33: f32, %out: f32):
      %85 = arith.addf %in, %in_33 : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x256xf32>
    %64 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%63 : tensor<1x8x256xf32>) outs(%60 : tensor<1x8x256xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.divf %in, %cst_2 : f32
      %86 = math.erf %85 : f32
      %87 = arith.addf %86, %cst_1 : f32
      %88 = arith.mulf %87, %cst_3 : f32
      %89 = arith.mulf %in, %88 : f32
      linalg.yield %89 : f32
    } -> tensor<1x8x256xf32>
    %65 = tensor.empty() : tensor<256x64xf32>
    %transposed_29 = linalg.transpose ins(%arg13 : tensor<64x256xf32>) outs(%65 : tensor<256x64xf32>) permutation = [1, 0] 
    %collapsed_30 = tensor.collapse_shape %64 [[0, 1], [2]] : tensor<1x8x256xf32> into tensor<8x256xf32>
    %66 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_30 : tensor<8x256xf32>) outs(%60 : tensor<1x8x256xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x8x256xf32>
    %67 = tensor.empty() : tensor<1x256x64xf32>
    %68 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%transposed_29 : tensor<256x64xf32>) outs(%67 : tensor<1x256x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x256x64xf32>
    %69 = linalg.batch_matmul ins(%66, %68 : tensor<1x8x256xf32>, tensor<1x256x64xf32>) outs(%5 : tensor<1x8x64xf32>) -> tensor<1x8x64xf32>
    %70 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%69, %arg14 : tensor<1x8x64xf32>, tensor<64xf32>) outs(%1 : tensor<1x8x64xf32>) {
    ^bb0(%in: f32, %in_33: f32, %out: f32):
      %85 = arith.addf %in, %in_33 : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x64xf32>
    %71 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%70, %55 : tensor<1x8x64xf32>, tensor<1x8x64xf32>) outs(%1 : tensor<1x8x64xf32>) {
    ^bb0(%in: f32, %in_33: f32, %out: f32):
      %85 = arith.addf %in, %in_33 : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x64xf32>
    %72 = linalg.generic {indexing_maps = [#map1, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%71 : tensor<1x8x64xf32>) outs(%42 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.addf %in, %out : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x1xf32>
    %73 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%72 : tensor<1x8x1xf32>) outs(%41 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.divf %in, %cst_5 : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x1xf32>
    %collapsed_31 = tensor.collapse_shape %73 [[0], [1, 2]] : tensor<1x8x1xf32> into tensor<1x8xf32>
    %74 = linalg.generic {indexing_maps = [#map7, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_31 : tensor<1x8xf32>) outs(%1 : tensor<1x8x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x8x64xf32>
    %75 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%71, %74 : tensor<1x8x64xf32>, tensor<1x8x64xf32>) outs(%1 : tensor<1x8x64xf32>) {
    ^bb0(%in: f32, %in_33: f32, %out: f32):
      %85 = arith.subf %in, %in_33 : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x64xf32>
    %76 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%75, %75 : tensor<1x8x64xf32>, tensor<1x8x64xf32>) outs(%1 : tensor<1x8x64xf32>) {
    ^bb0(%in: f32, %in_33: f32, %out: f32):
      %85 = arith.mulf %in, %in_33 : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x64xf32>
    %77 = linalg.generic {indexing_maps = [#map1, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%76 : tensor<1x8x64xf32>) outs(%42 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.addf %in, %out : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x1xf32>
    %78 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%77 : tensor<1x8x1xf32>) outs(%41 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.divf %in, %cst_5 : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x1xf32>
    %79 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%78 : tensor<1x8x1xf32>) outs(%41 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = arith.truncf %cst_4 : f64 to f32
      %86 = arith.addf %in, %85 : f32
      linalg.yield %86 : f32
    } -> tensor<1x8x1xf32>
    %80 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%79 : tensor<1x8x1xf32>) outs(%41 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %85 = math.rsqrt %in : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x1xf32>
    %collapsed_32 = tensor.collapse_shape %80 [[0], [1, 2]] : tensor<1x8x1xf32> into tensor<1x8xf32>
    %81 = linalg.generic {indexing_maps = [#map7, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_32 : tensor<1x8xf32>) outs(%1 : tensor<1x8x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x8x64xf32>
    %82 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%75, %81 : tensor<1x8x64xf32>, tensor<1x8x64xf32>) outs(%1 : tensor<1x8x64xf32>) {
    ^bb0(%in: f32, %in_33: f32, %out: f32):
      %85 = arith.mulf %in, %in_33 : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x64xf32>
    %83 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%82, %arg15 : tensor<1x8x64xf32>, tensor<64xf32>) outs(%1 : tensor<1x8x64xf32>) {
    ^bb0(%in: f32, %in_33: f32, %out: f32):
      %85 = arith.mulf %in, %in_33 : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x64xf32>
    %84 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%83, %arg16 : tensor<1x8x64xf32>, tensor<64xf32>) outs(%1 : tensor<1x8x64xf32>) {
    ^bb0(%in: f32, %in_33: f32, %out: f32):
      %85 = arith.addf %in, %in_33 : f32
      linalg.yield %85 : f32
    } -> tensor<1x8x64xf32>
    return %84 : tensor<1x8x64xf32>
  }
}

