// layernorm_matmul: LayerNorm (mean and variance over a row, affine weight and
// bias) followed by a matmul, for 16 tokens of a 4096-wide model.
//   mu = sum(X, 1) / 4096,  C = X - mu,  var = sum(C^2, 1) / 4096
//   O  = (C / sqrt(var + 1e-5) * gamma + beta) . W
// Shapes (fp16): X [16, 4096], gamma, beta [1, 4096], W [4096, 4096] -> O [16, 4096].
// 12 mk ops: there is no layer_norm op, so the LayerNorm is composed as
// torch.nn.LayerNorm decomposes it (reduce_sum, mul_scalar, sub, square,
// add_scalar, sqrt, div; the centred variance, not E[x^2] - E[x]^2).
// Source: issue 11 item 4; DESIGN.md section 8 (safe-softmax variants and
// layernorm_matmul).

func.func @layernorm_matmul(%X: tensor<16x4096xf16>, %gamma: tensor<1x4096xf16>, %beta: tensor<1x4096xf16>, %W: tensor<4096x4096xf16>) -> tensor<16x4096xf16> {
  %s = mk.reduce_sum %X dim = 1 : tensor<16x4096xf16> -> tensor<16x1xf16>
  %mu = mk.mul_scalar %s, 0.000244140625 : tensor<16x1xf16>
  %c = mk.sub %X, %mu : tensor<16x4096xf16>, tensor<16x1xf16> -> tensor<16x4096xf16>
  %c2 = mk.square %c : tensor<16x4096xf16>
  %s2 = mk.reduce_sum %c2 dim = 1 : tensor<16x4096xf16> -> tensor<16x1xf16>
  %var = mk.mul_scalar %s2, 0.000244140625 : tensor<16x1xf16>
  %ve = mk.add_scalar %var, 1.0e-05 : tensor<16x1xf16>
  %sd = mk.sqrt %ve : tensor<16x1xf16>
  %n = mk.div %c, %sd : tensor<16x4096xf16>, tensor<16x1xf16> -> tensor<16x4096xf16>
  %ng = mk.mul %n, %gamma : tensor<16x4096xf16>, tensor<1x4096xf16> -> tensor<16x4096xf16>
  %nb = mk.add %ng, %beta : tensor<16x4096xf16>, tensor<1x4096xf16> -> tensor<16x4096xf16>
  %o = mk.matmul %nb, %W : tensor<16x4096xf16>, tensor<4096x4096xf16> -> tensor<16x4096xf16>
  return %o : tensor<16x4096xf16>
}
