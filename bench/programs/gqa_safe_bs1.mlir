// gqa_safe, bs = 1: group-query attention with a safe softmax (the max subtracted).
//   S = Q . K,  E = exp(S - reduce_max(S, dim 2))
//   O = (E / reduce_sum(E, dim 2)) . V
//   K is stored transposed ([.., 64, seq]); dim 0 is batch x kv-heads (2*bs),
//   dim 1 the 256 query rows of a group.
// Shapes (fp16): Q [2, 256, 64], K [2, 64, 4096], V [2, 4096, 64] -> O [2, 256, 64].
// The max subtraction is what every framework's softmax lowers to (fp16 exp
// overflows above ~11 without it); issue 11.
// Source: Mirage benchmark/group_query_attention.py; DESIGN.md section 8;
// mirage-study.md section 5.1.

func.func @gqa_safe(%Q: tensor<2x256x64xf16>, %K: tensor<2x64x4096xf16>, %V: tensor<2x4096x64xf16>) -> tensor<2x256x64xf16> {
  %s = mk.matmul %Q, %K : tensor<2x256x64xf16>, tensor<2x64x4096xf16> -> tensor<2x256x4096xf16>
  %m = mk.reduce_max %s dim = 2 : tensor<2x256x4096xf16> -> tensor<2x256x1xf16>
  %c = mk.sub %s, %m : tensor<2x256x4096xf16>, tensor<2x256x1xf16> -> tensor<2x256x4096xf16>
  %e = mk.exp %c : tensor<2x256x4096xf16>
  %d = mk.reduce_sum %e dim = 2 : tensor<2x256x4096xf16> -> tensor<2x256x1xf16>
  %p = mk.div %e, %d : tensor<2x256x4096xf16>, tensor<2x256x1xf16> -> tensor<2x256x4096xf16>
  %o = mk.matmul %p, %V : tensor<2x256x4096xf16>, tensor<2x4096x64xf16> -> tensor<2x256x64xf16>
  return %o : tensor<2x256x64xf16>
}
