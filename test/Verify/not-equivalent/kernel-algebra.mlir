// Kernel-level near misses: each candidate differs from its reference by one
// small mistake and is rejected with a counterexample.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @rms_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %n = mk.rms_norm %x eps = 1.0e-6 : tensor<4x8xf32>
  return %n : tensor<4x8xf32>
}
// Missing rms epsilon.
// expected-error @below {{not equivalent to @rms_ref: output #0 element [}}
func.func @rms_no_eps(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @rms_ref} {
  %sq = mk.square %x : tensor<4x8xf32>
  %s = mk.reduce_sum %sq dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %m = mk.mul_scalar %s, 0.125 : tensor<4x1xf32>
  %r = mk.sqrt %m : tensor<4x1xf32>
  %y = mk.div %x, %r : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
// Off by one: the mean divides by n - 1.
// expected-error @below {{not equivalent to @rms_ref: output #0 element [}}
func.func @rms_off_by_one(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @rms_ref} {
  %sq = mk.square %x : tensor<4x8xf32>
  %s = mk.reduce_sum %sq dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %m = mk.mul_scalar %s, 0.14285714285714285 : tensor<4x1xf32>
  %e = mk.add_scalar %m, 1.0e-6 : tensor<4x1xf32>
  %r = mk.sqrt %e : tensor<4x1xf32>
  %y = mk.div %x, %r : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
// A different epsilon.
// expected-error @below {{not equivalent to @rms_ref: output #0 element [}}
func.func @rms_wrong_eps(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @rms_ref} {
  %n = mk.rms_norm %x eps = 1.0e-5 : tensor<4x8xf32>
  return %n : tensor<4x8xf32>
}

func.func @sum_ref(%x: tensor<4x4xf32>) -> tensor<4x1xf32> {
  %s = mk.reduce_sum %x dim = 1 : tensor<4x4xf32> -> tensor<4x1xf32>
  return %s : tensor<4x1xf32>
}
// Sum over the wrong dim (square input, transposed result).
// expected-error @below {{not equivalent to @sum_ref: output #0 element [}}
func.func @sum_wrong_dim(%x: tensor<4x4xf32>) -> tensor<4x1xf32> attributes {mk.reference = @sum_ref} {
  %s = mk.reduce_sum %x dim = 0 : tensor<4x4xf32> -> tensor<1x4xf32>
  %t = mk.transpose %s perm = [1, 0] : tensor<1x4xf32> -> tensor<4x1xf32>
  return %t : tensor<4x1xf32>
}

func.func @mm_ref(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %y = mk.matmul %x, %w : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
// A transposed square weight.
// expected-error @below {{not equivalent to @mm_ref: output #0 element [}}
func.func @mm_transposed(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @mm_ref} {
  %t = mk.transpose %w perm = [1, 0] : tensor<8x8xf32> -> tensor<8x8xf32>
  %y = mk.matmul %x, %t : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

func.func @div_ref(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %d = mk.div %a, %b : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %d : tensor<4x8xf32>
}
// Swapped div operands.
// expected-error @below {{not equivalent to @div_ref: output #0 element [}}
func.func @div_swapped(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @div_ref} {
  %d = mk.div %b, %a : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %d : tensor<4x8xf32>
}

func.func @softmax_ref(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %e = mk.exp %x : tensor<4x4xf32>
  %s = mk.reduce_sum %e dim = 1 : tensor<4x4xf32> -> tensor<4x1xf32>
  %p = mk.div %e, %s : tensor<4x4xf32>, tensor<4x1xf32> -> tensor<4x4xf32>
  return %p : tensor<4x4xf32>
}
// Softmax normalised over the wrong dim.
// expected-error @below {{not equivalent to @softmax_ref: output #0 element [}}
func.func @softmax_wrong_dim(%x: tensor<4x4xf32>) -> tensor<4x4xf32> attributes {mk.reference = @softmax_ref} {
  %e = mk.exp %x : tensor<4x4xf32>
  %s = mk.reduce_sum %e dim = 0 : tensor<4x4xf32> -> tensor<1x4xf32>
  %p = mk.div %e, %s : tensor<4x4xf32>, tensor<1x4xf32> -> tensor<4x4xf32>
  return %p : tensor<4x4xf32>
}

func.func @silu_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = mk.silu %x : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}
// x * sigmoid(-x) instead of x * sigmoid(x).
// expected-error @below {{not equivalent to @silu_ref: output #0 element [}}
func.func @silu_wrong_sign(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @silu_ref} {
  %n = mk.neg %x : tensor<4x8xf32>
  %g = mk.sigmoid %n : tensor<4x8xf32>
  %s = mk.mul %x, %g : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}
// gelu instead of silu.
// expected-error @below {{not equivalent to @silu_ref: output #0 element [}}
func.func @silu_gelu(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @silu_ref} {
  %s = mk.gelu %x : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

func.func @relu_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = mk.relu %x : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
// A missing relu.
// expected-error @below {{not equivalent to @relu_ref: output #0 element [}}
func.func @relu_missing(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @relu_ref} {
  %r = mk.neg %x : tensor<4x8xf32>
  %s = mk.neg %r : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

func.func @clamp_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c = mk.clamp %x min = -1.0 max = 1.0 : tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}
// Different clamp bounds.
// expected-error @below {{not equivalent to @clamp_ref: output #0 element [}}
func.func @clamp_bounds(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @clamp_ref} {
  %c = mk.clamp %x min = -2.0 max = 2.0 : tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

func.func @concat_ref(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x8xf32> {
  %c = mk.concat %a, %b dim = 1 : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}
// Concatenation in the wrong order.
// expected-error @below {{not equivalent to @concat_ref: output #0 element [0, 0]}}
func.func @concat_order(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x8xf32> attributes {mk.reference = @concat_ref} {
  %c = mk.concat %b, %a dim = 1 : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

func.func @perm_ref(%x: tensor<3x3x3xf32>) -> tensor<3x3x3xf32> {
  %t = mk.transpose %x perm = [1, 0, 2] : tensor<3x3x3xf32> -> tensor<3x3x3xf32>
  return %t : tensor<3x3x3xf32>
}
// A wrong permutation with the same result type.
// expected-error @below {{not equivalent to @perm_ref: output #0 element [}}
func.func @perm_wrong(%x: tensor<3x3x3xf32>) -> tensor<3x3x3xf32> attributes {mk.reference = @perm_ref} {
  %t = mk.transpose %x perm = [2, 1, 0] : tensor<3x3x3xf32> -> tensor<3x3x3xf32>
  return %t : tensor<3x3x3xf32>
}

func.func @exp_ref(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = mk.add %a, %b : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %e = mk.exp %s : tensor<4x8xf32>
  return %e : tensor<4x8xf32>
}
// exp(a + b) is not exp(a) + exp(b).
// expected-error @below {{not equivalent to @exp_ref: output #0 element [}}
func.func @exp_sum(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @exp_ref} {
  %ea = mk.exp %a : tensor<4x8xf32>
  %eb = mk.exp %b : tensor<4x8xf32>
  %e = mk.add %ea, %eb : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %e : tensor<4x8xf32>
}

func.func @pow_ref(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %p = mk.pow %a, %b : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}
// Swapped pow operands.
// expected-error @below {{not equivalent to @pow_ref: output #0 element [}}
func.func @pow_swapped(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @pow_ref} {
  %p = mk.pow %b, %a : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}

func.func @assoc_ref(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %ab = mk.matmul %a, %b : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  %r = mk.matmul %ab, %c : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
// Matmul does not commute: (A C) B.
// expected-error @below {{not equivalent to @assoc_ref: output #0 element [}}
func.func @assoc_commuted(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> attributes {mk.reference = @assoc_ref} {
  %ac = mk.matmul %a, %c : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  %r = mk.matmul %ac, %b : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

func.func @two_ref(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %s = mk.add %x, %y : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %d = mk.sub %x, %y : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %s, %d : tensor<4x8xf32>, tensor<4x8xf32>
}
// The second output differs: the counterexample names output #1.
// expected-error @below {{not equivalent to @two_ref: output #1 element [}}
func.func @two_second_wrong(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) attributes {mk.reference = @two_ref} {
  %s = mk.add %y, %x : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %d = mk.sub %y, %x : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %s, %d : tensor<4x8xf32>, tensor<4x8xf32>
}
