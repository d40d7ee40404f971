// rmsnorm_matmul with a dynamic token count: O = rms_norm(X) . W.
// Shapes (fp16): X [tokens, 4096], W [4096, 6144] (bench/programs'
// rmsnorm_matmul_bs*.mlir with the batch dynamic).
func.func @rmsnorm_matmul(%X: tensor<?x4096xf16> {mk.sizes = [#mk.size<name = "tokens", max = 4096>]},
                          %W: tensor<4096x6144xf16>) -> tensor<?x6144xf16> {
  %n = mk.rms_norm %X eps = 1.0e-06 : tensor<?x4096xf16>
  %o = mk.matmul %n, %W : tensor<?x4096xf16>, tensor<4096x6144xf16> -> tensor<?x6144xf16>
  return %o : tensor<?x6144xf16>
}
