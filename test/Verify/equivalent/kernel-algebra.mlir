// Kernel-level rewrites that preserve the real-number semantics; every pair is
// reported equivalent.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

// Scaling by 2 is adding a value to itself.
func.func @scale_ref(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %m = mk.matmul %x, %w : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  %s = mk.mul_scalar %m, 2.0 : tensor<4x4xf32>
  return %s : tensor<4x4xf32>
}
// expected-remark @below {{equivalent to @scale_ref (4 tests, P(false equivalent) <= }}
func.func @scale(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>) -> tensor<4x4xf32> attributes {mk.reference = @scale_ref} {
  %m = mk.matmul %x, %w : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  %s = mk.add %m, %m : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  return %s : tensor<4x4xf32>
}

// rms_norm is x / sqrt(mean(x^2) + eps).
func.func @rms_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %n = mk.rms_norm %x eps = 1.0e-6 : tensor<4x8xf32>
  return %n : tensor<4x8xf32>
}
// expected-remark @below {{equivalent to @rms_ref}}
func.func @rms(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @rms_ref} {
  %sq = mk.square %x : tensor<4x8xf32>
  %s = mk.reduce_sum %sq dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %m = mk.mul_scalar %s, 0.125 : tensor<4x1xf32>
  %e = mk.add_scalar %m, 1.0e-6 : tensor<4x1xf32>
  %r = mk.sqrt %e : tensor<4x1xf32>
  %y = mk.div %x, %r : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// The RMSNorm+MatMul rewrite: the 1/rms scale moves after the matmul.
func.func @rms_mm_ref(%x: tensor<2x8xf32>, %w: tensor<8x6xf32>) -> tensor<2x6xf32> {
  %n = mk.rms_norm %x eps = 1.0e-6 : tensor<2x8xf32>
  %y = mk.matmul %n, %w : tensor<2x8xf32>, tensor<8x6xf32> -> tensor<2x6xf32>
  return %y : tensor<2x6xf32>
}
// expected-remark @below {{equivalent to @rms_mm_ref}}
func.func @rms_mm(%x: tensor<2x8xf32>, %w: tensor<8x6xf32>) -> tensor<2x6xf32> attributes {mk.reference = @rms_mm_ref} {
  %m = mk.matmul %x, %w : tensor<2x8xf32>, tensor<8x6xf32> -> tensor<2x6xf32>
  %sq = mk.square %x : tensor<2x8xf32>
  %s = mk.reduce_sum %sq dim = 1 : tensor<2x8xf32> -> tensor<2x1xf32>
  %mean = mk.mul_scalar %s, 0.125 : tensor<2x1xf32>
  %e = mk.add_scalar %mean, 1.0e-6 : tensor<2x1xf32>
  %r = mk.rsqrt %e : tensor<2x1xf32>
  %y = mk.mul %m, %r : tensor<2x6xf32>, tensor<2x1xf32> -> tensor<2x6xf32>
  return %y : tensor<2x6xf32>
}

// Matmul is associative.
func.func @assoc_ref(%a: tensor<4x6xf32>, %b: tensor<6x5xf32>, %c: tensor<5x3xf32>) -> tensor<4x3xf32> {
  %ab = mk.matmul %a, %b : tensor<4x6xf32>, tensor<6x5xf32> -> tensor<4x5xf32>
  %r = mk.matmul %ab, %c : tensor<4x5xf32>, tensor<5x3xf32> -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
// expected-remark @below {{equivalent to @assoc_ref}}
func.func @assoc(%a: tensor<4x6xf32>, %b: tensor<6x5xf32>, %c: tensor<5x3xf32>) -> tensor<4x3xf32> attributes {mk.reference = @assoc_ref} {
  %bc = mk.matmul %b, %c : tensor<6x5xf32>, tensor<5x3xf32> -> tensor<6x3xf32>
  %r = mk.matmul %a, %bc : tensor<4x6xf32>, tensor<6x3xf32> -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

// Matmul distributes over addition.
func.func @distrib_ref(%x: tensor<4x8xf32>, %w1: tensor<8x4xf32>, %w2: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %a = mk.matmul %x, %w1 : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  %b = mk.matmul %x, %w2 : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  %s = mk.add %a, %b : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  return %s : tensor<4x4xf32>
}
// expected-remark @below {{equivalent to @distrib_ref}}
func.func @distrib(%x: tensor<4x8xf32>, %w1: tensor<8x4xf32>, %w2: tensor<8x4xf32>) -> tensor<4x4xf32> attributes {mk.reference = @distrib_ref} {
  %w = mk.add %w1, %w2 : tensor<8x4xf32>, tensor<8x4xf32> -> tensor<8x4xf32>
  %s = mk.matmul %x, %w : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  return %s : tensor<4x4xf32>
}

// Two transposes that compose to the identity.
func.func @perm_ref(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %n = mk.neg %x : tensor<2x3x4xf32>
  return %n : tensor<2x3x4xf32>
}
// expected-remark @below {{equivalent to @perm_ref}}
func.func @perm(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> attributes {mk.reference = @perm_ref} {
  %t = mk.transpose %x perm = [2, 0, 1] : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  %n = mk.neg %t : tensor<4x2x3xf32>
  %u = mk.transpose %n perm = [1, 2, 0] : tensor<4x2x3xf32> -> tensor<2x3x4xf32>
  return %u : tensor<2x3x4xf32>
}

// Softmax with the maximum subtracted (numerically stable form).
func.func @softmax_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = mk.exp %x : tensor<4x8xf32>
  %s = mk.reduce_sum %e dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %p = mk.div %e, %s : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}
// expected-remark @below {{equivalent to @softmax_ref}}
func.func @softmax(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @softmax_ref} {
  %m = mk.reduce_max %x dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %d = mk.sub %x, %m : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  %e = mk.exp %d : tensor<4x8xf32>
  %s = mk.reduce_sum %e dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %p = mk.div %e, %s : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}

// silu(x) = x * sigmoid(x).
func.func @silu_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = mk.silu %x : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}
// expected-remark @below {{equivalent to @silu_ref}}
func.func @silu(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @silu_ref} {
  %g = mk.sigmoid %x : tensor<4x8xf32>
  %s = mk.mul %x, %g : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// sigmoid(x) = 1 - sigmoid(-x).
func.func @sigmoid_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = mk.sigmoid %x : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}
// expected-remark @below {{equivalent to @sigmoid_ref}}
func.func @sigmoid(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @sigmoid_ref} {
  %n = mk.neg %x : tensor<4x8xf32>
  %g = mk.sigmoid %n : tensor<4x8xf32>
  %m = mk.neg %g : tensor<4x8xf32>
  %s = mk.add_scalar %m, 1.0 : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// Constants are exact: 0.25 = 0.5 * 0.5.
func.func @const_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = mk.mul_scalar %x, 0.25 : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}
// expected-remark @below {{equivalent to @const_ref}}
func.func @const(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @const_ref} {
  %a = mk.mul_scalar %x, 0.5 : tensor<4x8xf32>
  %b = mk.mul_scalar %a, 0.5 : tensor<4x8xf32>
  return %b : tensor<4x8xf32>
}

// The sum of a concatenation is the sum of the sums.
func.func @concat_ref(%a: tensor<4x3xf32>, %b: tensor<4x5xf32>) -> tensor<4x1xf32> {
  %c = mk.concat %a, %b dim = 1 : tensor<4x3xf32>, tensor<4x5xf32> -> tensor<4x8xf32>
  %s = mk.reduce_sum %c dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  return %s : tensor<4x1xf32>
}
// expected-remark @below {{equivalent to @concat_ref}}
func.func @concat(%a: tensor<4x3xf32>, %b: tensor<4x5xf32>) -> tensor<4x1xf32> attributes {mk.reference = @concat_ref} {
  %sa = mk.reduce_sum %a dim = 1 : tensor<4x3xf32> -> tensor<4x1xf32>
  %sb = mk.reduce_sum %b dim = 1 : tensor<4x5xf32> -> tensor<4x1xf32>
  %s = mk.add %sb, %sa : tensor<4x1xf32>, tensor<4x1xf32> -> tensor<4x1xf32>
  return %s : tensor<4x1xf32>
}

// rsqrt(x) * y = y / sqrt(x).
func.func @rsqrt_ref(%x: tensor<4x1xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = mk.rsqrt %x : tensor<4x1xf32>
  %p = mk.mul %y, %r : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}
// expected-remark @below {{equivalent to @rsqrt_ref}}
func.func @rsqrt(%x: tensor<4x1xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @rsqrt_ref} {
  %r = mk.sqrt %x : tensor<4x1xf32>
  %p = mk.div %y, %r : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}

// -(a - b) = b - a.
func.func @negsub_ref(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %d = mk.sub %a, %b : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %n = mk.neg %d : tensor<4x8xf32>
  return %n : tensor<4x8xf32>
}
// expected-remark @below {{equivalent to @negsub_ref}}
func.func @negsub(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @negsub_ref} {
  %d = mk.sub %b, %a : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %d : tensor<4x8xf32>
}

// exp(a + b) = exp(a) * exp(b): exact in the field by construction.
func.func @exphom_ref(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = mk.add %a, %b : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %e = mk.exp %s : tensor<4x8xf32>
  return %e : tensor<4x8xf32>
}
// expected-remark @below {{equivalent to @exphom_ref}}
func.func @exphom(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @exphom_ref} {
  %ea = mk.exp %a : tensor<4x8xf32>
  %eb = mk.exp %b : tensor<4x8xf32>
  %e = mk.mul %ea, %eb : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %e : tensor<4x8xf32>
}

// Scaling commutes with the sum: mean computed before or after reducing.
func.func @mean_ref(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %s = mk.reduce_sum %x dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %m = mk.mul_scalar %s, 0.125 : tensor<4x1xf32>
  return %m : tensor<4x1xf32>
}
// expected-remark @below {{equivalent to @mean_ref}}
func.func @mean(%x: tensor<4x8xf32>) -> tensor<4x1xf32> attributes {mk.reference = @mean_ref} {
  %m = mk.mul_scalar %x, 0.125 : tensor<4x8xf32>
  %s = mk.reduce_sum %m dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  return %s : tensor<4x1xf32>
}

// relu and clamp are compared by structure: the same op on the same value.
func.func @relu_ref(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = mk.add %x, %y : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %r = mk.relu %s : tensor<4x8xf32>
  %c = mk.clamp %r min = -1.0 max = 1.0 : tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}
// expected-remark @below {{max/relu/clamp/pow compared by structure only}}
func.func @relu(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @relu_ref} {
  %s = mk.add %y, %x : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %r = mk.relu %s : tensor<4x8xf32>
  %c = mk.clamp %r min = -1.0 max = 1.0 : tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}
