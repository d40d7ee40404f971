// An mk program for standalone-capi: a matmul followed by an exp.
func.func @matmul_exp(%a: tensor<16x64xf16>, %b: tensor<64x32xf16>) -> tensor<16x32xf16> {
  %m = mk.matmul %a, %b : tensor<16x64xf16>, tensor<64x32xf16> -> tensor<16x32xf16>
  %e = mk.exp %m : tensor<16x32xf16>
  return %e : tensor<16x32xf16>
}
