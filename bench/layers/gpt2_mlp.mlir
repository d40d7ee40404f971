// gpt2_mlp: the MLP block of a GPT-2 (small) layer for 16 tokens, with its
// LayerNorm and the residual.
//   mu  = sum(X, 1) / 768,  C = X - mu,  var = sum(C^2, 1) / 768
//   N   = C / sqrt(var + 1e-5) * gamma + beta
//   O   = gelu(N . W1 + b1) . W2 + b2 + X
// Shapes (fp16): X [16, 768], gamma, beta [1, 768], W1 [768, 3072],
// b1 [1, 3072], W2 [3072, 768], b2 [1, 768] -> O [16, 768]. 17 mk ops: the
// LayerNorm is composed of reduce_sum, mul_scalar, sub, square, add_scalar,
// sqrt and div (there is no layer_norm op); gelu is mk.gelu (tanh form).
// Source: GPT-2 config (n_embd 768, 4x MLP, layer_norm_epsilon 1e-5);
// issue 10 item 7; DESIGN.md section 8.

func.func @gpt2_mlp(%X: tensor<16x768xf16>, %gamma: tensor<1x768xf16>, %beta: tensor<1x768xf16>, %W1: tensor<768x3072xf16>, %b1: tensor<1x3072xf16>, %W2: tensor<3072x768xf16>, %b2: tensor<1x768xf16>) -> tensor<16x768xf16> {
  %s = mk.reduce_sum %X dim = 1 : tensor<16x768xf16> -> tensor<16x1xf16>
  %mu = mk.mul_scalar %s, 0.00130208333333333333 : tensor<16x1xf16>
  %c = mk.sub %X, %mu : tensor<16x768xf16>, tensor<16x1xf16> -> tensor<16x768xf16>
  %c2 = mk.square %c : tensor<16x768xf16>
  %s2 = mk.reduce_sum %c2 dim = 1 : tensor<16x768xf16> -> tensor<16x1xf16>
  %var = mk.mul_scalar %s2, 0.00130208333333333333 : tensor<16x1xf16>
  %ve = mk.add_scalar %var, 1.0e-05 : tensor<16x1xf16>
  %sd = mk.sqrt %ve : tensor<16x1xf16>
  %n = mk.div %c, %sd : tensor<16x768xf16>, tensor<16x1xf16> -> tensor<16x768xf16>
  %ng = mk.mul %n, %gamma : tensor<16x768xf16>, tensor<1x768xf16> -> tensor<16x768xf16>
  %nb = mk.add %ng, %beta : tensor<16x768xf16>, tensor<1x768xf16> -> tensor<16x768xf16>
  %h = mk.matmul %nb, %W1 : tensor<16x768xf16>, tensor<768x3072xf16> -> tensor<16x3072xf16>
  %hb = mk.add %h, %b1 : tensor<16x3072xf16>, tensor<1x3072xf16> -> tensor<16x3072xf16>
  %g = mk.gelu %hb : tensor<16x3072xf16>
  %o = mk.matmul %g, %W2 : tensor<16x3072xf16>, tensor<3072x768xf16> -> tensor<16x768xf16>
  %ob = mk.add %o, %b2 : tensor<16x768xf16>, tensor<1x768xf16> -> tensor<16x768xf16>
  %r = mk.add %ob, %X : tensor<16x768xf16>, tensor<16x768xf16> -> tensor<16x768xf16>
  return %r : tensor<16x768xf16>
}
