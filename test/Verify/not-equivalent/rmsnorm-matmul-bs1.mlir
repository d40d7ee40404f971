// Near misses of the fused RMSNorm+MatMul at bs 1 shapes (DESIGN §8): the rms
// accumulator without its epsilon, and X partitioned over the grid along the
// shared dim instead of walked by the loop.
// RUN: mirage-opt --mirage-check-equivalence="tests=2" %s -verify-diagnostics -o /dev/null

func.func @rmsnorm_matmul_ref(%x: tensor<2x4096xf16>, %w: tensor<4096x6144xf16>) -> tensor<2x6144xf16> {
  %n = mk.rms_norm %x eps = 1.0e-6 : tensor<2x4096xf16>
  %y = mk.matmul %n, %w : tensor<2x4096xf16>, tensor<4096x6144xf16> -> tensor<2x6144xf16>
  return %y : tensor<2x6144xf16>
}

// expected-error @below {{not equivalent to @rmsnorm_matmul_ref: output #0 element [}}
func.func @missing_eps(%x: tensor<2x4096xf16>, %w: tensor<4096x6144xf16>) -> tensor<2x6144xf16> attributes {mk.reference = @rmsnorm_matmul_ref} {
  %y = mk.graph_kernel (%x, %w) grid = [256, 1, 1] block = [128, 1, 1] forloop = 32 {
  ^bb0(%X: tensor<2x4096xf16>, %W: tensor<4096x6144xf16>):
    %acc:2 = mb.for_loop -> (tensor<2x1xf16>, tensor<2x24xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x4096xf16> -> tensor<2x128xf16>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<4096x6144xf16> -> tensor<128x24xf16>
      %m = mb.matmul %xt, %wt : tensor<2x128xf16>, tensor<128x24xf16> -> tensor<2x24xf16>
      %r = mb.accum_rms_last %xt eps = 0.0 : tensor<2x128xf16> -> tensor<2x1xf16>
      %s = mb.accum_sum %m : tensor<2x24xf16> -> tensor<2x24xf16>
      mb.yield %r, %s : tensor<2x1xf16>, tensor<2x24xf16>
    }
    %q = mb.div %acc#1, %acc#0 : tensor<2x24xf16>, tensor<2x1xf16> -> tensor<2x24xf16>
    %o = mb.output_saver %q omap = [1, -1, -1] : tensor<2x24xf16> -> tensor<2x6144xf16>
    mb.return %o : tensor<2x6144xf16>
  } : (tensor<2x4096xf16>, tensor<4096x6144xf16>) -> tensor<2x6144xf16>
  return %y : tensor<2x6144xf16>
}

// Wrong imap of X: the grid splits X's shared dim (imap [1]) and every
// iteration rereads the block's slice, so each block multiplies copies of
// 1/256 of X instead of walking all of it.
// expected-error @below {{not equivalent to @rmsnorm_matmul_ref: output #0 element [}}
func.func @wrong_x_imap(%x: tensor<2x4096xf16>, %w: tensor<4096x6144xf16>) -> tensor<2x6144xf16> attributes {mk.reference = @rmsnorm_matmul_ref} {
  %y = mk.graph_kernel (%x, %w) grid = [256, 1, 1] block = [128, 1, 1] forloop = 16 {
  ^bb0(%X: tensor<2x4096xf16>, %W: tensor<4096x6144xf16>):
    %acc:2 = mb.for_loop -> (tensor<2x1xf16>, tensor<2x24xf16>) {
      %xt = mb.input_iter %X imap = [1, -1, -1] fmap = -1 : tensor<2x4096xf16> -> tensor<2x16xf16>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<4096x6144xf16> -> tensor<256x24xf16>
      %x16 = mb.concat %xt, %xt, %xt, %xt, %xt, %xt, %xt, %xt, %xt, %xt, %xt, %xt, %xt, %xt, %xt, %xt dim = 1 : tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16> -> tensor<2x256xf16>
      %m = mb.matmul %x16, %wt : tensor<2x256xf16>, tensor<256x24xf16> -> tensor<2x24xf16>
      %r = mb.accum_rms_last %x16 eps = 1.0e-6 : tensor<2x256xf16> -> tensor<2x1xf16>
      %s = mb.accum_sum %m : tensor<2x24xf16> -> tensor<2x24xf16>
      mb.yield %r, %s : tensor<2x1xf16>, tensor<2x24xf16>
    }
    %q = mb.div %acc#1, %acc#0 : tensor<2x24xf16>, tensor<2x1xf16> -> tensor<2x24xf16>
    %o = mb.output_saver %q omap = [1, -1, -1] : tensor<2x24xf16> -> tensor<2x6144xf16>
    mb.return %o : tensor<2x6144xf16>
  } : (tensor<2x4096xf16>, tensor<4096x6144xf16>) -> tensor<2x6144xf16>
  return %y : tensor<2x6144xf16>
}
