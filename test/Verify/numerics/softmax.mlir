// The check in the kernels' precision (numerics=1) rejects softmax without
// its max subtraction against the max-subtracted reference in f16: on
// logits of magnitude 30, exp overflows f16 (above ~11) in the candidate but
// never in the reference. Without numerics=1 the same pair is equivalent
// (it is, over the reals).
// RUN: mirage-opt --mirage-check-equivalence="numerics=1" %s -verify-diagnostics -o /dev/null
// RUN: mirage-opt --mirage-check-equivalence %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REALS

// REALS: remark: equivalent to @softmax_ref
// REALS-SAME: numerics in the kernels' precision: not run
// REALS: remark: equivalent to @softmax_ref
// REALS: remark: equivalent to @softmax_ref

func.func @softmax_ref(%x: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %m = mk.reduce_max %x dim = 1 : tensor<4x64xf16> -> tensor<4x1xf16>
  %d = mk.sub %x, %m : tensor<4x64xf16>, tensor<4x1xf16> -> tensor<4x64xf16>
  %e = mk.exp %d : tensor<4x64xf16>
  %s = mk.reduce_sum %e dim = 1 : tensor<4x64xf16> -> tensor<4x1xf16>
  %p = mk.div %e, %s : tensor<4x64xf16>, tensor<4x1xf16> -> tensor<4x64xf16>
  return %p : tensor<4x64xf16>
}

// The max-free form as kernels: exp(x) is stored in f16 and overflows.
// expected-error @below {{numerically inaccurate against @softmax_ref (equivalent over the reals): f16 numerics: rejected on logits inputs: output #0 error inf}}
func.func @softmax_nomax(%x: tensor<4x64xf16>) -> tensor<4x64xf16> attributes {mk.reference = @softmax_ref} {
  %e = mk.exp %x : tensor<4x64xf16>
  %s = mk.reduce_sum %e dim = 1 : tensor<4x64xf16> -> tensor<4x1xf16>
  %p = mk.div %e, %s : tensor<4x64xf16>, tensor<4x1xf16> -> tensor<4x64xf16>
  return %p : tensor<4x64xf16>
}

// The max-free form fused into one kernel, exp in a thread graph and both
// sums in f32 accumulators: the exp tile is still stored in f16.
// expected-error @below {{numerically inaccurate against @softmax_ref (equivalent over the reals): f16 numerics: rejected on logits inputs}}
func.func @softmax_nomax_fused(%x: tensor<4x64xf16>) -> tensor<4x64xf16> attributes {mk.reference = @softmax_ref} {
  %y = mk.graph_kernel (%x) grid = [4, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<4x64xf16>):
    %acc:2 = mb.for_loop -> (tensor<1x64xf16>, tensor<1x1xf16>) {
      %t = mb.input_iter %X imap = [0, -1, -1] fmap = -1 : tensor<4x64xf16> -> tensor<1x64xf16>
      %e = mt.thread_graph (%t) : (tensor<1x64xf16>) -> tensor<1x64xf16> {
      ^bb0(%a: f16):
        %v = mt.exp %a : f16
        mt.yield %v : f16
      }
      %n = mb.accum_sum %e : tensor<1x64xf16> -> tensor<1x64xf16>
      %d = mb.accum_sum_last %e : tensor<1x64xf16> -> tensor<1x1xf16>
      mb.yield %n, %d : tensor<1x64xf16>, tensor<1x1xf16>
    }
    %q = mb.div %acc#0, %acc#1 : tensor<1x64xf16>, tensor<1x1xf16> -> tensor<1x64xf16>
    %o = mb.output_saver %q omap = [0, -1, -1] : tensor<1x64xf16> -> tensor<4x64xf16>
    mb.return %o : tensor<4x64xf16>
  } : (tensor<4x64xf16>) -> tensor<4x64xf16>
  return %y : tensor<4x64xf16>
}

// The max-subtracted form fused into one kernel: accepted.
// expected-remark @below {{equivalent to @softmax_ref}}
func.func @softmax_fused(%x: tensor<4x64xf16>) -> tensor<4x64xf16> attributes {mk.reference = @softmax_ref} {
  %y = mk.graph_kernel (%x) grid = [4, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<4x64xf16>):
    %acc:2 = mb.for_loop -> (tensor<1x64xf16>, tensor<1x1xf16>) {
      %t = mb.input_iter %X imap = [0, -1, -1] fmap = -1 : tensor<4x64xf16> -> tensor<1x64xf16>
      %m = mb.reduce_max %t dim = 1 : tensor<1x64xf16> -> tensor<1x1xf16>
      %e = mt.thread_graph (%t, %m) : (tensor<1x64xf16>, tensor<1x1xf16>) -> tensor<1x64xf16> {
      ^bb0(%a: f16, %b: f16):
        %s = mt.sub %a, %b : f16
        %v = mt.exp %s : f16
        mt.yield %v : f16
      }
      %n = mb.accum_sum %e : tensor<1x64xf16> -> tensor<1x64xf16>
      %d = mb.accum_sum_last %e : tensor<1x64xf16> -> tensor<1x1xf16>
      mb.yield %n, %d : tensor<1x64xf16>, tensor<1x1xf16>
    }
    %q = mb.div %acc#0, %acc#1 : tensor<1x64xf16>, tensor<1x1xf16> -> tensor<1x64xf16>
    %o = mb.output_saver %q omap = [0, -1, -1] : tensor<1x64xf16> -> tensor<4x64xf16>
    mb.return %o : tensor<4x64xf16>
  } : (tensor<4x64xf16>) -> tensor<4x64xf16>
  return %y : tensor<4x64xf16>
}
