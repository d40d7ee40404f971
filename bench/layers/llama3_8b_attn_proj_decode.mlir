// llama3_8b_attn_proj_decode: the attention projections of a Llama-3-8B
// decoder layer at decode (8 tokens): RMSNorm of the input, then the Q, K and
// V projections of the same normalised input (grouped-query attention: 32
// query heads and 8 key/value heads of 128).
//   H = rms_norm(X, eps=1e-5) * w
//   Q = H . Wq,  K = H . Wk,  V = H . Wv
// Shapes (fp16): X [8, 4096], w [1, 4096], Wq [4096, 4096], Wk, Wv
// [4096, 1024] -> Q [8, 4096], K, V [8, 1024]. 5 mk ops; H has three
// consumers. The weighted RMSNorm is rms_norm then mul.
// Source: Llama-3-8B config; issue 10 item 7; DESIGN.md section 8.

func.func @llama3_8b_attn_proj_decode(%X: tensor<8x4096xf16>, %w: tensor<1x4096xf16>, %Wq: tensor<4096x4096xf16>, %Wk: tensor<4096x1024xf16>, %Wv: tensor<4096x1024xf16>) -> (tensor<8x4096xf16>, tensor<8x1024xf16>, tensor<8x1024xf16>) {
  %n = mk.rms_norm %X eps = 1.0e-05 : tensor<8x4096xf16>
  %h = mk.mul %n, %w : tensor<8x4096xf16>, tensor<1x4096xf16> -> tensor<8x4096xf16>
  %q = mk.matmul %h, %Wq : tensor<8x4096xf16>, tensor<4096x4096xf16> -> tensor<8x4096xf16>
  %k = mk.matmul %h, %Wk : tensor<8x4096xf16>, tensor<4096x1024xf16> -> tensor<8x1024xf16>
  %v = mk.matmul %h, %Wv : tensor<8x4096xf16>, tensor<4096x1024xf16> -> tensor<8x1024xf16>
  return %q, %k, %v : tensor<8x4096xf16>, tensor<8x1024xf16>, tensor<8x1024xf16>
}
