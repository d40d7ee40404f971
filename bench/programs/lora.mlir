// lora: a linear layer with a low-rank (rank 16) adapter (no batch-size parameter).
//   O = X . W + (X . A) . B
// Shapes (fp16): X [16, 256], W [256, 4096], A [256, 16], B [16, 4096] -> O [16, 4096].
// Source: Mirage benchmark/lora.py; DESIGN.md section 8; mirage-study.md section 5.1.

func.func @lora(%X: tensor<16x256xf16>, %W: tensor<256x4096xf16>, %A: tensor<256x16xf16>, %B: tensor<16x4096xf16>) -> tensor<16x4096xf16> {
  %xw = mk.matmul %X, %W : tensor<16x256xf16>, tensor<256x4096xf16> -> tensor<16x4096xf16>
  %xa = mk.matmul %X, %A : tensor<16x256xf16>, tensor<256x16xf16> -> tensor<16x16xf16>
  %xab = mk.matmul %xa, %B : tensor<16x16xf16>, tensor<16x4096xf16> -> tensor<16x4096xf16>
  %o = mk.add %xw, %xab : tensor<16x4096xf16>, tensor<16x4096xf16> -> tensor<16x4096xf16>
  return %o : tensor<16x4096xf16>
}
