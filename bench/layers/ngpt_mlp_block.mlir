// ngpt_mlp_block: the MLP half of an nGPT block (Loshchilov et al., "nGPT:
// Normalized Transformer with Representation Learning on the Hypersphere",
// 2024), 16 tokens, model dim 2048, MLP dim 5632 (fp16):
//   u = (H . Wu) * s_u,  v = (H . Wv) * s_v     (s_v holds the sqrt(d) factor)
//   M = (u * silu(v)) . Wo
//   O = norm(H + alpha * (norm(M) - H))
// with norm as rms_norm (eps 1e-6), as ntrans writes it (DESIGN.md section
// 8). Shapes: H [16, 2048], Wu, Wv [2048, 5632], s_u, s_v [1, 5632],
// Wo [5632, 2048], alpha [1, 2048] -> O [16, 2048]. 12 mk ops.
// Source: issue 10 item 7 (layer benchmarks).

func.func @ngpt_mlp_block(%H: tensor<16x2048xf16>, %Wu: tensor<2048x5632xf16>, %Wv: tensor<2048x5632xf16>, %su: tensor<1x5632xf16>, %sv: tensor<1x5632xf16>, %Wo: tensor<5632x2048xf16>, %alpha: tensor<1x2048xf16>) -> tensor<16x2048xf16> {
  %u0 = mk.matmul %H, %Wu : tensor<16x2048xf16>, tensor<2048x5632xf16> -> tensor<16x5632xf16>
  %u = mk.mul %u0, %su : tensor<16x5632xf16>, tensor<1x5632xf16> -> tensor<16x5632xf16>
  %v0 = mk.matmul %H, %Wv : tensor<16x2048xf16>, tensor<2048x5632xf16> -> tensor<16x5632xf16>
  %v = mk.mul %v0, %sv : tensor<16x5632xf16>, tensor<1x5632xf16> -> tensor<16x5632xf16>
  %g = mk.silu %v : tensor<16x5632xf16>
  %p = mk.mul %u, %g : tensor<16x5632xf16>, tensor<16x5632xf16> -> tensor<16x5632xf16>
  %m = mk.matmul %p, %Wo : tensor<16x5632xf16>, tensor<5632x2048xf16> -> tensor<16x2048xf16>
  %mn = mk.rms_norm %m eps = 1.0e-06 : tensor<16x2048xf16>
  %d = mk.sub %mn, %H : tensor<16x2048xf16>, tensor<16x2048xf16> -> tensor<16x2048xf16>
  %ad = mk.mul %alpha, %d : tensor<1x2048xf16>, tensor<16x2048xf16> -> tensor<16x2048xf16>
  %y = mk.add %H, %ad : tensor<16x2048xf16>, tensor<16x2048xf16> -> tensor<16x2048xf16>
  %o = mk.rms_norm %y eps = 1.0e-06 : tensor<16x2048xf16>
  return %o : tensor<16x2048xf16>
}
