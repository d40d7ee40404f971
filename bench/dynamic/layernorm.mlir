// LayerNorm over the hidden dim with a dynamic token count, written in mk
// ops as an import gives it: Y = (X - mean) * rsqrt(var + eps) * G + B.
// Shapes (fp16): X [tokens, 4096], G, B [1, 4096].
func.func @layernorm(%X: tensor<?x4096xf16> {mk.sizes = [#mk.size<name = "tokens", max = 4096>]},
                     %G: tensor<1x4096xf16>, %B: tensor<1x4096xf16>) -> tensor<?x4096xf16> {
  %s = mk.reduce_sum %X dim = 1 : tensor<?x4096xf16> -> tensor<?x1xf16>
  %m = mk.mul_scalar %s, 2.44140625e-04 : tensor<?x1xf16>
  %c = mk.sub %X, %m : tensor<?x4096xf16>, tensor<?x1xf16> -> tensor<?x4096xf16>
  %q = mk.mul %c, %c : tensor<?x4096xf16>, tensor<?x4096xf16> -> tensor<?x4096xf16>
  %v = mk.reduce_sum %q dim = 1 : tensor<?x4096xf16> -> tensor<?x1xf16>
  %w = mk.mul_scalar %v, 2.44140625e-04 : tensor<?x1xf16>
  %e = mk.add_scalar %w, 1.0e-05 : tensor<?x1xf16>
  %r = mk.rsqrt %e : tensor<?x1xf16>
  %n = mk.mul %c, %r : tensor<?x4096xf16>, tensor<?x1xf16> -> tensor<?x4096xf16>
  %g = mk.mul %n, %G : tensor<?x4096xf16>, tensor<1x4096xf16> -> tensor<?x4096xf16>
  %o = mk.add %g, %B : tensor<?x4096xf16>, tensor<1x4096xf16> -> tensor<?x4096xf16>
  return %o : tensor<?x4096xf16>
}
