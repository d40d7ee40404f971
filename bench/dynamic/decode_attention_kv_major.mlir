// Decode attention of one token over a KV cache stored as exports write
// it, one row per cached token: keys and values [kv, heads x d] (Llama-7B:
// 32 heads of 128, f16), the query [1, heads x d]. The head split of each
// is a layout op the search folds into the kernel's views
// (docs/dynamic.md "Views"); the key length is dynamic and walked by a
// '?' loop.
func.func @decode_attention_kv_major(%q: tensor<1x4096xf16>,
                                     %k: tensor<?x4096xf16> {mk.sizes = [#mk.size<name = "kv", max = 4096>]},
                                     %v: tensor<?x4096xf16>) -> tensor<1x4096xf16> {
  %q3 = mk.reshape %q : tensor<1x4096xf16> -> tensor<1x32x128xf16>
  %qh = mk.transpose %q3 perm = [1, 0, 2] : tensor<1x32x128xf16> -> tensor<32x1x128xf16>
  %k3 = mk.reshape %k : tensor<?x4096xf16> -> tensor<?x32x128xf16>
  %kt = mk.transpose %k3 perm = [1, 2, 0] : tensor<?x32x128xf16> -> tensor<32x128x?xf16>
  %v3 = mk.reshape %v : tensor<?x4096xf16> -> tensor<?x32x128xf16>
  %vh = mk.transpose %v3 perm = [1, 0, 2] : tensor<?x32x128xf16> -> tensor<32x?x128xf16>
  %s = mk.matmul %qh, %kt : tensor<32x1x128xf16>, tensor<32x128x?xf16> -> tensor<32x1x?xf16>
  %m = mk.reduce_max %s dim = 2 : tensor<32x1x?xf16> -> tensor<32x1x1xf16>
  %d = mk.sub %s, %m : tensor<32x1x?xf16>, tensor<32x1x1xf16> -> tensor<32x1x?xf16>
  %e = mk.exp %d : tensor<32x1x?xf16>
  %sum = mk.reduce_sum %e dim = 2 : tensor<32x1x?xf16> -> tensor<32x1x1xf16>
  %o = mk.matmul %e, %vh : tensor<32x1x?xf16>, tensor<32x?x128xf16> -> tensor<32x1x128xf16>
  %r = mk.div %o, %sum : tensor<32x1x128xf16>, tensor<32x1x1xf16> -> tensor<32x1x128xf16>
  %rt = mk.transpose %r perm = [1, 0, 2] : tensor<32x1x128xf16> -> tensor<1x32x128xf16>
  %out = mk.reshape %rt : tensor<1x32x128xf16> -> tensor<1x4096xf16>
  return %out : tensor<1x4096xf16>
}
