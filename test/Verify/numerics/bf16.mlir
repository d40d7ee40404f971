// The numerics check follows the element type: in bf16 (8 exponent bits)
// exp(30) does not overflow, so the max-free softmax stays accurate on
// logits of magnitude 30 and fails only on the large logits (|x| up to 100,
// exp above bf16's and f32's range).
// RUN: mirage-opt --mirage-check-equivalence="numerics=1" %s -verify-diagnostics -o /dev/null

func.func @softmax_ref(%x: tensor<4x64xbf16>) -> tensor<4x64xbf16> {
  %m = mk.reduce_max %x dim = 1 : tensor<4x64xbf16> -> tensor<4x1xbf16>
  %d = mk.sub %x, %m : tensor<4x64xbf16>, tensor<4x1xbf16> -> tensor<4x64xbf16>
  %e = mk.exp %d : tensor<4x64xbf16>
  %s = mk.reduce_sum %e dim = 1 : tensor<4x64xbf16> -> tensor<4x1xbf16>
  %p = mk.div %e, %s : tensor<4x64xbf16>, tensor<4x1xbf16> -> tensor<4x64xbf16>
  return %p : tensor<4x64xbf16>
}

// expected-error @below {{bf16 numerics: rejected on large-logits inputs: output #0 error inf}}
func.func @softmax_nomax(%x: tensor<4x64xbf16>) -> tensor<4x64xbf16> attributes {mk.reference = @softmax_ref} {
  %e = mk.exp %x : tensor<4x64xbf16>
  %s = mk.reduce_sum %e dim = 1 : tensor<4x64xbf16> -> tensor<4x1xbf16>
  %p = mk.div %e, %s : tensor<4x64xbf16>, tensor<4x1xbf16> -> tensor<4x64xbf16>
  return %p : tensor<4x64xbf16>
}
