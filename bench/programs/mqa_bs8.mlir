// mqa, bs = 8: multi-query attention (softmax without the max subtraction).
//   O = (exp(Q . K) / reduce_sum(exp(Q . K), dim 2)) . V
//   dim 0 is the batch (bs); the 1024 query rows (16 heads x 64 rows) share one K/V.
// Shapes (fp16): Q [8, 1024, 64], K [8, 64, 4096], V [8, 4096, 64] -> O [8, 1024, 64].
// Source: Mirage benchmark/multi_query_attention.py; DESIGN.md section 8 (extras);
// mirage-study.md section 5.1.

func.func @mqa(%Q: tensor<8x1024x64xf16>, %K: tensor<8x64x4096xf16>, %V: tensor<8x4096x64xf16>) -> tensor<8x1024x64xf16> {
  %s = mk.matmul %Q, %K : tensor<8x1024x64xf16>, tensor<8x64x4096xf16> -> tensor<8x1024x4096xf16>
  %e = mk.exp %s : tensor<8x1024x4096xf16>
  %d = mk.reduce_sum %e dim = 2 : tensor<8x1024x4096xf16> -> tensor<8x1024x1xf16>
  %p = mk.div %e, %d : tensor<8x1024x4096xf16>, tensor<8x1024x1xf16> -> tensor<8x1024x4096xf16>
  %o = mk.matmul %p, %V : tensor<8x1024x4096xf16>, tensor<8x4096x64xf16> -> tensor<8x1024x64xf16>
  return %o : tensor<8x1024x64xf16>
}
