// mha_safe, bs = 1: multi-head attention with a safe softmax (the max subtracted).
//   S = Q . K,  E = exp(S - reduce_max(S, dim 2))
//   O = (E / reduce_sum(E, dim 2)) . V
//   dim 0 is batch x heads (32*bs), 16 query rows per head, K stored transposed.
// Shapes (fp16): Q [32, 16, 64], K [32, 64, 4096], V [32, 4096, 64] -> O [32, 16, 64].
// The max subtraction is what every framework's softmax lowers to (fp16 exp
// overflows above ~11 without it); issue 11.
// Source: Mirage benchmark/multi_head_attention.py; DESIGN.md section 8 (extras);
// mirage-study.md section 5.1.

func.func @mha_safe(%Q: tensor<32x16x64xf16>, %K: tensor<32x64x4096xf16>, %V: tensor<32x4096x64xf16>) -> tensor<32x16x64xf16> {
  %s = mk.matmul %Q, %K : tensor<32x16x64xf16>, tensor<32x64x4096xf16> -> tensor<32x16x4096xf16>
  %m = mk.reduce_max %s dim = 2 : tensor<32x16x4096xf16> -> tensor<32x16x1xf16>
  %c = mk.sub %s, %m : tensor<32x16x4096xf16>, tensor<32x16x1xf16> -> tensor<32x16x4096xf16>
  %e = mk.exp %c : tensor<32x16x4096xf16>
  %d = mk.reduce_sum %e dim = 2 : tensor<32x16x4096xf16> -> tensor<32x16x1xf16>
  %p = mk.div %e, %d : tensor<32x16x4096xf16>, tensor<32x16x1xf16> -> tensor<32x16x4096xf16>
  %o = mk.matmul %p, %V : tensor<32x16x4096xf16>, tensor<32x4096x64xf16> -> tensor<32x16x64xf16>
  return %o : tensor<32x16x64xf16>
}
