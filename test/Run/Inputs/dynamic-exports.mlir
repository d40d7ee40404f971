// Exports with dynamic dims, from test/Import/dynamic-dims.mlir (its split
// parts in one module) for test/Run/import-check-dynamic.mlir.

#map = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>

func.func @layernorm(%x: tensor<?x768xf32> {mk.sizes = [#mk.size<name = "tokens", max = 4096>]}, %g: tensor<768xf32>, %b: tensor<768xf32>) -> tensor<?x768xf32> {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %n = arith.constant 7.680000e+02 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %d = tensor.dim %x, %c0 : tensor<?x768xf32>
  %e = tensor.empty(%d) : tensor<?xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %sum = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<?x768xf32>) outs(%z : tensor<?xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  %e1 = tensor.empty(%d) : tensor<?xf32>
  %mean = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%sum : tensor<?xf32>) outs(%e1 : tensor<?xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.divf %in, %n : f32
    linalg.yield %m : f32
  } -> tensor<?xf32>
  %e2 = tensor.empty(%d) : tensor<?x768xf32>
  %cen = linalg.generic {indexing_maps = [#map, #row, #map], iterator_types = ["parallel", "parallel"]} ins(%x, %mean : tensor<?x768xf32>, tensor<?xf32>) outs(%e2 : tensor<?x768xf32>) {
  ^bb0(%in: f32, %m: f32, %o: f32):
    %c = arith.subf %in, %m : f32
    linalg.yield %c : f32
  } -> tensor<?x768xf32>
  %z2 = linalg.fill ins(%cst : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %var = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]} ins(%cen : tensor<?x768xf32>) outs(%z2 : tensor<?xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %sq = arith.mulf %in, %in : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  %e3 = tensor.empty(%d) : tensor<?x768xf32>
  %y = linalg.generic {indexing_maps = [#map, #row, #col, #col, #map], iterator_types = ["parallel", "parallel"]} ins(%cen, %var, %g, %b : tensor<?x768xf32>, tensor<?xf32>, tensor<768xf32>, tensor<768xf32>) outs(%e3 : tensor<?x768xf32>) {
  ^bb0(%c: f32, %v: f32, %gg: f32, %bb: f32, %o: f32):
    %vm = arith.divf %v, %n : f32
    %ve = arith.addf %vm, %eps : f32
    %r = math.rsqrt %ve : f32
    %t = arith.mulf %c, %r : f32
    %u = arith.mulf %t, %gg : f32
    %w = arith.addf %u, %bb : f32
    linalg.yield %w : f32
  } -> tensor<?x768xf32>
  return %y : tensor<?x768xf32>
}


func.func @softmax_all_dynamic(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}


func.func @linear_heads(%x: tensor<?x256xf32>, %w: tensor<256x512xf32>, %bias: tensor<512xf32>) -> tensor<?x8x64xf32> {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %d = tensor.dim %x, %c0 : tensor<?x256xf32>
  %e = tensor.empty(%d) : tensor<?x512xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<?x512xf32>) -> tensor<?x512xf32>
  %m = linalg.matmul ins(%x, %w : tensor<?x256xf32>, tensor<256x512xf32>) outs(%f : tensor<?x512xf32>) -> tensor<?x512xf32>
  %e2 = tensor.empty(%d) : tensor<?x512xf32>
  %y = linalg.generic {indexing_maps = [#map, #col, #map], iterator_types = ["parallel", "parallel"]} ins(%m, %bias : tensor<?x512xf32>, tensor<512xf32>) outs(%e2 : tensor<?x512xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %z = arith.maximumf %s, %cst : f32
    linalg.yield %z : f32
  } -> tensor<?x512xf32>
  %h = tensor.expand_shape %y [[0], [1, 2]] output_shape [%d, 8, 64] : tensor<?x512xf32> into tensor<?x8x64xf32>
  return %h : tensor<?x8x64xf32>
}

func.func @matmul_dynamic_k(%x: tensor<4x?xf32>, %w: tensor<?x512xf32>) -> tensor<4x512xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<4x512xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x512xf32>) -> tensor<4x512xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x?xf32>, tensor<?x512xf32>) outs(%f : tensor<4x512xf32>) -> tensor<4x512xf32>
  return %m : tensor<4x512xf32>
}


func.func @mixed(%x: tensor<?x64xf32>, %y: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %a = tosa.add %x, %y : (tensor<?x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  return %a : tensor<4x64xf32>
}


func.func @tosa_matmul_rows(%a: tensor<1x?x64xf32>, %b: tensor<1x64x32xf32>) -> tensor<1x?x32xf32> {
  %za = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %zb = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.matmul %a, %b, %za, %zb : (tensor<1x?x64xf32>, tensor<1x64x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x?x32xf32>
  return %c : tensor<1x?x32xf32>
}
func.func @tosa_matmul_mixed(%a: tensor<1x?x64xf32>, %b: tensor<1x64x32xf32>) -> tensor<1x4x32xf32> {
  %za = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %zb = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.matmul %a, %b, %za, %zb : (tensor<1x?x64xf32>, tensor<1x64x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x32xf32>
  return %c : tensor<1x4x32xf32>
}
