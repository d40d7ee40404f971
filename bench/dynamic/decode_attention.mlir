// Decode attention of one token over a dynamic key length (Llama-7B: 32
// heads of 128, f16): scores, softmax with its maximum, values. The key
// length grows every step; the search walks it with a '?' loop whose last
// trip's tail is masked (docs/dynamic.md "The walked tail").
func.func @decode_attention(%q: tensor<32x1x128xf16>,
                            %k: tensor<32x?x128xf16> {mk.sizes = [#mk.size<name = "kv", max = 4096>]},
                            %v: tensor<32x?x128xf16>) -> tensor<32x1x128xf16> {
  %kt = mk.transpose %k perm = [0, 2, 1] : tensor<32x?x128xf16> -> tensor<32x128x?xf16>
  %s = mk.matmul %q, %kt : tensor<32x1x128xf16>, tensor<32x128x?xf16> -> tensor<32x1x?xf16>
  %m = mk.reduce_max %s dim = 2 : tensor<32x1x?xf16> -> tensor<32x1x1xf16>
  %d = mk.sub %s, %m : tensor<32x1x?xf16>, tensor<32x1x1xf16> -> tensor<32x1x?xf16>
  %e = mk.exp %d : tensor<32x1x?xf16>
  %sum = mk.reduce_sum %e dim = 2 : tensor<32x1x?xf16> -> tensor<32x1x1xf16>
  %o = mk.matmul %e, %v : tensor<32x1x?xf16>, tensor<32x?x128xf16> -> tensor<32x1x128xf16>
  %r = mk.div %o, %sum : tensor<32x1x128xf16>, tensor<32x1x1xf16> -> tensor<32x1x128xf16>
  return %r : tensor<32x1x128xf16>
}
