// gated_mlp with a dynamic token count: O = silu(X . W1) * (X . W2).
// Shapes (fp16): X [tokens, 4096], W1, W2 [4096, 4096] (bench/programs'
// gated_mlp.mlir with the rows dynamic).
func.func @gated_mlp(%X: tensor<?x4096xf16> {mk.sizes = [#mk.size<name = "tokens", max = 4096>]},
                     %W1: tensor<4096x4096xf16>, %W2: tensor<4096x4096xf16>) -> tensor<?x4096xf16> {
  %a = mk.matmul %X, %W1 : tensor<?x4096xf16>, tensor<4096x4096xf16> -> tensor<?x4096xf16>
  %b = mk.matmul %X, %W2 : tensor<?x4096xf16>, tensor<4096x4096xf16> -> tensor<?x4096xf16>
  %s = mk.silu %a : tensor<?x4096xf16>
  %o = mk.mul %s, %b : tensor<?x4096xf16>, tensor<?x4096xf16> -> tensor<?x4096xf16>
  return %o : tensor<?x4096xf16>
}
