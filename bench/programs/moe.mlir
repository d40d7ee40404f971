// moe: a mixture-of-experts layer body, 8 experts batched over dim 0 (no bs parameter).
//   O = exp(X . A) . B   (batched matmuls over the expert dim)
// Shapes (fp16): X [8, 8, 4096], A [8, 4096, 4096], B [8, 4096, 4096] -> O [8, 8, 4096].
// Source: Mirage benchmark/moe.py; DESIGN.md section 8 (extras); mirage-study.md section 5.1.

func.func @moe(%X: tensor<8x8x4096xf16>, %A: tensor<8x4096x4096xf16>, %B: tensor<8x4096x4096xf16>) -> tensor<8x8x4096xf16> {
  %h = mk.matmul %X, %A : tensor<8x8x4096xf16>, tensor<8x4096x4096xf16> -> tensor<8x8x4096xf16>
  %e = mk.exp %h : tensor<8x8x4096xf16>
  %o = mk.matmul %e, %B : tensor<8x8x4096xf16>, tensor<8x4096x4096xf16> -> tensor<8x8x4096xf16>
  return %o : tensor<8x8x4096xf16>
}
