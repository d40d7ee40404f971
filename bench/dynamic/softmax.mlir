// Row softmax with a dynamic row count (attention scores of a dynamic
// number of queries over 4096 keys), the max subtracted first.
// Shapes (fp16): S [rows, 4096].
func.func @softmax(%S: tensor<?x4096xf16> {mk.sizes = [#mk.size<name = "tokens", max = 4096>]}) -> tensor<?x4096xf16> {
  %m = mk.reduce_max %S dim = 1 : tensor<?x4096xf16> -> tensor<?x1xf16>
  %d = mk.sub %S, %m : tensor<?x4096xf16>, tensor<?x1xf16> -> tensor<?x4096xf16>
  %e = mk.exp %d : tensor<?x4096xf16>
  %s = mk.reduce_sum %e dim = 1 : tensor<?x4096xf16> -> tensor<?x1xf16>
  %o = mk.div %e, %s : tensor<?x4096xf16>, tensor<?x1xf16> -> tensor<?x4096xf16>
  return %o : tensor<?x4096xf16>
}
