// gated_mlp: the gated MLP of a transformer block (no batch-size parameter).
//   O = silu(X . W1) * (X . W2)
// Shapes (fp16): X [8, 4096], W1 [4096, 4096], W2 [4096, 4096] -> O [8, 4096].
// Source: Mirage benchmark/gated_mlp.py (bs unused there); DESIGN.md section 8;
// mirage-study.md section 5.1.

func.func @gated_mlp(%X: tensor<8x4096xf16>, %W1: tensor<4096x4096xf16>, %W2: tensor<4096x4096xf16>) -> tensor<8x4096xf16> {
  %a = mk.matmul %X, %W1 : tensor<8x4096xf16>, tensor<4096x4096xf16> -> tensor<8x4096xf16>
  %b = mk.matmul %X, %W2 : tensor<8x4096xf16>, tensor<4096x4096xf16> -> tensor<8x4096xf16>
  %s = mk.silu %a : tensor<8x4096xf16>
  %o = mk.mul %s, %b : tensor<8x4096xf16>, tensor<8x4096xf16> -> tensor<8x4096xf16>
  return %o : tensor<8x4096xf16>
}
