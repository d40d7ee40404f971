// A matmul followed by an element-wise exp, as torch-mlir emits it.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @matmul_exp(%a: tensor<16x64xf16>, %b: tensor<64x32xf16>) -> tensor<16x32xf16> {
  %z = arith.constant 0.0 : f16
  %0 = tensor.empty() : tensor<16x32xf16>
  %1 = linalg.fill ins(%z : f16) outs(%0 : tensor<16x32xf16>) -> tensor<16x32xf16>
  %2 = linalg.matmul ins(%a, %b : tensor<16x64xf16>, tensor<64x32xf16>)
         outs(%1 : tensor<16x32xf16>) -> tensor<16x32xf16>
  %3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%2 : tensor<16x32xf16>) outs(%0 : tensor<16x32xf16>) {
  ^bb0(%in: f16, %out: f16):
    %e = math.exp %in : f16
    linalg.yield %e : f16
  } -> tensor<16x32xf16>
  return %3 : tensor<16x32xf16>
}
