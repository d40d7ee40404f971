// llama3_8b_mlp_decode: the MLP half of a Llama-3-8B decoder layer at decode
// (8 tokens), with its RMSNorm and the residual.
//   H = rms_norm(X, eps=1e-5) * w
//   O = (silu(H . Wg) * (H . Wu)) . Wd + X
// Shapes (fp16): X [8, 4096], w [1, 4096], Wg, Wu [4096, 14336],
// Wd [14336, 4096] -> O [8, 4096]. 8 mk ops; the weighted RMSNorm is written
// as rms_norm then mul (the search does not take rms_norm's weight operand).
// Source: Llama-3-8B config (hidden 4096, intermediate 14336, rms_norm_eps
// 1e-5); issue 10 item 7; DESIGN.md section 8 (layer benchmarks).

func.func @llama3_8b_mlp_decode(%X: tensor<8x4096xf16>, %w: tensor<1x4096xf16>, %Wg: tensor<4096x14336xf16>, %Wu: tensor<4096x14336xf16>, %Wd: tensor<14336x4096xf16>) -> tensor<8x4096xf16> {
  %n = mk.rms_norm %X eps = 1.0e-05 : tensor<8x4096xf16>
  %h = mk.mul %n, %w : tensor<8x4096xf16>, tensor<1x4096xf16> -> tensor<8x4096xf16>
  %g = mk.matmul %h, %Wg : tensor<8x4096xf16>, tensor<4096x14336xf16> -> tensor<8x14336xf16>
  %u = mk.matmul %h, %Wu : tensor<8x4096xf16>, tensor<4096x14336xf16> -> tensor<8x14336xf16>
  %s = mk.silu %g : tensor<8x14336xf16>
  %p = mk.mul %s, %u : tensor<8x14336xf16>, tensor<8x14336xf16> -> tensor<8x14336xf16>
  %d = mk.matmul %p, %Wd : tensor<8x14336xf16>, tensor<14336x4096xf16> -> tensor<8x4096xf16>
  %o = mk.add %d, %X : tensor<8x4096xf16>, tensor<8x4096xf16> -> tensor<8x4096xf16>
  return %o : tensor<8x4096xf16>
}
