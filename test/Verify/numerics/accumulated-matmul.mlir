// RMSNorm+MatMul fused (the paper's Fig. 3): a loop accumulates X_k.W_k and
// the rms of X and divides after it. Each trip's matmul sums 256 products;
// on inputs of magnitude 100 those partial sums reach ~1e5, past f16's
// 65504, although the result (divided by the rms) does not. The generated
// code keeps a matmul tile that only accumulators read in f32
// (mb::keptInF32), and so does the kernels'-precision evaluation: the fused
// kernel is as accurate as the reference. A matmul tile that another op
// reads first is stored in f16 and overflows: rejected on large logits.
// RUN: mirage-opt --mirage-check-equivalence="numerics=1" %s -verify-diagnostics -o /dev/null

func.func @ref(%x: tensor<2x1024xf16>, %w: tensor<1024x64xf16>) -> tensor<2x64xf16> {
  %n = mk.rms_norm %x eps = 1.0e-06 : tensor<2x1024xf16>
  %o = mk.matmul %n, %w : tensor<2x1024xf16>, tensor<1024x64xf16> -> tensor<2x64xf16>
  return %o : tensor<2x64xf16>
}

// expected-remark @below {{f16 numerics: accepted}}
func.func @fused(%x: tensor<2x1024xf16>, %w: tensor<1024x64xf16>) -> tensor<2x64xf16> attributes {mk.reference = @ref} {
  %0 = mk.graph_kernel(%x, %w) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%a: tensor<2x1024xf16>, %b: tensor<1024x64xf16>):
    %r:2 = mb.for_loop -> (tensor<2x1xf16>, tensor<2x64xf16>) {
      %xt = mb.input_iter %a imap = [-1, -1, -1] fmap = 1 : tensor<2x1024xf16> -> tensor<2x256xf16>
      %wt = mb.input_iter %b imap = [-1, -1, -1] fmap = 0 : tensor<1024x64xf16> -> tensor<256x64xf16>
      %m = mb.matmul %xt, %wt : tensor<2x256xf16>, tensor<256x64xf16> -> tensor<2x64xf16>
      %rms = mb.accum_rms_last %xt eps = 1.0e-06 : tensor<2x256xf16> -> tensor<2x1xf16>
      %acc = mb.accum_sum %m : tensor<2x64xf16> -> tensor<2x64xf16>
      mb.yield %rms, %acc : tensor<2x1xf16>, tensor<2x64xf16>
    }
    %d = mb.div %r#1, %r#0 : tensor<2x64xf16>, tensor<2x1xf16> -> tensor<2x64xf16>
    %s = mb.output_saver %d omap = [-1, -1, -1] : tensor<2x64xf16> -> tensor<2x64xf16>
    mb.return %s : tensor<2x64xf16>
  } : (tensor<2x1024xf16>, tensor<1024x64xf16>) -> tensor<2x64xf16>
  return %0 : tensor<2x64xf16>
}

// expected-error @below {{f16 numerics: rejected on large-logits inputs: output #0 error inf}}
func.func @fused_f16_tile(%x: tensor<2x1024xf16>, %w: tensor<1024x64xf16>) -> tensor<2x64xf16> attributes {mk.reference = @ref} {
  %0 = mk.graph_kernel(%x, %w) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%a: tensor<2x1024xf16>, %b: tensor<1024x64xf16>):
    %r:2 = mb.for_loop -> (tensor<2x1xf16>, tensor<2x64xf16>) {
      %xt = mb.input_iter %a imap = [-1, -1, -1] fmap = 1 : tensor<2x1024xf16> -> tensor<2x256xf16>
      %wt = mb.input_iter %b imap = [-1, -1, -1] fmap = 0 : tensor<1024x64xf16> -> tensor<256x64xf16>
      %m = mb.matmul %xt, %wt : tensor<2x256xf16>, tensor<256x64xf16> -> tensor<2x64xf16>
      %m1 = mb.mul_scalar %m, 1.0 : tensor<2x64xf16>
      %rms = mb.accum_rms_last %xt eps = 1.0e-06 : tensor<2x256xf16> -> tensor<2x1xf16>
      %acc = mb.accum_sum %m1 : tensor<2x64xf16> -> tensor<2x64xf16>
      mb.yield %rms, %acc : tensor<2x1xf16>, tensor<2x64xf16>
    }
    %d = mb.div %r#1, %r#0 : tensor<2x64xf16>, tensor<2x1xf16> -> tensor<2x64xf16>
    %s = mb.output_saver %d omap = [-1, -1, -1] : tensor<2x64xf16> -> tensor<2x64xf16>
    mb.return %s : tensor<2x64xf16>
  } : (tensor<2x1024xf16>, tensor<1024x64xf16>) -> tensor<2x64xf16>
  return %0 : tensor<2x64xf16>
}
